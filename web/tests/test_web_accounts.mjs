// test_web_accounts.mjs: passwords in the browser (issue 31, accounts).
// ana logs in in one browser and sets a password from the name box; a
// second browser (a fresh context: no token) types the name, is asked
// for the password in a password input, logs in with it and keeps the
// token it got, so a reload logs in by itself; a wrong password is
// refused with the server's words and the page stays logged out; the
// page keeps no script errors. Ends "N passed, M failed".

import { Checks, args, runTest, loggedInPage, newPage, text, until,
  WAIT_MS } from "./lib.mjs";

const ck = new Checks();
const a = args();
const PW = "correct horse 1";
const SHOTS = process.env.TABLERO_SHOTS; // a folder: save screenshots there

const kept = (page) => page.evaluate(() => JSON.parse(localStorage.getItem("tablero.id") || "null"));

async function accounts(browser, srv) {
  const first = await loggedInPage(browser, srv.url, "ana");
  const tok1 = (await kept(first) || {}).token;
  await first.click("#me .set-password");
  await first.waitForSelector("#me form.setpw input.new-password", { timeout: WAIT_MS });
  ck.eq(await first.getAttribute("#me input.new-password", "type"), "password", "the new password is not shown");
  await first.fill("#me input.new-password", PW);
  if (SHOTS) await first.screenshot({ path: SHOTS + "/web-password-set.png" });
  await first.click("#me form.setpw button[type=submit]");
  await until(first, () => /Password set/.test(document.querySelector("#lobby .notice").textContent), null, "password set");
  ck.ok(true, "the page sets a password");

  // A second machine: no token for ana.
  const second = await newPage(browser, srv.url);
  await second.fill("#name", "ana");
  await second.click(".login button");
  await second.waitForSelector("#me form.login-password input[type=password]", { timeout: WAIT_MS });
  ck.ok(/registered/.test(await text(second, "#lobby .notice")), "the page says the name is registered and asks its password");
  if (SHOTS) await second.screenshot({ path: SHOTS + "/web-password-ask.png" });
  await second.fill("#me input[type=password]", "not the password");
  await second.click("#me form.login-password button[type=submit]");
  await until(second, () => /wrong password/.test(document.querySelector("#lobby .notice").textContent), null, "wrong password refused");
  ck.ok(await second.$(".me-name") === null, "a wrong password does not log in");
  await second.fill("#me input[type=password]", PW);
  await second.click("#me form.login-password button[type=submit]");
  await second.waitForSelector(".me-name", { timeout: WAIT_MS });
  ck.ok((await text(second, ".me-name")).includes("ana"), "the right password logs in as ana");
  const id = await kept(second) || {};
  ck.ok(/^[0-9a-f]{32}$/.test(id.token || "") && id.token !== tok1, "the page keeps a token of its own: " + id.token);
  await second.reload();
  await second.waitForSelector("body[data-conn=online][data-ready]", { timeout: WAIT_MS });
  await second.waitForSelector(".me-name", { timeout: WAIT_MS });
  ck.ok(true, "after a reload the kept token logs in by itself");
  ck.eq(first.errors.concat(second.errors), [], "no script errors");
}

await runTest(ck, a.build, accounts);
