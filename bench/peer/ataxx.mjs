// ataxx.mjs: Ataxx 7x7 for the Colyseus room and its load generator, the
// same rules as tablerod's rules/ataxx.c (docs/RULES.md, "Ataxx"): clone to
// an adjacent empty square, jump to one at distance two, infect the enemy
// pieces around the destination; a side with no move passes (the room does
// it for the side); the game ends when a side has no pieces or the board is
// full, the side with more pieces winning. No gaps, no position strings:
// only the start position, as in the bench's rooms.

// The board side of the bench's rooms (tablerod's default size).
export const SIZE = 7;
export const CELLS = SIZE * SIZE;
// Cell values: empty, white (seat 0, "x") and black (seat 1, "o").
export const EMPTY = 0;
export const WHITE = 1;
export const BLACK = 2;
// The longest move text read, as ATAXX_MOVE_MAX in rules/ataxx.c.
export const MOVE_TEXT_MAX = 16;

// The start position: white on a7 and g1, black on g7 and a1.
export function ataxxStart() {
	const b = new Array(CELLS).fill(EMPTY);
	b[0] = WHITE;
	b[CELLS - 1] = WHITE;
	b[SIZE - 1] = BLACK;
	b[CELLS - SIZE] = BLACK;
	return b;
}

// The piece of a seat (0 or 1).
export function ataxxPiece(seat) {
	return seat === 0 ? WHITE : BLACK;
}

// The square name of cell i ("a7" is 0, "g1" is 48).
export function ataxxSquareName(i) {
	return String.fromCharCode(97 + (i % SIZE)) + String(SIZE - Math.floor(i / SIZE));
}

// The cell of a square name at text[at..], or -1 when it names none.
function ataxxSquare(text, at) {
	const col = text.charCodeAt(at) | 0x20;
	const rank = text.charCodeAt(at + 1) - 48;
	if (col < 97 || col >= 97 + SIZE || rank < 1 || rank > SIZE)
		return -1;
	return (SIZE - rank) * SIZE + (col - 97);
}

// Chebyshev distance between two cells.
function ataxxDistance(a, b) {
	return Math.max(Math.abs(Math.floor(a / SIZE) - Math.floor(b / SIZE)),
	    Math.abs((a % SIZE) - (b % SIZE)));
}

// Whether the side with piece p has a move on board b.
export function ataxxHasMove(b, p) {
	for (let i = 0; i < CELLS; i++) {
		if (b[i] !== p)
			continue;
		const r = Math.floor(i / SIZE), c = i % SIZE;
		for (let dr = -2; dr <= 2; dr++)
			for (let dc = -2; dc <= 2; dc++) {
				const tr = r + dr, tc = c + dc;
				if (tr >= 0 && tr < SIZE && tc >= 0 && tc < SIZE &&
				    b[tr * SIZE + tc] === EMPTY)
					return true;
			}
	}
	return false;
}

// Parse a move text for the side with piece p on board b: {from, to}
// (from -1 for a clone, to -1 for the pass) or {error} with the reason
// rules/ataxx.c gives, checked in its order.
export function ataxxParse(b, p, text) {
	if (typeof text !== 'string' || text.length > MOVE_TEXT_MAX)
		return {error: 'cannot read the move: write a clone as b6, a jump as a7c5, a pass as 0000'};
	if (text === '0000')
		return ataxxHasMove(b, p) ? {error: 'you have legal moves, you cannot pass'}
					  : {from: -1, to: -1};
	if (text.length !== 2 && text.length !== 4)
		return {error: 'cannot read the move: write a clone as b6, a jump as a7c5, a pass as 0000'};
	const to = ataxxSquare(text, text.length - 2);
	const from = text.length === 4 ? ataxxSquare(text, 0) : -1;
	if (to < 0 || (text.length === 4 && from < 0))
		return {error: `${text} is not a square of this board (a1 to g7)`};
	if (from >= 0 && b[from] !== p)
		return {error: `no piece of yours on ${ataxxSquareName(from)}`};
	if (from >= 0 && ataxxDistance(from, to) !== 1 && ataxxDistance(from, to) !== 2)
		return {error: `${ataxxSquareName(from)} to ${ataxxSquareName(to)} is not a jump (distance must be 2)`};
	if (b[to] !== EMPTY)
		return {error: `destination ${ataxxSquareName(to)} is occupied`};
	if (from >= 0 && ataxxDistance(from, to) === 2)
		return {from, to};
	for (let i = 0; i < CELLS; i++)
		if (b[i] === p && ataxxDistance(i, to) === 1)
			return {from: -1, to};
	return {error: `no piece of yours adjacent to ${ataxxSquareName(to)}`};
}

// Play a parsed move for piece p on b; returns the cells it changed (so a
// room can copy just those into its schema state, and a delta carries
// only them).
export function ataxxApply(b, p, m) {
	const changed = [];
	if (m.to < 0)
		return changed;
	if (m.from >= 0) {
		b[m.from] = EMPTY;
		changed.push(m.from);
	}
	b[m.to] = p;
	changed.push(m.to);
	const r = Math.floor(m.to / SIZE), c = m.to % SIZE;
	const enemy = p === WHITE ? BLACK : WHITE;
	for (let dr = -1; dr <= 1; dr++)
		for (let dc = -1; dc <= 1; dc++) {
			const tr = r + dr, tc = c + dc;
			if (tr >= 0 && tr < SIZE && tc >= 0 && tc < SIZE &&
			    b[tr * SIZE + tc] === enemy) {
				b[tr * SIZE + tc] = p;
				changed.push(tr * SIZE + tc);
			}
		}
	return changed;
}

// The counts of both sides and whether the game is over on b:
// {white, black, over}.
export function ataxxStatus(b) {
	let white = 0, black = 0;
	for (let i = 0; i < CELLS; i++)
		if (b[i] === WHITE)
			white++;
		else if (b[i] === BLACK)
			black++;
	return {white, black, over: white === 0 || black === 0 || white + black === CELLS};
}

// A random legal move text for piece p on b, as bench/loadgen.c's lg_pick
// picks one (a few random tries, then every move), or null when the side
// has none. rand(n) gives an integer below n.
export function ataxxPick(b, p, rand) {
	const own = [];
	for (let i = 0; i < CELLS; i++)
		if (b[i] === p)
			own.push(i);
	if (own.length === 0)
		return null;
	for (let tries = 0; tries < 24; tries++) {
		const i = own[rand(own.length)];
		const tr = Math.floor(i / SIZE) + rand(5) - 2;
		const tc = (i % SIZE) + rand(5) - 2;
		const to = tr * SIZE + tc;
		if (to !== i && tr >= 0 && tr < SIZE && tc >= 0 && tc < SIZE && b[to] === EMPTY)
			return ataxxText(i, to);
	}
	const moves = [];
	for (const i of own)
		for (let to = 0; to < CELLS; to++)
			if (b[to] === EMPTY && ataxxDistance(i, to) <= 2)
				moves.push([i, to]);
	if (moves.length === 0)
		return null;
	const [from, to] = moves[rand(moves.length)];
	return ataxxText(from, to);
}

// The text of a move from cell from to cell to: a clone names the
// destination alone.
function ataxxText(from, to) {
	return ataxxDistance(from, to) === 1 ? ataxxSquareName(to)
					     : ataxxSquareName(from) + ataxxSquareName(to);
}
