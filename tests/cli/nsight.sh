#!/bin/bash
# tests/cli/nsight.sh: Nsight Systems' SQLite export (nsys 2022.2, schema
# 2.9.1: ../shared/peer-data/kineto/nsys-saxpy-mpi-cuda-2022.2.sqlite; skipped
# when absent) read as a trace, against SQL queries over the same tables
# written here and run by the sqlite3 command:
# - the GPU time of each kernel, copy and set, under the CUDA API call that
#   launched it (correlationId), is what the tables sum per pair;
# - each thread's CPU time (its spans' self times) adds up to the union of
#   its CUDA API calls and NVTX ranges, as SQL merges them;
# - perfan gpu's busy and idle time per device over the whole trace (no
#   ProfilerStep annotations) are the union of the device's kernel, copy
#   and set intervals, and the window (first event's start to last event's
#   end, CPU and GPU) less it;
# - a stream ('-', a pipe) reads as the file does; a trace without a table
#   (no memcpy) reads what is left;
# - another SQLite database, a missing StringIds, a missing column, and
#   damaged copies (cut, bytes flipped) give a one-line error, never a
#   crash.
set -u

BIN=${PERFAN_BIN:?PERFAN_BIN must name the perfan binary}
PEERDATA=${PERFAN_PEERDATA:-../shared/peer-data}
N=$PEERDATA/kineto/nsys-saxpy-mpi-cuda-2022.2.sqlite

if [ ! -f "$N" ]; then
	echo "SKIP: $N is absent"
	exit 77
fi
if ! command -v sqlite3 >/dev/null; then
	echo "SKIP: no sqlite3 command (apt-get install sqlite3)"
	exit 77
fi

. tests/tools/cli_common.sh

# The CUDA API calls perfan takes (eventClass 0 runtime, 1 driver; 2022.2
# has no ENUM_NSYS_EVENT_CLASS), by correlationId; the GPU work with its
# duration and name (kernels by demangled name, copies by CUPTI's kind as
# Kineto names them): "LAUNCH;WORK NS" per pair.
gpu_sql() {
	local memcpy="" memset=""
	if [ "$(sqlite3 "$1" "SELECT count(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_MEMCPY'")" = 1 ]; then
		memcpy="UNION ALL SELECT correlationId, 'Memcpy ' ||
		  CASE copyKind WHEN 1 THEN 'HtoD' WHEN 2 THEN 'DtoH'
		  WHEN 8 THEN 'DtoD' WHEN 10 THEN 'PtoP' ELSE copyKind END,
		  end - start FROM CUPTI_ACTIVITY_KIND_MEMCPY"
	fi
	if [ "$(sqlite3 "$1" "SELECT count(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_MEMSET'")" = 1 ]; then
		memset="UNION ALL SELECT correlationId, 'Memset', end - start
		  FROM CUPTI_ACTIVITY_KIND_MEMSET"
	fi
	sqlite3 "$1" "
	WITH api AS (SELECT r.correlationId AS c, s.value AS name
	  FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId
	  WHERE r.eventClass IN (0, 1)),
	work AS (SELECT k.correlationId AS c,
	    COALESCE(d.value, sh.value) AS name, k.end - k.start AS dur
	  FROM CUPTI_ACTIVITY_KIND_KERNEL k
	  LEFT JOIN StringIds d ON d.id = k.demangledName
	  LEFT JOIN StringIds sh ON sh.id = k.shortName $memcpy $memset)
	SELECT api.name || ';' || work.name || ' ' || SUM(work.dur)
	FROM work JOIN api ON api.c = work.c GROUP BY api.name, work.name
	ORDER BY 1"
}

# perfan's GPU time folded by the last two frames (the launch, the work)
gpu_perfan() {
	awk '{ v = $NF; s = substr($0, 1, length($0) - length(v) - 1)
	       n = split(s, f, ";"); sum[f[n - 1] ";" f[n]] += v }
	     END { for (k in sum) print k " " sum[k] }' | LC_ALL=C sort
}

# same LABEL FILE: perfan's GPU time of FILE is the SQL's
same_gpu() {
	checks=$((checks + 1))
	gpu_sql "$2" | LC_ALL=C sort >"$tmp/want"
	if ! "$BIN" collapse --event "gpu time" "$2" >"$tmp/got.raw" 2>"$tmp/err"; then
		fail "$1: perfan collapse exited non-zero: $(head -c 300 "$tmp/err")"
		return
	fi
	gpu_perfan <"$tmp/got.raw" >"$tmp/got"
	if [ ! -s "$tmp/want" ] || ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
		fail "$1: GPU time per launch and work differs from SQL: $(head -c 600 "$tmp/diff")"
	fi
}

same_gpu "the export" "$N"

# each thread's CPU time: the union of its spans' intervals, merged by a
# running maximum of the ends before each start
checks=$((checks + 1))
want=$(sqlite3 "$N" "
WITH spans AS (
  SELECT globalTid AS g, start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME
  WHERE eventClass IN (0, 1)
  UNION ALL SELECT globalTid, start, end FROM NVTX_EVENTS
  WHERE eventType IN (59, 60) AND end IS NOT NULL),
m AS (SELECT g, start, end, MAX(end) OVER (PARTITION BY g
  ORDER BY start, end ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
  AS prev FROM spans)
SELECT SUM(MAX(0, end - MAX(start, COALESCE(prev, start)))) FROM m")
got=$("$BIN" collapse --event "cpu time" "$N" 2>"$tmp/err" | awk '{ s += $NF } END { print s }')
[ -n "$want" ] && [ "$want" = "$got" ] ||
	fail "CPU time: SQL's union of the threads' spans is $want ns, perfan's $got"

# GPU busy and idle per device, in us with their ns, as perfan gpu --json
# says them (python3's json module reads it)
checks=$((checks + 1))
want=$(sqlite3 "$N" "
WITH ev AS (
  SELECT start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1)
  UNION ALL SELECT start, end FROM NVTX_EVENTS
  WHERE eventType IN (59, 60) AND end IS NOT NULL
  UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL
  UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY
  UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET
  UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION),
win AS (SELECT MIN(start) AS lo, MAX(end) AS hi FROM ev),
work AS (SELECT deviceId AS d, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL
  UNION ALL SELECT deviceId, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY
  UNION ALL SELECT deviceId, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET),
m AS (SELECT d, start, end, MAX(end) OVER (PARTITION BY d ORDER BY start, end
  ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev FROM work),
busy AS (SELECT d, SUM(MAX(0, end - MAX(start, COALESCE(prev, start)))) AS b
  FROM m GROUP BY d)
SELECT printf('device %d: busy %.3f idle %.3f wall %.3f', d, b / 1e3,
  (hi - lo - b) / 1e3, (hi - lo) / 1e3) FROM busy, win ORDER BY d")
got=$("$BIN" gpu --json "$N" 2>"$tmp/err" | python3 -c '
import json, sys
for s in json.load(sys.stdin)["gpu"]["steps"]:
    print("device %d: busy %.3f idle %.3f wall %.3f" % (s["device"],
          s["busy_us"], s["idle_us"], s["wall_us"]))')
[ -n "$want" ] && [ "$want" = "$got" ] ||
	fail "GPU busy and idle: SQL says '$want', perfan gpu '$got' $(head -c 200 "$tmp/err")"

# a stream reads as the file
checks=$((checks + 1))
"$BIN" collapse --event "gpu time" "$N" >"$tmp/file.folded" 2>/dev/null
cat "$N" | "$BIN" collapse --event "gpu time" - >"$tmp/pipe.folded" 2>"$tmp/err"
cmp -s "$tmp/file.folded" "$tmp/pipe.folded" ||
	fail "a pipe ('-') reads otherwise than the file: $(head -c 300 "$tmp/err")"

# a trace without copies: the rest reads
cp "$N" "$tmp/nocopy.sqlite"
chmod u+w "$tmp/nocopy.sqlite"
sqlite3 "$tmp/nocopy.sqlite" "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY"
same_gpu "without CUPTI_ACTIVITY_KIND_MEMCPY" "$tmp/nocopy.sqlite"

# error LABEL FILE PATTERN: perfan report of FILE fails with one line
# matching PATTERN (grep -E), exit 1, no crash
error() {
	checks=$((checks + 1))
	"$BIN" report "$2" >/dev/null 2>"$tmp/err"
	local rc=$?
	if [ "$rc" != 1 ] || [ "$(wc -l <"$tmp/err")" != 1 ] ||
		! grep -Eq -- "$3" "$tmp/err"; then
		fail "$1: exit $rc, want 1 and one line /$3/: $(head -c 300 "$tmp/err")"
	fi
}

sqlite3 "$tmp/other.sqlite" "CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('x')"
error "another database" "$tmp/other.sqlite" \
	"other.sqlite: an SQLite database, but not an Nsight Systems export: it has none of the tables CUPTI_ACTIVITY_KIND_KERNEL"

cp "$N" "$tmp/nostrings.sqlite"
chmod u+w "$tmp/nostrings.sqlite"
sqlite3 "$tmp/nostrings.sqlite" "DROP TABLE StringIds"
error "no StringIds" "$tmp/nostrings.sqlite" "nostrings.sqlite: table StringIds: missing"

cp "$N" "$tmp/nocolumn.sqlite"
chmod u+w "$tmp/nocolumn.sqlite"
sqlite3 "$tmp/nocolumn.sqlite" "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN shortName"
error "a column missing" "$tmp/nocolumn.sqlite" \
	"nocolumn.sqlite: table CUPTI_ACTIVITY_KIND_KERNEL: no such column: k.shortName"

sqlite3 "$tmp/backwards.sqlite" "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, streamId, correlationId, globalPid, demangledName, shortName);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (200, 100, 0, 7, 1, NULL, 1, 1)"
error "an event that ends before it starts" "$tmp/backwards.sqlite" \
	"backwards.sqlite: table CUPTI_ACTIVITY_KIND_KERNEL: an event ends \\(100 ns\\) before it starts \\(200 ns\\)"

# damaged copies: cut, or a byte flipped, anywhere: a result or one line
# naming the file, exit 0 or 1, never a crash
size=$(stat -c %s "$N")
damaged() {
	checks=$((checks + 1))
	"$BIN" report "$tmp/damaged.sqlite" >/dev/null 2>"$tmp/err"
	local rc=$?
	if [ "$rc" = 0 ]; then
		return
	fi
	if [ "$rc" != 1 ] || [ "$(wc -l <"$tmp/err")" != 1 ] ||
		! grep -q "damaged.sqlite: " "$tmp/err"; then
		fail "$1: exit $rc, want 0 or 1 with one line naming the file: $(head -c 300 "$tmp/err")"
	fi
}
for cut in 16 100 1000 4096 4097 65536 200000 800000 $((size - 4096)) $((size - 1)); do
	head -c "$cut" "$N" >"$tmp/damaged.sqlite"
	damaged "cut at $cut"
done
checks=$((checks + 1))
head -c 100000 "$N" >"$tmp/damaged.sqlite"
"$BIN" report "$tmp/damaged.sqlite" >/dev/null 2>"$tmp/err"
grep -q "damaged.sqlite: its list of tables: database disk image is malformed" "$tmp/err" ||
	fail "cut at 100000: SQLite's 'malformed' is not said: $(head -c 300 "$tmp/err")"
for off in 20 28 40 56 100 101 105 2000 4096 4100 8192 12300 40000 300000 700000 1200000 1600000; do
	cp "$N" "$tmp/damaged.sqlite"
	chmod u+w "$tmp/damaged.sqlite"
	printf '\xa5' | dd of="$tmp/damaged.sqlite" bs=1 seek="$off" conv=notrunc status=none
	damaged "a byte at $off"
done

if [ "$fails" != 0 ]; then
	echo "$fails of $checks checks failed"
	exit 1
fi
echo "all $checks checks passed"
