#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# A port whose PMD sits on a kernel interface (net_af_packet on one end of a
# veth pair, in a network namespace of its own) takes that interface's IPv4
# address, and its fabric is the interface's network.
#
# usage: port_kernel_ip.sh <directory of libdpdk-fi.so>

set -u
. "$(dirname "$0")/lib.sh"

export FI_PROVIDER_PATH=$1
ns=dfi-kip-$$
cleanup() {
	ip netns del "$ns" 2>/dev/null
}
trap cleanup EXIT

if [ "$(id -u)" -ne 0 ] || ! ip netns add "$ns" 2>/dev/null; then
	echo "needs root and ip netns"
	exit 77
fi
ip -n "$ns" link add kip0 type veth peer name kip1 &&
	ip -n "$ns" addr add 10.99.7.1/24 dev kip0 &&
	ip -n "$ns" link set kip0 up && ip -n "$ns" link set kip1 up || exit 1

eal="--no-huge -m 256 --no-pci --no-shconf --no-telemetry --log-level=warning"
eal="$eal --vdev=net_af_packet0,iface=kip0 --vdev=net_null0"

out=$(ip netns exec "$ns" env FI_DPDK_EAL_ARGS="$eal" fi_info -p dpdk -v 2>/dev/null)
check "af_packet port listed" contains "$out" 'name: net_af_packet0'
check "it has the interface's address" \
	contains "$out" 'src_addr: fi_sockaddr_in://10\.99\.7\.1:0'
check "its fabric is the interface's network" contains "$out" 'name: 10\.99\.7\.0/24'
check "a port without interface stays link-local" \
	contains "$out" 'src_addr: fi_sockaddr_in://169\.254\.'
# FI_DPDK_IPV4 does not override the kernel's address (a warning says so)
out=$(ip netns exec "$ns" env FI_DPDK_EAL_ARGS="$eal" \
	FI_DPDK_IPV4="net_af_packet0=10.5.5.5/24,net_null0=10.6.6.6/24" \
	fi_info -p dpdk -v 2>&1)
check "kernel address wins over FI_DPDK_IPV4" contains "$out" 'fi_sockaddr_in://10\.99\.7\.1:0'
check "the override is reported" contains "$out" 'FI_DPDK_IPV4 ignored'
check "FI_DPDK_IPV4 applies to the other port" contains "$out" 'fi_sockaddr_in://10\.6\.6\.6:0'
# an interface without an address falls back to the parameter
out=$(ip netns exec "$ns" env FI_DPDK_EAL_ARGS="${eal/kip0/kip1}" \
	FI_DPDK_IPV4="net_af_packet0=10.5.5.5/24" fi_info -p dpdk -v 2>/dev/null)
check "an interface without address takes FI_DPDK_IPV4" \
	contains "$out" 'fi_sockaddr_in://10\.5\.5\.5:0'

finish
