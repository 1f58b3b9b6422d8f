// test_web_board.mjs: the room's board and buttons as issue 31 asked
// them: a question before Resign or Leave ends a rated game (and Resign
// away from "Offer a draw" on a phone), Shape Shifter's legend and "level
// won" screen, the Amazons arrow step, Ataxx's clone and jump targets and
// score, and the sentences for a refused or out-of-turn click.
// TABLERO_SHOTS=DIR saves the screenshots.

import { Checks, args, runTest, newPage, login, loggedInPage, waitTurn,
  text, clickSq, waitMoves, createRoom, litSquares, until, sleep, resign, WAIT_MS, pair } from "./lib.mjs";

const ck = new Checks();
const a = args();
const SHOTS = process.env.TABLERO_SHOTS;
const PHONE = { width: 360, height: 740 };

async function shot(p, name) {
  if (SHOTS) await p.screenshot({ path: SHOTS + "/" + name + ".png" });
}

// 1. Resign and Leave ask first; "Cancel" keeps the game; on a phone
// Resign is on another row than "Offer a draw".
async function confirmResign(browser, srv) {
  const { x, y } = await pair(browser, srv, "cfa", "cfb", "ataxx", {}, PHONE);
  await x.click(".resign");
  ck.ok(await x.$("dialog.confirm[open]"), "Resign opens a question");
  ck.ok((await text(x, "dialog.confirm")).includes("rated"), "the question says the game is rated: " + await text(x, "dialog.confirm"));
  await x.click("dialog.confirm .confirm-cancel");
  await sleep(300);
  ck.ok(!(await x.$("dialog.confirm")), "Cancel closes the question");
  ck.ok((await text(x, ".turn")).includes("Your turn"), "Cancel keeps the game running");
  // the phone: Resign on a row below the draw offer
  await waitTurn(y, "white");
  const off = await y.$eval(".offer_draw", (e) => e.getBoundingClientRect().toJSON());
  const res = await y.$eval(".resign", (e) => e.getBoundingClientRect().toJSON());
  ck.ok(res.top >= off.bottom + 8, `on a 360 px phone Resign is a row below Offer a draw (${res.top} vs ${off.bottom})`);
  const wide = await y.evaluate(() => document.documentElement.scrollWidth);
  ck.ok(wide <= 360, "the room fits a 360 px phone: " + wide);
  await shot(y, "web-phone-room");
  // Leave asks too; "Leave" in the question ends the game
  await y.click(".leave");
  await y.waitForSelector("dialog.confirm[open]");
  await shot(y, "web-confirm-leave");
  ck.ok((await text(y, "dialog.confirm")).includes("resigns"), "Leave's question says it resigns");
  await y.click("dialog.confirm .confirm-ok");
  await waitTurn(x, "resignation");
  ck.ok((await text(x, ".turn")).includes("cfa wins"), "confirmed Leave resigned the game: " + await text(x, ".turn"));
  ck.eq(x.errors.concat(y.errors), [], "no script errors (confirm)");
  for (const p of [x, y]) await p.context().close();
}

// 2. Shape Shifter: the legend of the letters; a won level stays on the
// screen with "level won" until the player goes on; no "Next level"
// after a lost one.
async function shifterScreens(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "shs");
  await createRoom(p, "shifter", { level: 1 });
  await p.waitForSelector(".legend");
  const legend = await text(p, ".legend");
  ck.ok(/C\s*knight \(caballo\)/.test(legend) && /T\s*rook/.test(legend) && /A\s*bishop/.test(legend),
    "the legend names the letters: " + legend);
  for (let i = 0; i < 4 && !(await p.$(".level-won")); i++) {
    await waitTurn(p, "Your turn");
    await p.click(".actions .hint");
    await until(p, () => /: [a-h][1-8]$/.test(document.querySelector(".hint")?.textContent || ""), null, "hint");
    const n = await p.$$eval(".moves li", (l) => l.length);
    await clickSq(p, (await text(p, ".hint")).split(": ")[1]);
    await until(p, (k) => document.querySelectorAll(".moves li").length > k || document.querySelector(".level-won"), n, "capture");
  }
  await p.waitForSelector(".level-won", { timeout: 5000 });
  await sleep(500); // the next level's events have come: the screen stays
  ck.ok((await text(p, ".level-won")).includes("Level 1 won!"), "the level-won screen: " + await text(p, ".level-won"));
  ck.ok((await text(p, ".room-title")).includes("level 1"), "the won level's board is still shown");
  ck.eq(await p.$$eval(".cell", (cs) => cs.filter((c) => c.querySelector("circle")).length), 1, "the won board: one piece left");
  await shot(p, "web-shifter-won");
  await p.click(".level-next");
  await until(p, () => document.querySelector(".room-title").textContent.includes("level 2"), null, "level 2");
  ck.ok(!(await p.$(".level-won")), "the button goes on to level 2");
  await p.click(".actions .back");
  // a lost level (from a file: the rook takes the knight, which cannot
  // reach the bishop): no "Next level"
  await p.selectOption("select[name=game]", "shifter");
  await p.setInputFiles(".create input[type=file]", { name: "lost.txt", mimeType: "text/plain",
    buffer: Buffer.from("shifter level 1\ntC......\n........\n........\n........\n........\n........\n........\n.......A\nC caballo\nT torre\nA alfil\n") });
  await sleep(200);
  await p.click(".create-btn");
  await p.waitForSelector(".board");
  await waitTurn(p, "Your turn");
  await clickSq(p, "b8");
  await waitTurn(p, "no capture left");
  ck.ok(!(await p.$(".actions .next_level")), "no Next level after a lost level");
  ck.ok(!(await p.$(".level-won")), "no level-won screen after a lost level");
  ck.ok(await p.$(".actions .restart"), "Restart is there to retry it");
  await shot(p, "web-shifter-lost");
  ck.eq(p.errors, [], "no script errors (shifter)");
  await p.context().close();
}

// What a cell shows: "W", "B", "*" (arrow) or "" (Amazons).
const cellIs = (p, sq) => p.$eval(`.cell[data-sq="${sq}"]`, (c) =>
  c.querySelector(".p-white") ? "W" : c.querySelector(".p-black") ? "B" : c.querySelector(".arrow") ? "*" : "");

// 3. Amazons: the amazon drawn on its new square during the arrow step,
// the step said in words, a misclick keeping the move, the amazon
// clicked again taking the step back.
async function amazonsArrow(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "ams");
  await createRoom(p, "amazons", {}, 1);
  await waitTurn(p, "Your turn");
  await clickSq(p, "d1");
  ck.ok((await text(p, ".turn")).includes("move the amazon from d1"), "the first step in words: " + await text(p, ".turn"));
  await clickSq(p, "d4");
  ck.eq([await cellIs(p, "d1"), await cellIs(p, "d4")], ["", "W"], "during the arrow step the amazon is on d4, not d1");
  ck.ok((await text(p, ".turn")).includes("Now shoot an arrow from d4"), "the arrow step in words: " + await text(p, ".turn"));
  const lit = await litSquares(p);
  ck.ok(lit.includes("d1") && lit.includes("d8"), "the arrow's squares are lit (d1, left free, too)");
  await shot(p, "web-amazons-arrow");
  await clickSq(p, "b9"); // no line from d4
  ck.eq(await litSquares(p), lit, "a misclick keeps the move: the same arrows lit");
  ck.ok((await text(p, "#room .notice")).includes("straight line"), "a misclick says why: " + await text(p, "#room .notice"));
  await clickSq(p, "d4");
  ck.eq([await cellIs(p, "d1"), await cellIs(p, "d4")], ["W", ""], "the amazon clicked again goes back to d1");
  ck.ok((await litSquares(p)).includes("d4"), "its destinations are lit again");
  await clickSq(p, "d5");
  await clickSq(p, "d9");
  ck.eq((await waitMoves(p, 1))[0], "d1-d5/d9", "the move is played after all");
  ck.eq(p.errors, [], "no script errors (amazons)");
  await p.context().close();
}

// 4. Ataxx: a clone's square and a jump's look different; the score is
// shown beside each seat while playing and at the end, and in the result.
async function ataxxScore(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "axs");
  await createRoom(p, "ataxx", { size: 5 }, 1);
  await waitTurn(p, "Your turn");
  ck.eq([await text(p, '[data-score="white"]'), await text(p, '[data-score="black"]')], ["2", "2"], "the score at the start: 2-2");
  const mine = await p.$$eval(".cell", (cs) => cs.filter((c) => c.querySelector(".p-white")).map((c) => c.dataset.sq));
  await clickSq(p, mine[0]);
  const kinds = await p.$$eval(".cell", (cs) => cs.filter((c) => c.querySelector(".lit")).map((c) =>
    [c.dataset.sq, c.querySelector(".lit").tagName]));
  const clone = kinds.filter(([, tag]) => tag === "circle").map(([sq]) => sq);
  const jump = kinds.filter(([, tag]) => tag === "rect").map(([sq]) => sq);
  ck.ok(clone.length > 0 && jump.length > 0, `clone squares (dots: ${clone}) and jump squares (hollow: ${jump}) are drawn apart`);
  ck.ok((await text(p, ".ataxx-keys")).includes("jump"), "a key says which is which");
  await shot(p, "web-ataxx-targets");
  await clickSq(p, clone[0]);
  await waitMoves(p, 2);
  await waitTurn(p, "Your turn");
  const count = await p.$$eval(".cell", (cs) => ["p-white", "p-black"].map((k) => String(cs.filter((c) => c.querySelector("." + k)).length)));
  ck.eq([await text(p, '[data-score="white"]'), await text(p, '[data-score="black"]')], count,
    "after a clone and the bot's answer the scores are the pieces on the board");
  ck.ok(count[0] !== "2" || count[1] !== "2", "the score changed from 2-2");
  // to the end: the first lit square each turn
  for (let turn = 0; turn < 200; turn++) {
    await until(p, () => /Your turn|Game over/.test(document.querySelector(".turn")?.textContent || ""), null, "turn");
    if ((await text(p, ".turn")).includes("Game over")) break;
    const n = await p.$$eval(".moves li", (l) => l.length);
    const pieces = await p.$$eval(".cell", (cs) => cs.filter((c) => c.querySelector(".p-white")).map((c) => c.dataset.sq));
    for (const src of pieces) {
      await clickSq(p, src);
      const lit = await litSquares(p);
      if (lit.length) { await clickSq(p, lit[0]); break; }
    }
    await until(p, (k) => document.querySelectorAll(".moves li").length > k, n, "move");
  }
  await waitTurn(p, "Game over");
  const w = await text(p, '[data-score="white"]'), b = await text(p, '[data-score="black"]');
  ck.ok(/^\d+$/.test(w) && /^\d+$/.test(b), `the final score beside the seats: ${w}-${b}`);
  ck.ok((await text(p, ".turn")).includes(`: white ${w}, black ${b}`), "the result line has the score: " + await text(p, ".turn"));
  await shot(p, "web-ataxx-end");
  ck.eq(p.errors, [], "no script errors (ataxx)");
  await p.context().close();
}

// 5. A click out of turn says whose turn it is; a refused click gives
// the game's own sentence (Stones: no three in a row while placing).
async function refusedClicks(browser, srv) {
  const { x, y } = await pair(browser, srv, "rfx", "rfy", "stones", { first: "1" });
  await clickSq(y, "B2");
  ck.ok((await text(y, "#room .notice")).includes("not your turn: rfx is to move"),
    "an out-of-turn click says so: " + await text(y, "#room .notice"));
  await shot(y, "web-not-your-turn");
  await clickSq(x, "A1");
  await waitMoves(x, 1);
  await waitTurn(x, "Your turn");
  await clickSq(x, "A2");
  await waitMoves(x, 2);
  await waitTurn(x, "Your turn");
  await clickSq(x, "A3");
  ck.ok((await text(x, "#room .notice")).includes("Cannot complete 3-in-a-row"),
    "a refused click gives the game's sentence: " + await text(x, "#room .notice"));
  await sleep(300);
  ck.eq(await x.$$eval(".moves li", (l) => l.length), 2, "the refused click played nothing");
  await shot(x, "web-refused-click");
  ck.eq(x.errors.concat(y.errors), [], "no script errors (refused clicks)");
  for (const p of [x, y]) await p.context().close();
}

const notice = (p) => text(p, "#room .notice");
const waitNotice = (p, want) => until(p, (w) => (document.querySelector("#room .notice")?.textContent || "").includes(w), want, "notice " + want);

// 6. Take-back and draw offers: the asker sees its offer pending, the
// other side its question and buttons; a refusal is said to the asker;
// an accepted take-back takes the moves back.
async function offers(browser, srv) {
  const { x, y } = await pair(browser, srv, "ofx", "ofy");
  ck.ok(!(await x.$(".actions .takeback")), "no Take back before one's first move");
  await clickSq(x, "a7"); await clickSq(x, "b6");
  await waitTurn(y, "Your turn");
  await clickSq(y, "g7"); await clickSq(y, "f6");
  await waitTurn(x, "Your turn");
  await x.click(".actions .takeback");
  await waitNotice(x, "You asked to take back");
  ck.ok(await x.$(".actions .takeback.pending[disabled]"), "the asker's Take back button shows it pending");
  await waitNotice(y, "ofx asks to take back their last move");
  ck.ok(await y.$(".actions .accept_takeback") && await y.$(".actions .decline_takeback"), "the other side may allow or refuse");
  await shot(y, "web-takeback-asked");
  await y.click(".actions .decline_takeback");
  await waitNotice(x, "ofy declined the take-back");
  ck.ok(await x.$(".actions .takeback:not(.pending)"), "after the refusal the asker may ask again");
  await x.click(".actions .offer_draw");
  await waitNotice(x, "You offered a draw");
  ck.ok(await x.$(".actions .offer_draw.pending[disabled]"), "the offerer's draw button shows it pending");
  await shot(x, "web-draw-pending");
  await waitNotice(y, "ofx offers a draw");
  await y.click(".actions .decline_draw");
  await waitNotice(x, "ofy declined the draw");
  await x.click(".actions .takeback");
  await waitNotice(y, "asks to take back");
  await y.click(".actions .accept_takeback");
  await until(x, () => document.querySelectorAll(".moves li").length === 0, null, "moves taken back");
  await waitTurn(x, "Your turn");
  ck.ok(await x.$('.cell[data-sq="b6"]') && !(await x.$('.cell[data-sq="b6"] .p-white')), "the take-back emptied b6");
  ck.ok(!(await notice(x)).includes("asked"), "no offer pending after the take-back: " + await notice(x));
  ck.eq(x.errors.concat(y.errors), [], "no script errors (offers)");
  for (const p of [x, y]) await p.context().close();
}

// The top of a square's cell on the page, and its left.
const at = (p, sq) => p.$eval(`.cell[data-sq="${sq}"] rect`, (e) => { const b = e.getBoundingClientRect(); return [b.left, b.top]; });

// 7. The second seat sees the board from its side, and Flip turns it;
// no Rematch beside Restart in a one-player game; "Seeking..." is news,
// not an error.
async function flipAndButtons(browser, srv) {
  const { x, y } = await pair(browser, srv, "flx", "fly", "amazons");
  const [xa1, xa10] = [await at(x, "a1"), await at(x, "a10")];
  ck.ok(xa1[1] > xa10[1], "white sees rank 1 at the bottom");
  const [ya1, ya10, yj1] = [await at(y, "a1"), await at(y, "a10"), await at(y, "j1")];
  ck.ok(ya1[1] < ya10[1] && ya1[0] > yj1[0], "black sees the board turned: rank 1 on top, file a on the right");
  await clickSq(x, "d1"); await clickSq(x, "d4"); await clickSq(x, "d8");
  await waitTurn(y, "Your turn");
  await clickSq(y, "d10"); await clickSq(y, "d9"); await clickSq(y, "e9");
  ck.eq(await waitMoves(x, 2), ["d1-d4/d8", "d10-d9/e9"], "black plays on the turned board");
  await shot(y, "web-flipped");
  await y.click(".actions .flip");
  const [fa1, fa10] = [await at(y, "a1"), await at(y, "a10")];
  ck.ok(fa1[1] > fa10[1], "Flip turns black's board back to rank 1 at the bottom");
  ck.eq(x.errors.concat(y.errors), [], "no script errors (flip)");
  for (const p of [x, y]) await p.context().close();

  const p = await loggedInPage(browser, srv.url, "flone");
  await p.selectOption("select[name=game]", "solitaire");
  await p.setInputFiles(".create input[type=file]", {
    name: "board.txt", mimeType: "text/plain", buffer: Buffer.from("3 4\n0 0 0 0\n2 2 1 1\n0 0 0 0\n1 2\n"),
  });
  await sleep(200);
  await p.click(".create-btn");
  await p.waitForSelector(".board");
  await clickSq(p, "2,1"); await clickSq(p, "2,3");
  await waitTurn(p, "solved");
  ck.ok(await p.$(".actions .restart") && !(await p.$(".actions .rematch")), "a one-player game offers Restart, not Rematch");
  ck.ok(!(await p.$(".actions .flip")), "no Flip for a one-player board");
  await p.click(".actions .back");
  await p.waitForSelector("form.seek");
  await p.click(".seek-btn");
  await until(p, () => (document.querySelector("#lobby .notice")?.textContent || "").includes("Seeking"), null, "seeking");
  const red = await p.$eval("#lobby .notice", (e) => getComputedStyle(e).color);
  ck.ok(red !== "rgb(187, 51, 51)" && await p.$("#lobby .notice.info"), "Seeking... is not shown as an error: " + red);
  await shot(p, "web-seeking");
  ck.eq(p.errors, [], "no script errors (one-player buttons, seek)");
  await p.context().close();
}

// The pieces on the board as one string (what a position looks like).
const boardText = (p) => p.$$eval(".cell", (cs) => cs.map((c) =>
  c.querySelector(".p-white") ? "x" : c.querySelector(".p-black") ? "o" : ".").join(""));
const replayAt = (p) => text(p, ".replay-at");
const waitAt = (p, want) => until(p, (w) => document.querySelector(".replay-at")?.textContent === w, want, want);

// 8. The move list paired by side, each move a button to its position,
// arrow keys stepping through a running game without leaving it, End
// back to the game.
async function moveListReplay(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "mlr");
  await createRoom(p, "ataxx", { size: 5 }, 1);
  for (let i = 0; i < 2; i++) {
    await waitTurn(p, "Your turn");
    const mine = await p.$$eval(".cell", (cs) => cs.filter((c) => c.querySelector(".p-white")).map((c) => c.dataset.sq));
    for (const src of mine) {
      await clickSq(p, src);
      const lit = await litSquares(p);
      if (lit.length) { await clickSq(p, lit[0]); break; }
    }
    await waitMoves(p, 2 * i + 2);
  }
  await waitTurn(p, "Your turn");
  ck.eq(await p.$$eval(".moves li", (l) => l.map((x) => x.className + ":" + x.dataset.no)),
    ["first:1", "second:1", "first:2", "second:2"], "the move list is paired by side, numbered by row");
  const live = await boardText(p);
  await p.click('.moves [data-n="1"]');
  await waitAt(p, "move 1 of 4");
  const one = await boardText(p);
  ck.ok(one !== live, "a click on move 1 shows the position after it");
  ck.ok(await p.$(".replay.viewing") && (await text(p, ".turn")).includes("Your turn"), "still in the running game, marked as an earlier position");
  ck.ok((await text(p, ".moves li.current")) !== null, "the move shown is marked in the list");
  await shot(p, "web-replay-running");
  await p.keyboard.press("ArrowRight");
  await waitAt(p, "move 2 of 4");
  ck.ok(await p.evaluate(() => !!document.activeElement.closest(".moves")), "the focus stays on the move list");
  await p.keyboard.press("Home");
  await waitAt(p, "move 0 of 4");
  await p.keyboard.press("ArrowLeft");
  await sleep(200);
  ck.eq(await replayAt(p), "move 0 of 4", "ArrowLeft at the start stays there");
  const mine = await p.$$eval(".cell", (cs) => cs.filter((c) => c.querySelector(".p-white")).map((c) => c.dataset.sq));
  await clickSq(p, mine[0]);
  ck.ok((await notice(p)).includes("earlier position"), "a click on an earlier position plays nothing and says why");
  await p.focus(".moves");
  await p.keyboard.press("End");
  await until(p, () => !document.querySelector(".replay.viewing"), null, "back to now");
  ck.eq(await boardText(p), live, "End comes back to the game's position");
  let lit = [];
  for (const src of await p.$$eval(".cell", (cs) => cs.filter((c) => c.querySelector(".p-white")).map((c) => c.dataset.sq))) {
    await clickSq(p, src);
    if ((lit = await litSquares(p)).length) break;
  }
  ck.ok(lit.length > 0, "and the game is played on from there");
  ck.eq(p.errors, [], "no script errors (move list)");
  await p.context().close();
}

const label = (p, sq) => p.$eval(`.cell[data-sq="${sq}"]`, (c) => c.getAttribute("aria-label"));
const focused = (p) => p.evaluate(() => document.activeElement?.dataset?.sq || null);

// 9. The board with the keyboard alone: one cell in the Tab order, arrow
// keys between cells, Enter to choose; labels with the square, what
// stands there and whether a move may end there; the focus kept after a
// move.
async function keyboardPlay(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "kbp");
  await createRoom(p, "ataxx", { size: 5 }, 1);
  await waitTurn(p, "Your turn");
  ck.eq(await p.$$eval('.cell[tabindex="0"]', (l) => l.map((c) => c.dataset.sq)), ["a5"], "one cell in the Tab order (the top left)");
  ck.eq(await label(p, "a5"), "a5: white piece", "a cell's label: square and piece");
  await p.focus('.cell[tabindex="0"]');
  const press = async (key) => {
    const n = Number(await p.evaluate(() => document.body.dataset.clicks || 0));
    await p.keyboard.press(key);
    if (key === "Enter") await until(p, (k) => Number(document.body.dataset.clicks || 0) > k, n, "Enter handled");
  };
  await press("Enter");
  ck.ok((await litSquares(p)).includes("b4"), "Enter on a5 lights its moves");
  ck.eq(await label(p, "b4"), "b4: empty, a legal move", "a lit cell says it is a legal move");
  ck.eq(await label(p, "e1"), "e1: white piece, not a legal move", "another says it is not");
  ck.eq(await focused(p), "a5", "the focus stays on a5 after choosing it");
  await press("ArrowRight");
  ck.eq(await focused(p), "b5", "ArrowRight moves the focus to b5");
  await press("ArrowDown");
  ck.eq(await focused(p), "b4", "ArrowDown to b4");
  await shot(p, "web-keyboard");
  await press("Enter");
  ck.eq((await waitMoves(p, 1))[0], "b4", "the move made with arrow keys and Enter");
  await waitMoves(p, 2);
  await waitTurn(p, "Your turn");
  ck.eq(await focused(p), "b4", "the focus is still on b4 after the move and the bot's answer");
  const drawn = await cellIs(p, "b4") === "W" ? "white" : "black"; // the bot may have taken it
  ck.eq(await label(p, "b4"), `b4: ${drawn} piece`, "b4's label now names its piece");
  ck.eq(await p.$$eval('.cell[tabindex="0"]', (l) => l.map((c) => c.dataset.sq)), ["b4"], "b4 is the cell in the Tab order");
  ck.eq(p.errors, [], "no script errors (keyboard)");
  await p.context().close();
}

const sounds = (p) => p.evaluate(() => document.body.dataset.sounds || "");
const waitSound = (p, kind) => until(p, (k) => (document.body.dataset.sounds || "").split(",").includes(k), kind, "sound " + kind);

// 10. Sounds: a move, a capture, a game's end; the switch turns them off
// and is kept across a reload.
async function sounds10(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "snd");
  ck.eq(await text(p, "#sound"), "Sound: on", "sounds are on at first");
  await createRoom(p, "amazons", {}, 1);
  await waitTurn(p, "Your turn");
  for (const sq of ["d1", "d4", "d8"]) await clickSq(p, sq);
  await waitMoves(p, 2);
  await waitSound(p, "move").catch(() => {});
  ck.ok((await sounds(p)).split(",").includes("move"), "a move sounded");
  ck.ok(!(await sounds(p)).includes("capture"), "an Amazons move is a move, not a capture: " + await sounds(p));
  await waitTurn(p, "Your turn");
  await resign(p);
  await waitSound(p, "end").catch(() => {});
  ck.ok((await sounds(p)).split(",").includes("end"), "the game's end sounded: " + await sounds(p));
  await p.click(".actions .back");
  await createRoom(p, "shifter", { level: 1 });
  await waitTurn(p, "Your turn");
  await p.click(".actions .hint");
  await until(p, () => /: [a-h][1-8]$/.test(document.querySelector(".hint")?.textContent || ""), null, "hint");
  await clickSq(p, (await text(p, ".hint")).split(": ")[1]);
  await waitSound(p, "capture").catch(() => {});
  ck.ok((await sounds(p)).split(",").includes("capture"), "a Shape Shifter take sounds as a capture: " + await sounds(p));
  await p.click("#sound");
  ck.eq(await text(p, "#sound"), "Sound: off", "the switch turns sounds off");
  await p.reload();
  await p.waitForSelector("body[data-conn=online][data-ready]", { timeout: WAIT_MS });
  ck.eq(await text(p, "#sound"), "Sound: off", "the switch is kept across a reload");
  await shot(p, "web-sound-off");
  await p.waitForSelector(".board");
  await waitTurn(p, "Your turn");
  await p.click(".actions .hint");
  await until(p, () => /: [a-h][1-8]$/.test(document.querySelector(".hint")?.textContent || ""), null, "hint");
  const n = await p.$$eval(".moves li", (l) => l.length);
  await clickSq(p, (await text(p, ".hint")).split(": ")[1]);
  await until(p, (k) => document.querySelectorAll(".moves li").length > k || document.querySelector(".level-won"), n, "capture");
  await sleep(300);
  ck.eq(await sounds(p), "", "no sound once switched off");
  ck.eq(p.errors, [], "no script errors (sounds)");
  await p.context().close();
}

await runTest(ck, a.build, async (browser, srv) => {
  for (const [name, fn] of [["confirm", confirmResign], ["shifter", shifterScreens], ["amazons", amazonsArrow], ["ataxx", ataxxScore], ["refused", refusedClicks], ["offers", offers], ["flip", flipAndButtons], ["movelist", moveListReplay], ["keyboard", keyboardPlay], ["sounds", sounds10]]) {
    try { await fn(browser, srv); } catch (e) { ck.ok(false, name + ": " + (e && e.stack || e)); }
  }
});
