#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# FI_EP_MSG between two processes (test/msg_peer.c), on each wire:
#   exchange: a request rejected with CM data (the client gets
#     FI_ECONNREFUSED with the data), one accepted with CM data both ways, a
#     checked message each way and fi_shutdown (the server gets FI_SHUTDOWN);
#     then CYCLES connect / transfer / shutdown cycles, after which the
#     mbufs in use on both sides are what they were after the first;
#   kill: the client streams, the server is killed (SIGKILL) mid-stream, and
#     the client must see FI_SHUTDOWN within the protocol's deadline
#     (FI_DPDK_RDM_TIMEOUT_MS, 2 s here) plus margin;
#   idle: the same with nothing sent, so that only the protocol's keepalive
#     probes of a connection's peer can see it die.
#
# With FAULTS (an FI_DPDK_FAULT list), every frame of both sides may be lost,
# duplicated, reordered or corrupted: the connection manager's packets too.
#
# usage: msg_wire.sh <msg_peer> <directory of libdpdk-fi.so> memif|veth [CYCLES [FAULTS]]

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_one "$1" "$2" "$3"
# 300 cycles unless asked: some 4 s under ASan, where msg-wire-memif runs
cycles=${4:-300}
[ -n "${5:-}" ] && export FI_DPDK_FAULT=$5
deadline_ms=2000
port=$(wire_free_port $((46000 + RANDOM % 1000)))
log=$tmp/msg

WIRE_LISTEN_PORT=$port wire_pair 120 "$log.s" "$log.c" \
	::: env FI_DPDK_EAL_ARGS="$(wire_eal server)" \
	"$peer" server -P "$port" -m exchange -n "$cycles" \
	::: env FI_DPDK_EAL_ARGS="$(wire_eal client)" \
	"$peer" client "$host" -P "$port" -m exchange -n "$cycles" >"$log.why"
rc=$?
check "$wire: connect / accept / reject / shutdown and $cycles cycles, both exit 0" \
	test "$rc" -eq 0
grep -hE '^(not ok|# )|in use' "$log.s" "$log.c" | sed 's|^|  |'
[ "$rc" -eq 0 ] || sed 's|^|  |' "$log.why" "$log.s" "$log.c"
check "$wire: the client saw the reject's data" grep -q "FI_ECONNREFUSED with the reject" "$log.c"
check "$wire: the server saw FI_SHUTDOWN" grep -q "^ok .*FI_SHUTDOWN when the client" "$log.s"
check "$wire: every cycle on both sides" \
	grep -q "^ok .*$cycles of $cycles connect" "$log.s" "$log.c"
wire_teardown

# killed MODE: the peer killed mid-stream (kill), or while the connection is
# idle (idle: only the keepalive probes can see it go)
killed() {
	local mode=$1 line=streaming s c up t0
	[ "$mode" = idle ] && line=idling
	wire_setup "$wire" || { check "$wire wire again" false; return; }
	[ "$wire" = veth ] && host=$WIRE_SERVER_IP	# a new subnet
	port=$((port + 1))
	env=(env FI_DPDK_RDM_TIMEOUT_MS=$deadline_ms)
	wire_run server "$log.$mode.s" "${env[@]}" FI_DPDK_EAL_ARGS="$(wire_eal server)" \
		"$peer" server -P "$port" -m "$mode"
	s=$WIRE_PID
	wire_run client "$log.$mode.c" "${env[@]}" FI_DPDK_EAL_ARGS="$(wire_eal client)" \
		"$peer" client "$host" -P "$port" -m "$mode"
	c=$WIRE_PID
	wire_wait_line "$log.$mode.c" "$line" 20
	up=$?
	check "$wire/$mode: the connection is up" test "$up" -eq 0
	[ "$up" -eq 0 ] || sed 's|^|  |' "$log.$mode.s" "$log.$mode.c"
	sleep 0.5
	kill -9 "$s"
	t0=$(date +%s%N)
	check "$wire/$mode: the survivor sees the connection end" \
		wire_wait_line "$log.$mode.c" dead 10
	echo "# $wire/$mode: $(( ($(date +%s%N) - t0) / 1000000 )) ms from the kill to" \
		"FI_SHUTDOWN (deadline $deadline_ms ms)"
	wire_wait "$c" 20
	check "$wire/$mode: the survivor passes its checks" test $? -eq 0
	grep -hE '^(not ok|dead)' "$log.$mode.c" | sed 's|^|  |'
	wire_teardown
}

killed kill
# the keepalive's loss recovery is the probes' own, which the kill above
# exercises under FAULTS already
[ -z "${5:-}" ] && killed idle
finish
