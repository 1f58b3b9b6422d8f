// test_web_premove.mjs: premoves in the two-player games (issue 31): a
// move picked while the opponent is to move is marked on the board, is
// cancelled by Escape or a click elsewhere, is played as soon as the
// opponent's move arrives when still legal, and is dropped with a word
// when not. TABLERO_SHOTS=DIR saves the screenshots.

import { Checks, args, runTest, newPage, login, loggedInPage, waitTurn,
  text, clickSq, waitMoves, createRoom, until, sleep, pair } from "./lib.mjs";

const ck = new Checks();
const a = args();
const SHOTS = process.env.TABLERO_SHOTS;

async function shot(p, name) {
  if (SHOTS) await p.screenshot({ path: SHOTS + "/" + name + ".png" });
}

const notice = (p) => text(p, "#room .notice");
const waitNotice = (p, want) => until(p, (w) => (document.querySelector("#room .notice")?.textContent || "").includes(w), want, "notice " + want);
// The squares drawn as the premove's.
const preSquares = (p) => p.$$eval(".cell", (cells) => cells.filter((c) => c.querySelector(".premove, .premove-ring")).map((c) => c.dataset.sq).sort());

// Ataxx: a premove shown, played at once after the opponent's move;
// Escape and a click elsewhere cancel one; one made illegal is dropped.
async function ataxx(browser, srv) {
  const { x, y } = await pair(browser, srv, "pmx", "pmy", "ataxx");
  await clickSq(y, "g7");
  ck.eq(await preSquares(y), ["g7"], "the premove's piece is marked while its target is picked");
  await clickSq(y, "f6");
  ck.eq(await preSquares(y), ["f6", "g7"], "the premove g7 to f6 is marked on the board");
  ck.ok((await notice(y)).includes("Premove f6"), "the notice names the premove: " + await notice(y));
  ck.ok((await notice(y)).includes("pmx is to move"), "and says whose turn it is: " + await notice(y));
  ck.ok((await y.$eval('.cell[data-sq="f6"]', (e) => e.getAttribute("aria-label"))).includes("premove"), "f6's label says premove");
  await shot(y, "web-premove");
  ck.eq(await x.$$eval(".moves li", (l) => l.length), 0, "nothing is sent before the opponent moves");
  await clickSq(x, "a7"); await clickSq(x, "b6");
  const moves = await waitMoves(x, 2);
  ck.eq(moves, ["b6", "f6"], "the premove was played as soon as the opponent's move came");
  await waitTurn(y, "pmx) to move");
  ck.eq(await preSquares(y), [], "a played premove is no longer marked");
  ck.ok((await notice(y)).includes("Premove f6 played"), "the notice says it was played: " + await notice(y));

  // Escape cancels; so does a click on another square, and one off the board
  await clickSq(y, "a1"); await clickSq(y, "b2");
  ck.eq(await preSquares(y), ["a1", "b2"], "a second premove is marked");
  await y.keyboard.press("Escape");
  await until(y, () => !document.querySelector(".premove"), null, "Escape cancels");
  ck.ok((await notice(y)).includes("Premove cancelled"), "Escape says the premove is cancelled: " + await notice(y));
  await clickSq(y, "a1"); await clickSq(y, "b2");
  await clickSq(y, "d4");
  ck.eq(await preSquares(y), [], "a click on another square cancels the premove");
  await clickSq(y, "a1"); await clickSq(y, "b2");
  await y.click(".room-title");
  ck.eq(await preSquares(y), [], "a click off the board cancels the premove");

  // one premove at a time: a new one after the cancel; then the
  // opponent takes its square and it is dropped
  await clickSq(y, "f6"); await clickSq(y, "d6");
  ck.ok((await notice(y)).includes("Premove f6d6"), "a jump premove: " + await notice(y));
  await waitTurn(x, "Your turn");
  await clickSq(x, "b6"); await clickSq(x, "d6");
  await waitMoves(y, 3);
  await waitNotice(y, "Premove f6d6 dropped");
  await waitTurn(y, "Your turn");
  await sleep(300);
  ck.eq(await y.$$eval(".moves li", (l) => l.length), 3, "the dropped premove played nothing");
  ck.eq(x.errors.concat(y.errors), [], "no script errors (ataxx premove)");
  for (const p of [x, y]) await p.context().close();
}

// Amazons: the whole move, queen and arrow, as one premove.
async function amazons(browser, srv) {
  const { x, y } = await pair(browser, srv, "pax", "pay", "amazons");
  for (const sq of ["d10", "d9", "e9"]) await clickSq(y, sq);
  ck.eq(await preSquares(y), ["d10", "d9", "e9"], "the amazon's move and its arrow are the premove");
  ck.ok((await notice(y)).includes("Premove d10-d9/e9"), "the notice names it: " + await notice(y));
  for (const sq of ["d1", "d4", "d8"]) await clickSq(x, sq);
  ck.eq(await waitMoves(x, 2), ["d1-d4/d8", "d10-d9/e9"], "the Amazons premove was played after white's move");
  ck.eq(x.errors.concat(y.errors), [], "no script errors (amazons premove)");
  for (const p of [x, y]) await p.context().close();
}

// Stones: the second player's placement, kept while the first places
// all three, played once it is their turn.
async function stones(browser, srv) {
  const { x, y } = await pair(browser, srv, "psx", "psy", "stones", { first: "1" });
  await clickSq(y, "B2");
  ck.eq(await preSquares(y), ["B2"], "a placement premove is marked");
  for (const [i, sq] of ["A1", "A2"].entries()) {
    await clickSq(x, sq);
    await waitMoves(x, i + 1);
    await waitTurn(x, "Your turn");
  }
  ck.eq(await preSquares(y), ["B2"], "the premove waits while the opponent places again");
  await clickSq(x, "C3");
  ck.eq(await waitMoves(x, 4), ["A1", "A2", "C3", "B2"], "the placement premove was played when its turn came");
  ck.eq(x.errors.concat(y.errors), [], "no script errors (stones premove)");
  for (const p of [x, y]) await p.context().close();
}

await runTest(ck, a.build, async (browser, srv) => {
  for (const [name, fn] of [["ataxx", ataxx], ["amazons", amazons], ["stones", stones]]) {
    try { await fn(browser, srv); } catch (e) { ck.ok(false, name + ": " + (e && e.stack || e)); }
  }
});
