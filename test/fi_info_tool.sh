#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# app/fi_info_tool: an EAL-style command line, fi_info's listing, and each
# port's DPDK facts.
#
# usage: fi_info_tool.sh <path of fi_info_tool>

set -u
. "$(dirname "$0")/lib.sh"

tool=$1
unset FI_PROVIDER_PATH FI_DPDK_EAL_ARGS
eal="--no-huge -m 256 --no-pci --no-shconf --no-telemetry --log-level=warning"
eal="$eal --vdev=net_null0 --vdev=net_ring0"

out=$("$tool" $eal -- 2>/dev/null)
check "exits 0" test $? -eq 0
check "both ports, each endpoint type (RDM, DGRAM, MSG)" count_is "$out" '^provider: dpdk$' 6
check "domains named after the ports" count_is "$out" '^    domain: net_(null|ring)0$' 6
check "driver shown" count_is "$out" '^        driver: net_null$' 3
check "ring driver shown" count_is "$out" '^        driver: net_ring$' 3
check "queues shown" count_is "$out" '^        queues: rx [0-9]+/[0-9]+, tx [0-9]+/[0-9]+' 6
check "NUMA socket shown" count_is "$out" '^        numa_socket: -?[0-9]+$' 6
check "link shown" count_is "$out" '^        link: (up|down)' 6

out=$("$tool" $eal -- -t FI_EP_DGRAM 2>/dev/null)
check "-t filters" count_is "$out" '^    type: FI_EP_DGRAM$' 2
check "-t keeps only DGRAM" lacks "$out" 'FI_EP_RDM'
out=$("$tool" $eal -- -d net_ring0 -v 2>/dev/null)
check "-d filters, -v prints fi_info" count_is "$out" '^fi_info:$' 3
check "-v shows the nic" contains "$out" '^            driver: net_ring$'
check "-v keeps DPDK facts" contains "$out" '^        driver: net_ring$'
out=$("$tool" $eal -- -c 'FI_TAGGED|FI_DIRECTED_RECV' 2>/dev/null)
check "-c caps" count_is "$out" '^provider: dpdk$' 2
out=$("$tool" $eal -- -s 169.254.1.1 -P 7000 2>&1)
check "-s with an address no port has: no data" contains "$out" 'No data available'
out=$("$tool" $eal -- -n 10.9.8.7 -P 7471 -v 2>/dev/null)
check "-n/-P: a destination for every entry" count_is "$out" \
	'^    dest_addr: fi_sockaddr_in://10\.9\.8\.7:7471$' 6
check "-n/-P: the source keeps the port's address" count_is "$out" \
	'^    src_addr: fi_sockaddr_in://169\.254\.[0-9]+\.[0-9]+:0$' 6
out=$("$tool" $eal -- -P 7471 -s 0.0.0.0 -v 2>/dev/null)
check "-s any with -P: every port bound to the service" count_is "$out" \
	'^    src_addr: fi_sockaddr_in://169\.254\.[0-9]+\.[0-9]+:7471$' 6
out=$("$tool" $eal -- -n no-such-host.invalid -P 7471 2>&1)
check "-n unresolvable: no data" contains "$out" 'No data available'
out=$("$tool" $eal -- -c 'FI_READ' 2>&1)
check "-c a modifier without its primary: no data" contains "$out" 'No data available'
out=$("$tool" $eal -- -c 'FI_RMA|FI_READ' 2>/dev/null)
check "-c with its primary: RDM and MSG only" count_is "$out" '^provider: dpdk$' 4
out=$("$tool" $eal -- -e 2>/dev/null)
check "-e lists the parameters" contains "$out" '^# FI_DPDK_EAL_ARGS: String'
out=$("$tool" $eal -- -l 2>/dev/null)
check "-l lists the provider" contains "$out" '^dpdk:$'
check "-l lists only it" count_is "$out" ':$' 1

# the exit status 1 looked for below is the tool's own, not a crash's: in a
# program that loaded libfabric, a crash ends it by its signal (lib.sh)
(python3 -c 'import ctypes, os, signal
info = ctypes.c_void_p()
ctypes.CDLL("libfabric.so.1").fi_getinfo(ctypes.c_uint32(1 << 16 | 17), None, None,
                                         ctypes.c_uint64(0), None, ctypes.byref(info))
os.kill(os.getpid(), signal.SIGSEGV)') 2>/dev/null
check "a crash after fi_getinfo() ends by SIGSEGV, not by exit 1" test $? -eq $((128 + 11))
"$tool" $eal -- -t FI_EP_BOGUS >/dev/null 2>&1
check "unknown endpoint type: usage error" test $? -eq 1
"$tool" --no-huge --bogus-eal-option -- >/dev/null 2>&1
check "bad EAL option: error exit" test $? -eq 1

finish
