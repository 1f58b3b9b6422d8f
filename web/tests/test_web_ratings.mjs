// test_web_ratings.mjs: ratings in the browser (issue 22). ana plays a
// rated Ataxx game in the page against bob (a plain TCP client) and
// resigns: the ended screen shows both ratings' change; the lobby's
// ratings table lists both, provisional, highest first; clicking a name
// shows that player's profile (finger); the page keeps no script
// errors. Ends "N passed, M failed".

import { connect } from "node:net";
import { Checks, args, runTest, loggedInPage, text, createRoom, until,
  WAIT_MS, resign } from "./lib.mjs";

const ck = new Checks();
const a = args();

// A line-JSON client on the TCP port: call(obj) resolves with its reply.
function tcpClient(port) {
  const s = connect(port, "127.0.0.1");
  const waiting = new Map();
  let buf = "", next = 1;
  s.on("data", (d) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const m = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      if (m.re && waiting.has(m.id)) { waiting.get(m.id)(m); waiting.delete(m.id); }
    }
  });
  return {
    call(cmd, fields = {}) {
      const id = next++;
      return new Promise((res, rej) => {
        const t = setTimeout(() => rej(new Error("no reply to " + cmd)), WAIT_MS);
        waiting.set(id, (m) => { clearTimeout(t); res(m); });
        s.write(JSON.stringify(Object.assign({ cmd, id }, fields)) + "\n");
      });
    },
    close() { s.destroy(); },
  };
}

// ana (the page, white) and bob (TCP, black) play two moves each.
async function play(ana, bob, room) {
  for (const [mine, theirs] of [["b6", "f6"], ["b5", "f5"]]) {
    await ana.waitForSelector(".move-form input", { timeout: WAIT_MS });
    await ana.fill(".move-form input", mine);
    await ana.click(".move-form button");
    await until(ana, (m) => [...document.querySelectorAll(".moves li")].some((l) => l.textContent === m), mine, "move " + mine);
    let r;
    for (let i = 0; i < 50; i++) {
      r = await bob.call("move", { room, move: theirs });
      if (r.ok || r.error !== "not_your_turn") break;
      await new Promise((res) => setTimeout(res, 100));
    }
    ck.ok(r && r.ok, "bob plays " + theirs + ": " + JSON.stringify(r));
  }
}

async function rated(browser, srv) {
  const ana = await loggedInPage(browser, srv.url, "ana");
  const room = await createRoom(ana, "ataxx");
  const bob = tcpClient(srv.port);
  await bob.call("hello", { name: "bob" });
  const j = await bob.call("join", { room });
  ck.ok(j.ok, "bob joins " + room);
  await play(ana, bob, room);
  await resign(ana);
  await ana.waitForSelector(".rating-change", { timeout: WAIT_MS });
  const line = await text(ana, ".rating-change");
  ck.ok(line.includes("ataxx size=7") && /ana 1500 → 1338\?/.test(line) && /bob 1500 → 1662\?/.test(line),
    "the ended screen shows both changes: " + line);
  await ana.click(".actions .back");
  await ana.waitForSelector(".ratings-table tr[data-name=bob]", { timeout: WAIT_MS });
  const rows = await ana.$$eval(".ratings-table tr[data-name]", (l) => l.map((r) => r.dataset.name + " " + r.querySelector(".rating").textContent));
  ck.eq(rows.join(", "), "bob 1662?, ana 1338?", "the ratings table, provisional, highest first");
  await ana.click(".ratings-table tr[data-name=bob] .profile-link");
  await ana.waitForSelector(".profile h3", { timeout: WAIT_MS });
  ck.ok((await text(ana, ".profile h3")).startsWith("bob"), "the profile is bob's");
  ck.eq(await text(ana, ".profile-ratings li"), "ataxx size=7: 1662? ±290 · 1–0–0", "with his rating and results");
  ck.ok((await text(ana, ".profile .since")).length > 10, "member since, last seen");
  // a one-player record shows in one's own profile
  const sol = await bob.call("create", { game: "solitaire", options: { board: "example" } });
  for (let i = 0; i < 40; i++) {
    const h = await bob.call("hint", { room: sol.room });
    if (!h.move) break;
    const m = await bob.call("move", { room: sol.room, move: h.move });
    if (!m.ok) break;
    const st = await bob.call("state", { room: sol.room });
    if (st.state.status === "ended") break;
  }
  await ana.click(".ratings-table tr[data-name=bob] .profile-link");
  await ana.waitForSelector(".profile-records li", { timeout: WAIT_MS });
  ck.eq(await text(ana, ".profile-records li"), "Peg solitaire: 1 solved, fewest left 1", "bob's solitaire record");
  ck.eq(ana.errors, [], "no script errors");
  bob.close();
}

await runTest(ck, a.build, rated);
