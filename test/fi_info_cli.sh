#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Debian's fi_info (libfabric-bin) loading the provider from the build tree,
# as any unmodified libfabric application does.
#
# usage: fi_info_cli.sh <directory of libdpdk-fi.so>

set -u
. "$(dirname "$0")/lib.sh"

export FI_PROVIDER_PATH=$1
command -v fi_info >/dev/null || { echo "fi_info not installed (libfabric-bin)"; exit 1; }

two_nulls="--no-huge -m 256 --no-pci --vdev=net_null0 --vdev=net_null1"
quiet="--no-shconf --no-telemetry --log-level=warning"

# The command of the README, as given. Without --no-shconf DPDK keeps its
# runtime files under /var/run/dpdk/rte; remove them if this test made them
# (the directory itself other tests' --no-shconf runs make too).
rte_run=/var/run/dpdk/rte
[ -e "$rte_run/config" ] && had_rte=1 || had_rte=0
out=$(FI_DPDK_EAL_ARGS="$two_nulls" fi_info -p dpdk 2>/dev/null)
check "fi_info -p dpdk exits 0" test $? -eq 0
[ "$had_rte" = 0 ] && rm -f "$rte_run/config" "$rte_run/fbarray_memzone" \
	"$rte_run/fbarray_nohugemem" "$rte_run/mp_socket"
check "two domains" count_is "$out" '^    domain: net_null[01]$' 6
check "each domain once per endpoint type" count_is "$out" '^    domain: net_null0$' 3
check "RDM listed first" first_match_is "$out" 'type:' "    type: FI_EP_RDM"
check "DGRAM offered" contains "$out" 'type: FI_EP_DGRAM'
check "only dpdk entries" count_is "$out" '^provider: dpdk$' 6

export FI_DPDK_EAL_ARGS="$two_nulls $quiet"
out=$(fi_info -p dpdk -v 2>/dev/null)
check "-v: manual data progress everywhere" count_is "$out" 'data_progress: FI_PROGRESS_MANUAL' 6
check "-v: manual control progress everywhere" count_is "$out" 'control_progress: FI_PROGRESS_MANUAL' 6
check "-v: a nic per entry" count_is "$out" '^    nic:$' 6
check "-v: nic driver" count_is "$out" '^            driver: net_null$' 6
check "-v: nic link" count_is "$out" '^            state: FI_LINK_(UP|DOWN)$' 6
check "-v: nic MAC" contains "$out" '^            address: ([0-9A-F]{2}:){5}[0-9A-F]{2}$'
check "-v: Ethernet" count_is "$out" '^            network_type: Ethernet$' 6
check "-v: vdev bus" count_is "$out" 'bus_type: FI_BUS_UNKNOWN' 6
check "-v: src_addr printed" count_is "$out" 'src_addr: fi_sockaddr_in://169\.254\.[0-9]+\.[0-9]+:0' 6

out=$(fi_info -p dpdk -t FI_EP_RDM 2>/dev/null)
check "-t FI_EP_RDM: native entries" count_is "$out" '^provider: dpdk$' 2
check "-t FI_EP_RDM: no ofi_rxd" lacks "$out" 'ofi_rxd'
check "-t FI_EP_RDM: only RDM" lacks "$out" 'FI_EP_DGRAM'

out=$(fi_info 2>/dev/null)
check "fi_info: dpdk present" contains "$out" '^provider: dpdk$'
check "fi_info: no dpdk;ofi_rxd" lacks "$out" 'dpdk;ofi_rx[dm]'
out=$(FI_PROVIDER=dpdk fi_info 2>/dev/null)
check "FI_PROVIDER=dpdk: no ofi_rxd" lacks "$out" 'ofi_rxd'
check "FI_PROVIDER=dpdk: our entries" count_is "$out" '^provider: dpdk$' 6

out=$(fi_info -p 'dpdk;ofi_rxd' 2>/dev/null)
check "named explicitly, ofi_rxd layers" count_is "$out" '^provider: dpdk;ofi_rxd$' 2

out=$(fi_info -l 2>/dev/null)
check "-l lists dpdk" contains "$out" '^dpdk:$'
out=$(fi_info -e 2>/dev/null | tr -d '\0')
check "-e lists FI_DPDK_EAL_ARGS" contains "$out" 'FI_DPDK_EAL_ARGS'
check "-e lists FI_DPDK_IPV4" contains "$out" 'FI_DPDK_IPV4'

out=$(fi_info -p dpdk -d net_null1 2>/dev/null)
check "-d filters the domain" count_is "$out" '^    domain: net_null1$' 3
check "-d keeps only it" lacks "$out" 'net_null0'
out=$(fi_info -p dpdk -f 192.0.2.0/24 2>&1)
check "-f unknown fabric: no data" contains "$out" 'fi_getinfo: -61'

export FI_DPDK_IPV4="net_null0=10.0.0.1/24,net_null1=10.0.1.1/24"
out=$(fi_info -p dpdk -f 10.0.1.0/24 2>/dev/null)
check "FI_DPDK_IPV4 names the fabric" count_is "$out" '^    fabric: 10\.0\.1\.0/24$' 3
out=$(fi_info -p dpdk -n 10.0.1.9 -P 7471 -v 2>/dev/null)
check "-n/-P: dest_addr" contains "$out" 'dest_addr: fi_sockaddr_in://10\.0\.1\.9:7471'
check "-n/-P: on-link port first" first_match_is "$out" 'name: net_null' "        name: net_null1"
out=$(fi_info -p dpdk -s 10.0.0.1 -P 7471 -v 2>/dev/null)
check "-s: source port bound" contains "$out" 'src_addr: fi_sockaddr_in://10\.0\.0\.1:7471'
check "-s: only that port" lacks "$out" 'name: net_null1'
out=$(fi_info -p dpdk -a FI_ADDR_STR -v 2>/dev/null)
check "-a FI_ADDR_STR" contains "$out" 'addr_format: FI_ADDR_STR'
out=$(fi_info -p dpdk -n no-such-host.invalid 2>&1)
check "unresolvable node: no data" contains "$out" 'fi_getinfo: -61'
unset FI_DPDK_IPV4

# A bad FI_DPDK_EAL_ARGS: a warning, no entries, no crash.
out=$(FI_LOG_LEVEL=warn FI_DPDK_EAL_ARGS="--no-huge --bogus-option" fi_info -p dpdk 2>&1)
rc=$?
check "bad EAL args: fi_info exits normally" test "$rc" -lt 128
check "bad EAL args: a clear warning" contains "$out" 'rte_eal_init.*failed'
check "bad EAL args: no entries" lacks "$out" '^provider: dpdk'

# Without FI_LOG_LEVEL: DPDK's usage text stays off standard output, and the
# provider's line reaches standard error through DPDK's log.
errf=$(mktemp)
trap 'rm -f "$errf"' EXIT
out=$(FI_DPDK_EAL_ARGS="--no-huge --bogus-option" fi_info -p dpdk 2>"$errf")
err=$(cat "$errf")
check "bad EAL args: nothing on stdout" test -z "$out"
check "bad EAL args: DPDK's usage on stderr" contains "$err" '^Usage: '
check "bad EAL args: the provider's line without FI_LOG_LEVEL" \
	contains "$err" '^fi-dpdk: rte_eal_init\(.*\) failed: .*no dpdk domain$'
check "bad EAL args: said once" count_is "$err" '^fi-dpdk: .*no dpdk domain$' 1

# Arguments that make DPDK print and exit(): refused before DPDK sees them,
# so fi_info ends on its own (bounded here) with no entry.
for args in "--help" "-vh" "--hel" "--log-level=help" "--log-level help"; do
	out=$(FI_DPDK_EAL_ARGS="--no-huge $args" timeout 30 fi_info -p dpdk 2>"$errf")
	rc=$?
	err=$(cat "$errf")
	check "'$args': fi_info ends, no hang" test "$rc" -ne 124 -a "$rc" -lt 128
	check "'$args': no entries, nothing on stdout" test -z "$out"
	check "'$args': refused on stderr" contains "$err" "^fi-dpdk: .*refused: with '"
done
# The install puts the provider where Debian's libfabric looks for providers,
# and fi_info loads it from there.
build=$1
dest=$(mktemp -d)
trap 'rm -f "$errf"; rm -rf "$dest"' EXIT
provdir=$(destdir_install "$build" "$dest")
check "meson install to a DESTDIR" test $? -eq 0
if [ -z "$(build_option "$build" provider_dir)" ]; then
	check "default: libfabric's own provider directory" \
		contains "$(strings "$(pkg-config --variable=libdir libfabric)/libfabric.so.1")" \
		"^$provdir\$"
fi
check "libdpdk-fi.so installed in $provdir" test -f "$dest$provdir/libdpdk-fi.so"
out=$(FI_PROVIDER_PATH=$dest$provdir fi_info -p dpdk 2>/dev/null)
check "fi_info finds the installed provider" count_is "$out" '^provider: dpdk$' 6

out=$(FI_LOG_LEVEL=warn FI_DPDK_IPV4="net_null0=300.1.1.1" fi_info -p dpdk 2>&1)
check "bad FI_DPDK_IPV4: no entries" lacks "$out" '^provider: dpdk'
check "bad FI_DPDK_IPV4: a clear message" contains "$out" "bad address '300.1.1.1'"

finish
