// tests/browser/timeline.test.mjs: `perfan timeline`'s page in a headless
// Chromium with the network off: a lane per thread of the thread table
// (perfan report --off-cpu --json), the page's own table of time by state
// per lane equal to it (off-CPU states to the ns; running to the table's
// wall less off-CPU time: its on_cpu is cpu-clock sample periods, an
// estimate of what the lane measures from switches), wake arrows drawn
// when zoomed in, each a sched_waking or sched_wakeup record of perf
// script, the stack on hover, a range selected with shift-drag whose
// totals equal report --time's for that range, and 64 threads over 60 s
// drawn in under 2 s from a page under 10 MB; testdata/server's 304
// threads against the table too. Screenshots in
// PERFAN_ARTIFACTS.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

import { ARTIFACTS, BIN, CHROMIUM, TD, check, eq, failures, watch } from './common.mjs';

const env = { ...process.env, PERFAN_HOST_OSRELEASE: '6.18.44-fc-v782',
	PERFAN_HOST_NAME: 'vm', PERFAN_HOST_KALLSYMS: '', HOME: os.tmpdir() };

function perfan(args) {
	return execFileSync(BIN, args, { env, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] })
		.toString();
}

// ns on perf's clock as perf script and --time write seconds
function secs(ns) {
	const b = BigInt(ns);
	return `${b / 1000000000n}.${(b % 1000000000n).toString().padStart(9, '0')}`;
}

// The page's table: tid -> {kind index: ns}
async function pageTotals(page) {
	return page.$$eval('#timeline table.tl-totals tr[data-tid]', (rows) => Object.fromEntries(
		rows.map((r) => [r.dataset.tid, Object.fromEntries([...r.querySelectorAll('td[data-kind]')]
			.map((td) => [td.dataset.kind, Number(td.dataset.ns)]))])));
}

// Each row of TABLE (report's per_thread threads) against the page's
// totals GOT of kinds KINDS; lanes the table leaves out (no time on or off
// the CPU in a window) may only have run.
function sameAsTable(what, got, table, kinds) {
	const rows = Object.fromEntries(table.map((r) => [String(r.tid), r]));
	let bad = [];
	for (const [tid, t] of Object.entries(got)) {
		const r = rows[tid];
		if (!r) {
			if (kinds.some((k, i) => i > 0 && t[i]))
				bad.push(`${tid}: off-CPU time but no row`);
			continue;
		}
		kinds.forEach((k, i) => {
			const want = i === 0 ? r.wall - r.off_cpu : (r.off[k] || 0);
			if ((t[i] || 0) !== want)
				bad.push(`${tid} ${k}: ${t[i] || 0} ns, the table ${want}`);
		});
	}
	const missing = Object.keys(rows).filter((tid) => !(tid in got));
	eq(`${what}: a lane per row of the thread table`, missing, []);
	eq(`${what}: each lane's time by state equals the table's`, bad.slice(0, 8), []);
}

// perf script's wakeup records: "TIME WAKER_TID WAKEE_PID" in its digits
function wakeRecords(file) {
	const text = file.endsWith('.zst') ? execFileSync('zstd', ['-dc', file], { maxBuffer: 1 << 30 }).toString()
		: fs.readFileSync(file, 'utf8');
	const re = /^\s*.*?\s+(\d+)\s+\[\d+\]\s+(\d+)\.(\d+):\s+(?:\d+\s+)?sched:sched_wak(?:ing|eup):.*?\bpid=(\d+)\b/;
	const set = new Set();
	let digits = 9;
	for (const line of text.split('\n')) {
		const m = re.exec(line);
		if (!m)
			continue;
		digits = m[3].length;
		set.add(`${m[2]}${m[3]} ${m[1]} ${m[4]}`);
	}
	return { set, digits };
}

async function open(ctx, file) {
	const page = await ctx.newPage();
	await page.goto(pathToFileURL(file).href);
	await page.waitForFunction(() => window.perfanTimelines && window.perfanTimelines.timeline);
	return page;
}

async function testOffcpu(ctx, dir) {
	const D = path.join(TD, 'offcpu');
	const O = ['--kallsyms', path.join(D, 'kallsyms'), '--symfs', path.join(D, 'symfs'),
		'--buildid-dir', path.join(dir, 'nocache')];
	const data = path.join(D, 'perf.sched.data');
	const file = path.join(dir, 'offcpu.html');
	perfan(['timeline', ...O, data, '-o', file]);
	const table = JSON.parse(perfan(['report', '--off-cpu', '--json', ...O, data])).per_thread.threads;
	const page = await open(ctx, file);
	const info = await page.evaluate(() => {
		const t = window.perfanTimelines.timeline;
		return { lanes: t.lanes.length, kinds: t.data.kinds, start: t.data.start, end: t.data.end,
			wakes: t.data.wakes, names: t.lanes.map((l) => l.name) };
	});
	eq('sched: lanes drawn, one per thread of the table', info.lanes, table.length);
	eq('sched: lanes named "comm pid/tid"', info.names.filter((n) => !/^\S.* -?\d+\/\d+$/.test(n)), []);
	sameAsTable('sched', await pageTotals(page), table, info.kinds);

	// wake arrows: each one a record of perf script; drawn once zoomed in
	const recs = wakeRecords(path.join(D, 'script.sched.txt.zst'));
	const w = info.wakes, unmatched = [];
	for (let i = 0; i < w.length; i += 6) {
		const t = BigInt(info.start + w[i]) / 10n ** BigInt(9 - recs.digits);
		const key = `${t} ${w[i + 2]} ${w[i + 4]}`;
		if (!recs.set.has(key))
			unmatched.push(key);
	}
	check(`sched: ${w.length / 6} wake arrows`, w.length / 6 >= 50);
	eq('sched: every wake arrow is a sched_wakeup record of perf script', unmatched.slice(0, 5), []);
	const drawn = await page.evaluate(() => {
		const t = window.perfanTimelines.timeline, d = t.data;
		const w = d.wakes, tids = new Set(t.lanes.map((l) => l.tid));
		// 20 ms around the tenth wakeup from one lane to another
		const between = [];
		for (let i = 0; i < w.length; i += 6)
			if (tids.has(w[i + 2]) && tids.has(w[i + 4]) && w[i + 2] !== w[i + 4])
				between.push(w[i]);
		const mid = between[Math.min(9, between.length - 1)], a = mid - 10e6, b = mid + 10e6;
		t.setView(a, b);
		let want = 0;
		for (let i = 0; i < w.length; i += 6)
			if (w[i] >= a && w[i] <= b && tids.has(w[i + 2]) && tids.has(w[i + 4]) && w[i + 2] !== w[i + 4])
				want++;
		return { got: t.wakesDrawn(), want };
	});
	check(`sched: zoomed in, the wake arrows between lanes drawn (${drawn.got})`,
		drawn.got === drawn.want && drawn.got > 0, JSON.stringify(drawn));
	await page.screenshot({ path: path.join(ARTIFACTS, 'timeline-sched-zoomed.png'), fullPage: true });

	// hover over the longest off-CPU segment with a stack: its state and stack
	const spot = await page.evaluate(() => {
		const t = window.perfanTimelines.timeline;
		t.setView(0, t.data.end - t.data.start);
		let best = null;
		t.lanes.forEach((L, i) => {
			for (let s = 0; s < L.n; s++)
				if (L.kind[s] > 0 && L.stack[s] >= 0 && (!best || L.en[s] - L.st[s] > best.len))
					best = { i, s, len: L.en[s] - L.st[s], mid: (L.st[s] + L.en[s]) / 2, name: L.name };
		});
		const c = document.querySelector('#timeline canvas').getBoundingClientRect();
		const span = t.data.end - t.data.start;
		return { x: c.left + 190 + best.mid * (c.width - 190) / span, y: c.top + 22 + best.i * 16 + 8, name: best.name };
	});
	await page.mouse.move(spot.x, spot.y);
	const tip = await page.$eval('#timeline .tl-tip', (e) => ({ shown: e.style.display, text: e.textContent }));
	check('sched: hover shows the lane, its state and its switch-out stack',
		tip.shown === 'block' && tip.text.startsWith(spot.name) && /switch-out stack:\n/.test(tip.text)
		&& /schedule/.test(tip.text), tip.text.slice(0, 300));

	// a range by shift-drag: the page's totals become report --time's
	const box = await page.$eval('#timeline canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width }; });
	const got = page.evaluate(() => new Promise((res) => document.addEventListener('perfan-range',
		(e) => res(e.detail), { once: true })));
	await page.keyboard.down('Shift');
	await page.mouse.move(box.x + 190 + (box.w - 190) * 0.3, box.y + 40);
	await page.mouse.down();
	await page.mouse.move(box.x + 190 + (box.w - 190) * 0.45, box.y + 60, { steps: 5 });
	await page.mouse.up();
	await page.keyboard.up('Shift');
	const range = await got;
	check('sched: shift-drag selects a range', range && range.end > range.start, JSON.stringify(range));
	if (range) {
		const caption = await page.$eval('#timeline .tl-caption', (e) => e.textContent);
		check('sched: the table says it is the range\'s', /^Time by state from /.test(caption), caption);
		const win = JSON.parse(perfan(['report', '--off-cpu', '--json', '--time',
			`${secs(range.start)},${secs(range.end)}`, ...O, data])).per_thread.threads;
		sameAsTable('sched: the range', await pageTotals(page), win, info.kinds);
	}
	await page.screenshot({ path: path.join(ARTIFACTS, 'timeline-sched-range.png'), fullPage: true });
	await page.close();
}

async function testGil(ctx, dir) {
	const G = path.join(TD, 'gil');
	const O = ['--kallsyms', path.join(G, 'kallsyms'), '--symfs', path.join(G, 'symfs'),
		'--perf-map-dir', G, '--buildid-dir', path.join(dir, 'nocache')];
	const data = path.join(G, 'gil-312-4.data');
	const file = path.join(dir, 'gil.html');
	perfan(['timeline', ...O, data, '-o', file]);
	const table = JSON.parse(perfan(['report', '--off-cpu', '--json', ...O, data])).per_thread.threads;
	const page = await open(ctx, file);
	const kinds = await page.evaluate(() => window.perfanTimelines.timeline.data.kinds);
	sameAsTable('gil', await pageTotals(page), table, kinds);
	const legend = await page.$eval('#timeline .tl-legend', (e) => e.textContent);
	check('gil: the legend has GIL waits and running', /GIL/.test(legend) && /running/.test(legend), legend);
	// the GIL's colour is the flame graph's
	const fg = perfan(['flamegraph', '--off-cpu', ...O, data]);
	const color = await page.evaluate(() => {
		const t = window.perfanTimelines.timeline, S = JSON.parse(document.getElementById('timeline-style').textContent);
		const gil = t.data.classes.indexOf('GIL');
		return S.colors[1 * t.data.classes.length + gil];
	});
	const rgb = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16)).join(',');
	check(`gil: GIL waits drawn in the flame graph's colour (${color})`,
		new RegExp(`rgb\\(${rgb}\\)`).test(fg), rgb);
	await page.screenshot({ path: path.join(ARTIFACTS, 'timeline-gil.png'), fullPage: true });
	await page.close();
}

// testdata/server: 304 threads of a Python HTTP server, 300 of them
// short-lived handlers: a lane each, their times the table's
async function testServer(ctx, dir) {
	const S = path.join(TD, 'server');
	const O = ['--kallsyms', path.join(S, 'kallsyms'), '--symfs', path.join(S, 'symfs'),
		'--perf-map-dir', S, '--buildid-dir', path.join(dir, 'nocache')];
	const data = path.join(S, 'server.data');
	const file = path.join(dir, 'server.html');
	perfan(['timeline', ...O, data, '-o', file]);
	const table = JSON.parse(perfan(['report', '--off-cpu', '--json', ...O, data])).per_thread.threads;
	const page = await open(ctx, file);
	const info = await page.evaluate(() => ({ kinds: window.perfanTimelines.timeline.data.kinds,
		lanes: window.perfanTimelines.timeline.lanes.length }));
	check(`server: ${info.lanes} lanes, over 300`, info.lanes > 300);
	sameAsTable('server', await pageTotals(page), table, info.kinds);
	// the handlers' pool is one row with its count until its name is clicked
	const pools = JSON.parse(perfan(['report', '--off-cpu', '--json', ...O, data])).per_thread.pools;
	const rows0 = await page.evaluate(() => window.perfanTimelines.timeline.rows());
	const poolRows = rows0.filter((r) => r.pool !== undefined).map((r) => r.threads).sort((a, b) => a - b);
	eq('server: a row per pool of the table, with its count', poolRows, pools.map((p) => p.threads).sort((a, b) => a - b));
	eq('server: the other rows are the threads in no pool', rows0.length - poolRows.length,
		table.filter((r) => r.pool === null || r.pool === undefined).length);
	const big = rows0.findIndex((r) => r.threads === 300);
	const box = await page.$eval('#timeline canvas', (c) => { const b = c.getBoundingClientRect(); return { x: b.left, y: b.top }; });
	await page.mouse.click(box.x + 20, box.y + 22 + big * 16 + 8);
	const rows1 = await page.evaluate(() => window.perfanTimelines.timeline.rows());
	eq('server: a click on the pool\'s name shows its 300 threads', rows1.length - rows0.length, 300);
	await page.screenshot({ path: path.join(ARTIFACTS, 'timeline-server.png') });
	await page.close();
}

async function testMany(ctx, dir) {
	const data = path.join(TD, 'threads64', 'perf.data');
	const file = path.join(dir, 'threads64.html');
	perfan(['timeline', data, '-o', file]);
	const size = fs.statSync(file).size;
	check(`threads64: a page of ${(size / 1e6).toFixed(2)} MB, under 10 MB`, size < 10e6);
	// the best of three loads: the machine the tests run on is shared
	// (two cores, several builds and test runs at once), and a load that
	// waited for a CPU says nothing about the page
	let page = null, r = null;
	const times = [];
	for (let i = 0; i < 3 && !(r && r.at < 2000); i++) {
		if (page)
			await page.close();
		page = await open(ctx, file);
		const ri = await page.evaluate(() => {
			const t = window.perfanTimelines.timeline;
			return { lanes: t.lanes.length, at: t.drawnAt, ms: t.drawnMs, span: t.data.end - t.data.start };
		});
		times.push(`${ri.at.toFixed(0)} ms (${ri.ms.toFixed(0)} ms in the script)`);
		if (!r || ri.at < r.at)
			r = ri;
	}
	console.log(`threads64: ${r.lanes} lanes over ${(r.span / 1e9).toFixed(1)} s drawn after the page started loading: ${times.join(', ')}`);
	eq('threads64: 64 threads and main, a lane each', r.lanes, 65);
	check('threads64: over 60 s', r.span > 60e9, r.span);
	check(`threads64: drawn in under 2 s from the start of loading (${r.at.toFixed(0)} ms, the best of ${times.length})`, r.at < 2000);
	// zoom with the wheel and pan by dragging: the view changes
	const box = await page.$eval('#timeline canvas', (c) => { const b = c.getBoundingClientRect(); return { x: b.left, y: b.top, w: b.width }; });
	const status0 = await page.$eval('#timeline .tl-status', (e) => e.textContent);
	await page.mouse.move(box.x + 600, box.y + 100);
	await page.mouse.wheel(0, -600);
	const status1 = await page.$eval('#timeline .tl-status', (e) => e.textContent);
	await page.mouse.down();
	await page.mouse.move(box.x + 400, box.y + 100, { steps: 4 });
	await page.mouse.up();
	const status2 = await page.$eval('#timeline .tl-status', (e) => e.textContent);
	const span = (s) => { const m = /view ([\d.]+) to ([\d.]+) ms/.exec(s); return m ? [+m[1], +m[2]] : null; };
	const [v0, v1, v2] = [span(status0), span(status1), span(status2)];
	check('threads64: the wheel zooms in', v0 && v1 && v1[1] - v1[0] < (v0[1] - v0[0]) / 2, `${status0} -> ${status1}`);
	check('threads64: a drag pans', v1 && v2 && v2[0] > v1[0] && Math.abs((v2[1] - v2[0]) - (v1[1] - v1[0])) < 1e-3 * (v1[1] - v1[0]),
		`${status1} -> ${status2}`);
	await page.screenshot({ path: path.join(ARTIFACTS, 'timeline-threads64.png') });
	await page.close();
}

async function main() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perfan-timeline-'));
	fs.mkdirSync(path.join(dir, 'nocache'));
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
		timeout: 20000,
	});
	const errors = [];
	const dialogs = { answers: [], seen: [] };
	try {
		const ctx = await browser.newContext({ viewport: { width: 1300, height: 900 }, offline: true });
		ctx.setDefaultTimeout(15000);
		watch(ctx, errors, dialogs);
		for (const t of [testOffcpu, testGil, testServer, testMany]) {
			try {
				await t(ctx, dir);
			} catch (e) {
				check(`${t.name}`, false, e.stack);
			}
		}
		eq('no script error in the pages', errors, []);
	} finally {
		await browser.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
	process.exit(failures() ? 1 : 0);
}

main();
