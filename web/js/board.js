// board.js: the five boards drawn in SVG from state.board (one string a
// row, one character a cell, legends in docs/RULES.md), with each cell
// named in its game's notation. The page keeps no rules: which squares
// light up comes from the server's `moves`; this file only knows how a
// move's text names squares, to light and mark them (and to spell a
// premove, whose legality the server's `moves` decides later).

import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const CELL = 40;
const FILES = "abcdefghij";

// The square at row r (from the top) and column c (from the left).
export function squareName(game, r, c, rows) {
  switch (game) {
    case "stones": return "ABC"[r] + String(c + 1);
    case "solitaire": return String(r + 1) + "," + String(c + 1);
    default: return FILES[c] + String(rows - r);
  }
}

// The row (from the top) and column of a square named in the default
// notation ("d4"), or null: the inverse of squareName for the boards of
// letters and numbers (Ataxx, Amazons, Shape Shifter).
export function squareAt(sq, rows) {
  const m = /^([a-j])(\d+)$/.exec(sq);
  if (!m) return null;
  const r = rows - Number(m[2]), c = FILES.indexOf(m[1]);
  return r >= 0 && r < rows ? [r, c] : null;
}

const SOL_DIRS = { up: [-2, 0], down: [2, 0], left: [0, -2], right: [0, 2] };

// The squares a move names after its source, in click order: what the
// player clicks once the piece is chosen. [] for a move made by the
// source click alone (a Stones placement).
export function moveTargets(game, move) {
  let m;
  switch (game) {
    case "ataxx":
      if ((m = /^([a-z]\d+)([a-z]\d+)$/.exec(move))) return [m[2]];
      return [move];
    case "amazons":
      if ((m = /^([a-j]\d+)-([a-j]\d+)\/([a-j]\d+)$/.exec(move))) return [m[2], m[3]];
      return [];
    case "stones":
      if ((m = /^([A-C][1-3])([A-C][1-3])$/.exec(move))) return [m[2]];
      return [];
    case "solitaire":
      if ((m = /^(\d+),(\d+) (up|down|left|right)$/.exec(move))) {
        const d = SOL_DIRS[m[3]];
        return [String(Number(m[1]) + d[0]) + "," + String(Number(m[2]) + d[1])];
      }
      return [];
    case "shifter":
      return [move];
    default:
      return [];
  }
}

// Whether a square's name alone is a move that starts there (a Stones
// placement): not Ataxx, whose "c3" is a clone that ends there.
export function squareIsMove(game) {
  return game === "stones";
}

// Every square a move touches (to mark the last move).
export function moveSquares(game, move) {
  if (!move) return [];
  let m;
  if (game === "solitaire" && (m = /^(\d+),(\d+) /.exec(move)))
    return [m[1] + "," + m[2]].concat(moveTargets(game, move));
  if (game === "stones") return move.match(/[A-C][1-3]/g) || [];
  return move.match(/[a-j]\d+/g) || [];
}

// The pieces each seat moves (seat 0, seat 1), in the games that take a
// premove (docs/RULES.md's legends).
const OWN = { ataxx: ["x", "o"], stones: ["x", "o"], amazons: ["W", "B"] };

// Whether game takes a premove (a two-player game whose moves name
// squares only).
export function premoveGame(game) {
  return game in OWN;
}

// The row and column of a square in any of OWN's games, or null.
function cellOf(game, sq, rows) {
  if (game !== "stones") return squareAt(sq, rows);
  const r = "ABC".indexOf(sq[0]), c = Number(sq[1]) - 1;
  return r >= 0 && c >= 0 && c < 3 ? [r, c] : null;
}

// A premove being picked: the squares clicked so far (squares) by the
// player of seat (0 or 1) on the board as it stands. Answers {move} once
// they make a move's text, {more: true} while more squares are wanted,
// null when they cannot be one (not one's own piece, a square taken).
// Only the move's shape is known here: whether it is legal is asked of
// the server (`moves`) once the opponent has moved.
export function premoveStep(game, board, seat, squares) {
  const own = (OWN[game] || [])[seat];
  if (!own || !squares.length) return null;
  const rows = board.length;
  const at = (sq) => { const p = cellOf(game, sq, rows); return p ? board[p[0]][p[1]] : null; };
  const [src, dst, shot] = squares;
  // Stones: a placement while one's three pegs are not all down
  const placed = board.join("").split(own).length - 1;
  if (game === "stones" && placed < 3) return squares.length === 1 && at(src) === "." ? { move: src } : null;
  if (at(src) !== own) return null;
  if (squares.length === 1) return { more: true };
  if (at(dst) !== ".") return null;
  if (game === "stones") return { move: src + dst };
  if (game === "amazons") {
    if (squares.length === 2) return { more: true };
    return at(shot) === "." || shot === src ? { move: src + "-" + dst + "/" + shot } : null;
  }
  // Ataxx: a clone names its square, a jump both
  const a = cellOf(game, src, rows), b = cellOf(game, dst, rows);
  const d = Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]));
  return d === 1 ? { move: dst } : d === 2 ? { move: src + dst } : null;
}

// What stands on a cell, in words for a screen reader (keys of i18n.js;
// Shape Shifter's letters named from its legend, names).
const PIECE_KEYS = {
  ataxx: { x: "pc_white", o: "pc_black", "-": "pc_blocked" },
  stones: { x: "pc_p1", o: "pc_p2" },
  amazons: { W: "pc_white_amazon", B: "pc_black_amazon", "*": "pc_arrow" },
  solitaire: { o: "pc_peg", "@": "pc_peg_goal", G: "pc_goal", ".": "pc_hole", "#": "pc_none" },
};

function pieceWords(game, ch, names) {
  if (game === "shifter" && ch !== ".") {
    const L = ch.toUpperCase(), name = (names && names[L]) || L;
    return ch === L ? t("pc_shifter", name) : t("pc_shifter_active", name);
  }
  const k = (PIECE_KEYS[game] || {})[ch];
  return k ? t(k) : t("pc_empty");
}

// A cell's label: its square, what stands on it, and, while a piece is
// chosen, whether the move may end there.
function cellLabel(game, sq, ch, view) {
  let s = sq + ": " + pieceWords(game, ch, view.names);
  if (view.pre && view.pre.has(sq)) s += ", " + t("sq_premove");
  if (view.chosen.has(sq)) s += ", " + t("sq_chosen");
  else if (view.lit.has(sq)) s += ", " + t("sq_legal");
  else if (view.lit.size) s += ", " + t("sq_not_legal");
  return s;
}

// Arrow keys move the focus from cell to cell as the board is drawn
// (turned when flipped); one cell at a time is in the Tab order.
function cellKey(root, e, r, c, rows, cols, flip) {
  const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
  if (!d) return false;
  const k = flip ? -1 : 1;
  const nr = r + d[0] * k, nc = c + d[1] * k;
  if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) return true;
  const next = root.querySelector(`.cell[data-r="${nr}"][data-c="${nc}"]`);
  if (next) {
    root.querySelectorAll('.cell[tabindex="0"]').forEach((x) => x.setAttribute("tabindex", "-1"));
    next.setAttribute("tabindex", "0");
    next.focus();
  }
  return true;
}

function svg(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

// Stones: the nine points and their sixteen links.
const STONES_LINKS = [
  [0, 1], [1, 2], [3, 4], [4, 5], [6, 7], [7, 8],
  [0, 3], [3, 6], [1, 4], [4, 7], [2, 5], [5, 8],
  [0, 4], [2, 4], [6, 4], [8, 4],
];

function piece(g, game, ch, x, y) {
  const cx = x + CELL / 2, cy = y + CELL / 2, r = CELL * 0.36;
  switch (game) {
    case "ataxx":
    case "stones":
      if (ch === "x" || ch === "o")
        g.append(svg("circle", { cx, cy, r, class: ch === "x" ? "p-white" : "p-black" }));
      break;
    case "amazons":
      if (ch === "W" || ch === "B") {
        g.append(svg("circle", { cx, cy, r, class: ch === "W" ? "p-white" : "p-black" }));
        g.append(svg("path", {
          d: `M${cx - 9} ${cy + 5} L${cx - 11} ${cy - 6} L${cx - 4} ${cy - 1} L${cx} ${cy - 9} L${cx + 4} ${cy - 1} L${cx + 11} ${cy - 6} L${cx + 9} ${cy + 5} Z`,
          class: ch === "W" ? "crown-white" : "crown-black",
        }));
      } else if (ch === "*") {
        g.append(svg("rect", { x: cx - 8, y: cy - 8, width: 16, height: 16, class: "arrow" }));
      }
      break;
    case "solitaire":
      if (ch === "#") break;
      g.append(svg("circle", { cx, cy, r: 7, class: ch === "G" || ch === "@" ? "hole goal" : "hole" }));
      if (ch === "o" || ch === "@") g.append(svg("circle", { cx, cy, r, class: ch === "@" ? "peg on-goal" : "peg" }));
      break;
    case "shifter":
      if (ch !== ".") {
        const active = ch !== ch.toUpperCase();
        g.append(svg("circle", { cx, cy, r, class: active ? "p-active" : "p-black" }));
        const tx = svg("text", { x: cx, y: cy + 6, class: active ? "letter active" : "letter" });
        tx.textContent = ch.toUpperCase();
        g.append(tx);
      }
      break;
  }
}

// Draw state's board. view: {lit: Set, jump: Set (optional: lit squares
// reached by an Ataxx jump), chosen: Set, pre: Set (optional: the squares
// of a premove), last: Set, flip: bool (drawn
// turned half round, as the second seat sees it), focus: the square in the
// Tab order, onFocus(sq), names: Shape Shifter's letters named}; onSquare
// is called with a square's name when it is clicked or chosen with the
// keyboard.
export function drawBoard(game, board, view, onSquare) {
  const rows = board.length, cols = rows ? board[0].length : 0;
  const root = svg("svg", {
    viewBox: `0 0 ${cols * CELL + 24} ${rows * CELL + 24}`,
    class: "board board-" + game, role: "grid", "aria-label": t("board_keys"),
  });
  const g = svg("g", { transform: "translate(20 4)" });
  root.append(g);
  // the cell in the Tab order: the one last focused, else the top left
  let focusSq = view.focus;
  if (!focusSq || !board.some((row, r) => [...row].some((_, c) => squareName(game, r, c, rows) === focusSq)))
    focusSq = squareName(game, view.flip ? rows - 1 : 0, view.flip ? cols - 1 : 0, rows);
  // where row r and column c are drawn: turned half round when flipped
  const X = (c) => (view.flip ? cols - 1 - c : c) * CELL;
  const Y = (r) => (view.flip ? rows - 1 - r : r) * CELL;
  if (game === "stones") {
    for (const [a, b] of STONES_LINKS) {
      const ax = X(a % 3) + CELL / 2, ay = Y(Math.floor(a / 3)) + CELL / 2;
      const bx = X(b % 3) + CELL / 2, by = Y(Math.floor(b / 3)) + CELL / 2;
      g.append(svg("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "link" }));
    }
  }
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const ch = board[r][c];
      const sq = squareName(game, r, c, rows);
      const x = X(c), y = Y(r);
      const cell = svg("g", {
        class: "cell", "data-sq": sq, "data-r": r, "data-c": c, role: "gridcell",
        tabindex: sq === focusSq ? 0 : -1, "aria-label": cellLabel(game, sq, ch, view),
        "aria-selected": view.chosen.has(sq) ? "true" : "false",
      });
      let cls = "sq " + ((r + c) % 2 ? "dark" : "light");
      if (game === "stones") cls = "sq point";
      if ((game === "solitaire" && ch === "#") || (game === "ataxx" && ch === "-")) cls += " gap";
      const ring = game === "stones"; // points, not squares: a ring marks them
      if (view.last.has(sq) && !ring) cls += " last";
      if (view.chosen.has(sq) && !ring) cls += " chosen";
      const pre = !!(view.pre && view.pre.has(sq));
      if (pre && !ring) cls += " premove";
      cell.append(svg("rect", { x, y, width: CELL, height: CELL, class: cls }));
      if (ring && (view.last.has(sq) || view.chosen.has(sq) || pre))
        cell.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.46,
          class: pre ? "ring premove-ring" : view.chosen.has(sq) ? "ring chosen-ring" : "ring last-ring" }));
      piece(cell, game, ch, x, y);
      // A lit empty square gets a dot; a lit piece (a capture) a ring, so
      // its letter stays readable.
      // An Ataxx jump's square (view.jump) gets a hollow square instead of
      // a clone's dot: the two look different, not only in colour.
      if (view.jump && view.jump.has(sq))
        cell.append(svg("rect", { x: x + CELL / 2 - 8, y: y + CELL / 2 - 8, width: 16, height: 16, class: "lit lit-jump" }));
      else if (view.lit.has(sq))
        cell.append(".G".includes(ch)
          ? svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 6, class: "lit" })
          : svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.45, class: "lit-ring" }));
      cell.addEventListener("click", () => onSquare(sq));
      cell.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onSquare(sq); }
        else if (cellKey(root, e, r, c, rows, cols, view.flip)) e.preventDefault();
      });
      if (view.onFocus) cell.addEventListener("focus", () => view.onFocus(sq));
      g.append(cell);
    }
  }
  // coordinates
  for (let r = 0; r < rows; r++) {
    const lbl = game === "stones" ? "ABC"[r] : game === "solitaire" ? String(r + 1) : String(rows - r);
    const tx = svg("text", { x: 10, y: Y(r) + CELL / 2 + 8, class: "coord" });
    tx.textContent = lbl;
    root.append(tx);
  }
  for (let c = 0; c < cols; c++) {
    const lbl = game === "stones" || game === "solitaire" ? String(c + 1) : FILES[c];
    const tx = svg("text", { x: 20 + X(c) + CELL / 2, y: rows * CELL + 18, class: "coord" });
    tx.textContent = lbl;
    root.append(tx);
  }
  return root;
}
