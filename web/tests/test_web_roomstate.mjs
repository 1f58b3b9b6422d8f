// test_web_roomstate.mjs: what a room shows from its state, and the
// buttons the server would refuse (issue 31): after a reload both sides
// see the pending draw and take-back offers as during play, and the
// rated label; a tournament game says so and offers no Rematch at its
// end; Amazons (no draws) has no "Offer a draw"; a one-player game has
// no Undo before its first move. TABLERO_SHOTS=DIR saves the screenshots.

import { Checks, args, runTest, newPage, login, loggedInPage, waitTurn,
  text, clickSq, waitMoves, createRoom, until, sleep, resign, WAIT_MS, pair } from "./lib.mjs";

const ck = new Checks();
const a = args();
const SHOTS = process.env.TABLERO_SHOTS;

async function shot(p, name) {
  if (SHOTS) await p.screenshot({ path: SHOTS + "/" + name + ".png" });
}

const notice = (p) => text(p, "#room .notice");
const waitNotice = (p, want) => until(p, (w) => (document.querySelector("#room .notice")?.textContent || "").includes(w), want, "notice " + want);

async function reload(p) {
  await p.reload();
  await p.waitForSelector("body[data-conn=online][data-ready]", { timeout: WAIT_MS });
  await p.waitForSelector(".board", { timeout: WAIT_MS });
}

// 1. A draw offer and a take-back request pending, both pages reloaded:
// each side sees them as before, with the buttons to answer; the game
// is labelled rated.
async function reloadOffers(browser, srv) {
  const { x, y } = await pair(browser, srv, "rlx", "rly", "ataxx");
  await clickSq(x, "a7"); await clickSq(x, "b6");
  await waitTurn(y, "Your turn");
  await clickSq(y, "g7"); await clickSq(y, "f6");
  await waitTurn(x, "Your turn");
  await x.click(".actions .offer_draw");
  await waitNotice(y, "rlx offers a draw");
  await y.click(".actions .takeback");
  await waitNotice(x, "rly asks to take back");
  await reload(x); await reload(y);
  await until(y, () => !!document.querySelector(".actions .accept_draw"), null, "y's draw buttons after a reload").catch(() => {});
  ck.ok(await y.$(".actions .accept_draw") && await y.$(".actions .decline_draw"), "after a reload the other side may still accept or decline the draw");
  ck.ok((await notice(y)).includes("rlx offers a draw"), "after a reload: the draw offer is said: " + await notice(y));
  ck.ok(await y.$(".actions .takeback.pending[disabled]"), "after a reload the asker's Take back shows it pending");
  ck.ok((await notice(y)).includes("You asked to take back"), "after a reload the asker is told it waits: " + await notice(y));
  ck.ok(await x.$(".actions .offer_draw.pending[disabled]"), "after a reload the offerer's draw button shows it pending");
  ck.ok(await x.$(".actions .accept_takeback") && await x.$(".actions .decline_takeback"), "after a reload the take-back may be answered");
  ck.ok((await notice(x)).includes("rly asks to take back"), "after a reload the take-back request is said: " + await notice(x));
  for (const p of [x, y]) ck.eq(await text(p, ".rated-label"), "Rated game", "the rated label after a reload");
  await shot(y, "web-reload-offer");
  // and the buttons work: the take-back refused, the draw accepted
  await x.click(".actions .decline_takeback");
  await waitNotice(y, "rlx declined the take-back");
  await y.click(".actions .accept_draw");
  await waitTurn(x, "draw");
  ck.ok((await text(x, ".turn")).includes("draw by agreement"), "the draw accepted after the reload: " + await text(x, ".turn"));
  ck.eq(x.errors.concat(y.errors), [], "no script errors (reload offers)");
  for (const p of [x, y]) await p.context().close();
}

// 2. A tournament's game: labelled with the tournament, no Rematch at
// its end (the tournament pairs the next round).
async function tourneyRoom(browser, srv) {
  const ana = await loggedInPage(browser, srv.url, "tra");
  const bob = await loggedInPage(browser, srv.url, "trb");
  await ana.selectOption("select[name=t_game]", "stones");
  await ana.click(".tourney-create-btn");
  await ana.waitForSelector(".tourney-item", { timeout: WAIT_MS });
  const id = await ana.$eval(".tourney-item", (e) => e.dataset.tourney);
  await ana.click(`.tourney-item[data-tourney="${id}"] .tourney-join`);
  await bob.waitForSelector(`.tourney-item[data-tourney="${id}"] .tourney-join`, { timeout: WAIT_MS });
  await bob.click(`.tourney-item[data-tourney="${id}"] .tourney-join`);
  await until(bob, (i) => {
    const e = document.querySelector(`.tourney-detail[data-tourney="${i}"]`);
    return !!e && e.textContent.includes("trb");
  }, id, "bob in the standings");
  await ana.click(`.tourney-item[data-tourney="${id}"] .tourney-show`);
  await ana.waitForSelector(`.tourney-item[data-tourney="${id}"] .tourney-start`, { timeout: WAIT_MS });
  await ana.click(`.tourney-item[data-tourney="${id}"] .tourney-start`);
  for (const p of [ana, bob]) await p.waitForSelector(".board", { timeout: WAIT_MS });
  await reload(bob);
  ck.eq(await text(bob, ".tourney-label"), "Tournament " + id, "a tournament game says so (after a reload)");
  await bob.waitForSelector(".actions .resign", { timeout: WAIT_MS });
  await resign(bob);
  for (const p of [ana, bob]) await waitTurn(p, "resignation");
  await sleep(300);
  ck.ok(!(await ana.$(".actions .rematch")) && !(await bob.$(".actions .rematch")), "no Rematch in a tournament room");
  ck.eq(ana.errors.concat(bob.errors), [], "no script errors (tournament room)");
  for (const p of [ana, bob]) await p.context().close();
}

// 3. The buttons the server would refuse are not shown: "Offer a draw"
// in Amazons (Ataxx has it), Undo before a one-player game's first move.
async function refusedButtons(browser, srv) {
  const am = await pair(browser, srv, "rbx", "rby", "amazons");
  await am.y.waitForSelector(".actions .resign", { timeout: WAIT_MS });
  for (const p of [am.x, am.y]) {
    ck.ok(!(await p.$(".actions .offer_draw")) && !(await p.$(".actions .accept_draw")), "no draw button in Amazons");
    ck.ok(await p.$(".actions .resign"), "Amazons still has Resign");
  }
  for (const p of [am.x, am.y]) await p.context().close();
  const at = await pair(browser, srv, "rbv", "rbw", "ataxx");
  ck.ok(await at.x.$(".actions .offer_draw"), "Ataxx has its draw button");
  for (const p of [at.x, at.y]) await p.context().close();

  const p = await loggedInPage(browser, srv.url, "rbs");
  await createRoom(p, "shifter", { level: 1 });
  await waitTurn(p, "Your turn");
  ck.ok(!(await p.$(".actions .undo")), "no Undo before the first move");
  await p.click(".actions .hint");
  await until(p, () => /: [a-h][1-8]$/.test(document.querySelector(".hint")?.textContent || ""), null, "hint");
  await clickSq(p, (await text(p, ".hint")).split(": ")[1]);
  await until(p, () => !!document.querySelector(".actions .undo") || !!document.querySelector(".level-won"), null, "Undo after a move");
  ck.ok(await p.$(".actions .undo") || await p.$(".level-won"), "Undo once a move is made");
  ck.eq(p.errors, [], "no script errors (refused buttons)");
  await p.context().close();
}

await runTest(ck, a.build, async (browser, srv) => {
  for (const [name, fn] of [["reload", reloadOffers], ["tourney", tourneyRoom], ["buttons", refusedButtons]]) {
    try { await fn(browser, srv); } catch (e) { ck.ok(false, name + ": " + (e && e.stack || e)); }
  }
});
