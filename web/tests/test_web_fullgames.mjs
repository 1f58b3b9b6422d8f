// test_web_fullgames.mjs: issue 31's "done when" for the page: a full game
// of each of the five games played with the keyboard alone (Tab to the
// board, arrow keys between squares, Enter or Space to choose: board.js),
// and one full game on a 360x740 phone screen by taps. Bounded and
// deterministic: bots at level 1 (Ataxx 5x5, Stones), the positions and
// levels the other tests solve (Amazons' last move from a loaded
// position, a one-jump solitaire board, Shape Shifter level 1 by its
// hints). Rooms are made with the lobby's form; every move with keys.
// TABLERO_SHOTS=DIR saves the screenshots.

import { Checks, args, runTest, newPage, login, loggedInPage, text, clickSq,
  createRoom, litSquares, until, sleep, WAIT_MS } from "./lib.mjs";

const ck = new Checks();
const a = args();
const SHOTS = process.env.TABLERO_SHOTS;
const PHONE = { width: 360, height: 740 };
// A game against a level-1 bot ends well within this many of our moves
// (Ataxx 5x5 fills in about 12; Stones ends by three in a row or a third
// repetition); past it the test fails rather than runs on.
const MAX_MOVES = 60;
// Tabs from anywhere on the page to the board, or to a button: the page
// has fewer focusable things than this.
const MAX_TABS = 120;

async function shot(p, name) {
  if (SHOTS) await p.screenshot({ path: SHOTS + "/" + name + ".png" });
}

const activeSq = (p) => p.evaluate(() => document.activeElement?.dataset?.sq || null);
const moveCount = (p) => p.$$eval(".moves li", (l) => l.length);
const turnText = (p) => text(p, ".turn");

// Tab (Shift+Tab when back) until sel has the focus.
async function tabTo(p, sel, back = false) {
  for (let i = 0; i < MAX_TABS; i++) {
    if (await p.evaluate((s) => !!document.activeElement && document.activeElement.matches(s), sel)) return;
    await p.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  throw new Error("Tab never reached " + sel);
}

// The arrow keys from the focused square to sq (the board drawn from
// the first seat's side: not turned).
async function arrowTo(p, sq) {
  if (!(await activeSq(p))) await tabTo(p, ".cell");
  for (let i = 0; i < 40; i++) {
    const [cur, to] = await p.evaluate((s) => {
      const x = document.activeElement, y = document.querySelector(`.cell[data-sq="${s}"]`);
      return [[+x.dataset.r, +x.dataset.c], [+y.dataset.r, +y.dataset.c]];
    }, sq);
    if (cur[0] === to[0] && cur[1] === to[1]) return;
    await p.keyboard.press(to[0] > cur[0] ? "ArrowDown" : to[0] < cur[0] ? "ArrowUp" : to[1] > cur[1] ? "ArrowRight" : "ArrowLeft");
  }
  throw new Error("the arrow keys never reached " + sq);
}

// Choose sq with the keyboard (Enter, or Space every other time) and
// wait until the page has handled it.
let spaces = 0;
async function keyChoose(p, sq) {
  await arrowTo(p, sq);
  const n = Number(await p.evaluate(() => document.body.dataset.clicks || 0));
  await p.keyboard.press(++spaces % 2 ? "Enter" : " ");
  await until(p, (k) => Number(document.body.dataset.clicks || 0) > k, n, "key on " + sq);
}

// Wait for our turn or the end; true at our turn.
async function ourTurnOrEnd(p) {
  await until(p, () => /Your turn|Game over/.test(document.querySelector(".turn")?.textContent || ""), null, "our turn or the end");
  return (await turnText(p)).includes("Your turn");
}

// One move of ours, found as a player would: a square that is ours (or
// an empty point, for a placement) chosen, then the first lit square
// until the move is made. choose: keyChoose or a tap.
async function oneMove(p, choose, mine) {
  const before = await moveCount(p);
  const cells = await p.$$eval(".cell", (l) => l.map((c) => [c.dataset.sq, c.getAttribute("aria-label") || ""]));
  for (const [sq, label] of cells) {
    if (!mine(label)) continue;
    await choose(p, sq);
    for (let step = 0; step < 4; step++) {
      if ((await moveCount(p)) > before || !(await turnText(p)).includes("Your turn")) return true;
      const lit = await litSquares(p);
      if (!lit.length) break;
      await choose(p, lit[0]);
      // The last step sends the move: its reply (held until the server
      // commits it, slow under ASan) is waited for, not taken for a
      // refusal; a step that lights more squares (the arrow) goes on.
      if (await moveTaken(p, before)) return true;
    }
    if ((await moveCount(p)) > before || !(await turnText(p)).includes("Your turn")) return true;
  }
  // No piece of ours lit a square: our turn may be passing (a forced
  // pass follows the bot's move; the page said "Your turn" in between)
  // or a reply may be late; a turn that stays ours with nothing to play
  // fails after WAIT_MS, saying what the page showed.
  try {
    await until(p, (k) => document.querySelectorAll(".moves li").length > k ||
      !/Your turn/.test(document.querySelector(".turn")?.textContent || ""), before, "a move or the turn passing");
    return true;
  } catch (e) {
    console.log(`no move found: turn "${await turnText(p)}", ${await moveCount(p)} moves (${before} before), ` +
      `notice "${await text(p, "#room .notice")}", our pieces ${cells.filter(([, l]) => mine(l)).map(([q]) => q).join(" ")}`);
    return false;
  }
}

// After a click that may have sent a move: true once it is taken (the
// list grew or the turn passed), false when squares are lit again (the
// next step) or nothing is lit and nothing was sent (a refusal says so
// at once) past MOVE_WAIT_MS.
const MOVE_WAIT_MS = 5000;
async function moveTaken(p, before) {
  const t0 = Date.now();
  while (Date.now() - t0 < MOVE_WAIT_MS) {
    if ((await moveCount(p)) > before || !(await turnText(p)).includes("Your turn")) return true;
    if ((await litSquares(p)).length) return false;
    await sleep(50);
  }
  return false;
}

// A game against the bot to its end; resolves with our moves.
async function playOut(p, choose, mine) {
  let n = 0;
  while (await ourTurnOrEnd(p)) {
    if (++n > MAX_MOVES) throw new Error("no end within " + MAX_MOVES + " moves");
    if (!(await oneMove(p, choose, mine))) throw new Error("no move found at move " + n);
    await until(p, () => !(document.querySelector(".turn")?.textContent || "").includes("Your turn") ||
      document.querySelectorAll(".moves li").length > 0, null, "the move taken");
    await sleep(50);
  }
  return n;
}

const onKeys = (p) => p.evaluate(() => !!document.activeElement?.dataset?.sq);

// Ataxx 5x5 and Stones against level-1 bots, with the keyboard.
async function botGames(browser, srv) {
  for (const [game, opts, mine] of [
    ["ataxx", { size: 5 }, (l) => l.endsWith(": white piece")],
    ["stones", { first: 1 }, (l) => l.endsWith(": player 1's stone") || l.endsWith(": empty")]]) {
    const p = await loggedInPage(browser, srv.url, "kb" + game.slice(0, 4));
    await createRoom(p, game, opts, 1);
    await tabTo(p, ".cell");
    const n = await playOut(p, keyChoose, mine);
    const end = await turnText(p);
    ck.ok(end.includes("Game over"), `${game}: played with the keyboard to its end in ${n} moves: ${end}`);
    ck.ok(n >= 3, `${game}: a whole game (${n} moves of ours)`);
    console.log(`${game} by keyboard: ${n} moves, ${end}`);
    ck.ok(await onKeys(p), `${game}: the keyboard's focus is still on the board at the end`);
    await shot(p, "web-keyboard-" + game + "-end");
    ck.eq(p.errors, [], `no script errors (${game} by keyboard)`);
    await p.context().close();
  }
}

// Amazons from a loaded position (test_web_games.mjs): i10-i9/h10 ends
// the game; Peg solitaire from a one-jump board; both with the keyboard.
async function loadedGames(browser, srv) {
  for (const [game, file, squares, want] of [
    ["amazons", "a1,b1,c1,i10\na10,c10,e10,g10\nb10,d10,f10,a9,b9,c9,d9,e9,f9,g9,h9,j9\n1\n", ["i10", "i9", "h10"], "kbam wins"],
    ["solitaire", "3 4\n0 0 0 0\n2 2 1 1\n0 0 0 0\n1 2\n", ["2,1", "2,3"], "solved"]]) {
    const p = await loggedInPage(browser, srv.url, "kb" + game.slice(0, 2));
    await p.selectOption("select[name=game]", game);
    if (game === "amazons") await p.selectOption("select[name=bot]", "1");
    await p.setInputFiles(".create input[type=file]", { name: "board.txt", mimeType: "text/plain", buffer: Buffer.from(file) });
    await sleep(200);
    await tabTo(p, ".create-btn");
    await p.keyboard.press("Enter");
    await p.waitForSelector(".board", { timeout: WAIT_MS });
    await ourTurnOrEnd(p);
    await tabTo(p, ".cell");
    for (const sq of squares) await keyChoose(p, sq);
    await until(p, () => /Game over/.test(document.querySelector(".turn")?.textContent || ""), null, game + " end");
    const end = await turnText(p);
    ck.ok(end.includes(want), `${game}: won with the keyboard: ${end}`);
    await shot(p, "web-keyboard-" + game + "-end");
    ck.eq(p.errors, [], `no script errors (${game} by keyboard)`);
    await p.context().close();
  }
}

// Shape Shifter level 1 by its hints: the Hint button reached with Tab,
// the hinted square with the arrow keys (the active piece is chosen
// already), to the "level won" screen.
async function shifterKeys(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "kbsh");
  await createRoom(p, "shifter", { level: 1 });
  for (let i = 0; i < 10 && !(await p.$(".level-won")); i++) {
    await ourTurnOrEnd(p);
    await until(p, () => document.querySelectorAll(".lit, .lit-ring").length > 0, null, "lit captures");
    await tabTo(p, ".actions .hint");
    await p.keyboard.press("Enter");
    await until(p, () => /: [a-h][1-8]$/.test(document.querySelector(".hint")?.textContent || ""), null, "hint");
    const sq = (await text(p, ".hint")).split(": ")[1];
    await tabTo(p, ".cell", true);
    const n = await moveCount(p);
    await keyChoose(p, sq);
    await until(p, (k) => document.querySelectorAll(".moves li").length > k || document.querySelector(".level-won"), n, "capture");
  }
  ck.ok(await p.$(".level-won"), "Shape Shifter level 1 won with the keyboard");
  ck.ok(await p.evaluate(() => document.activeElement?.classList.contains("level-next")), "the keyboard is on the next level's button");
  await shot(p, "web-keyboard-shifter-end");
  ck.eq(p.errors, [], "no script errors (shifter by keyboard)");
  await p.context().close();
}

// A whole Ataxx 5x5 game on a 360x740 phone, by taps: the board fits
// the width, nothing scrolls sideways, the end is shown.
async function phoneGame(browser, srv) {
  const p = await newPage(browser, srv.url, PHONE);
  await login(p, "phgame");
  await createRoom(p, "ataxx", { size: 5 }, 1);
  const box = await p.$eval(".board", (b) => b.getBoundingClientRect().toJSON());
  ck.ok(box.left >= 0 && box.right <= 360, `the board fits a 360 px phone (${box.left}-${box.right})`);
  const n = await playOut(p, clickSq, (l) => l.endsWith(": white piece"));
  const end = await turnText(p);
  ck.ok(end.includes("Game over"), `a whole game on the phone in ${n} moves: ${end}`);
  console.log(`phone ataxx: ${n} moves, ${end}`);
  const wide = await p.evaluate(() => document.documentElement.scrollWidth);
  ck.ok(wide <= 360, "no sideways scroll on the phone at the end: " + wide);
  await shot(p, "web-phone-game-end");
  ck.eq(p.errors, [], "no script errors (phone game)");
  await p.context().close();
}

await runTest(ck, a.build, async (browser, srv) => {
  for (const [name, fn] of [["bots", botGames], ["loaded", loadedGames], ["shifter", shifterKeys], ["phone", phoneGame]]) {
    try { await fn(browser, srv); } catch (e) { ck.ok(false, name + ": " + (e && e.stack || e)); }
  }
});
