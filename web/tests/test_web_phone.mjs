// test_web_phone.mjs: the lobby on a 360x740 phone (issue 31): a player
// with no games sees no empty "My games" box; after a rated game the
// ratings table shows every column inside its own box (the page never
// scrolls sideways). TABLERO_SHOTS=DIR saves the screenshots.

import { Checks, args, runTest, newPage, login, waitTurn,
  clickSq, waitMoves, createRoom, until, sleep, resign, WAIT_MS } from "./lib.mjs";

const ck = new Checks();
const a = args();
const SHOTS = process.env.TABLERO_SHOTS;
const PHONE = { width: 360, height: 740 };

// Wait until the lobby's lists are filled (who is online comes with the
// player's games).
async function lobbyFilled(p) {
  await until(p, () => !!document.querySelector("#lobby .who-list li"), null, "the lobby's lists");
  await sleep(300);
}

// Whether the lobby's "My games" box takes room on the page.
const historyShown = (p) => p.$eval("#lobby .history", (e) => e.getClientRects().length > 0).catch(() => false);

// How the ratings table sits in its box: the right edge of each row's
// last cell against the box's inner right edge, and the page's width.
const ratingsFit = (p) => p.evaluate(() => {
  const box = document.querySelector("#lobby .ratings");
  const cells = [...box.querySelectorAll(".ratings-table tr")].map((r) => r.lastElementChild).filter(Boolean);
  const inner = box.getBoundingClientRect().right - parseFloat(getComputedStyle(box).paddingRight) - parseFloat(getComputedStyle(box).borderRightWidth);
  return { rows: cells.length, overBy: Math.max(...cells.map((c) => c.getBoundingClientRect().right - inner)),
    page: document.documentElement.scrollWidth };
});

async function phoneLobby(browser, srv) {
  const p = await newPage(browser, srv.url, PHONE);
  await login(p, "phoneana");
  await lobbyFilled(p);
  ck.ok(!(await historyShown(p)), "no empty My games box for a player without games");
  ck.ok((await p.evaluate(() => document.documentElement.scrollWidth)) <= 360, "the phone lobby does not scroll sideways");
  // the whole lobby: where "My games" would be, nothing
  if (SHOTS) await p.screenshot({ path: SHOTS + "/web-phone-lobby-empty.png", fullPage: true });

  // a rated Ataxx game: two moves each, then the other resigns
  const room = await createRoom(p, "ataxx");
  const q = await newPage(browser, srv.url);
  await login(q, "phonebob");
  await q.click(`.room-item[data-room="${room}"] .join`);
  await q.waitForSelector(".board");
  const plies = [[p, "a7", "b6"], [q, "g7", "f6"], [p, "b6", "c5"], [q, "f6", "e5"]];
  for (const [i, [who, from, to]] of plies.entries()) {
    await waitTurn(who, "Your turn");
    await clickSq(who, from); await clickSq(who, to);
    await waitMoves(who, i + 1);
  }
  await waitMoves(q, 4);
  await resign(q);
  await waitTurn(p, "resignation");
  await p.click(".actions .back");
  await lobbyFilled(p);
  await until(p, () => document.querySelectorAll("#lobby .ratings-table tr").length >= 3, null, "the ratings table");
  ck.ok(await historyShown(p), "My games shows once there is a game");
  const fit = await ratingsFit(p);
  ck.ok(fit.rows >= 3 && fit.overBy <= 0.5, "every row's last column lies inside the ratings box at 360 px: " + JSON.stringify(fit));
  ck.ok(fit.page <= 360, "the page does not scroll sideways with the ratings shown: " + fit.page);
  const last = await p.$eval("#lobby .ratings-table tr[data-name] td:last-child", (e) => e.textContent);
  ck.ok(/^\d+–\d+–\d+$/.test(last), "the last column reads whole (won–drawn–lost): " + last);
  await p.$eval("#lobby .ratings", (e) => e.scrollIntoView());
  if (SHOTS) await p.screenshot({ path: SHOTS + "/web-ratings-phone.png" });
  ck.eq(p.errors.concat(q.errors), [], "no script errors (phone lobby)");
  for (const x of [p, q]) await x.context().close();
}

await runTest(ck, a.build, async (browser, srv) => {
  try { await phoneLobby(browser, srv); } catch (e) { ck.ok(false, "phone: " + (e && e.stack || e)); }
});
