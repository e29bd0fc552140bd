#!/usr/bin/env bash
# check_exports.sh LIB [MAP INCLUDE_DIR]: every symbol the shared library
# exports is a public perfan_* name at a PERFAN_ version node; internal
# perfan__* names stay hidden. With MAP (libperfan/libperfan.map) and
# INCLUDE_DIR (include/perfan): the names the map lists (no wildcard), the
# PERFAN_API declarations of the headers and the exports are the same set,
# each name listed once, at the node the library gives it.
set -euo pipefail
lib=$1
map=${2:-}
inc=${3:-}
bad=0
n=0
exports=$(mktemp)
trap 'rm -f "$exports" "$exports".*' EXIT
while read -r _ type sym; do
	[ "$type" = A ] && continue # the version node itself
	n=$((n + 1))
	case "$sym" in
	perfan__*) echo "internal symbol exported: $sym"; bad=1 ;;
	perfan_*@@PERFAN_*) echo "$sym" >>"$exports" ;;
	*) echo "unexpected export: $sym"; bad=1 ;;
	esac
done < <(nm -D --defined-only --with-symbol-versions "$lib")
[ "$n" -gt 0 ] || { echo "no symbols exported by $lib"; exit 1; }
if [ -n "$map" ]; then
	# name@@NODE for every name the map lists, from the node it is in
	awk '
		/^[A-Z0-9_.]+ *\{/ { node = $1; sub(/ *\{.*/, "", node); next }
		/\*/ && node != "" && $0 !~ /^[ \t]*\*;/ && $0 ~ /perfan/ {
			print "wildcard in " node ": " $0 > "/dev/stderr"; bad = 1 }
		/^[ \t]*perfan_[A-Za-z0-9_]+;/ {
			s = $1; sub(/;.*/, "", s); print s "@@" node }
		END { exit bad }' "$map" | sort >"$exports.map" || bad=1
	sort "$exports" >"$exports.lib"
	dups=$(sed 's/@@.*//' "$exports.map" | sort | uniq -d)
	[ -z "$dups" ] || { echo "listed more than once in $map: $dups"; bad=1; }
	if ! diff -u "$exports.map" "$exports.lib" >"$exports.diff"; then
		echo "$map and the exports of $lib differ (- map, + library):"
		grep '^[-+]perfan' "$exports.diff" || true
		bad=1
	fi
	# the PERFAN_API declarations, a name followed by '(' after the macro
	cat "$inc"/*.h | tr '\n' ' ' | grep -oE 'PERFAN_API[^;(]*\(' |
		grep -oE 'perfan_[A-Za-z0-9_]+ *\($' | sed 's/ *($//' |
		sort -u >"$exports.api"
	sed 's/@@.*//' "$exports.map" | sort -u >"$exports.names"
	if ! diff -u "$exports.api" "$exports.names" >"$exports.diff"; then
		echo "the PERFAN_API declarations of $inc and $map differ" \
			"(- headers, + map):"
		grep '^[-+]perfan' "$exports.diff" || true
		bad=1
	fi
fi
[ "$bad" = 0 ] || exit 1
echo "$n symbols exported, all perfan_*${map:+, as $map lists them and the headers declare them}"
