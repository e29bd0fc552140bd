// testdata/speedscope/export.mjs: speedscope's own export of its format.
// Each input is opened in speedscope's release build (the npm package's
// dist/release/index.html) in headless Chromium, and the JSON its Export
// button downloads is saved: speedscope writes every profile it imported as
// an evented profile, in the unit its importer chose.
//
// Run (see COMMAND): NODE_PATH=<dir holding playwright-core>
//   SPEEDSCOPE=<package>/dist/release node export.mjs OUT INPUT [OUT INPUT...]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

const release = process.env.SPEEDSCOPE;
const args = process.argv.slice(2);
if (!release || args.length < 2 || args.length % 2) {
	console.error('usage: SPEEDSCOPE=DIR node export.mjs OUT INPUT [OUT INPUT...]');
	process.exit(2);
}
const browser = await chromium.launch({
	executablePath: process.env.PERFAN_CHROMIUM || '/usr/bin/chromium',
	args: ['--no-sandbox'],
});
try {
	for (let i = 0; i < args.length; i += 2) {
		const [out, input] = [args[i], args[i + 1]];
		const page = await browser.newPage({ acceptDownloads: true });
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		await page.goto(pathToFileURL(path.join(release, 'index.html')).href);
		await page.setInputFiles('#file', input);
		const button = page.getByText('Export', { exact: false });
		await button.first().waitFor({ timeout: 300000 });
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			button.first().click(),
		]);
		await download.saveAs(out);
		if (errors.length)
			throw new Error(`${input}: ${errors.join('; ')}`);
		console.log(`${input} -> ${out} (${fs.statSync(out).size} bytes, ` +
			`speedscope named it ${download.suggestedFilename()})`);
		await page.close();
	}
} finally {
	await browser.close();
}
