#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Builds the Debian packages from the working tree with dpkg-buildpackage
# -us -uc, then checks them with lintian (no error allowed):
#   libfabric-dpdk      the provider in libfabric's provider directory, fi_dpdk(7)
#   libfabric-dpdk-bin  fi_dpdk_info and fi_dpdk_pingpong
#   libfabric-dpdk-dev  <rdma/fi_ext_dpdk.h> and libfabric-dpdk.pc
# The packages, the source package and the logs land in DIR (default
# build-deb); install them with `apt-get install ./build-deb/*.deb`.
#
# usage: package.sh [DIR]

set -eu
. "$(dirname "$0")/common.sh"

install_deps
out=$(realpath -m "${1:-$top/build-deb}")
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
src=$out/fi-dpdk-$version
# what an earlier run left there
rm -rf "$src" "$out"/fi-dpdk_* "$out"/libfabric-dpdk*.deb "$out"/build.log "$out"/lintian.log
mkdir -p "$src"
# the files git knows and the new ones it does not ignore: no build directory
git -C "$top" ls-files -z -c -o --exclude-standard |
	tar -C "$top" --null -T - -cf - | tar -C "$src" -xf -

# debhelper builds with one job unless told: on a 2-core host that is half
# the build's time, and test.sh runs this inside its ten minutes
case " ${DEB_BUILD_OPTIONS:-} " in
*" parallel="*) ;;
*) export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }parallel=$(nproc)" ;;
esac
echo "== dpkg-buildpackage -us -uc (log: $out/build.log)"
t0=$(date +%s)
if ! (cd "$src" && dpkg-buildpackage -us -uc) >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	echo "== dpkg-buildpackage failed" >&2
	exit 1
fi
rm -rf "$src"
echo "built in $(($(date +%s) - t0)) s:"
ls "$out"/*.deb
echo "== lintian"
rc=0
# lintian leaves files of its own in TMPDIR (mldbm-elf-*): a directory for
# them, removed after
lint_tmp=$(mktemp -d)
TMPDIR=$lint_tmp lintian --fail-on error "$out"/*.changes >"$out/lintian.log" 2>&1 || rc=$?
rm -rf "$lint_tmp"
grep -v 'running with root privileges' "$out/lintian.log" || true
echo "lintian: $(grep -c '^E: ' "$out/lintian.log") errors," \
	"$(grep -c '^W: ' "$out/lintian.log") warnings (log: $out/lintian.log)"
exit $rc
