// lib.mjs: what the browser tests share: the real tablerod on free
// loopback ports (read back from its log), Debian's Chromium through
// playwright-core (nothing downloads a browser), bounded waits, and the
// checks counted to one "N passed, M failed" line.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:net";

import { chromium } from "playwright-core";

// Every wait on the server or the page is bounded by this.
export const WAIT_MS = 10000;
export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

export class Checks {
  constructor() { this.passed = 0; this.failed = 0; }
  ok(cond, what) {
    if (cond) this.passed++;
    else { this.failed++; console.log("FAIL", what); }
    return !!cond;
  }
  eq(got, want, what) {
    return this.ok(JSON.stringify(got) === JSON.stringify(want),
      `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
  done() {
    console.log(`${this.passed} passed, ${this.failed} failed`);
    process.exit(this.failed === 0 ? 0 : 1);
  }
}

export function args() {
  const a = process.argv.indexOf("--build");
  return { build: a > 0 ? process.argv[a + 1] : "build" };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Start tablerod; ports 0 pick free ones unless given (a restart keeps
// them). Resolves once both ports are in its log.
let starts = 0;
export async function startServer(build, opts = {}) {
  const dir = opts.dir || mkdtempSync(join(tmpdir(), "tablero-web-"));
  const log = join(dir, "log-" + (++starts));
  const argv = ["--listen", "127.0.0.1", "--port", String(opts.port || 0),
    "--web-port", String(opts.webPort || 0), "--db", opts.db || ":memory:",
    "--web-dir", join(build, "web"), "--log-file", log, "--bot-delay", "0",
    // the rules against rating farms lifted: every test's players are new
    // and on one address (tests/blackbox/harness.py, RATING_RULES_OFF)
    "--rated-min-age", "0", "--rated-min-games", "0", "--rated-same-address",
    ...(opts.extra || [])];
  // stderr (a sanitizer's report) next to the log
  const errFd = openSync(log + ".stderr", "w");
  const proc = spawn(join(build, "tablerod"), argv, { stdio: ["ignore", "ignore", errFd] });
  const t0 = Date.now();
  while (Date.now() - t0 < WAIT_MS) {
    await sleep(50);
    const text = existsSync(log) ? readFileSync(log, "utf8") : "";
    const p = /listening on 127\.0\.0\.1:(\d+)/.exec(text);
    const w = /web and websocket on 127\.0\.0\.1:(\d+)/.exec(text);
    const tls = /web and websocket over tls on 127\.0\.0\.1:(\d+)/.exec(text);
    // the TLS listener is logged after the others: wait for it too
    const wantTls = (opts.extra || []).includes("--tls-port");
    if (p && w && (tls || !wantTls)) {
      return {
        proc, dir, port: Number(p[1]), webPort: Number(w[1]),
        tlsPort: tls ? Number(tls[1]) : null,
        url: `http://127.0.0.1:${w[1]}/`,
        // Stop it; resolves with its exit code (0: clean, no sanitizer
        // report), printing its stderr when it is not.
        stop: () => new Promise((res) => {
          const done = (code) => {
            if (code !== 0) console.log("tablerod exit " + code + ": " + readFileSync(log + ".stderr", "utf8").slice(-3000));
            res(code);
          };
          if (proc.exitCode !== null) return done(proc.exitCode);
          proc.once("exit", (code) => done(code));
          proc.kill("SIGTERM");
        }),
      };
    }
    if (proc.exitCode !== null) break;
  }
  proc.kill("SIGKILL");
  throw new Error("tablerod did not start: " + (existsSync(log) ? readFileSync(log, "utf8") : ""));
}

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}

// A fresh browser profile (its own localStorage) on the page; errors in
// the page are recorded for the tests to check.
export async function newPage(browser, url, viewport = { width: 1100, height: 900 }, more = {}) {
  const ctx = await browser.newContext(Object.assign({ viewport }, more));
  const page = await ctx.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector("body[data-conn=online][data-ready]", { timeout: WAIT_MS });
  return page;
}

// Poll fn(arg) in the page until it is true (playwright's waitForFunction
// compiles strings, which the page's CSP forbids, as it should).
export async function until(page, fn, arg, what = "condition") {
  const t0 = Date.now();
  while (Date.now() - t0 < WAIT_MS) {
    if (await page.evaluate(fn, arg).catch(() => false)) return true;
    await sleep(50);
  }
  throw new Error("timed out waiting for " + what);
}

export async function login(page, name) {
  await page.fill("#name", name);
  await page.click(".login button");
  await page.waitForSelector(".me-name", { timeout: WAIT_MS });
}

// A fresh page on url, logged in as name.
export async function loggedInPage(browser, url, name) {
  const page = await newPage(browser, url);
  await login(page, name);
  return page;
}

// Wait until the page's turn line holds text (a string or a RegExp).
export async function waitTurn(page, want) {
  await until(page, (w) => {
    const e = document.querySelector(".turn");
    return !!e && e.textContent.includes(w);
  }, want, "turn line " + want);
}

export async function text(page, sel) {
  const e = await page.$(sel);
  return e ? (await e.textContent()) : null;
}

// Click a square and wait until the page has handled the click (its
// `moves` question answered).
export async function clickSq(page, sq) {
  const n = Number(await page.evaluate(() => document.body.dataset.clicks || 0));
  await page.click(`.cell[data-sq="${sq}"]`);
  await until(page, (k) => Number(document.body.dataset.clicks || 0) > k, n, "click on " + sq);
}

// Resign the page's running game: the button, then "Resign" in the
// question the page asks first.
export async function resign(page) {
  await page.click(".actions .resign");
  await page.click("dialog.confirm[open] .confirm-ok", { timeout: WAIT_MS });
}

// Wait until the move list has n moves; its last move.
export async function waitMoves(page, n) {
  await until(page, (k) => document.querySelectorAll(".moves li").length >= k, n, n + " moves");
  return page.$$eval(".moves li", (l) => l.map((x) => x.textContent));
}

export async function litSquares(page) {
  return page.$$eval(".cell", (cells) => cells.filter((c) => c.querySelector(".lit, .lit-ring")).map((c) => c.dataset.sq));
}

// Create a room from the lobby's form; fields: {game, options: {name:
// value}, bot}. Resolves with the room id once the board shows.
export async function createRoom(page, game, options = {}, bot = null) {
  await page.selectOption("select[name=game]", game);
  for (const [k, v] of Object.entries(options)) {
    const sel = `[name="o_${k}"]`;
    const tag = await page.$eval(sel, (e) => e.tagName);
    if (tag === "SELECT") await page.selectOption(sel, String(v));
    else await page.fill(sel, String(v));
  }
  if (bot) await page.selectOption("select[name=bot]", String(bot));
  await page.click(".create-btn");
  await page.waitForSelector(".board", { timeout: WAIT_MS });
  const title = await text(page, ".room-title");
  return title.split(" · ")[1];
}

// Two players in one fresh room of game: x (named nx) created it and has
// the first seat, y (ny, on a page of yViewport's size when given)
// joined from the lobby; resolves once it is x's turn.
export async function pair(browser, srv, nx, ny, game = "ataxx", options = {}, yViewport) {
  const x = await loggedInPage(browser, srv.url, nx);
  const room = await createRoom(x, game, options);
  const y = yViewport ? await newPage(browser, srv.url, yViewport) : await newPage(browser, srv.url);
  await login(y, ny);
  await y.click(`.room-item[data-room="${room}"] .join`);
  await y.waitForSelector(".board");
  await waitTurn(x, "Your turn");
  return { x, y, room };
}

// A JSON connection to the TCP port (not a page): requests answered by
// id, events kept in order.
export class Client {
  static open(port) {
    return new Promise((resolve, reject) => {
      const c = new Client();
      c.sock = connect(port, "127.0.0.1", () => resolve(c));
      c.sock.on("error", reject);
    });
  }
  constructor() {
    this.buf = ""; this.nextId = 1; this.waiting = new Map(); this.events = [];
  }
  listen() {
    this.sock.setEncoding("utf8");
    this.sock.on("data", (d) => {
      this.buf += d;
      let nl;
      while ((nl = this.buf.indexOf("\n")) >= 0) {
        const m = JSON.parse(this.buf.slice(0, nl));
        this.buf = this.buf.slice(nl + 1);
        if (m.re !== undefined && this.waiting.has(m.id)) {
          this.waiting.get(m.id)(m);
          this.waiting.delete(m.id);
        } else if (m.event !== undefined) this.events.push(m);
      }
    });
  }
  send(cmd, fields = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(cmd + ": no reply")), WAIT_MS);
      this.waiting.set(id, (m) => { clearTimeout(timer); resolve(m); });
      this.sock.write(JSON.stringify(Object.assign({ cmd, id }, fields)) + "\n");
    });
  }
  close() { this.sock.destroy(); }
}

// Send raw bytes to port and resolve with what comes back in ms.
export function rawExchange(port, data, ms = 500) {
  return new Promise((res) => {
    const s = connect(port, "127.0.0.1");
    let got = "";
    s.on("data", (d) => { got += d.toString("latin1"); });
    s.on("error", () => res(got));
    s.on("connect", () => s.write(data));
    setTimeout(() => { s.destroy(); res(got); }, ms);
  });
}

// A test's whole run: fn(browser, srv) against Debian's Chromium and a
// fresh tablerod; an exception in fn is one failed check; then the
// browser closes, tablerod must stop cleanly (no sanitizer report), and
// the "N passed, M failed" line ends the process.
export async function runTest(ck, build, fn) {
  const browser = await launch();
  const srv = await startServer(build);
  try {
    await fn(browser, srv);
  } catch (e) {
    ck.ok(false, "exception: " + (e && e.stack || e));
  } finally {
    await browser.close();
    ck.eq(await srv.stop(), 0, "tablerod stopped cleanly (no sanitizer report)");
  }
  ck.done();
}

export { sleep };
