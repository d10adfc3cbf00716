#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Installs the dependencies, builds, and runs the main job: Debian's fi_info
# lists two virtual DPDK ports as libfabric domains, then fi_info_tool shows
# them with their DPDK facts.

set -eu
. "$(dirname "$0")/common.sh"

install_deps
build build

export FI_PROVIDER_PATH=$top/build
eal="--no-huge -m 256 --no-pci --no-shconf --no-telemetry --log-level=warning"
eal="$eal --vdev=net_null0 --vdev=net_null1"

echo "== fi_info -p dpdk (Debian's libfabric-bin, provider from $FI_PROVIDER_PATH)"
FI_DPDK_EAL_ARGS="$eal" fi_info -p dpdk
echo
echo "== progress and nic of each domain (fi_info -p dpdk -v)"
FI_DPDK_EAL_ARGS="$eal" fi_info -p dpdk -v |
	grep -E '^    fi_domain_attr:|^        name: net|_progress:|^    nic:|driver:|state:|speed:|address: [0-9A-F]'
echo
echo "== fi_info_tool $eal -- -t FI_EP_RDM"
"$top/build/app/fi_info_tool/fi_info_tool" $eal -- -t FI_EP_RDM
