// tests/browser/triage.test.mjs: `perfan triage`'s page in a headless
// Chromium with the network off: it loads from a file with no request
// outside it, every section is there, those without data say what to
// record, the flame graphs in it draw their frames, zoom on a click and
// search (the Search prompt, the Matched line), and no script fails.
// Screenshots in PERFAN_ARTIFACTS.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

import { ARTIFACTS, BIN, CHROMIUM, TD, check, eq, failures, watch } from './common.mjs';

const SECTIONS = ['on-cpu', 'plateaus', 'flamegraph', 'timeline', 'blocking', 'verdict', 'changes', 'next'];
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
		for (const t of [testOffcpu, testMissing, testServer]) {
			try {
				await t(ctx, dir, dialogs);
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
