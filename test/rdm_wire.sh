#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# FI_EP_RDM streams between two processes, each of 100,000 messages of mixed
# sizes (1 B to 1 MiB) checked complete, in order, bit-exact and exactly once
# (test/rdm_peer.c), over a clean wire and through the faults the provider
# injects (FI_DPDK_FAULT, seeded): 1 %, 5 % and 20 % loss each way, then
# loss, duplication, reordering and corruption mixed, on memif and on
# veth/af_packet; the same posted 8 at a time (FI_MORE), which the provider
# carries several to a packet; the same sent by fi_inject(), whose packets
# the provider keeps and sends again from there; between memif sides whose
# ring buffers differ in size; RMA writes and reads, clean and under loss and
# reordering, checked byte for byte at both ends; RMA writes, reads and
# messages posted together, which must stay in order (read after write, send
# after write, send after send) through loss, duplication and reordering, on
# memif and veth; over veth interfaces of 9000 bytes, in jumbo packets,
# between a 9000-byte and a 1500-byte interface, and through two routers
# (RDM's first test through a gateway); and checked ping-pongs of
# 2,000 round trips at 64 B and 4 KiB, clean and at 20 % loss with 5 %
# duplication, reordering and corruption each way (at 64 B by fi_inject()
# too), where no packet after a lost one reveals it and no live peer may be
# given up. Prints a table of
# what happened, and the ping-pongs' times next to the clean ones'.
#
# usage: rdm_wire.sh <rdm_peer> <directory of libdpdk-fi.so> [count]
# (RMA_ONLY=1: the RMA streams alone)

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_init "$1" "$2"
count=${3:-100000}
rows=()

# figure SIDE LOG REGEX: the number that ends REGEX's match in a "# side:" line
figure() {
	grep -h "^# $1:" "$2" | grep -oE "$3" | head -1 | grep -oE '[0-9]+$'
}

# run NAME WIRE FAULTS [rdm_peer options]
run() {
	local name=$1 wire=$2 faults=$3 host=127.0.0.1 port
	shift 3
	local log=$tmp/$name
	wire_setup "$wire" || { check "$name: $wire wire built" false; return; }
	# one no socket has, TIME_WAIT included: a random one was an earlier
	# case's now and then ("Address already in use": rdm-chaos failed so once)
	port=$(wire_free_port $((47900 + RANDOM % 90)))
	[ "$wire" = veth ] && host=$WIRE_SERVER_IP
	local t0=$SECONDS
	wire_pair 240 "$log.server" "$log.client" \
		::: env FI_DPDK_EAL_ARGS="$(wire_eal server)" FI_DPDK_FAULT="$faults" \
		"$peer" server -P "$port" -n "$count" "$@" \
		::: env FI_DPDK_EAL_ARGS="$(wire_eal client)" FI_DPDK_FAULT="$faults" \
		"$peer" client "$host" -P "$port" -n "$count" "$@"
	local rc=$? secs=$((SECONDS - t0))
	check "$name: both sides pass ($secs s)" test $rc -eq 0
	grep -hE '^(not ok|# )' "$log.server" "$log.client" | sed "s|^|  |"
	local verified drops dups corrupt retx rto noroom rnr
	verified=$(grep -hoE '^# server: [0-9]+ (messages|RMA operations) verified|^# server: [0-9]+ round trips' \
		   "$log.server" | grep -oE '[0-9]+')
	retx=$(figure client "$log.client" 'retransmitted [0-9]+')
	rto=$(grep -h "^# client:" "$log.client" | grep -oE '[0-9]+ timeouts' | grep -oE '^[0-9]+')
	noroom=$(grep -h "^# client:" "$log.client" | grep -oE '[0-9]+ found no room' |
		 grep -oE '^[0-9]+')
	rnr=$(figure client "$log.client" 'RNR sent [0-9]+ received [0-9]+')
	corrupt=$(grep -hoE 'corrupt [0-9]+' "$log.client" "$log.server" |
		  awk '{s += $2} END {print s + 0}')
	dups=$(grep -hoE 'dup [0-9]+' "$log.client" "$log.server" | awk '{s += $2} END {print s + 0}')
	drops=$(grep -hoE 'drop [0-9]+' "$log.client" "$log.server" | awk '{s += $2} END {print s + 0}')
	rows+=("$(printf '%-10s %-6s %-52s %8s %8s %8s %8s %8s %8s %8s %8s %4s' "$name" "$wire" \
		"${faults:-none}" "${verified:-0}" "$drops" "$dups" "$corrupt" "${retx:-0}" \
		"${rto:-0}" "${noroom:-0}" "${rnr:-0}" "$secs")")
	wire_teardown
}

[ -n "${RMA_ONLY:-}" ] || run clean memif "" -t
[ -n "${RMA_ONLY:-}" ] || run loss1 memif "seed=11,tx_drop=0.01" -f
[ -n "${RMA_ONLY:-}" ] || run loss5 memif "seed=12,tx_drop=0.05" -f -t
[ -n "${RMA_ONLY:-}" ] || run loss20 memif "seed=13,tx_drop=0.2" -f
[ -n "${RMA_ONLY:-}" ] || run chaos memif "seed=14,drop=0.03,dup=0.02,reorder=0.05,corrupt=0.02" -f -t
# messages posted 8 at a time (FI_MORE): several to a packet, lost, resent,
# refused and buffered together
[ -n "${RMA_ONLY:-}" ] || run bundles memif "" -b -t
# a server whose ring buffers take 9000-byte packets, a client whose take
# memif's default 2034: both send what the smaller takes
[ -n "${RMA_ONLY:-}" ] || WIRE_BSIZE_CLIENT=2048 run mixed-mtu memif "" -t
[ -n "${RMA_ONLY:-}" ] || run bundles-chaos memif \
	"seed=17,drop=0.03,dup=0.02,reorder=0.05,corrupt=0.02" -f -b
# injects (fi_inject()) that go at once, their packets kept: lost, duplicated,
# corrupted on the way (never where they are kept) and sent again from there
[ -n "${RMA_ONLY:-}" ] || run inject-chaos memif \
	"seed=26,drop=0.03,dup=0.02,reorder=0.05,corrupt=0.02" -f -i -t
run rma memif "" -m rma -n 20000
run rma-loss5 memif "seed=16,drop=0.05,reorder=0.05" -m rma -n 20000 -f
# writes, reads and sends posted together: in order (fi_endpoint(3) msg_order)
# whatever the wire reorders
run order memif "seed=18,drop=0.05,dup=0.02,reorder=0.1" -m order -n 3000 -f
pp_chaos="seed=21,tx_drop=0.2,tx_dup=0.05,tx_reorder=0.05,tx_corrupt=0.05"
for size in 64 4096; do
	[ -n "${RMA_ONLY:-}" ] && break
	run "pp$size" memif "" -m pingpong -z "$size" -n 2000
	run "pp$size-20" memif "$pp_chaos" -m pingpong -z "$size" -n 2000 -f
done
[ -n "${RMA_ONLY:-}" ] || run pp64-inject-20 memif "$pp_chaos" -m pingpong -z 64 -n 2000 -f -i
if wire_available veth; then
	run chaos-veth veth "seed=15,drop=0.02,dup=0.01,reorder=0.03,corrupt=0.01" -f
	run order-veth veth "seed=19,drop=0.03,dup=0.02,reorder=0.1" -m order -n 3000 -f
	# interfaces of 9000 bytes with ring slots to match (fi_dpdk(7), Sizes):
	# an 8000-byte message goes in one packet, and in six to a peer whose
	# interface takes 1500; a stream of every size through the faults in
	# jumbo packets
	jumbo="framesz=9216,blocksz=36864"
	WIRE_AF_PACKET_ARGS=$jumbo WIRE_VETH_MTU_SERVER=9000 WIRE_VETH_MTU_CLIENT=9000 \
		run jumbo-veth veth "" -m pingpong -z 8000 -n 2000
	WIRE_AF_PACKET_ARGS=$jumbo WIRE_VETH_MTU_SERVER=9000 \
		run mixed-veth veth "" -m pingpong -z 8000 -n 2000
	WIRE_AF_PACKET_ARGS=$jumbo WIRE_VETH_MTU_SERVER=9000 WIRE_VETH_MTU_CLIENT=9000 \
		run chaos-jumbo veth "seed=24,drop=0.02,dup=0.01,reorder=0.03,corrupt=0.01" -f
	# the same sides in networks of their own, joined by two routers over a
	# 1500-byte link: a peer behind a gateway gets standard segments (without
	# that, every 8000-byte packet vanished at the second router, resends too)
	WIRE_AF_PACKET_ARGS=$jumbo WIRE_VETH_MTU_SERVER=9000 WIRE_VETH_MTU_CLIENT=9000 \
		WIRE_VETH_ROUTED_MTU=1500 run routed-veth veth "" -m pingpong -z 8000 -n 2000
	sent=$(figure client "$tmp/routed-veth.client" 'packets sent [0-9]+')
	check "routed-veth: six per message through the routers' 1500-byte link (${sent:-no} packets)" \
		test "${sent:-0}" -ge 12000
	sent=$(figure client "$tmp/jumbo-veth.client" 'packets sent [0-9]+')
	check "jumbo-veth: one packet per 8000-byte message (${sent:-no} for 2000 round trips)" \
		test "${sent:-0}" -gt 0 -a "${sent:-0}" -lt 5000
	sent=$(figure client "$tmp/mixed-veth.client" 'packets sent [0-9]+')
	check "mixed-veth: six against a 1500-byte interface (${sent:-no} packets)" \
		test "${sent:-0}" -ge 12000
else
	check "veth wire (needs root and ip netns)" false
fi

printf '# %-10s %-6s %-52s %8s %8s %8s %8s %8s %8s %8s %8s %4s\n' stream wire \
	"faults (FI_DPDK_FAULT)" verified dropped dupl corrupt resent timeouts no-room RNR secs
echo "# (dropped, dupl, corrupt: injected, both sides; resent and the rest: the sender's)"
for r in "${rows[@]}"; do
	echo "# $r"
done
for size in 64 4096; do
	clean=$(grep -hoE '^# client: [0-9]+ round trips in [0-9]+' "$tmp/pp$size.client" 2>/dev/null |
		grep -oE '[0-9]+$')
	chaos=$(grep -hoE '^# client: [0-9]+ round trips in [0-9]+' "$tmp/pp$size-20.client" \
		2>/dev/null | grep -oE '[0-9]+$')
	[ -n "$clean" ] && [ -n "$chaos" ] &&
		echo "# ping-pong, 2000 round trips of $size B: ${clean} ms clean," \
			"${chaos} ms at 20 % loss with 5 % dup/reorder/corrupt" \
			"($(awk -v a="$chaos" -v b="$clean" 'BEGIN { printf "%.1f", a / (b ? b : 1) }')x)"
done
finish
