// test_web_games.mjs: each game played in the browser, by clicks on the
// squares the server's `moves` lit: Ataxx against a bot to the end, an
// Amazons move whose choice is changed and taken back, an Amazons game
// played to its end between two browsers, a solitaire board
// loaded from a file and won, Shape Shifter levels solved with hints and
// one retried, a telnet player against a browser player, and the server
// restarted mid-game with the browsers back in it by themselves, and a
// game over TLS between a browser and the terminal client.

import { connect } from "node:net";
import { mkdtempSync } from "node:fs";
import { execFileSync, spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Checks, args, runTest, startServer, newPage, login, loggedInPage,
  waitTurn, text, clickSq, waitMoves, createRoom, litSquares, until, sleep,
  WAIT_MS } from "./lib.mjs";

const ck = new Checks();
const a = args();
const SHOTS = process.env.TABLERO_SHOTS;

const moveCount = (page) => page.$$eval(".moves li", (l) => l.length);

// Square names like "b6" as [file, rank] numbers.
function coords(sq) { return [sq.charCodeAt(0) - 97, Number(sq.slice(1))]; }

// Ataxx, 5x5, against a level-1 bot, until the game ends: each turn a
// white piece is clicked until the server lights its moves, and a lit
// clone (next to it) is preferred.
async function ataxxBot(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "atx");
  await createRoom(p, "ataxx", { size: 5 }, 1);
  let ended = false;
  for (let turn = 0; turn < 200 && !ended; turn++) {
    await until(p, () => {
      const t = document.querySelector(".turn")?.textContent || "";
      return t.includes("Your turn") || t.includes("Game over");
    }, null, "ataxx turn");
    if ((await text(p, ".turn")).includes("Game over")) { ended = true; break; }
    const before = await moveCount(p);
    const mine = await p.$$eval(".cell", (cs) => cs.filter((c) => c.querySelector(".p-white")).map((c) => c.dataset.sq));
    let played = false;
    for (const src of mine) {
      await clickSq(p, src);
      const lit = await litSquares(p).catch(() => []);
      if (!lit.length) continue;
      const [f, r] = coords(src);
      const near = lit.find((s) => { const [g, q] = coords(s); return Math.abs(g - f) <= 1 && Math.abs(q - r) <= 1; });
      await clickSq(p, near || lit[0]);
      played = true;
      break;
    }
    if (!ck.ok(played, "a white piece with a lit move on turn " + turn)) break;
    await until(p, (k) => document.querySelectorAll(".moves li").length > k, before, "ataxx move");
  }
  ck.ok(ended, "the Ataxx game against the bot reached its end: " + await text(p, ".turn"));
  if (SHOTS) await p.screenshot({ path: SHOTS + "/web-ataxx.png" });
  ck.eq(p.errors, [], "no script errors (ataxx)");
  await p.context().close();
}

// Amazons: choose a4, change to d1, pick d5, take it back, pick d4, and
// shoot to d8: the move is d1-d4/d8.
async function amazonsChoice(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "amz");
  await createRoom(p, "amazons", {}, 1);
  await waitTurn(p, "Your turn");
  await clickSq(p, "a4");
  let lit = await litSquares(p);
  ck.ok(lit.includes("a5") && lit.includes("b4"), "a4's destinations are lit");
  await clickSq(p, "d1");
  lit = await litSquares(p);
  ck.ok(lit.includes("d5") && !lit.includes("a5"), "choosing d1 instead lights d1's destinations");
  await clickSq(p, "d5");
  lit = await litSquares(p);
  ck.ok(lit.includes("d1") && lit.includes("h5"), "from d5 the arrows are lit (back to d1 too)");
  await clickSq(p, "d5");
  lit = await litSquares(p);
  ck.ok(lit.includes("d5") && lit.includes("d4"), "clicking d5 again takes the destination back");
  await clickSq(p, "d4");
  await clickSq(p, "d8");
  const list = await waitMoves(p, 1);
  ck.eq(list[0], "d1-d4/d8", "the changed choice was played");
  await waitMoves(p, 2);
  if (SHOTS) { await waitTurn(p, "Your turn"); await p.screenshot({ path: SHOTS + "/web-amazons.png" }); }
  ck.eq(p.errors, [], "no script errors (amazons)");
  await p.context().close();
}

// Peg solitaire from a board file on the player's machine: one jump wins.
async function solitaireFile(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "sol");
  await p.selectOption("select[name=game]", "solitaire");
  await p.setInputFiles(".create input[type=file]", {
    name: "board.txt", mimeType: "text/plain", buffer: Buffer.from("3 4\n0 0 0 0\n2 2 1 1\n0 0 0 0\n1 2\n"),
  });
  await sleep(200);
  await p.click(".create-btn");
  await p.waitForSelector(".board", { timeout: WAIT_MS });
  await clickSq(p, "2,1");
  ck.eq(await litSquares(p), ["2,3"], "the peg's one jump is lit");
  await clickSq(p, "2,3");
  await waitTurn(p, "solved");
  ck.ok((await text(p, ".turn")).includes("one peg left on the goal"), "the board loaded from a file is won");
  if (SHOTS) await p.screenshot({ path: SHOTS + "/web-solitaire.png" });
  ck.eq(p.errors, [], "no script errors (solitaire)");
  await p.context().close();
}

// Shape Shifter: level 1 solved by following hints (the active piece is
// chosen already), on to level 2 from the "level won" screen; there one capture, then
// restart gives back the level's start.
async function shifterLevels(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "shf");
  await createRoom(p, "shifter", { level: 1 });
  for (let i = 0; i < 10; i++) {
    if (await p.$(".level-won")) break;
    await waitTurn(p, "Your turn");
    // the page asks for the active piece's moves by itself
    await until(p, () => document.querySelectorAll(".lit, .lit-ring").length > 0, null, "lit captures").catch(() => {});
    ck.ok((await litSquares(p)).length > 0, "the active piece's captures are lit without a click");
    const n = await moveCount(p);
    await p.click(".actions .hint");
    await until(p, () => /: [a-h][1-8]$/.test(document.querySelector(".hint")?.textContent || ""), null, "hint");
    const sq = (await text(p, ".hint")).split(": ")[1];
    await clickSq(p, sq);
    await until(p, (k) => document.querySelectorAll(".moves li").length > k ||
      document.querySelector(".level-won"), n, "capture");
  }
  // the won level is shown until the player goes on (test_web_board.mjs)
  await p.click(".level-won .level-next");
  ck.ok(await until(p, () => document.querySelector(".room-title").textContent.includes("level 2"), null, "level 2"),
    "level 1 solved, level 2 started by the level-won screen's button");
  if (SHOTS) await p.screenshot({ path: SHOTS + "/web-shifter.png" });
  await waitTurn(p, "Your turn");
  await until(p, () => document.querySelectorAll(".lit, .lit-ring").length > 0, null, "lit captures");
  const start = await p.$$eval(".cell", (cs) => cs.map((c) => c.textContent).join(""));
  ck.eq(start.length, 4, "level 2 has four pieces (level N has N + 2): " + start);
  const lit = await litSquares(p);
  await clickSq(p, lit[0]);
  await waitMoves(p, 1);
  await p.click(".actions .restart");
  await until(p, () => document.querySelectorAll(".moves li").length === 0, null, "restart");
  const again = await p.$$eval(".cell", (cs) => cs.map((c) => c.textContent).join(""));
  ck.eq(again, start, "restart gives back the level's start: it can be retried");
  ck.eq(p.errors, [], "no script errors (shifter)");
  await p.context().close();
}

// Two players in Ataxx: a move made with the keyboard alone (focus a
// square, Enter), then a draw offered and accepted.
async function keysAndDraw(browser, srv) {
  const x = await loggedInPage(browser, srv.url, "kbd");
  const room = await createRoom(x, "ataxx", {});
  const y = await loggedInPage(browser, srv.url, "drw");
  await y.click(`.room-item[data-room="${room}"] .join`);
  await waitTurn(x, "Your turn");
  const key = async (sq) => {
    const n = Number(await x.evaluate(() => document.body.dataset.clicks || 0));
    await x.focus(`.cell[data-sq="${sq}"]`);
    await x.keyboard.press("Enter");
    await until(x, (k) => Number(document.body.dataset.clicks || 0) > k, n, "key on " + sq);
  };
  await key("a7");
  ck.ok((await litSquares(x)).includes("b6"), "Enter on a piece lights its moves");
  await key("b6");
  ck.eq(await waitMoves(y, 1), ["b6"], "a move made with the keyboard alone");
  await waitTurn(y, "Your turn");
  await y.click(".actions .offer_draw");
  await until(x, () => (document.querySelector("#room .notice")?.textContent || "").includes("offers a draw"), null, "draw offer");
  ck.ok((await text(x, "#room .notice")).includes("drw offers a draw"), "the offer is shown with its name");
  await x.click(".actions .accept_draw");
  await waitTurn(y, "draw by agreement");
  await waitTurn(x, "draw by agreement");
  ck.ok((await text(x, ".turn")).startsWith("Game over: draw"), "both see the draw: " + await text(x, ".turn"));
  ck.eq(x.errors.concat(y.errors), [], "no script errors (keyboard, draw)");
  for (const p of [x, y]) await p.context().close();
}

// A line-protocol client on the TCP port, in text mode, as telnet is.
function telnet(port) {
  const s = connect(port, "127.0.0.1");
  s.buf = "";
  s.on("data", (d) => { s.buf += d.toString(); });
  s.say = (line) => s.write(line + "\r\n");
  s.waitFor = async (re) => {
    const t0 = Date.now();
    while (Date.now() - t0 < WAIT_MS) {
      const m = re.exec(s.buf);
      if (m) return m;
      await sleep(30);
    }
    throw new Error("telnet: no " + re + " in " + s.buf.slice(-300));
  };
  return s;
}

// Telnet (player 1) against the browser (player 2) in Stones.
async function telnetVsBrowser(browser, srv) {
  const tel = telnet(srv.port);
  tel.say("hello tel");
  await tel.waitFor(/Your token is/);
  tel.say("create stones first=1");
  const room = (await tel.waitFor(/\b(r\d+)\b/))[1];
  const p = await loggedInPage(browser, srv.url, "web");
  await p.click(`.room-item[data-room="${room}"] .join`);
  await p.waitForSelector(".board", { timeout: WAIT_MS });
  const plan = [["t", "A2"], ["t", "C1"], ["t", "B3"], ["b", "B2"], ["b", "C3"], ["b", "A3"], ["t", "C1C2"], ["b", "B2B1"], ["t", "B3B2"]];
  let n = 0;
  for (const [who, mv] of plan) {
    if (who === "t") tel.say("move " + mv);
    else { await waitTurn(p, "Your turn"); for (const s of mv.match(/[A-C][1-3]/g)) await clickSq(p, s); }
    n++;
    const list = await waitMoves(p, n);
    ck.eq(list[n - 1], mv, `move ${n} ${mv} (${who === "t" ? "telnet" : "browser"})`);
  }
  await waitTurn(p, "three in a row");
  ck.ok((await text(p, ".turn")).includes("tel wins"), "the browser sees the telnet player win");
  ck.ok(await tel.waitFor(/three in a row/), "the telnet player reads the end");
  tel.destroy();
  ck.eq(p.errors, [], "no script errors (telnet game)");
  await p.context().close();
}

// The server restarts mid-game: both pages reconnect by themselves, log
// in with their kept tokens and are back in the room, and play on.
async function restartMidGame(browser) {
  const dir = mkdtempSync(join(tmpdir(), "tablero-web-"));
  const db = join(dir, "t.db");
  let srv = await startServer(a.build, { db, dir });
  const { port, webPort } = srv;
  const ana = await loggedInPage(browser, srv.url, "rana");
  const room = await createRoom(ana, "stones", { first: "1" });
  const bob = await loggedInPage(browser, srv.url, "rbob");
  await bob.click(`.room-item[data-room="${room}"] .join`);
  await waitTurn(ana, "Your turn");
  await clickSq(ana, "A1");
  await waitMoves(bob, 1);
  await srv.stop();
  await until(ana, () => document.body.dataset.conn !== "online", null, "the page sees the server go");
  srv = await startServer(a.build, { db, dir: srv.dir, port, webPort });
  await until(ana, () => document.body.dataset.conn === "online", null, "reconnected");
  await waitTurn(ana, "Your turn");
  ck.eq(await waitMoves(ana, 1), ["A1"], "ana is back in the room with its move");
  await clickSq(ana, "B3");
  ck.eq(await waitMoves(bob, 2), ["A1", "B3"], "bob's page came back too and sees the next move");
  for (const p of [ana, bob]) await p.context().close();
  ck.eq(await srv.stop(), 0, "the restarted server stopped cleanly");
}

// A TLS game: the browser on https:// and wss:// (the test's self-signed
// certificate accepted by the browser), the terminal client with
// --tls --tls-pin, in one Stones game to its end.
async function tlsGame(browser) {
  const dir = mkdtempSync(join(tmpdir(), "tablero-tls-"));
  const crt = join(dir, "c.pem"), key = join(dir, "k.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", crt,
    "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], { stdio: "ignore" });
  const srv = await startServer(a.build, { dir, extra: ["--tls-port", "0", "--tls-cert", crt, "--tls-key", key] });
  const term = spawn(join(a.build, "tablero"), ["--batch", "--tls", "--tls-pin", crt, "127.0.0.1:" + srv.tlsPort],
    { env: Object.assign({}, process.env, { XDG_CONFIG_HOME: dir }), stdio: ["pipe", "pipe", "pipe"] });
  let out = "", err = "";
  term.stdout.on("data", (d) => { out += d.toString(); });
  term.stderr.on("data", (d) => { err += d.toString(); });
  const waitOut = async (re) => {
    const t0 = Date.now();
    while (Date.now() - t0 < WAIT_MS) { const m = re.exec(out); if (m) return m; await sleep(30); }
    throw new Error("terminal: no " + re + " in " + out.slice(-300) + " (stderr: " + err.slice(-300) + ")");
  };
  try {
    await waitOut(/"event":"welcome"/);
    term.stdin.write("hello tlsterm\ncreate stones first=1\n");
    const room = (await waitOut(/"re":"create".*?"room":"(r\d+)"/))[1];
    const p = await newPage(browser, `https://127.0.0.1:${srv.tlsPort}/`, undefined, { ignoreHTTPSErrors: true });
    ck.ok(p.url().startsWith("https://"), "the page came over https");
    await login(p, "tlsweb");
    await p.click(`.room-item[data-room="${room}"] .join`);
    await p.waitForSelector(".board", { timeout: WAIT_MS });
    const plan = [["t", "A2"], ["t", "C1"], ["t", "B3"], ["b", "B2"], ["b", "C3"], ["b", "A3"], ["t", "C1C2"], ["b", "B2B1"], ["t", "B3B2"]];
    let n = 0;
    for (const [who, mv] of plan) {
      if (who === "t") term.stdin.write("move " + mv + "\n");
      else { await waitTurn(p, "Your turn"); for (const s of mv.match(/[A-C][1-3]/g)) await clickSq(p, s); }
      n++;
      const list = await waitMoves(p, n);
      ck.eq(list[n - 1], mv, `TLS move ${n} ${mv}`);
    }
    await waitTurn(p, "three in a row");
    ck.ok((await text(p, ".turn")).includes("tlsterm wins"), "the TLS game ended, the terminal player won");
    ck.ok(await waitOut(/"event":"ended"/), "the terminal client over TLS saw the end");
    ck.eq(p.errors, [], "no script errors (tls)");
    await p.context().close();
  } finally {
    term.kill();
    ck.eq(await srv.stop(), 0, "the TLS server stopped cleanly");
  }
}

// Amazons to its end between two browsers, from a loaded position: white's
// i10-i9/h10 leaves black's four amazons no move, and both pages name
// white the winner (not the player who cannot move).
async function amazonsEnd(browser, srv) {
  const w = await loggedInPage(browser, srv.url, "amzw");
  // the seed's tablero.txt, loaded from the player's machine
  await w.selectOption("select[name=game]", "amazons");
  await w.setInputFiles(".create input[type=file]", {
    name: "tablero.txt", mimeType: "text/plain",
    buffer: Buffer.from("a1,b1,c1,i10\na10,c10,e10,g10\nb10,d10,f10,a9,b9,c9,d9,e9,f9,g9,h9,j9\n1\n"),
  });
  await sleep(200);
  await w.click(".create-btn");
  await w.waitForSelector(".board", { timeout: WAIT_MS });
  const room = (await text(w, ".room-title")).split(" · ")[1];
  const b = await loggedInPage(browser, srv.url, "amzb");
  await b.click(`.room-item[data-room="${room}"] .join`);
  await b.waitForSelector(".board", { timeout: WAIT_MS });
  await waitTurn(w, "Your turn");
  for (const sq of ["i10", "i9", "h10"]) await clickSq(w, sq);
  for (const p of [w, b]) {
    await waitTurn(p, "wins");
    const t = await text(p, ".turn");
    ck.ok(t.includes("amzw") && !t.includes("amzb wins"), "amazons end: white (amzw) named the winner: " + t);
  }
  ck.eq(await waitMoves(b, 1), ["i10-i9/h10"], "amazons end: the last move listed");
  ck.eq(w.errors.concat(b.errors), [], "no script errors (amazons end)");
  await w.context().close();
  await b.context().close();
}

// each part's failure is its own check; the others still run
await runTest(ck, a.build, async (browser, srv) => {
  for (const [name, fn] of [["ataxx", ataxxBot], ["amazons", amazonsChoice],
    ["amazons end", amazonsEnd], ["solitaire", solitaireFile],
    ["shifter", shifterLevels], ["telnet", telnetVsBrowser], ["draw", keysAndDraw]]) {
    try { await fn(browser, srv); } catch (e) { ck.ok(false, name + ": " + (e && e.stack || e)); }
  }
  try { await restartMidGame(browser); } catch (e) { ck.ok(false, "restart: " + (e && e.stack || e)); }
  try { await tlsGame(browser); } catch (e) { ck.ok(false, "tls: " + (e && e.stack || e)); }
});
