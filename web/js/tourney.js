// tourney.js: tournaments in the lobby: the list (join, start for the
// organiser, standings), a small form to create one, the standings table
// with the tie-breaks by name, the crosstable and the round's pairings,
// and what a tourney_round, tourney_result, tourney_joined or
// tourney_ended event does (the player is taken to the room of the game,
// or told).
// Names go in as text (textContent), as everywhere on the page.

import { t } from "./i18n.js";

// ctx: { conn, S, el, enterRoom, renderAll } from app.js.
let ctx = null;

export function tourneyInit(c) {
  ctx = c;
}

function pointsText(halves) {
  return halves % 2 === 0 ? String(halves / 2) : (halves - 1) / 2 + "½";
}

function quartersText(q) {
  return String(q / 4);
}

// W-D-L of the games played, the byes apart ("0-0-0 +1 bye"): a bye
// scores a win's point without being a game won.
function wdlText(s) {
  const byes = s.byes || 0;
  const wdl = `${s.wins}-${s.draws}-${s.losses}`;
  return byes === 0 ? wdl : wdl + " " + (byes === 1 ? t("one_bye") : t("n_byes", byes));
}

// Where a tournament is: its round of all, or before the start the
// rounds planned with the players so far.
function roundText(x) {
  if (x.round > 0) return t("round_n", x.round, x.rounds);
  return x.rounds > 0 ? t("rounds_planned", x.rounds) : "";
}

// A tie-break's name in the page's language.
function tbName(name) {
  const k = "tb_" + name;
  const s = t(k);
  return s === k ? name : s;
}

// One crosstable cell: the opponent's place, w or b, and the result from
// the row's side ("4w1", "2b=", "3w+" a forfeit won, "1b*" being played).
function crossCell(c) {
  if (c.bye) return "bye";
  let r = c.result === "1/2" ? "=" : c.result === "1" ? "1" : c.result === "0" ? "0" : "*";
  if (c.forfeit) r = c.result === "1" ? "+" : "−";
  return `${c.opponent_place}${c.colour === "black" ? "b" : "w"}${r}`;
}

// The crosstable of a `tourney show` reply: a row per player in the
// standings' order, a column per round.
function crosstable(r) {
  const { el } = ctx;
  const rows = r.crosstable || [];
  const n = (r.tourney || {}).round || 0;
  if (!rows.length || n <= 0) return null;
  const head = el("tr", {}, el("th", {}, "#"), el("th", {}, t("player")),
    Array.from({ length: n }, (_, i) => el("th", {}, t("round_short", i + 1))), el("th", {}, t("points")));
  const body = rows.map((row) => el("tr", { class: "cross-row", "data-name": row.name },
    el("td", {}, String(row.place)), el("td", { class: "st-name" }, row.name),
    Array.from({ length: n }, (_, i) => {
      const c = (row.rounds || []).find((x) => x.round === i + 1);
      return el("td", { class: "cross-cell", title: c && c.opponent ? c.opponent : "" }, c ? crossCell(c) : "");
    }),
    el("td", { class: "st-points" }, pointsText(row.points_halves))));
  return el("div", { class: "crosstable-box" }, el("h3", {}, t("crosstable")),
    el("p", { class: "cross-key" }, t("cross_key")),
    el("table", { class: "crosstable" }, el("thead", {}, head), el("tbody", {}, body)));
}

// The tie-breaks by name in order, and each tie on points with what
// broke it.
function tieNotes(r) {
  const { el } = ctx;
  const order = r.tiebreaks || [];
  if (!order.length) return null;
  const st = r.standings || [];
  const ties = st.slice(0, -1).filter((s) => s.above_next_by && s.above_next_by !== "points")
    .map((s) => el("li", { class: "tie-note" }, t("above_on", s.name, st[s.place].name, tbName(s.above_next_by))));
  return el("div", { class: "tiebreaks" }, el("p", { class: "tiebreak-order" }, t("tiebreak_order", order.map(tbName).join(", "))),
    ties.length ? el("ul", {}, ties) : null);
}

// The standings table and the round's pairings of a `tourney show` reply.
function detail(r) {
  const { el, S } = ctx;
  const tr = r.tourney || {};
  const tbs = (r.tiebreaks || [r.tiebreak || ""]).filter((x) => x !== "seed");
  const head = el("tr", {}, el("th", {}, "#"), el("th", {}, t("player")), el("th", {}, t("points")),
    tbs.map((x) => el("th", {}, tbName(x))), el("th", {}, t("wdl")));
  const rows = (r.standings || []).map((s) => el("tr", { class: "standing", "data-name": s.name },
    el("td", {}, String(s.place)), el("td", { class: "st-name" }, s.name),
    el("td", { class: "st-points" }, pointsText(s.points_halves)),
    tbs.map((x, i) => el("td", { class: i === 0 ? "st-tb" : "st-tb2" },
      i === 0 ? quartersText(s.tiebreak_quarters) : String((s.tiebreaks || {})[x] ?? ""))),
    el("td", { class: "st-wdl" }, wdlText(s))));
  const pairs = (r.pairings || []).map((p) => el("li", { class: "pairing" },
    p.white, p.black ? " – " + p.black : " " + t("bye"), " ",
    p.room ? el("span", { class: "room-id" }, p.room) : null, " ",
    // A bye's result is the bye itself, said already.
    p.black ? el("span", { class: "pairing-result" }, p.result || t("playing")) : null,
    p.room && !p.result && S.me && (p.white === S.me || p.black === S.me)
      ? el("button", { type: "button", class: "go", onclick: () => ctx.enterRoom(p.room, true) }, t("tourney_go"))
      : null));
  return el("div", { class: "tourney-detail", "data-tourney": tr.id },
    el("h3", {}, t("standings_of", tr.id, t(tr.status || ""))),
    el("table", { class: "standings" }, el("thead", {}, head), el("tbody", {}, rows)),
    tieNotes(r), crosstable(r),
    pairs.length ? el("h3", {}, t("round_n", r.pairings_round, tr.rounds)) : null,
    pairs.length ? el("ul", { class: "pairings" }, pairs) : null);
}

async function act(fields) {
  const r = await ctx.conn.send("tourney", fields);
  if (!r.ok) ctx.S.notice = r.message || r.error;
  else if (r.tourney) ctx.S.tourneyShown = r.tourney.id;
  ctx.renderAll();
}

// The create form: a two-player game, the format and the rounds.
function createForm() {
  const { el, S } = ctx;
  const games = S.games.filter((g) => g.seats === 2);
  const game = el("select", { name: "t_game", "aria-label": t("game") },
    games.map((g) => el("option", { value: g.name }, g.title)));
  const format = el("select", { name: "t_format", "aria-label": t("format") },
    el("option", { value: "roundrobin" }, t("roundrobin")), el("option", { value: "swiss" }, t("swiss")));
  const rounds = el("input", { type: "number", name: "t_rounds", min: 1, max: 20, placeholder: t("rounds") });
  const form = el("form", { class: "tourney-create" }, game, " ", format, " ", rounds, " ",
    el("button", { type: "submit", class: "tourney-create-btn" }, t("tourney_create")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const options = { format: format.value };
    if (format.value === "swiss" && rounds.value) options.rounds = String(rounds.value);
    act({ do: "create", game: game.value, options });
  });
  return form;
}

// Fill the lobby's tournaments section.
export async function renderTourneys(sec) {
  const { el, S, conn } = ctx;
  const list = await conn.send("tourney", { do: "list" }).catch(() => null);
  if (!list || !list.ok) return;
  const shown = S.tourneyShown ? await conn.send("tourney", { do: "show", tourney: S.tourneyShown }).catch(() => null) : null;
  const items = list.tourneys.slice().reverse().map((x) => el("li", { class: "tourney-item", "data-tourney": x.id },
    el("span", { class: "room-game" }, x.game), " ", el("span", { class: "room-id" }, x.id), " ",
    el("span", {}, t(x.format)), " ",
    el("span", { class: "room-status" }, t(x.status)), " ",
    el("span", { class: "tourney-round" }, roundText(x)), " ",
    el("span", {}, t("n_players", x.nplayers)), " ",
    S.me && x.status === "open" ? el("button", { type: "button", class: "tourney-join", onclick: () => act({ do: "join", tourney: x.id }) }, t("join")) : null,
    S.me && x.status === "open" && x.organiser === S.me ? el("button", { type: "button", class: "tourney-start", onclick: () => act({ do: "start", tourney: x.id }) }, t("start")) : null,
    el("button", { type: "button", class: "tourney-show", onclick: () => { S.tourneyShown = x.id; ctx.renderAll(); } }, t("standings"))));
  // The heading and the create form are made once for the section (what
  // is chosen or typed in the form stays through the lobby's refresh
  // every few seconds); the list and the standings are made anew.
  if (!sec.querySelector(".tourney-list")) {
    sec.replaceChildren(el("h2", {}, t("tourneys")), S.me ? createForm() : "",
      el("ul", { class: "tourney-list" }), el("div", { class: "tourney-shown" }));
  }
  sec.querySelector(".tourney-list").replaceChildren(...(items.length ? items : [el("li", {}, t("no_tourneys"))]));
  sec.querySelector(".tourney-shown").replaceChildren(shown && shown.ok ? detail(shown) : "");
}

// A tournament's event: a new round takes the player to its room (unless
// a game is being played here), the end shows the standings.
export function tourneyEvent(ev) {
  const { S } = ctx;
  S.tourneyShown = ev.tourney;
  if (ev.event === "tourney_joined") {
    S.notice = t("tourney_joined_notice", ev.name, ev.tourney, ev.nplayers);
  } else if (ev.event === "tourney_result") {
    S.notice = ev.winner === S.me ? t("tourney_forfeit_win", ev.tourney, ev.round, ev.winner === ev.white ? ev.black : ev.white, ev.room)
      : t("tourney_forfeit_loss", ev.tourney, ev.round, ev.room);
  } else if (ev.event === "tourney_round" && ev.room) {
    const busy = S.room && S.room.status === "playing" && S.roomId !== ev.room;
    S.notice = ev.pending ? t("tourney_waiting_notice", ev.tourney, ev.round, ev.room, ev.opponent, ev.left)
      : t("tourney_round_notice", ev.tourney, ev.round, ev.room, ev.opponent);
    if (!busy) { ctx.enterRoom(ev.room, true); return; }
  } else if (ev.event === "tourney_round") {
    S.notice = t("tourney_bye_notice", ev.tourney, ev.round);
  } else {
    S.notice = t("tourney_over_notice", ev.tourney);
  }
  ctx.renderAll();
}
