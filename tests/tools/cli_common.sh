# tests/tools/cli_common.sh: the start every tests/cli script shares, sourced
# from the top of the tree (ctest's working directory): a temporary folder
# $tmp removed at exit, and the fails/checks counters with fail().
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
