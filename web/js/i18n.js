// i18n.js: the page's words in English and Spanish. t(key, ...args)
// fills {0}, {1}... with args (as text: the page never treats them as
// markup). The server's own sentences come with their msgid and args
// (docs/PROTOCOL.md, "Sentences in other languages"): localize() puts the
// Spanish in their place, from sentences_es.js, which a page loads only
// once Spanish is chosen (an English page's first load stays as small).

const words = {
  en: {
    title: "tablero", lobby: "Lobby", games: "Games", rooms: "Rooms",
    online: "Online", chat: "Chat", send: "Send", name: "Your name",
    play_as: "Pick a name", login: "Enter", logout: "Forget me",
    registered: "{0} is registered: enter its password (set on the machine that made it).",
    password: "Password", set_password: "Set a password", old_password: "Current password (if any)",
    new_password: "New password (8+ characters)", save_password: "Set password",
    password_set: "Password set: log in with it from any browser or device.", other_name: "Another name",
    watching_as_guest: "Watching as a guest. Pick a name to play or chat.",
    hello_as: "Playing as {0}", create: "Create a room", game: "Game",
    bot: "Bot", none: "none", clock: "Clock (min)", increment: "Increment (s)",
    private: "Private", join: "Join", watch: "Watch", leave: "Leave", rejoin: "Rejoin", open_room: "Open",
    no_rooms: "No open rooms yet: create one.", waiting: "waiting",
    playing: "playing", ended: "ended", adjourned: "adjourned",
    free_seat: "free", your_turn: "Your turn", to_move: "{0} to move",
    to_move_named: "{0} ({1}) to move", game_over: "Game over: {0}",
    wins: "{0} wins", draw_result: "draw", solved: "solved", blocked: "blocked",
    // the games' seats (the protocol's words: seatWord in app.js)
    "seat_white": "white", "seat_black": "black", "seat_player 1": "player 1",
    "seat_player 2": "player 2", "seat_player": "player",
    resign: "Resign", offer_draw: "Offer a draw", accept_draw: "Accept draw",
    decline_draw: "Decline", claim: "Claim", rematch: "Rematch", undo: "Undo",
    restart: "Restart", hint: "Hint", next_level: "Next level", pass: "Pass",
    save: "Save", load: "Load a file", moves: "Moves", replay: "Replay",
    history: "My games", back: "Back to the lobby", draw_offered: "{0} offers a draw",
    connecting: "Connecting…", offline: "Offline: reconnecting…", status_online: "Online",
    theme: "Dark/light", language: "Español", guests: "Guests: {0}",
    watchers: "{0} watching", hint_is: "Hint: {0}", hint_lost: "No win is left from here.",
    hint_unknown: "The solver found no answer in time.", select_piece: "Select a piece",
    room_chat: "Room chat", lobby_chat: "Lobby chat", seat_gone: "(gone)",
    first: "first", prev: "back", next: "forward", last: "last", play: "Play", level: "level {0}", view: "View", n_moves: "{0} moves", move_of: "move {0} of {1}",
    ratings: "Ratings", player: "Player", rating: "Rating", deviation: "Deviation", won_drawn_lost: "Won–drawn–lost",
    provisional: "Provisional (?)", no_ratings: "No rated games yet.", no_rated_games: "No rated games yet.",
    member_since: "Member since {0}, last seen {1}", playing_now: "Playing now: {0}",
    rated_line: "Rated ({0}): {1}", not_rated: "Not rated: {0}",
    record_level: "{0} solved, highest level {1} ({2} retries)", record_solved: "{0} solved, fewest left {1}",
    seeks: "Seeks", seek: "Seek an opponent", rated: "Rated", casual: "casual", rated_word: "rated",
    range: "Ratings from–to", no_seeks: "Nobody is seeking a game: seek one.", withdraw: "Withdraw",
    untimed: "untimed", seeking: "Seeking {0}: the board opens when someone matches.",
    tourneys: "Tournaments", no_tourneys: "No tournaments yet.", tourney_create: "Create a tournament",
    format: "Format", roundrobin: "round robin", swiss: "Swiss", rounds: "rounds", open: "open",
    n_players: "players: {0}", start: "Start", standings: "Standings", standings_of: "Standings of {0} ({1})",
    points: "Points", wdl: "W-D-L", bye: "has the bye", round_n: "Round {0} of {1}", tourney_go: "Go",
    one_bye: "+1 bye", n_byes: "+{0} byes", rounds_planned: "not started, {0} rounds planned",
    tourney_round_notice: "Tournament {0}, round {1}: your game is in {2} against {3}.",
    tourney_bye_notice: "Tournament {0}, round {1}: you have the bye.",
    tourney_over_notice: "Tournament {0} is over: the standings are below.",
    ask_resign: "Resign this game? Your opponent wins.", ask_leave: "Leave this game? Leaving a running game resigns it: your opponent wins.",
    ask_rated: "The game is rated: your rating will change.", cancel: "Cancel",
    amazons_move: "Your turn: move the amazon from {0} to a lit square.",
    amazons_shoot: "Now shoot an arrow from {0}: click a lit square (or the amazon, to move it elsewhere).",
    arrow_miss: "The arrow flies in a straight line from the amazon to a lit square.",
    score: "Score", ataxx_keys: "● clone (the piece stays)  ◻ jump (the piece leaves its square)",
    not_your_turn: "It is not your turn: {0} is to move.", watching_no_play: "You are watching this game: watchers do not move.",
    draw_pending: "You offered a draw: waiting for the answer.", draw_declined: "{0} declined the draw.",
    draw_offered_btn: "Draw offered…", takeback: "Take back", accept_takeback: "Allow take-back", decline_takeback: "Refuse take-back",
    takeback_offered: "{0} asks to take back their last move.", takeback_pending: "You asked to take back your last move: waiting for the answer.",
    takeback_declined: "{0} declined the take-back.", takeback_asked_btn: "Take-back asked…",
    flip: "Flip board",
    move_n: "move {0}: {1}", moves_keys: "Moves: arrow keys step through the game, End comes back to now",
    back_to_game: "Back to the game", viewing_no_move: "This is an earlier position: press End or “Back to the game” to move.",
    pc_white: "white piece", pc_black: "black piece", pc_blocked: "blocked square", pc_p1: "player 1's stone", pc_p2: "player 2's stone",
    pc_white_amazon: "white amazon", pc_black_amazon: "black amazon", pc_arrow: "arrow", pc_peg: "peg", pc_peg_goal: "peg on the goal",
    pc_goal: "empty goal hole", pc_hole: "empty hole", pc_none: "no hole", pc_empty: "empty", pc_shifter: "{0}", pc_shifter_active: "{0}, the active piece",
    sq_chosen: "chosen", sq_legal: "a legal move", sq_not_legal: "not a legal move",
    board_keys: "Board: arrow keys move between squares, Enter chooses",
    sound_on: "Sound: on", sound_off: "Sound: off",
    legend: "Pieces", level_won: "Level {0} won!", next_level_go: "On to level {0}",
    tourney_waiting_notice: "Tournament {0}, round {1}: your game in {2} against {3} is waiting for you ({4} s left).",
    tourney_forfeit_win: "Tournament {0}, round {1}: {2} did not sit down in {3}: you win by forfeit.",
    tourney_forfeit_loss: "Tournament {0}, round {1}: you did not sit down in {2}: you lose by forfeit.",
    tourney_joined_notice: "{0} joined your tournament {1} ({2} players now).",
    tiebreak_order: "Tie-breaks, in order: {0}.", above_on: "{0} is above {1} on {2}.",
    tb_Buchholz: "Buchholz", "tb_Sonneborn-Berger": "Sonneborn-Berger", tb_wins: "wins", tb_seed: "seed",
    crosstable: "Crosstable", cross_key: "Each round: the opponent's place, w or b, the result (1 0 =, + − forfeits, * playing).",
    round_short: "R{0}",
    accept: "Accept", decline: "Decline", dismiss: "Dismiss",
    msg_from: "Message from {0} ({1}): {2}", told_from: "{0} to you: {1}",
    invited_by: "{0} invites you to room {1} ({2}).",
    challenged_by: "{0} challenges you to {1} ({2}, {3}).",
    challenge_over_declined: "Your challenge to {0} ({1}) is over: they declined.",
    challenge_over_expired: "Your challenge to {0} ({1}) is over: no answer in time.",
    challenge_over_gone: "Your challenge to {0} ({1}) is over: one of you left.",
    challenge_sent: "You challenge {0} to {1}: the answer comes within {2} s.",
    challenge_to: "Challenge to {0}", clock_stopped: "Clocks stopped: the server lost a player's connection; nobody's time runs.",
    premove_picking: "It is not your turn: {0} is to move. Premove: choose where it goes (Escape cancels).",
    premove_set: "It is not your turn: {1} is to move. Premove {0}: played as soon as they have moved, if still legal (Escape or a click elsewhere cancels it).",
    premove_cancelled: "Premove cancelled.", premove_played: "Premove {0} played.",
    premove_dropped: "Premove {0} dropped: not legal after your opponent's move.", sq_premove: "premove",
    deviation_short: "RD", wdl_short: "W–D–L",
    room_rated: "Rated game", room_unrated: "Unrated game", room_unrated_why: "Unrated game: {0}", room_tourney: "Tournament {0}",
  },
  es: {
    title: "tablero", lobby: "Sala", games: "Juegos", rooms: "Mesas",
    online: "Conectados", chat: "Charla", send: "Enviar", name: "Tu nombre",
    play_as: "Elige un nombre", login: "Entrar", logout: "Olvidarme",
    registered: "{0} está registrado: escribe su contraseña (puesta en el equipo que lo creó).",
    password: "Contraseña", set_password: "Poner contraseña", old_password: "Contraseña actual (si hay)",
    new_password: "Nueva contraseña (8+ caracteres)", save_password: "Guardar contraseña",
    password_set: "Contraseña guardada: entra con ella desde cualquier navegador o equipo.", other_name: "Otro nombre",
    watching_as_guest: "Miras como invitado. Elige un nombre para jugar o charlar.",
    hello_as: "Juegas como {0}", create: "Crear una mesa", game: "Juego",
    bot: "Bot", none: "ninguno", clock: "Reloj (min)", increment: "Incremento (s)",
    private: "Privada", join: "Unirse", watch: "Mirar", leave: "Salir", rejoin: "Volver", open_room: "Abrir",
    no_rooms: "Aún no hay mesas abiertas: crea una.", waiting: "esperando",
    playing: "jugando", ended: "terminada", adjourned: "aplazada",
    free_seat: "libre", your_turn: "Te toca", to_move: "Mueve {0}",
    to_move_named: "Mueve {0} ({1})", game_over: "Fin de la partida: {0}",
    wins: "gana {0}", draw_result: "tablas", solved: "resuelto", blocked: "bloqueado",
    "seat_white": "blanco", "seat_black": "negro", "seat_player 1": "jugador 1",
    "seat_player 2": "jugador 2", "seat_player": "jugador",
    resign: "Abandonar", offer_draw: "Ofrecer tablas", accept_draw: "Aceptar tablas",
    decline_draw: "Rechazar", claim: "Reclamar", rematch: "Revancha", undo: "Deshacer",
    restart: "Reiniciar", hint: "Pista", next_level: "Siguiente nivel", pass: "Pasar",
    save: "Guardar", load: "Cargar un archivo", moves: "Jugadas", replay: "Repetición",
    history: "Mis partidas", back: "Volver a la sala", draw_offered: "{0} ofrece tablas",
    connecting: "Conectando…", offline: "Sin conexión: reconectando…", status_online: "Conectado",
    theme: "Oscuro/claro", language: "English", guests: "Invitados: {0}",
    watchers: "{0} mirando", hint_is: "Pista: {0}", hint_lost: "Ya no se puede ganar.",
    hint_unknown: "El buscador no halló respuesta a tiempo.", select_piece: "Elige una pieza",
    room_chat: "Charla de la mesa", lobby_chat: "Charla de la sala", seat_gone: "(ausente)",
    first: "inicio", prev: "atrás", next: "adelante", last: "final", play: "Jugar", level: "nivel {0}", view: "Ver", n_moves: "{0} jugadas", move_of: "jugada {0} de {1}",
    ratings: "Clasificación", player: "Jugador", rating: "Puntos", deviation: "Desviación", won_drawn_lost: "Ganadas–tablas–perdidas",
    provisional: "Provisionales (?)", no_ratings: "Aún no hay partidas puntuadas.", no_rated_games: "Aún no hay partidas puntuadas.",
    member_since: "Miembro desde {0}, visto por última vez {1}", playing_now: "Jugando ahora: {0}",
    rated_line: "Puntuada ({0}): {1}", not_rated: "No puntuada: {0}",
    record_level: "{0} resueltos, nivel más alto {1} ({2} reintentos)", record_solved: "{0} resueltos, mínimo de piezas {1}",
    seeks: "Buscan rival", seek: "Buscar rival", rated: "Puntuable", casual: "amistosa", rated_word: "puntuable",
    range: "Puntuación de–a", no_seeks: "Nadie busca partida: busca tú.", withdraw: "Retirar",
    untimed: "sin reloj", seeking: "Buscando {0}: el tablero se abre cuando alguien coincida.",
    tourneys: "Torneos", no_tourneys: "Aún no hay torneos.", tourney_create: "Crear un torneo",
    format: "Sistema", roundrobin: "todos contra todos", swiss: "suizo", rounds: "rondas", open: "abierto",
    n_players: "jugadores: {0}", start: "Empezar", standings: "Clasificación", standings_of: "Clasificación de {0} ({1})",
    points: "Puntos", wdl: "G-T-P", bye: "descansa", round_n: "Ronda {0} de {1}", tourney_go: "Ir",
    one_bye: "+1 descanso", n_byes: "+{0} descansos", rounds_planned: "no empezado, {0} rondas previstas",
    tourney_round_notice: "Torneo {0}, ronda {1}: tu partida es en {2} contra {3}.",
    tourney_bye_notice: "Torneo {0}, ronda {1}: descansas (cuenta como victoria).",
    tourney_over_notice: "El torneo {0} ha terminado: la clasificación está abajo.",
    ask_resign: "¿Abandonar esta partida? Gana tu rival.", ask_leave: "¿Salir de esta partida? Salir de una partida en curso es abandonarla: gana tu rival.",
    ask_rated: "La partida es puntuable: tu puntuación cambiará.", cancel: "Cancelar",
    amazons_move: "Te toca: mueve la amazona de {0} a una casilla marcada.",
    amazons_shoot: "Ahora dispara una flecha desde {0}: pulsa una casilla marcada (o la amazona, para moverla a otra).",
    arrow_miss: "La flecha vuela en línea recta desde la amazona hasta una casilla marcada.",
    score: "Puntos", ataxx_keys: "● clonar (la pieza se queda)  ◻ saltar (la pieza deja su casilla)",
    not_your_turn: "No es tu turno: mueve {0}.", watching_no_play: "Miras esta partida: quien mira no mueve.",
    draw_pending: "Has ofrecido tablas: esperando la respuesta.", draw_declined: "{0} rechazó las tablas.",
    draw_offered_btn: "Tablas ofrecidas…", takeback: "Deshacer jugada", accept_takeback: "Permitir deshacer", decline_takeback: "No permitir",
    takeback_offered: "{0} pide deshacer su última jugada.", takeback_pending: "Has pedido deshacer tu última jugada: esperando la respuesta.",
    takeback_declined: "{0} rechazó deshacer la jugada.", takeback_asked_btn: "Deshacer pedido…",
    flip: "Girar tablero",
    move_n: "jugada {0}: {1}", moves_keys: "Jugadas: las flechas recorren la partida, Fin vuelve al presente",
    back_to_game: "Volver a la partida", viewing_no_move: "Esta es una posición anterior: pulsa Fin o «Volver a la partida» para mover.",
    pc_white: "pieza blanca", pc_black: "pieza negra", pc_blocked: "casilla bloqueada", pc_p1: "piedra del jugador 1", pc_p2: "piedra del jugador 2",
    pc_white_amazon: "amazona blanca", pc_black_amazon: "amazona negra", pc_arrow: "flecha", pc_peg: "ficha", pc_peg_goal: "ficha en la meta",
    pc_goal: "meta vacía", pc_hole: "agujero vacío", pc_none: "sin agujero", pc_empty: "vacía", pc_shifter: "{0}", pc_shifter_active: "{0}, la pieza activa",
    sq_chosen: "elegida", sq_legal: "jugada legal", sq_not_legal: "jugada no legal",
    board_keys: "Tablero: las flechas mueven entre casillas, Intro elige",
    sound_on: "Sonido: sí", sound_off: "Sonido: no",
    legend: "Piezas", level_won: "¡Nivel {0} superado!", next_level_go: "Al nivel {0}",
    tourney_waiting_notice: "Torneo {0}, ronda {1}: tu partida en {2} contra {3} te espera (quedan {4} s).",
    tourney_forfeit_win: "Torneo {0}, ronda {1}: {2} no se sentó en {3}: ganas por incomparecencia.",
    tourney_forfeit_loss: "Torneo {0}, ronda {1}: no te sentaste en {2}: pierdes por incomparecencia.",
    tourney_joined_notice: "{0} se ha apuntado a tu torneo {1} (ahora {2} jugadores).",
    tiebreak_order: "Desempates, por orden: {0}.", above_on: "{0} queda por delante de {1} por {2}.",
    tb_Buchholz: "Buchholz", "tb_Sonneborn-Berger": "Sonneborn-Berger", tb_wins: "victorias", tb_seed: "cabeza de serie",
    crosstable: "Cuadro cruzado", cross_key: "Cada ronda: puesto del rival, b o n, resultado (1 0 =, + − incomparecencias, * en juego).",
    round_short: "R{0}",
    accept: "Aceptar", decline: "Rechazar", dismiss: "Quitar",
    msg_from: "Mensaje de {0} ({1}): {2}", told_from: "{0} te dice: {1}",
    invited_by: "{0} te invita a la mesa {1} ({2}).",
    challenged_by: "{0} te reta a {1} ({2}, {3}).",
    challenge_over_declined: "Tu reto a {0} ({1}) ha terminado: lo rechazó.",
    challenge_over_expired: "Tu reto a {0} ({1}) ha terminado: sin respuesta a tiempo.",
    challenge_over_gone: "Tu reto a {0} ({1}) ha terminado: uno de los dos se fue.",
    challenge_sent: "Retas a {0} a {1}: la respuesta llega en {2} s.",
    challenge_to: "Retar a {0}", clock_stopped: "Relojes parados: el servidor perdió la conexión de un jugador; no corre el tiempo de nadie.",
    premove_picking: "No es tu turno: mueve {0}. Premovimiento: elige adónde va (Escape lo anula).",
    premove_set: "No es tu turno: mueve {1}. Premovimiento {0}: se juega en cuanto haya movido, si sigue siendo legal (Escape o un clic fuera lo anula).",
    premove_cancelled: "Premovimiento anulado.", premove_played: "Premovimiento {0} jugado.",
    premove_dropped: "Premovimiento {0} descartado: no es legal tras la jugada del rival.", sq_premove: "premovimiento",
    deviation_short: "Desv.", wdl_short: "G–T–P",
    room_rated: "Partida puntuable", room_unrated: "Partida amistosa", room_unrated_why: "Partida amistosa: {0}", room_tourney: "Torneo {0}",
  },
};

let lang = localStorage.getItem("tablero.lang") ||
  ((navigator.language || "en").startsWith("es") ? "es" : "en");

export function t(key, ...args) {
  const s = (words[lang] && words[lang][key]) || words.en[key] || key;
  return s.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ""));
}

export function getLang() { return lang; }

// The Spanish of the server's sentences, msgid to format: empty until
// loadSentences() has fetched sentences_es.js (until then, and if it
// fails, the server's English shows).
let sentencesEs = {};
let loading = null;

export function loadSentences() {
  if (!loading) {
    loading = import("./sentences_es.js")
      .then((m) => { sentencesEs = m.es; patterns = null; })
      .catch(() => { loading = null; });
  }
  return loading;
}

if (lang === "es") loadSentences();

export function setLang(l) {
  if (l === "es") loadSentences();
  lang = l;
  localStorage.setItem("tablero.lang", l);
  document.documentElement.lang = l;
}

// A printf conversion as the server writes them: flags, width,
// precision ('*' takes an argument), length, letter.
const CONV = /%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d+))?(?:hh|h|ll|l|z|j|t)?([diouxXcsfgeE%])/g;

// fmt with args put in, one conversion after another (C's printf, for
// the conversions the server's sentences use). An argument that is a
// sentence of its own, {msg, args}, is put in translated, with a capital
// where it opens the sentence or follows ". ", "! " or "? ".
export function printf(fmt, args, tr = (m) => m) {
  let i = 0;
  const next = () => args[i++];
  return fmt.replace(CONV, (all, flags, width, prec, conv, at, whole) => {
    if (conv === "%") return "%";
    if (width === "*") width = next();
    if (prec === "*") prec = next();
    let v = next();
    if (v && typeof v === "object" && typeof v.msg === "string") {
      v = printf(tr(v.msg), Array.isArray(v.args) ? v.args : [], tr);
      if (at === 0 || /[.!?] $/.test(whole.slice(0, at))) v = v.charAt(0).toUpperCase() + v.slice(1);
    }
    let out;
    if (conv === "s" || conv === "c") out = String(v ?? "");
    else if ("xXo".includes(conv)) {
      out = Math.trunc(Number(v)).toString(conv === "o" ? 8 : 16);
      if (conv === "X") out = out.toUpperCase();
      if (flags.includes("#") && Number(v) !== 0) out = (conv === "o" ? "0" : "0x") + out;
    } else if ("fgeE".includes(conv)) out = Number(v).toFixed(prec === undefined ? 6 : Number(prec));
    else out = String(Math.trunc(Number(v)));
    if (conv === "s" && prec !== undefined) out = out.slice(0, Number(prec));
    const w = Number(width || 0);
    if (out.length < w) {
      const pad = flags.includes("0") && conv !== "s" && !flags.includes("-") ? "0" : " ";
      out = flags.includes("-") ? out.padEnd(w) : out.padStart(w, pad);
    }
    return out;
  });
}

// The Spanish of a msgid, or the msgid itself (English) when there is none.
function spanish(msgid) {
  const es = sentencesEs[msgid];
  return es === undefined ? msgid : es;
}

// The catalogue's formats with arguments as patterns, made on first use:
// [msgid, RegExp, letters of its conversions]. Only %s and %d-like
// conversions (what stored phrases use) are matched.
let patterns = null;
function formatPatterns() {
  if (patterns) return patterns;
  patterns = [];
  for (const fmt of Object.keys(sentencesEs)) {
    const all = [...fmt.matchAll(CONV)];
    const convs = all.map((c) => c[4]).filter((c) => c !== "%");
    if (!convs.length || convs.some((c) => !"sdiu".includes(c)) || all.some((c) => c[2] === "*" || c[3] === "*")) continue;
    let re = "^", at = 0;
    for (const c of fmt.matchAll(CONV)) {
      re += fmt.slice(at, c.index).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      re += c[4] === "%" ? "%" : c[4] === "s" ? "(.+?)" : "(-?\\d+)";
      at = c.index + c[0].length;
    }
    re += fmt.slice(at).replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "$";
    patterns.push([fmt, new RegExp(re), convs]);
  }
  // the most words first: "%s is new: ..." before "%s: %s"
  const words = (f) => f.replace(CONV, "").length;
  patterns.sort((a, b) => words(b[0]) - words(a[0]));
  return patterns;
}

// A sentence that reached the page as English text alone (why a game is
// not rated, printed with a name when the game started and kept as text):
// the Spanish of the catalogue's format it matches, with the matched
// arguments put in; the text itself when none matches.
function unformat(text) {
  for (const [fmt, re, convs] of formatPatterns()) {
    const m = re.exec(text);
    if (m) return printf(sentencesEs[fmt], m.slice(1).map((v, i) => (convs[i] === "s" ? v : Number(v))));
  }
  return text;
}

// A fixed phrase of the server (an ended game's reason, "board full", why
// a game is not rated) in the page's language.
export function phrase(text) {
  if (lang !== "es" || typeof text !== "string") return text;
  return sentencesEs[text] !== undefined ? sentencesEs[text] : unformat(text);
}

// A message from the server with its sentence in the page's language:
// the object's "message" (or, where it has none, its "text", else its
// "reason") is made again from the Spanish of its "msg" with its "args",
// and so is the "message" of a "result" it holds (a one-player game's
// end). English, or a msgid with no Spanish, leaves it as the server
// wrote it.
export function localize(m) {
  if (lang !== "es" || !m || typeof m !== "object") return m;
  if (m.result && typeof m.result === "object") localize(m.result);
  if (m.state && typeof m.state === "object" && m.state.result) localize(m.state.result);
  if (typeof m.msg !== "string" || !Array.isArray(m.args) || sentencesEs[m.msg] === undefined) return m;
  const key = ["message", "text", "reason"].find((k) => typeof m[k] === "string");
  if (key) m[key] = printf(sentencesEs[m.msg], m.args, spanish);
  return m;
}
