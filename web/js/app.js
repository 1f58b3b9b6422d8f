// app.js: the page: the lobby (games, rooms, seeks, who is online, create,
// seek, join, watch, chat), a room (board, seats and clocks, whose turn in words, the
// move list, the game's buttons, chat), the name kept in the browser
// with its token (a registered name logs in with its password when this
// browser has no token for it; a password is set from the name box), and
// going back into the game after a reconnect. Every
// name, chat line and piece name goes in as text (textContent).

import { Conn } from "./conn.js";
import { t, getLang, setLang, phrase, loadSentences } from "./i18n.js";
import { drawBoard, moveTargets, moveSquares, squareName, squareAt, squareIsMove, premoveGame, premoveStep } from "./board.js";
import { tourneyInit, renderTourneys, tourneyEvent } from "./tourney.js";
import { confirmBox } from "./dialog.js";
import { sound, soundOn, setSoundOn, moveKind } from "./sound.js";
import { rulesInit, rulesReady, rulesHold, rulesHolds, rulesMove, rulesSeen } from "./rules.js";

const $ = (sel) => document.querySelector(sel);
// A new element with attributes; children are nodes or strings (text).
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, "");
    else if (v !== false && v != null) e.setAttribute(k, String(v));
  }
  for (const k of kids.flat()) if (k != null) e.append(k);
  return e;
}

const S = {
  me: null, games: [], room: null, roomId: null, sel: null, stateAt: 0,
  drawOffer: null, notice: "", hint: "", replaced: false, helloRooms: [],
  ratingsGame: null, profile: null, inbox: [], clockStopped: null,
  pwFor: null, // a registered name this browser has no token for: ask its password
  pwOpen: false, // the form that sets the password is open
  pre: null, // a premove: {room, squares, move (null while being picked)}
};
const ID_KEY = "tablero.id";

function stored() {
  try { return JSON.parse(localStorage.getItem(ID_KEY) || "null"); } catch { return null; }
}

// The games' rules (rules.js): loaded before the first hello, which asks
// for lean moved events only when they are here to play them.
const rulesLoaded = rulesInit(fetch("js/rules.wasm").then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(r.status)))));

// What every hello asks besides the name: the lobby's rooms_changed
// events, and lean moved events when the page has the rules.
async function helloFields(fields) {
  await rulesLoaded;
  return Object.assign(fields, { lobby: true }, rulesReady() ? { events: "lean" } : {});
}

const proto = location.protocol === "https:" ? "wss:" : "ws:";
const conn = new Conn(proto + "//" + location.host + "/ws", onEvent, onStatus);
conn.onOpen = onOpen;
tourneyInit({ conn, S, el, enterRoom: (id, seat) => enterRoom(id, seat), renderAll: () => renderAll() });

function onStatus(s) {
  document.body.dataset.conn = s;
  renderStatus();
}

// The connection's word in the header, in the page's language (again
// when the language changes).
function renderStatus() {
  const s = document.body.dataset.conn;
  $("#status").textContent = s === "online" ? t("status_online") : s === "offline" ? t("offline") : t("connecting");
}

// Connected (first time or again): log in with the kept token, then back
// to the room this page was in.
async function onOpen() {
  const id = stored();
  S.me = null;
  if (id && id.name && id.token && !S.replaced) {
    const r = await conn.send("hello", await helloFields({ name: id.name, token: id.token }));
    if (r.ok) { S.me = r.name; S.helloRooms = r.rooms || []; }
    else if (r.error === "bad_token" || r.error === "name_taken") {
      localStorage.removeItem(ID_KEY);
      S.pwFor = id.name; // a token no longer good: the password may be
    }
  }
  const g = await conn.send("games");
  if (g.ok) S.games = g.games;
  const want = S.roomId || (location.hash.match(/^#room=([\w-]+)$/) || [])[1];
  if (want) await enterRoom(want);
  else renderAll();
  document.body.dataset.ready = "1";
}

// Log in as name: with the kept token, or the password when given. A
// registered name without either asks for its password.
async function login(name, password) {
  const id = stored();
  const fields = { name }; // (helloFields: rooms_changed pushes the lobby)
  if (password) fields.password = password;
  else if (id && id.name && id.name.toLowerCase() === name.toLowerCase()) fields.token = id.token;
  const r = await conn.send("hello", await helloFields(fields));
  if (!r.ok) {
    if (r.error === "name_taken") { S.pwFor = name; S.notice = t("registered", name); }
    else S.notice = r.message || r.error;
    renderAll();
    return false;
  }
  S.pwFor = null;
  S.me = r.name;
  S.helloRooms = r.rooms || [];
  localStorage.setItem(ID_KEY, JSON.stringify({ name: r.name, token: r.token }));
  S.notice = "";
  if (S.roomId) await enterRoom(S.roomId); else renderAll();
  return true;
}

function seatOfMe(st) {
  if (!st || !S.me) return -1;
  return st.seats.findIndex((s) => s.name && s.name.toLowerCase() === S.me.toLowerCase());
}

// Join when seated there (or a free seat is wanted), else watch.
async function enterRoom(id, wantSeat = false) {
  let r = null;
  if (S.me) {
    const st = await conn.send("state", { room: id });
    const mine = st.ok && seatOfMe(st.state) >= 0;
    if (mine || wantSeat) r = await conn.send("join", { room: id });
  }
  if (!r || !r.ok) {
    const w = await conn.send("watch", { room: id });
    if (!w.ok && (!r || !r.ok)) {
      S.notice = (r && !r.ok ? r.message : w.message) || w.error;
      S.roomId = null; S.room = null; location.hash = "";
      renderAll();
      return;
    }
    r = w;
  }
  if (S.roomId !== id) clearOffers();
  S.roomId = id;
  S.viewOnly = false;
  location.hash = "room=" + id;
  setState(r.state);
}

function setState(st) {
  S.room = st;
  // the position this page plays lean moves on (a finished room's, or
  // one the module cannot take: the next move asks state again)
  if (st.at === undefined && !rulesHolds(st.room, st.seq)) rulesHold(st);
  // a premove lives while its room's game is played
  if (S.pre && (S.pre.room !== st.room || st.status !== "playing")) S.pre = null;
  if (S.roomId !== st.room) S.preNote = "";
  stateOffers(st);
  keptChat(st);
  if (st.seats && st.seats.length === 2) S.ratingsGame = st.game; // the lobby's ratings show it
  S.stateAt = Date.now();
  S.sel = null;
  // an earlier position being looked at stays, while it is still one
  const total = st.history_total ?? (st.history || []).length;
  if (!(S.replay && S.replay.room === st.room && S.replay.at < total)) S.replay = null;
  S.hint = "";
  renderAll();
  autoSelect();
}

// A game step by step, finished or running (without leaving it): the
// server plays it forward to move n (`state` with `at`); the page only
// shows what it gets. In a running game the last move is the game again.
async function replayTo(n) {
  const st = S.room;
  const total = st.history_total ?? (st.history || []).length;
  n = Math.max(0, Math.min(total, n));
  if (n === total && st.status !== "ended") { S.replay = null; renderRoom(); autoSelect(); return; }
  const r = await conn.send("state", { room: st.room, at: n });
  if (!r.ok) { S.notice = r.message || r.error; renderRoom(); return; }
  S.replay = { room: st.room, at: n, board: r.state.board };
  S.sel = null;
  renderRoom();
}

// The move list's keys: arrows step back and forth, Home and End go to
// the start and to now.
function movesKey(e, cur, total) {
  const to = { ArrowLeft: cur - 1, ArrowUp: cur - 1, ArrowRight: cur + 1, ArrowDown: cur + 1, Home: 0, End: total }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  S.focusAfter = ".moves";
  replayTo(to);
}

// The move list paired by side (two-player games): a row a move of the
// first seat and the answer beside it; a move with no partner gets a row
// of its own (Stones' placements, a forced pass). Each move is a button
// that shows the position after it.
function moveList(st, hist, at) {
  const two = st.seats.length === 2, first = st.seats[0] && st.seats[0].seat;
  let row = two ? Math.floor((st.history_since || 0) / 2) : st.history_since || 0, open = false;
  const items = hist.map((h) => {
    let cls;
    const second = two && (h.seat ? h.seat !== first : open);
    if (!second) { row++; open = two; cls = two ? "first" : "single"; }
    else if (open) { open = false; cls = "second"; }
    else { row++; cls = "second orphan"; }
    return el("li", { class: cls + (at !== null && h.n === at ? " current" : ""), "data-no": row, title: phrase(h.text || "") },
      el("button", { type: "button", class: "mv", "data-n": h.n, "aria-label": t("move_n", h.n, h.move),
        onclick: () => replayTo(h.n) }, h.move));
  });
  return items;
}

async function refresh() {
  if (!S.roomId) return;
  const r = await conn.send("state", { room: S.roomId });
  if (r.ok) setState(r.state);
}

function onEvent(ev) {
  if (ev.event === "replaced") { S.replaced = true; S.notice = "replaced"; renderAll(); return; }
  // A seek met another: seated already, so on to that board.
  if (ev.event === "paired") { S.notice = ""; chats.room = []; enterRoom(ev.room); return; }
  if (ev.event.startsWith("tourney_")) { tourneyEvent(ev); return; }
  if (INBOX_EVENTS.includes(ev.event)) { inboxAdd(ev); return; }
  // the server's word that the lobby's rooms changed (at most once a
  // second): the lobby asks again
  if (ev.event === "rooms_changed") { if (!S.room) renderLobby(); return; }
  if (ev.room && ev.room !== S.roomId) return;
  // an event that leaves the game as it is keeps the page's position
  // in step (by seq); any other lets it go until the next state
  if (ev.room && ev.seq !== undefined && ev.event !== "moved") rulesSeen(ev);
  if (ev.event === "chat") { addChat(ev); return; }
  switch (ev.event) {
    case "clock":
      // stopped (a cluster cut a player off): nobody's time runs until
      // a clock event without it
      S.clockStopped = ev.stopped ? ev.room : null;
      if (S.room) { S.room.clocks = ev.clocks; S.stateAt = Date.now(); renderRoom(); }
      return;
    // Offers pending (draw, take-back) are known from events only: who
    // asked, and who declined, shown to both sides until answered.
    case "draw_offered":
      S.drawOffer = ev.name; S.declined = ""; refresh(); return;
    case "draw_declined":
      S.drawOffer = null; S.declined = t("draw_declined", ev.name || seatWord(ev.seat)); refresh(); return;
    case "takeback_offered":
      S.takeback = ev.name; S.declined = ""; refresh(); return;
    case "takeback_declined":
      S.takeback = null; S.declined = t("takeback_declined", ev.name || seatWord(ev.seat)); refresh(); return;
    case "started":
      // whether the game will be rated is said here (and in `state`)
      if (ev.rated !== undefined) S.rated = { room: ev.room, rated: ev.rated, unrated: ev.unrated || "" };
      S.pre = null; clearOffers(); refresh(); return;
    case "welcome": case "shutdown":
      return;
    default:
      if (["moved", "ended", "undone"].includes(ev.event)) clearOffers();
      if (ev.event === "moved") {
        const before = S.room && S.room.board, here = movedHere(ev);
        S.lastMoved = here ? Object.assign({}, ev, { board: here.board }) : ev;
        sound(moveKind(before, S.lastMoved.board));
        premoveFire(ev);
        // played here: no state to ask (the game's last move: its end
        // follows, whose state says the result)
        if (here && ev.turn !== null) return;
      } else if (S.pre) S.pre = null; // a take-back or the end: the premove was for another position
      if (ev.event === "ended") { levelWon(ev); sound("end"); }
      refresh();
  }
}

// A lean moved event (hello's events "lean") played on the page's own
// position by the games' rules (rules.js): the room's state moved on by
// it (board, position, picture, turn, seq, clocks, one more move in the
// history) and drawn, without asking `state`. Null when the page cannot
// (a full event, no rules, a seq skipped, a move the position does not
// take): the caller asks `state`, as it did for every move before.
function movedHere(ev) {
  const st = S.room;
  if (!st || st.room !== ev.room || ev.board !== undefined) return null;
  const m = rulesMove(ev);
  if (!m) return null;
  if (ev.turn === null) return m; // the end: its state follows
  const total = st.history_total ?? (st.history || []).length;
  if (st.history && (st.history_since || 0) + st.history.length === total)
    st.history.push({ n: total + 1, seat: ev.seat, move: m.move, text: m.text });
  // a move answers any offer (the server drops them with it)
  Object.assign(st, { board: m.board, position: m.position, picture: m.picture, turn: ev.turn,
    seq: ev.seq, history_total: total + 1, draw_offer: null, takeback_offer: null });
  if (ev.clocks !== undefined) st.clocks = ev.clocks;
  setState(st);
  return m;
}

// What the state says of the offers pending and of rating (a reload, a
// join, a watcher come late): the state is the truth, the events only
// say it sooner. An older server without these fields changes nothing.
function stateOffers(st) {
  const who = (seat) => {
    if (!seat) return null;
    const s = st.seats.find((x) => x.seat === seat);
    return s ? (s.name || "bot") : null;
  };
  if ("draw_offer" in st) S.drawOffer = who(st.draw_offer);
  if ("takeback_offer" in st) S.takeback = who(st.takeback_offer);
  if (typeof st.rated === "boolean") S.rated = { room: st.room, rated: st.rated, unrated: st.unrated || "" };
}

function clearOffers() {
  S.drawOffer = null; S.takeback = null; S.declined = "";
}

// The premove's word and the offers pending, when no error is shown.
function noteWords() {
  return [S.preNote, offerWords()].filter(Boolean).join(" ");
}

// The offers pending in words, for both sides and the watchers.
function offerWords() {
  const out = [];
  if (S.drawOffer) out.push(S.drawOffer === S.me ? t("draw_pending") : t("draw_offered", S.drawOffer));
  if (S.takeback) out.push(S.takeback === S.me ? t("takeback_pending") : t("takeback_offered", S.takeback));
  if (S.declined) out.push(S.declined);
  // each its own sentence ("ana offers a draw" has no stop of its own)
  return out.map((x) => /[.!?…]$/.test(x) ? x : x + ".").join(" ");
}

// ---- the inbox: what comes to this player outside any room ----

// Events for the player alone: kept messages (given after hello), tells,
// invitations, challenges and their ends. Each stays on the page until
// dismissed (a challenge until answered or expired).
const INBOX_EVENTS = ["message", "told", "invited", "challenged", "challenge_over"];
// The notes kept at once: the oldest go first (a hello may bring 50
// kept messages).
const INBOX_MAX = 60;
let inboxNext = 1;

function inboxAdd(ev) {
  const note = Object.assign({ key: inboxNext++ }, ev);
  if (ev.event === "challenged") {
    // one challenge from a player waits at a time: a new one replaces it
    S.inbox = S.inbox.filter((n) => !(n.event === "challenged" && sameName(n.from, ev.from)));
    note.timer = setTimeout(() => inboxDrop(note.key), (ev.expires_in || 60) * 1000);
  }
  S.inbox.push(note);
  while (S.inbox.length > INBOX_MAX) S.inbox.shift();
  renderInbox();
}

function inboxDrop(key) {
  const n = S.inbox.find((x) => x.key === key);
  if (n && n.timer) clearTimeout(n.timer);
  S.inbox = S.inbox.filter((x) => x.key !== key);
  renderInbox();
}

// Answer a challenge: accept (the server pairs us: `paired` takes the
// page to the room) or decline.
async function answerChallenge(note, verb) {
  const r = await conn.send(verb, { name: note.from });
  inboxDrop(note.key);
  if (!r.ok) { S.notice = r.message || r.error; renderAll(); }
}

function clockWords(c) {
  return c ? (c.initial / 60) + "+" + c.increment : t("untimed");
}

// One note of the inbox in words, with its buttons.
function inboxItem(n) {
  const b = (cls, key, fn) => el("button", { type: "button", class: cls, onclick: fn }, t(key));
  let words, buttons = [];
  if (n.event === "message") words = t("msg_from", n.from, fmtDate(n.sent_ms), n.text);
  else if (n.event === "told") words = t("told_from", n.from, n.text);
  else if (n.event === "invited") {
    words = t("invited_by", n.from, n.room, gameTitle(n.game));
    buttons = [b("inbox-join", "join", () => { inboxDrop(n.key); enterRoom(n.room, true); })];
  } else if (n.event === "challenged") {
    const opts = Object.entries(n.options || {}).map(([k, v]) => k + "=" + v).join(" ");
    words = t("challenged_by", n.from, gameTitle(n.game) + (opts ? " " + opts : ""),
      n.rated ? t("rated_word") : t("casual"), clockWords(n.clock));
    buttons = [b("accept-challenge", "accept", () => answerChallenge(n, "accept")),
      b("decline-challenge", "decline", () => answerChallenge(n, "decline"))];
  } else words = t("challenge_over_" + n.reason, n.name, gameTitle(n.game));
  return el("li", { class: "inbox-item inbox-" + n.event, "data-from": n.from || n.name || "" },
    el("span", { class: "inbox-text" }, words), " ", buttons,
    el("button", { type: "button", class: "inbox-dismiss", "aria-label": t("dismiss"), title: t("dismiss"),
      onclick: () => inboxDrop(n.key) }, "×"));
}

function renderInbox() {
  const box = $("#inbox");
  box.hidden = !S.inbox.length;
  box.replaceChildren(...(S.inbox.length ? [el("ul", { class: "inbox-list", "aria-live": "polite" }, S.inbox.map(inboxItem))] : []));
}

// Challenge a player (from their profile) to the game whose ratings
// are shown; the answer comes as `paired` or `challenge_over`.
async function challenge(name) {
  const r = await conn.send("match", { name, game: S.ratingsGame });
  S.notice = r.ok ? t("challenge_sent", r.name, gameTitle(r.game), r.expires_in) : (r.message || r.error);
  S.infoText = r.ok ? S.notice : "";
  renderAll();
}

// The chat lines a list keeps on the page.
const CHAT_MAX = 200;
const chats = { lobby: [], room: [], roomId: null };
function addChat(ev) {
  if (ev.hidden) return; // a line from someone this player blocks
  if (ev.room) keptChat({ room: ev.room });
  const list = ev.room ? chats.room : chats.lobby;
  list.push(ev);
  if (list.length > CHAT_MAX) list.shift();
  renderChat();
}

// A state's `chat` (the server keeps a room's last lines: a reload or a
// return shows them) merged with the lines this page has, by seq; another
// room's lines go.
function keptChat(st) {
  if (chats.roomId !== st.room) { chats.room = []; chats.roomId = st.room; }
  if (!st.chat) return;
  const bySeq = new Map();
  for (const m of chats.room.concat(st.chat.map((c) => Object.assign({ room: st.room }, c)))) bySeq.set(m.seq, m);
  chats.room = [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-CHAT_MAX);
}

// The clicked square: choose a piece (its moves asked from the server),
// then each square of a move in turn; a click on the last choice takes it
// back, a click on another piece changes the choice.
let clicks = 0;
async function onSquare(sq) {
  try { await chooseSquare(sq); } finally {
    // Tests (and anyone curious) can tell when a click has been handled.
    document.body.dataset.clicks = String(++clicks);
  }
}

async function chooseSquare(sq) {
  const st = S.room;
  if (S.replay && st.status !== "ended") { S.notice = t("viewing_no_move"); renderRoom(); return; }
  if (!myTurn()) { if (!premoveClick(st, sq)) notYourTurn(st); return; }
  S.notice = "";
  const sel = S.sel;
  if (sel) {
    if (sel.prefix.length === 0 && sq === sel.src) { S.sel = null; renderRoom(); return; }
    if (sel.prefix.length && sq === sel.prefix[sel.prefix.length - 1]) {
      sel.prefix.pop(); renderRoom(); return;
    }
    const n = sel.prefix.length;
    const next = sel.cands.filter((c) => c.seq.length > n &&
      sel.prefix.every((p, i) => c.seq[i] === p) && c.seq[n] === sq);
    if (next.length) {
      const full = next.filter((c) => c.seq.length === n + 1);
      if (full.length && full.length === next.length) { play(full[0].move); return; }
      sel.prefix.push(sq); renderRoom(); return;
    }
    // Halfway through a move (an amazon moved, its arrow not shot): a
    // square that no move reaches keeps what is chosen.
    if (sel.prefix.length) { S.notice = t("arrow_miss"); renderRoom(); return; }
  }
  const r = await conn.send("moves", { room: st.room, from: sq });
  if (!r.ok || !r.moves.length) {
    S.sel = null;
    S.notice = r.ok ? (await gameReason(st, sq) || r.reason || "") : (r.message || r.error);
    renderRoom();
    return;
  }
  S.notice = "";
  const cands = r.moves.map((m) => ({ move: m, seq: moveTargets(st.game, m) }));
  const now = cands.find((c) => c.seq.length === 0);
  if (now) { play(now.move); return; }
  S.sel = { src: sq, cands, prefix: [] };
  renderRoom();
}

// ---- premove: a move chosen while the opponent is to move ----

// Whether a click by this player now picks a premove: a two-player game
// being played, the opponent to move, the game as it is (not a replay).
function premoveNow(st) {
  return st.status === "playing" && st.seats.length === 2 && !S.replay && !S.viewOnly &&
    premoveGame(st.game) && seatOfMe(st) >= 0 && !myTurn();
}

// A click on sq while the opponent is to move: a square of the premove
// being picked (its last one again takes it back), or, once one is
// chosen, a click elsewhere that cancels it. False when sq starts no
// premove (the caller says whose turn it is).
function premoveClick(st, sq) {
  if (!premoveNow(st)) return false;
  const pre = S.pre && S.pre.room === st.room ? S.pre : null;
  if (pre && pre.move) { premoveCancel(); return true; }
  const squares = pre ? pre.squares : [];
  if (squares.length && squares[squares.length - 1] === sq) {
    squares.pop();
    if (!squares.length) S.pre = null;
    renderRoom();
    return true;
  }
  let next = squares.concat([sq]);
  let step = premoveStep(st.game, st.board, seatOfMe(st), next);
  if (!step && squares.length) { next = [sq]; step = premoveStep(st.game, st.board, seatOfMe(st), next); }
  if (!step) {
    if (pre) { premoveCancel(); return true; }
    return false;
  }
  S.pre = { room: st.room, squares: next, move: step.move || null };
  const s = st.seats.find((x) => x.seat === st.turn);
  const who = s && (s.name || (s.bot ? "bot " + s.bot : "")) || st.turn;
  S.notice = "";
  S.preNote = step.move ? t("premove_set", step.move, who) : t("premove_picking", who);
  renderRoom();
  return true;
}

// Drop the premove (Escape, a click elsewhere); say so when there was one.
function premoveCancel() {
  if (!S.pre) return;
  S.pre = null;
  S.preNote = t("premove_cancelled");
  renderRoom();
}

// The opponent has moved (ev, a `moved` event): when it is now this
// player's turn, the premove is played if the server's `moves` from its
// square still holds it, else dropped with a word. One half picked is
// forgotten.
async function premoveFire(ev) {
  const pre = S.pre, st = S.room;
  // the word on the last premove lasts until the opponent's next move
  if (!pre && st && ev.seat && seatOfMe(st) >= 0 && ev.seat !== st.seats[seatOfMe(st)].seat) S.preNote = "";
  if (!pre || !st || pre.room !== ev.room) return;
  const i = seatOfMe(st);
  if (i < 0 || !ev.turn || ev.turn !== st.seats[i].seat) return; // Stones' placements: the opponent goes on
  S.pre = null;
  S.preNote = "";
  if (!pre.move) return;
  const r = await conn.send("moves", { room: pre.room, from: pre.squares[0] });
  const legal = r.ok && r.moves.some((m) => m.toLowerCase() === pre.move.toLowerCase());
  if (!legal) { S.preNote = t("premove_dropped", pre.move); renderRoom(); return; }
  const m = await conn.send("move", { room: pre.room, move: pre.move });
  S.preNote = m.ok ? t("premove_played", pre.move) : t("premove_dropped", pre.move);
  renderRoom();
}

// Escape, and a click anywhere but on the board, cancel a premove.
document.addEventListener("keydown", (e) => { if (e.key === "Escape" && S.pre) premoveCancel(); });
document.addEventListener("click", (e) => {
  if (S.pre && !(e.target.closest && e.target.closest(".board, .actions .flip"))) premoveCancel();
});

// A Shape Shifter level won: the server starts the next one at once; the
// page shows the won board and says so until the player goes on.
function levelWon(ev) {
  const st = S.room;
  if (!st || st.game !== "shifter" || ev.reason !== "level won" || seatOfMe(st) < 0) return;
  const last = S.lastMoved && S.lastMoved.room === st.room ? S.lastMoved : null;
  S.levelWon = { room: st.room, level: Number(st.options.level), message: ev.message || "",
    board: last ? last.board : st.board, move: last ? last.move : null,
    moves: (st.history_total ?? (st.history || []).length) + 1 };
}

// The letters of Shape Shifter's pieces, from the legend line of the
// server's picture ("pieces: C knight (caballo), T rook (torre), ...").
function shifterLegend(st) {
  const line = (st.picture || "").split("\n").find((l) => l.startsWith("pieces:"));
  if (!line) return "";
  const items = line.slice("pieces:".length).split(",").map((x) => x.trim()).filter(Boolean);
  return el("ul", { class: "legend", "aria-label": t("legend") }, items.map((it) => {
    const m = /^(\S+)\s+(.*)$/.exec(it);
    return el("li", { "data-letter": m ? m[1] : "" }, el("b", { class: "legend-letter" }, m ? m[1] : it), m ? " " + m[2] : "");
  }));
}

// Shape Shifter's letters with their names ({C: "knight"}), for the
// cells' labels.
function shifterNames(st) {
  if (st.game !== "shifter") return null;
  const line = (st.picture || "").split("\n").find((l) => l.startsWith("pieces:")) || "";
  const out = {};
  for (const it of line.slice(7).split(",")) {
    const m = /^\s*([A-Z])\s+(\S+)/.exec(it);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

// The "level won" screen: the last board, the server's sentence, and a
// button on to the level the server has started meanwhile.
function renderLevelWon(box, st) {
  const w = S.levelWon;
  const go = el("button", { type: "button", class: "level-next", onclick: () => {
    S.levelWon = null; refresh();
  } }, t("next_level_go", w.level + 1));
  const keep = S.focusAfter || focusKey(box);
  S.focusAfter = null;
  box.replaceChildren(
    el("h2", { class: "room-title" }, gameTitle(st.game) + " · " + st.room + " · " + t("level", w.level)),
    el("div", { class: "level-won", role: "status" },
      el("p", { class: "level-won-title" }, t("level_won", w.level)),
      el("p", { class: "level-won-text" }, w.message, " ", t("n_moves", w.moves)),
      go),
    el("div", { class: "board-wrap" }, drawBoard(st.game, w.board,
      { lit: new Set(), chosen: new Set(), last: new Set(moveSquares(st.game, w.move)) }, () => {})),
    shifterLegend(st));
  go.focus();
}

// A click while it is not the player's turn says so (a watcher is told
// that watchers do not play); a finished game's board says nothing.
function notYourTurn(st) {
  if (!st || st.status !== "playing" || S.viewOnly) return;
  if (seatOfMe(st) < 0) S.notice = S.me ? t("watching_no_play") : t("play_as");
  else {
    const s = st.seats.find((x) => x.seat === st.turn);
    S.notice = t("not_your_turn", s && (s.name || (s.bot ? "bot " + s.bot : "")) || st.turn);
  }
  renderRoom();
}

// Why a click on sq was refused, in the game's own words: where the
// square alone is a move (a Stones placement), the server's refusal of
// that move says it ("Cannot complete 3-in-a-row at this stage"); `moves`
// has just said no move starts there, so it cannot be played by this.
async function gameReason(st, sq) {
  if (!squareIsMove(st.game)) return "";
  const r = await conn.send("move", { room: st.room, move: sq, seq: st.seq });
  return !r.ok && r.error === "illegal_move" ? r.message : "";
}

// Shape Shifter has one piece that moves: it is chosen already.
function autoSelect() {
  const st = S.room;
  if (!st || st.game !== "shifter" || !myTurn() || S.levelWon) return;
  for (let r = 0; r < st.board.length; r++)
    for (let c = 0; c < st.board[r].length; c++) {
      const ch = st.board[r][c];
      if (ch !== "." && ch !== ch.toUpperCase()) { onSquare(squareName("shifter", r, c, st.board.length)); return; }
    }
}

async function play(move) {
  const st = S.room;
  S.sel = null;
  S.preNote = "";
  S.moveDraft = null;
  // the squares lit for this move go now, not when its reply comes: a
  // lit square clicked meanwhile would start something else
  renderRoom();
  const r = await conn.send("move", { room: st.room, move });
  if (!r.ok) { S.notice = r.message || r.error; renderRoom(); }
  else S.notice = "";
}

function myTurn() {
  const st = S.room;
  if (!st || st.status !== "playing" || !st.turn) return false;
  const i = seatOfMe(st);
  return i >= 0 && st.seats[i].seat === st.turn;
}

async function act(cmd, fields = {}) {
  const r = await conn.send(cmd, Object.assign({ room: S.roomId }, fields));
  S.notice = r.ok ? "" : (r.message || r.error);
  if (cmd === "hint" && r.ok)
    S.hint = r.verdict === "winnable" ? t("hint_is", r.move) : r.verdict === "lost" ? t("hint_lost") : t("hint_unknown");
  if (cmd === "leave" && r.ok) { S.roomId = null; S.room = null; location.hash = ""; chats.room = []; }
  renderAll();
  return r;
}

// Whether the room's running game is rated: the `started` event said it;
// without it (a page opened mid-game), unless the room was made rated=no.
function ratedGame(st) {
  if (S.rated && S.rated.room === st.room) return S.rated.rated;
  return st.seats.length === 2 && !(st.options && st.options.rated === "no");
}

// Resign or leave a running two-player game one plays, once the player
// has said yes: either ends the game (leaving resigns it).
async function endGameAsked(cmd) {
  const st = S.room;
  const running = st && seatOfMe(st) >= 0 && st.seats.length === 2 &&
    (st.status === "playing" || st.status === "adjourned");
  if (running) {
    const q = (cmd === "resign" ? t("ask_resign") : t("ask_leave")) +
      (ratedGame(st) ? " " + t("ask_rated") : "");
    if (!await confirmBox(q, t(cmd === "resign" ? "resign" : "leave"), t("cancel"))) return;
  }
  await act(cmd);
}

function download(name, text) {
  const a = el("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain" })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

async function save() {
  const r = await conn.send("export", { room: S.roomId });
  if (!r.ok) { S.notice = r.message; renderRoom(); return; }
  download(`${S.room.game}-${S.roomId}.txt`, r.text);
  if (r.record) download(`${S.room.game}-${S.roomId}-record.txt`, r.record);
}

// ---- rendering ----

function renderAll() {
  document.documentElement.lang = getLang();
  $("#lang").textContent = t("language");
  $("#theme").textContent = t("theme");
  renderStatus();
  renderSoundSwitch();
  renderWho();
  renderInbox();
  if (S.room) { $("#lobby").hidden = true; $("#room").hidden = false; renderRoom(); }
  else { $("#room").hidden = true; $("#lobby").hidden = false; renderLobby(); }
  renderChat();
}

// Set the password (old: the one it replaces, "" for none).
async function setPassword(pw, old) {
  const fields = { password: pw };
  if (old) fields.old = old;
  const r = await conn.send("password", fields);
  S.notice = r.ok ? t("password_set") : (r.message || r.error);
  if (r.ok) S.pwOpen = false;
  renderAll();
}

// The name box: who I am and the password form, or the login form.
function renderWho() {
  const box = $("#me");
  // What is being typed is kept across re-renders.
  const mode = S.me ? (S.pwOpen ? "setpw" : "me") : S.pwFor ? "pw" : "name";
  if (box.dataset.mode === mode && mode !== "me") return;
  box.dataset.mode = mode;
  box.replaceChildren();
  if (S.me) {
    box.append(el("span", { class: "me-name" }, t("hello_as", S.me)), " ",
      el("button", { type: "button", class: "set-password", onclick: () => { S.pwOpen = !S.pwOpen; renderWho(); } }, t("set_password")), " ",
      el("button", { type: "button", onclick: () => { localStorage.removeItem(ID_KEY); location.hash = ""; location.reload(); } }, t("logout")));
    if (S.pwOpen) {
      const old = el("input", { type: "password", name: "old", class: "old-password", autocomplete: "current-password", placeholder: t("old_password"), "aria-label": t("old_password") });
      const pw = el("input", { type: "password", name: "new", class: "new-password", autocomplete: "new-password", minlength: 8, maxlength: 128, required: true, placeholder: t("new_password"), "aria-label": t("new_password") });
      box.append(el("form", { class: "setpw", onsubmit: (e) => { e.preventDefault(); setPassword(pw.value, old.value); } },
        old, pw, el("button", { type: "submit" }, t("save_password"))));
    }
    return;
  }
  if (S.pwFor) {
    const pw = el("input", { type: "password", id: "password", name: "password", maxlength: 128, autocomplete: "current-password", placeholder: t("password"), "aria-label": t("password") });
    box.append(el("form", { class: "login-password", onsubmit: (e) => { e.preventDefault(); if (pw.value) login(S.pwFor, pw.value); } },
      el("span", { class: "pw-name" }, S.pwFor), " ", pw, el("button", { type: "submit" }, t("login")), " ",
      el("button", { type: "button", class: "other-name", onclick: () => { S.pwFor = null; S.notice = ""; renderAll(); } }, t("other_name"))));
    pw.focus();
    return;
  }
  const input = el("input", { id: "name", name: "name", maxlength: 16, autocomplete: "nickname", placeholder: t("name"), "aria-label": t("name") });
  box.append(el("form", { class: "login", onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) login(input.value.trim()); } },
    input, el("button", { type: "submit" }, t("login"))));
}

function gameTitle(name) {
  const g = S.games.find((x) => x.name === name);
  return g ? g.title : name;
}

function seatText(s) {
  if (s.bot) return "bot " + s.bot;
  if (s.name) return s.name + (s.connected ? "" : " " + t("seat_gone"));
  return t("free_seat");
}

// The lobby: its frame (and the create form, which keeps what is being
// typed) is made once per name; the lists are filled again each time
// (the rooms unless withRooms is false).
async function renderLobby(withRooms = true) {
  const lobby = $("#lobby");
  const key = (S.me || "") + "|" + S.games.length + "|" + getLang();
  if (lobby.dataset.key !== key) {
    lobby.dataset.key = key;
    // The lists first (what is going on, a phone's first screen), then
    // the forms that make something new.
    lobby.replaceChildren(el("p", { class: "notice", role: "status" }),
      el("section", { class: "rooms" }, el("h2", {}, t("rooms")), el("ul", { class: "room-list" })),
      el("section", { class: "seeks" }, el("h2", {}, t("seeks")), el("ul", { class: "seek-list" })),
      createForm(),
      S.me ? seekForm() : "",
      el("section", { class: "who" }, el("h2", {}, t("online")), el("ul", { class: "who-list" }), el("p", { class: "guests" })),
      // "My games": shown once there is one (no empty box)
      S.me ? el("section", { class: "history", hidden: true }, el("h2", {}, t("history")), el("ul", { class: "room-list" })) : "",
      S.me ? ratingsFrame() : "",
      el("section", { class: "tourneys" }));
  }
  othersLooked = Date.now();
  if (withRooms) lobbyLooked = othersLooked;
  const note = lobby.querySelector(".notice");
  note.textContent = S.notice || (S.me ? "" : t("watching_as_guest"));
  note.classList.toggle("info", !S.notice || S.notice === S.infoText);
  const [rooms, who, hist, seeks] = await Promise.all([withRooms ? conn.send("rooms").catch(() => null) : null,
    conn.send("who").catch(() => null), S.me ? conn.send("history").catch(() => null) : null,
    conn.send("seeks").catch(() => null)]);
  if (seeks && seeks.ok) renderSeeks(lobby.querySelector(".seek-list"), seeks.seeks);
  if (rooms && rooms.ok) {
    const list = lobby.querySelector(".rooms .room-list");
    const shown = rooms.rooms.filter(listed);
    list.replaceChildren(...shown.map((r) => {
      const free = r.seats.some((x) => !x.name && !x.bot);
      const mine = r.seats.some((x) => sameName(x.name, S.me));
      return el("li", { class: "room-item" + (mine ? " mine" : ""), "data-room": r.room },
        el("span", { class: "room-game" }, gameTitle(r.game)), " ",
        el("span", { class: "room-id" }, r.room), " ",
        el("span", { class: "room-status" }, t(r.status)), " ",
        el("span", { class: "room-seats" }, r.seats.map(seatText).join(" – ")), " ",
        // one's own room: back to one's seat, not to the watchers
        mine ? el("button", { type: "button", class: "rejoin", onclick: () => enterRoom(r.room, true) }, t(r.status === "waiting" ? "open_room" : "rejoin")) : null,
        S.me && free && !mine ? el("button", { type: "button", class: "join", onclick: () => enterRoom(r.room, true) }, t("join")) : null,
        mine ? null : el("button", { type: "button", class: "watch", onclick: () => enterRoom(r.room) }, t("watch")));
    }));
    if (!shown.length) list.append(el("li", {}, t("no_rooms")));
  }
  if (who && who.ok) {
    lobby.querySelector(".who-list").replaceChildren(...who.players.map((p) => el("li", {},
      S.me ? nameButton(p.name) : p.name)));
    lobby.querySelector(".guests").textContent = t("guests", who.guests || 0);
  }
  renderRatings();
  renderTourneys(lobby.querySelector(".tourneys"));
  const hl = lobby.querySelector(".history .room-list");
  if (hist && hist.ok && hl) {
    hl.closest("section").hidden = !hist.games.length;
    hl.replaceChildren(...hist.games.map((g) => el("li", { class: "room-item", "data-room": g.room },
      el("span", { class: "room-game" }, gameTitle(g.game)), " ",
      el("span", { class: "room-id" }, g.room + " #" + g.game_no), " ",
      el("span", {}, resultWords(g.result)), " ",
      el("span", { class: "room-status" }, t("n_moves", g.moves)), " ",
      el("button", { type: "button", class: "view", onclick: () => viewGame(g.room) }, t("view")))));
  }
}

function sameName(a, b) {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

// Whether the lobby lists a room: not another's one-player game whose
// player is gone (the server keeps it for their return, as `connected`
// false says; to everyone else it is an abandoned puzzle).
function listed(r) {
  if (r.seats.length !== 1) return true;
  const s = r.seats[0];
  return sameName(s.name, S.me) || s.connected !== false;
}

// A player's name that opens their profile (finger).
function nameButton(name) {
  return el("button", { type: "button", class: "profile-link", "data-name": name,
    onclick: () => showProfile(name) }, name);
}

// A rating as people read it: "1662?" while provisional.
function ratingText(r) {
  return String(r.rating) + (r.provisional ? "?" : "");
}

// The lobby's ratings: a two-player game's table (ratings) and the
// profile (finger) of the last name clicked.
function ratingsFrame() {
  const duo = S.games.filter((g) => g.seats === 2);
  if (!S.ratingsGame && duo.length) S.ratingsGame = duo[0].name;
  const sel = el("select", { class: "ratings-game", "aria-label": t("game"),
    onchange: () => { S.ratingsGame = sel.value; renderRatings(); } },
  duo.map((g) => el("option", { value: g.name, selected: g.name === S.ratingsGame ? "" : null }, g.title)));
  return el("section", { class: "ratings" }, el("h2", {}, t("ratings")), sel,
    el("table", { class: "ratings-table" }), el("div", { class: "profile" }));
}

function ratingsRow(p) {
  return el("tr", { class: p.provisional ? "provisional" : null, "data-name": p.name },
    el("td", {}, p.rank != null ? String(p.rank) : ""), el("td", {}, nameButton(p.name)),
    el("td", { class: "rating" }, ratingText(p)), el("td", {}, "±" + p.rd),
    el("td", {}, p.wins + "–" + p.draws + "–" + p.losses));
}

async function renderRatings() {
  const table = document.querySelector("#lobby .ratings-table");
  if (!table || !S.ratingsGame) return;
  document.querySelector("#lobby .ratings-game").value = S.ratingsGame;
  const r = await conn.send("ratings", { game: S.ratingsGame }).catch(() => null);
  if (!r || !r.ok) return;
  // each header in full, and short (a phone's narrow columns; the full
  // words stay in its title for a screen reader and a pointer)
  const head = el("tr", {}, [["#"], ["player"], ["rating"], ["deviation", "deviation_short"], ["won_drawn_lost", "wdl_short"]].map(([k, short]) =>
    el("th", short ? { title: t(k) } : {}, k === "#" ? k : short
      ? [el("span", { class: "th-long" }, t(k)), el("abbr", { class: "th-short", title: t(k) }, t(short))] : t(k))));
  const rows = [head, ...r.players.map(ratingsRow)];
  if (r.provisional.length)
    rows.push(el("tr", {}, el("th", { colspan: 5 }, t("provisional"))), ...r.provisional.map(ratingsRow));
  if (!r.players.length && !r.provisional.length)
    rows.push(el("tr", {}, el("td", { colspan: 5 }, t("no_ratings"))));
  table.replaceChildren(el("caption", {}, r.pool), ...rows);
  renderProfile();
}

async function showProfile(name) {
  const r = await conn.send("finger", { name }).catch(() => null);
  S.profile = r && r.ok ? r : null;
  if (!S.profile && r) S.notice = r.message || r.error;
  renderProfile();
}

function fmtDate(ms) {
  return ms ? new Date(ms).toLocaleString(getLang()) : "–";
}

function renderProfile() {
  const box = document.querySelector("#lobby .profile");
  const f = S.profile;
  if (!box) return;
  if (!f) { box.replaceChildren(); return; }
  const other = S.me && f.online && !sameName(f.name, S.me) && S.ratingsGame;
  box.replaceChildren(el("h3", {}, f.name + (f.online ? " · " + t("status_online") : "")),
    other ? el("button", { type: "button", class: "challenge", onclick: () => challenge(f.name) }, t("challenge_to", gameTitle(S.ratingsGame))) : "",
    el("p", { class: "since" }, t("member_since", fmtDate(f.since_ms), fmtDate(f.seen_ms))),
    f.ratings.length ? el("ul", { class: "profile-ratings" }, f.ratings.map((r) => el("li", { "data-pool": r.pool },
      r.pool + ": " + ratingText(r) + " ±" + r.rd + " · " + r.wins + "–" + r.draws + "–" + r.losses)))
      : el("p", {}, t("no_rated_games")),
    (f.records || []).length ? el("ul", { class: "profile-records" }, f.records.map((r) => el("li", { "data-game": r.game },
      gameTitle(r.game) + ": " + (r.level != null ? t("record_level", r.solved, r.level, r.tries) : t("record_solved", r.solved, r.fewest_left))))) : "",
    f.playing.length ? el("p", { class: "profile-playing" }, t("playing_now", f.playing.map((p) => p.room + " (" + gameTitle(p.game) + ")").join(", "))) : "");
}

// The rating line of a finished two-player game: "ana 1500 → 1338?".
function ratedWords(res) {
  if (!res || res.rated === undefined) return "";
  if (!res.rated) return t("not_rated", phrase(res.unrated || ""));
  return t("rated_line", res.pool, (res.ratings || []).map((s) =>
    (s.name || "bot " + s.bot) + " " + s.before + " → " + s.after + (s.provisional ? "?" : "")).join(", "));
}

// A seek in words: "s3 ana (1500) · Ataxx size=7 · 5+3 · rated".
function seekWords(s) {
  const opts = Object.entries(s.options || {}).map(([k, v]) => k + "=" + v).join(" ");
  const clock = s.clock ? (s.clock.initial / 60) + "+" + s.clock.increment : t("untimed");
  const range = s.range ? " · " + s.range.min + "–" + s.range.max : "";
  return `${gameTitle(s.game)} ${opts} · ${clock} · ${s.rated ? t("rated_word") : t("casual")}${range}`;
}

// The open seeks: another's can be taken (the same seek sent back meets
// it at once), one's own withdrawn.
function renderSeeks(list, seeks) {
  list.replaceChildren(...seeks.map((s) => {
    const mine = S.me && s.name.toLowerCase() === S.me.toLowerCase();
    return el("li", { class: "seek-item", "data-seek": s.seek },
      el("span", { class: "seek-name" }, `${s.name} (${s.rating})`), " ",
      el("span", { class: "seek-what" }, seekWords(s)), " ",
      mine ? el("button", { type: "button", class: "withdraw", onclick: () => unseek(s.seek) }, t("withdraw"))
        : S.me ? el("button", { type: "button", class: "take", onclick: () => takeSeek(s) }, t("play")) : null);
  }));
  if (!seeks.length) list.append(el("li", {}, t("no_seeks")));
}

async function sendSeek(fields) {
  const r = await conn.send("seek", fields);
  S.notice = !r.ok ? (r.message || r.error) : r.room ? "" : t("seeking", seekWords(r.seek));
  S.infoText = r.ok && !r.room ? S.notice : ""; // news, not an error
  if (!r.room) renderAll();
}

// Take another's seek: the same game, options, clock and rated.
function takeSeek(s) {
  const fields = { game: s.game, options: s.options, rated: s.rated };
  if (s.clock) fields.clock = s.clock;
  return sendSeek(fields);
}

async function unseek(id) {
  const r = await conn.send("unseek", { seek: id });
  S.notice = r.ok ? "" : (r.message || r.error);
  renderAll();
}

// The seek form: a two-player game, its options, clock, rated or
// casual, the opponents' ratings wanted.
function seekForm() {
  const form = el("form", { class: "seek" });
  const two = S.games.filter((g) => g.seats === 2);
  const gameSel = el("select", { name: "seek_game", "aria-label": t("game") },
    two.map((g) => el("option", { value: g.name }, g.title)));
  const opts = el("div", { class: "opts" });
  function fill() {
    const g = S.games.find((x) => x.name === gameSel.value);
    opts.replaceChildren(...(g ? g.options : []).filter((o) => o.type !== "text").map((o) => el("label", { title: phrase(o.help || "") }, o.name + " ",
      o.type === "choice" ? el("select", { name: "so_" + o.name }, o.choices.map((c) => el("option", { value: c, selected: c === o.default }, c)))
        : el("input", { type: "number", name: "so_" + o.name, min: o.min, max: o.max, value: o.default || "" }))));
  }
  gameSel.addEventListener("change", fill);
  form.append(el("h2", {}, t("seek")), el("label", {}, t("game") + " ", gameSel), opts,
    el("div", { class: "extra" },
      el("label", {}, t("clock") + " ", el("input", { type: "number", name: "seek_clock", min: 0, max: 1440, value: 0 })),
      el("label", {}, t("increment") + " ", el("input", { type: "number", name: "seek_inc", min: 0, max: 3600, value: 0 })),
      el("label", {}, el("input", { type: "checkbox", name: "rated", checked: true }), " " + t("rated")),
      el("label", {}, t("range") + " ", el("input", { type: "number", name: "lo", min: 0, max: 5000, "aria-label": "min" }),
        "–", el("input", { type: "number", name: "hi", min: 0, max: 5000, "aria-label": "max" }))),
    el("button", { type: "submit", class: "seek-btn" }, t("seek")));
  fill();
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const fd = new FormData(form);
    const fields = { game: gameSel.value, options: {}, rated: !!fd.get("rated") };
    for (const [k, v] of fd.entries()) if (k.startsWith("so_") && v !== "") fields.options[k.slice(3)] = String(v);
    if (Number(fd.get("seek_clock")) > 0) fields.clock = { initial: Number(fd.get("seek_clock")) * 60, increment: Number(fd.get("seek_inc") || 0) };
    if (fd.get("lo") !== "" || fd.get("hi") !== "") fields.range = (fd.get("lo") || "0") + "-" + (fd.get("hi") || "5000");
    sendSeek(fields);
  });
  return form;
}

// The create form: the game's own options from `games`, bots, clock,
// privacy, and a board file from the player's machine.
function createForm() {
  const form = el("form", { class: "create" });
  const gameSel = el("select", { name: "game", "aria-label": t("game") },
    S.games.map((g) => el("option", { value: g.name }, g.title)));
  const opts = el("div", { class: "opts" });
  const extra = el("div", { class: "extra" });
  let fileText = null;
  const fileIn = el("input", { type: "file", "aria-label": t("load") });
  fileIn.addEventListener("change", async () => { fileText = fileIn.files[0] ? await fileIn.files[0].text() : null; });
  function fill() {
    const g = S.games.find((x) => x.name === gameSel.value);
    opts.replaceChildren();
    extra.replaceChildren();
    if (!g) return;
    for (const o of g.options) {
      if (o.type === "text") continue;
      let input;
      if (o.type === "choice") input = el("select", { name: "o_" + o.name }, o.choices.map((c) => el("option", { value: c, selected: c === o.default }, c)));
      else input = el("input", { type: "number", name: "o_" + o.name, min: o.min, max: o.max, value: o.default || "" });
      opts.append(el("label", { title: phrase(o.help || "") }, o.name + " ", input));
    }
    if (g.seats === 2) {
      extra.append(el("label", {}, t("bot") + " ", el("select", { name: "bot" }, el("option", { value: "" }, t("none")), [1, 2, 3, 4, 5].map((n) => el("option", { value: n }, String(n))))),
        el("label", {}, t("clock") + " ", el("input", { type: "number", name: "clock", min: 0, max: 1440, value: 0 })),
        el("label", {}, t("increment") + " ", el("input", { type: "number", name: "inc", min: 0, max: 3600, value: 0 })));
    }
    if (g.file_format) extra.append(el("label", {}, t("load") + " ", fileIn));
    extra.append(el("label", {}, el("input", { type: "checkbox", name: "private" }), " " + t("private")));
  }
  gameSel.addEventListener("change", fill);
  form.append(el("h2", {}, t("create")), el("label", {}, t("game") + " ", gameSel), opts, extra,
    el("button", { type: "submit", class: "create-btn" }, t("create")));
  fill();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!S.me) { S.notice = t("play_as"); renderAll(); $("#name") && $("#name").focus(); return; }
    const fd = new FormData(form);
    const fields = { game: gameSel.value, options: {} };
    for (const [k, v] of fd.entries()) if (k.startsWith("o_") && v !== "") fields.options[k.slice(2)] = String(v);
    if (fileText) fields.options.file = fileText;
    if (fd.get("bot")) fields.bot = Number(fd.get("bot"));
    if (Number(fd.get("clock")) > 0) fields.clock = { initial: Number(fd.get("clock")) * 60, increment: Number(fd.get("inc") || 0) };
    if (fd.get("private")) fields.private = true;
    const r = await conn.send("create", fields);
    if (!r.ok) { S.notice = r.message || r.error; renderAll(); return; }
    S.roomId = r.room || r.state.room;
    location.hash = "room=" + S.roomId;
    chats.room = [];
    setState(r.state);
  });
  return form;
}

function fmtClock(ms) {
  if (ms == null) return "";
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function clockLeft(seat) {
  const st = S.room;
  if (!st || !st.clocks || st.clocks[seat] == null) return null;
  let ms = st.clocks[seat];
  if (st.status === "playing" && st.turn === seat && S.clockStopped !== st.room) ms -= Date.now() - S.stateAt;
  return ms;
}

// A result in words: "ana wins (three in a row)".
// A seat ("white", "player 1": the protocol's words) in the page's
// language; a seat no table knows stays as the server says it.
function seatWord(seat) {
  if (seat == null) return "";
  const w = t("seat_" + seat);
  return w === "seat_" + seat ? seat : w;
}

function resultWords(res) {
  if (!res) return "";
  let what = res.result === "draw" ? t("draw_result") : res.result === "solved" ? t("solved") :
    res.result === "blocked" ? t("blocked") : t("wins", res.winner_name || seatWord(res.winner));
  if (res.reason) what += " (" + phrase(res.reason) + ")";
  const sc = res.scores ? Object.entries(res.scores) : [];
  if (sc.length === 2) what += ": " + sc.map(([k, v]) => seatWord(k) + " " + v).join(", ");
  return what;
}

// A finished game from the player's history: its last position and its
// moves, from the store (state works on rooms no longer in memory).
async function viewGame(id) {
  const r = await conn.send("state", { room: id });
  if (!r.ok) { S.notice = r.message || r.error; renderAll(); return; }
  S.roomId = id;
  S.viewOnly = true;
  setState(r.state);
}

// The board is drawn from its player's side: the second seat's turned
// half round; the Flip button turns it again (per room, not kept).
function flipped(st) {
  const own = st.seats.length === 2 && seatOfMe(st) === 1;
  return own !== !!(S.flip && S.flip.room === st.room && S.flip.on);
}

function toggleFlip() {
  const on = S.flip && S.flip.room === S.room.room ? !S.flip.on : true;
  S.flip = { room: S.room.room, on };
  renderRoom();
}

// Each seat's score beside its name: at the end the result's, during an
// Ataxx game its pieces as the server's picture counts them ("x white 3,
// o black 2"); null when there is none to show.
function seatScores(st) {
  if (st.status === "ended" && st.result && st.result.scores && st.seats.length === 2) return st.result.scores;
  if (st.game !== "ataxx" || S.replay) return null;
  const m = /^x (\S+) (\d+), o (\S+) (\d+)/m.exec(st.picture || "");
  return m ? { [m[1]]: Number(m[2]), [m[3]]: Number(m[4]) } : null;
}

// The board as the player sees a move being made: an Amazons amazon
// already on its chosen square while its arrow is aimed.
function stepBoard(st) {
  const sel = S.sel;
  if (st.game !== "amazons" || !sel || !sel.prefix.length) return st.board;
  const rows = st.board.length, from = squareAt(sel.src, rows), to = squareAt(sel.prefix[0], rows);
  if (!from || !to) return st.board;
  const b = st.board.map((row) => row.split(""));
  b[to[0]][to[1]] = b[from[0]][from[1]];
  b[from[0]][from[1]] = ".";
  return b.map((row) => row.join(""));
}

function turnWords(st) {
  if (st.status === "ended" && st.result) return t("game_over", resultWords(st.result));
  if (st.status !== "playing") return t(st.status);
  if (myTurn() && st.game === "amazons" && S.sel)
    return S.sel.prefix.length ? t("amazons_shoot", S.sel.prefix[0]) : t("amazons_move", S.sel.src);
  if (myTurn()) return t("your_turn");
  const s = st.seats.find((x) => x.seat === st.turn);
  return s && (s.name || s.bot) ? t("to_move_named", seatWord(st.turn), s.name || "bot " + s.bot) : t("to_move", seatWord(st.turn));
}

function renderRoom() {
  const st = S.room;
  if (!st) return;
  const box = $("#room");
  if (S.levelWon && S.levelWon.room === st.room) { renderLevelWon(box, st); return; }
  const mine = seatOfMe(st);
  const hist = st.history || [];
  const since = st.history_since || 0;
  const at = S.replay ? S.replay.at : null;
  const shown = at === null ? hist.length : at - since;
  const last = shown > 0 && hist[shown - 1] ? hist[shown - 1].move : null;
  const view = { lit: new Set(), jump: new Set(), chosen: new Set(), last: new Set(moveSquares(st.game, last)),
    flip: flipped(st), focus: S.kbSq, onFocus: (sq) => { S.kbSq = sq; }, names: shifterNames(st),
    pre: S.pre && S.pre.room === st.room ? new Set(S.pre.squares) : null };
  if (S.sel) {
    const n = S.sel.prefix.length;
    view.chosen.add(S.sel.src);
    S.sel.prefix.forEach((p) => view.chosen.add(p));
    for (const c of S.sel.cands)
      if (c.seq.length > n && S.sel.prefix.every((p, i) => c.seq[i] === p)) {
        view.lit.add(c.seq[n]);
        // Ataxx: a jump (its move names the source) leaves the source empty
        if (st.game === "ataxx" && c.move !== c.seq[n]) view.jump.add(c.seq[n]);
      }
  }
  const scores = seatScores(st);
  const board = S.replay ? S.replay.board : stepBoard(st);
  const seats = el("div", { class: "seats" }, st.seats.map((s) => el("div", {
    class: "seat" + (st.turn === s.seat ? " to-move" : ""), "data-seat": s.seat },
  el("span", { class: "seat-name" }, seatWord(s.seat) + ": "), el("span", { class: "player" }, seatText(s)),
  scores && scores[s.seat] != null ? el("span", { class: "score", "data-score": s.seat, title: t("score") }, String(scores[s.seat])) : null,
  st.clocks ? el("span", { class: "clock", "data-clock": s.seat }, fmtClock(clockLeft(s.seat))) : null)),
  st.clocks && S.clockStopped === st.room ? el("span", { class: "clock-stopped", role: "status" }, t("clock_stopped")) : null);
  const buttons = el("div", { class: "actions" });
  // Resign and Leave end the game: a row of their own, away from the
  // draw offer a thumb might aim at.
  const grave = el("div", { class: "actions grave" });
  const b = (key, fn, cls) => buttons.append(el("button", { type: "button", class: cls || key, onclick: fn }, t(key)));
  // an offer of one's own waiting for its answer: its button, pressed
  const pending = (key, cls) => buttons.append(el("button", { type: "button", class: cls + " pending", disabled: true, "aria-pressed": "true" }, t(key)));
  const playing = st.status === "playing" || st.status === "adjourned";
  if (mine >= 0) {
    if (st.seats.length === 2) {
      if (playing) {
        grave.append(el("button", { type: "button", class: "resign", onclick: () => endGameAsked("resign") }, t("resign")));
        // no draw button in a game without draws (Amazons): `games`
        // says which, as the server refuses them there
        if (!drawsIn(st.game)) { /* nothing to offer */ }
        else if (S.drawOffer && S.drawOffer !== S.me) {
          b("accept_draw", () => act("draw", { action: "accept" }));
          b("decline_draw", () => act("draw", { action: "decline" }));
        } else if (S.drawOffer === S.me) pending("draw_offered_btn", "offer_draw");
        else b("offer_draw", () => act("draw", { action: "offer" }));
        if (S.takeback && S.takeback !== S.me) {
          b("accept_takeback", () => act("takeback", { action: "accept" }));
          b("decline_takeback", () => act("takeback", { action: "decline" }));
        } else if (S.takeback === S.me) pending("takeback_asked_btn", "takeback");
        else if (hist.some((h) => h.seat === st.seats[mine].seat)) b("takeback", () => act("takeback", { action: "offer" }));
        if (st.seats.some((s, i) => i !== mine && s.name && !s.connected)) b("claim", () => act("claim"));
      }
    } else {
      // the buttons the server would refuse are not shown: Undo with
      // no move made, Next level after the last one
      if ((st.history_total ?? hist.length) > 0) b("undo", () => act("undo"));
      b("restart", () => act("restart"));
      if (playing) b("hint", () => act("hint"));
      // on after a solved level only (a lost one is retried: Undo, Restart)
      if (st.status === "ended" && st.result && st.result.result === "solved" && st.options && st.options.level != null &&
        Number(st.options.level) < levelMax(st.game))
        b("next_level", () => act("next"));
    }
    // a one-player game starts again with Restart (or Next level)
    // (a tournament pairs its next round: the server refuses a rematch)
    if (st.status === "ended" && st.seats.length === 2 && !st.tourney) b("rematch", () => act("rematch"));
  }
  if (st.seats.length === 2) b("flip", toggleFlip);
  b("save", save);
  if (!S.viewOnly) grave.append(el("button", { type: "button", class: "leave", onclick: () => endGameAsked("leave") }, t("leave")));
  b("back", () => { S.room = null; S.roomId = null; S.viewOnly = false; location.hash = ""; renderAll(); });
  // A move may be typed too (the keyboard's way, and the game's own
  // notation with its error sentences).
  // (what is typed stays through redraws, as the chat's does)
  const typed = el("input", { name: "move", autocomplete: "off", maxlength: 64, "aria-label": t("moves"),
    oninput: () => { S.moveDraft = { room: st.room, text: typed.value }; } });
  if (S.moveDraft && S.moveDraft.room === st.room) typed.value = S.moveDraft.text;
  const moveForm = myTurn() && !S.replay ? el("form", { class: "move-form", onsubmit: (e) => {
    e.preventDefault();
    if (typed.value.trim()) play(typed.value.trim());
  } }, typed, el("button", { type: "submit" }, t("play"))) : "";
  const total = st.history_total ?? hist.length;
  const cur = at === null ? total : at;
  const moves = el("ol", { class: "moves" + (st.seats.length === 2 ? " paired" : ""), tabindex: 0,
    "aria-label": t("moves_keys"), onkeydown: (e) => movesKey(e, cur, total) }, moveList(st, hist, at));
  const step = (key, n) => el("button", { type: "button", class: "step-" + key, onclick: () => replayTo(n) }, t(key));
  const viewing = at !== null && st.status !== "ended";
  const replay = total > 0 ? el("div", { class: "replay" + (viewing ? " viewing" : "") },
    el("span", {}, t("replay") + ": "), step("first", 0), step("prev", cur - 1), step("next", cur + 1), step("last", total),
    el("span", { class: "replay-at" }, t("move_of", cur, total)),
    viewing ? el("button", { type: "button", class: "step-live", onclick: () => replayTo(total) }, t("back_to_game")) : "") : "";
  const keep = S.focusAfter || focusKey(box);
  S.focusAfter = null;
  box.replaceChildren(
    el("h2", { class: "room-title" }, gameTitle(st.game) + " · " + st.room +
      (st.options && st.options.level != null ? " · " + t("level", st.options.level) : "")),
    roomTags(st),
    el("p", { class: "turn", role: "status", "aria-live": "polite" }, turnWords(st)),
    st.status === "ended" && st.result && st.result.rated !== undefined ? el("p", { class: "rating-change" }, ratedWords(st.result)) : "",
    el("p", { class: "notice" + (S.notice ? "" : " info offers"), role: "alert" }, S.notice || noteWords()),
    S.hint ? el("p", { class: "hint" }, S.hint) : "",
    seats,
    el("div", { class: "board-wrap" }, drawBoard(st.game, board, view, onSquare)),
    st.game === "shifter" ? shifterLegend(st) : "",
    st.game === "ataxx" && S.sel ? el("p", { class: "legend ataxx-keys" }, t("ataxx_keys")) : "",
    replay,
    moveForm,
    buttons,
    grave,
    el("section", { class: "movelist" }, el("h3", {}, t("moves")), moves),
    el("p", { class: "watchers" }, t("watchers", st.watchers || 0)),
  );
  const current = moves.querySelector(".current");
  moves.scrollTop = current ? current.offsetTop - moves.offsetTop - moves.clientHeight / 2 : moves.scrollHeight;
  const again = keep && box.querySelector(keep);
  if (again) again.focus({ preventScroll: true });
}

// Whether game takes draw offers (`games`' draw_offers; a server without
// the field: yes).
function drawsIn(game) {
  const g = S.games.find((x) => x.name === game);
  return !g || g.draw_offers !== false;
}

// The last level of a game with levels (its `level` option's max), or
// Infinity when `games` does not say.
function levelMax(game) {
  const g = S.games.find((x) => x.name === game);
  const o = g && g.options.find((x) => x.name === "level");
  return o && o.max != null ? Number(o.max) : Infinity;
}

// The room's game in a word or two: rated or not (and why not), and the
// tournament it belongs to; "" when there is nothing to say yet (a
// two-player game not started, a one-player game).
function roomTags(st) {
  const tags = [];
  const r = S.rated && S.rated.room === st.room ? S.rated : null;
  if (st.seats.length === 2 && r)
    tags.push(el("span", { class: "rated-label " + (r.rated ? "rated" : "unrated"), title: phrase(r.unrated || "") },
      r.rated ? t("room_rated") : r.unrated ? t("room_unrated_why", phrase(r.unrated)) : t("room_unrated")));
  if (st.tourney) tags.push(el("span", { class: "tourney-label" }, t("room_tourney", st.tourney)));
  return tags.length ? el("p", { class: "room-tags" }, tags) : "";
}

// What has the keyboard's focus in the room, as a selector that finds
// its like again once the room is drawn anew (a square, a move, a button).
function focusKey(box) {
  const a = document.activeElement;
  if (!a || !box.contains(a)) return null;
  if (a.dataset.sq) return `.cell[data-sq="${a.dataset.sq}"]`;
  if (a.dataset.n) return `.moves [data-n="${a.dataset.n}"]`;
  if (a.classList.contains("moves")) return ".moves";
  if (a.tagName === "BUTTON" && a.classList.length) return "button." + a.classList[0];
  return a.name ? `[name="${a.name}"]` : null;
}

// What is being typed in the chat box, by where it goes ("lobby" or a
// room's id): every event redraws the box, and a line half typed when
// the opponent moves must still be there, with the caret where it was.
const chatDrafts = new Map();

function renderChat() {
  const box = $("#chat");
  const inRoom = !!S.room;
  const where = inRoom ? S.roomId : "lobby";
  const list = inRoom ? chats.room : chats.lobby;
  const old = box.querySelector("input[name=chat]");
  const hadFocus = old !== null && document.activeElement === old;
  const caret = hadFocus ? [old.selectionStart, old.selectionEnd] : null;
  const ul = el("ul", { class: "chat-list", "aria-live": "polite" },
    list.map((m) => el("li", {}, el("b", { class: "from" }, (m.from || "?") + ": "), el("span", { class: "text" }, m.text))));
  const input = el("input", { name: "chat", maxlength: 500, autocomplete: "off", "aria-label": t("chat"), disabled: !S.me,
    oninput: () => chatDrafts.set(where, input.value) });
  input.value = chatDrafts.get(where) || "";
  const form = el("form", { class: "chat-form", onsubmit: async (e) => {
    e.preventDefault();
    const text = input.value;
    if (!text.trim()) return;
    const r = await conn.send("chat", inRoom ? { room: S.roomId, text } : { text });
    if (!r.ok) { S.notice = r.message; renderAll(); return; }
    if ((chatDrafts.get(where) || "") !== text) return; // typed on meanwhile
    chatDrafts.delete(where);
    const now = $("#chat input[name=chat]");
    if (now && (S.room ? S.roomId : "lobby") === where) now.value = "";
  } }, input, el("button", { type: "submit", disabled: !S.me }, t("send")));
  box.replaceChildren(el("h2", {}, inRoom ? t("room_chat") : t("lobby_chat")), ul, form);
  ul.scrollTop = ul.scrollHeight;
  if (hadFocus && !input.disabled) { input.focus(); input.setSelectionRange(caret[0], caret[1]); }
}

// Clocks count down between the server's updates.
setInterval(() => {
  if (!S.room || !S.room.clocks) return;
  document.querySelectorAll("[data-clock]").forEach((e) => { e.textContent = fmtClock(clockLeft(e.dataset.clock)); });
}, 250);

// A player's list of rooms is pushed (rooms_changed, asked for at
// hello); a guest's has no such events and looks again every
// GUEST_POLL_MS; a player's too, slowly (LOBBY_POLL_MS), for what no
// event says (a cluster's other nodes' rooms, a server without the
// event). The lists no event covers (seeks, who, tournaments, the
// player's games) are looked at again every OTHERS_POLL_MS.
const GUEST_POLL_MS = 5000;
const LOBBY_POLL_MS = 30000;
const OTHERS_POLL_MS = 5000;
let lobbyLooked = Date.now(), othersLooked = Date.now();
setInterval(() => {
  if (S.room || !conn.open || document.hidden) return;
  const now = Date.now();
  if (now - lobbyLooked >= (S.me ? LOBBY_POLL_MS : GUEST_POLL_MS)) renderLobby();
  else if (now - othersLooked >= OTHERS_POLL_MS) renderLobby(false);
}, 1000);

// The sound switch in the header, kept in the browser.
function renderSoundSwitch() {
  const b = $("#sound");
  b.textContent = soundOn() ? t("sound_on") : t("sound_off");
  b.setAttribute("aria-pressed", soundOn() ? "true" : "false");
}
$("#sound").addEventListener("click", () => { setSoundOn(!soundOn()); renderSoundSwitch(); });

// Spanish: the server's sentences (the move list's, the reasons) are
// Spanish once its catalogue has come, so the page is drawn again then.
$("#lang").addEventListener("click", async () => {
  setLang(getLang() === "es" ? "en" : "es");
  renderAll();
  if (getLang() === "es") { await loadSentences(); renderAll(); }
});
if (getLang() === "es") loadSentences().then(() => { if (document.body.dataset.ready) renderAll(); });
$("#theme").addEventListener("click", () => {
  const dark = document.documentElement.dataset.theme
    ? document.documentElement.dataset.theme === "dark"
    : matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.dataset.theme = dark ? "light" : "dark";
  localStorage.setItem("tablero.theme", document.documentElement.dataset.theme);
});
const theme = localStorage.getItem("tablero.theme");
if (theme) document.documentElement.dataset.theme = theme;
renderAll();
