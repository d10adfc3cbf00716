#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Open MPI over the dpdk provider, as a user runs it: mpirun starts two ranks
# at once (OFI MTL, mtl_ofi_provider_include dpdk), rank 0 on the server end
# of a memif pair and rank 1 on the client end, each with its own
# FI_DPDK_EAL_ARGS; test/mpi_pingpong.c checks every echo from 8 B to 1 MiB.
# Six launches in a row must all pass: ranks that start together must find
# each other (before the port revival, 2 launches in 3 hung in MPI_Recv: six
# pass by chance once in 729).
#
# usage: mpi_memif.sh <mpi_pingpong> <directory of libdpdk-fi.so> [launches]

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

prog=$1
export FI_PROVIDER_PATH=$2
launches=${3:-6}
wire_setup memif
wire_mktemp
tmp=$WIRE_TMP

for ((i = 1; i <= launches; i++)); do
	t0=$(date +%s%N)
	timeout -k 5 60 mpirun --allow-run-as-root --oversubscribe \
		--mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include dpdk \
		-np 1 -x FI_PROVIDER_PATH -x FI_DPDK_EAL_ARGS="$(wire_eal server)" "$prog" : \
		-np 1 -x FI_PROVIDER_PATH -x FI_DPDK_EAL_ARGS="$(wire_eal client)" "$prog" \
		>"$tmp/out.$i" 2>&1
	rc=$?
	check "launch $i: np 2 over memif, every echo checked ($(( ($(date +%s%N) - t0) / 1000000 )) ms)" \
		grep -q '^mpi_pingpong: ok' "$tmp/out.$i"
	if [ "$rc" -ne 0 ] || ! grep -q '^mpi_pingpong: ok' "$tmp/out.$i"; then
		echo "  exit $rc; its last lines:"
		tail -n 15 "$tmp/out.$i" | sed 's|^|    |'
	fi
	# the ranks' EAL directories (--no-shconf still creates them)
	wire_teardown
done
finish
