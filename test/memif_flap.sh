#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# A memif wire whose other end dies again and again under a stream: one
# process (the survivor) sends and receives without pause while its peer is
# killed (SIGKILL) and started again, DFI_FLAP_ROUNDS times (6) with each
# memif role surviving, FI_THREAD_SAFE on one, FI_THREAD_DOMAIN (lock-free)
# on the other. In DPDK 22.11 the survivor's EAL interrupt thread unmaps the
# rings of a dead peer (memif_disconnect()) whenever it notices; a burst under
# way on them then faults. The provider keeps that thread off the wire
# (drivers/net_pmd/intr_gate.c). The survivor must live through every death,
# see its sends refused with -FI_ENETDOWN, have echoes again from each next
# peer, and get every mbuf back at the end (test/dgram_peer.c, -F).
#
# usage: memif_flap.sh <dgram_peer> <directory of libdpdk-fi.so>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_init "$1" "$2"
# four deaths a side (DFI_FLAP_ROUNDS): each is a process to start under ASan
rounds=${DFI_FLAP_ROUNDS:-4}

# flap ROLE [-D]: the survivor holds the memif ROLE (server or client) end
flap() {
	local role=$1 other=server port log=$tmp/flap-$1 s c r t0 ms out
	shift
	[ "$role" = server ] && other=client
	wire_setup memif || { check "$role survives: memif wire" false; return; }
	port=$(wire_free_port $((48200 + RANDOM % 100)))
	t0=$(date +%s%N)
	# the survivor is the control channel's client: it reconnects to each peer
	wire_run "$role" "$log.survivor" env \
		FI_DPDK_EAL_ARGS="$(wire_eal "$role") --log-level=info --log-level=dfi.*:info" \
		"$peer" client 127.0.0.1 -P "$port" "$@" -F "$rounds"
	s=$WIRE_PID
	for ((r = 1; r <= rounds + 1; r++)); do
		wire_run "$other" "$log.peer$r" env FI_DPDK_EAL_ARGS="$(wire_eal "$other")" \
			"$peer" server -P "$port" -F "$rounds"
		c=$WIRE_PID
		[ "$r" -gt "$rounds" ] && break
		if ! wire_wait_line "$log.survivor" "# flap $r: up" 30; then
			check "$role survives: round $r streams" false
			break
		fi
		# the kill lands anywhere in the stream's next 200 ms
		sleep "0.$(printf %03d $((RANDOM % 200)))"
		kill -9 "$c"
		wait "$c" 2>/dev/null
		wire_wait_line "$log.survivor" "# flap $r: down" 30 || break
	done
	wire_wait "$s" 60
	check "$role survives: the survivor lives through $rounds deaths and passes" test $? -eq 0
	wire_wait "$c" 20
	check "$role survives: the last peer passes" test $? -eq 0
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	out=$(cat "$log.survivor")
	check "$role survives: every mbuf came back" contains "$out" 'all [0-9]+ mbufs returned'
	check "$role survives: no check failed" lacks "$out" '^not ok'
	check "$role survives: the interrupt thread was gated" contains "$out" \
		"runs memif's control in windows"
	echo "# $role survives: $rounds deaths in $ms ms; down after (ms):" \
		"$(grep -oE '^# flap [0-9]+: down after [0-9]+' "$log.survivor" |
		   grep -oE '[0-9]+$' | tr '\n' ' ')"
	grep -hE '^not ok' "$log.survivor" "$log.peer"* | sed 's|^|  |'
	grep -vE '^(ok|#|libfabric)' "$log.survivor" | tail -n 5 | sed 's|^|#   survivor: |'
	[ -n "${DFI_KEEP:-}" ] && cp "$log".* "$DFI_KEEP"/
	wire_teardown
}

if ! wire_available memif; then
	check "memif wire available" false
	finish
fi
flap client
flap server -D
finish
