// tests/browser/triage_range.test.mjs: the timeline section of `perfan
// triage`'s page in a headless Chromium with the network off: a lane per
// row of the page's thread table; a range selected on it gives the flame
// graphs the range's totals (the on-CPU graph's is report --time's
// cpu-clock total, the off-CPU graph's report --off-cpu --time's) and the
// thread table the range's times (report --off-cpu --time's per-thread
// wall, on-CPU and off-CPU time); clearing it puts the page back.
// Screenshots in PERFAN_ARTIFACTS.
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

function secs(ns) {
	const b = BigInt(ns);
	return `${b / 1000000000n}.${(b % 1000000000n).toString().padStart(9, '0')}`;
}

async function testRange(ctx, dir, name, data, O, q0, q1) {
	const file = path.join(dir, `${name}.html`);
	perfan(['triage', ...O, data, '-o', file]);
	const page = await ctx.newPage();
	await page.goto(pathToFileURL(file).href);
	await page.waitForFunction(() => window.perfanTimelines && window.perfanTimelines.tl);
	// the threads' rows (a pool's own row has no tid: its threads follow it)
	const rows = await page.$$eval('section#on-cpu table tr', (rs) => rs.slice(1).map((r) => r.children[1].textContent)
		.filter((tid) => tid !== ''));
	const lanes = await page.evaluate(() => window.perfanTimelines.tl.lanes.map((l) => String(l.tid)));
	eq(`${name}: a lane per row of the thread table`, [...lanes].sort(), [...rows].sort());
	const before = await page.$eval('section#on-cpu table', (t) => t.innerHTML);
	// the roots of the page's own graphs (drawn by the library, in their
	// frames): those above "all"
	const mainRoots = {};
	for (const id of ['fg-cpu', 'fg-wait']) {
		const h = await page.$(`iframe#${id}`);
		const f = h && await h.contentFrame();
		if (!f)
			continue;
		await f.waitForFunction(() => {
			const g = document.querySelector('#frames > g');
			return g && g.perfanFrame;
		});
		mainRoots[id] = await f.$$eval('#frames > g', (gs) => gs.map((g) => g.perfanFrame)
			.filter((x) => x && x.d === 1).map((x) => x.name.replace(/ \([^(]*\)$/, '')));
	}

	// select Q0 to Q1 of the recording
	const range = await page.evaluate(([q0, q1]) => new Promise((res) => {
		const t = window.perfanTimelines.tl, span = t.data.end - t.data.start;
		document.addEventListener('perfan-range', (e) => res(e.detail), { once: true });
		t.setRange(span * q0, span * q1);
	}), [q0, q1]);
	const A = secs(range.start), B = secs(range.end);
	const cpu = JSON.parse(perfan(['report', '--json', '--time', `${A},${B}`, ...O, data]));
	const off = JSON.parse(perfan(['report', '--off-cpu', '--json', '--time', `${A},${B}`, ...O, data]));
	const cpuTotal = cpu.columns.find((c) => /^(cpu|task)-clock/.test(c.event)).total;
	const offTotal = off.report.columns[0].total;
	const titles = await page.evaluate(() => Object.fromEntries(['fg-cpu', 'fg-wait'].map((id) => {
		const p = document.querySelector(`#${id}-range p.fg-range-title`);
		return [id, p ? { ns: Number(p.dataset.totalNs), text: p.textContent,
			frame: getComputedStyle(document.getElementById(id)).display,
			boxes: document.querySelectorAll(`#${id}-range .fg-range-graph > div`).length } : null];
	})));
	// the range's graphs follow the page's rule: roots as the page's
	// graphs' (a root per command), and the off-CPU graph without the
	// kernel's frames, folded into the waits' leaves, though the waits'
	// stacks have them
	const rule = await page.evaluate(() => {
		const D = window.perfanTimelines.tl.data;
		const kernel = new Set(D.frames.filter((f) => f[2] === D.kernel_kind).map((f) => f[0]));
		const boxes = (id, depth) => [...document.querySelectorAll(`#${id}-range .fg-range-graph > div`)]
			.filter((e) => depth === undefined || e.style.bottom === `${depth * 17}px`)
			.map((e) => e.title.replace(/ \([^(]*\)$/, ''));
		return { kernel: kernel.size, waitKernel: boxes('fg-wait').filter((n) => kernel.has(n)),
			roots: { 'fg-cpu': boxes('fg-cpu', 1), 'fg-wait': boxes('fg-wait', 1) } };
	});
	check(`${name}: the waits' stacks have kernel frames (${rule.kernel})`, rule.kernel > 0);
	eq(`${name}: no kernel frame in the range's off-CPU graph`, rule.waitKernel.slice(0, 5), []);
	for (const id of ['fg-cpu', 'fg-wait'])
		check(`${name}: ${id}: the range's roots ${JSON.stringify(rule.roots[id])} are the page's graph's`,
			rule.roots[id].length > 0 && mainRoots[id] &&
			rule.roots[id].every((r) => mainRoots[id].includes(r)),
			JSON.stringify(mainRoots[id]));
	check(`${name}: ${A} to ${B}: the on-CPU graph drawn for the range (${titles['fg-cpu'] && titles['fg-cpu'].boxes} frames)`,
		titles['fg-cpu'] && titles['fg-cpu'].frame === 'none' && titles['fg-cpu'].boxes > 3, JSON.stringify(titles['fg-cpu']));
	eq(`${name}: the on-CPU graph's total is report --time's cpu-clock total`, titles['fg-cpu'] && titles['fg-cpu'].ns, cpuTotal);
	eq(`${name}: the off-CPU graph's total is report --off-cpu --time's`, titles['fg-wait'] && titles['fg-wait'].ns, offTotal);
	const whole = JSON.parse(perfan(['report', '--json', ...O, data])).columns
		.find((c) => /^(cpu|task)-clock/.test(c.event)).total;
	check(`${name}: the range's on-CPU total (${cpuTotal}) is part of the whole's (${whole})`,
		cpuTotal > 0 && cpuTotal < whole);
	// the thread table: the range's wall, on-CPU and off-CPU time per row
	const got = await page.$$eval('section#on-cpu table tr', (rs) => {
		const head = [...rs[0].children].map((c) => c.textContent);
		return rs.slice(1).filter((r) => r.children[1].textContent !== '').map((r) => {
			const v = (n) => { const c = r.children[head.indexOf(n)]; return c && c.dataset.ns !== undefined ? Number(c.dataset.ns) : null; };
			return { tid: Number(r.children[1].textContent), wall: v('wall ms'), on: v('on-CPU ms'), off: v('off-CPU ms') };
		});
	});
	const want = Object.fromEntries(off.per_thread.threads.map((r) => [r.tid, r]));
	const bad = [];
	for (const g of got) {
		const w = want[g.tid];
		const exp = w ? { wall: w.wall, on: w.on_cpu, off: w.off_cpu } : { wall: g.wall, on: 0, off: 0 };
		for (const k of ['wall', 'on', 'off'])
			if (g[k] !== exp[k])
				bad.push(`${g.tid} ${k}: ${g[k]}, report --time ${exp[k]}`);
	}
	eq(`${name}: the thread table's wall, on-CPU and off-CPU times are the range's`, bad.slice(0, 6), []);
	// a pool's row: the sums of its threads' in the range
	const pools = await page.$$eval('section#on-cpu tbody.pool', (ps) => {
		const head = [...document.querySelector('section#on-cpu table tr').children].map((c) => c.textContent);
		return ps.map((p) => {
			const v = (r, n) => Number(r.children[head.indexOf(n)].dataset.ns);
			const members = [...p.querySelectorAll('tr.member')], row = p.querySelector('tr.pool-row');
			return ['wall ms', 'on-CPU ms', 'off-CPU ms'].map((n) => [v(row, n), members.reduce((a, m) => a + v(m, n), 0)]);
		});
	});
	eq(`${name}: ${pools.length} pool rows, each the sum of its threads' in the range`,
		pools.flat().filter(([a, b]) => a !== b), []);
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	await page.screenshot({ path: path.join(ARTIFACTS, `triage-range-${name}.png`), fullPage: true });
	// cleared: the page as it was
	await page.evaluate(() => window.perfanTimelines.tl.setRange(null));
	const after = await page.evaluate(() => ({
		table: document.querySelector('section#on-cpu table').innerHTML,
		frames: ['fg-cpu', 'fg-wait'].map((id) => getComputedStyle(document.getElementById(id)).display),
		boxes: document.querySelectorAll('.fg-range').length,
	}));
	check(`${name}: clearing the range puts the table and the graphs back`,
		after.table === before && after.boxes === 0 && after.frames.every((d) => d !== 'none'), JSON.stringify(after.frames));
	await page.close();
}

async function main() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perfan-triage-range-'));
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
		ctx.setDefaultTimeout(15000);
		watch(ctx, errors, dialogs);
		const D = path.join(TD, 'offcpu'), G = path.join(TD, 'gil');
		const nocache = ['--buildid-dir', path.join(dir, 'nocache')];
		const cases = [
			['offcpu', path.join(D, 'perf.data'), ['--kallsyms', path.join(D, 'kallsyms'), '--symfs', path.join(D, 'symfs'), ...nocache], 0.3, 0.6],
			['gil', path.join(G, 'gil-312-4.data'), ['--kallsyms', path.join(G, 'kallsyms'), '--symfs', path.join(G, 'symfs'),
				'--perf-map-dir', G, ...nocache], 0.2, 0.5],
		];
		for (const c of cases) {
			try {
				await testRange(ctx, dir, ...c);
			} catch (e) {
				check(`${c[0]}`, false, e.stack);
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
