#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Runs app/pingpong between two processes on one wire, mode after mode, and
# prints each table with the median round trip as a ratio of the raw floor
# measured in the same run. The modes run in rounds (raw, then each mode,
# again and again, the iterations split between the rounds), and each ratio
# is taken against the floor of its own round: this VM's two vCPUs change
# speed every few minutes, and a floor measured a minute earlier may belong
# to another regime. The ratio printed is the median of the rounds', with
# their range.
#
# With -f the floor and a mode take turns inside one pair of processes
# instead: raw frames on a second memif pair between the same two processes
# (net_memif1), the mode on the first, a turn of -B round trips each; every
# turn of the mode is read against the floor's turn just before it, and the
# turns are grouped into regimes by the floor's speed (app/pingpong/rtt.c).
# With -f -s the streams take such turns: each size's stream in ten turns of
# raw frames and of the mode (app/pingpong/stream.c).
# The vCPUs here change speed from one second to the next, faster than
# rounds of separate processes can follow.
#
# usage: pingpong.sh [-w memif|veth] [-S sizes] [-I iters] [-R rounds] [-c] [-s]
#                    [-b batch] [-o write|read] [-j file.json] [-f [-B block]] [mode ...]
#   modes: raw (always first), dgram, rdm, msg; -c checks every reply's bytes;
#   -R rounds (default 3); -I iters is the total over the rounds;
#   -f: the floor in turns with each mode (memif, round trips or, with -s,
#       streams; -I per mode);
#   -s streams one way instead (message rate and bandwidth, ratio to raw's;
#      for rdm and msg, the sender's packets per message, resends, refusals);
#   -b N posts the streams' messages N at a time (FI_MORE; implies -s), injects
#      without a completion where they fit, as the streams without -b
#   -o streams RMA writes or reads over rdm too, after its messages (implies -s)
#   -j writes the medians of each mode and size as JSON, for scripts/plot.py
#   WIRE_PAIR_DEADLINE_S: how long a pair of processes may run (300 s, 600 s
#   with -f); one that outlives it has its threads' stacks printed, and is killed

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$top/test/harness.sh"

wire=memif
sizes=64,256,1024,1400
iters=
rounds=3
verify=
stream=
rma=
batch=
json=
turns=
block=
while getopts "w:S:I:R:csb:o:j:fB:" op; do
	case $op in
	f) turns=1 ;;
	B) block="--block $OPTARG" ;;
	w) wire=$OPTARG ;;
	S) sizes=$OPTARG ;;
	I) iters=$OPTARG ;;
	R) rounds=$OPTARG ;;
	c) verify=-c ;;
	s) stream=--stream ;;
	b) batch="--batch $OPTARG" stream=--stream ;;
	o) rma="-o $OPTARG" stream=--stream ;;
	j) json=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
modes=("$@")
[ ${#modes[@]} -eq 0 ] && modes=(dgram)

# Round trips are read against the raw floor, whose frames carry one message
# of at most an MTU: a run with no such size would have no floor at all.
if [ -z "$stream" ]; then
	floor=
	for s in ${sizes//,/ }; do
		if ! b=$(wire_bytes "$s"); then
			echo "pingpong.sh: -S $sizes: $s is not a size" >&2
			exit 2
		fi
		[ "$b" -le 1500 ] && floor=$b
	done
	if [ -z "$floor" ]; then
		echo "pingpong.sh: -S $sizes: round trips need one size of at most 1500 bytes" \
		     "(the raw floor's frames); larger sizes alone go one way (-s)" >&2
		exit 2
	fi
fi
if [ -n "$turns" ] && { [ "$wire" != memif ] || [ -n "$rma" ] || [ -n "$json" ]; }; then
	echo "pingpong.sh: -f takes round trips or streams over memif, without -o or -j" >&2
	exit 2
fi
pp=${PINGPONG:-$top/build/app/pingpong/fi_dpdk_pingpong}
[ -x "$pp" ] || { echo "build first: $pp is missing" >&2; exit 1; }
export FI_PROVIDER_PATH=${FI_PROVIDER_PATH:-$top/build}
wire_setup "$wire" || exit 1
host=127.0.0.1
[ "$wire" = veth ] && host=$WIRE_SERVER_IP
wire_mktemp || exit 1
tmp=$WIRE_TMP

# -f: each mode once, the floor inside its processes; the client's own table
if [ -n "$turns" ]; then
	export WIRE_FLOOR=1
	status=0
	for mode in "${modes[@]}"; do
		# shellcheck disable=SC2206
		args=(-e "$mode" -d net_memif0 --floor net_memif1 $block -S "$sizes"
		      ${iters:+-I $iters} $verify $stream $batch)
		# shellcheck disable=SC2046
		if ! wire_pair "${WIRE_PAIR_DEADLINE_S:-600}" "$tmp/$mode.server" "$tmp/$mode.out" \
			::: "$pp" $(wire_eal server) -- "${args[@]}" \
			::: "$pp" $(wire_eal client) -- "${args[@]}" "$host"; then
			echo "pingpong $mode (in turns with the floor) failed:" >&2
			cat "$tmp/$mode.server" "$tmp/$mode.out" >&2
			status=1
			continue
		fi
		grep -v '^rte_pmd_memif_probe\|^fi_dpdk_pingpong: .* done$' "$tmp/$mode.out"
	done
	exit $status
fi

status=0
for round in $(seq 1 "$rounds"); do
	# the rounds share -I exactly
	per_round=
	[ -n "$iters" ] && per_round="-I $((iters / rounds + (round <= iters % rounds)))"
	for mode in raw "${modes[@]}"; do
		case $mode in
		raw) args=(--raw) ;;
		rdm|msg) args=(-e "$mode" $rma $batch) ;;
		*) args=(-e "$mode" $batch) ;;
		esac
		out=$tmp/$mode.$round
		# shellcheck disable=SC2086
		if ! wire_pair "${WIRE_PAIR_DEADLINE_S:-300}" "$out.server" "$out.json" \
			::: "$pp" $(wire_eal server) -- "${args[@]}" -S "$sizes" $per_round $verify \
			$stream --json \
			::: "$pp" $(wire_eal client) -- "${args[@]}" -S "$sizes" $per_round $verify \
			$stream --json "$host"; then
			echo "pingpong $mode (round $round) failed over $wire:" >&2
			cat "$out.server" "$out.json" >&2
			status=1
		fi
	done
done
[ $status -eq 0 ] || exit 1

python3 - "$wire" "$tmp" "$stream" "$rounds" "$json" raw "${modes[@]}" <<'PY'
import json, statistics, sys
wire, tmp, stream, rounds, out, modes = sys.argv[1], sys.argv[2], sys.argv[3], \
    int(sys.argv[4]), sys.argv[5], sys.argv[6:]
def load(mode, rnd):
    # keyed by (row mode, size): an rdm run with -o has message and RMA rows
    text = open("%s/%s.%d.json" % (tmp, mode, rnd)).read()
    return {(r["mode"], r["size"]): r
            for r in json.loads(text[text.index("["):text.rindex("]") + 1])}
# results[mode][round][(row mode, size)]
results = {m: [load(m, k) for k in range(1, rounds + 1)] for m in modes}
raw = [{key[1]: r for key, r in results["raw"][k].items()} for k in range(rounds)]
def med(m, key, field):
    return statistics.median(results[m][k][key][field] for k in range(rounds))
def ratio(m, key, field):
    # each round against the floor of the same round
    if key[1] not in raw[0]:
        return None
    return [results[m][k][key][field] / raw[k][key[1]][field] for k in range(rounds)]
def fmt(vals, pct=False):
    if vals is None:
        return "-"
    mid = statistics.median(vals)
    if pct:
        return "%.0f%% (%.0f-%.0f)" % (100 * mid, 100 * min(vals), 100 * max(vals))
    return "%.2fx (%.2f-%.2f)" % (mid, min(vals), max(vals))
def total(m, key):
    return sum(results[m][k][key]["iters"] for k in range(rounds))
if out:
    with open(out, "w") as f:
        json.dump([{"mode": key[0], "size": key[1], "stream": bool(stream),
                    **{x: med(m, key, x) for x in ("median_us", "mmsg_s", "mbyte_s")}}
                   for m in modes for key in results[m][0]], f, indent=1)
if stream:
    print("one-way stream over %s, %d rounds; medians of the rounds; vs raw: bandwidth as a "
          "share of raw frames' at the same size in the same round (range); the sender's "
          "packets per message (under 1: bundled), packets sent again and refusals (RNR) "
          "it got, each round's (range)" % (wire, rounds))
    print("%-6s %9s %9s %9s %9s %17s %19s %13s %13s" % ("mode", "bytes", "msgs", "Mmsg/s",
          "MB/s", "vs raw", "pkts/msg", "resent", "refused"))
    def counted(m, key, field, form):
        vals = [results[m][k][key].get(field, -1) for k in range(rounds)]
        if min(results[m][k][key].get("pkts_per_msg", -1) for k in range(rounds)) < 0:
            return "-"
        return (form + " (" + form + "-" + form + ")") % (statistics.median(vals), min(vals),
                                                          max(vals))
    for m in modes:
        for key in results[m][0]:
            print("%-6s %9d %9d %9.3f %9.1f %17s %19s %13s %13s" % (key[0], key[1],
                  total(m, key), med(m, key, "mmsg_s"), med(m, key, "mbyte_s"),
                  fmt(ratio(m, key, "mbyte_s"), pct=True),
                  counted(m, key, "pkts_per_msg", "%.2f"), counted(m, key, "resent", "%d"),
                  counted(m, key, "refused", "%d")))
    sys.exit(0)
print("pingpong over %s, round trip times in microseconds, %d rounds: medians of the rounds' "
      "figures; vs raw: median over the rounds of median / the same round's raw median "
      "(range)" % (wire, rounds))
print("%-6s %7s %7s %8s %8s %8s %9s %8s %9s %18s" % ("mode", "bytes", "iters", "min",
      "median", "p99", "p99.9", "Mmsg/s", "MB/s", "vs raw"))
for m in modes:
    for key in results[m][0]:
        print("%-6s %7d %7d %8.3f %8.3f %8.3f %9.3f %8.3f %9.1f %18s" % (m, key[1],
              total(m, key), min(results[m][k][key]["min_us"] for k in range(rounds)),
              med(m, key, "median_us"), med(m, key, "p99_us"), med(m, key, "p999_us"),
              med(m, key, "mmsg_s"), med(m, key, "mbyte_s"),
              fmt(ratio(m, key, "median_us"))))
PY
