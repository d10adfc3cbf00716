#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Issue 16: installed where libfabric looks for providers, the provider costs
# nothing to the programs that never ask for dpdk. The build is installed
# under a scratch DESTDIR, in the layout of a real install, and libfabric
# loads providers from its provider directory (FI_PROVIDER_PATH). Then
# Debian's fi_info (no -p, -p tcp, -l), fi_pingpong -p tcp between two
# processes, and Open MPI ranks over tcp start no EAL: the probe preloaded
# into every process (eal_probe.c) finds at exit no EAL started, no runtime
# directory and no DPDK thread; nothing appears under /var/run/dpdk, a tmpfs
# of this test's own (private mount namespace: other tests' entries can
# neither hide nor fake one); nothing of DPDK's is printed. The ways of
# asking still start DPDK: -p dpdk with FI_DPDK_EAL_ARGS lists the ports,
# and FI_PROVIDER=dpdk starts the EAL with no other setting.
#
# usage: eal_on_demand.sh <build directory> <probe library> [mpi_pingpong]

set -u
if [ -z "${DFI_PRIVATE_MOUNTS:-}" ]; then
	if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
		echo "needs root and unshare(1): /var/run/dpdk is watched in a mount namespace"
		exit 77
	fi
	exec unshare -m --propagation private env DFI_PRIVATE_MOUNTS=1 bash "$0" "$@"
fi
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

build=$1
probe=$(realpath "$2")
mpi_prog=${3:-}
for p in fi_info fi_pingpong; do
	command -v $p >/dev/null || { echo "$p is missing (libfabric-bin)"; exit 1; }
done
wire_mktemp || exit 1
tmp=$WIRE_TMP

# DPDK makes its runtime directories under /var/run/dpdk when run as root
rundir=/var/run/dpdk
if [ ! -d "$rundir" ]; then
	mkdir -p "$rundir" || exit 1
	wire_on_exit "rmdir '$rundir' 2>/dev/null"
fi
mount -t tmpfs -o size=8m,mode=0755 dfi-eal-on-demand "$rundir" ||
	{ echo "cannot mount a tmpfs on $rundir"; exit 1; }
wire_on_exit "umount '$rundir'"

provdir=$(destdir_install "$build" "$tmp/dest")
check "meson install to a DESTDIR" test $? -eq 0
export FI_PROVIDER_PATH=$tmp/dest$provdir
check "the provider in the scratch provider directory" test -f "$FI_PROVIDER_PATH/libdpdk-fi.so"
unset FI_DPDK_EAL_ARGS FI_PROVIDER FI_LOG_LEVEL

# probed NAME CMD...: CMD with the probe; output in $tmp/NAME.out, NAME.err
probed() {
	local name=$1
	shift
	mkdir -p "$tmp/$name.probe"
	timeout 60 env DFI_EAL_PROBE_DIR="$tmp/$name.probe" LD_PRELOAD="$probe" "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err"
}

dpdk_threads=' (eal-|rte|lcore|telemetry|dfi-)'
# no_dpdk NAME PROCESSES: what run NAME left of DPDK: nothing
no_dpdk() {
	local reports
	reports=$(cat "$tmp/$1.probe"/* 2>/dev/null)
	check "$1: $2 process(es) probed" count_is "$reports" '^comm ' "$2"
	check "$1: no EAL started" lacks "$reports" '^eal (started|unknown)'
	check "$1: no EAL runtime directory" lacks "$reports" '^runtime_dir /'
	check "$1: no rte or EAL thread" lacks "$reports" "^threads .*$dpdk_threads"
	check "$1: nothing under $rundir" test -z "$(ls -A "$rundir")"
	check "$1: nothing from DPDK on stderr or stdout" \
		lacks "$(cat "$tmp/$1".*)" 'EAL|DPDK|rte_|net_|fi-dpdk'
	rm -rf "${rundir:?}"/*
}

probed fi_info fi_info
check "fi_info: exits 0" test $? -eq 0
check "fi_info: other providers listed" contains "$(cat "$tmp/fi_info.out")" '^provider: tcp'
check "fi_info: no dpdk entry" lacks "$(cat "$tmp/fi_info.out")" '^provider: dpdk'
no_dpdk fi_info 1

probed fi_info_tcp fi_info -p tcp
check "fi_info -p tcp: exits 0" test $? -eq 0
no_dpdk fi_info_tcp 1

probed fi_info_l fi_info -l
check "fi_info -l: lists dpdk" contains "$(cat "$tmp/fi_info_l.out")" '^dpdk:$'
no_dpdk fi_info_l 1

# a negated FI_PROVIDER only leaves providers out: it asks for none
FI_PROVIDER='^tcp' probed fi_info_not_tcp fi_info
check "FI_PROVIDER=^tcp fi_info: no dpdk entry" \
	lacks "$(cat "$tmp/fi_info_not_tcp.out")" '^provider: dpdk'
no_dpdk fi_info_not_tcp 1

port=$(wire_free_port $((47900 + RANDOM % 100)))
mkdir -p "$tmp/fi_pingpong.probe"
pp=(env DFI_EAL_PROBE_DIR="$tmp/fi_pingpong.probe" LD_PRELOAD="$probe"
    fi_pingpong -p tcp -e msg -S 64 -I 100)
WIRE_LISTEN_PORT=$port wire_pair 60 "$tmp/fi_pingpong.server" "$tmp/fi_pingpong.client" \
	::: "${pp[@]}" -B "$port" ::: "${pp[@]}" -P "$port" 127.0.0.1
check "fi_pingpong -p tcp: both sides exit 0" test $? -eq 0
check "fi_pingpong -p tcp: the client's figures" \
	contains "$(cat "$tmp/fi_pingpong.client")" '^64 +100 +=100 '
no_dpdk fi_pingpong 2

# Open MPI's OFI MTL lists every provider and keeps tcp's entries itself
if [ -n "$mpi_prog" ]; then
	mkdir -p "$tmp/mpi.probe"
	timeout -k 5 60 mpirun --allow-run-as-root --oversubscribe -np 2 \
		--mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include tcp \
		-x FI_PROVIDER_PATH -x LD_PRELOAD="$probe" -x DFI_EAL_PROBE_DIR="$tmp/mpi.probe" \
		"$mpi_prog" >"$tmp/mpi.out" 2>&1
	check "mpirun over tcp: every echo checked" contains "$(cat "$tmp/mpi.out")" '^mpi_pingpong: ok'
	reports=$(grep -l '^comm mpi_pingpong' "$tmp/mpi.probe"/* 2>/dev/null)
	check "mpirun over tcp: both ranks probed" test "$(wc -w <<<"$reports")" -eq 2
	no_dpdk mpi "$(ls "$tmp/mpi.probe" | wc -l)"
fi

# The controls: asking for dpdk starts DPDK, and the probe sees it.
eal="--no-huge -m 256 --no-pci --no-shconf --no-telemetry --log-level=warning"
FI_DPDK_EAL_ARGS="$eal --vdev=net_null0 --vdev=net_null1" probed control fi_info -p dpdk
check "-p dpdk with FI_DPDK_EAL_ARGS: the two ports" \
	count_is "$(cat "$tmp/control.out")" '^    domain: net_null[01]$' 6
reports=$(cat "$tmp/control.probe"/*)
check "-p dpdk: the probe sees the EAL" contains "$reports" '^eal started$'
check "-p dpdk: and its runtime directory" contains "$reports" "^runtime_dir $rundir/"
check "-p dpdk: and its threads" contains "$reports" "^threads .*$dpdk_threads"
check "-p dpdk: the directory is seen" test -n "$(ls -A "$rundir")"
rm -rf "${rundir:?}"/*

FI_PROVIDER=dpdk probed fi_provider fi_info
check "FI_PROVIDER=dpdk: the EAL starts with no other setting" \
	contains "$(cat "$tmp/fi_provider.probe"/*)" '^eal started$'
check "FI_PROVIDER=dpdk: only dpdk was asked" \
	lacks "$(cat "$tmp/fi_provider.out")" '^provider: (tcp|udp|shm)'
rm -rf "${rundir:?}"/*
finish
