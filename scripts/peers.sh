#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# The provider against Debian's own, in one run: Debian's unmodified
# fi_pingpong -e rdm -m tagged for dpdk (two processes joined by memif) and
# for shm, tcp and udp;ofi_rxd on loopback, each side pinned to a core of its
# own as the dpdk sides are. The providers take turns size by size, in
# rounds; within a round each peer runs right next to a dpdk run of its own,
# before it in one round and after it in the next, and its ratio is taken
# against that run: this VM's regimes last seconds (1 MiB ping-pongs of
# either provider 4-7 times slower in one than in the other), less than a
# round of all the providers takes, so a ratio against the round's one dpdk
# run could compare two regimes. The table gives each one's median
# usec/xfer over its runs and its ratio to dpdk's (median, range).
#
# Right before each dpdk run, app/pingpong measures the raw floor over the
# same memif wire (2000 round trips of 64 B raw frames, a second's probe): the
# run and the pair it belongs to are then sorted by the VM's regime. A second
# table gives each peer's ratio per regime: regime 1 holds the pairs whose
# floor was within 1.4x of the run's fastest, regime 2 the others. The floor
# here took 0.40-0.55 us in the fast regime and 1.3-1.7 in the slow one; a
# run that saw one regime only has regime 1 alone, whichever it was.
#
# usage: peers.sh [-S sizes] [-R rounds] [-j file.json] [-N] [provider ...]
#   sizes: comma-separated, k and m suffixes (default 64,4k,64k,1m), or
#   "all": fi_pingpong -S all (0 B to 6 MiB, 46 sizes), each provider's
#   sizes in one run of ALL_ITERS (200) transfers a size;
#   providers: default dpdk shm tcp "udp;ofi_rxd" (dpdk always first);
#   dpdk-hugepages: dpdk with 2 MB hugepages (reserved for the run where
#   none are free, as root) and the memory arguments the provider's
#   defaults choose then (--in-memory), against dpdk's --no-huge runs
#   -j writes the medians as JSON, for scripts/plot.py
#   -N: no floor before the dpdk runs, and no table by regime

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$top/test/harness.sh"

sizes=64,4k,64k,1m
rounds=3
json=
floor=1
while getopts "S:R:j:N" op; do
	case $op in
	S) sizes=$OPTARG ;;
	R) rounds=$OPTARG ;;
	j) json=$OPTARG ;;
	N) floor= ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] && set -- shm tcp "udp;ofi_rxd"
provs=(dpdk)
for p in "$@"; do
	[ "$p" != dpdk ] && provs+=("$p")
done

command -v fi_pingpong >/dev/null || { echo "fi_pingpong is missing (libfabric-bin)" >&2; exit 1; }
export FI_PROVIDER_PATH=${FI_PROVIDER_PATH:-$top/build}
[ -e "$FI_PROVIDER_PATH/libdpdk-fi.so" ] || { echo "build first: no libdpdk-fi.so in $FI_PROVIDER_PATH" >&2; exit 1; }
pp=${PINGPONG:-$top/build/app/pingpong/fi_dpdk_pingpong}
[ -z "$floor" ] || [ -x "$pp" ] || { echo "build first: $pp is missing (or -N)" >&2; exit 1; }
# two processes took 40 of them in this VM; without them that peer is left out
for i in "${!provs[@]}"; do
	if [ "${provs[i]}" = dpdk-hugepages ] && ! wire_hugepages 128; then
		echo "dpdk-hugepages: not run, no hugepages to be had" >&2
		unset 'provs[i]'
		provs=("${provs[@]}")
		break
	fi
done
wire_setup memif || exit 1
wire_mktemp || exit 1
tmp=$WIRE_TMP

# iterations for a size: about the same bytes per run, at least 200. A run's
# first exchanges pay for more than the transfer (the connection's handshake
# and ARP; memif's ring pages too, until the provider mapped them as the link
# came up): about 1.5 ms for dpdk over memif, which 574 iterations of 64 KiB
# spread as 1.3 us per transfer; 5740 make it 0.13 us, for every provider alike
iters_for() {
	[ "$1" = all ] && { echo "${ALL_ITERS:-200}"; return; }
	local b=$1 n=$((40000000 / ($1 + 4096) * 10))
	[ "$b" -le 4096 ] && n=20000
	[ "$n" -lt 200 ] && n=200
	echo "$n"
}

core_s=0 core_c=1
[ "$(nproc)" -lt 2 ] && core_c=0
status=0
# one PROVIDER BYTES ROUND INDEX: a pair, the client's output in $tmp/INDEX.BYTES.ROUND.c
# (dpdk's INDEX: 0 and the index of the peer it runs next to)
one() {
	local prov=$1 size=$2 round=$3 idx=$4 port
	# a port that a pair of the same run left in TIME_WAIT would fail its bind
	port=$(wire_free_port $((47800 + RANDOM % 100)))
	local args=(-p "${prov%-hugepages}" -e rdm -m tagged -S "$size" -I "$(iters_for "$size")")
	local out=$tmp/$idx.$size.$round
	local WIRE_EAL_COMMON=$WIRE_EAL_COMMON
	[ "$prov" = dpdk-hugepages ] && WIRE_EAL_COMMON=$WIRE_HUGE_EAL
	if [ "${prov%-hugepages}" = dpdk ]; then
		# the floor over the same wire and memory, in the same second
		[ -z "$floor" ] || wire_floor "$pp" "$out.floor"
		WIRE_LISTEN_PORT=$port wire_pair 120 "$out.s" "$out.c" \
			::: env FI_DPDK_EAL_ARGS="$(wire_eal server)" fi_pingpong "${args[@]}" -B "$port" \
			::: env FI_DPDK_EAL_ARGS="$(wire_eal client)" fi_pingpong "${args[@]}" \
			-P "$port" 127.0.0.1 >"$tmp/why"
	else
		WIRE_LISTEN_PORT=$port wire_pair 120 "$out.s" "$out.c" \
			::: taskset -c $core_s fi_pingpong "${args[@]}" -B "$port" \
			::: taskset -c $core_c fi_pingpong "${args[@]}" -P "$port" 127.0.0.1 >"$tmp/why"
	fi
	[ $? -eq 0 ] && return 0
	echo "fi_pingpong -p $prov -S $size (round $round) failed:" >&2
	cat "$tmp/why" >&2
	status=1
}

IFS=, read -r -a size_list <<<"$sizes"
byte_list=()
for s in "${size_list[@]}"; do
	if [ "$s" = all ]; then
		byte_list+=(all)
	else
		byte_list+=("$(wire_bytes "$s")")
	fi
done
for ((r = 1; r <= rounds; r++)); do
	for b in "${byte_list[@]}"; do
		[ ${#provs[@]} -eq 1 ] && one dpdk "$b" "$r" 0-0
		for ((p = 1; p < ${#provs[@]}; p++)); do
			if (((r + p) % 2 == 0)); then
				one dpdk "$b" "$r" "0-$p"
				one "${provs[p]}" "$b" "$r" "$p"
			else
				one "${provs[p]}" "$b" "$r" "$p"
				one dpdk "$b" "$r" "0-$p"
			fi
		done
	done
done

python3 - "$tmp" "$rounds" "$json" "$(IFS=,; echo "${byte_list[*]}")" "$floor" "$top/scripts" \
	"${provs[@]}" <<'PY'
import functools, json, statistics, sys
tmp, rounds, out, provs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[7:]
floor_on = sys.argv[5] == "1"
sys.path.insert(0, sys.argv[6])
import floor
UNIT = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
def nbytes(label):
    # fi_pingpong's size column: 64, 1.5k, 6m
    return int(float(label.rstrip("kmg")) * UNIT.get(label[-1], 1))
# a client's file is read once, however many sizes are looked up in it
@functools.lru_cache(maxsize=None)
def lines(p, run, rnd):
    # the client's lines: bytes #sent #ack total time MB/sec usec/xfer Mxfers/sec
    got = {}
    try:
        for line in open("%s/%s.%s.%d.c" % (tmp, p, run, rnd)):
            f = line.split()
            if len(f) == 8 and f[2].startswith("="):
                got[nbytes(f[0])] = float(f[6]), float(f[5])
    except OSError:
        pass
    return got
asked = sys.argv[4].split(",")
# "all": one run per provider for every size, read size by size
every = "all" in asked
def fig(p, size, rnd):
    return lines(p, "all" if every else str(size), rnd).get(size)
sizes = sorted(set().union(*(lines("0-%d" % q, "all", r).keys() for q in range(len(provs))
                             for r in range(1, rounds + 1)))) if every else \
    [int(b) for b in asked]
rows = []
print("Debian's fi_pingpong -e rdm -m tagged, dpdk over memif, the others on loopback, %d "
      "rounds; usec/xfer (one way: half a round trip), median of the runs; vs dpdk: the "
      "ratio to the dpdk run next to it, median (range); above 1: slower than dpdk" % rounds)
print("%-15s %9s %10s %10s %20s" % ("provider", "bytes", "usec/xfer", "MB/s", "vs dpdk"))
rnds = range(1, rounds + 1)
for size in sizes:
    for p, name in enumerate(provs):
        # dpdk: every run of it, next to whichever peer
        runs = [fig("0-%d" % q, size, r) for q in range(len(provs)) for r in rnds] if p == 0 \
            else [fig(p, size, r) for r in rnds]
        base = [fig("0-%d" % p, size, r) for r in rnds]
        ok = [x for x in runs if x is not None]
        if not ok:
            print("%-15s %9d %10s %10s %20s" % (name, size, "failed", "-", "-"))
            continue
        us = statistics.median(x[0] for x in ok)
        mbs = statistics.median(x[1] for x in ok)
        ratios = [a[0] / b[0] for a, b in zip(runs, base) if a is not None and b is not None]
        vs = floor.ratio_range(ratios) if p else "-"
        print("%-15s %9d %10.2f %10.1f %20s" % (name, size, us, mbs, vs))
        rows.append({"provider": name, "size": size, "usec_xfer": us, "mbyte_s": mbs,
                     "vs_dpdk": statistics.median(ratios) if ratios else None})
for name in provs[1:]:
    mine = [x for x in rows if x["provider"] == name and x["vs_dpdk"] is not None]
    even = [str(x["size"]) for x in mine if x["vs_dpdk"] <= 1]
    print("%s: dpdk faster at %d of %d sizes (median ratio above 1)%s"
          % (name, len(mine) - len(even), len(mine),
             ", slower or even at " + ", ".join(even) if even else ""))
# the pairs again, by the regime of the floor measured before their dpdk run
labels = ["all"] if every else [str(b) for b in sizes]
def floor_of(p, size, r):
    return floor.median_us("%s/0-%d.%s.%d.floor" % (tmp, p, "all" if every else size, r))
reg = floor.Regimes([floor_of(p, b, r) for p in range(1, len(provs)) for b in labels
                     for r in rnds])
if floor_on and reg.fastest is not None:
    print(reg.legend("each dpdk run"))
    print("%-15s %9s %7s %10s %6s %11s %10s %20s" % ("provider", "bytes", "regime",
          "floor us", "pairs", "dpdk usec", "usec/xfer", "vs dpdk"))
    for size in sizes:
        for p in range(1, len(provs)):
            row = next((x for x in rows if x["provider"] == provs[p] and x["size"] == size),
                       None)
            pairs = [(floor_of(p, size, r), a[0], b[0]) for r in rnds
                     for a, b in [(fig(p, size, r), fig("0-%d" % p, size, r))]
                     if a is not None and b is not None]
            for g, items in reg.group(pairs):
                f, us, d, q = reg.summary(items)
                print("%-15s %9d %7d %10.2f %6d %11.2f %10.2f %20s" % (
                    provs[p], size, g, f, len(items), d, us, floor.ratio_range(q)))
                if row is not None:
                    row.setdefault("regimes", []).append(
                        {"regime": g, "pairs": len(items), "floor_us": f,
                         "dpdk_usec_xfer": d, "usec_xfer": us,
                         "vs_dpdk": statistics.median(q)})
if out:
    with open(out, "w") as f:
        json.dump(rows, f, indent=1)
PY
exit $status
