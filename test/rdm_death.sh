#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# A peer dies mid-stream (SIGKILL), on the veth wire: the survivor's messages
# in flight fail within the deadline (FI_DPDK_RDM_TIMEOUT_MS) with
# FI_ETIMEDOUT and a successor at the same address is reached over a fresh
# connection; or, when the successor starts before the deadline, it rejects
# what was meant for its predecessor and the survivor's messages fail with
# FI_ECONNRESET. test/rdm_peer.c checks each side.
#
# usage: rdm_death.sh <rdm_peer> <directory of libdpdk-fi.so>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_init "$1" "$2"
deadline_ms=2000

if ! wire_available veth; then
	echo "veth wire unavailable (needs root and ip netns)"
	exit 77
fi

# scenario MODE: death (successor after the deadline) or restart (at once)
scenario() {
	local mode=$1 port=$((47990 + RANDOM % 9)) log=$tmp/$1 s1 s2 c t0
	# a restart must come before the deadline: give it room
	local env=(env FI_DPDK_RDM_TIMEOUT_MS=$([ "$mode" = death ] && echo $deadline_ms || echo 20000))
	wire_setup veth || { check "$mode: veth wire" false; return; }
	wire_run server "$log.s1" "${env[@]}" FI_DPDK_EAL_ARGS="$(wire_eal server)" \
		"$peer" server -P "$port" -m "$mode" -n 100000000
	s1=$WIRE_PID
	wire_run client "$log.c" "${env[@]}" FI_DPDK_EAL_ARGS="$(wire_eal client)" \
		"$peer" client "$WIRE_SERVER_IP" -P "$port" -m "$mode"
	c=$WIRE_PID
	check "$mode: the stream runs" wire_wait_line "$log.c" streaming 20
	sleep 1
	kill -9 "$s1"
	kill -USR1 "$c"
	t0=$(date +%s%N)
	if [ "$mode" = death ]; then
		check "$mode: the survivor gives the dead peer up" wire_wait_line "$log.c" dead 10
	fi
	# the successor: same namespace, interface and UDP port, so the same address
	wire_run server "$log.s2" "${env[@]}" FI_DPDK_EAL_ARGS="$(wire_eal server)" \
		"$peer" server -P "$port" -m "$mode" -n 1000
	s2=$WIRE_PID
	wire_wait "$c" 60
	check "$mode: the survivor passes its checks" test $? -eq 0
	wire_wait "$s2" 20
	check "$mode: the successor passes its checks" test $? -eq 0
	echo "# $mode: $(( ($(date +%s%N) - t0) / 1000000 )) ms from the kill to the end"
	grep -hE '^(not ok|# )' "$log.c" "$log.s2" | sed 's|^|  |'
	wire_teardown
}

scenario death
scenario restart
finish
