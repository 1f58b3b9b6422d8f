// test_web_lean.mjs: the page plays lean moves itself (issue 32). Its
// hello asks for lean `moved` events once js/rules.wasm (the server's
// rules/ built to WebAssembly) is loaded; each opponent's move then comes
// without position, board or sentence, and the page draws the new board
// and adds the move, with its sentence, to the move list without asking
// `state`. Every board matches the server's `state` (its rows drawn by
// the page's own board.js); a chat line between moves keeps the page in
// step; a page that cannot load the rules asks for the full form and
// `state` after each move, as before.

import { Checks, args, runTest, login, waitTurn, clickSq, waitMoves, until, createRoom, Client, WAIT_MS } from "./lib.mjs";

const ck = new Checks();
const a = args();

// A fresh page that records the WebSocket frames it sends and receives
// (JSON); block: the rules module is refused, as by an old server.
async function recordedPage(browser, url, name, block = false) {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await ctx.newPage();
  page.errors = [];
  page.sent = [];
  page.got = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  if (block) await page.route("**/rules.wasm", (r) => r.abort());
  page.on("websocket", (ws) => {
    ws.on("framesent", (f) => { try { page.sent.push(JSON.parse(f.payload)); } catch { /* not JSON */ } });
    ws.on("framereceived", (f) => { try { page.got.push(JSON.parse(f.payload)); } catch { /* not JSON */ } });
  });
  await page.goto(url);
  await page.waitForSelector("body[data-conn=online][data-ready]", { timeout: WAIT_MS });
  await login(page, name);
  return page;
}

// The board as a player reads it: each cell's square and what stands on
// it (the labels' first part; the rest says what is chosen or lit).
const boardOf = async (p) => (await p.$$eval(".board .cell", (cells) => cells.map((c) => (c.getAttribute("aria-label") || "").split(",")[0]))).sort();
// The move list's entries: the move and its sentence (the title).
const listOf = (p) => p.$$eval(".moves li", (l) => l.map((x) => [x.textContent, x.getAttribute("title")]));
const statesSent = (p) => p.sent.filter((m) => m.cmd === "state").length;

// The board the server holds (its `state`, asked on the TCP port, so no
// watcher comes and goes), drawn by the page's own board.js, as the
// players read it, square by square.
async function serverBoard(page, srv, room) {
  const c = await Client.open(srv.port);
  c.listen();
  const st = (await c.send("state", { room })).state;
  c.close();
  const b = await page.evaluate(async ([game, rows]) => {
    const { drawBoard } = await import("/js/board.js");
    const svg = drawBoard(game, rows, { lit: new Set(), chosen: new Set(), last: new Set() }, () => {});
    return [...svg.querySelectorAll(".cell")].map((c) => (c.getAttribute("aria-label") || "").split(",")[0]);
  }, [st.game, st.board]);
  return b.sort();
}

// One move by mover (clicks), seen by the other page: the other's board
// changes without its asking `state`, and equals a fresh page's.
async function oneMove(browser, srv, room, mover, other, squares, n, what) {
  const before = statesSent(other), mine = statesSent(mover);
  const movedBefore = other.got.filter((m) => m.event === "moved").length, gotBefore = other.got.length;
  for (const sq of squares) await clickSq(mover, sq);
  await waitMoves(other, n);
  await until(other, (k) => document.querySelectorAll(".moves li").length === k, n, "the move listed");
  const moved = other.got.filter((m) => m.event === "moved").slice(movedBefore);
  ck.ok(moved.length === 1 && moved[0].board === undefined && moved[0].position === undefined &&
    moved[0].text === undefined, `${what}: the event came lean: ${JSON.stringify(moved)}`);
  ck.eq([statesSent(other) - before, statesSent(mover) - mine], [0, 0], `${what}: neither page asked state`);
  console.log(`${what}: ${bytesOf(other.got.slice(gotBefore))} bytes of JSON came to the other page`);
  ck.eq(await boardOf(other), await serverBoard(other, srv, room), `${what}: the board is the server's`);
}

// Bytes of the JSON text of messages (what the WebSocket frames carried).
const bytesOf = (msgs) => msgs.reduce((n, m) => n + JSON.stringify(m).length, 0);

await runTest(ck, a.build, async (browser, srv) => {
  const x = await recordedPage(browser, srv.url, "leanx");
  const hello = x.sent.find((m) => m.cmd === "hello");
  ck.eq(hello && hello.events, "lean", "the page asks for lean events in its hello");
  const reply = x.got.find((m) => m.re === "hello");
  ck.eq(reply && reply.events, "lean", "and the server says so");
  const room = await createRoom(x, "ataxx");
  const y = await recordedPage(browser, srv.url, "leany");
  await y.click(`.room-item[data-room="${room}"] .join`);
  await y.waitForSelector(".board");
  await waitTurn(x, "Your turn");

  await oneMove(browser, srv, room, x, y, ["a7", "b6"], 1, "white clones to b6");
  await oneMove(browser, srv, room, y, x, ["g7", "e5"], 2, "black jumps to e5");
  // a chat line between moves: its seq keeps the page in step
  await x.fill(".chat-form input", "nice");
  await x.click(".chat-form button");
  await until(y, () => [...document.querySelectorAll(".chat-list li")].some((l) => l.textContent.includes("nice")), null, "the chat line");
  await oneMove(browser, srv, room, x, y, ["b6", "d6"], 3, "white jumps to d6 after a chat line");
  // (white's jump took e5: black clones from a1)
  await oneMove(browser, srv, room, y, x, ["a1", "b2"], 4, "black clones to b2");
  ck.eq(await listOf(x), [["b6", "White player clones at b6"], ["g7e5", "Black player moves from g7 to e5"],
    ["b6d6", "White player moves from b6 to d6"], ["b2", "Black player clones at b2"]], "the move list, with the sentences");
  ck.eq(await boardOf(y), await boardOf(x), "both players' boards agree");
  // the sentences the rules module said, in Spanish as the server's are
  const loaded = y.waitForResponse((r) => r.url().endsWith("/js/sentences_es.js"), { timeout: WAIT_MS });
  await y.click("#lang");
  await loaded;
  await until(y, () => document.querySelector(".moves li")?.getAttribute("title") === "Jugador blanco clona en b6", null, "Spanish sentences");
  ck.eq((await listOf(y)).map((m) => m[1]), ["Jugador blanco clona en b6", "Jugador negro mueve de g7 a e5",
    "Jugador blanco mueve de b6 a d6", "Jugador negro clona en b2"], "the move list's sentences in Spanish");
  await waitTurn(x, "Your turn");

  // A page without the rules (the module refused): the full form, and
  // `state` after each move, as before.
  const z = await recordedPage(browser, srv.url, "leanz", true);
  ck.ok(z.sent.find((m) => m.cmd === "hello").events === undefined, "without the rules the hello asks no lean events");
  const room2 = await createRoom(z, "ataxx");
  const w = await recordedPage(browser, srv.url, "leanw");
  await w.click(`.room-item[data-room="${room2}"] .join`);
  await w.waitForSelector(".board");
  await waitTurn(z, "Your turn");
  const zs = statesSent(z);
  await waitTurn(w, "to move");
  await clickSq(z, "a7"); await clickSq(z, "b6");
  await waitMoves(w, 1);
  await until(z, () => document.querySelector(".turn") && !document.querySelector(".turn").textContent.includes("Your turn"), null, "z waits");
  const zGot = z.got.length;
  await clickSq(w, "g7"); await clickSq(w, "f6");
  await waitMoves(z, 2);
  await waitTurn(z, "Your turn");
  console.log(`without the rules: ${bytesOf(z.got.slice(zGot))} bytes of JSON came to the page for the opponent's move`);
  const zm = z.got.filter((m) => m.event === "moved");
  ck.ok(zm.length === 2 && zm.every((m) => Array.isArray(m.board)), "it gets full moved events");
  ck.ok(statesSent(z) - zs >= 1, "and asks state after the opponent's move");
  ck.eq(await boardOf(z), await serverBoard(z, srv, room2), "its board is the server's");
  for (const p of [x, y, z, w]) ck.eq(p.errors, [], "no error in the page");
});
