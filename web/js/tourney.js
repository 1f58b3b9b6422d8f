// tourney.js: tournaments in the lobby: the list (join, start for the
// organiser, standings), a small form to create one, the standings table
// with the round's pairings, and what a tourney_round or tourney_ended
// event does (the player is taken to the room of the game, or told).
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

// The standings table and the round's pairings of a `tourney show` reply.
function detail(r) {
  const { el, S } = ctx;
  const tr = r.tourney || {};
  const head = el("tr", {}, el("th", {}, "#"), el("th", {}, t("player")), el("th", {}, t("points")),
    el("th", {}, r.tiebreak || ""), el("th", {}, t("wdl")));
  const rows = (r.standings || []).map((s) => el("tr", { class: "standing", "data-name": s.name },
    el("td", {}, String(s.place)), el("td", { class: "st-name" }, s.name),
    el("td", { class: "st-points" }, pointsText(s.points_halves)),
    el("td", { class: "st-tb" }, quartersText(s.tiebreak_quarters)),
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
  sec.replaceChildren(el("h2", {}, t("tourneys")), S.me ? createForm() : "",
    el("ul", { class: "tourney-list" }, items.length ? items : el("li", {}, t("no_tourneys"))),
    shown && shown.ok ? detail(shown) : "");
}

// A tournament's event: a new round takes the player to its room (unless
// a game is being played here), the end shows the standings.
export function tourneyEvent(ev) {
  const { S } = ctx;
  S.tourneyShown = ev.tourney;
  if (ev.event === "tourney_round" && ev.room) {
    const busy = S.room && S.room.status === "playing" && S.roomId !== ev.room;
    S.notice = t("tourney_round_notice", ev.tourney, ev.round, ev.room, ev.opponent);
    if (!busy) { ctx.enterRoom(ev.room, true); return; }
  } else if (ev.event === "tourney_round") {
    S.notice = t("tourney_bye_notice", ev.tourney, ev.round);
  } else {
    S.notice = t("tourney_over_notice", ev.tourney);
  }
  ctx.renderAll();
}
