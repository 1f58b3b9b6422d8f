// test_web_rules.mjs: the page's rules (js/rules.wasm, the server's rules/
// built to WebAssembly, through js/rules.js) play every game exactly as
// the server does. For each game and a few of its options, players with
// lean events play random legal moves; each lean `moved` is played on the
// module's position, and the board rows, position, picture, notation and
// sentence it gives are checked against the server's `state` after the
// move. The module is the one the server serves (GET /js/rules.wasm, as
// application/wasm). Runs in Node; no browser.

import { Checks, args, startServer, Client } from "./lib.mjs";
import { rulesInit, rulesHold, rulesMove, rulesSeen, rulesHolds } from "../js/rules.js";

async function player(port, name) {
  const c = await Client.open(port);
  c.listen();
  const r = await c.send("hello", { name, events: "lean" });
  if (!r.ok || r.events !== "lean") throw new Error("hello: " + JSON.stringify(r));
  return c;
}

// A small deterministic generator: the same games every run.
let seed = 12345;
function below(n) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor((seed / 2147483648) * n);
}

// The cases: game, options, bots, and how many moves at most.
const CASES = [
  { game: "ataxx", options: {}, moves: 40 },
  { game: "amazons", options: {}, moves: 30 },
  { game: "stones", options: { first: "1" }, moves: 60 },
  { game: "stones", options: { first: "2", seed: 7 }, moves: 60 },
  { game: "solitaire", options: {}, moves: 40 },
  { game: "solitaire", options: { board: "european" }, moves: 40 },
  { game: "solitaire", options: { steps: 12, rows: 6, cols: 5, seed: 3 }, moves: 40 },
  { game: "shifter", options: { level: 4, seed: 11 }, moves: 60 },
  { game: "shifter", options: { level: 9, seed: 5 }, moves: 60 },
];

// After each move, every field the module makes against the state.
async function compare(ck, port, cs, n) {
  const a = await player(port, "cy" + n);
  const b = await player(port, "di" + n);
  const what = `${cs.game} ${JSON.stringify(cs.options)}`;
  const cr = await a.send("create", { game: cs.game, options: cs.options });
  if (!ck.ok(cr.ok, what + ": created " + JSON.stringify(cr))) return;
  const room = cr.room;
  const two = cr.state.seats.length === 2;
  if (two) ck.ok((await b.send("join", { room })).ok, what + ": joined");
  let st = (await a.send("state", { room })).state;
  a.events.length = 0;
  ck.ok(rulesHold(st), what + ": the module takes the state");
  let checked = 0;
  for (let i = 0; i < cs.moves && st.status === "playing"; i++) {
    const seat = st.seats.findIndex((s) => s.seat === st.turn);
    const who = seat === 1 && two ? b : a;
    const list = await who.send("moves", { room });
    if (!list.ok || !list.moves.length) break;
    const mv = list.moves[below(list.moves.length)];
    const r = await who.send("move", { room, move: mv });
    if (!ck.ok(r.ok, `${what}: ${mv} taken: ${JSON.stringify(r)}`)) break;
    st = (await a.send("state", { room })).state;
    let got = null;
    for (const ev of a.events.splice(0)) {
      if (ev.room !== room || ev.seq === undefined) continue;
      if (ev.event !== "moved") { rulesSeen(ev); continue; }
      ck.ok(ev.position === undefined && ev.board === undefined && ev.text === undefined,
        what + ": the moved event is lean");
      got = rulesMove(ev);
      if (!ck.ok(got, `${what}: ${ev.move} (seq ${ev.seq}) played by the module`)) return;
    }
    // the end rewrites the picture's last line; a level won starts the next
    if (st.status !== "playing" || st.game_no !== cr.state.game_no) { ck.ok(!rulesHolds(room, st.seq), what + ": a new game lets go"); break; }
    if (!ck.ok(rulesHolds(room, st.seq), `${what}: the module is at the state's seq ${st.seq}`)) return;
    const hist = st.history || [], last = hist[hist.length - 1];
    ck.eq(got.board, st.board, `${what}: board after ${last.move}`);
    ck.eq(got.position, st.position, `${what}: position after ${last.move}`);
    ck.eq(got.picture, st.picture, `${what}: picture after ${last.move}`);
    ck.eq([got.move, got.text], [last.move, last.text], `${what}: move and sentence`);
    checked++;
  }
  ck.ok(checked >= 3, `${what}: ${checked} positions compared`);
  a.close(); b.close();
}

// Two bots play a whole game of Ataxx while a lean watcher's module plays
// each of their moves: every move and sentence of the history, and the
// last board and position, are the module's.
async function botGame(ck, port) {
  const a = await player(port, "eve");
  const cr = await a.send("create", { game: "ataxx", options: { size: 7 }, bots: { white: 1, black: 1 } });
  if (!ck.ok(cr.ok, "bots' game created " + JSON.stringify(cr))) return;
  const room = cr.room;
  let st = cr.state;
  const made = [];
  // the events up to the state's seq are all here: played in order
  const take = (upto) => {
    while (a.events.length && !(a.events[0].seq > upto)) {
      const ev = a.events.shift();
      if (ev.room !== room || ev.seq === undefined) continue;
      // the game starts after the reply (the bots sit down): from the
      // `started` event's position, as the page does from its state
      if (ev.event === "started") ck.ok(rulesHold(Object.assign({}, cr.state, { position: ev.position, seq: ev.seq })), "bots' game: held from started");
      else if (ev.event === "moved") made.push(rulesMove(ev));
      else if (ev.event !== "ended") rulesSeen(ev);
    }
  };
  for (let w = 0; w < 1000 && st.status !== "ended" && (st.history_total || 0) < 12; w++) {
    await new Promise((res) => setTimeout(res, 20));
    st = (await a.send("state", { room })).state;
    take(st.seq);
  }
  const hist = st.history;
  // (level-1 bots may end a game early: a whole game is as good a check)
  ck.ok(hist.length >= 6 || (st.status === "ended" && hist.length >= 2), `bots' game: ${hist.length} moves, ${st.status}`);
  ck.eq(made.map((m) => m && [m.move, m.text]), hist.map((h) => [h.move, h.text]), "bots' game: every move and sentence");
  const last = made[made.length - 1];
  ck.eq(last && [last.board, last.position], [st.board, st.position], "bots' game: the last board and position");
  a.close();
}

const ck = new Checks();
const { build } = args();
const srv = await startServer(build, { extra: ["--games-per-hour", "1000", "--rate", "100000", "--burst", "100000"] });
try {
  const res = await fetch(srv.url + "js/rules.wasm");
  ck.eq([res.status, res.headers.get("content-type")], [200, "application/wasm"], "GET /js/rules.wasm");
  ck.ok(await rulesInit(res.arrayBuffer()), "the module loads");
  let n = 0;
  for (const cs of CASES) await compare(ck, srv.port, cs, n++);
  await botGame(ck, srv.port);

  // What the module refuses, leaving nothing held (the page asks state).
  ck.ok(!rulesHold({ room: "x", seq: 1, game: "chess", position: "", options: {} }), "an unknown game is refused");
  ck.ok(!rulesHold({ room: "x", seq: 1, game: "ataxx", position: "nonsense", options: {} }), "a bad position is refused");
  const st = { room: "r", seq: 5, game: "ataxx", position: "x5o/7/7/7/7/7/o5x x 0 1", options: {} };
  ck.ok(rulesHold(st), "a good position is taken");
  ck.ok(rulesMove({ room: "r", seq: 7, move: "b7" }) === null && !rulesHolds("r", 5), "a skipped seq lets go of the position");
  ck.ok(rulesHold(st) && rulesMove({ room: "r", seq: 6, move: "d4" }) === null && !rulesHolds("r", 5),
    "a move the position cannot take lets go of it");
  ck.ok(rulesHold(st) && rulesMove({ room: "q", seq: 6, move: "b7" }) === null, "another room's move is not played");
  ck.ok(rulesHold(st), "taken again");
  const m = rulesMove({ room: "r", seq: 6, move: "b7" });
  ck.eq(m && [m.move, m.text, m.position], ["b7", "White player clones at b7", "xx4o/7/7/7/7/7/o5x o 0 1"], "a clone played");
  rulesSeen({ event: "chat", room: "r", seq: 7 });
  ck.ok(rulesHolds("r", 7), "a chat line's seq moves the held seq on");
  ck.ok(rulesMove({ room: "r", seq: 8, move: "f6" }) !== null, "and the next move is played");
  rulesSeen({ event: "undone", room: "r", seq: 9 });
  ck.ok(!rulesHolds("r", 9) && !rulesHolds("r", 8), "a take-back lets go of the position");
  ck.ok(rulesHold(st), "taken again");
  const long = "x".repeat(300 * 1024);
  ck.ok(rulesMove({ room: "r", seq: 6, move: long }) === null, "a move longer than the module's buffer is refused");
} finally {
  await srv.stop();
}
ck.done();
