#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# app/pingpong, an EAL-style program that starts DPDK itself, through
# scripts/pingpong.sh on a wire: the raw floor and the provider's modes, every
# reply checked byte for byte (-c), and the table with its ratios printed;
# over memif the floor in turns with the mode, for round trips and for
# batched streams, inside one pair of processes; over veth, af_packet of
# four queue pairs as well; sizes that leave the raw floor without a frame
# are refused.
#
# usage: pingpong_app.sh <pingpong> <directory of libdpdk-fi.so> <wire> <mode...>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_pingpong_env "$1" "$2"
wire=$3
shift 3
if ! wire_available "$wire"; then
	echo "$wire wire unavailable (needs root and ip netns)"
	exit 77
fi
# two rounds, not pingpong.sh's three: a range needs two, and each round is
# a pair of processes to start for the floor and one for each mode
out=$("$here/../scripts/pingpong.sh" -w "$wire" -R 2 -S 0,1,64,1000,1400 -I 2000 -c "$@" 2>&1)
rc=$?
echo "$out"
check "pingpong over $wire exits 0" test "$rc" -eq 0
for mode in raw "$@"; do
	for size in 1 64 1000 1400; do
		check "$mode $size B measured" contains "$out" "^$mode +$size +2000 "
	done
done
check "the ratios against raw are printed, with their range over the rounds" contains "$out" \
	'^[a-z]+ +64 +.* [0-9]+\.[0-9]+x \([0-9]+\.[0-9]+-[0-9]+\.[0-9]+\)$'
if [ "$wire" = memif ]; then
	# the floor in turns with each mode, inside one pair of processes
	out=$("$here/../scripts/pingpong.sh" -f -B 500 -S 64,1400 -I 2000 -c "$@" 2>&1)
	rc=$?
	echo "$out"
	check "pingpong -f (the floor in turns) exits 0, every reply checked" test "$rc" -eq 0
	for mode in "$@"; do
		for size in 64 1400; do
			check "$mode $size B: four turns against the floor's, by regime" contains \
				"$out" "^$mode +$size +(1|all) +4 +[0-9.]+ +[0-9.]+ +[0-9.]+x \([0-9.]+-[0-9.]+\)$"
			check "$mode $size B: 2000 round trips counted" contains "$out" \
				"^$mode +$size +2000 "
			check "raw $size B: 2000 beside them" contains "$out" "^raw +$size +2000 "
		done
	done
	# streams in turns with the floor's: each size's in ten turns of each,
	# every turn's share of the raw turn before it, grouped by regime; the
	# messages injected 16 at a time (FI_MORE, no completion: the endpoint's
	# transmit completions are selective); the one-way run below streams
	# them one post at a time
	out=$("$here/../scripts/pingpong.sh" -f -b 16 -S 1024 -I 20000 "$@" 2>&1)
	rc=$?
	echo "$out"
	check "pingpong -f -b 16 (batched streams in turns with the floor) exits 0" \
		test "$rc" -eq 0
	for mode in "$@"; do
		check "$mode 1 KiB stream: ten turns against the floor's, by regime" contains \
			"$out" "^$mode +1024 +(1|all) +10 +[0-9]+ +[0-9]+ +[0-9]+% \([0-9]+-[0-9]+\)$"
		check "$mode 1 KiB stream: its median turn of 2000 messages reported" contains \
			"$out" "^$mode +1024 +2000 "
		check "raw 1 KiB stream: its median turn beside it" contains "$out" "^raw +1024 +[0-9]+ "
	done
	# one way: the reliable modes' senders count their packets, those sent
	# again and the refusals they got (their endpoints' counters); a 64-byte
	# message takes at most a packet (less when bundled), a 64 KiB one
	# several
	out=$("$here/../scripts/pingpong.sh" -w "$wire" -s -R 1 -S 64,65536 -I 20000 "$@" 2>&1)
	rc=$?
	echo "$out"
	check "one-way streams over $wire exit 0" test "$rc" -eq 0
	n='[0-9]+' f='[0-9]+\.[0-9]+'
	for mode in "$@"; do
		row="^$mode +64 +20000 +$f +$f +$n% \($n-$n\)"
		case $mode in
		rdm|msg)
			check "$mode 64 B stream: at most a packet per message, resends and refusals counted" \
				contains "$out" "$row +(0\.[0-9]+|1\.00) \($f-$f\) +$n \($n-$n\) +$n \($n-$n\)$"
			check "$mode 64 KiB stream: several packets per message" contains "$out" \
				"^$mode +65536 +20000 +$f +$f +$n% \($n-$n\) +([2-9]|[1-9][0-9]+)\.[0-9]+ "
			;;
		*)
			# datagrams: nothing counts them, and a loss-free wire
			# loses none (the 129th to 256th, which waited for ARP
			# while the 128-slot ring was full, were freed once)
			check "$mode 64 B stream: every datagram, no protocol counters" \
				contains "$out" "$row +- +- +-$"
			;;
		esac
	done
else
	# af_packet of four sockets (qpairs=4), one fanout group: the kernel
	# hands a frame to any of them by its hash, and the floor takes frames
	# from every queue (it read queue 0 alone, and lost those the hash
	# gave the others)
	out=$(WIRE_AF_PACKET_ARGS=qpairs=4 "$here/../scripts/pingpong.sh" -w "$wire" -R 1 \
		-S 64,1400 -I 2000 -c "$@" 2>&1)
	rc=$?
	echo "$out"
	check "pingpong over af_packet of 4 queue pairs exits 0, every reply checked" \
		test "$rc" -eq 0
	for mode in raw "$@"; do
		check "$mode 64 B over 4 queue pairs: 2000 round trips" contains "$out" \
			"^$mode +64 +2000 "
	done
	out=$("$here/../scripts/pingpong.sh" -w "$wire" -f -S 64 "$@" 2>&1)
	rc=$?
	check "-f over $wire is refused (exit 2): its floor needs a second memif pair" \
		test "$rc" -eq 2
fi
# round trips of sizes the raw floor has no frame for: refused before any run
out=$("$here/../scripts/pingpong.sh" -w "$wire" -S 64k,1m "$@" 2>&1)
rc=$?
check "round trips without a size of at most 1500 bytes are refused (exit 2)" test "$rc" -eq 2
check "and the refusal says why" contains "$out" "need one size of at most 1500 bytes"
finish
