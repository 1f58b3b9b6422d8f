// i18n.js: the page's words in English and Spanish. t(key, ...args)
// fills {0}, {1}... with args (as text: the page never treats them as
// markup).

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
    private: "Private", join: "Join", watch: "Watch", leave: "Leave",
    no_rooms: "No open rooms yet: create one.", waiting: "waiting",
    playing: "playing", ended: "ended", adjourned: "adjourned",
    free_seat: "free", your_turn: "Your turn", to_move: "{0} to move",
    to_move_named: "{0} ({1}) to move", game_over: "Game over: {0}",
    wins: "{0} wins", draw_result: "draw", solved: "solved", blocked: "blocked",
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
    private: "Privada", join: "Unirse", watch: "Mirar", leave: "Salir",
    no_rooms: "Aún no hay mesas abiertas: crea una.", waiting: "esperando",
    playing: "jugando", ended: "terminada", adjourned: "aplazada",
    free_seat: "libre", your_turn: "Te toca", to_move: "Mueve {0}",
    to_move_named: "Mueve {0} ({1})", game_over: "Fin de la partida: {0}",
    wins: "gana {0}", draw_result: "tablas", solved: "resuelto", blocked: "bloqueado",
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
  },
};

let lang = localStorage.getItem("tablero.lang") ||
  ((navigator.language || "en").startsWith("es") ? "es" : "en");

export function t(key, ...args) {
  const s = (words[lang] && words[lang][key]) || words.en[key] || key;
  return s.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ""));
}

export function getLang() { return lang; }

export function setLang(l) {
  lang = l;
  localStorage.setItem("tablero.lang", l);
  document.documentElement.lang = l;
}
