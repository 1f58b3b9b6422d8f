// app.js: the page: the lobby (games, rooms, seeks, who is online, create,
// seek, join, watch, chat), a room (board, seats and clocks, whose turn in words, the
// move list, the game's buttons, chat), the name kept in the browser
// with its token (a registered name logs in with its password when this
// browser has no token for it; a password is set from the name box), and
// going back into the game after a reconnect. Every
// name, chat line and piece name goes in as text (textContent).

import { Conn } from "./conn.js";
import { t, getLang, setLang } from "./i18n.js";
import { drawBoard, moveTargets, moveSquares, squareName } from "./board.js";
import { tourneyInit, renderTourneys, tourneyEvent } from "./tourney.js";

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
  ratingsGame: null, profile: null,
  pwFor: null, // a registered name this browser has no token for: ask its password
  pwOpen: false, // the form that sets the password is open
};
const ID_KEY = "tablero.id";

function stored() {
  try { return JSON.parse(localStorage.getItem(ID_KEY) || "null"); } catch { return null; }
}

const proto = location.protocol === "https:" ? "wss:" : "ws:";
const conn = new Conn(proto + "//" + location.host + "/ws", onEvent, onStatus);
conn.onOpen = onOpen;
tourneyInit({ conn, S, el, enterRoom: (id, seat) => enterRoom(id, seat), renderAll: () => renderAll() });

function onStatus(s) {
  $("#status").textContent = s === "online" ? t("status_online") : s === "offline" ? t("offline") : t("connecting");
  document.body.dataset.conn = s;
}

// Connected (first time or again): log in with the kept token, then back
// to the room this page was in.
async function onOpen() {
  const id = stored();
  S.me = null;
  if (id && id.name && id.token && !S.replaced) {
    const r = await conn.send("hello", { name: id.name, token: id.token });
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
  const fields = { name };
  if (password) fields.password = password;
  else if (id && id.name && id.name.toLowerCase() === name.toLowerCase()) fields.token = id.token;
  const r = await conn.send("hello", fields);
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
  S.roomId = id;
  S.viewOnly = false;
  location.hash = "room=" + id;
  setState(r.state);
}

function setState(st) {
  S.room = st;
  if (st.seats && st.seats.length === 2) S.ratingsGame = st.game; // the lobby's ratings show it
  S.stateAt = Date.now();
  S.sel = null;
  S.replay = null;
  S.hint = "";
  renderAll();
  autoSelect();
}

// A finished game step by step: the server plays it forward to move n
// (`state` with `at`); the page only shows what it gets.
async function replayTo(n) {
  const st = S.room;
  const total = st.history_total ?? (st.history || []).length;
  n = Math.max(0, Math.min(total, n));
  const r = await conn.send("state", { room: st.room, at: n });
  if (!r.ok) { S.notice = r.message || r.error; renderRoom(); return; }
  S.replay = { at: n, board: r.state.board };
  renderRoom();
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
  if (ev.event === "tourney_round" || ev.event === "tourney_ended") { tourneyEvent(ev); return; }
  if (ev.room && ev.room !== S.roomId) return;
  if (ev.event === "chat") { addChat(ev); return; }
  switch (ev.event) {
    case "clock":
      if (S.room) { S.room.clocks = ev.clocks; S.stateAt = Date.now(); }
      return;
    case "draw_offered":
      S.drawOffer = ev.name; refresh(); return;
    case "draw_declined":
      S.drawOffer = null; refresh(); return;
    case "welcome": case "shutdown":
      return;
    default:
      if (ev.event === "moved" || ev.event === "ended") S.drawOffer = null;
      refresh();
  }
}

const chats = { lobby: [], room: [] };
function addChat(ev) {
  const list = ev.room ? chats.room : chats.lobby;
  list.push(ev);
  if (list.length > 200) list.shift();
  renderChat();
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
  if (!myTurn()) return;
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
  }
  const r = await conn.send("moves", { room: st.room, from: sq });
  if (!r.ok || !r.moves.length) {
    S.sel = null;
    S.notice = r.ok ? (r.reason || "") : (r.message || r.error);
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

// Shape Shifter has one piece that moves: it is chosen already.
function autoSelect() {
  const st = S.room;
  if (!st || st.game !== "shifter" || !myTurn()) return;
  for (let r = 0; r < st.board.length; r++)
    for (let c = 0; c < st.board[r].length; c++) {
      const ch = st.board[r][c];
      if (ch !== "." && ch !== ch.toUpperCase()) { onSquare(squareName("shifter", r, c, st.board.length)); return; }
    }
}

async function play(move) {
  const st = S.room;
  S.sel = null;
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
  renderWho();
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
// typed) is made once per name; the lists are filled again each time.
async function renderLobby() {
  const lobby = $("#lobby");
  const key = (S.me || "") + "|" + S.games.length + "|" + getLang();
  if (lobby.dataset.key !== key) {
    lobby.dataset.key = key;
    lobby.replaceChildren(el("p", { class: "notice", role: "status" }), createForm(),
      S.me ? seekForm() : "",
      el("section", { class: "seeks" }, el("h2", {}, t("seeks")), el("ul", { class: "seek-list" })),
      el("section", { class: "rooms" }, el("h2", {}, t("rooms")), el("ul", { class: "room-list" })),
      el("section", { class: "who" }, el("h2", {}, t("online")), el("ul", { class: "who-list" }), el("p", { class: "guests" })),
      S.me ? el("section", { class: "history" }, el("h2", {}, t("history")), el("ul", { class: "room-list" })) : "",
      S.me ? ratingsFrame() : "",
      el("section", { class: "tourneys" }));
  }
  const note = lobby.querySelector(".notice");
  note.textContent = S.notice || (S.me ? "" : t("watching_as_guest"));
  note.classList.toggle("info", !S.notice);
  const [rooms, who, hist, seeks] = await Promise.all([conn.send("rooms").catch(() => null),
    conn.send("who").catch(() => null), S.me ? conn.send("history").catch(() => null) : null,
    conn.send("seeks").catch(() => null)]);
  if (seeks && seeks.ok) renderSeeks(lobby.querySelector(".seek-list"), seeks.seeks);
  if (rooms && rooms.ok) {
    const list = lobby.querySelector(".rooms .room-list");
    list.replaceChildren(...rooms.rooms.map((r) => {
      const free = r.seats.some((x) => !x.name && !x.bot);
      return el("li", { class: "room-item", "data-room": r.room },
        el("span", { class: "room-game" }, gameTitle(r.game)), " ",
        el("span", { class: "room-id" }, r.room), " ",
        el("span", { class: "room-status" }, t(r.status)), " ",
        el("span", { class: "room-seats" }, r.seats.map(seatText).join(" – ")), " ",
        S.me && free ? el("button", { type: "button", class: "join", onclick: () => enterRoom(r.room, true) }, t("join")) : null,
        el("button", { type: "button", class: "watch", onclick: () => enterRoom(r.room) }, t("watch")));
    }));
    if (!rooms.rooms.length) list.append(el("li", {}, t("no_rooms")));
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
    hl.replaceChildren(...hist.games.map((g) => el("li", { class: "room-item", "data-room": g.room },
      el("span", { class: "room-game" }, gameTitle(g.game)), " ",
      el("span", { class: "room-id" }, g.room + " #" + g.game_no), " ",
      el("span", {}, resultWords(g.result)), " ",
      el("span", { class: "room-status" }, t("n_moves", g.moves)), " ",
      el("button", { type: "button", class: "view", onclick: () => viewGame(g.room) }, t("view")))));
  }
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
  const head = el("tr", {}, ["#", t("player"), t("rating"), t("deviation"), t("won_drawn_lost")].map((h) => el("th", {}, h)));
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
  box.replaceChildren(el("h3", {}, f.name + (f.online ? " · " + t("status_online") : "")),
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
  if (!res.rated) return t("not_rated", res.unrated || "");
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
    opts.replaceChildren(...(g ? g.options : []).filter((o) => o.type !== "text").map((o) => el("label", { title: o.help || "" }, o.name + " ",
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
      opts.append(el("label", { title: o.help || "" }, o.name + " ", input));
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
  if (st.status === "playing" && st.turn === seat) ms -= Date.now() - S.stateAt;
  return ms;
}

// A result in words: "ana wins (three in a row)".
function resultWords(res) {
  if (!res) return "";
  let what = res.result === "draw" ? t("draw_result") : res.result === "solved" ? t("solved") :
    res.result === "blocked" ? t("blocked") : t("wins", res.winner_name || res.winner);
  if (res.reason) what += " (" + res.reason + ")";
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

function turnWords(st) {
  if (st.status === "ended" && st.result) return t("game_over", resultWords(st.result));
  if (st.status !== "playing") return t(st.status);
  if (myTurn()) return t("your_turn");
  const s = st.seats.find((x) => x.seat === st.turn);
  return s && (s.name || s.bot) ? t("to_move_named", st.turn, s.name || "bot " + s.bot) : t("to_move", st.turn);
}

function renderRoom() {
  const st = S.room;
  if (!st) return;
  const box = $("#room");
  const mine = seatOfMe(st);
  const hist = st.history || [];
  const since = st.history_since || 0;
  const at = S.replay ? S.replay.at : null;
  const shown = at === null ? hist.length : at - since;
  const last = shown > 0 && hist[shown - 1] ? hist[shown - 1].move : null;
  const view = { lit: new Set(), chosen: new Set(), last: new Set(moveSquares(st.game, last)) };
  if (S.sel) {
    const n = S.sel.prefix.length;
    view.chosen.add(S.sel.src);
    S.sel.prefix.forEach((p) => view.chosen.add(p));
    for (const c of S.sel.cands)
      if (c.seq.length > n && S.sel.prefix.every((p, i) => c.seq[i] === p)) view.lit.add(c.seq[n]);
  }
  const seats = el("div", { class: "seats" }, st.seats.map((s) => el("div", {
    class: "seat" + (st.turn === s.seat ? " to-move" : ""), "data-seat": s.seat },
  el("span", { class: "seat-name" }, s.seat + ": "), el("span", { class: "player" }, seatText(s)),
  st.clocks ? el("span", { class: "clock", "data-clock": s.seat }, fmtClock(clockLeft(s.seat))) : null)));
  const buttons = el("div", { class: "actions" });
  const b = (key, fn, cls) => buttons.append(el("button", { type: "button", class: cls || key, onclick: fn }, t(key)));
  const playing = st.status === "playing" || st.status === "adjourned";
  if (mine >= 0) {
    if (st.seats.length === 2) {
      if (playing) {
        b("resign", () => act("resign"));
        if (S.drawOffer && S.drawOffer !== S.me) {
          b("accept_draw", () => act("draw", { action: "accept" }));
          b("decline_draw", () => act("draw", { action: "decline" }));
        } else b("offer_draw", () => act("draw", { action: "offer" }));
        if (st.seats.some((s, i) => i !== mine && s.name && !s.connected)) b("claim", () => act("claim"));
      }
    } else {
      b("undo", () => act("undo"));
      b("restart", () => act("restart"));
      if (playing) b("hint", () => act("hint"));
      if (st.status === "ended" && st.options && st.options.level != null) b("next_level", () => act("next"));
    }
    if (st.status === "ended") b("rematch", () => act("rematch"));
  }
  b("save", save);
  if (!S.viewOnly) b("leave", () => act("leave"));
  b("back", () => { S.room = null; S.roomId = null; S.viewOnly = false; location.hash = ""; renderAll(); });
  // A move may be typed too (the keyboard's way, and the game's own
  // notation with its error sentences).
  const typed = el("input", { name: "move", autocomplete: "off", maxlength: 64, "aria-label": t("moves") });
  const moveForm = myTurn() ? el("form", { class: "move-form", onsubmit: (e) => {
    e.preventDefault();
    if (typed.value.trim()) play(typed.value.trim());
  } }, typed, el("button", { type: "submit" }, t("play"))) : "";
  const moves = el("ol", { class: "moves", start: since + 1 },
    hist.map((h, i) => el("li", { title: h.text || "", class: at !== null && i === shown - 1 ? "current" : null }, h.move)));
  const total = st.history_total ?? hist.length;
  const step = (key, n) => el("button", { type: "button", class: "step-" + key, onclick: () => replayTo(n) }, t(key));
  const cur = at === null ? total : at;
  const replay = st.status === "ended" && total > 0 ? el("div", { class: "replay" },
    el("span", {}, t("replay") + ": "), step("first", 0), step("prev", cur - 1), step("next", cur + 1), step("last", total),
    el("span", { class: "replay-at" }, t("move_of", cur, total))) : "";
  box.replaceChildren(
    el("h2", { class: "room-title" }, gameTitle(st.game) + " · " + st.room +
      (st.options && st.options.level != null ? " · " + t("level", st.options.level) : "")),
    el("p", { class: "turn", role: "status", "aria-live": "polite" }, turnWords(st)),
    st.status === "ended" && st.result && st.result.rated !== undefined ? el("p", { class: "rating-change" }, ratedWords(st.result)) : "",
    el("p", { class: "notice", role: "alert" }, S.notice || (S.drawOffer && S.drawOffer !== S.me ? t("draw_offered", S.drawOffer) : "")),
    S.hint ? el("p", { class: "hint" }, S.hint) : "",
    seats,
    el("div", { class: "board-wrap" }, drawBoard(st.game, S.replay ? S.replay.board : st.board, view, onSquare)),
    replay,
    moveForm,
    buttons,
    el("section", { class: "movelist" }, el("h3", {}, t("moves")), moves),
    el("p", { class: "watchers" }, t("watchers", st.watchers || 0)),
  );
  moves.scrollTop = moves.scrollHeight;
}

function renderChat() {
  const box = $("#chat");
  const inRoom = !!S.room;
  const list = inRoom ? chats.room : chats.lobby;
  const ul = el("ul", { class: "chat-list", "aria-live": "polite" },
    list.map((m) => el("li", {}, el("b", { class: "from" }, (m.from || "?") + ": "), el("span", { class: "text" }, m.text))));
  const input = el("input", { name: "chat", maxlength: 500, autocomplete: "off", "aria-label": t("chat"), disabled: !S.me });
  const form = el("form", { class: "chat-form", onsubmit: async (e) => {
    e.preventDefault();
    const text = input.value;
    if (!text.trim()) return;
    const r = await conn.send("chat", inRoom ? { room: S.roomId, text } : { text });
    if (r.ok) input.value = ""; else { S.notice = r.message; renderAll(); }
  } }, input, el("button", { type: "submit", disabled: !S.me }, t("send")));
  box.replaceChildren(el("h2", {}, inRoom ? t("room_chat") : t("lobby_chat")), ul, form);
  ul.scrollTop = ul.scrollHeight;
}

// Clocks count down between the server's updates.
setInterval(() => {
  if (!S.room || !S.room.clocks) return;
  document.querySelectorAll("[data-clock]").forEach((e) => { e.textContent = fmtClock(clockLeft(e.dataset.clock)); });
}, 250);

// The lobby's rooms change without events: look again now and then.
setInterval(() => { if (!S.room && conn.open && !document.hidden) renderLobby(); }, 5000);

$("#lang").addEventListener("click", () => { setLang(getLang() === "es" ? "en" : "es"); renderAll(); });
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
