#!/usr/bin/env bash
# help_man.sh: each subcommand's --help and its man page name the same
# options (git's t0450 idea): an option documented in one place only fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
cmds=$("$PERFAN_BIN" --help | awk '/^Commands:/{on=1; next} on && !NF {exit} on {print $1}')
[ -n "$cmds" ] || { echo "perfan --help lists no commands"; exit 1; }
fail=0
for c in $cmds; do
	page=man/perfan-$c.1
	[ -f "$page" ] || { echo "FAIL: $c has no man page $page"; fail=1; continue; }
	grep -q "^\.B.* $c\b\|perfan\\\\-$c\|perfan-$c" man/perfan.1 ||
		{ echo "FAIL: perfan(1) does not mention $c"; fail=1; }
	# option lines of --help start with spaces and a dash
	help=$("$PERFAN_BIN" "$c" --help | grep -E '^ +-' |
		grep -o -- '--[a-z][a-z-]*' | sort -u)
	# the option items of the man page: the line after each .TP
	man=$(sed -n '/^\.SH OPTIONS/,/^\.SH [A-Z]/p' "$page" |
		awk '/^\.TP/{getline; print}' | sed 's/\\-/-/g' |
		grep -o -- '--[a-z][a-z-]*' | sort -u)
	if [ "$help" != "$man" ]; then
		echo "FAIL: perfan $c: --help and $page list different options"
		diff <(printf '%s\n' "$help") <(printf '%s\n' "$man") || true
		fail=1
	fi
done
# and every command in perfan(1) exists
for c in $(sed -n '/^\.SH COMMANDS/,/^\.SH [A-Z]/p' man/perfan.1 | awk '/^\.TP/{getline; print $2}'); do
	# a here-string, not a pipe: grep -q leaves at its first match, and
	# under pipefail a writer still writing then fails the pipeline
	grep -qx "$c" <<<"$cmds" ||
		{ echo "FAIL: perfan(1) lists $c, which perfan does not have"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: --help and man pages agree for: $(echo $cmds)"
exit "$fail"
