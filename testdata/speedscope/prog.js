// prog.js: a small CPU-bound program for node --cpu-prof / --heap-prof:
// main -> work -> hotA (about 60%) / hotB (about 30%) / coldC (about 10%),
// and allocations in makeStrings for the heap profile.
'use strict';
function spin(n) {
	let x = 0;
	for (let i = 0; i < n; i++) x = (x * 31 + i) % 1000003;
	return x;
}
function hotA() { return spin(6e6); }
function hotB() { return spin(3e6); }
function coldC() { return spin(1e6); }
const kept = []; // live at exit, so the heap profile sees them
function makeStrings(n) {
	const a = [];
	for (let i = 0; i < n; i++) a.push('item-' + i + '-' + 'x'.repeat(i % 64));
	kept.push(a);
	return a.length;
}
function work() {
	let s = 0;
	for (let r = 0; r < 40; r++) {
		s += hotA() + hotB() + coldC();
		s += makeStrings(20000);
	}
	return s;
}
function main() {
	console.log(work() > 0 ? 'done' : 'zero');
}
main();
