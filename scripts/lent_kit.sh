#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Packs the benchmarks for a lent machine (more cores than this VM's two, but
# no DPDK, no libfabric and no package archive) into build-lent/, which git
# ignores: the build's provider, fi_dpdk_pingpong and bench_ep, Debian's
# fi_pingpong and fi_info, the unit suite's programs, and every shared
# library they load except glibc's: DPDK's libraries with the drivers the
# runs use (vdev bus, ring mempool, memif, null; ring, tap and bonding for
# the unit tests), libfabric and their own dependencies. About 23 MB.
# There, from the repository's root, with build-lent carried:
#
#   bash scripts/lent_run.sh [all|diag|pp|st|peers|bench|unit]
#
# usage: lent_kit.sh [build-dir]   (default: build, built by main.sh or test.sh)

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
kit=$top/build-lent
libdir=$(pkg-config --variable=libdir libdpdk)
# the EAL loads its drivers from here (RTE_EAL_PMD_PATH); Debian links each
# driver's soname in libdir to it
pmds=$(dirname "$(readlink -f "$libdir/librte_net_memif.so.23")")
drivers=(bus_vdev mempool_ring net_memif net_null net_ring net_tap net_bond)

for f in libdpdk-fi.so app/pingpong/fi_dpdk_pingpong test/bench_ep; do
	[ -e "$build/$f" ] || { echo "lent_kit.sh: $build/$f is missing: build first" >&2; exit 1; }
done
rm -rf "$kit"
mkdir -p "$kit/bin" "$kit/lib" "$kit/prov" "$kit/unit"
cp "$build/app/pingpong/fi_dpdk_pingpong" "$build/test/bench_ep" "$(command -v fi_pingpong)" \
	"$(command -v fi_info)" "$kit/bin/"
cp "$build/libdpdk-fi.so" "$kit/prov/"
# the unit suite, each test as a line: its name, program (in unit/) and
# arguments; its programs are built here (test.sh builds them in its
# sanitizers' tree alone)
meson introspect "$build" --tests | python3 -c '
import json, os, sys
for t in json.load(sys.stdin):
    if "fi-dpdk:unit" in t["suite"]:
        print(" ".join([t["name"], os.path.relpath(t["cmd"][0], sys.argv[1])] + t["cmd"][1:]))
' "$build" >"$kit/unit.list"
mapfile -t unit_programs < <(cut -d' ' -f2 "$kit/unit.list" | sort -u)
ninja -C "$build" "${unit_programs[@]}" >/dev/null
for p in "${unit_programs[@]}"; do
	cp "$build/$p" "$kit/unit/"
done
sed -i 's|^\([^ ]*\) [^ ]*/|\1 |' "$kit/unit.list"
# where the tests were told at build time that the provider lies: the lent
# machine links it to the kit's (test_getinfo looks for it by that path)
realpath "$build" >"$kit/build_dir"
objs=("$kit"/bin/* "$kit"/unit/* "$kit/prov/libdpdk-fi.so" "$libdir/libfabric.so.1")
for d in "${drivers[@]}"; do
	cp -L "$libdir/librte_$d.so.23" "$kit/lib/"
	objs+=("$libdir/librte_$d.so.23")
done
# glibc stays the lent machine's own (it needs 2.34 or later, as Debian 12's builds do)
ldd "${objs[@]}" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
	grep -v -E '/(libc|libm|libpthread|libdl|librt|libresolv|ld-linux-x86-64)\.so' |
	while read -r l; do
		[ -e "$kit/lib/$(basename "$l")" ] || cp -L "$l" "$kit/lib/"
	done
echo "$pmds" >"$kit/pmds_dir"
printf '%s\n' "${drivers[@]}" >"$kit/drivers"
echo "== $kit: $(du -sh "$kit" | cut -f1), $(find "$kit/lib" -type f | wc -l) libraries"
echo "   on the lent machine: bash scripts/lent_run.sh all (carry build-lent)"
