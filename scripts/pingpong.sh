#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Runs app/pingpong between two processes on one wire, mode after mode, and
# prints each table with the median round trip as a ratio of the raw floor
# measured in the same run.
#
# usage: pingpong.sh [-w memif|veth] [-S sizes] [-I iters] [-c] [-s] [-o write|read] [mode ...]
#   modes: raw (always first), dgram, rdm; -c checks every reply's bytes;
#   -s streams one way instead (message rate and bandwidth, ratio to raw's)
#   -o streams RMA writes or reads over rdm too, after its messages (implies -s)

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$top/test/harness.sh"

wire=memif
sizes=64,256,1024,1400
iters=
verify=
stream=
rma=
while getopts "w:S:I:cso:" op; do
	case $op in
	w) wire=$OPTARG ;;
	S) sizes=$OPTARG ;;
	I) iters="-I $OPTARG" ;;
	c) verify=-c ;;
	s) stream=--stream ;;
	o) rma="-o $OPTARG" stream=--stream ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
modes=("$@")
[ ${#modes[@]} -eq 0 ] && modes=(dgram)

pp=${PINGPONG:-$top/build/app/pingpong/pingpong}
[ -x "$pp" ] || { echo "build first: $pp is missing" >&2; exit 1; }
export FI_PROVIDER_PATH=${FI_PROVIDER_PATH:-$top/build}
wire_setup "$wire" || exit 1
host=127.0.0.1
[ "$wire" = veth ] && host=$WIRE_SERVER_IP
tmp=$(mktemp -d)
trap 'wire_teardown; rm -rf "$tmp"' EXIT

status=0
for mode in raw "${modes[@]}"; do
	case $mode in
	raw) args=(--raw) ;;
	rdm) args=(-e rdm $rma) ;;
	*) args=(-e "$mode") ;;
	esac
	# shellcheck disable=SC2086
	if ! wire_pair 300 "$tmp/$mode.server" "$tmp/$mode.json" \
		::: "$pp" $(wire_eal server) -- "${args[@]}" -S "$sizes" $iters $verify $stream --json \
		::: "$pp" $(wire_eal client) -- "${args[@]}" -S "$sizes" $iters $verify $stream --json \
		"$host"; then
		echo "pingpong $mode failed over $wire:" >&2
		cat "$tmp/$mode.server" "$tmp/$mode.json" >&2
		status=1
	fi
done
[ $status -eq 0 ] || exit 1

python3 - "$wire" "$tmp" "$stream" raw "${modes[@]}" <<'PY'
import json, re, sys
wire, tmp, stream, modes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def load(mode):
    text = open("%s/%s.json" % (tmp, mode)).read()
    return json.loads(text[text.index("["):text.rindex("]") + 1])
results = {m: load(m) for m in modes}
if stream:
    # raw frames carry min(size, MTU) bytes each: the wire's own rate
    rate = {r["size"]: r["mbyte_s"] for r in results["raw"]}
    print("one-way stream over %s; vs raw: bandwidth as a share of raw frames' "
          "at the same size" % wire)
    print("%-6s %9s %9s %9s %9s %8s" % ("mode", "bytes", "msgs", "Mmsg/s", "MB/s",
          "vs raw"))
    for m in modes:
        for r in results[m]:
            share = ("%7.0f%%" % (100.0 * r["mbyte_s"] / rate[r["size"]])
                     if r["size"] in rate else "-")
            print("%-6s %9d %9d %9.3f %9.1f %8s" % (r["mode"], r["size"], r["iters"],
                  r["mmsg_s"], r["mbyte_s"], share))
    sys.exit(0)
floor = {r["size"]: r["median_us"] for r in results["raw"]}
print("pingpong over %s, round trip times in microseconds" % wire)
print("%-6s %7s %7s %8s %8s %8s %9s %8s %9s %10s" % ("mode", "bytes", "iters", "min",
      "median", "p99", "p99.9", "Mmsg/s", "MB/s", "vs raw"))
for m in modes:
    for r in results[m]:
        ratio = "%.2fx" % (r["median_us"] / floor[r["size"]]) if r["size"] in floor else "-"
        print("%-6s %7d %7d %8.3f %8.3f %8.3f %9.3f %8.3f %9.1f %10s" % (m, r["size"],
              r["iters"], r["min_us"], r["median_us"], r["p99_us"], r["p999_us"],
              r["mmsg_s"], r["mbyte_s"], ratio))
PY
