// tests/browser/common.mjs: what the browser tests share: the environment
// they run in (PERFAN_BIN, PERFAN_TESTDATA, PERFAN_ARTIFACTS,
// PERFAN_CHROMIUM) and their checks, one printed line each.
import os from 'node:os';
import path from 'node:path';

export const BIN = process.env.PERFAN_BIN;
if (!BIN) {
	console.error('FAIL: set PERFAN_BIN to the perfan binary');
	process.exit(1);
}
export const TD = path.resolve(process.env.PERFAN_TESTDATA || 'testdata');
export const ARTIFACTS = path.resolve(process.env.PERFAN_ARTIFACTS ||
	path.join(os.tmpdir(), 'perfan-artifacts'));
export const CHROMIUM = process.env.PERFAN_CHROMIUM || '/usr/bin/chromium';

let failed = 0;
// How many checks failed so far.
export function failures() {
	return failed;
}
export function check(what, ok, detail) {
	if (ok) {
		console.log(`ok: ${what}`);
	} else {
		failed++;
		console.log(`FAIL: ${what}${detail !== undefined ? ': ' + detail : ''}`);
	}
	return ok;
}
export function eq(what, got, want) {
	const g = JSON.stringify(got), w = JSON.stringify(want);
	return check(what, g === w, `got ${g}, want ${w}`);
}

// Every page CTX opens: its script errors and console errors into ERRORS,
// its dialogs into DIALOGS.seen, answered with the next of DIALOGS.answers
// (none or null: dismissed).
export function watch(ctx, errors, dialogs) {
	ctx.on('page', (page) => {
		page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
		page.on('console', (m) => {
			if (m.type() === 'error')
				errors.push(`${page.url()}: console: ${m.text()}`);
		});
		page.on('dialog', async (d) => {
			dialogs.seen.push({ type: d.type(), message: d.message() });
			const a = dialogs.answers.shift();
			if (a === undefined || a === null)
				await d.dismiss();
			else
				await d.accept(a);
		});
	});
}
