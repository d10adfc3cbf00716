#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# FI_EP_DGRAM between two processes on each wire the harness builds (memif;
# veth/af_packet between two network namespaces), in both encapsulations:
# test/dgram_peer.c's checks on each side, then each side's port must have
# had every mbuf back at exit. Then, on veth, the server's interface goes
# down and up under a client that sends (dgram_peer -L): its sends must fail
# with -FI_ENETDOWN (and say so in the log) and traffic must resume; the
# delays until the provider saw each change are printed.
#
# usage: dgram_wire.sh <dgram_peer> <directory of libdpdk-fi.so>
# (LINK_ONLY=1: the link runs alone)

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_init "$1" "$2"

# run WIRE ENCAP: one pair, its checks
run() {
	local wire=$1 encap=$2 host=127.0.0.1 port log=$tmp/$1-$2
	wire_setup "$wire" || { check "$wire wire built" false; return; }
	port=$(wire_free_port $((47620 + RANDOM % 200)))
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

# ms between two CLOCK_REALTIME stamps in ns
ms_between() {
	echo $(( ($2 - $1) / 1000000 ))
}

# run_link ENCAP: the veth wire goes down and up under a sending client
run_link() {
	local encap=$1 port log=$tmp/link-$1 spid cpid t_down t_up
	wire_setup veth || { check "link/$encap: veth wire built" false; return; }
	port=$(wire_free_port $((47820 + RANDOM % 100)))
	wire_run server "$log.server" env FI_DPDK_ENCAP="$encap" \
		FI_DPDK_EAL_ARGS="$(wire_eal server) --log-level=info --log-level=dfi.*:info" \
		"$peer" server -P "$port" -L
	spid=$WIRE_PID
	wire_run client "$log.client" env FI_DPDK_ENCAP="$encap" FI_LOG_LEVEL=info \
		FI_DPDK_EAL_ARGS="$(wire_eal client) --log-level=info --log-level=dfi.*:info" \
		"$peer" client "$WIRE_SERVER_IP" -P "$port" -L
	cpid=$WIRE_PID
	check "link/$encap: the client is ready" wire_wait_line "$log.client" '# link: ready' 60
	t_down=$(date +%s%N)
	ip -n "$WIRE_NS_S" link set dfis0 down
	check "link/$encap: the client saw the link go" \
		wire_wait_line "$log.client" '# link: up please' 20
	t_up=$(date +%s%N)
	ip -n "$WIRE_NS_S" link set dfis0 up
	wire_wait "$cpid" 60
	check "link/$encap: the client passes" test $? -eq 0
	wire_wait "$spid" 20
	check "link/$encap: the server passes" test $? -eq 0
	local s c down up
	s=$(cat "$log.server")
	c=$(cat "$log.client")
	down=$(grep -oE '^# link: down seen at [0-9]+' "$log.client" | grep -oE '[0-9]+$')
	up=$(grep -oE '^# link: up seen at [0-9]+' "$log.client" | grep -oE '[0-9]+$')
	if [ -n "$down" ] && [ -n "$up" ]; then
		echo "# link/$encap: the provider saw the link go down after" \
			"$(ms_between "$t_down" "$down") ms, come back after $(ms_between "$t_up" "$up") ms"
		check "link/$encap: down seen within a second" \
			test "$(ms_between "$t_down" "$down")" -lt 1000
	else
		check "link/$encap: the client timed both changes" false
	fi
	check "link/$encap: no check failed" lacks "$s$c" '^not ok'
	check "link/$encap: the refused send is logged (FI_LOG_LEVEL=info)" \
		contains "$c" 'link down: sends from UDP port [0-9]+ fail with -FI_ENETDOWN'
	check "link/$encap: the port logged the outage" contains "$c" 'link down: sends fail'
	check "link/$encap: the port logged the return" contains "$c" 'link up.*neighbours forgotten'
	check "link/$encap: server port got every mbuf back" contains "$s" 'all [0-9]+ mbufs returned'
	check "link/$encap: client port got every mbuf back" contains "$c" 'all [0-9]+ mbufs returned'
	grep -hE '^(not ok|# )' "$log.server" "$log.client"
	wire_teardown
}

[ -n "${LINK_ONLY:-}" ] || run memif udp
[ -n "${LINK_ONLY:-}" ] || run memif eth
# the issue asks for both wires: a missing veth wire fails, it does not skip
if wire_available veth; then
	[ -n "${LINK_ONLY:-}" ] || run veth udp
	[ -n "${LINK_ONLY:-}" ] || run veth eth
	run_link udp
	run_link eth
else
	check "veth wire (needs root and ip netns)" false
fi

finish
