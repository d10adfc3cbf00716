#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Reliable round trips ride out a flapping veth wire: app/pingpong's RDM (or
# MSG) round trips, every reply checked (-c), while the server's interface
# goes down for DFI_FLAP_DOWN_MS (1000) and comes back, twice. The sends that
# meet the down link fail inside the provider and are sent again once it is
# back; the application sees slow round trips and nothing else. Checked: both
# sides exit 0 with every round trip of each size in the client's table, the
# client was still running at each outage, and the provider saw each one
# (its WARNING on the way down, its NOTICE on the way up).
#
# usage: link_flap.sh <pingpong> <directory of libdpdk-fi.so> <mode>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_one "$1" "$2" veth
mode=$3
down_ms=${DFI_FLAP_DOWN_MS:-1000}
outages=2
port=$(wire_free_port $((47800 + RANDOM % 100)))
# a second or so of 64-byte round trips on a quiet host, then a few of
# 8 KiB messages of six packets each: the outages land in one or both
iters=100000
args=(-e "$mode" -P "$port" -S "64,8192" -I "$iters" -c -T 60)
eal="--log-level=dfi.*:notice"
# shellcheck disable=SC2046
wire_run server "$tmp/server" "$peer" $(wire_eal server) "$eal" -- "${args[@]}"
spid=$WIRE_PID
# shellcheck disable=SC2046
wire_run client "$tmp/client" "$peer" $(wire_eal client) "$eal" -- "${args[@]}" "$host"
cpid=$WIRE_PID

alive=0
# the first size's round trips are under way once the link is up on both
# sides and the warm-up has run
if wire_wait_line "$tmp/client" "DFI_NET: .*link up" 30; then
	sleep 0.3
	for ((i = 1; i <= outages; i++)); do
		kill -0 "$cpid" 2>/dev/null && alive=$((alive + 1))
		ip -n "$WIRE_NS_S" link set dfis0 down
		sleep "$((down_ms / 1000)).$(printf %03d $((down_ms % 1000)))"
		ip -n "$WIRE_NS_S" link set dfis0 up
		sleep 0.3
	done
fi
wire_wait "$spid" 90
rc=$?
wire_wait "$cpid" 90
crc=$?
[ "$rc" -eq 0 ] && rc=$crc
check "$mode: the client was running at each of $outages outages" test "$alive" -eq "$outages"
wire_pp_checks "$rc" "$tmp/client" "a flapping wire" "$mode" "$iters" 64 8192
s=$(cat "$tmp/server")
check "the server's provider saw the link go down $outages times" \
	count_is "$s" 'link down: sends fail' "$outages"
check "and come back each time" count_is "$s" 'link up, ' $((outages + 1))
wire_teardown
finish
