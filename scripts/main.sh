#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Installs the dependencies, builds, and runs the main job: Debian's fi_info
# lists two virtual DPDK ports as libfabric domains, then fi_dpdk_pingpong runs
# between two processes joined by memif: round trips of raw frames (the
# floor), FI_EP_DGRAM and FI_EP_RDM, then one-way RDM streams against the
# rate of raw frames, posted one at a time, then batched with FI_MORE and
# large ones in turns with raw frames inside one pair of processes; then
# Debian's fi_pingpong over dpdk against Debian's own providers shm, tcp and
# udp;ofi_rxd, and against itself on 2 MB hugepages, then against tcp at every
# size of fi_pingpong -S all, all measured in the same run; RDM streams over
# veth with interfaces of 1500 and of 9000 bytes; Open MPI's ping-pong; the
# benchmarks (meson test --suite bench); and a picture of it all
# (build/main/latency-bandwidth.svg).

set -eu
. "$(dirname "$0")/common.sh"

install_deps
build build
dpdk_rundir_undo_on_exit

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
out=$top/build/main
mkdir -p "$out"
echo "== pingpong between two processes over memif: raw frames, FI_EP_DGRAM, FI_EP_RDM, FI_EP_MSG"
"$top/scripts/pingpong.sh" -w memif -S 64,256,1024,1400,4096,8192 -I 100000 \
	-j "$out/pingpong.json" dgram rdm msg
echo
echo "== the same round trips with the floor inside each pair of processes: raw frames on a"
echo "   second memif pair and the endpoint take turns of 1000 round trips; each turn's"
echo "   ratio is to the raw turn just before it, and the turns are grouped by regime"
"$top/scripts/pingpong.sh" -w memif -f -S 64,1024 -I 40000 dgram rdm
echo
echo "== one-way streams over memif: raw frames, FI_EP_RDM messages, then RMA writes"
"$top/scripts/pingpong.sh" -w memif -o write -S 64,1024,8192,65536,1048576 \
	-j "$out/stream.json" rdm
echo
echo "== the same with RMA reads"
"$top/scripts/pingpong.sh" -w memif -o read -S 65536,1048576 rdm
echo
echo "== large messages one way with the floor inside the pair of processes: each size's"
echo "   stream in turns of raw frames (a second memif pair) and RDM messages; each turn's"
echo "   share is of the raw turn just before it, and the turns are grouped by regime"
"$top/scripts/pingpong.sh" -w memif -f -s -S 65536,1048576 rdm
echo
echo "== small messages injected 32 at a time (FI_MORE on all but every 32nd), bundled in"
echo "   frames: messages a second against raw frames a second, in turns inside one pair"
echo "   of processes (raw frames on a second memif pair), grouped by regime"
"$top/scripts/pingpong.sh" -w memif -f -b 32 -S 64,256 -I 6000000 rdm
echo
echo "== Debian's fi_pingpong: dpdk against shm, tcp and udp;ofi_rxd, and dpdk on 2 MB"
echo "   hugepages (reserved for the run where none are free) against its --no-huge runs"
"$top/scripts/peers.sh" -S 64,1k,4k,64k,1m -j "$out/peers.json" shm tcp "udp;ofi_rxd" \
	dpdk-hugepages
echo
echo "== Debian's fi_pingpong -S all (every size it knows, 0 B to 6 MiB): dpdk against tcp,"
echo "   each provider's sizes in one run, each tcp run paired with a dpdk run"
"$top/scripts/peers.sh" -S all -R 3 tcp
echo
echo "== the kernel's path: RDM over veth (af_packet) with 1500- and 9000-byte interfaces"
"$top/scripts/jumbo.sh" -S 8192,65536 || echo "(not run: exit $?)"
echo
if [ -x "$top/build/test/mpi_latency" ] && command -v mpirun >/dev/null; then
	echo "== Open MPI's ping-pong: dpdk against Debian's tcp provider and Open MPI's own tcp"
	"$top/scripts/mpi_peers.sh"
	echo
fi
echo "== the benchmarks (meson's bench suite: figures, never a verdict on speed): address"
echo "   vector and memory registration lookups, the copy and CRC, endpoints' message rates"
echo "   against raw frames, scalable endpoints, and what a lost frame costs"
meson test -C "$top/build" --suite bench --verbose --logbase bench
echo
python3 "$top/scripts/plot.py" "$out/latency-bandwidth.svg" --pingpong "$out/pingpong.json" \
	--stream "$out/stream.json" --peers "$out/peers.json"
echo "== the picture: $out/latency-bandwidth.svg (latency and bandwidth against size)"
