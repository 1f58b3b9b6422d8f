// test_web_lobby.mjs: the lobby and the room's events as issue 31 asked
// them: the phone lobby fits 360 px with the room list near the top, one's
// own room offers "Rejoin", others' abandoned one-player rooms are not
// listed, no empty box for guests; the player's own events (kept
// messages at login, tells, invitations, challenges with Accept and
// Decline, the end of one's own challenge) and clocks stopped by the
// server; the lobby pushed by rooms_changed, not polled; a room's last
// chat lines after a reload and for a newcomer.
// TABLERO_SHOTS=DIR saves the screenshots.

import { connect } from "node:net";
import { Checks, args, runTest, newPage, login, loggedInPage, waitTurn,
  text, createRoom, until, sleep, WAIT_MS } from "./lib.mjs";

const ck = new Checks();
const a = args();
const SHOTS = process.env.TABLERO_SHOTS;
const PHONE = { width: 360, height: 740 };

async function shot(p, name, fullPage = false) {
  if (SHOTS) await p.screenshot({ path: SHOTS + "/" + name + ".png", fullPage });
}

// What sticks out of the page's width (none: no sideways scroll).
async function wideness(p) {
  return p.evaluate(() => ({ width: document.documentElement.scrollWidth,
    rooms: Math.round(document.querySelector("#lobby .rooms").getBoundingClientRect().top) }));
}

// 1. A 360 px phone: no sideways scroll, guest or player; the room
// list within the first screen.
async function phoneLobby(browser, srv) {
  const p = await newPage(browser, srv.url, PHONE);
  let w = await wideness(p);
  ck.ok(w.width <= 360, "a guest's phone lobby fits 360 px: " + w.width);
  ck.ok(w.rooms < 400, "the room list starts within the first screen: " + w.rooms);
  // no empty box for a guest: every shown section of the lobby has words
  const empty = await p.$$eval("#lobby section", (l) => l.filter((s) => s.offsetHeight > 0 && !s.textContent.trim()).length);
  ck.eq(empty, 0, "no empty box in a guest's lobby");
  await login(p, "phon");
  await until(p, () => document.querySelector("#lobby .ratings-table tr"), null, "ratings");
  w = await wideness(p);
  ck.ok(w.width <= 360, "a player's phone lobby fits 360 px: " + w.width);
  ck.ok(w.rooms < 400, "a player's room list starts within the first screen: " + w.rooms);
  await shot(p, "web-phone-lobby", true);
  ck.eq(p.errors, [], "no script errors (phone lobby)");
  await p.context().close();
}

// 2. One's own running room: "Rejoin" takes the seat again; another's
// one-player room whose player is gone is not listed.
async function ownRooms(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "own");
  const room = await createRoom(p, "ataxx", {}, 1);
  await waitTurn(p, "Your turn");
  await p.click(".actions .back");
  const item = `.room-item[data-room="${room}"]`;
  await p.waitForSelector(item, { timeout: WAIT_MS });
  ck.ok(await p.$(item + " .rejoin"), "one's own running room offers Rejoin");
  ck.ok(!(await p.$(item + " .watch")), "and not Watch");
  await shot(p, "web-lobby-rejoin");
  await p.click(item + " .rejoin");
  await p.waitForSelector(".board");
  await waitTurn(p, "Your turn");
  ck.ok((await p.$$(".cell")).length > 0 && await p.$(".actions .resign"), "Rejoin seats the player again (Resign offered)");
  // a one-player room: listed while its player is here, not once gone
  const c = await loggedInPage(browser, srv.url, "solo");
  const solo = await createRoom(c, "solitaire");
  const w = await loggedInPage(browser, srv.url, "look");
  await w.waitForSelector(`.room-item[data-room="${solo}"]`, { timeout: WAIT_MS });
  ck.ok(true, "a one-player room is listed while its player is there");
  await c.context().close();
  await sleep(500);
  const w2 = await loggedInPage(browser, srv.url, "look2");
  await w2.waitForSelector(`.room-item[data-room="${room}"]`, { timeout: WAIT_MS });
  ck.ok(!(await w2.$(`.room-item[data-room="${solo}"]`)), "another's one-player room, its player gone, is not listed");
  ck.eq(p.errors.concat(w.errors, w2.errors), [], "no script errors (own rooms)");
  for (const x of [p, w, w2]) await x.context().close();
}

// A program on the line protocol speaking JSON: send(cmd, fields)
// resolves with its reply; events are kept in .events.
function jsonClient(port) {
  return new Promise((res, rej) => {
    const s = connect(port, "127.0.0.1");
    const c = { events: [], waiting: new Map(), id: 1, buf: "" };
    c.send = (cmd, fields = {}) => new Promise((r) => {
      const id = c.id++;
      c.waiting.set(id, r);
      s.write(JSON.stringify(Object.assign({ cmd, id }, fields)) + "\n");
    });
    c.close = () => s.destroy();
    s.on("data", (d) => {
      c.buf += d.toString();
      let i;
      while ((i = c.buf.indexOf("\n")) >= 0) {
        const line = c.buf.slice(0, i);
        c.buf = c.buf.slice(i + 1);
        let m;
        try { m = JSON.parse(line); } catch { continue; }
        if (m.re !== undefined && c.waiting.has(m.id)) { c.waiting.get(m.id)(m); c.waiting.delete(m.id); }
        else if (m.event) c.events.push(m);
      }
    });
    s.on("error", rej);
    s.on("connect", () => res(c));
  });
}

async function waitFor(fn, what) {
  const t0 = Date.now();
  while (Date.now() - t0 < WAIT_MS) {
    if (fn()) return true;
    await sleep(50);
  }
  throw new Error("timed out waiting for " + what);
}

// 3. What comes to the player outside any room: a message kept while
// away, shown at the next login; a tell; an invitation with Join; a
// challenge with Accept (to the room) and Decline; one's own challenge
// from a profile, declined.
async function inbox(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "inb");
  const ctx = p.context();
  await p.close(); // away (the browser keeps the token)
  const z = await jsonClient(srv.port);
  ck.ok((await z.send("hello", { name: "zed" })).ok, "zed logs in");
  // away once the server has seen the page's socket close
  const t0 = Date.now();
  while (Date.now() - t0 < WAIT_MS && (await z.send("who")).players.some((x) => x.name === "inb")) await sleep(100);
  const kept = await z.send("message", { name: "inb", text: "rematch tomorrow?" });
  ck.ok(kept.ok && kept.kept, "the message is kept for inb: " + JSON.stringify(kept));
  const q = await ctx.newPage();
  q.errors = [];
  q.on("pageerror", (e) => q.errors.push(e.message));
  await q.goto(srv.url);
  await q.waitForSelector(".inbox-message", { timeout: WAIT_MS });
  ck.ok((await text(q, ".inbox-message")).includes("zed") && (await text(q, ".inbox-message")).includes("rematch tomorrow?"),
    "the kept message is shown at login: " + await text(q, ".inbox-message"));
  ck.ok((await z.send("tell", { name: "inb", text: "hi there" })).ok, "zed tells inb");
  await q.waitForSelector(".inbox-told", { timeout: WAIT_MS });
  ck.ok((await text(q, ".inbox-told")).includes("hi there"), "the tell is shown");
  const made = await z.send("create", { game: "amazons", private: true });
  ck.ok((await z.send("invite", { name: "inb", room: made.room })).ok, "zed invites inb");
  await q.waitForSelector(".inbox-invited .inbox-join", { timeout: WAIT_MS });
  ck.ok((await text(q, ".inbox-invited")).includes(made.room), "the invitation names the room");
  // a challenge declined, then one accepted
  ck.ok((await z.send("match", { name: "inb", game: "stones" })).ok, "zed challenges inb");
  await q.waitForSelector(".inbox-challenged .decline-challenge", { timeout: WAIT_MS });
  await shot(q, "web-inbox");
  await q.click(".inbox-challenged .decline-challenge");
  ck.ok(true, "Decline is there");
  await sleep(300);
  ck.ok(!(await q.$(".inbox-challenged")), "an answered challenge leaves the inbox");
  ck.ok((await z.send("match", { name: "inb", game: "stones", rated: false })).ok, "zed challenges inb again");
  await q.waitForSelector(".inbox-challenged .accept-challenge", { timeout: WAIT_MS });
  await q.click(".inbox-challenged .accept-challenge");
  await q.waitForSelector(".board", { timeout: WAIT_MS });
  ck.ok((await text(q, ".room-title")).startsWith("Stones"), "Accept takes inb to the Stones board");
  ck.ok((await text(q, ".seats")).includes("zed"), "against zed");
  // one's own challenge, from zed's profile: declined
  await q.click(".actions .back");
  await q.waitForSelector(".who-list .profile-link[data-name=zed]", { timeout: WAIT_MS });
  await q.click(".who-list .profile-link[data-name=zed]");
  await q.waitForSelector(".profile .challenge", { timeout: WAIT_MS });
  await q.click(".profile .challenge");
  await waitFor(() => z.events.some((e) => e.event === "challenged" && e.from === "inb"), "zed challenged");
  ck.ok((await z.send("decline", { name: "inb" })).ok, "zed declines");
  await q.waitForSelector(".inbox-challenge_over", { timeout: WAIT_MS });
  ck.ok((await text(q, ".inbox-challenge_over")).includes("declined"), "the challenger is told: " + await text(q, ".inbox-challenge_over"));
  await q.click(".inbox-challenge_over .inbox-dismiss");
  ck.ok(!(await q.$(".inbox-challenge_over")), "a note is dismissed");
  ck.eq(q.errors, [], "no script errors (inbox)");
  z.close();
  await ctx.close();
}

// 3. A clock event with "stopped": the countdown stops and says so (the
// event is the server's on a cluster; here it is put into the page's
// WebSocket between the real server's events), and runs again after
// one without it.
async function clockStopped(browser, srv) {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const p = await ctx.newPage();
  p.errors = [];
  p.on("pageerror", (e) => p.errors.push(e.message));
  let toPage = null;
  await p.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    toPage = ws;
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => ws.send(m));
  });
  await p.goto(srv.url);
  await p.waitForSelector("body[data-conn=online][data-ready]", { timeout: WAIT_MS });
  await login(p, "clk");
  await p.selectOption("select[name=game]", "ataxx");
  await p.selectOption("select[name=bot]", "1");
  await p.fill("input[name=clock]", "5");
  await p.click(".create-btn");
  await p.waitForSelector(".board", { timeout: WAIT_MS });
  await waitTurn(p, "Your turn");
  const room = (await text(p, ".room-title")).split(" · ")[1];
  const seat = await p.$eval(".seat.to-move", (e) => e.dataset.seat);
  const clocks = { white: 200000, black: 300000 };
  toPage.send(JSON.stringify({ event: "clock", room, seq: 9999, clocks, stopped: true }));
  await p.waitForSelector(".clock-stopped", { timeout: WAIT_MS });
  const c0 = await text(p, `[data-clock="${seat}"]`);
  await sleep(2300);
  const c1 = await text(p, `[data-clock="${seat}"]`);
  ck.eq(c1, c0, "a stopped clock does not count down");
  ck.ok((await text(p, ".clock-stopped")).includes("stopped"), "the page says the clocks are stopped");
  await shot(p, "web-clock-stopped");
  toPage.send(JSON.stringify({ event: "clock", room, seq: 10000, clocks }));
  await until(p, () => !document.querySelector(".clock-stopped"), null, "clocks going again");
  await sleep(2300);
  ck.ok((await text(p, `[data-clock="${seat}"]`)) !== c0, "the clock counts down again: " + await text(p, `[data-clock="${seat}"]`));
  ck.eq(p.errors, [], "no script errors (clock stopped)");
  await ctx.close();
}

// 4. The lobby pushed: a room another makes shows within 2 s, and a
// quiet lobby asks no `rooms` (the page polled every 5 s).
async function pushedLobby(browser, srv) {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const x = await ctx.newPage();
  x.errors = [];
  x.on("pageerror", (e) => x.errors.push(e.message));
  let asked = 0;
  x.on("websocket", (ws) => ws.on("framesent", (f) => { if (/"cmd":"rooms"/.test(String(f.payload))) asked++; }));
  await x.goto(srv.url);
  await x.waitForSelector("body[data-conn=online][data-ready]", { timeout: WAIT_MS });
  await login(x, "push");
  const y = await loggedInPage(browser, srv.url, "maker");
  for (let i = 0; i < 2; i++) {
    await y.click(".actions .back").catch(() => {});
    await y.waitForSelector(".create-btn");
    const t0 = Date.now();
    const room = await createRoom(y, "stones");
    await x.waitForSelector(`.room-item[data-room="${room}"]`, { timeout: WAIT_MS });
    const ms = Date.now() - t0;
    ck.ok(ms < 2000, `another's new room shows in the lobby within 2 s: ${ms} ms`);
    console.log(`a new room in another's lobby after ${ms} ms`);
  }
  await sleep(1500);
  const before = asked;
  await sleep(6000);
  ck.eq(asked - before, 0, "a quiet lobby asks no rooms for 6 s");
  ck.eq(x.errors.concat(y.errors), [], "no script errors (pushed lobby)");
  await ctx.close();
  await y.context().close();
}

// 5. A room's chat survives a reload: the server keeps its last lines
// and the state brings them; a watcher who comes later reads them too.
async function chatHistory(browser, srv) {
  const x = await loggedInPage(browser, srv.url, "chx");
  const room = await createRoom(x, "stones", {}, 1);
  for (const line of ["first line", "second line"]) {
    await x.fill("input[name=chat]", line);
    await x.press("input[name=chat]", "Enter");
    await until(x, (l) => [...document.querySelectorAll(".chat-list .text")].some((e) => e.textContent === l), line, "chat " + line);
  }
  await x.reload();
  await x.waitForSelector(".board", { timeout: WAIT_MS });
  await until(x, () => document.querySelectorAll(".chat-list li").length >= 2, null, "chat after a reload").catch(() => {});
  ck.eq(await x.$$eval(".chat-list .text", (l) => l.map((e) => e.textContent)), ["first line", "second line"],
    "the room's chat after a reload");
  await shot(x, "web-chat-reload");
  await x.fill("input[name=move]", "b");
  const w = await loggedInPage(browser, srv.url, "chw");
  await w.click(`.room-item[data-room="${room}"] .watch`);
  await w.waitForSelector(".board", { timeout: WAIT_MS });
  await until(x, () => /1/.test(document.querySelector(".watchers").textContent), null, "the watcher counted");
  ck.eq(await x.$eval("input[name=move]", (e) => e.value), "b", "a move half typed stays when a watcher comes and the room is redrawn");
  ck.eq(await w.$$eval(".chat-list .text", (l) => l.map((e) => e.textContent)), ["first line", "second line"],
    "a watcher who comes later reads the last lines");
  await x.fill("input[name=chat]", "half a li");
  await w.fill("input[name=chat]", "third line");
  await w.press("input[name=chat]", "Enter");
  await until(x, () => document.querySelectorAll(".chat-list li").length >= 3, null, "third line");
  ck.eq(await x.$eval("input[name=chat]", (e) => [e.value, document.activeElement === e, e.selectionStart]), ["half a li", true, 9],
    "a line half typed stays, focused, caret in place, when another's line redraws the chat");
  ck.eq(await x.$$eval(".chat-list .text", (l) => l.map((e) => e.textContent)), ["first line", "second line", "third line"],
    "new lines follow the kept ones, none twice");
  ck.eq(x.errors.concat(w.errors), [], "no script errors (chat history)");
  for (const p of [x, w]) await p.context().close();
}

await runTest(ck, a.build, async (browser, srv) => {
  for (const [name, fn] of [["phone", phoneLobby], ["own", ownRooms], ["inbox", inbox], ["clock", clockStopped], ["pushed", pushedLobby], ["chat", chatHistory]]) {
    try { await fn(browser, srv); } catch (e) { ck.ok(false, name + ": " + (e && e.stack || e)); }
  }
});
