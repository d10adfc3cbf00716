#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Traffic classes between two processes, as the standard benchmark programs
# ask for them (fi_endpoint(3)): a checked RDM ping-pong whose endpoints ask
# for FI_TC_LOW_LATENCY (test/rdm_peer.c -m pingpong: 1 B to 64 KiB, every
# echo compared), and a checked one-way RDM stream whose endpoints ask for
# FI_TC_BULK_DATA (-m stream: 1 B to 1 MiB, each message complete, in order,
# bit-exact, exactly once). Before, fi_getinfo refused both classes.
# (The DSCP each class puts in the IPv4 header is read off the wire by
# test_net; the urgent class's frames leaving first, by test_link.)
#
# usage: tclass_wire.sh <rdm_peer> <directory of libdpdk-fi.so> memif|veth

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_one "$1" "$2" "$3"

# run CLASS MODE COUNT WHAT
run() {
	local class=$1 mode=$2 count=$3 what=$4 port t0=$SECONDS
	port=$(wire_free_port $((46000 + RANDOM % 1000)))
	local log=$tmp/$class-$mode
	wire_pair 120 "$log.s" "$log.c" \
		::: env FI_DPDK_EAL_ARGS="$(wire_eal server)" \
		"$peer" server -P "$port" -C "$class" -m "$mode" -n "$count" \
		::: env FI_DPDK_EAL_ARGS="$(wire_eal client)" \
		"$peer" client "$host" -P "$port" -C "$class" -m "$mode" -n "$count" >"$log.why"
	local rc=$?
	check "$wire, $class: $what ($((SECONDS - t0)) s)" test "$rc" -eq 0
	grep -hE '^# (server|client): [0-9]+ (round trips|messages)' "$log.s" "$log.c" |
		sed 's|^|  |'
	[ "$rc" -eq 0 ] || sed 's|^|  |' "$log.why" "$log.s" "$log.c"
}

run low_latency pingpong 400 "a ping-pong of 400 checked round trips"
run bulk_data stream 20000 "a stream of 20000 checked messages"
finish
