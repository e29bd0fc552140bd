// range.js: the triage page filtered to a range selected on its timeline
// (timeline.js fires "perfan-range"): the thread table's times become the
// range's, and each flame graph is drawn again from the timeline's on-CPU
// samples and off-CPU segments in the range, its title giving the range's
// total. Clearing the range puts the page back. Embedded in the library
// (render/triage_html.c); no network, no library.
/* exported perfanTriageRange */
function perfanTriageRange(tlId) {
	'use strict';
	var T = window.perfanTimelines[tlId], D = T.data;
	var S = JSON.parse(document.getElementById(tlId + '-style').textContent);
	var NK = D.kinds.length, NC = D.classes.length;
	var laneOfTid = {};
	T.lanes.forEach(function (L, i) { laneOfTid[L.tid] = i; });
	function ms(ns) { return (ns / 1e6).toFixed(1); }

	// ---- the thread table ----------------------------------------------
	var table = document.querySelector('section#on-cpu table');
	var saved = null;
	function filterTable(a, b) {
		if (!table) return;
		var rows = table.querySelectorAll('tr');
		if (!rows.length) return;
		if (!saved) saved = Array.prototype.map.call(rows, function (r) { return r.innerHTML; });
		var head = Array.prototype.map.call(rows[0].children, function (c) { return c.textContent; });
		var col = function (name) { return head.indexOf(name); };
		var tidCol = col('tid');
		var tot = T.totals(a, b), on = new Array(T.lanes.length).fill(0);
		var ss = D.samples;
		for (var i = 0; i < ss.length; i += 4)
			if (ss[i] >= a && ss[i] <= b) on[ss[i + 1]] += ss[i + 3];
		for (var r = 1; r < rows.length; r++) {
			var cells = rows[r].children, lane = laneOfTid[cells[tidCol] ? cells[tidCol].textContent : ''];
			if (lane === undefined) continue;
			var t = tot[lane], wall = 0, off = 0;
			for (var k = 0; k < NK; k++) { wall += t[k]; if (k) off += t[k]; }
			var set = function (name, text, ns) {
				var c = col(name);
				if (c >= 0 && cells[c]) { cells[c].textContent = text; cells[c].dataset.ns = ns; }
			};
			set('wall ms', ms(wall), wall);
			set('on-CPU ms', ms(on[lane]), on[lane]);
			set('off-CPU ms', ms(off), off);
			for (var s = 1; s < NK; s++) set(D.kinds[s] + ' ms', ms(t[s]), t[s]);
			set('CPU/wall', wall ? (on[lane] / wall).toFixed(2) : '0.00', '');
		}
		// a pool's row: the sums of its threads'
		var pools = table.querySelectorAll('tbody.pool');
		for (var p = 0; p < pools.length; p++) {
			var prow = pools[p].querySelector('tr.pool-row');
			if (!prow) continue;
			var sum = {}, members = pools[p].querySelectorAll('tr.member');
			for (var m = 0; m < members.length; m++)
				for (var c = 0; c < members[m].children.length; c++) {
					var v = members[m].children[c].dataset.ns;
					if (v !== undefined && v !== '') sum[c] = (sum[c] || 0) + Number(v);
				}
			Object.keys(sum).forEach(function (c) {
				var cell = prow.children[c];
				if (cell) { cell.textContent = ms(sum[c]); cell.dataset.ns = sum[c]; }
			});
			var cw = col('CPU/wall'), w = sum[col('wall ms')], o = sum[col('on-CPU ms')];
			if (cw >= 0 && prow.children[cw]) prow.children[cw].textContent = w ? (o / w).toFixed(2) : '0.00';
		}
	}
	function restoreTable() {
		if (!table || !saved) return;
		var rows = table.querySelectorAll('tr');
		saved.forEach(function (h, i) { if (rows[i]) rows[i].innerHTML = h; });
		saved = null;
	}

	// ---- the flame graphs ----------------------------------------------
	var paths = {};
	function path(node) { // frame ids, root first
		if (paths[node]) return paths[node];
		var p = [];
		for (var n = node; n > 0; n = D.stacks[(n - 1) * 2]) p.push(D.stacks[(n - 1) * 2 + 1]);
		return (paths[node] = p.reverse());
	}
	// the rule the page's graphs were drawn by (triage_html.c): a root per
	// command, or per thread; a wait's kernel frames folded into its leaf,
	// or kept
	var fgSection = document.getElementById('flamegraph') || { dataset: {} };
	var perThread = fgSection.dataset.perThread === '1';
	var kernelDetail = fgSection.dataset.kernelDetail === '1';
	function rootName(lane) {
		var L = D.lanes[lane];
		if (!L) return '?';
		return perThread ? (L.name || L.comm) + ' ' + L.pid + '/' + L.tid : L.comm;
	}
	// weights: [stack node, leaf label or null, colour, ns, lane]
	function tree(weights) {
		var root = { name: 'all', w: 0, kids: {} };
		weights.forEach(function (x) {
			var n = root, p = x[0] >= 0 ? path(x[0]) : [];
			if (x[1] && !kernelDetail) {
				var k = p.length;
				while (k > 0 && D.frames[p[k - 1]][2] === D.kernel_kind) k--;
				if (k < p.length) p = p.slice(0, k);
			}
			n.w += x[3];
			var add = function (name, colour) {
				var c = n.kids[name] || (n.kids[name] = { name: name, w: 0, kids: {}, colour: colour });
				c.w += x[3];
				n = c;
			};
			add(rootName(x[4]), null);
			p.forEach(function (f) { add(D.frames[f][0], null); });
			if (x[1]) add('[' + x[1] + ']', x[2]);
		});
		return root;
	}
	function hue(name) {
		var h = 0;
		for (var i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
		return 'rgb(' + (205 + h % 50) + ',' + (80 + (h >> 8) % 130) + ',' + (40 + (h >> 16) % 50) + ')';
	}
	function draw(box, root, title) {
		box.innerHTML = '';
		var p = document.createElement('p');
		p.className = 'fg-range-title';
		p.dataset.totalNs = root.w;
		p.textContent = title + ': ' + ms(root.w) + ' ms';
		box.appendChild(p);
		var width = box.clientWidth || 1200, H = 17, rects = [], depth = 0;
		(function walk(n, x, d) {
			var w = n.w / (root.w || 1) * width;
			if (w < 0.3) return;
			rects.push([n, x, d, w]);
			if (d > depth) depth = d;
			var kx = x;
			Object.keys(n.kids).sort().forEach(function (k) {
				walk(n.kids[k], kx, d + 1);
				kx += n.kids[k].w / (root.w || 1) * width;
			});
		})(root, 0, 0);
		var g = document.createElement('div');
		g.className = 'fg-range-graph';
		g.style.cssText = 'position:relative;height:' + ((depth + 1) * H) + 'px';
		var frag = document.createDocumentFragment();
		rects.forEach(function (r) {
			var e = document.createElement('div'), n = r[0];
			e.style.cssText = 'position:absolute;overflow:hidden;white-space:nowrap;' +
				'font:11px sans-serif;box-sizing:border-box;border:1px solid #fff;left:' + r[1] +
				'px;width:' + r[3] + 'px;bottom:' + (r[2] * H) + 'px;height:' + H + 'px;background:' +
				(n.colour || (r[2] ? hue(n.name) : '#ddd'));
			e.title = n.name + ' (' + ms(n.w) + ' ms, ' + (100 * n.w / (root.w || 1)).toFixed(2) + '%)';
			if (r[3] > 30) e.textContent = n.name;
			frag.appendChild(e);
		});
		g.appendChild(frag);
		box.appendChild(g);
	}
	function graphs(a, b) {
		var ss = D.samples, byStack = {};
		for (var i = 0; i < ss.length; i += 4)
			if (ss[i] >= a && ss[i] <= b) {
				var key = ss[i + 1] + ':' + ss[i + 2];
				byStack[key] = (byStack[key] || 0) + ss[i + 3];
			}
		var cpu = Object.keys(byStack).map(function (s) {
			var ls = s.split(':');
			return [+ls[1], null, null, byStack[s], +ls[0]];
		});
		var wait = [];
		T.lanes.forEach(function (L, lane) {
			for (var s = 0; s < L.n; s++) {
				if (L.en[s] <= a || L.st[s] >= b) continue;
				var x0 = Math.max(L.st[s], a), x1 = Math.min(L.en[s], b), len = L.en[s] - L.st[s];
				if (L.mix[s] < 0) {
					if (L.kind[s]) wait.push([L.stack[s], S.labels[L.kind[s] * NC + L.cls[s]],
						S.colors[L.kind[s] * NC + L.cls[s]], x1 - x0, lane]);
					continue;
				}
				for (var k = 1; k < NK; k++) {
					var v = D.mixes[L.mix[s] * NK + k];
					if (v) wait.push([L.stack[s], S.labels[k * NC + L.cls[s]], S.colors[k * NC + L.cls[s]],
						x0 === L.st[s] && x1 === L.en[s] ? v : Math.round(v * (x1 - x0) / len), lane]);
				}
			}
		});
		// each graph's own title (its mode, event and rule), and the range
		var span = ', from ' + (a / 1e6).toFixed(3) + ' to ' + (b / 1e6).toFixed(3) + ' ms';
		[['fg-cpu', cpu, 'On-CPU time'], ['fg-wait', wait, 'Off-CPU time']].forEach(function (x) {
			var f = document.getElementById(x[0]);
			if (!f) return;
			x[2] = (f.title || x[2]) + span;
			var box = document.getElementById(x[0] + '-range');
			if (!box) {
				box = document.createElement('div');
				box.id = x[0] + '-range';
				box.className = 'fg-range';
				f.parentNode.insertBefore(box, f.nextSibling);
			}
			f.style.display = 'none';
			box.style.display = '';
			draw(box, tree(x[1]), x[2]);
		});
	}
	function ungraph() {
		['fg-cpu', 'fg-wait'].forEach(function (id) {
			var f = document.getElementById(id), box = document.getElementById(id + '-range');
			if (f) f.style.display = '';
			if (box) box.remove();
		});
	}

	document.addEventListener('perfan-range', function (e) {
		if (!e.detail) { restoreTable(); ungraph(); return; }
		var a = e.detail.start - D.start, b = e.detail.end - D.start;
		filterTable(a, b);
		graphs(a, b);
	});
}
