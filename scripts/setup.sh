#!/usr/bin/env bash
# setup.sh: install what building and testing perfan needs on Debian 12,
# only the packages that are missing (apt-get update runs once, if needed).
set -euo pipefail

PACKAGES=(
	build-essential cmake pkg-config
	libdw-dev libelf-dev libtraceevent-dev libcapstone-dev libzstd-dev
	libiberty-dev
	check zstd python3 groff-base
)

missing=()
for p in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "setup: all ${#PACKAGES[@]} packages are installed"
	exit 0
fi

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
