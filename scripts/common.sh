# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Shared by the scripts: Debian dependencies and the build.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

DEB_PACKAGES=(
	build-essential
	iproute2
	libcunit1-dev
	libdpdk-dev
	libfabric-bin
	libfabric-dev
	libibverbs-dev
	libnuma-dev
	meson
	ninja-build
	pkg-config
	python3
)

install_deps() {
	local missing=() p sudo=
	for p in "${DEB_PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -ne 0 ] && sudo=sudo
	echo "== installing ${missing[*]}"
	$sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
		"${missing[@]}"
}

# build DIR [meson options...]
build() {
	local dir=$1
	shift
	if [ ! -f "$top/$dir/build.ninja" ]; then
		meson setup "$top/$dir" "$top" "$@"
	fi
	ninja -C "$top/$dir"
}
