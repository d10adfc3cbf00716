#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Runs issue 10's benchmarks on a lent machine from the kit lent_kit.sh packed
# (build-lent/): the machine's CPUs, then the round trips of raw frames,
# FI_EP_DGRAM and FI_EP_RDM (pingpong.sh, in rounds and in turns with the
# floor), the one-way streams (one post at a time, batched, 64 KiB and 1 MiB),
# Debian's fi_pingpong over dpdk, shm and tcp (peers.sh), and bench_ep. Each
# step is bounded (T seconds, default 150); diag first runs peers.sh once at
# 64 bytes, which shows what a failing pair printed, before the full run.
#
# unit runs the unit suite over and over, many tests at a time (not in all).
#
# usage: lent_run.sh [all|diag|pp|st|peers|bench|unit]

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
kit=$top/build-lent
[ -d "$kit/lib" ] || { echo "lent_run.sh: no $kit: scripts/lent_kit.sh packs it" >&2; exit 1; }
cd "$top" || exit 1

echo "== the machine"
uname -r
# shellcheck disable=SC1091
(. /etc/os-release && echo "$PRETTY_NAME")
echo "$(nproc) CPUs, uid $(id -u)"
lscpu | grep -E '^(Model name|Thread|Core|Socket|NUMA node\(s\)|L2|L3)'
# the EAL's driver directory: each of the kit's drivers is linked into it
# where the machine has none of that name
pmds=$(cat "$kit/pmds_dir")
mkdir -p "$pmds" || exit 1
while read -r d; do
	ls "$pmds/librte_$d.so"* >/dev/null 2>&1 || ln -sf "$kit/lib/librte_$d.so.23" "$pmds/librte_$d.so"
done <"$kit/drivers"
export LD_LIBRARY_PATH=$kit/lib PATH=$kit/bin:$PATH FI_PROVIDER_PATH=$kit/prov
export PINGPONG=$kit/bin/fi_dpdk_pingpong DFI_TEST_PROVIDER_DIR=$kit/prov

step() {
	local t=$SECONDS
	echo "== $* ($(date +%T))"
	timeout "${T:-150}" "$@" 2>&1 | grep -v -E '^rte_pmd_memif_probe|^Cannot close started'
	echo "   (${PIPESTATUS[0]}, $((SECONDS - t)) s)"
}

# The unit suite, UNIT_ROUNDS times (default 3), UNIT_JOBS tests at a time
# (default 8): the threads' and processes' races that this VM's two vCPUs
# may never interleave. Prints each round's failures with their output's end;
# returns 1 if any test failed.
unit_rounds() {
	local built out r n bad name failed=0
	built=$(cat "$kit/build_dir")
	if [ ! -e "$built/libdpdk-fi.so" ]; then
		mkdir -p "$(dirname "$built")" && ln -sfn "$kit/prov" "$built" || return 1
	fi
	out=$(mktemp -d)
	for ((r = 1; r <= ${UNIT_ROUNDS:-3}; r++)); do
		# shellcheck disable=SC2016 # expanded by the inner bash
		xargs -P "${UNIT_JOBS:-8}" -L 1 bash -c \
			'timeout 300 "$1/unit/$3" "${@:4}" >"$2/$0" 2>&1; echo "$0 $?"' \
			< <(sed "s|^\([^ ]*\) |\1 $kit $out |" "$kit/unit.list") >"$out/rcs"
		n=$(wc -l <"$out/rcs")
		bad=$(awk '$2 != 0' "$out/rcs")
		echo "round $r: $((n - $(printf '%s' "$bad" | grep -c .))) of $n passed"
		while read -r name _; do
			[ -n "$name" ] || continue
			echo "-- $name failed:"
			tail -n 30 "$out/$name"
			failed=1
		done <<<"$bad"
	done
	rm -rf "$out"
	return $failed
}

what=${1:-all}
case $what in
all|diag) step scripts/peers.sh -S 64 -R 1 shm tcp ;;&
all|pp)
	step scripts/pingpong.sh -w memif -S 64,1024 -I 300000 dgram rdm
	step scripts/pingpong.sh -w memif -f -S 64,1024 -I 40000 dgram rdm ;;&
all|st)
	step scripts/pingpong.sh -w memif -s -S 64,65536,1048576 rdm
	step scripts/pingpong.sh -w memif -b 32 -S 64,256 -I 6000000 rdm ;;&
all|peers) step scripts/peers.sh -S 64,4k,64k,1m shm tcp ;;&
all|bench) step bench_ep ;;&
unit)
	echo "== the unit suite, ${UNIT_ROUNDS:-3} rounds, ${UNIT_JOBS:-8} at a time ($(date +%T))"
	unit_rounds ;;
all|diag|pp|st|peers|bench) ;;
*) echo "usage: lent_run.sh [all|diag|pp|st|peers|bench|unit]" >&2; exit 2 ;;
esac
