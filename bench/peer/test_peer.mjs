// test_peer.mjs: checks of the Colyseus side of the comparison (issue
// 32). The rules (ataxx.mjs) against tablerod's: perft from the start
// through the move parser (docs/RULES.md's published counts), the parser's
// refusals, random games to their end with the load generator's picker;
// and, where bench/peer/node_modules is installed, the server and the
// load generator end to end (moves acknowledged, none refused, CPU read).
// Run: node --test bench/peer/test_peer.mjs
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn, execFileSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {
	BLACK, CELLS, EMPTY, WHITE, ataxxApply, ataxxHasMove, ataxxParse, ataxxPick,
	ataxxSquareName, ataxxStart, ataxxStatus,
} from './ataxx.mjs';

const here = dirname(fileURLToPath(import.meta.url));

// Every legal move text of piece p on b, found by asking the parser about
// every clone and jump text (so the count checks the parser too).
function legalTexts(b, p) {
	const out = [];
	for (let to = 0; to < CELLS; to++) {
		const t = ataxxSquareName(to);
		if (ataxxParse(b, p, t).error === undefined)
			out.push(t);
		for (let from = 0; from < CELLS; from++) {
			const j = ataxxSquareName(from) + t;
			const m = ataxxParse(b, p, j);
			if (m.error === undefined && m.from >= 0)
				out.push(j);
		}
	}
	return out;
}

function perft(b, p, depth) {
	if (depth === 0)
		return 1;
	let n = 0;
	for (const t of legalTexts(b, p)) {
		const c = b.slice();
		ataxxApply(c, p, ataxxParse(c, p, t));
		n += perft(c, p === WHITE ? BLACK : WHITE, depth - 1);
	}
	return n;
}

test('perft from the start matches the published counts', () => {
	const want = [16, 256, 6460];
	for (let d = 1; d <= want.length; d++)
		assert.equal(perft(ataxxStart(), WHITE, d), want[d - 1], `depth ${d}`);
});

test('the parser refuses what rules/ataxx.c refuses', () => {
	const b = ataxxStart();
	assert.match(ataxxParse(b, WHITE, 'h1').error, /not a square/);
	assert.match(ataxxParse(b, WHITE, 'zz').error, /not a square|cannot read/);
	assert.match(ataxxParse(b, WHITE, 'g7e5').error, /no piece of yours on g7/);
	assert.match(ataxxParse(b, WHITE, 'a7d4').error, /not a jump/);
	assert.match(ataxxParse(b, WHITE, 'g7').error, /occupied/);
	assert.match(ataxxParse(b, WHITE, 'd4').error, /no piece of yours adjacent/);
	assert.match(ataxxParse(b, WHITE, '0000').error, /cannot pass/);
	// a clone written with its source is the clone
	assert.deepEqual(ataxxParse(b, WHITE, 'a7b6'), {from: -1, to: 8});
	assert.deepEqual(ataxxParse(b, WHITE, 'A7C5'), {from: 0, to: 16});
});

test('a jump empties its source and infects around the destination', () => {
	const b = new Array(CELLS).fill(EMPTY);
	b[0] = WHITE; // a7
	b[10] = BLACK; // d6
	b[24] = BLACK; // d4
	ataxxApply(b, WHITE, ataxxParse(b, WHITE, 'a7c5'));
	assert.equal(b[0], EMPTY);
	assert.equal(b[16], WHITE);
	assert.equal(b[10], WHITE);
	assert.equal(b[24], WHITE);
	assert.deepEqual(ataxxStatus(b), {white: 3, black: 0, over: true});
});

test('random games with the picker end, each move legal', () => {
	let x = 7;
	const rand = (n) => {
		x = (x * 1103515245 + 12345) % 2147483648;
		return x % n;
	};
	for (let g = 0; g < 20; g++) {
		const b = ataxxStart();
		let p = WHITE, plies = 0;
		while (!ataxxStatus(b).over) {
			assert.ok(plies++ < 5000, 'a game that does not end');
			if (!ataxxHasMove(b, p)) {
				assert.equal(ataxxPick(b, p, rand), null);
				assert.deepEqual(ataxxParse(b, p, '0000'), {from: -1, to: -1});
				p = p === WHITE ? BLACK : WHITE;
				continue;
			}
			const t = ataxxPick(b, p, rand);
			const m = ataxxParse(b, p, t);
			assert.equal(m.error, undefined, `${t}: ${m.error}`);
			ataxxApply(b, p, m);
			p = p === WHITE ? BLACK : WHITE;
		}
	}
});

const installed = existsSync(join(here, 'node_modules/@colyseus/core/package.json'));

test('server and load generator: moves acknowledged, none refused',
    {skip: installed ? false : 'no bench/peer/node_modules (make bench-peer-deps)'},
    async () => {
	const srv = spawn(process.execPath, [join(here, 'server.mjs'), '0'],
	    {stdio: ['ignore', 'pipe', 'inherit']});
	try {
		const port = await new Promise((resolve, reject) => {
			let buf = '';
			const guard = setTimeout(() => reject(new Error('no port')), 30000);
			srv.stdout.on('data', (d) => {
				buf += d;
				const m = /listening on 127\.0\.0\.1:(\d+)/.exec(buf);
				if (m) {
					clearTimeout(guard);
					resolve(m[1]);
				}
			});
		});
		const out = execFileSync(process.execPath, [join(here, 'loadgen.mjs'), '-p', port,
		    '-P', String(srv.pid), '-r', '4', '-s', '1', '-w', '0.2'],
		    {timeout: 120000}).toString();
		const kv = Object.fromEntries(out.trim().split(' ').map((f) => f.split('=')));
		assert.ok(Number(kv.n) > 0, out);
		assert.equal(kv.errors, '0', out);
		assert.equal(kv.dropped, '0', out);
		assert.ok(Number(kv.cpu_us) > 0, out);
	} finally {
		srv.kill();
	}
});
