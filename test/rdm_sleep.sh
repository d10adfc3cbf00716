#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# A receiver that stops polling is not a lossy link: the client streams
# messages over memif (test/rdm_peer.c -m sleep) and the script stops the
# server (SIGSTOP) for SLEEP_S seconds mid-stream, then lets it go on. The
# client must not give the server up (its deadline, FI_DPDK_RDM_TIMEOUT_MS,
# is longer than the sleep), must send no more than a bounded number of
# probes while the server sleeps, and every message must still arrive,
# checked. The bound: probes double their interval from twice the round trip
# up to 100 round trips, and after 16 unanswered ones up to 10 ms, so a sleep
# of T seconds costs at most 16 + 20 + T / 10 ms of them (536 for 5 s).
#
# usage: rdm_sleep.sh <rdm_peer> <directory of libdpdk-fi.so>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_init "$1" "$2"
sleep_s=5
bound=$((16 + 20 + sleep_s * 100))
port=$(wire_free_port $((47500 + RANDOM % 90)))

wire_setup memif || { check "memif wire" false; finish; exit; }
# the ports' and memif's own lines (info) go to the logs, shown if it fails
logs="--log-level=info --log-level=dfi.*:info --log-level=pmd.net.memif:info"
wire_run server "$tmp/s" env FI_DPDK_RDM_TIMEOUT_MS=30000 FI_DPDK_EAL_ARGS="$(wire_eal server) $logs" \
	"$peer" server -P "$port" -m sleep -n 400000
s=$WIRE_PID
wire_run client "$tmp/c" env FI_DPDK_RDM_TIMEOUT_MS=30000 FI_DPDK_EAL_ARGS="$(wire_eal client) $logs" \
	"$peer" client 127.0.0.1 -P "$port" -m sleep -n 400000
c=$WIRE_PID
check "the stream runs" wire_wait_line "$tmp/c" streaming 20
# once a message arrived: this is a receiver that stops mid-stream (a server
# stopped before its memif link is up is start_order.sh's paused_server)
check "messages flow" wire_wait_line "$tmp/c" flowing 20
sleep 0.3
kill -STOP "$s"
sleep "$sleep_s"
kill -CONT "$s"
wire_wait "$c" 120
rc=$?
check "the client passes its checks: nothing failed, nobody given up" test $rc -eq 0
wire_wait "$s" 20
rs=$?
check "the server passes its checks: every message arrived, in order, bit-exact" test $rs -eq 0
grep -hE '^(not ok|# )' "$tmp/c" "$tmp/s" | sed 's|^|  |'
if [ $rc -ne 0 ] || [ $rs -ne 0 ]; then
	# what the ports and memif said, for the reader of a failure
	grep -hE 'DFI_NET|memif' "$tmp/s" | tail -n 20 | sed 's|^|#   server: |'
	grep -hE 'DFI_NET|memif' "$tmp/c" | tail -n 20 | sed 's|^|#   client: |'
fi
stall=$(grep -hoE 'longest stall [0-9]+ ms, [0-9]+ probes' "$tmp/c")
ms=$(grep -oE '[0-9]+ ms' <<<"$stall" | grep -oE '[0-9]+')
probes=$(grep -oE '[0-9]+ probes' <<<"$stall" | grep -oE '[0-9]+')
echo "# the server slept ${sleep_s} s: the client's longest stall ${ms:-?} ms, ${probes:-?} probes meanwhile (bound $bound)"
check "the client waited out the sleep (${ms:-?} ms)" test "${ms:-0}" -ge $((sleep_s * 1000 - 500))
check "the client's probes during the sleep stay bounded (${probes:-?} <= $bound)" \
	test "${probes:-999999}" -le "$bound"
finish
