#!/usr/bin/env bash
# check_man.sh GROFF PAGE: the man page formats without a single warning.
set -euo pipefail
out=$("$1" -man -ww -z "$2" 2>&1)
if [ -n "$out" ]; then
	printf '%s\n' "$out"
	exit 1
fi
