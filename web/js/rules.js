// rules.js: the games' rules in the page: the server's own rules/ code,
// built to WebAssembly (js/rules.wasm, from web/wasm/rules_wasm.c), holding
// the position of the room on screen. With it the page asks for lean
// `moved` events and plays each move on its own position, as the terminal
// client does; it asks `state` only when a `seq` was skipped, a move does
// not take, or the module could not be loaded (docs/PROTOCOL.md, "Lean
// events"). Works in the page and, for the tests, in Node.

const enc = new TextEncoder();
const dec = new TextDecoder();

// The WebAssembly instance's exports, once loaded; null before (or when
// the browser or the server could not give it).
let wasm = null;
// The room and seq of the position the module holds, or null.
let held = null;

// WASI calls the C library's printf family links in but never makes (the
// rules print into buffers): each says "not supported" (52, ENOSYS).
const WASI = {
  wasi_snapshot_preview1: { fd_write: () => 52, fd_seek: () => 52, fd_close: () => 52 },
};

// Load the module from its bytes (an ArrayBuffer or a promise of one);
// resolves true when the page can play moves itself.
export async function rulesInit(bytes) {
  try {
    const { instance } = await WebAssembly.instantiate(await bytes, WASI);
    wasm = instance.exports;
  } catch {
    wasm = null;
  }
  return wasm !== null;
}

// Whether the module is there to ask for lean events.
export function rulesReady() {
  return wasm !== null;
}

// Call one of the module's functions with strings; its answer's strings
// (count of them), or null with the reason in rulesWhy.
export let rulesWhy = "";
function call(fn, parts, count) {
  const bytes = enc.encode(parts.map((p) => p + "\0").join(""));
  if (bytes.length > wasm.rules_wasm_io_max()) { rulesWhy = "too long"; return null; }
  new Uint8Array(wasm.memory.buffer, wasm.rules_wasm_in(), bytes.length).set(bytes);
  const rc = wasm[fn](bytes.length);
  const mem = new Uint8Array(wasm.memory.buffer);
  const out = [];
  let at = wasm.rules_wasm_out();
  for (let i = 0; i < (rc === 0 ? count : 1); i++) {
    const end = mem.indexOf(0, at);
    out.push(dec.decode(mem.subarray(at, end)));
    at = end + 1;
  }
  if (rc !== 0) { rulesWhy = out[0]; return null; }
  return out;
}

// Rows as the server sends them ("x.....o\n..." to ["x.....o", ...]).
const rows = (text) => text.split("\n").filter((r) => r !== "");

// Hold a room's game: st is a `state` (game, options, position, room,
// seq). True when the module took it; the position's board rows, made by
// the module, are then st.board's.
export function rulesHold(st) {
  held = null;
  if (!wasm || !st || typeof st.position !== "string") return false;
  const parts = [st.game, st.position];
  for (const [k, v] of Object.entries(st.options || {})) parts.push(k, String(v));
  const out = call("rules_wasm_load", parts, 1);
  if (!out) return false;
  held = { room: st.room, seq: st.seq };
  return true;
}

// Whether the module holds this room at this seq.
export function rulesHolds(room, seq) {
  return held !== null && held.room === room && held.seq === seq;
}

// The room's events that leave the game as it is (chat, a player come or
// gone, a clock, an offer).
const KEEPS = new Set(["chat", "joined", "left", "watchers", "clock", "draw_offered", "draw_declined",
  "takeback_offered", "takeback_declined", "rematch_offered", "opponent_gone", "opponent_back"]);

// An event of the room other than `moved`: one that leaves the game as it
// is moves the held seq on (the next one only); any other (started,
// ended, undone, restarted...) lets go of the position: the page asks
// `state`.
export function rulesSeen(ev) {
  if (!held || held.room !== ev.room) return;
  if (KEEPS.has(ev.event) && held.seq + 1 === ev.seq) held.seq = ev.seq;
  else held = null;
}

// Play a `moved` event's move on the held position: {move, text,
// position, board, picture} after it, or null (nothing held then: the
// caller asks `state`).
export function rulesMove(ev) {
  if (!rulesHolds(ev.room, ev.seq - 1) || typeof ev.move !== "string") { held = null; return null; }
  const out = call("rules_wasm_move", [ev.move], 5);
  if (!out) { held = null; return null; }
  held.seq = ev.seq;
  return { move: out[0], text: out[1], position: out[2], board: rows(out[3]), picture: out[4] };
}
