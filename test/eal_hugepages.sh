#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# The provider's own EAL arguments take hugepages when some are free: test_eal's
# default case, run with 2 MB pages reserved for it (and given back after),
# must find the EAL started on hugepages, not on the --no-huge fallback that
# the unit run takes on a machine without them.
#
# usage: eal_hugepages.sh <test_eal>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

[ "$(id -u)" -eq 0 ] || { echo "needs root to reserve hugepages"; exit 77; }
wire_hugepages 64 || exit 1
out=$(FI_LOG_LEVEL=warn DFI_TEST_EXPECT_HUGEPAGES=1 timeout 60 "$1" default 2>&1)
rc=$?
echo "$out"
check "test_eal default with free hugepages passes" test "$rc" -eq 0
check "its EAL took hugepages (no --no-huge fallback warning)" lacks "$out" "no free hugepages"
finish
