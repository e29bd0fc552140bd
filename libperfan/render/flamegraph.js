// render/flamegraph.js: the interactive part of perfan's flame graphs,
// embedded in each SVG: tooltips and the details line, click to zoom,
// regular-expression search with the matched share, and the view kept in
// the URL (?x=OFFSET&y=DEPTH&s=REGEX&i=1, v=a or v=b for a differential
// graph's shape). Frames carry their position in weight units: data-o
// (offset), data-w (width), data-d (depth).
//# Lines from "//#diff" to "//#end" go into differential graphs only, from
//# "//#plain" to "//#end" into plain ones only (render/svg.c,
//# write_script), so that a plain graph's script stays the same byte for
//# byte; lines starting "//#" go into neither.
(function () {
	"use strict";
	var c = perfan_fg;
	var frames = [], byKey = {};
	var details, unzoomBtn, searchBtn, icBtn, matchedText;
	var zoomed = null, term = null, ignoreCase = false;
	var avail = c.width - 2 * c.xpad;

	function num(n) {
		return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
	}
	function pct(n, total) {
		return total ? (100 * n / total).toFixed(2) : "0.00";
	}
	function signed(x, digits) {
		return (x > 0 ? "+" : "") + x.toFixed(digits);
	}

//#diff
	// A differential graph (two columns: after and before) draws one shape
	// at a time: SIDE "u" the union of both (data-uo, data-uw: each frame
	// as wide as its larger share, so that what vanished and what is new
	// both show), "a" the after weights (data-o, data-w), "b" the before
	// ones (data-bo, data-bw). The functions below read the shape shown
	// from f.o, f.w and c.total, which show() sets; frames without width
	// there are hidden. A zoom into a frame the side lacks shows its
	// nearest caller there and comes back with the other side.
	var side = c.view, target = null, aftertotal = c.total;
	var keys = { u: {}, a: {}, b: {} }, viewBtns = {};
	var views = ["u", "b", "a"];

	// The share of TOTAL in the spans [o, o + w) of frames FS, each stack
	// once, as a percentage.
	function coverage(fs, O, W, total) {
		var spans = [];
		for (var i = 0; i < fs.length; i++)
			if (W(fs[i]) > 0)
				spans.push([O(fs[i]), O(fs[i]) + W(fs[i])]);
		spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
		var n = 0, end = -1;
		for (var j = 0; j < spans.length; j++) {
			var s = Math.max(spans[j][0], end);
			if (spans[j][1] > s) {
				n += spans[j][1] - s;
				end = spans[j][1];
			}
		}
		return pct(n, total);
	}

	// B before against A after: weights, shares of each side's total, the
	// change in points of the total and relative to the before share.
	function versus(b, a) {
		var pb = c.basetotal ? b / c.basetotal : 0;
		var pa = aftertotal ? a / aftertotal : 0;
		var s = num(b) + " \u2192 " + num(a) + " " + c.unit + ", " +
			(100 * pb).toFixed(2) + "% \u2192 " + (100 * pa).toFixed(2) + "%, " +
			signed(100 * (pa - pb), 2) + " points";
		if (b > 0 && a > 0)
			s += ", " + signed(100 * (pa - pb) / pb, 1) + " %";
		else if (a > 0)
			s += ", new";
		else if (b > 0)
			s += ", vanished";
		return s;
	}

	function describeDiff(f) {
		var s = f.name;
		if (f.merged)
			s += " [frames narrower than the minimum width, merged]";
		s += " (total " + versus(f.bw, f.aw);
		if (!f.merged)
			s += "; self " + versus(f.b, f.s);
		return s + ")";
	}

	// Z, or where Z lacks width on the side shown, its deepest caller
	// that has some (null for "all").
	function visible(z) {
		if (!z || z.w > 0)
			return z;
		var zo = z.aw > 0 ? z.ao : z.bo, zw = z.aw > 0 ? z.aw : z.bw;
		var best = null;
		for (var i = 0; i < frames.length; i++) {
			var f = frames[i];
			var fo = z.aw > 0 ? f.ao : f.bo, fw = z.aw > 0 ? f.aw : f.bw;
			if (f.d < z.d && f.d > 0 && f.w > 0 && fo <= zo &&
				fo + fw >= zo + zw && (!best || f.d > best.d))
				best = f;
		}
		return best;
	}

	// Show shape S: relayout, zoom and search kept.
	function show(s) {
		side = s;
		c.total = s === "u" ? c.uniontotal : s === "b" ? c.basetotal : aftertotal;
		for (var i = 0; i < frames.length; i++) {
			var f = frames[i];
			f.o = s === "u" ? f.uo : s === "b" ? f.bo : f.ao;
			f.w = s === "u" ? f.uw : s === "b" ? f.bw : f.aw;
		}
		byKey = keys[s];
		for (var v in viewBtns)
			viewBtns[v].classList.toggle("on", v === s);
		zoom(target);
		search(term);
	}

//#end
	function describe(f) {
//#diff
		if (c.diff)
			return describeDiff(f);
//#end
		var s = f.name;
		if (f.merged)
			s += " [frames narrower than the minimum width, merged]";
		s += " (" + num(f.w) + " " + c.unit + ", " + pct(f.w, c.total) + "%";
//#plain
//# dead code in a plain graph (c.diff is 0), kept for its bytes
		if (c.diff && f.merged === 0) {
			var before = c.basetotal ? f.b / c.basetotal : 0;
			var after = c.total ? f.s / c.total : 0;
			s += "; self " + (100 * before).toFixed(2) + "% before, " +
				(100 * after).toFixed(2) + "% after, " +
				signed(100 * (after - before), 2) + " points";
			if (before > 0)
				s += ", " + signed(100 * (after - before) / before, 1) + "%";
			else if (after > 0)
				s += ", new";
		}
//#end
		return s + ")";
	}

	function fitText(name, width) {
		var room = (width - 6) / (c.fontsize * c.fontwidth);
		if (room < 3)
			return "";
		var chars = Array.from(name);
		if (chars.length <= room)
			return name;
		return chars.slice(0, Math.floor(room) - 2).join("") + "..";
	}

	function place(f, x, w) {
		f.rect.setAttribute("x", x.toFixed(1));
		f.rect.setAttribute("width", w.toFixed(1));
		var t = fitText(f.name, w);
		if (!f.text) {
			if (!t)
				return;
			// narrow frames come without a text element
			f.text = document.createElementNS("http://www.w3.org/2000/svg", "text");
			var y = Number(f.rect.getAttribute("y"));
			f.text.setAttribute("y", String(y + c.frameheight / 2 + c.fontsize / 3));
			f.g.appendChild(f.text);
		}
		f.text.setAttribute("x", (x + 3).toFixed(1));
		f.text.textContent = t;
	}

	// Zoom to frame Z (null: the whole graph): Z and what is above it
	// fill the width, its callers are drawn faded at full width, the rest
	// is hidden.
	function zoom(z) {
		zoomed = z && z.d > 0 ? z : null;
//#diff
		if (c.diff) {
			target = zoomed;
			zoomed = visible(zoomed);
		}
//#end
		var o = zoomed ? zoomed.o : 0, w = zoomed ? zoomed.w : c.total;
		var d = zoomed ? zoomed.d : 0, scale = w ? avail / w : 0;
		for (var i = 0; i < frames.length; i++) {
			var f = frames[i], cl = f.g.classList;
//#diff
			if (c.diff && !(f.w > 0)) {
				cl.add("hide");
				continue;
			}
//#end
			if (f.d >= d && f.o >= o && f.o + f.w <= o + w) {
				cl.remove("hide");
				cl.remove("parent");
				place(f, c.xpad + (f.o - o) * scale, f.w * scale);
			} else if (f.d < d && f.o <= o && f.o + f.w >= o + w) {
				cl.remove("hide");
				cl.add("parent");
				place(f, c.xpad, avail);
			} else {
				cl.add("hide");
			}
		}
		unzoomBtn.classList.toggle("hide", !zoomed);
		saveView();
	}

	function search(t) {
		term = t || null;
		var re = null, invalid = false;
		if (term) {
			try {
				re = new RegExp(term, ignoreCase ? "i" : "");
			} catch (e) {
				invalid = true;
				term = null;
			}
		}
		var spans = [];
		for (var i = 0; i < frames.length; i++) {
			var f = frames[i], hit = !!re && !f.merged && re.test(f.name);
			f.g.classList.toggle("match", hit);
			f.rect.setAttribute("fill", hit ? "rgb(230,0,230)" : f.fill);
			if (hit)
				spans.push([f.o, f.o + f.w]);
		}
		// each stack once: a match inside another match's span (its
		// caller matched too, as in recursion) adds nothing
		spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
		var covered = 0, end = -1;
		for (var j = 0; j < spans.length; j++) {
			var s = Math.max(spans[j][0], end);
			if (spans[j][1] > s) {
				covered += spans[j][1] - s;
				end = spans[j][1];
			}
		}
		matchedText.textContent = re ? "Matched: " + pct(covered, c.total) + "%"
			: invalid ? "Invalid regular expression" : " ";
//#diff
		// the union's widths are no side's: the share matched of each
		if (c.diff && side === "u" && re) {
			var hits = frames.filter(function (f) { return f.g.classList.contains("match"); });
			matchedText.textContent = "Matched: " +
				coverage(hits, function (f) { return f.bo; }, function (f) { return f.bw; }, c.basetotal) +
				"% before, " +
				coverage(hits, function (f) { return f.ao; }, function (f) { return f.aw; }, aftertotal) +
				"% after";
		}
//#end
		searchBtn.textContent = term ? "Reset Search" : "Search";
		searchBtn.setAttribute("data-matched", re ? covered : "");
		saveView();
	}

	function askSearch() {
		var t = window.prompt("Search for (regular expression):", term || "");
		if (t !== null)
			search(t);
	}

	function saveView() {
		var q = [];
//#diff
		if (side !== c.view)
			q.push("v=" + side);
//#end
		if (zoomed)
			q.push("x=" + zoomed.o, "y=" + zoomed.d);
		if (term)
			q.push("s=" + encodeURIComponent(term));
		if (ignoreCase)
			q.push("i=1");
		try {
			history.replaceState(null, "", location.pathname +
				(q.length ? "?" + q.join("&") : ""));
		} catch (e) {
			// some viewers keep the URL fixed: the view still works
		}
	}

	function frameOf(node) {
		while (node && node.parentNode && node.parentNode.id !== "frames")
			node = node.parentNode;
		return node && node.perfanFrame ? node.perfanFrame : null;
	}

	function init() {
		details = document.getElementById("details");
		unzoomBtn = document.getElementById("unzoom");
		searchBtn = document.getElementById("search");
		icBtn = document.getElementById("ignorecase");
		matchedText = document.getElementById("matched");
		var root = document.getElementById("frames");
		var gs = root.children;
		for (var i = 0; i < gs.length; i++) {
			var g = gs[i], m = g.getAttribute("data-m");
			var f = {
				g: g,
				o: Number(g.getAttribute("data-o")),
				w: Number(g.getAttribute("data-w")),
				d: Number(g.getAttribute("data-d")),
				s: Number(g.getAttribute("data-s") || 0),
				b: Number(g.getAttribute("data-b") || 0),
				merged: m ? Number(m) : 0,
				title: g.querySelector("title"),
				rect: g.querySelector("rect"),
				text: g.querySelector("text")
			};
			f.name = f.title.textContent;
			f.fill = f.rect.getAttribute("fill");
			g.perfanFrame = f;
			frames.push(f);
			byKey[f.o + ":" + f.d] = f;
//#diff
			if (c.diff) {
				f.ao = f.o;
				f.aw = f.w;
				f.bo = Number(g.getAttribute("data-bo"));
				f.bw = Number(g.getAttribute("data-bw"));
				f.uo = Number(g.getAttribute("data-uo"));
				f.uw = Number(g.getAttribute("data-uw"));
				// frames without width share offsets with others
				if (f.aw > 0)
					keys.a[f.ao + ":" + f.d] = f;
				if (f.bw > 0)
					keys.b[f.bo + ":" + f.d] = f;
				if (f.uw > 0)
					keys.u[f.uo + ":" + f.d] = f;
			}
//#end
		}
//#diff
		if (c.diff)
			byKey = keys.a;
//#end
		root.addEventListener("mouseover", function (e) {
			var f = frameOf(e.target);
			if (!f)
				return;
			var text = describe(f);
			details.textContent = c.nametype + " " + text;
			f.title.textContent = text;
		});
		root.addEventListener("mouseout", function (e) {
			var f = frameOf(e.target);
			if (f)
				details.textContent = " ";
		});
		root.addEventListener("click", function (e) {
			var f = frameOf(e.target);
			if (f)
				zoom(f);
		});
		unzoomBtn.addEventListener("click", function () { zoom(null); });
		searchBtn.addEventListener("click", function () {
			if (term)
				search(null);
			else
				askSearch();
		});
		icBtn.addEventListener("click", function () {
			ignoreCase = !ignoreCase;
			icBtn.classList.toggle("on", ignoreCase);
			search(term);
		});
		window.addEventListener("keydown", function (e) {
			if (e.keyCode === 114 || ((e.ctrlKey || e.metaKey) && e.keyCode === 70)) {
				e.preventDefault();
				askSearch();
			} else if ((e.ctrlKey || e.metaKey) && e.keyCode === 73) {
				e.preventDefault();
				icBtn.dispatchEvent(new MouseEvent("click"));
			} else if (e.keyCode === 27) {
				search(null);
				zoom(null);
			}
//#diff
			// b: the next shape, both, before, after
			if (c.diff && e.keyCode === 66 && !e.ctrlKey && !e.metaKey && !e.altKey)
				show(views[(views.indexOf(side) + 1) % 3]);
//#end
		});
		// the view of the URL
		var params = {};
		location.search.replace(/^\?/, "").split("&").forEach(function (kv) {
			var p = kv.indexOf("=");
			if (p <= 0)
				return;
			try {
				params[kv.slice(0, p)] = decodeURIComponent(kv.slice(p + 1).replace(/\+/g, " "));
			} catch (e) {
				// a broken escape: that part of the view is lost
			}
		});
		if (params.i === "1") {
			ignoreCase = true;
			icBtn.classList.add("on");
		}
//#diff
		if (c.diff) {
			views.forEach(function (v) {
				viewBtns[v] = document.getElementById("view-" + v);
				viewBtns[v].addEventListener("click", function () { show(v); });
			});
			// the shape the graph opens with, or the URL's
			var v0 = params.v === "a" || params.v === "b" || params.v === "u" ? params.v : c.view;
			show(v0);
		}
//#end
		if (params.x !== undefined && params.y !== undefined) {
			var z = byKey[Number(params.x) + ":" + Number(params.y)];
			if (z)
				zoom(z);
		}
		if (params.s)
			search(params.s);
	}

	if (document.readyState === "loading")
		window.addEventListener("load", init);
	else
		init();
})();
