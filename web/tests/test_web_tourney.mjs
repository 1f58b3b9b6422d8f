// test_web_tourney.mjs: a tournament from the browser: ana creates a
// round robin in the lobby, ana and bob join it from the list, ana (the
// organiser, and only she) starts it; both are taken to their room by the
// tourney_round event, bob resigns, and both lobbies show the final
// standings (ana 1 point, bob 0). The page keeps no script errors.
// Ends "N passed, M failed".

import { Checks, args, startServer, launch, newPage, login, until, WAIT_MS } from "./lib.mjs";

const ck = new Checks();
const a = args();

async function standings(page, id) {
  await page.waitForSelector(`.tourney-detail[data-tourney="${id}"] .standing`, { timeout: WAIT_MS });
  return page.$$eval(`.tourney-detail[data-tourney="${id}"] .standing`, (rows) =>
    rows.map((r) => [r.querySelector(".st-name").textContent, r.querySelector(".st-points").textContent]));
}

async function tourney(browser, srv) {
  const ana = await newPage(browser, srv.url);
  await login(ana, "ana");
  const bob = await newPage(browser, srv.url);
  await login(bob, "bob");
  await ana.selectOption("select[name=t_game]", "stones");
  await ana.click(".tourney-create-btn");
  await ana.waitForSelector(".tourney-item", { timeout: WAIT_MS });
  const id = await ana.$eval(".tourney-item", (e) => e.dataset.tourney);
  ck.ok(/^t\d+$/.test(id || ""), "ana created a tournament: " + id);
  await ana.click(`.tourney-item[data-tourney="${id}"] .tourney-join`);
  await until(ana, (i) => {
    const e = document.querySelector(`.tourney-item[data-tourney="${i}"]`);
    return !!e && e.textContent.includes("players: 1");
  }, id, "ana in the list");
  // bob's lobby refreshes every 5 s; a click on Standings renders at once
  await bob.waitForSelector(`.tourney-item[data-tourney="${id}"] .tourney-join`, { timeout: WAIT_MS });
  ck.eq(await bob.$(`.tourney-item[data-tourney="${id}"] .tourney-start`), null,
    "only the organiser has a start button");
  await bob.click(`.tourney-item[data-tourney="${id}"] .tourney-join`);
  await until(bob, (i) => {
    const e = document.querySelector(`.tourney-detail[data-tourney="${i}"]`);
    return !!e && e.textContent.includes("bob");
  }, id, "bob in the standings");
  await ana.click(`.tourney-item[data-tourney="${id}"] .tourney-show`);
  await ana.waitForSelector(`.tourney-item[data-tourney="${id}"] .tourney-start`, { timeout: WAIT_MS });
  await ana.click(`.tourney-item[data-tourney="${id}"] .tourney-start`);
  // tourney_round takes both to their room
  await ana.waitForSelector(".board", { timeout: WAIT_MS });
  await bob.waitForSelector(".board", { timeout: WAIT_MS });
  ck.ok(true, "both were taken to the round's room");
  await bob.waitForSelector(".actions .resign", { timeout: WAIT_MS });
  await bob.click(".actions .resign");
  await ana.waitForSelector(".actions .back", { timeout: WAIT_MS });
  for (const p of [ana, bob]) {
    await p.waitForSelector(".actions .back", { timeout: WAIT_MS });
    await p.click(".actions .back");
    await p.waitForSelector(".tourneys", { timeout: WAIT_MS });
  }
  await until(ana, (i) => {
    const e = document.querySelector(`.tourney-item[data-tourney="${i}"] .room-status`);
    return !!e && e.textContent === "ended";
  }, id, "the tournament ended");
  ck.eq(await standings(ana, id), [["ana", "1"], ["bob", "0"]], "ana's page: the final standings");
  ck.eq(await standings(bob, id), [["ana", "1"], ["bob", "0"]], "bob's page: the final standings");
  ck.eq(ana.errors.concat(bob.errors), [], "no script errors");
}

const browser = await launch();
const srv = await startServer(a.build);
try {
  await tourney(browser, srv);
} catch (e) {
  ck.ok(false, "exception: " + (e && e.stack || e));
} finally {
  await browser.close();
  ck.eq(await srv.stop(), 0, "tablerod stopped cleanly (no sanitizer report)");
}
ck.done();
