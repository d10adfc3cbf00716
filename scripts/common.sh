# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Shared by the scripts: Debian dependencies and the build. A script that
# sources this file runs as root: installing packages and the tests' network
# namespaces need it, so it is re-executed under sudo when it is not.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# as_root ARGS...: re-executes the sourcing script under sudo, with its
# arguments and the settings a run depends on (FI_*, sanitizer options,
# proxies for apt-get); returns when already root or when sudo is missing.
as_root() {
	local script keep
	[ "$(id -u)" -eq 0 ] && return 0
	if [ -n "${DFI_AS_ROOT:-}" ] || ! command -v sudo >/dev/null; then
		echo "== not root, and no sudo to become root: packages cannot be" \
			"installed and the tests that need network namespaces will not pass" >&2
		return 0
	fi
	script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
	keep=$(compgen -e | grep -E '^(FI_|ASAN_|UBSAN_|LSAN_|MESON|DEBIAN_FRONTEND$|(http|https|ftp|no)_proxy$|(HTTP|HTTPS|FTP|NO)_PROXY$)' |
		paste -sd, -)
	echo "== $(basename "$0") needs root (apt-get, network namespaces): re-running under sudo" >&2
	exec sudo ${keep:+--preserve-env="$keep"} -- env DFI_AS_ROOT=1 bash "$script" "$@"
}
as_root "$@"

# dpdk_rundir_undo_on_exit: runs with DPDK's default --file-prefix make
# /var/run/dpdk/rte (EAL creates its runtime directory even under
# --no-shconf); on exit, takes away what the script made of it (empty
# directories only). Sets the script's EXIT trap.
dpdk_rundir_undo_on_exit() {
	local made=/var/run/dpdk/rte
	[ -d "$made" ] && return 0
	[ -d /var/run/dpdk ] || made="$made /var/run/dpdk"
	# a directory someone else took away already is no failure of the script
	# shellcheck disable=SC2064
	trap "rmdir $made 2>/dev/null || true" EXIT
}

DEB_PACKAGES=(
	build-essential
	debhelper
	iproute2
	libcunit1-dev
	libdpdk-dev
	libfabric-bin
	libfabric-dev
	libibverbs-dev
	libisal-dev
	libnuma-dev
	libopenmpi-dev
	lintian
	meson
	ninja-build
	openmpi-bin
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

# configure DIR [meson options...]: sets DIR up; the options apply to a
# directory set up before too, which would otherwise keep the ones it was set
# up with
configure() {
	local dir=$1
	shift
	if [ ! -f "$top/$dir/build.ninja" ]; then
		meson setup "$top/$dir" "$top" "$@"
	elif [ $# -gt 0 ]; then
		meson configure "$top/$dir" "$@" >/dev/null
	fi
}

# build DIR [meson options...]: configure, then build everything
build() {
	configure "$@" && ninja -C "$top/$1"
}

# test_programs DIR SUITE...: what the tests of these suites run (programs,
# the provider), as ninja's targets in DIR
test_programs() {
	python3 - "$top/$1" "${@:2}" <<'PY'
import json, os, subprocess, sys
build, suites = sys.argv[1], {"fi-dpdk:" + s for s in sys.argv[2:]}
def intro(what):
    return json.loads(subprocess.check_output(["meson", "introspect", build, what]))
needed = {d for t in intro("--tests") if suites & set(t["suite"]) for d in t["depends"]}
for t in intro("--targets"):
    if t["id"] in needed:
        print("\n".join(os.path.relpath(f, build) for f in t["filename"]))
PY
}
