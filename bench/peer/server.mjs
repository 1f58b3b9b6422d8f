// server.mjs: the Colyseus side of the comparison with tablerod (issue 32,
// docs/SCALING.md "Against Colyseus"): one room type, "ataxx", with
// tablerod's Ataxx 7x7 rules (ataxx.mjs), its state in @colyseus/schema
// (the clients get binary deltas) and no storage. A move is a "move"
// message with its text ("b6", "a7c5"); a legal one is applied and the
// delta sent to both players at once (patchRate null, broadcastPatch
// after each move: the answer as soon as the move is made, as tablerod
// answers, not at the next 50 ms tick); an illegal one gets an "error"
// message. A side with no move passes at once. When the game ends, a
// fresh one starts once both players have sent "rematch". The room's
// creator is white (seat 0), the other player black.
//
// Usage: node server.mjs [PORT]: listens on 127.0.0.1:PORT (0, the
// default: a free port) and prints "listening on 127.0.0.1:PORT".
import http from 'node:http';
import {Room, Server} from '@colyseus/core';
import {WebSocketTransport} from '@colyseus/ws-transport';
import {schema, t} from '@colyseus/schema';
import {
	CELLS, ataxxApply, ataxxHasMove, ataxxParse, ataxxPiece, ataxxStart,
	ataxxStatus,
} from './ataxx.mjs';

// status: waiting for the second player, playing, over.
const WAITING = 0, PLAYING = 1, OVER = 2;

// The room's state: what both players see, sent as binary deltas.
export const AtaxxState = schema({
	board: t.array('uint8'),
	turn: t.uint8(),
	status: t.uint8(),
	// the winner's seat, 2 for a draw, 255 while playing
	winner: t.uint8(),
	seq: t.uint32(),
	white: t.uint8(),
	black: t.uint8(),
	last: t.string(),
}, 'AtaxxState');

// An Ataxx game between two seated clients.
class AtaxxRoom extends Room {
	maxClients = 2;
	patchRate = null;

	onCreate() {
		this.state = new AtaxxState();
		this.seats = new Map();
		this.rematch = [false, false];
		// the rules run on a plain array (reads of a schema array go
		// through a proxy); the cells a move changes are copied into the
		// state, which sends them
		this.board = ataxxStart();
		this.state.board.push(...this.board);
		this.state.winner = 255;
		this.state.seq = 0;
		this.onMessage('move', (client, text) => this.roomMove(client, text));
		this.onMessage('rematch', (client) => this.roomRematch(client));
	}

	onJoin(client) {
		const seat = this.seats.size === 0 ? 0 : [...this.seats.values()][0] ^ 1;
		this.seats.set(client.sessionId, seat);
		if (this.seats.size === 2)
			this.roomStart();
	}

	onLeave(client) {
		this.seats.delete(client.sessionId);
	}

	// A fresh game from the start position, white to move.
	roomStart() {
		const b = ataxxStart();
		for (let i = 0; i < CELLS; i++)
			if (this.board[i] !== b[i])
				this.state.board[i] = b[i];
		this.board = b;
		this.state.turn = 0;
		this.state.status = PLAYING;
		this.state.winner = 255;
		this.state.white = 2;
		this.state.black = 2;
		this.state.last = '';
		this.rematch = [false, false];
		this.broadcastPatch();
	}

	// A move from client: applied and sent to both at once, or refused.
	roomMove(client, text) {
		const seat = this.seats.get(client.sessionId);
		const st = this.state;
		if (st.status !== PLAYING)
			return client.send('error', 'the game is over');
		if (seat !== st.turn)
			return client.send('error', 'not your turn');
		const p = ataxxPiece(seat);
		const b = this.board;
		const m = ataxxParse(b, p, text);
		if (m.error !== undefined)
			return client.send('error', m.error);
		for (const i of ataxxApply(b, p, m))
			st.board[i] = b[i];
		st.seq++;
		st.last = text;
		const s = ataxxStatus(b);
		st.white = s.white;
		st.black = s.black;
		if (s.over) {
			st.status = OVER;
			st.winner = s.white > s.black ? 0 : s.black > s.white ? 1 : 2;
		} else if (ataxxHasMove(b, ataxxPiece(seat ^ 1))) {
			st.turn = seat ^ 1;
		}
		// else: the other side has no move and passes; the mover again
		this.broadcastPatch();
	}

	// A rematch request: a fresh game once both have asked after the end.
	roomRematch(client) {
		const seat = this.seats.get(client.sessionId);
		if (this.state.status !== OVER || seat === undefined)
			return;
		this.rematch[seat] = true;
		if (this.rematch[0] && this.rematch[1])
			this.roomStart();
	}
}

const port = Number(process.argv[2] ?? 0);
const httpServer = http.createServer();
const gameServer = new Server({
	transport: new WebSocketTransport({server: httpServer}),
	greet: false,
});
gameServer.define('ataxx', AtaxxRoom);
await gameServer.listen(port, '127.0.0.1');
console.log(`listening on 127.0.0.1:${httpServer.address().port}`);
