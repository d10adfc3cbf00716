#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Processes that start together must connect, as a launcher starts them:
# either side first, at once or 0.5 s or 3 s apart, each run a checked RDM
# ping-pong (test/rdm_peer.c -m pingpong: 1 B to 64 KiB, every echo compared).
# Both sides open their endpoint at once; nothing waits for the other side's
# port before its own starts. Over memif, a client that comes first, or that
# reaches a server whose port is not started yet, is refused and must
# connect again by itself. Over veth, the interfaces are down when the
# processes start and come up a second later.
#
# usage: start_order.sh <rdm_peer> <directory of libdpdk-fi.so> memif|veth

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_one "$1" "$2" "$3"
# two of each order at once (DFI_START_ORDER_RUNS): each is a second of
# EAL start-up, most of the test's time; before the port revival 2 launches
# in 3 hung, which four launches miss once in 81
runs_at_once=${DFI_START_ORDER_RUNS:-4}
link_late_s=1

# run FIRST GAP N: one launch, FIRST side first, the other GAP seconds later
run() {
	local first=$1 gap=$2 n=$3 port log=$tmp/$1-$2-$3 t0 rc
	port=$(wire_free_port $((46000 + RANDOM % 1000)))
	local what="$wire, $first first, ${gap} s apart, launch $n"
	if [ "$wire" = veth ]; then
		wire_link down
		(sleep "$link_late_s"; wire_link up) &
	fi
	t0=$(date +%s%N)
	WIRE_FIRST=$first WIRE_GAP=$gap wire_pair 90 "$log.s" "$log.c" \
		::: env FI_DPDK_EAL_ARGS="$(wire_eal server)" \
		"$peer" server -P "$port" -m pingpong -n 200 \
		::: env FI_DPDK_EAL_ARGS="$(wire_eal client)" \
		"$peer" client "$host" -P "$port" -m pingpong -n 200 >"$log.why"
	rc=$?
	wait
	check "$what: a checked ping-pong of 200 messages ($(( ($(date +%s%N) - t0) / 1000000 )) ms)" \
		test "$rc" -eq 0
	[ "$rc" -eq 0 ] || sed 's|^|  |' "$log.why"
}

# paused_server: a memif server that is slow to accept (stopped for 3 s as
# soon as its socket exists, while the client connects) must not lose its
# process: DPDK 22.11's memif server aborts (rte_panic "Error adding fd")
# when a client closes a connection before the server greeted it, which a
# client restarting every 10 ms did (the server crashed so in every try), and
# then one restarting after a second of handshake (aborted or silent, both
# sides, in 3 of 3 tries of a 5 s stop); the client now waits while memif
# keeps the connection open
paused_server() {
	local port log=$tmp/paused spid cpid rs rc i
	port=$(wire_free_port $((46000 + RANDOM % 1000)))
	wire_run server "$log.s" env FI_DPDK_EAL_ARGS="$(wire_eal server)" \
		"$peer" server -P "$port" -m pingpong -n 200
	spid=$WIRE_PID
	# memif's socket is abstract: /proc/net/unix lists it, the file system not
	for ((i = 0; i < 200; i++)); do
		grep -q "@/run/dfi-$WIRE_ID.sock" /proc/net/unix && break
		sleep 0.01
	done
	kill -STOP "$spid"
	wire_run client "$log.c" env FI_DPDK_EAL_ARGS="$(wire_eal client)" \
		"$peer" client "$host" -P "$port" -m pingpong -n 200
	cpid=$WIRE_PID
	sleep 3
	kill -CONT "$spid"
	wire_wait "$spid" 60
	rs=$?
	wire_wait "$cpid" 60
	rc=$?
	check "$wire: a server stopped for 3 s as its socket appears while its client connects, then a checked ping-pong (server $rs, client $rc)" \
		test "$rs" -eq 0 -a "$rc" -eq 0
	[ "$rs" -eq 0 ] && [ "$rc" -eq 0 ] || tail -n 5 "$log.s" "$log.c" | sed 's|^|  |'
	wire_teardown
}

[ "$wire" = memif ] && paused_server
for ((i = 1; i <= runs_at_once; i++)); do
	# at once: which one the launcher forks first alternates
	run "$([ $((i % 2)) -eq 0 ] && echo client || echo server)" 0 "$i"
done
for gap in 0.5 3; do
	run server "$gap" 1
	run client "$gap" 1
done
finish
