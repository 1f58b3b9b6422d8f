// test_web.mjs: the browser client in a real headless Chromium against
// the real tablerod: two players play the Stones seed's whole game by
// clicks, with its error sentences typed; a visitor without a name
// watches it on a phone-sized screen; a chat line with markup shows as
// text; the finished game in the history and its replay; a clock
// counting; Spanish and
// dark; the page keeps no script errors. Ends "N passed, M failed".

import { Checks, args, runTest, newPage, loggedInPage, waitTurn, text,
  clickSq, waitMoves, createRoom, rawExchange, until, sleep, WAIT_MS, resign } from "./lib.mjs";

const ck = new Checks();
const a = args();
const SHOTS = process.env.TABLERO_SHOTS; // a folder: save screenshots there

const P1 = "player 1";
// The seed's game (docs/RULES.md, Stones): [who, what, refusal or null].
// Accepted moves are clicked; refused ones are typed, as in the seed.
const SEED = [
  [P1, "A2", null], [P1, "C1", null], [P1, "B3", null],
  ["p2", "C1", "Position taken by another peg"],
  ["p2", "0", "Not a board position"],
  ["p2", "B2", null], ["p2", "C3", null],
  ["p2", "A1", "Cannot complete 3-in-a-row at this stage"],
  ["p2", "A3", null],
  [P1, "C1A1", "Destination position is not connected to origin position"],
  [P1, "B1A1", "Origin is not occupied by player's 1 peg"],
  [P1, "C1B2", "Destination position is not empty"],
  [P1, "SDKJGJSDF", "Enter origin and destination positions in 4 characters, e.g., A2B1"],
  [P1, "C1C2", null], ["p2", "B2B1", null],
  [P1, "C3C2", "Origin is not occupied by player's 1 peg"],
  [P1, "B3B2", null],
];

async function typeMove(page, move) {
  await page.fill(".move-form input", move);
  await page.click(".move-form button");
}

async function stonesSeed(browser, srv) {
  const ana = await loggedInPage(browser, srv.url, "ana");
  const room = await createRoom(ana, "stones", { first: "1" });
  ck.ok(/^r\d+$/.test(room || ""), "ana created a room: " + room);

  // A visitor without a name, on a phone: sees the lobby and watches.
  const carol = await newPage(browser, srv.url, { width: 390, height: 844 });
  ck.ok(await carol.$("#name") !== null, "the visitor is asked no name to look");
  await carol.waitForSelector(`.room-item[data-room="${room}"]`, { timeout: WAIT_MS });
  ck.eq(await carol.$(`.room-item[data-room="${room}"] .join`), null, "no join button without a name");
  await carol.click(`.room-item[data-room="${room}"] .watch`);
  await carol.waitForSelector(".board", { timeout: WAIT_MS });
  ck.ok(await carol.$eval(".chat-form input", (e) => e.disabled), "a guest's chat is off");

  const bob = await loggedInPage(browser, srv.url, "bob");
  await bob.waitForSelector(`.room-item[data-room="${room}"] .join`, { timeout: WAIT_MS });
  if (SHOTS) await bob.screenshot({ path: SHOTS + "/web-lobby.png" });
  await bob.click(`.room-item[data-room="${room}"] .join`);
  await bob.waitForSelector(".board", { timeout: WAIT_MS });
  await waitTurn(ana, "Your turn");
  ck.ok((await text(bob, ".turn")).includes("player 1 (ana) to move"), "bob reads whose turn it is in words");

  let n = 0;
  for (const [who, move, refusal] of SEED) {
    const page = who === P1 ? ana : bob;
    await waitTurn(page, "Your turn");
    if (refusal) {
      await typeMove(page, move);
      await until(page, (r) => document.querySelector("#room .notice")?.textContent === r,
        refusal).catch(() => {});
      ck.eq(await text(page, "#room .notice"), refusal, `${move} is refused with the seed's sentence`);
      continue;
    }
    const sq = move.match(/[A-C][1-3]/g);
    for (const s of sq) await clickSq(page, s);
    n++;
    const list = await waitMoves(ana, n).catch(() => []);
    ck.eq(list[n - 1], move, `move ${n} ${move} played by clicks`);
  }
  await waitTurn(ana, "three in a row");
  ck.ok((await text(ana, ".turn")).includes("ana"), "ana wins: " + await text(ana, ".turn"));
  await waitTurn(carol, "three in a row");
  ck.eq((await waitMoves(carol, 9)).length, 9, "the watcher saw the nine moves");
  const last = await ana.$$eval(".sq.last, .last-ring", (l) => l.length);
  ck.eq(last, 2, "the last move's two points are marked");

  // Markup in chat is text, everywhere.
  const evil = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2"><b>hi</b>';
  await ana.fill(".chat-form input", evil);
  await ana.click(".chat-form button");
  for (const [who, page] of [["bob", bob], ["carol", carol]]) {
    await page.waitForSelector(".chat-list li", { timeout: WAIT_MS });
    ck.eq(await text(page, ".chat-list li .text"), evil, `${who} sees the chat line as text`);
    ck.eq(await page.$$eval(".chat-list img, .chat-list b:not(.from), .chat-list script", (l) => l.length), 0,
      `${who}'s page made no element of it`);
    ck.eq(await page.evaluate(() => window.pwned), undefined, `${who}'s page ran none of it`);
  }

  // The phone layout: nothing wider than the screen, the board fills it.
  const width = await carol.evaluate(() => document.documentElement.scrollWidth);
  ck.ok(width <= 390, "the phone page is not wider than 390 px: " + width);
  const box = await (await carol.$(".board")).boundingBox();
  ck.ok(box && box.width > 300 && box.x >= 0 && box.x + box.width <= 390,
    "the board fits the phone's width: " + JSON.stringify(box));
  if (SHOTS) {
    await ana.screenshot({ path: SHOTS + "/web-stones.png" });
    await carol.screenshot({ path: SHOTS + "/web-phone.png", fullPage: true });
  }
  for (const [who, page] of [["ana", ana], ["bob", bob], ["carol", carol]])
    ck.eq(page.errors, [], `no script errors on ${who}'s page`);
  for (const p of [bob, carol]) await p.context().close();
  return ana;
}

// A finished game in the player's history, viewed; a clock counting;
// Spanish and the dark theme.
async function historyClockLang(p) {
  await p.click(".actions .back");
  await p.waitForSelector(".history .view", { timeout: WAIT_MS });
  ck.ok((await text(p, ".history")).includes("three in a row"), "ana's history lists the Stones game with its result");
  await p.click(".history .view");
  await p.waitForSelector(".board", { timeout: WAIT_MS });
  ck.eq((await waitMoves(p, 9)).length, 9, "the finished game shows its nine moves");
  ck.ok((await text(p, ".turn")).includes("ana wins"), "and how it ended");
  // The replay, step by step (the server plays it forward).
  const pegs = () => p.$$eval(".board .p-white, .board .p-black", (l) => l.length);
  const stepTo = async (cls, label) => {
    await p.click(".replay .step-" + cls);
    await until(p, (w) => document.querySelector(".replay-at")?.textContent === w, label, label);
  };
  ck.eq(await pegs(), 6, "the finished board has six pegs");
  await stepTo("first", "move 0 of 9");
  ck.eq(await pegs(), 0, "replay: the empty board at move 0");
  await stepTo("next", "move 1 of 9");
  ck.eq(await pegs(), 1, "replay: one peg after move 1");
  ck.eq(await text(p, ".moves li.current"), "A2", "replay: move 1 is marked in the list");
  await stepTo("last", "move 9 of 9");
  await stepTo("prev", "move 8 of 9");
  ck.eq(await text(p, ".moves li.current"), "B2B1", "replay: a step back");
  ck.eq(await pegs(), 6, "replay: six pegs at move 8");
  await p.click(".actions .back");
  await p.waitForSelector(".create", { timeout: WAIT_MS });

  await p.selectOption("select[name=game]", "ataxx");
  await p.fill("[name=clock]", "1");
  await p.selectOption("select[name=bot]", "1");
  await p.click(".create-btn");
  await p.waitForSelector(".clock", { timeout: WAIT_MS });
  await waitTurn(p, "Your turn");
  const c1 = await text(p, '.clock[data-clock="white"]');
  await sleep(1600);
  const c2 = await text(p, '.clock[data-clock="white"]');
  ck.ok(/^[01]:\d\d$/.test(c1) && c2 < c1, `white's clock counts down: ${c1} then ${c2}`);
  ck.eq(await text(p, '.clock[data-clock="black"]'), "1:00", "the waiting side's clock stands");

  await p.click("#lang");
  ck.eq(await text(p, ".turn"), "Te toca", "Spanish: whose turn");
  ck.eq(await text(p, ".actions .resign"), "Abandonar", "Spanish: the buttons");
  await p.click("#lang");
  ck.eq(await text(p, ".turn"), "Your turn", "and back to English");
  const bg = () => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const before = await bg();
  await p.click("#theme");
  ck.ok((await bg()) !== before, "the theme button switches light and dark");
  if (SHOTS) await p.screenshot({ path: SHOTS + "/web-dark.png" });
  await resign(p);
  await waitTurn(p, "resignation");
  ck.eq(p.errors, [], "no script errors (history, clock, language)");
  await p.context().close();
}

// The page's headers: CSP with no inline script, the traversal and the
// foreign Origin refused.
async function headers(srv) {
  const r = await fetch(srv.url);
  ck.eq(r.status, 200, "GET / is the page");
  const csp = r.headers.get("content-security-policy") || "";
  ck.ok(csp.includes("script-src 'self'") && !csp.includes("unsafe-inline"), "the CSP forbids inline script: " + csp);
  ck.eq(r.headers.get("x-content-type-options"), "nosniff", "nosniff");
  const js = await fetch(srv.url + "js/app.js");
  ck.ok((js.headers.get("content-type") || "").startsWith("text/javascript"), "modules are served as JavaScript");
  const up = (origin) => rawExchange(srv.webPort, "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + srv.webPort +
    "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: " + origin + "\r\n\r\n");
  ck.ok((await up("http://evil.example")).startsWith("HTTP/1.1 403"), "a WebSocket from another site's page is refused");
  const good = await up("http://127.0.0.1:" + srv.webPort);
  ck.ok(good.startsWith("HTTP/1.1 101") && good.includes("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
    "the page's own origin gets the upgrade with RFC 6455's accept key");
  const dots = await rawExchange(srv.webPort, "GET /../server/web.c HTTP/1.1\r\nHost: x\r\n\r\n");
  ck.ok(dots.startsWith("HTTP/1.1 404"), "no file outside web/");
  const tel = await rawExchange(srv.webPort, "hello tel\r\n");
  ck.ok(tel.includes("Hello, tel"), "telnet works on the web port too");
}

await runTest(ck, a.build, async (browser, srv) => {
  await headers(srv);
  const ana = await stonesSeed(browser, srv);
  await historyClockLang(ana);
});
