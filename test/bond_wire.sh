#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# A net_bonding port as a domain, with traffic: the server's domain is an
# active-backup bond whose one member, named by its device arguments, is
# af_packet on the veth wire; the client's is af_packet. A bond's members
# join as it is first configured, and until then it offered nine queue pairs
# (the steering the member cannot do) and an all-zero MAC: af_packet, with
# one queue pair, refused them and fi_enable failed (-FI_EIO). The provider
# now has such a bond configured once as it lists it (drivers/net_pmd/bond.c).
# FI_EP_DGRAM and FI_EP_RDM round trips over it (RDM's 4 KiB in several
# packets; a datagram takes one frame), every reply checked. The
# bond has no kernel interface: FI_DPDK_IPV4 gives it an address of the wire's
# network.
#
# usage: bond_wire.sh <pingpong> <directory of libdpdk-fi.so>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_one "$1" "$2" veth
bond_ip=${WIRE_SERVER_IP%.*}.3
for mode in dgram rdm; do
	sizes="64 1400"
	[ "$mode" = rdm ] && sizes="64 4096"
	port=$(wire_free_port $((47900 + RANDOM % 100)))
	args=(-e "$mode" -S "${sizes/ /,}" -I 2000 -c -P "$port" -T 30)
	WIRE_LISTEN_PORT=$port wire_pair 60 "$tmp/$mode.server" "$tmp/$mode.client" \
		::: env FI_DPDK_IPV4="net_bonding0=$bond_ip/24" "$peer" $(wire_eal server) \
		--vdev=net_bonding0,mode=1,slave=net_af_packet0 -- "${args[@]}" -d net_bonding0 \
		::: "$peer" $(wire_eal client) -- "${args[@]}" "$host"
	# shellcheck disable=SC2086
	wire_pp_checks $? "$tmp/$mode.client" "the bond" "$mode" 2000 $sizes
done
finish
