#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# What a lost frame costs (figures, never a verdict on speed): Debian's
# unmodified fi_pingpong -e rdm -m tagged -S 64 over memif, with the
# provider's seeded fault injection (FI_DPDK_FAULT) on both sides' transmit
# path: loss-free, 1 % and 5 % loss per frame each way, and the same with
# duplication and reordering mixed in; then app/pingpong's one-way 1 MiB
# stream, loss-free and at 1 % loss. Each faulty run comes right after a
# loss-free one, and its ratio is against that one (memif on this VM changes
# speed every few minutes, sometimes between two runs of one round); the
# pairs run in rounds, and the median ratio of the rounds is printed with
# its range.
#
# usage: bench_loss.sh <directory of libdpdk-fi.so> <pingpong> [rounds] [iterations]

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

export FI_PROVIDER_PATH=$1
pp=$2
rounds=${3:-3}
iters=${4:-20000}
wire_mktemp || exit 1
tmp=$WIRE_TMP
wire_setup memif || exit 1

faults=(
	seed=1,tx_drop=0.01
	seed=2,tx_drop=0.05
	seed=3,tx_drop=0.01,tx_dup=0.01,tx_reorder=0.01
	seed=4,tx_drop=0.05,tx_dup=0.02,tx_reorder=0.02
)
stream_fault=seed=5,tx_drop=0.01

# fault_env FAULT: the env words for it
fault_env() {
	[ "$1" = none ] && return
	echo "FI_DPDK_FAULT=$1"
}

status=0
# control ports, a new one for each run and none in use: a server's port may
# stay in TIME_WAIT after its run (or another test's), and fi_pingpong's bind
# then fails
next_port=$((47000 + RANDOM % 500))

# ping RUN FAULT: one fi_pingpong into $tmp/c.RUN
ping() {
	local port args=(-p dpdk -e rdm -m tagged -S 64 -I "$iters" -c)
	port=$(wire_free_port "$next_port")
	next_port=$((port + 1))
	# shellcheck disable=SC2046
	WIRE_LISTEN_PORT=$port wire_pair 300 "$tmp/s.$1" "$tmp/c.$1" \
		::: env $(fault_env "$2") FI_DPDK_EAL_ARGS="$(wire_eal server)" \
		fi_pingpong "${args[@]}" -B "$port" \
		::: env $(fault_env "$2") FI_DPDK_EAL_ARGS="$(wire_eal client)" \
		fi_pingpong "${args[@]}" -P "$port" 127.0.0.1 >"$tmp/why" || {
		echo "fi_pingpong with $2 failed:"; cat "$tmp/why"; status=1; }
}

# stream RUN FAULT: one app/pingpong stream of 1 MiB messages into $tmp/sc.RUN
stream() {
	# shellcheck disable=SC2046
	wire_pair 300 "$tmp/ss.$1" "$tmp/sc.$1" \
		::: env $(fault_env "$2") "$pp" $(wire_eal server) -- -e rdm \
		--stream -S 1m -I 1000 --json \
		::: env $(fault_env "$2") "$pp" $(wire_eal client) -- -e rdm \
		--stream -S 1m -I 1000 --json 127.0.0.1 >"$tmp/why" || {
		echo "stream with $2 failed:"; cat "$tmp/why"; status=1; }
}

for ((r = 1; r <= rounds; r++)); do
	for ((f = 0; f < ${#faults[@]}; f++)); do
		ping "$r.$f.clean" none
		ping "$r.$f.faulty" "${faults[f]}"
	done
	stream "$r.clean" none
	stream "$r.faulty" "$stream_fault"
done
[ $status -eq 0 ] || exit 1

python3 - "$tmp" "$rounds" "$iters" "$stream_fault" "${faults[@]}" <<'PY'
import json, re, statistics, sys
tmp, rounds, ITERS = sys.argv[1], int(sys.argv[2]), sys.argv[3]
stream_fault, faults = sys.argv[4], sys.argv[5:]
def usec(run):
    # fi_pingpong's client line: bytes #sent #ack total time MB/sec usec/xfer Mxfers/sec
    for line in open("%s/c.%s" % (tmp, run)):
        if re.match(r"^64\s", line):
            return float(line.split()[6])
    raise SystemExit("no figure in run %s" % run)
def mbs(run):
    text = open("%s/sc.%s" % (tmp, run)).read()
    return json.loads(text[text.index("["):text.rindex("]") + 1])[0]["mbyte_s"]
def fmt(vals):
    return "%.2fx (%.2f-%.2f)" % (statistics.median(vals), min(vals), max(vals))
R = range(1, rounds + 1)
print("fi_pingpong -e rdm -m tagged -S 64 -I %s over memif, faults on both sides' transmit "
      "path; %d rounds, each faulty run right after a loss-free one; usec/xfer: medians of "
      "the rounds; vs loss-free: the pair's ratio, median of the rounds (range)" %
      (ITERS, rounds))
print("%-50s %10s %10s %20s" % ("FI_DPDK_FAULT", "loss-free", "faulty", "vs loss-free"))
for f, name in enumerate(faults):
    clean = [usec("%d.%d.clean" % (r, f)) for r in R]
    faulty = [usec("%d.%d.faulty" % (r, f)) for r in R]
    print("%-50s %10.2f %10.2f %20s" % (name, statistics.median(clean),
          statistics.median(faulty), fmt([b / a for a, b in zip(clean, faulty)])))
print("app/pingpong one-way FI_EP_RDM stream of 1 MiB messages over memif, %d rounds" % rounds)
print("%-50s %10s %10s %20s" % ("FI_DPDK_FAULT", "loss-free", "faulty", "vs loss-free"))
clean = [mbs("%d.clean" % r) for r in R]
faulty = [mbs("%d.faulty" % r) for r in R]
print("%-50s %10.1f %10.1f %20s" % (stream_fault + " (MB/s)", statistics.median(clean),
      statistics.median(faulty), fmt([b / a for a, b in zip(clean, faulty)])))
PY
