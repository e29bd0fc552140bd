#!/usr/bin/env bash
# check_exports.sh LIB: every symbol the shared library exports is a public
# perfan_* name at a PERFAN_ version node; internal perfan__* names stay hidden.
set -euo pipefail
lib=$1
bad=0
n=0
while read -r _ type sym; do
	[ "$type" = A ] && continue # the version node itself
	n=$((n + 1))
	case "$sym" in
	perfan__*) echo "internal symbol exported: $sym"; bad=1 ;;
	perfan_*@@PERFAN_*) ;;
	*) echo "unexpected export: $sym"; bad=1 ;;
	esac
done < <(nm -D --defined-only --with-symbol-versions "$lib")
[ "$n" -gt 0 ] || { echo "no symbols exported by $lib"; exit 1; }
[ "$bad" = 0 ] || exit 1
echo "$n symbols exported, all perfan_*"
