// test_web_seeks.mjs: seeks in the browser against the real tablerod: a
// seek made from the lobby's form is listed with the player's rating and
// can be withdrawn; another player sees it and takes it with one click;
// the pairing takes both pages to the same board with one seat each; a
// guest sees the list without buttons; the pages keep no script errors.
// Ends "N passed, M failed".

import { Checks, args, runTest, newPage, loggedInPage, text, until,
  WAIT_MS } from "./lib.mjs";

const ck = new Checks();
const a = args();

// Seek from the form: game, its options, rated or casual.
async function seek(page, game, options, rated) {
  await page.selectOption("select[name=seek_game]", game);
  for (const [k, v] of Object.entries(options))
    await page.fill(`[name="so_${k}"]`, String(v));
  if (!rated) await page.uncheck("form.seek input[name=rated]");
  await page.click(".seek-btn");
}

async function seekItems(page) {
  return page.$$eval(".seek-item", (l) => l.map((x) => x.textContent));
}

async function run(browser, srv) {
  const ana = await loggedInPage(browser, srv.url, "ana");
  await seek(ana, "stones", {}, true);
  await until(ana, () => /Seeking/.test(document.querySelector(".notice").textContent), null, "ana's seek");
  await ana.waitForSelector(".seek-item .withdraw", { timeout: WAIT_MS });
  const mine = await seekItems(ana);
  ck.ok(mine.length === 1 && /ana \(1500\)/.test(mine[0]) && /Stones/.test(mine[0]) && /rated/.test(mine[0]),
    "ana's seek is listed with her rating: " + mine);
  await ana.click(".seek-item .withdraw");
  await until(ana, () => document.querySelectorAll(".seek-item").length === 0, null, "the seek withdrawn");
  ck.ok(/Nobody is seeking/.test(await text(ana, ".seeks")), "the list says nobody seeks");

  await seek(ana, "ataxx", { size: 5 }, false);
  const guest = await newPage(browser, srv.url);
  await guest.waitForSelector(".seek-item", { timeout: WAIT_MS });
  ck.eq(await guest.$(".seek-item button"), null, "a guest sees the seek, no button");
  const bob = await loggedInPage(browser, srv.url, "bob");
  await bob.waitForSelector(".seek-item .take", { timeout: WAIT_MS });
  const seen = await seekItems(bob);
  ck.ok(/ana \(1500\)/.test(seen[0]) && /size=5/.test(seen[0]) && /casual/.test(seen[0]),
    "bob sees ana's casual 5x5 seek: " + seen);
  await bob.click(".seek-item .take");
  await ana.waitForSelector(".board", { timeout: WAIT_MS });
  await bob.waitForSelector(".board", { timeout: WAIT_MS });
  const ta = await text(ana, ".room-title"), tb = await text(bob, ".room-title");
  ck.ok(/^Ataxx · r\d+/.test(ta || "") && ta === tb, `both pages show the same room: ${ta} / ${tb}`);
  const seats = await ana.$$eval(".seat", (l) => l.map((x) => x.textContent).join(" | "));
  ck.ok(/ana/.test(seats) && /bob/.test(seats), "one seat each: " + seats);
  for (const [p, who] of [[ana, "ana"], [bob, "bob"], [guest, "guest"]])
    ck.eq(p.errors, [], who + "'s page has no script errors");
}

await runTest(ck, a.build, run);
