// timeline.js: perfan's thread timeline, drawn on a canvas from the JSON
// its page carries (render/timeline_json.c): a lane per thread, its states
// coloured, wake arrows from waker to wakee, the stack on hover, zoom
// (wheel), pan (drag), a range (shift-drag) whose totals the table below
// shows and which the page hears of ("perfan-range" on the document).
// Embedded in the library (render/timeline_html.c); no network, no
// library.
/* exported perfanTimeline */
function perfanTimeline(id) {
	'use strict';
	var root = document.getElementById(id);
	var D = JSON.parse(document.getElementById(id + '-data').textContent).timeline;
	var S = JSON.parse(document.getElementById(id + '-style').textContent);
	var NK = D.kinds.length, NC = D.classes.length;
	var LW = 190, LH = 16, TOP = 22;
	var canvas = root.querySelector('canvas');
	var tip = root.querySelector('.tl-tip');
	var status = root.querySelector('.tl-status');
	var ctx = canvas.getContext('2d');
	var span = D.end - D.start;
	var t0 = performance.now();

	// the lanes: segments as typed arrays, times in ns from D.start
	var lanes = D.lanes.map(function (l) {
		var a = l.segments, n = a.length / 6;
		var L = {
			name: (l.name || l.comm || '?') + ' ' + l.pid + '/' + l.tid, pid: l.pid, tid: l.tid,
			pool: l.pool,
			start: l.start, end: l.end, time: l.time, n: n,
			st: new Float64Array(n), en: new Float64Array(n), kind: new Uint8Array(n),
			cls: new Uint8Array(n), stack: new Int32Array(n), site: new Int32Array(n),
			mix: new Int32Array(n),
		};
		var at = l.start;
		for (var i = 0, j = 0; i < n; i++, j += 6) {
			L.st[i] = at;
			at = L.en[i] = at + a[j];
			L.kind[i] = a[j + 1];
			L.cls[i] = a[j + 2];
			L.stack[i] = a[j + 3];
			L.site[i] = a[j + 4];
			L.mix[i] = a[j + 5];
		}
		return L;
	});
	// the rows drawn: a lane, or a pool of lanes (collapsed until its
	// name is clicked, then followed by its lanes)
	var pools = (D.pools || []).map(function (p, i) {
		return { name: p.name + ' [' + p.lanes + ' threads] ' + p.pid, index: i, open: false,
			members: lanes.filter(function (L) { return L.pool === i; }) };
	});
	var rows = [], laneOf = {};
	function layout() {
		rows = [];
		var seen = {};
		lanes.forEach(function (L) {
			if (L.pool < 0) { rows.push({ lane: L }); return; }
			if (seen[L.pool]) return;
			seen[L.pool] = true;
			var P = pools[L.pool];
			rows.push({ pool: P });
			if (P.open) P.members.forEach(function (M) { rows.push({ lane: M, member: true }); });
		});
		laneOf = {};
		rows.forEach(function (r, i) {
			if (r.lane) laneOf[r.lane.tid] = i;
			else if (!r.pool.open) r.pool.members.forEach(function (M) { laneOf[M.tid] = i; });
		});
	}
	layout();
	// the wakeups' times made ns from D.start (each is from the one before)
	var W = D.wakes, NW = W.length / 6;
	for (var q = 0, tw = 0; q < NW; q++) W[q * 6] = tw += W[q * 6];
	var view = [0, span > 0 ? span : 1];
	var range = null, drag = null;

	function color(k, c) { return S.colors[k * NC + c]; }
	function label(k, c) { return S.labels[k * NC + c]; }
	function ms(ns) { return (ns / 1e6).toFixed(3); }

	// the first index of sorted ARR (N long) whose value is above V
	function above(arr, n, v) {
		var lo = 0, hi = n;
		while (lo < hi) {
			var m = (lo + hi) >> 1;
			if (arr[m] > v) hi = m; else lo = m + 1;
		}
		return lo;
	}

	// the first index of sorted ARR (N long) whose value is V or above
	function from(arr, n, v) {
		var lo = 0, hi = n;
		while (lo < hi) {
			var m = (lo + hi) >> 1;
			if (arr[m] >= v) hi = m; else lo = m + 1;
		}
		return lo;
	}

	function size() {
		var r = window.devicePixelRatio || 1;
		var w = Math.max(400, root.clientWidth || 1000);
		var h = TOP + rows.length * LH + 6;
		canvas.width = Math.round(w * r);
		canvas.height = Math.round(h * r);
		canvas.style.width = w + 'px';
		canvas.style.height = h + 'px';
		ctx.setTransform(r, 0, 0, r, 0, 0);
		return w;
	}
	var width = size();

	function xOf(t) { return LW + (t - view[0]) * (width - LW) / (view[1] - view[0]); }
	function tOf(x) { return view[0] + (x - LW) * (view[1] - view[0]) / (width - LW); }

	function axis() {
		ctx.fillStyle = '#333';
		ctx.font = '11px sans-serif';
		var d = view[1] - view[0], step = Math.pow(10, Math.floor(Math.log10(d / 8)));
		if (d / step > 16) step *= 5; else if (d / step > 8) step *= 2;
		for (var t = Math.ceil(view[0] / step) * step; t <= view[1]; t += step) {
			var x = xOf(t);
			ctx.fillRect(x, TOP - 6, 1, 5);
			ctx.fillText((t / 1e6).toFixed(step < 1e6 ? 3 : step < 1e9 ? 1 : 0) + ' ms', x + 2, TOP - 8);
		}
	}

	var wakesDrawn = 0;
	function label(text, y) {
		ctx.fillText(text.length > 30 ? text.slice(0, 29) + '\u2026' : text, 2, y + 11);
	}
	function drawLane(L, y, v0, v1, k) {
			var last = '', px = -1;
			for (var s = above(L.en, L.n, v0); s < L.n && L.st[s] < v1; s++) {
				var x0 = LW + (L.st[s] - v0) * k, x1 = LW + (L.en[s] - v0) * k;
				if (x0 < LW) x0 = LW;
				if (x1 > width) x1 = width;
				// one sliver a pixel: the first segment that starts in it
				if (x1 - x0 < 1) {
					if ((x0 | 0) === px) continue;
					px = x0 | 0;
				}
				var c = color(L.kind[s], L.cls[s]);
				if (c !== last) ctx.fillStyle = last = c;
				ctx.fillRect(x0, y + 2, Math.max(x1 - x0, 0.6), LH - 4);
			}
	}
	function draw() {
		var h = TOP + rows.length * LH + 6;
		ctx.clearRect(0, 0, width, h);
		axis();
		var v0 = view[0], v1 = view[1], k = (width - LW) / (v1 - v0);
		ctx.font = '11px sans-serif';
		for (var i = 0; i < rows.length; i++) {
			var R = rows[i], y = TOP + i * LH;
			ctx.fillStyle = i % 2 ? '#f4f4f4' : '#fff';
			ctx.fillRect(0, y, width, LH);
			ctx.fillStyle = '#222';
			if (R.lane) {
				label((R.member ? '  ' : '') + R.lane.name, y);
				drawLane(R.lane, y, v0, v1, k);
				continue;
			}
			// a pool: its lanes over each other, each faint
			label((R.pool.open ? '\u25be ' : '\u25b8 ') + R.pool.name, y);
			if (R.pool.open) continue;
			ctx.globalAlpha = Math.max(0.06, 1 / Math.sqrt(R.pool.members.length));
			R.pool.members.forEach(function (M) { drawLane(M, y, v0, v1, k); });
			ctx.globalAlpha = 1;
		}
		// wake arrows, when few enough to tell apart
		var w0 = from(wakeTimes, NW, v0), w1 = above(wakeTimes, NW, v1);
		wakesDrawn = 0;
		if (w1 - w0 <= 4000) {
			ctx.strokeStyle = 'rgba(20,20,20,0.75)';
			ctx.fillStyle = 'rgba(20,20,20,0.85)';
			ctx.lineWidth = 1;
			for (var q = w0; q < w1; q++) {
				var a = laneOf[W[q * 6 + 2]], b = laneOf[W[q * 6 + 4]];
				if (a === undefined || b === undefined || a === b) continue;
				var x = LW + (wakeTimes[q] - v0) * k;
				var ya = TOP + a * LH + LH / 2, yb = TOP + b * LH + LH / 2;
				var dir = yb > ya ? 1 : -1;
				ctx.beginPath();
				ctx.moveTo(x, ya);
				ctx.lineTo(x, yb - dir * 3);
				ctx.stroke();
				ctx.beginPath();
				ctx.moveTo(x, yb);
				ctx.lineTo(x - 3, yb - dir * 5);
				ctx.lineTo(x + 3, yb - dir * 5);
				ctx.fill();
				wakesDrawn++;
			}
		}
		if (range) {
			var r0 = Math.max(LW, xOf(range[0])), r1 = Math.min(width, xOf(range[1]));
			ctx.fillStyle = 'rgba(60,120,220,0.18)';
			ctx.fillRect(r0, TOP, Math.max(r1 - r0, 1), rows.length * LH);
		}
		if (drag && drag.range) {
			var d0 = Math.min(drag.x, drag.x1), d1 = Math.max(drag.x, drag.x1);
			ctx.fillStyle = 'rgba(60,120,220,0.25)';
			ctx.fillRect(d0, TOP, d1 - d0, rows.length * LH);
		}
		status.textContent = 'view ' + ms(v0) + ' to ' + ms(v1) + ' ms' +
			(range ? '; range ' + ms(range[0]) + ' to ' + ms(range[1]) + ' ms' : '') +
			(w1 - w0 > 4000 ? '; ' + (w1 - w0) + ' wakeups: zoom in to see them' : '') +
			'; resolution ' + (D.resolution / 1e3).toFixed(1) + ' \u00b5s';
	}
	var wakeTimes = new Float64Array(NW);
	for (var q = 0; q < NW; q++) wakeTimes[q] = W[q * 6];

	// each lane's ns by kind in [A, B): a merged segment's mix shared out
	// by the part of it inside
	function totals(a, b) {
		return lanes.map(function (L) {
			var t = new Array(NK).fill(0);
			for (var s = above(L.en, L.n, a); s < L.n && L.st[s] < b; s++) {
				var x0 = Math.max(L.st[s], a), x1 = Math.min(L.en[s], b);
				if (x1 <= x0) continue;
				var whole = x0 === L.st[s] && x1 === L.en[s];
				if (L.mix[s] < 0) {
					t[L.kind[s]] += x1 - x0;
					continue;
				}
				var f = (x1 - x0) / (L.en[s] - L.st[s]);
				for (var k = 0; k < NK; k++) {
					var v = D.mixes[L.mix[s] * NK + k];
					t[k] += whole ? v : Math.round(v * f);
				}
			}
			return t;
		});
	}

	var table = root.querySelector('table.tl-totals');
	function showTotals() {
		// the whole recording's: each lane's own (the sum of its
		// segments, as the library counts them)
		var tt = range ? totals(range[0], range[1]) : lanes.map(function (L) { return L.time; });
		var used = new Array(NK).fill(false);
		tt.forEach(function (t) { t.forEach(function (v, k) { if (v) used[k] = true; }); });
		used[0] = true;
		var h = ['<tr><th class="l">thread</th><th>tid</th>'];
		for (var k = 0; k < NK; k++)
			if (used[k]) h.push('<th>' + D.kinds[k] + ' ms</th>');
		h.push('</tr>');
		tt.forEach(function (t, i) {
			var L = lanes[i];
			h.push('<tr data-tid="' + L.tid + '"><td class="l"></td><td>' + L.tid + '</td>');
			for (var k = 0; k < NK; k++)
				if (used[k]) h.push('<td data-kind="' + k + '" data-ns="' + t[k] + '">' + ms(t[k]) + '</td>');
			h.push('</tr>');
		});
		table.innerHTML = h.join('');
		var rows = table.querySelectorAll('tr[data-tid] td.l');
		for (var i = 0; i < rows.length; i++) rows[i].textContent = lanes[i].name;
		var cap = root.querySelector('.tl-caption');
		cap.textContent = range ? 'Time by state from ' + ms(range[0]) + ' to ' + ms(range[1]) + ' ms:'
			: 'Time by state over the whole recording:';
	}

	function setRange(a, b) {
		range = a === null || a === undefined ? null
			: [Math.round(Math.max(0, Math.min(a, b))), Math.round(Math.min(span, Math.max(a, b)))];
		draw();
		showTotals();
		document.dispatchEvent(new CustomEvent('perfan-range', {
			detail: range ? { start: D.start + range[0], end: D.start + range[1] } : null,
		}));
	}

	function stackText(node, site) {
		var out = [], n = 0;
		while (node > 0 && n < 40) {
			var f = D.stacks[(node - 1) * 2 + 1], fr = D.frames[f];
			out.push((f === site ? '\u25b6 ' : '  ') + fr[0] + (fr[1] ? ' (' + fr[1] + ')' : ''));
			node = D.stacks[(node - 1) * 2];
			n++;
		}
		if (node > 0) out.push('  ...');
		return out.join('\n');
	}

	function hover(ev) {
		var r = canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
		var i = Math.floor((y - TOP) / LH);
		if (x < LW || i < 0 || i >= rows.length) { tip.style.display = 'none'; return; }
		if (rows[i].pool) {
			var P = rows[i].pool;
			tip.textContent = P.name + ': its threads drawn over each other; click its name to ' +
				(P.open ? 'fold' : 'show') + ' them';
			tip.style.display = 'block';
			tip.style.left = Math.min(x + 14, width - 360) + 'px';
			tip.style.top = (y + 14) + 'px';
			return;
		}
		var L = rows[i].lane, t = tOf(x), s = above(L.en, L.n, t);
		if (s >= L.n || L.st[s] > t) { tip.style.display = 'none'; return; }
		var txt = L.name + '\n' + label(L.kind[s], L.cls[s]) + ' for ' + ms(L.en[s] - L.st[s]) +
			' ms, from ' + ms(L.st[s]) + ' ms';
		if (L.mix[s] >= 0) {
			txt += '\nmerged (shorter than the resolution):';
			for (var k = 0; k < NK; k++) {
				var v = D.mixes[L.mix[s] * NK + k];
				if (v) txt += '\n  ' + D.kinds[k] + ' ' + ms(v) + ' ms';
			}
		}
		if (L.site[s] >= 0) txt += '\nblocked at ' + D.frames[L.site[s]][0];
		if (L.stack[s] >= 0) txt += '\n' + (L.kind[s] ? 'switch-out stack:' : 'a sample\'s stack:') +
			'\n' + stackText(L.stack[s], L.site[s]);
		tip.textContent = txt;
		tip.style.display = 'block';
		tip.style.left = Math.min(x + 14, width - 360) + 'px';
		tip.style.top = (y + 14) + 'px';
	}

	canvas.addEventListener('wheel', function (ev) {
		ev.preventDefault();
		var r = canvas.getBoundingClientRect(), x = ev.clientX - r.left;
		if (x < LW) return;
		var t = tOf(x), f = Math.exp(ev.deltaY * 0.002);
		var d = Math.min(span, Math.max(1000, (view[1] - view[0]) * f));
		var a = t - (t - view[0]) * d / (view[1] - view[0]);
		a = Math.max(0, Math.min(a, span - d));
		view = [a, a + d];
		draw();
	}, { passive: false });
	canvas.addEventListener('mousedown', function (ev) {
		var r = canvas.getBoundingClientRect(), x = ev.clientX - r.left;
		if (x < LW) {
			// a pool's name: show or fold its threads
			var i = Math.floor((ev.clientY - r.top - TOP) / LH);
			if (i >= 0 && i < rows.length && rows[i].pool) togglePool(rows[i].pool.index);
			return;
		}
		drag = { x: x, x1: x, v: view.slice(), range: ev.shiftKey };
		ev.preventDefault();
	});
	window.addEventListener('mousemove', function (ev) {
		if (!drag) { if (ev.target === canvas) hover(ev); else tip.style.display = 'none'; return; }
		var r = canvas.getBoundingClientRect(), x = ev.clientX - r.left;
		drag.x1 = Math.max(LW, Math.min(width, x));
		if (!drag.range) {
			var d = drag.v[1] - drag.v[0], dt = (drag.x - x) * d / (width - LW);
			var a = Math.max(0, Math.min(drag.v[0] + dt, span - d));
			view = [a, a + d];
		}
		draw();
	});
	window.addEventListener('mouseup', function () {
		if (!drag) return;
		var g = drag;
		drag = null;
		if (g.range && Math.abs(g.x1 - g.x) > 2) setRange(tOf(g.x), tOf(g.x1));
		else draw();
	});
	canvas.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
	root.querySelector('.tl-reset').addEventListener('click', function () {
		view = [0, span > 0 ? span : 1];
		draw();
	});
	root.querySelector('.tl-clear').addEventListener('click', function () { setRange(null); });
	window.addEventListener('resize', function () { width = size(); draw(); });

	function togglePool(p) {
		pools[p].open = !pools[p].open;
		layout();
		width = size();
		draw();
	}

	draw();
	showTotals();
	var api = {
		rows: function () {
			return rows.map(function (r) {
				return r.lane ? { tid: r.lane.tid, member: !!r.member }
					: { pool: r.pool.index, threads: r.pool.members.length, open: r.pool.open };
			});
		},
		togglePool: togglePool,
		data: D, lanes: lanes,
		// ns from the start of the recording, or null: the whole
		setRange: setRange,
		setView: function (a, b) { view = [a, b]; draw(); },
		totals: totals,
		wakesDrawn: function () { return wakesDrawn; },
		drawnMs: performance.now() - t0,
		// since the page's navigation started: loading, parsing, drawing
		drawnAt: performance.now(),
	};
	window.perfanTimelines = window.perfanTimelines || {};
	window.perfanTimelines[id] = api;
	root.dataset.drawnMs = api.drawnMs.toFixed(1);
	return api;
}
