// test_web_lobby.mjs: the lobby and the room's events as issue 31 asked
// them: the phone lobby fits 360 px with the room list near the top, one's
// own room offers "Rejoin", others' abandoned one-player rooms are not
// listed, no empty box for guests.
// TABLERO_SHOTS=DIR saves the screenshots.

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

await runTest(ck, a.build, async (browser, srv) => {
  for (const [name, fn] of [["phone", phoneLobby], ["own", ownRooms]]) {
    try { await fn(browser, srv); } catch (e) { ck.ok(false, name + ": " + (e && e.stack || e)); }
  }
});
