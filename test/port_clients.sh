#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# A port keeps running from its first use until the provider unloads: one
# client process opens an RDM endpoint (fabric, domain, endpoint), runs a
# checked ping-pong with the server (test/rdm_peer.c -m clients: 1 B to
# 64 KiB, every echo compared) and closes it all, ten times in a row on one
# port. The port must not stop with its last endpoint: over memif that
# flapped the link under the server, whose PMD crashed in its receive burst.
# Both processes must exit 0 and the server must serve every client.
#
# usage: port_clients.sh <rdm_peer> <directory of libdpdk-fi.so> memif|veth

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_one "$1" "$2" "$3"
clients=10
port=$(wire_free_port $((46000 + RANDOM % 1000)))
log=$tmp/clients

wire_pair 120 "$log.s" "$log.c" \
	::: env FI_DPDK_EAL_ARGS="$(wire_eal server)" \
	"$peer" server -P "$port" -m clients -k "$clients" -n 40 \
	::: env FI_DPDK_EAL_ARGS="$(wire_eal client)" \
	"$peer" client "$host" -P "$port" -m clients -k "$clients" -n 40 >"$log.why"
rc=$?
check "$wire: $clients clients one after another on one port, both processes exit 0" \
	test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's|^|  |' "$log.why" "$log.s" "$log.c"
check "$wire: the server served all $clients clients" \
	grep -q "^# server: $clients of $clients clients served" "$log.s"
# the ports' NOTICE log says each time a link comes up
ups=$(cat "$log.s" "$log.c" | grep -c ': link up,')
check "$wire: each side's link came up once and never went down ($ups link-ups in all)" \
	test "$ups" -eq 2
finish
