// loadgen.mjs: the load generator for the Colyseus Ataxx room
// (server.mjs), doing what bench/loadgen.c -m moves does for tablerod:
// ROOMS rooms of two clients each (@colyseus/sdk, one WebSocket per
// client, the state kept from the server's binary deltas), the side to
// move sends a random legal move as soon as it knows the position, one
// move in flight per room, both ask for a fresh game when one ends. After
// a warm-up (-w seconds and at least WARMUP_MOVES moves) it measures for
// SECS seconds and prints one line of key=value
// figures in loadgen.c's names: rate= (moves acknowledged a second: the
// delta that carries the move back to its mover), p50_ms= and p99_ms= of
// those round trips, server_cpu= (cores) and cpu_us= (server CPU
// microseconds a move, user and system time of every thread of process
// PID from /proc/PID/stat, as loadgen.c reads it), loadgen_cpu=, games=,
// errors= (moves refused) and dropped= (connections lost).
//
// Usage: node loadgen.mjs -p PORT [-P PID] [-r ROOMS] [-s SECS] [-w SECS]
// [-x SEED]
import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {Client} from '@colyseus/sdk';
import {ataxxPick, ataxxPiece} from './ataxx.mjs';

// The most rooms (-r): 2 connections each, as loadgen.c's LG_CONNS_MAX.
const ROOMS_MAX = 10000;
// Rooms being set up at once, so a thousand do not overrun the listen
// queue (loadgen.c's LG_CONNECTING_MAX counts connections).
const SETUP_AT_ONCE = 100;
// Seconds of load before the window (loadgen.c's LG_WARMUP_SEC).
const WARMUP_SEC = 0.5;
// Moves the warm-up lasts at least, besides its -w seconds, up to
// WARMUP_MAX_SEC: V8 compiles the server's hot functions (on threads of
// its process, counted in its CPU) over the first thousands of moves, so a
// server slowed by other load was still compiling in its window.
const WARMUP_MOVES = 20000;
const WARMUP_MAX_SEC = 30;
// The longest -s and -w.
const SECONDS_MAX = 300;
// Seconds allowed to set every room up (a thousand rooms took a minute
// on a loaded 2-core machine).
const SETUP_SEC = 600;
// Tries at setting one room up.
const SETUP_TRIES = 3;
// Status values of server.mjs's state.
const PLAYING = 1, OVER = 2;

// The options, from argv.
function lgArgs(argv) {
	const o = {port: 0, pid: 0, rooms: 10, secs: 3, warmup: WARMUP_SEC, seed: 0};
	const names = {'-p': 'port', '-P': 'pid', '-r': 'rooms', '-s': 'secs', '-w': 'warmup', '-x': 'seed'};
	for (let i = 2; i < argv.length; i += 2) {
		const k = names[argv[i]];
		const v = Number(argv[i + 1]);
		if (k === undefined || !Number.isFinite(v) || v < 0)
			lgDie(`usage: loadgen.mjs -p PORT [-P PID] [-r ROOMS] [-s SECS] [-w SECS] [-x SEED] (bad ${argv[i]})`);
		o[k] = v;
	}
	if (o.port === 0 || o.rooms < 1 || o.rooms > ROOMS_MAX || o.secs > SECONDS_MAX ||
	    o.warmup > SECONDS_MAX)
		lgDie('loadgen.mjs: -p PORT needed; -r 1 to 10000; -s and -w at most 300');
	return o;
}

function lgDie(msg) {
	console.error(msg);
	process.exit(2);
}

// A seeded xorshift32, so a seed (-x) repeats its games.
function lgRand(seed) {
	let x = (seed * 2654435761 + 2463534242) >>> 0 || 1;
	return (n) => {
		x ^= x << 13;
		x >>>= 0;
		x ^= x >>> 17;
		x ^= x << 5;
		x >>>= 0;
		return x % n;
	};
}

// User + system ticks of process pid (all its threads), or -1.
function lgProcCpu(pid) {
	try {
		const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
		return Number(f[11]) + Number(f[12]);
	} catch {
		return -1;
	}
}

// The p-th percentile of sorted numbers, in ms.
function lgPct(sorted, p) {
	if (sorted.length === 0)
		return 0;
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p / 100))];
}

const opt = lgArgs(process.argv);
const rand = lgRand(opt.seed);
const tick = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
const client = new Client(`ws://127.0.0.1:${opt.port}`);
const lg = {running: false, counting: false, n: 0, moves: 0, lat: [], games: 0, errors: 0,
    dropped: 0};

// One player: its room connection, its seat, the move it has in flight.
// The room's creator is white (seat 0), the other black (server.mjs).
function lgPlayer(room, seat) {
	const pl = {room, seat, sentSeq: -1, sentAt: 0, rematched: false};
	room.onMessage('error', () => {
		lg.errors++;
		pl.sentSeq = -1;
		lgAct(pl, room.state);
	});
	room.onLeave(() => {
		if (lg.running)
			lg.dropped++;
	});
	room.onStateChange((st) => lgOnState(pl, st));
	return pl;
}

// A new state: count pl's acknowledged move, then act if it is pl's turn.
function lgOnState(pl, st) {
	if (pl.sentSeq >= 0 && st.seq !== pl.sentSeq) {
		lg.moves++;
		if (lg.counting) {
			lg.n++;
			lg.lat.push(performance.now() - pl.sentAt);
		}
		pl.sentSeq = -1;
	}
	lgAct(pl, st);
}

// pl's next message, if any: a move on its turn, a rematch after the end.
function lgAct(pl, st) {
	if (!lg.running || pl.sentSeq >= 0)
		return;
	if (st.status === OVER) {
		if (!pl.rematched) {
			pl.rematched = true;
			if (pl.seat === 0 && lg.counting)
				lg.games++;
			pl.room.send('rematch');
		}
		return;
	}
	pl.rematched = false;
	if (st.status !== PLAYING || st.turn !== pl.seat)
		return;
	const mv = ataxxPick(st.board.toArray(), ataxxPiece(pl.seat), rand);
	if (mv === null)
		return; // the server passes for a side without a move
	pl.sentSeq = st.seq;
	pl.sentAt = performance.now();
	pl.room.send('move', mv);
}

// Set up one room: a creator and a joiner, both seated. A room whose
// set-up failed (a matchmaking request lost on a loaded machine: it
// happened once in a thousand rooms at a load average of 13) is left and
// made again, up to SETUP_TRIES times.
async function lgRoom() {
	for (let tries = 1; ; tries++) {
		let a = null;
		try {
			a = await client.create('ataxx');
			const b = await client.joinById(a.roomId);
			return [lgPlayer(a, 0), lgPlayer(b, 1)];
		} catch (e) {
			if (a !== null)
				a.leave().catch(() => {});
			if (tries === SETUP_TRIES)
				lgDie(`loadgen.mjs: a room's set-up failed ${tries} times: ${e}`);
		}
	}
}

// Every room, SETUP_AT_ONCE at a time.
async function lgSetup() {
	const players = [];
	for (let i = 0; i < opt.rooms; i += SETUP_AT_ONCE) {
		const batch = [];
		for (let k = i; k < Math.min(opt.rooms, i + SETUP_AT_ONCE); k++)
			batch.push(lgRoom());
		for (const pair of await Promise.all(batch))
			players.push(...pair);
	}
	return players;
}

const guard = setTimeout(() => lgDie('loadgen.mjs: set-up took too long'), SETUP_SEC * 1000);
const players = await lgSetup();
clearTimeout(guard);
lg.running = true;
for (const pl of players)
	lgAct(pl, pl.room.state);
await new Promise((r) => setTimeout(r, opt.warmup * 1000));
for (let t = opt.warmup; lg.moves < WARMUP_MOVES && t < WARMUP_MAX_SEC; t += 0.1)
	await new Promise((r) => setTimeout(r, 100));
const cpu0 = opt.pid ? lgProcCpu(opt.pid) : -1;
const self0 = process.cpuUsage();
const t0 = performance.now();
lg.counting = true;
await new Promise((r) => setTimeout(r, opt.secs * 1000));
lg.counting = false;
const wall = (performance.now() - t0) / 1000;
const cpu1 = opt.pid ? lgProcCpu(opt.pid) : -1;
const self = process.cpuUsage(self0);
lg.running = false;
lg.lat.sort((x, y) => x - y);
let line = `rate=${(lg.n / wall).toFixed(0)} n=${lg.n} p50_ms=${lgPct(lg.lat, 50).toFixed(3)} ` +
    `p99_ms=${lgPct(lg.lat, 99).toFixed(3)}`;
if (cpu0 >= 0 && cpu1 >= 0)
	line += ` server_cpu=${((cpu1 - cpu0) / tick / wall).toFixed(3)} ` +
	    `cpu_us=${(lg.n ? (cpu1 - cpu0) / tick * 1e6 / lg.n : 0).toFixed(1)}`;
line += ` loadgen_cpu=${((self.user + self.system) / 1e6 / wall).toFixed(3)} games=${lg.games} ` +
    `errors=${lg.errors} dropped=${lg.dropped}`;
console.log(line);
process.exit(0);
