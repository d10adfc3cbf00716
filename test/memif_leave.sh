#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# A memif peer that leaves as the program closes its own port: app/pingpong's
# raw floor (ports of its own, outside the provider) and a mode of the
# provider, with test/intr_slow.c preloaded into both processes. It slows
# the EAL interrupt thread where it sees a control channel end, and makes
# the program's stops start late, so that memif's handler is still in its
# disconnect when the port stops and closes: DPDK 22.11 then calls
# memif_disconnect() on the released device (SIGSEGV in the client, seen in
# CI), unless the program parks the thread first (app/common/intr_park.h).
#
# usage: memif_leave.sh <pingpong> <directory of libdpdk-fi.so> <intr_slow.so>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_pingpong_env "$1" "$2"
if ! wire_available memif; then
	echo "memif wire unavailable (needs root)"
	exit 77
fi
# the harness's exit trap removes it (a trap of this script's own replaced
# that one, which then left the hugepages it reserved for the test reserved)
wire_mktemp || exit 1
log=$WIRE_TMP/slowed
# a path from /: a relative one made the programs that pingpong.sh runs from
# another directory print that it "cannot be preloaded"
module=$(realpath "$3") || exit 1
out=$(LD_PRELOAD=$module DFI_INTR_SLOW_LOG=$log "$here/../scripts/pingpong.sh" -w memif -S 64 \
	-I 200 -R 2 -c dgram 2>&1)
rc=$?
echo "$out"
echo "# the processes' interrupt threads, slowed: $(tr '\n' ' ' <"$log")"
check "pingpong over memif with a peer leaving at each close exits 0" test "$rc" -eq 0
check "no process died of a signal" lacks "$out" "terminated with signal|Segmentation"
check "raw and dgram measured in both rounds" contains "$out" "^dgram +64 +200 "
# pingpong.sh runs raw and dgram in 2 rounds: 8 processes
check "all 8 processes ran under the module" count_is "$(cat "$log")" "^[0-9]+ slowed [0-9]+$" 8
check "the window was there: interrupt threads saw a peer leave, slowed" contains \
	"$(cat "$log")" "slowed [1-9]"
finish
