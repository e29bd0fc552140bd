// tests/browser/triage.test.mjs: `perfan triage`'s page in a headless
// Chromium with the network off: it loads from a file with no request
// outside it, every section is there, those without data say what to
// record, the flame graphs in it draw their frames, zoom on a click and
// search (the Search prompt, the Matched line), and no script fails. On
// a 1280x1000 screen the first 1,000 pixels hold the summary ("In short"),
// the thread table (10 rows at most, the rest folded, opened by a click)
// and the plateau table, and the summary's figures are the tables'. The
// page of a GPU profiler's trace: its sections and flame graphs.
// Screenshots in PERFAN_ARTIFACTS.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

import { ARTIFACTS, BIN, CHROMIUM, TD, check, eq, failures, watch } from './common.mjs';

const SECTIONS = ['summary', 'on-cpu', 'plateaus', 'flamegraph', 'timeline', 'blocking', 'verdict', 'changes', 'next'];
const env = { ...process.env, PERFAN_HOST_OSRELEASE: '6.18.44-fc-v782',
	PERFAN_HOST_NAME: 'vm', PERFAN_HOST_KALLSYMS: '' };

function triage(dir, name, args) {
	const out = path.join(dir, `${name}.html`);
	execFileSync(BIN, ['triage', ...args, '-o', out], { env, stdio: ['ignore', 'ignore', 'ignore'] });
	return out;
}

async function sections(page) {
	return page.$$eval('section', (ss) => ss.map((s) => ({
		id: s.id,
		missing: (s.querySelector('p.missing') || {}).textContent || '',
		rows: s.querySelectorAll('tr').length,
	})));
}

// The frame of the flame graph ID, once its frames are drawn.
async function graph(page, id) {
	const h = await page.$(`iframe#${id}`);
	const f = h && await h.contentFrame();
	if (!f)
		return null;
	await f.waitForFunction(() => {
		const g = document.querySelector('#frames > g');
		return g && g.perfanFrame;
	});
	return f;
}

async function testOffcpu(ctx, dir, dialogs) {
	const D = path.join(TD, 'offcpu');
	const file = triage(dir, 'offcpu', ['--kallsyms', path.join(D, 'kallsyms'),
		'--symfs', path.join(D, 'symfs'), '--buildid-dir', path.join(dir, 'nocache'),
		'--stat', path.join(TD, 'perf-stat-local', 'busy.txt'),
		path.join(D, 'perf.data'), '--before', path.join(D, 'perf.freq.data')]);
	const outside = [];
	const page = await ctx.newPage();
	page.on('request', (r) => {
		if (!/^(file|blob|data):/.test(r.url()))
			outside.push(r.url());
	});
	await page.goto(pathToFileURL(file).href);
	const ss = await sections(page);
	eq('offcpu: the sections, in order', ss.map((s) => s.id), SECTIONS);
	eq('offcpu: no section says its data is missing',
		ss.filter((s) => s.missing).map((s) => s.id), []);
	check('offcpu: tables with rows', ss.filter((s) => s.rows > 1).length >= 5,
		JSON.stringify(ss));
	for (const id of ['fg-cpu', 'fg-wait']) {
		const f = await graph(page, id);
		if (!check(`offcpu: flame graph ${id} drawn`, f !== null))
			continue;
		const n = await f.$$eval('#frames > g', (gs) => gs.length);
		check(`offcpu: ${id}: ${n} frames`, n > 10);
	}
	const f = await graph(page, 'fg-cpu');
	// zoom: click the widest frame above the root
	const target = await f.$$eval('#frames > g', (gs) => {
		const fs_ = gs.map((g, i) => ({ i, d: g.perfanFrame.d, w: g.perfanFrame.w }))
			.filter((x) => x.d === 2).sort((a, b) => b.w - a.w);
		return fs_.length ? fs_[0].i : -1;
	});
	check('offcpu: a frame to zoom into', target >= 0);
	const before = await f.$eval('#unzoom', (e) => e.getAttribute('class'));
	// the click as the frame's own rectangle gets it, wherever the frame
	// lies in the (tall, partly scrolled) graph
	await f.$eval(`#frames > g:nth-child(${target + 1}) > rect`,
		(r) => r.dispatchEvent(new MouseEvent('click', { bubbles: true })));
	await f.waitForFunction(() => !/hide/.test(document.querySelector('#unzoom')
		.getAttribute('class')), null, { timeout: 5000 }).catch(() => {});
	const after = await f.$eval('#unzoom', (e) => e.getAttribute('class'));
	check('offcpu: click zooms (Reset Zoom shown)', /hide/.test(before) && !/hide/.test(after),
		`${before} -> ${after}`);
	await f.$eval('#unzoom', (b) => b.dispatchEvent(new MouseEvent('click', { bubbles: true })));
	// search with the button: the prompt, then the Matched line
	dialogs.answers.push('spin');
	const seen = dialogs.seen.length;
	await f.$eval('#search', (b) => b.dispatchEvent(new MouseEvent('click', { bubbles: true })));
	for (let i = 0; i < 100 && dialogs.seen.length === seen; i++)
		await page.waitForTimeout(20);
	await f.waitForFunction(() => /^Matched/.test(document.querySelector('#matched').textContent),
		null, { timeout: 5000 }).catch(() => {});
	eq('offcpu: Search opens the prompt', dialogs.seen.at(-1) && dialogs.seen.at(-1).message,
		'Search for (regular expression):');
	const matched = await f.$eval('#matched', (e) => e.textContent);
	check('offcpu: search "spin": Matched line with a share', /^Matched: [0-9.]+%$/.test(matched),
		matched);
	const nmatch = await f.$$eval('#frames > g.match', (gs) => gs.length);
	check('offcpu: search "spin": frames marked', nmatch > 0, nmatch);
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	await page.screenshot({ path: path.join(ARTIFACTS, 'triage-offcpu.png'), fullPage: true });
	eq('offcpu: no request outside the file', outside, []);
	await page.close();
}

async function testMissing(ctx, dir) {
	const S = path.join(TD, 'slow-service');
	const file = triage(dir, 'slow', ['--symfs', S, '--kallsyms', path.join(TD, 'kallsyms'),
		'--buildid-dir', path.join(dir, 'nocache'), '--perf-map-dir', S,
		path.join(S, 'fast-1.data')]);
	const page = await ctx.newPage();
	await page.goto(pathToFileURL(file).href);
	const ss = await sections(page);
	eq('slow-service: the sections, in order', ss.map((s) => s.id), SECTIONS);
	const by = Object.fromEntries(ss.map((s) => [s.id, s]));
	for (const [id, cmd] of [['on-cpu', 'perfan record --wall'],
		['timeline', 'perfan record --wall'],
		['blocking', 'perfan record --wall'], ['verdict', 'perf stat'],
		['changes', '--before']])
		check(`slow-service: ${id} says what to record (${cmd})`,
			by[id] && by[id].missing.includes('Not recorded') && by[id].missing.includes(cmd),
			by[id] && by[id].missing);
	check('slow-service: the on-CPU flame graph is drawn', (await graph(page, 'fg-cpu')) !== null);
	eq('slow-service: no off-CPU flame graph', await page.$('iframe#fg-wait'), null);
	await page.screenshot({ path: path.join(ARTIFACTS, 'triage-slow-service.png'), fullPage: true });
	await page.close();
}

// A GPU profiler's trace (the planted one of testdata/torch_planted): the
// trace's sections alone, its verdict (load_batch starved the GPU, torch's
// profiler frames left out), both flame graphs drawn, nothing fetched.
async function testTrace(ctx, dir) {
	const file = triage(dir, 'trace', [path.join(TD, 'torch_planted', 'profiler_frames.json')]);
	const outside = [];
	const page = await ctx.newPage();
	page.on('request', (r) => {
		if (!/^(file|blob|data):/.test(r.url()))
			outside.push(r.url());
	});
	await page.goto(pathToFileURL(file).href);
	const ss = await sections(page);
	eq('trace: the sections, in order', ss.map((s) => s.id), ['summary', 'gpu', 'plateaus']);
	const verdict = await page.$eval('table.gpu tr:nth-child(2) td:last-child', (e) => e.textContent);
	check('trace: the verdict names load_batch',
		/^CPU-bound: .* mostly in train\.py\(20\): load_batch$/.test(verdict), verdict);
	for (const [id, name] of [['fg-gpu-idle', 'train.py(20): load_batch'],
		['fg-cpu', 'aten::linear']]) {
		const f = await graph(page, id);
		if (!check(`trace: flame graph ${id} drawn`, f !== null))
			continue;
		const names = await f.$$eval('#frames > g', (gs) => gs.map((g) =>
			(g.querySelector('title') || {}).textContent || ''));
		check(`trace: ${id}: frames`, names.length > 1, names.length);
		if (id === 'fg-gpu-idle')
			check(`trace: ${id} has ${name} and no profiler frame`,
				names.some((n) => n.includes(name)) &&
				!names.some((n) => /torch\/(profiler\/|autograd\/profiler)/.test(n)),
				JSON.stringify(names));
	}
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	await page.screenshot({ path: path.join(ARTIFACTS, 'triage-trace.png'), fullPage: true });
	eq('trace: no request outside the file', outside, []);
	await page.close();
}

// The roots (depth 1) of the flame graph in frame F, by name.
async function roots(f) {
	return f.$$eval('#frames > g', (gs) => gs.filter((g) => g.perfanFrame.d === 1)
		.map((g) => g.querySelector('title').textContent));
}

// testdata/server: both graphs drawn by one rule (threads merged: a root
// per command, as many as perf script's comms; --per-thread: a root per
// thread, as many on CPU as perf script's threads of cpu-clock samples),
// each at the page's width (the SVG as wide as its frame, the frame as
// high as the SVG) with its deepest frame near the top: no empty band.
async function testServer(ctx, dir) {
	const S = path.join(TD, 'server');
	const cpu = execFileSync('zstd', ['-dc', path.join(S, 'script.txt.zst')],
		{ maxBuffer: 1 << 30 }).toString().split('\n')
		.filter((l) => / cpu-clock\/freq=499\/:/.test(l)).map((l) => l.trim().split(/\s+/));
	const comms = new Set(cpu.map((x) => x[0])).size, tids = new Set(cpu.map((x) => x[1])).size;
	const engine = fs.readFileSync(path.join(S, 'truth.txt'), 'utf8').split('\n')
		.map((l) => l.split(' ')).find((x) => x[0] === 'engine')[1];
	for (const per of [false, true]) {
		const name = per ? 'server --per-thread' : 'server';
		const file = triage(dir, per ? 'server-pt' : 'server', [...(per ? ['--per-thread'] : []),
			'--symfs', path.join(S, 'symfs'), '--kallsyms', path.join(S, 'kallsyms'),
			'--perf-map-dir', S, '--buildid-dir', path.join(dir, 'nocache'),
			path.join(S, 'server.data')]);
		const page = await ctx.newPage();
		await page.goto(pathToFileURL(file).href);
		const n = {};
		for (const id of ['fg-cpu', 'fg-wait']) {
			const f = await graph(page, id);
			if (!check(`${name}: ${id} drawn`, f !== null))
				continue;
			const r = await roots(f);
			n[id] = r.length;
			if (per && id === 'fg-wait')
				check(`${name}: ${id}: the engine thread's root is named engine_loop`,
					r.some((x) => x.endsWith('/' + engine) && x.startsWith('engine_loop ')),
					r.slice(0, 5).join(', '));
			const frame = await page.$eval(`iframe#${id}`, (e) => ({ w: e.clientWidth, h: e.clientHeight }));
			const svg = await f.evaluate(() => {
				const s = document.documentElement.getBoundingClientRect();
				// the deepest frame at least 1 % of the graph wide: thin
				// towers above it would be an empty band
				let top = 1e9;
				for (const g of document.querySelectorAll('#frames > g')) {
					const r = g.querySelector('rect').getBoundingClientRect();
					if (r.width >= 0.01 * s.width && r.top < top)
						top = r.top;
				}
				const t = document.querySelector('#title').getBoundingClientRect();
				return { w: s.width, h: s.height, top, title: t.bottom };
			});
			check(`${name}: ${id} drawn at the frame's width (${svg.w} of ${frame.w} px)`,
				Math.abs(svg.w - frame.w) <= 1, JSON.stringify(svg));
			check(`${name}: ${id}: the frame as high as the SVG (${frame.h} px)`,
				Math.abs(svg.h - frame.h) <= 2, JSON.stringify([svg, frame]));
			// it starts within 3 frame rows of the title and legend: no
			// empty band above thin spikes
			check(`${name}: ${id}: the deepest frame 1 % wide ${Math.round(svg.top - svg.title)} px under the title`,
				svg.top - svg.title < 3 * 17 * svg.w / 1200 + 20 * svg.w / 1200,
				JSON.stringify(svg));
		}
		if (per)
			eq(`${name}: the on-CPU graph has a root per thread on CPU (perf script's)`,
				n['fg-cpu'], tids);
		else
			eq(`${name}: both graphs with threads merged, a root per command (perf script's)`,
				[n['fg-cpu'], n['fg-wait']], [comms, comms]);
		if (per)
			check(`${name}: the off-CPU graph has a root per thread too (${n['fg-wait']})`,
				n['fg-wait'] > 100, n['fg-wait']);
		await page.screenshot({ path: path.join(ARTIFACTS, `triage-${per ? 'server-pt' : 'server'}.png`),
			fullPage: true });
		await page.close();
	}
}

// The first screen of the page FILE (a 1280x1000 viewport in CTX): the
// bottom edges of the summary, the thread table and the plateau table, the
// thread table's visible rows, and the summary's figures against the
// tables'.
async function firstScreen(ctx, name, file) {
	const page = await ctx.newPage();
	await page.goto(pathToFileURL(file).href);
	const r = await page.evaluate(() => {
		const bottom = (s) => {
			const e = document.querySelector(s);
			return e ? e.getBoundingClientRect().bottom + window.scrollY : null;
		};
		const shown = (t) => [...t.querySelectorAll('tr')].filter((x) => x.getClientRects().length).length;
		const tt = document.querySelector('section#on-cpu table');
		return {
			first: document.querySelector('section').id,
			summary: bottom('section#summary'), threads: bottom('section#on-cpu table'),
			plateaus: bottom('section#plateaus table'), rows: tt ? shown(tt) : 0,
			all: tt ? tt.querySelectorAll('tr').length : 0,
		};
	});
	eq(`${name}: the summary comes first`, r.first, 'summary');
	for (const k of ['summary', 'threads', 'plateaus'])
		check(`${name}: the ${k === 'summary' ? 'summary' : k === 'threads' ? 'thread table' : 'plateau table'}'s bottom edge (${r[k]} px) within the first 1,000 px`,
			r[k] !== null && r[k] <= 1000, r[k]);
	check(`${name}: the thread table shows ${r.rows - 1} rows (at most 10 and the heading)`,
		r.rows >= 2 && r.rows <= 11, r.rows);
	await page.screenshot({ path: path.join(ARTIFACTS, `triage-first-${name}.png`) });
	return { page, r };
}

// The cells of row TR of the thread table by the heading's names.
function cellsOf(head, tr) {
	return Object.fromEntries(head.map((h, i) => [h, tr[i]]));
}

async function testFirstScreen(ctx, dir) {
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	const V = path.join(TD, 'server');
	const file = triage(dir, 'server-first', [path.join(V, 'server.data'), '--kallsyms',
		path.join(V, 'kallsyms'), '--symfs', path.join(V, 'symfs'), '--perf-map-dir', V,
		'--buildid-dir', path.join(dir, 'nocache')]);
	const { page } = await firstScreen(ctx, 'server', file);
	// the figures: the summary's against the tables'
	const t = await page.evaluate(() => {
		const rows = (s) => [...document.querySelectorAll(`${s} tr`)].map((r) =>
			[...r.children].map((c) => c.textContent.trim()));
		const li = Object.fromEntries([...document.querySelectorAll('section#summary li')]
			.map((l) => [l.dataset.section, { text: l.textContent, href: l.querySelector('a').getAttribute('href') }]));
		return { threads: rows('section#on-cpu table'), plateaus: rows('section#plateaus table'), li };
	});
	for (const [id, l] of Object.entries(t.li))
		eq(`server: the summary's line on ${id} links to its section`, l.href, `#${id}`);
	const p = t.plateaus[1];
	const lp = (t.li.plateaus || {}).text || '';
	const mp = /^The widest plateau: (.*?), ([\d.]+%) of the on-CPU time in itself; .* at most ([\d.]+x) sooner/.exec(lp);
	eq('server: the summary\'s widest plateau is the first plateau row (function, self, max speedup)',
		mp && [mp[1], mp[2], mp[3]], [p[3] + (p[4] ? ` (${p[4]})` : ''), p[0], p[2]]);
	const lc = (t.li['on-cpu'] || {}).text || '';
	const mc = /^On CPU or waiting\? \S+ (\d+)\/(\d+), the busiest thread, was on CPU ([\d.]+)% of its ([\d.]+) ms(, waited for the GIL ([\d.]+)%)?(, waited ([\d.]+)%)?/.exec(lc);
	const head = t.threads[0];
	const row = mc && t.threads.find((r) => r[1] === mc[2]);
	check('server: the summary names a thread of the table', row !== undefined && row !== null, lc);
	if (row) {
		const c = cellsOf(head, row);
		eq('server: the summary\'s busiest thread: its wall ms, %on-CPU, %GIL, %waiting as the table\'s',
			[mc[4], `${mc[3]}%`, `${mc[6] || '0.0'}%`, `${mc[8] || '0.0'}%`],
			[c['wall ms'], c['%on-CPU'], c['%GIL'], c['%waiting']]);
		// the busiest on CPU: the thread the plateaus' bounds are on
		const bound = await page.$eval('section#plateaus', (s) => s.textContent);
		check('server: the summary\'s thread is the plateaus\' busiest', bound.includes(`${mc[1]}/${mc[2]}, the busiest of`), lc);
	}
	// a pool's threads open on a click on its row
	const pool = await page.evaluate(() => {
		const b = document.querySelector('section#on-cpu tbody.pool');
		const vis = () => [...b.querySelectorAll('tr')].filter((x) => x.getClientRects().length).length;
		const before = vis();
		b.querySelector('tr.pool-row').click();
		return { before, after: vis(), members: b.querySelectorAll('tr.member').length };
	});
	eq('server: a pool\'s row opens on a click (visible rows before, after, its threads)',
		[pool.before, pool.after], [1, 1 + pool.members]);
	await page.close();
	// threads64: 64 threads, 10 shown, the others folded under "and N more"
	const T = path.join(TD, 'threads64');
	const f64 = triage(dir, 't64', [path.join(T, 'perf.data'), '--kallsyms', path.join(TD, 'kallsyms'),
		'--symfs', T, '--buildid-dir', path.join(dir, 'nocache')]);
	const t64 = await firstScreen(ctx, 'threads64', f64);
	const more = await t64.page.evaluate(async () => {
		const t = document.querySelector('section#on-cpu table');
		const vis = () => [...t.querySelectorAll('tr')].filter((x) => x.getClientRects().length).length;
		const d = document.querySelector('section#on-cpu details.more');
		const said = d && d.querySelector('summary').textContent;
		if (d)
			d.querySelector('summary').click();
		await new Promise((res) => setTimeout(res, 100));
		const opened = vis();
		// ranked again by a column: the first 10 of that order shown
		if (d)
			d.querySelector('summary').click();
		await new Promise((res) => setTimeout(res, 100));
		const th = [...t.querySelectorAll('thead th')].find((h) => h.textContent === 'tid');
		th.click();
		const first = [...t.tBodies].filter((b) => b.getClientRects().length)
			.map((b) => Number(b.rows[0].cells[1].textContent));
		return { said, opened, all: t.querySelectorAll('tr').length, first,
			tids: [...t.tBodies].map((b) => Number(b.rows[0].cells[1].textContent)).sort((a, b) => a - b) };
	});
	eq('threads64: the folded rows counted', more.said, `and ${t64.r.all - 11} more threads`);
	eq('threads64: a click opens the folded rows', more.opened, more.all);
	eq('threads64: sorted by tid, the first 10 tids shown', more.first, more.tids.slice(0, 10));
	await t64.page.close();
	// testdata/offcpu and testdata/gil fit too
	const D = path.join(TD, 'offcpu');
	const foff = triage(dir, 'offcpu-first', ['--kallsyms', path.join(D, 'kallsyms'),
		'--symfs', path.join(D, 'symfs'), '--buildid-dir', path.join(dir, 'nocache'),
		'--stat', path.join(TD, 'perf-stat-local', 'busy.txt'),
		path.join(D, 'perf.data'), '--before', path.join(D, 'perf.freq.data')]);
	await (await firstScreen(ctx, 'offcpu', foff)).page.close();
	const G = path.join(TD, 'gil');
	const fgil = triage(dir, 'gil', [path.join(G, 'gil-312-4.data'), '--kallsyms', path.join(G, 'kallsyms'),
		'--symfs', path.join(G, 'symfs'), '--perf-map-dir', G, '--buildid-dir', path.join(dir, 'nocache')]);
	await (await firstScreen(ctx, 'gil', fgil)).page.close();
}

async function main() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perfan-triage-'));
	fs.mkdirSync(path.join(dir, 'nocache'));
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
		timeout: 20000,
	});
	const errors = [];
	const dialogs = { answers: [], seen: [] };
	try {
		const ctx = await browser.newContext({ viewport: { width: 1300, height: 900 }, offline: true });
		ctx.setDefaultTimeout(10000);
		watch(ctx, errors, dialogs);
		for (const t of [testOffcpu, testMissing, testServer, testTrace]) {
			try {
				await t(ctx, dir, dialogs);
			} catch (e) {
				check(`${t.name}`, false, e.stack);
			}
		}
		// a first screen of 1280x1000
		const small = await browser.newContext({ viewport: { width: 1280, height: 1000 }, offline: true });
		small.setDefaultTimeout(10000);
		watch(small, errors, dialogs);
		try {
			await testFirstScreen(small, dir);
		} catch (e) {
			check('testFirstScreen', false, e.stack);
		}
		eq('no script error in the pages', errors, []);
	} finally {
		await browser.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
	process.exit(failures() ? 1 : 0);
}

main();
