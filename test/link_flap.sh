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

wire_pingpong_env "$1" "$2"
mode=$3
down_ms=${DFI_FLAP_DOWN_MS:-1000}
outages=2
if ! wire_available veth; then
	echo "veth wire unavailable (needs root and ip netns)"
	exit 77
fi
wire_setup veth || { check "veth wire" false; finish; }
wire_mktemp || exit 1
tmp=$WIRE_TMP
port=$(wire_free_port $((47800 + RANDOM % 100)))
# a second or so of 64-byte round trips on a quiet host, then a few of
# 8 KiB messages of six packets each: the outages land in one or both
args=(-e "$mode" -P "$port" -S "64,8192" -I 100000 -c -T 60)
eal="--log-level=dfi.*:notice"
# shellcheck disable=SC2046
wire_run server "$tmp/server" "$PINGPONG" $(wire_eal server) "$eal" -- "${args[@]}"
spid=$WIRE_PID
# shellcheck disable=SC2046
wire_run client "$tmp/client" "$PINGPONG" $(wire_eal client) "$eal" -- "${args[@]}" \
	"$WIRE_SERVER_IP"
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
src=$?
wire_wait "$cpid" 90
crc=$?
out=$(cat "$tmp/client")
echo "$out" | grep -vE '^rte_pmd_memif_probe'
check "$mode: the client was running at each of $outages outages" test "$alive" -eq "$outages"
check "$mode over a flapping wire: the server exits 0" test "$src" -eq 0
check "$mode over a flapping wire: the client exits 0, every reply checked" test "$crc" -eq 0
for size in 64 8192; do
	check "$mode $size B: 100000 round trips" contains "$out" "^$mode +$size +100000 "
done
check "the server's provider saw the link go down $outages times" test \
	"$(grep -c 'link down: sends fail' "$tmp/server")" -eq "$outages"
check "and come back each time" test \
	"$(grep -c 'link up, ' "$tmp/server")" -eq $((outages + 1))
wire_teardown
finish
