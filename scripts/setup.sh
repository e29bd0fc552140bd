#!/usr/bin/env bash
# setup.sh: install what building and testing perfan needs on Debian 12,
# only the packages that are missing (apt-get update runs once, if needed),
# then the browser tests' node modules (tests/browser, npm ci: playwright-core,
# and speedscope's release build and schema) when one is missing or older
# than their package-lock.json.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# chromium runs headless for the browser tests (tests/browser, through
# playwright-core). Its fonts come only as recommendations, which
# --no-install-recommends skips: DejaVu and Liberation (Chromium's default
# Times, Arial and Courier faces) are listed so screenshots show text.
# golang-go and golang-github-google-pprof-dev build Google's pprof offline
# (tests/CMakeLists.txt), the client tests/cli/pprof.sh checks perfan's
# pprof output with; protobuf-c and zlib write that output.
# python3-jsonschema validates perfan's speedscope output against
# speedscope's own schema (tests/cli/speedscope_out.sh).
# libsqlite3 reads Nsight Systems' SQLite exports; the sqlite3 command
# queries them independently in tests/cli/nsight.sh.
PACKAGES=(
	build-essential cmake pkg-config
	libdw-dev libelf-dev libtraceevent-dev libcapstone-dev libzstd-dev
	liblzma-dev libprotobuf-c-dev protobuf-c-compiler zlib1g-dev
	libiberty-dev libsqlite3-dev
	check zstd python3 python3-jsonschema groff-base clang sqlite3
	golang-go golang-github-google-pprof-dev
	chromium fonts-dejavu-core fonts-liberation nodejs npm
)

# A Node.js from outside Debian (NodeSource's nodejs package) ships npm
# itself and conflicts with Debian's npm: a working command is enough.
have_command() {
	case $1 in
	nodejs) command -v node >/dev/null ;;
	npm) command -v npm >/dev/null ;;
	*) return 1 ;;
	esac
}

missing=()
for p in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || have_command "$p" ||
		missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "setup: all ${#PACKAGES[@]} packages are installed"
else
	sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || {
			echo "setup: need root or sudo to install: ${missing[*]}" >&2
			exit 1
		}
		sudo=(sudo)
	fi

	echo "setup: installing ${missing[*]}"
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

browser=tests/browser
stale=0
for m in playwright-core speedscope; do
	[ -d "$root/$browser/node_modules/$m" ] &&
		[ ! "$root/$browser/node_modules/$m" -ot "$root/$browser/package-lock.json" ] ||
		stale=1
done
if [ "$stale" = 1 ]; then
	echo "setup: npm ci in $browser"
	(cd "$root" && npm ci --prefix "$browser" --no-audit --no-fund)
else
	echo "setup: $browser/node_modules is up to date"
fi
