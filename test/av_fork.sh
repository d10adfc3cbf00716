#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# fi_av(3) map_addr end to end (test/av_fork.c): a parent creates a named AV
# and inserts its peer, the server on the wire; its forked child opens the AV
# by name with FI_READ, sends to ((fi_addr_t *)map_addr)[0] over its own port
# on the wire, and the server echoes the message back to it. A grandchild
# forked after the child's DPDK started must be refused, and its exit must
# leave the child's port working.
#
# usage: av_fork.sh <av_fork> <directory of libdpdk-fi.so> memif|veth

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_one "$1" "$2" "$3"
av=dfi-fork-$$
prefix=dfi-$WIRE_ID-parent
wire_on_exit "rm -f /dev/shm/dfi-av.$av; rm -rf /var/run/dpdk/$prefix"

wire_run server "$tmp/server" env FI_DPDK_EAL_ARGS="$(wire_eal server)" "$peer" serve
spid=$WIRE_PID
check "$wire: the server is up" wire_wait_line "$tmp/server" "name " 30
name=$(sed -n 's/^name //p' "$tmp/server")

wire_exec client env FI_DPDK_EAL_ARGS="$(wire_eal client)" \
	timeout 60 "$peer" client "$av" "${name:-none}" "$prefix" >"$tmp/client" 2>&1
rc=$?
check "$wire: the forked child reached the parent's peer through map_addr, both exit 0" \
	test "$rc" -eq 0
wire_wait "$spid" 30
srv=$?
check "$wire: the server received the child's message and echoed it" test "$srv" -eq 0
[ "$rc" -eq 0 ] && [ "$srv" -eq 0 ] || sed 's|^|  |' "$tmp/server" "$tmp/client"
check "$wire: the late fork was refused, with a reason" \
	grep -q "was forked from .* after DPDK started there" "$tmp/client"
check "$wire: the AV's region is gone with its last user" test ! -e "/dev/shm/dfi-av.$av"
finish
