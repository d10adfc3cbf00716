#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Open MPI over the provider against Open MPI over the kernel's TCP, in one
# run: test/mpi_latency.c (osu_latency's ping-pong, 8 B to 4 MiB) with two
# ranks, over the OFI MTL on dpdk (a memif pair, one rank on each end), on
# Debian's tcp provider (OFI MTL, loopback) and on Open MPI's own TCP
# transport (ob1, btl tcp). They take turns in rounds, each peer's launch
# right next to a dpdk launch of its own (before it in one round, after it in
# the next), and each peer's ratio is taken against that launch: this VM's
# regimes last seconds, about a launch's time, and a 4 MiB ping-pong of
# either provider runs several times slower in one than in the other. The
# table gives each one's median one-way time over its launches and its ratio
# to dpdk's (median, range).
#
# Right before each dpdk launch, app/pingpong measures the raw floor over the
# same memif wire (64 B raw frames, a second's probe; wire_floor), and a second
# table gives each peer's ratio by the regime the floor put its pair in (as
# scripts/peers.sh does). A launch lasts several seconds, about as long as a
# regime here, so a launch may leave the regime its floor saw.
#
# usage: mpi_peers.sh [-R rounds] [-m max size]

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$top/test/harness.sh"

rounds=3
max=4194304
while getopts "R:m:" op; do
	case $op in
	R) rounds=$OPTARG ;;
	m) max=$OPTARG ;;
	*) exit 2 ;;
	esac
done
prog=$top/build/test/mpi_latency
command -v mpirun >/dev/null && [ -x "$prog" ] ||
	{ echo "Open MPI or build/test/mpi_latency is missing" >&2; exit 1; }
pp=${PINGPONG:-$top/build/app/pingpong/fi_dpdk_pingpong}
[ -x "$pp" ] || { echo "build first: $pp is missing" >&2; exit 1; }
export FI_PROVIDER_PATH=${FI_PROVIDER_PATH:-$top/build}
wire_setup memif || exit 1
wire_mktemp || exit 1
tmp=$WIRE_TMP
mpi=(timeout -k 5 300 mpirun --allow-run-as-root --oversubscribe --bind-to core)
ofi=(--mca pml cm --mca mtl ofi)
names=(dpdk tcp ob1-tcp)
status=0

# one INDEX ROUND [PAIR]: a launch, rank 0's lines in $tmp/INDEX[-PAIR].ROUND
# (dpdk's PAIR: the index of the peer it runs next to)
one() {
	local out=$tmp/$1${3:+-$3}.$2
	case ${names[$1]} in
	dpdk)
		wire_floor "$pp" "$out.floor"	# a failed one is said, the launch goes on
		"${mpi[@]}" "${ofi[@]}" --mca mtl_ofi_provider_include dpdk \
			-np 1 -x FI_PROVIDER_PATH -x FI_DPDK_EAL_ARGS="$(wire_eal server)" "$prog" "$max" : \
			-np 1 -x FI_PROVIDER_PATH -x FI_DPDK_EAL_ARGS="$(wire_eal client)" "$prog" "$max" \
			>"$out" 2>&1
		wire_teardown ;;
	tcp)
		"${mpi[@]}" "${ofi[@]}" --mca mtl_ofi_provider_include tcp -np 2 \
			-x FI_PROVIDER_PATH "$prog" "$max" >"$out" 2>&1 ;;
	ob1-tcp)
		"${mpi[@]}" --mca pml ob1 --mca btl tcp,self -np 2 "$prog" "$max" >"$out" 2>&1 ;;
	esac
	grep -q '^mpi_latency: ok' "$out" && return 0
	echo "mpi_latency over ${names[$1]} (round $2) failed:" >&2
	tail -n 15 "$out" >&2
	status=1
}

for ((r = 1; r <= rounds; r++)); do
	for ((p = 1; p < ${#names[@]}; p++)); do
		if (((r + p) % 2 == 0)); then
			one 0 "$r" "$p"
			one "$p" "$r"
		else
			one "$p" "$r"
			one 0 "$r" "$p"
		fi
	done
done

python3 - "$tmp" "$rounds" "$top/scripts" "${names[@]}" <<'PY'
import statistics, sys
tmp, rounds, names = sys.argv[1], int(sys.argv[2]), sys.argv[4:]
sys.path.insert(0, sys.argv[3])
import floor
def figs(p, r):
    out = {}
    try:
        for line in open("%s/%s.%d" % (tmp, p, r)):
            f = line.split()
            if len(f) == 2 and f[0].isdigit():
                out[int(f[0])] = float(f[1])
    except OSError:
        pass
    return out
rnds = range(1, rounds + 1)
# dpdk's launches next to each peer's (pairs[p]), and all of them (runs[0])
pairs = [None] + [[figs("0-%d" % p, r) for r in rnds] for p in range(1, len(names))]
runs = [[x for pair in pairs[1:] for x in pair]] + \
    [[figs(p, r) for r in rnds] for p in range(1, len(names))]
sizes = sorted(set().union(*[set(x) for x in runs[0]]))
print("Open MPI 4.1 ping-pong (test/mpi_latency.c), np 2, %d rounds: one-way usec, median of "
      "the launches; vs dpdk: the ratio to the dpdk launch next to it, median (range); above "
      "1: slower than dpdk" % rounds)
print("%9s" % "bytes" + "".join("%10s" % n for n in names) +
      "".join("%22s" % ("%s/dpdk" % n) for n in names[1:]))
for s in sizes:
    row = "%9d" % s
    for p in range(len(names)):
        v = [x[s] for x in runs[p] if s in x]
        row += "%10.2f" % statistics.median(v) if v else "%10s" % "-"
    for p in range(1, len(names)):
        q = [a[s] / b[s] for a, b in zip(runs[p], pairs[p]) if s in a and s in b]
        row += "%22s" % floor.ratio_range(q)
    print(row)
# the same pairs by the regime of the floor before each dpdk launch
fl = [None] + [[floor.median_us("%s/0-%d.%d.floor" % (tmp, p, r)) for r in rnds]
               for p in range(1, len(names))]
reg = floor.Regimes([f for p in range(1, len(names)) for f in fl[p]])
if reg.fastest is None:
    sys.exit(0)
print(reg.legend("each dpdk launch"))
print("%9s %9s %7s %10s %6s %12s %22s" % ("peer", "bytes", "regime", "floor us", "pairs",
                                          "dpdk usec", "peer/dpdk"))
for s in sizes:
    for p in range(1, len(names)):
        groups = reg.group((fl[p][k], a[s], b[s]) for k, (a, b) in
                           enumerate(zip(runs[p], pairs[p])) if s in a and s in b)
        for g, items in groups:
            f, _, d, q = reg.summary(items)
            print("%9s %9d %7d %10.2f %6d %12.2f %22s" % (
                names[p], s, g, f, len(items), d, floor.ratio_range(q)))
PY
exit $status
