#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Debian's fi_pingpong (libfabric-bin), unmodified, with -p dpdk: server and
# client on the two ends of a wire, their control connection over TCP, every
# size with data integrity checks (-c). The provider starts the EAL from
# FI_DPDK_EAL_ARGS, as for any libfabric application, on the memory the
# harness gives the wire (DFI_WIRE_MEMORY), or on the one named: with
# "hugepages" the two processes take 2 MB hugepages (reserved for the test
# when none are free) with the memory arguments the provider's defaults
# choose then (--in-memory); with "no-huge", --no-huge memory. Their mbufs and
# rings then sit in memory, at IOVAs, of one kind or the other.
#
# usage: fi_pingpong.sh <directory of libdpdk-fi.so> <ep type> <wire>
#        [transmit mode [hugepages|no-huge]]

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

export FI_PROVIDER_PATH=$1
ep=$2
wire=$3
mode=${4:-msg}
memory=${5:-}
wire_mktemp || exit 1
tmp=$WIRE_TMP

command -v fi_pingpong >/dev/null || { echo "fi_pingpong is missing (libfabric-bin)"; exit 1; }
if ! wire_available "$wire"; then
	echo "$wire wire unavailable (needs root and ip netns)"
	exit 77
fi
[ -z "$memory" ] || wire_memory "$memory" || exit
wire_setup "$wire" || exit 1
host=127.0.0.1
[ "$wire" = veth ] && host=$WIRE_SERVER_IP
port=$(wire_free_port $((47800 + RANDOM % 100)))
# 20 round trips a size check every size's bytes: over veth, af_packet
# carries some 250,000 frames of 1500 bytes a second in this VM, and at 50 the
# sizes from 1 to 6 MiB took 15 of the test's 18 s; over memif the test takes
# 3.2 s at 20, 5.7 s at 50
iters=20
args=(-p dpdk -e "$ep" -m "$mode" -S all -I "$iters" -c)

# fi_pingpong's client does not retry its control connection
WIRE_LISTEN_PORT=$port wire_pair 120 "$tmp/server" "$tmp/client" \
	::: env FI_DPDK_EAL_ARGS="$(wire_eal server)" fi_pingpong "${args[@]}" -B "$port" \
	::: env FI_DPDK_EAL_ARGS="$(wire_eal client)" fi_pingpong "${args[@]}" -P "$port" "$host"
rc=$?
s=$(cat "$tmp/server")
c=$(cat "$tmp/client")
echo "# client:"
echo "$c"
echo "# server (exit status of the pair: $rc):"
echo "$s"
check "fi_pingpong -e $ep -m $mode over $wire${memory:+ ($memory)}: both sides exit 0" test "$rc" -eq 0
# every size sent and acknowledged: "<size> N =N ..." up to the largest
check "the client reports every size" contains "$c" "^1k +$iters +=$iters "
check "the server reports every size" contains "$s" "^1k +$iters +=$iters "
check "no size lost a message" lacks "$c$s" '^[0-9.]+[kmg]? +[0-9]+ +[-+]'
check "no data integrity error" lacks "$c$s" '[Ee]rror|corrupt'
finish
