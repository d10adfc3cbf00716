#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# FI_EP_DGRAM between two processes on each wire the harness builds (memif;
# veth/af_packet between two network namespaces), in both encapsulations:
# test/dgram_peer.c's checks on each side, then each side's port must have
# had every mbuf back at exit.
#
# usage: dgram_wire.sh <dgram_peer> <directory of libdpdk-fi.so>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_init "$1" "$2"

# run WIRE ENCAP: one pair, its checks
run() {
	local wire=$1 encap=$2 host=127.0.0.1 port=$((47620 + RANDOM % 200)) log=$tmp/$1-$2
	wire_setup "$wire" || { check "$wire wire built" false; return; }
	[ "$wire" = veth ] && host=$WIRE_SERVER_IP
	wire_pair 120 "$log.server" "$log.client" \
		::: env FI_DPDK_EAL_ARGS="$(wire_eal server) --log-level=info --log-level=dfi.*:info" \
		FI_DPDK_ENCAP="$encap" "$peer" server -P "$port" \
		::: env FI_DPDK_EAL_ARGS="$(wire_eal client) --log-level=info --log-level=dfi.*:info" \
		FI_DPDK_ENCAP="$encap" "$peer" client "$host" -P "$port"
	check "$wire/$encap: both sides pass" test $? -eq 0
	local s c
	s=$(cat "$log.server")
	c=$(cat "$log.client")
	check "$wire/$encap: the client ran every check" contains "$c" '^1\.\.[0-9]+$'
	check "$wire/$encap: no check failed" lacks "$s$c" '^not ok'
	check "$wire/$encap: server port got every mbuf back" contains "$s" 'all [0-9]+ mbufs returned'
	check "$wire/$encap: client port got every mbuf back" contains "$c" 'all [0-9]+ mbufs returned'
	grep -E '^(not ok|#)' "$log.server" "$log.client" | sed "s|$tmp/||"
	wire_teardown
}

run memif udp
run memif eth
if wire_available veth; then
	run veth udp
	run veth eth
else
	echo "veth wire unavailable (needs root and ip netns)"
	exit 77
fi

finish
