#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# A peer dies mid-stream (SIGKILL): the survivor's messages in flight fail
# within the deadline (FI_DPDK_RDM_TIMEOUT_MS) with FI_ETIMEDOUT and a
# successor at the same address is reached over a fresh connection; or, when
# the successor starts before the deadline, it rejects what was meant for its
# predecessor and the survivor's messages fail with FI_ECONNRESET. On veth the
# link stays up. On memif the dead server takes the link down with it: the
# deadline finds the link down (FI_ENETDOWN), and the surviving client's port
# must connect again, by itself, to the successor on the same socket (the
# port-level twin of the peer's death). test/rdm_peer.c checks each side.
#
# usage: rdm_death.sh <rdm_peer> <directory of libdpdk-fi.so>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_init "$1" "$2"
deadline_ms=2000

# scenario MODE WIRE: death (successor after the deadline) or restart (at once)
scenario() {
	local mode=$1 wire=$2 port log=$tmp/$1-$2 s1 s2 c t0 host
	# a restart must come before the deadline: give it room
	local env=(env FI_DPDK_RDM_TIMEOUT_MS=$([ "$mode" = death ] && echo $deadline_ms || echo 20000))
	local link=()
	[ "$wire" = memif ] && link=(-L)
	wire_setup "$wire" || { check "$mode: $wire wire" false; return; }
	port=$(wire_free_port $((47990 + RANDOM % 9)))
	host=127.0.0.1
	[ "$wire" = veth ] && host=$WIRE_SERVER_IP
	wire_run server "$log.s1" "${env[@]}" FI_DPDK_EAL_ARGS="$(wire_eal server)" \
		"$peer" server -P "$port" -m "$mode" -n 100000000
	s1=$WIRE_PID
	wire_run client "$log.c" "${env[@]}" FI_DPDK_EAL_ARGS="$(wire_eal client)" \
		"$peer" client "$host" -P "$port" -m "$mode" "${link[@]}"
	c=$WIRE_PID
	check "$mode/$wire: the stream runs" wire_wait_line "$log.c" streaming 20
	sleep 1
	kill -9 "$s1"
	kill -USR1 "$c"
	t0=$(date +%s%N)
	if [ "$mode" = death ]; then
		check "$mode/$wire: the survivor gives the dead peer up" \
			wire_wait_line "$log.c" dead 10
	fi
	# the successor: same namespace, interface (or memif socket) and UDP
	# port, so the same address
	wire_run server "$log.s2" "${env[@]}" FI_DPDK_EAL_ARGS="$(wire_eal server)" \
		"$peer" server -P "$port" -m "$mode" -n 1000
	s2=$WIRE_PID
	wire_wait "$c" 60
	check "$mode/$wire: the survivor passes its checks" test $? -eq 0
	wire_wait "$s2" 20
	check "$mode/$wire: the successor passes its checks" test $? -eq 0
	echo "# $mode/$wire: $(( ($(date +%s%N) - t0) / 1000000 )) ms from the kill to the end"
	grep -hE '^(not ok|# )' "$log.c" "$log.s2" | sed 's|^|  |'
	[ -n "${DFI_KEEP:-}" ] && cp "$log".* "$DFI_KEEP"/
	wire_teardown
}

for wire in ${DFI_DEATH_WIRES:-veth memif}; do
	if ! wire_available "$wire"; then
		check "$wire wire available (needs root and ip netns)" false
		continue
	fi
	scenario death "$wire"
	scenario restart "$wire"
done
finish
