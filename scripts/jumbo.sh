#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# One-way FI_EP_RDM streams over the kernel's path (net_af_packet on a veth
# pair between two network namespaces), with interfaces of 1500 bytes and of
# 9000 bytes (ring slots to match, fi_dpdk(7) "Sizes"), taking turns for
# ROUNDS rounds so that both see the same regimes of the VM: MB/s of each,
# medians of the rounds, and the ratio of jumbo to standard in each round.
#
# usage: jumbo.sh [-R rounds] [-S sizes] [-I iters]   (needs root and ip netns)

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/test/harness.sh"

rounds=3 sizes=65536 iters=30000
while getopts "R:S:I:" o; do
	case $o in
	R) rounds=$OPTARG ;;
	S) sizes=$OPTARG ;;
	I) iters=$OPTARG ;;
	*) echo "usage: jumbo.sh [-R rounds] [-S sizes] [-I iters]" >&2; exit 2 ;;
	esac
done
if ! wire_available veth; then
	echo "jumbo.sh: the veth wire needs root and ip netns" >&2
	exit 77
fi
wire_mktemp || exit 1
tmp=$WIRE_TMP

for round in $(seq 1 "$rounds"); do
	for mtu in 1500 9000; do
		slots="framesz=9216,blocksz=36864"	# ring slots for jumbo frames
		[ "$mtu" = 1500 ] && slots=
		if ! WIRE_AF_PACKET_ARGS=$slots WIRE_VETH_MTU_SERVER=$mtu WIRE_VETH_MTU_CLIENT=$mtu \
			"$top/scripts/pingpong.sh" -w veth -s -S "$sizes" -I "$iters" \
			-R 1 -j "$tmp/$mtu.$round.json" rdm >"$tmp/$mtu.$round.out" 2>&1; then
			cat "$tmp/$mtu.$round.out" >&2
			exit 1
		fi
	done
done

python3 - "$tmp" "$rounds" <<'PY'
import json, statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
def rdm(mtu, r):
    return {e["size"]: e["mbyte_s"] for e in json.load(open("%s/%s.%d.json" % (tmp, mtu, r)))
            if e["mode"] == "rdm"}
runs = {m: [rdm(m, r) for r in range(1, rounds + 1)] for m in (1500, 9000)}
print("rdm one-way over veth (af_packet), %d rounds taking turns: MB/s, medians of the rounds; "
      "9000 / 1500: the round's ratio, median (range)" % rounds)
print("%9s %12s %12s %20s" % ("bytes", "mtu 1500", "mtu 9000", "9000 / 1500"))
for size in sorted(runs[1500][0]):
    a = [r[size] for r in runs[1500]]
    b = [r[size] for r in runs[9000]]
    q = [y / x for x, y in zip(a, b) if x > 0]
    print("%9d %12.1f %12.1f %9.2fx (%.2f-%.2f)" % (size, statistics.median(a), statistics.median(b),
          statistics.median(q), min(q), max(q)))
PY
