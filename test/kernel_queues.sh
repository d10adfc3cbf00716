#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Ports whose receive queues the kernel fills, whatever the provider
# configures, as domains with traffic: a net_tap port, an active-backup bond
# of two taps (members named by its device arguments), an af_packet port of
# four queue pairs (qpairs=4), and a bond of that one; a bond of af_packet
# members of unequal qpairs is refused. The bonds of taps and of af_packet
# ports fail over when their primary's interface goes down, and back (DPDK
# 22.11's bonding hears of neither: bond.h). The client is
# af_packet on the kernel side of the server's (primary) tap, or on the other
# end of the veth; all in one network namespace of their own. DGRAM and RDM round trips, every reply
# checked.
#
# The kernel, not the PMD, picks the queue of each frame it hands a tap (tun's
# flow hash): a tap port of 1 + 3 queue pairs (steering, whose rte_flow rules
# this kernel refuses) lost the frames that landed on the queues no endpoint
# polls, and its round trips stalled on retries; a bond of taps was given
# 1 + 8, which DPDK 22.11's tap start hands to secondary processes in a
# message of eight descriptors without a bound: the server died of "stack
# smashing detected". A tap port, and a bond with a tap among its members,
# now have one queue pair (drivers/net_pmd/tap.h). An af_packet port opens
# its four sockets as it is probed, in one fanout group: with one queue
# configured, three frames in four went to sockets nobody read (DGRAM's
# round trips stalled on the benchmark's 200 ms retries, RDM's on resends);
# all four are configured and polled now (af_packet.h), and a bond of it is
# given four too, which it gives its member. The tap PMD signals the process
# as frames arrive, which the benchmark's control wait now survives.
#
# usage: kernel_queues.sh <pingpong> <directory of libdpdk-fi.so>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

wire_test_init "$1" "$2"
if ! wire_available veth; then
	echo "tap wire unavailable (needs root and ip netns)"
	exit 77
fi
# both sides in one namespace of their own: the taps' kernel interfaces
# appear there, and the control connection goes over its loopback
WIRE=veth
WIRE_NS_S="dfi-t-$WIRE_ID"
WIRE_NS_C=$WIRE_NS_S
if ! ip netns add "$WIRE_NS_S" || ! ip -n "$WIRE_NS_S" link set lo up; then
	check "a namespace for the taps" false
	finish
	exit
fi
tap0=dfit${WIRE_ID%%-*}a
tap1=dfit${WIRE_ID%%-*}b
veth0=dfiq${WIRE_ID%%-*}a
veth1=dfiq${WIRE_ID%%-*}b
veth2=dfiq${WIRE_ID%%-*}c
veth3=dfiq${WIRE_ID%%-*}d
net=10.78.$((RANDOM % 200 + 20))

eal() {
	echo "-l $1 $WIRE_EAL_COMMON --file-prefix dfi-$WIRE_ID-$2"
}

# run_pair NAME SERVER_VDEVS DOMAIN CLIENT_IFACE: DGRAM and RDM round trips
run_pair() {
	local name=$1 vdevs=$2 domain=$3 iface=$4 mode sizes port args
	for mode in dgram rdm; do
		sizes="64 1400"
		[ "$mode" = rdm ] && sizes="64 4096"
		port=$(wire_free_port $((47800 + RANDOM % 100)))
		args=(-e "$mode" -S "${sizes/ /,}" -I 1000 -c -P "$port" -T 30)
		# shellcheck disable=SC2046,SC2086
		WIRE_LISTEN_PORT=$port wire_pair 60 "$tmp/$name.$mode.server" \
			"$tmp/$name.$mode.client" \
			::: env FI_DPDK_IPV4="$domain=$net.3/24" "$peer" $(eal 0 server) $vdevs \
			-- "${args[@]}" -d "$domain" \
			::: env FI_DPDK_IPV4="net_af_packet0=$net.4/24" "$peer" $(eal 1 client) \
			--vdev=net_af_packet0,iface=$iface -- "${args[@]}" 127.0.0.1
		# shellcheck disable=SC2086
		wire_pp_checks $? "$tmp/$name.$mode.client" "$name" "$mode" 1000 $sizes
		check "$mode over $name: the server did not crash" lacks \
			"$(cat "$tmp/$name.$mode.server")" "stack smashing"
	done
}

# run_failover: RDM round trips between an active-backup bond of two taps and
# one of af_packet ports on their kernel sides; the primary tap's interface
# goes down in the middle of the run, comes back half a second later, and
# goes down again; 100,000 round trips over taps take 1.9 s or more (19 us the
# fastest seen), past the 1.5 s the three changes take
run_failover() {
	local iters=100000 port sp cp rc src i s c args
	port=$(wire_free_port $((47900 + RANDOM % 50)))
	args=(-e rdm -S 64 -I "$iters" -c -P "$port" -T 30)
	# shellcheck disable=SC2046
	wire_run server "$tmp/failover.server" env FI_DPDK_IPV4="net_bonding0=$net.3/24" \
		"$peer" $(eal 0 server) --vdev=net_tap0,iface="$tap0" \
		--vdev=net_tap1,iface="$tap1" \
		--vdev=net_bonding0,mode=1,slave=net_tap0,slave=net_tap1,primary=net_tap0 \
		-- "${args[@]}" -d net_bonding0
	sp=$WIRE_PID
	for ((i = 0; i < 200; i++)); do
		ip -n "$WIRE_NS_S" link show "$tap1" >/dev/null 2>&1 && break
		sleep 0.05
	done
	ip -n "$WIRE_NS_S" link set "$tap0" up
	ip -n "$WIRE_NS_S" link set "$tap1" up
	# shellcheck disable=SC2046
	wire_run client "$tmp/failover.client" env FI_DPDK_IPV4="net_bonding0=$net.4/24" \
		"$peer" $(eal 1 client) --vdev=net_af_packet0,iface="$tap0" \
		--vdev=net_af_packet1,iface="$tap1" \
		--vdev=net_bonding0,mode=1,slave=net_af_packet0,slave=net_af_packet1,primary=net_af_packet0 \
		-- "${args[@]}" -d net_bonding0 127.0.0.1
	cp=$WIRE_PID
	wire_wait_line "$tmp/failover.client" "DFI_NET: link_changed(): net_bonding0: link up" 30
	# down, up, and down for the rest of the run: a bond that does not fail
	# over stalls there (half a second's outage, RDM merely rides out)
	sleep 0.5
	ip -n "$WIRE_NS_S" link set "$tap0" down
	sleep 0.5
	ip -n "$WIRE_NS_S" link set "$tap0" up
	sleep 0.5
	ip -n "$WIRE_NS_S" link set "$tap0" down
	wire_wait "$cp" 60
	rc=$?
	ip -n "$WIRE_NS_S" link set "$tap0" up
	wire_wait "$sp" 20
	src=$?
	[ "$rc" -eq 0 ] && rc=$src
	wire_pp_checks "$rc" "$tmp/failover.client" "bonds failing over" rdm "$iters" 64
	s=$(cat "$tmp/failover.server")
	c=$(cat "$tmp/failover.client")
	check "failover: the bond of taps made net_tap1 its primary each time net_tap0's link went" \
		count_is "$s" "member net_tap0's link is down, .* net_tap1 is the primary now" 2
	check "... and net_tap0 again when it came back" \
		count_is "$s" "member net_tap0, the primary it started with, has its link back" 1
	check "failover: the bond of af_packet ports likewise" count_is "$c" \
		"member net_af_packet0's link is down, .* net_af_packet1 is the primary now" 2
	check "... and back" \
		count_is "$c" "member net_af_packet0, the primary it started with, has its link back" 1
}

run_pair "a tap" "--vdev=net_tap0,iface=$tap0" net_tap0 "$tap0"
run_pair "a bond of taps" "--vdev=net_tap0,iface=$tap0 --vdev=net_tap1,iface=$tap1 \
--vdev=net_bonding0,mode=1,slave=net_tap0,slave=net_tap1,primary=net_tap0" net_bonding0 "$tap0"
run_failover
if ip -n "$WIRE_NS_S" link add "$veth0" type veth peer name "$veth1" &&
	ip -n "$WIRE_NS_S" link set "$veth0" up && ip -n "$WIRE_NS_S" link set "$veth1" up; then
	run_pair "af_packet of 4 queue pairs" "--vdev=net_af_packet0,iface=$veth0,qpairs=4" \
		net_af_packet0 "$veth1"
	run_pair "a bond of af_packet of 4 queue pairs" "--vdev=net_af_packet0,iface=$veth0,qpairs=4 \
--vdev=net_bonding0,mode=1,slave=net_af_packet0" net_bonding0 "$veth1"
else
	check "a veth pair in the namespace" false
fi
# a bond takes as many queues as its smallest member: one of 4 sockets and
# one of 2 would leave two of the first one's sockets unread, so it is refused
if ip -n "$WIRE_NS_S" link add "$veth2" type veth peer name "$veth3" &&
	ip -n "$WIRE_NS_S" link set "$veth2" up && ip -n "$WIRE_NS_S" link set "$veth3" up; then
	# shellcheck disable=SC2046
	out=$(ip netns exec "$WIRE_NS_S" env FI_DPDK_IPV4="net_bonding0=$net.3/24" timeout 30 \
		"$peer" $(eal 0 server) --vdev=net_af_packet0,iface="$veth0",qpairs=4 \
		--vdev=net_af_packet1,iface="$veth2",qpairs=2 \
		--vdev=net_bonding0,mode=1,slave=net_af_packet0,slave=net_af_packet1 \
		-- -e rdm -S 64 -I 10 -c -P "$(wire_free_port 47900)" -T 5 -d net_bonding0 2>&1)
	rc=$?
	echo "$out"
	# (before any client is waited for: a bond that started would wait -T 5)
	refused=no
	[ "$rc" -eq 1 ] && contains "$out" "fi_enable\(fab.ep\): Invalid argument" && refused=yes
	check "a bond of af_packet members of 4 and 2 queue pairs: fi_enable() refused with \
FI_EINVAL (status $rc)" [ "$refused" = yes ]
	check "... saying why" contains "$out" \
		"takes frames on 4 sockets .* configures only 2 queue pairs"
else
	check "a second veth pair in the namespace" false
fi
finish
