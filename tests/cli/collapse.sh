#!/usr/bin/env bash
# collapse.sh: perfan collapse on perf.data agrees with perfan's fold of
# perf's own `perf script` text of the same recording (>= 99 % of samples,
# inlined frames included, frame pointers and DWARF alike); the 78
# stackcollapse-perf.pl compatibility cases; folded pass-through; errors.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. perf.data vs perf script text, on every recording that has both
n=0
for d in testdata/*/; do
	d=${d%/}
	[ -f "$d/perf.data" ] && [ -f "$d/script.txt" ] || continue
	case $d in *py3*) continue ;; esac # Python: issue 6
	python3 tests/tools/collapse_agree.py "$PERFAN_BIN" "$d" \
		"$d/perf.data" "$d/script.txt"
	n=$((n + 1))
done
[ "$n" -ge 8 ] || { echo "FAIL: only $n recordings compared"; exit 1; }

# 2. stackcollapse-perf.pl's 78 cases (peer data)
compat=../shared/tools/check-collapse-compat.sh
if [ -x "$compat" ] || [ -f "$compat" ]; then
	bash "$compat" "$PERFAN_BIN" collapse | tail -1
else
	echo "SKIP: ../shared is absent: stackcollapse-perf.pl cases not run"
fi

# 3. folded input is merged and sorted; a bad line names file:line
printf 'a;b 2\nb;c 1\na;b 3\n' >"$tmp/in.folded"
out=$("$PERFAN_BIN" collapse "$tmp/in.folded" 2>/dev/null)
[ "$out" = "$(printf 'a;b 5\nb;c 1')" ] || { echo "FAIL: folded merge: $out"; exit 1; }
printf 'a;b 2\nnot a folded line\n' >"$tmp/bad.folded"
set +e
"$PERFAN_BIN" collapse "$tmp/bad.folded" >/dev/null 2>"$tmp/err"; rc=$?
set -e
[ "$rc" = 1 ] && grep -q "bad.folded" "$tmp/err" ||
	{ echo "FAIL: bad folded line: rc=$rc $(cat "$tmp/err")"; exit 1; }
printf 'a;b 2\n' | "$PERFAN_BIN" collapse - >/dev/null
set +e
"$PERFAN_BIN" collapse /nonexistent/perf.data 2>"$tmp/err"; rc=$?
set -e
[ "$rc" = 1 ] && grep -q "^perfan collapse: " "$tmp/err" ||
	{ echo "FAIL: missing file: rc=$rc $(cat "$tmp/err")"; exit 1; }
set +e
"$PERFAN_BIN" collapse --no-such-option 2>/dev/null; rc=$?
set -e
[ "$rc" = 2 ] || { echo "FAIL: bad option gave $rc"; exit 1; }

# 4. -o writes the same as stdout; stdin pipe-mode perf.data works
"$PERFAN_BIN" collapse -o "$tmp/o.folded" testdata/fp/perf.data
"$PERFAN_BIN" collapse testdata/fp/perf.data | cmp - "$tmp/o.folded"
"$PERFAN_BIN" collapse testdata/pipe/perf.data >"$tmp/a"
"$PERFAN_BIN" collapse - <testdata/pipe/perf.data >"$tmp/b"
cat testdata/pipe/perf.data | "$PERFAN_BIN" collapse - >"$tmp/c"
cmp "$tmp/a" "$tmp/b" && cmp "$tmp/a" "$tmp/c"
echo "ok: collapse"
