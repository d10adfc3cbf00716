# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Two hosts on one wire, for tests and benchmarks: a server and a client
# process joined either by net_memif (distinct --file-prefix and socket) or,
# as root with ip netns, by a veth pair between two network namespaces with
# net_af_packet on each end. Everything is bounded in time and cleaned up on
# exit.
#
#   . test/harness.sh
#   wire_setup memif|veth            # sets WIRE, creates namespaces for veth
#   wire_eal server|client           # the EAL arguments of that side
#   wire_run server|client LOG CMD.. # starts CMD in the background (its netns)
#   wire_pair DEADLINE SLOG CLOG ::: SERVER_CMD ::: CLIENT_CMD
#                                    # both sides, in the order WIRE_FIRST and
#                                    # WIRE_GAP say; both must pass
#   wire_link up|down                # the veth wire's interfaces
#   wire_wait PID DEADLINE_S         # waits for it, killing it at the deadline
#   wire_wait_line LOG PREFIX SECS   # waits for a line of LOG that starts so
#   wire_free_port FIRST             # a TCP port from FIRST on that nothing uses
#                                    # (below the ephemeral ports)
#   wire_teardown                    # (also run on exit)
#   wire_test_init PEER PROVIDER_DIR # a test script's start: $peer, the
#                                    # provider's path, $tmp (all undone on exit)
#   wire_mktemp                      # a directory removed on exit
#   wire_on_exit 'COMMAND'           # one more thing to undo on exit
#   wire_hugepages N                 # N free 2 MB hugepages (root), the
#                                    # reservation undone on exit
#   wire_memory no-huge|hugepages    # the sides' memory (DFI_WIRE_MEMORY
#                                    # names it when the script is sourced)
#   wire_floor PINGPONG OUT          # raw frames' round trip over the wire now
#   wire_pp_checks RC CLOG WHAT MODE ITERS SIZE...
#                                    # checks of a pingpong pair's run
#
# Server addresses for the veth wire: WIRE_SERVER_IP, WIRE_CLIENT_IP; its
# interfaces' MTUs, when set: WIRE_VETH_MTU_SERVER, WIRE_VETH_MTU_CLIENT;
# more af_packet device arguments: WIRE_AF_PACKET_ARGS. With
# WIRE_VETH_ROUTED_MTU the two sides are in networks of their own, joined by
# two routers over a link of that MTU (wire_veth_routed).
#
# Cleanup accumulates: sourcing this file sets the one EXIT trap, which runs
# every command given to wire_on_exit, last first. A script that sources it
# must not set an EXIT trap of its own (it would drop the others): it adds
# its own cleanup with wire_on_exit. SIGINT and SIGTERM end the script
# through the same trap.

# a crash ends its process by its signal, not by psm's exit 1 (test/lib.sh)
export IPATH_NO_BACKTRACE=1
WIRE=
WIRE_ID="$$-$RANDOM"
WIRE_PIDS=()
WIRE_NS_S=
WIRE_NS_C=
WIRE_NS_R=
WIRE_SERVER_IP=
WIRE_CLIENT_IP=
# The sides' memory, DFI_WIRE_MEMORY: no-huge (the default; any host has it)
# or hugepages (2 MB pages, reserved when the script starts: wire_hugepages
# below), as the applications the provider is for run. test/meson.build
# gives the plain tree's wire tests hugepages and the sanitizers' tree's
# no-huge, so that one run of scripts/test.sh has both; in this VM a process
# on hugepages starts on 0.30 s of CPU against 0.43 s (the mbuf pool's 4 KiB
# pages are faulted in one by one), the wire tests take 10 % less time.
# --no-shconf: no runtime files (config, fbarrays: megabytes) behind the
# --file-prefix directory, which EAL still creates and teardown removes
# (--in-memory implies it). WIRE_EAL_COMMON, set in the environment, replaces
# either, to debug, e.g. with "--log-level=info --log-level=dfi.*:info" for
# the ports' counters and the interrupt gate's windows at the end.
WIRE_NOHUGE_EAL="--no-huge -m 512 --no-pci --no-shconf --no-telemetry --log-level=notice"
WIRE_HUGE_EAL="--in-memory --no-pci --no-telemetry --log-level=notice"
WIRE_EAL_COMMON=${WIRE_EAL_COMMON:-$WIRE_NOHUGE_EAL}
WIRE_CLEANUPS=()
WIRE_RUNDIR_MADE=
[ -d /var/run/dpdk ] || WIRE_RUNDIR_MADE=1

wire_on_exit() {
	WIRE_CLEANUPS+=("$1")
}

wire_exit() {
	local i
	trap - EXIT INT TERM
	for ((i = ${#WIRE_CLEANUPS[@]} - 1; i >= 0; i--)); do
		eval "${WIRE_CLEANUPS[i]}"
	done
	WIRE_CLEANUPS=()
}
trap wire_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
wire_on_exit wire_teardown

# wire_mktemp: prints a new directory, removed on exit. Call it as
# `wire_mktemp; dir=$WIRE_TMP` (not in $(...): the hook must be added here).
wire_mktemp() {
	WIRE_TMP=$(mktemp -d) || return 1
	wire_on_exit "rm -rf '$WIRE_TMP'"
}

wire_test_init() {
	peer=$1
	export FI_PROVIDER_PATH=$2
	wire_mktemp || exit 1
	tmp=$WIRE_TMP
}

# wire_test_one PEER PROVIDER_DIR WIRE: a test of one wire: wire_test_init,
# then the wire built (exit 77 when it cannot be here), and host set to the
# server's address for the control connection
wire_test_one() {
	wire_test_init "$1" "$2"
	wire=$3
	if ! wire_available "$wire"; then
		echo "$wire wire unavailable (needs root and ip netns)"
		exit 77
	fi
	wire_setup "$wire" || { check "$wire wire" false; finish; exit; }
	host=127.0.0.1
	[ "$wire" = veth ] && host=$WIRE_SERVER_IP
}

wire_teardown() {
	local pid ns
	for pid in "${WIRE_PIDS[@]}"; do
		kill -9 "$pid" 2>/dev/null
	done
	WIRE_PIDS=()
	if [ -n "$WIRE_NS_S" ]; then
		ip netns del "$WIRE_NS_S" 2>/dev/null
		ip netns del "$WIRE_NS_C" 2>/dev/null
		WIRE_NS_S=
		WIRE_NS_C=
	fi
	for ns in $WIRE_NS_R; do
		ip netns del "$ns" 2>/dev/null
	done
	WIRE_NS_R=
	rm -rf "/var/run/dpdk/dfi-$WIRE_ID-server" "/var/run/dpdk/dfi-$WIRE_ID-client"
	# the EAL's runtime root, when its runs made it: only if empty (another
	# DPDK program may have put its own there since)
	[ -n "$WIRE_RUNDIR_MADE" ] && rmdir /var/run/dpdk 2>/dev/null
	rm -f "/run/dfi-$WIRE_ID.sock" "/run/dfi-$WIRE_ID-floor.sock"
}

# wire_pingpong_env PINGPONG PROVIDER_DIR: what a test that runs
# scripts/pingpong.sh gives it: the program, the provider, and a deadline for
# each pair of processes well within meson's limit, so that a pair that hangs
# is shown (its threads' stacks) and killed
wire_pingpong_env() {
	export PINGPONG=$1 FI_PROVIDER_PATH=$2 WIRE_PAIR_DEADLINE_S=60
}

# wire_available veth: 0 when this host can build that wire
wire_available() {
	case $1 in
	memif)
		return 0 ;;
	veth)
		[ "$(id -u)" -eq 0 ] && command -v ip >/dev/null &&
			ip netns add "dfi-probe-$WIRE_ID" 2>/dev/null &&
			ip netns del "dfi-probe-$WIRE_ID" ;;
	*)
		return 1 ;;
	esac
}

# wire_veth_mtu NS IFNAME [MTU]: the interface's MTU, when one is given
wire_veth_mtu() {
	[ -z "$3" ] || ip -n "$1" link set "$2" mtu "$3"
}

# wire_veth_routed N: the veth wire through two routers, namespaces of their
# own that forward between the server's network (10.78.N.0/24) and the
# client's (10.79.N.0/24) over a link of WIRE_VETH_ROUTED_MTU bytes; each
# side's link takes its WIRE_VETH_MTU_*, and each side's default route is its
# router.
wire_veth_routed() {
	local n=$1 r1="dfi-r1-$WIRE_ID" r2="dfi-r2-$WIRE_ID" ns
	WIRE_NS_R="$r1 $r2"
	WIRE_SERVER_IP="10.78.$n.2"
	WIRE_CLIENT_IP="10.79.$n.2"
	for ns in "$WIRE_NS_S" "$WIRE_NS_C" "$r1" "$r2"; do
		ip netns add "$ns" && ip -n "$ns" link set lo up || return 1
	done
	ip link add dfis0 netns "$WIRE_NS_S" type veth peer name dfir1s netns "$r1" &&
		ip link add dfir1 netns "$r1" type veth peer name dfir2 netns "$r2" &&
		ip link add dfic0 netns "$WIRE_NS_C" type veth peer name dfir2c netns "$r2" &&
		wire_veth_mtu "$WIRE_NS_S" dfis0 "${WIRE_VETH_MTU_SERVER:-}" &&
		wire_veth_mtu "$r1" dfir1s "${WIRE_VETH_MTU_SERVER:-}" &&
		wire_veth_mtu "$r1" dfir1 "$WIRE_VETH_ROUTED_MTU" &&
		wire_veth_mtu "$r2" dfir2 "$WIRE_VETH_ROUTED_MTU" &&
		wire_veth_mtu "$r2" dfir2c "${WIRE_VETH_MTU_CLIENT:-}" &&
		wire_veth_mtu "$WIRE_NS_C" dfic0 "${WIRE_VETH_MTU_CLIENT:-}" &&
		ip -n "$WIRE_NS_S" addr add "$WIRE_SERVER_IP/24" dev dfis0 &&
		ip -n "$r1" addr add "10.78.$n.1/24" dev dfir1s &&
		ip -n "$r1" addr add "10.80.$n.1/24" dev dfir1 &&
		ip -n "$r2" addr add "10.80.$n.2/24" dev dfir2 &&
		ip -n "$r2" addr add "10.79.$n.1/24" dev dfir2c &&
		ip -n "$WIRE_NS_C" addr add "$WIRE_CLIENT_IP/24" dev dfic0 || return 1
	for ns in "$WIRE_NS_S:dfis0" "$r1:dfir1s" "$r1:dfir1" "$r2:dfir2" "$r2:dfir2c" \
		  "$WIRE_NS_C:dfic0"; do
		ip -n "${ns%%:*}" link set "${ns#*:}" up || return 1
	done
	ip netns exec "$r1" sysctl -qw net.ipv4.ip_forward=1 &&
		ip netns exec "$r2" sysctl -qw net.ipv4.ip_forward=1 &&
		ip -n "$r1" route add "10.79.$n.0/24" via "10.80.$n.2" &&
		ip -n "$r2" route add "10.78.$n.0/24" via "10.80.$n.1" &&
		ip -n "$WIRE_NS_S" route add default via "10.78.$n.1" &&
		ip -n "$WIRE_NS_C" route add default via "10.79.$n.1"
}

wire_setup() {
	WIRE=$1
	case $WIRE in
	memif)
		;;
	veth)
		local n=$((RANDOM % 200 + 20))
		WIRE_NS_S="dfi-s-$WIRE_ID"
		WIRE_NS_C="dfi-c-$WIRE_ID"
		if [ -n "${WIRE_VETH_ROUTED_MTU:-}" ]; then
			wire_veth_routed "$n" ||
				{ echo "harness: cannot build the routed veth wire" >&2; return 1; }
			return 0
		fi
		WIRE_SERVER_IP="10.77.$n.1"
		WIRE_CLIENT_IP="10.77.$n.2"
		ip netns add "$WIRE_NS_S" && ip netns add "$WIRE_NS_C" &&
			ip link add dfis0 netns "$WIRE_NS_S" type veth peer name dfic0 \
				netns "$WIRE_NS_C" &&
			ip -n "$WIRE_NS_S" addr add "$WIRE_SERVER_IP/24" dev dfis0 &&
			ip -n "$WIRE_NS_C" addr add "$WIRE_CLIENT_IP/24" dev dfic0 &&
			ip -n "$WIRE_NS_S" link set dfis0 up && ip -n "$WIRE_NS_C" link set dfic0 up &&
			ip -n "$WIRE_NS_S" link set lo up && ip -n "$WIRE_NS_C" link set lo up &&
			wire_veth_mtu "$WIRE_NS_S" dfis0 "${WIRE_VETH_MTU_SERVER:-}" &&
			wire_veth_mtu "$WIRE_NS_C" dfic0 "${WIRE_VETH_MTU_CLIENT:-}" ||
			{ echo "harness: cannot build the veth wire" >&2; return 1; }
		;;
	*)
		echo "harness: unknown wire $WIRE" >&2
		return 1 ;;
	esac
}

# wire_hugepages N: at least N default-size hugepages free, reserving what
# lacks (root); on exit the pool goes back to the size it had. Pages DPDK
# still holds then are freed when it lets them go (the kernel's surplus).
# @return 1, saying why, when the kernel does not give them.
wire_hugepages() {
	local want=$1 pool=/proc/sys/vm/nr_hugepages before free
	free=$(awk '/^HugePages_Free:/ {print $2}' /proc/meminfo)
	[ "${free:-0}" -ge "$want" ] && return 0
	before=$(cat "$pool") || return 1
	if ! echo $((before + want - free)) >"$pool" 2>/dev/null; then
		echo "harness: cannot reserve hugepages (root only)" >&2
		return 1
	fi
	wire_on_exit "echo $before >$pool"
	free=$(awk '/^HugePages_Free:/ {print $2}' /proc/meminfo)
	[ "$free" -ge "$want" ] && return 0
	echo "harness: asked for $want free hugepages, the kernel gave $free" >&2
	return 1
}

# wire_memory no-huge|hugepages: the sides' memory from now on
# (WIRE_EAL_COMMON); hugepages reserves the pages for a test's processes at
# once (a pair of sides whose ports have pools of their own took 20-40 pages
# each), and a host that does not give them fails the test rather than run it
# on the other memory.
# @return 77 (a skip) without root, 1 when the pages or the name are wrong.
wire_memory() {
	case $1 in
	no-huge) WIRE_EAL_COMMON=$WIRE_NOHUGE_EAL ;;
	hugepages)
		[ "$(id -u)" -eq 0 ] || { echo "hugepages: needs root to reserve them"; return 77; }
		wire_hugepages 256 || return 1
		echo "# the wire's memory: 2 MB hugepages, $(awk '/^HugePages_Free:/ {print $2}' \
			/proc/meminfo) free"
		WIRE_EAL_COMMON=$WIRE_HUGE_EAL ;;
	*)
		echo "harness: the wire's memory is no-huge or hugepages, not $1" >&2
		return 1 ;;
	esac
}

# DFI_WIRE_MEMORY: the memory a script takes unless it names one; a
# WIRE_EAL_COMMON from the environment still wins
if [ "${DFI_WIRE_MEMORY:-no-huge}" != no-huge ]; then
	wire_eal_env=$WIRE_EAL_COMMON
	wire_memory "$DFI_WIRE_MEMORY" || exit
	[ "$wire_eal_env" = "$WIRE_NOHUGE_EAL" ] || WIRE_EAL_COMMON=$wire_eal_env
	unset wire_eal_env
fi

# wire_eal server|client: EAL arguments, one core per side
wire_eal() {
	local side=$1 core=0 role=server mac=02:df:10:00:00:01 bsize=${WIRE_BSIZE_SERVER:-9216}
	local rsize=${WIRE_RSIZE-7}
	[ "$side" = client ] && core=1 && role=client && mac=02:df:10:00:00:02 &&
		bsize=${WIRE_BSIZE_CLIENT:-9216}
	[ "$(nproc)" -lt 2 ] && core=0
	case $WIRE in
	memif)
		# a fixed MAC (memif draws one at random): a side started again
		# keeps its address, as a veth side keeps its interface's; ring
		# buffers of 9216 bytes (WIRE_BSIZE_SERVER, WIRE_BSIZE_CLIENT)
		# carry the provider's jumbo packets whole, 128 of them per ring
		# (WIRE_RSIZE=7; empty: memif's 1024) so that a ring's 1.2 MB
		# stay in the cache (fi_dpdk(7), "memif rings")
		# WIRE_FLOOR=1: a second pair of the same rings, net_memif1,
		# for raw frames beside the provider's (pingpong.sh -f)
		local floor=
		[ -n "${WIRE_FLOOR:-}" ] &&
			floor=" --vdev=net_memif1,role=$role,socket=/run/dfi-$WIRE_ID-floor.sock,mac=${mac/10:00:00/10:00:01},bsize=$bsize${rsize:+,rsize=$rsize}"
		echo "-l $core $WIRE_EAL_COMMON --file-prefix dfi-$WIRE_ID-$side" \
			"--vdev=net_memif0,role=$role,socket=/run/dfi-$WIRE_ID.sock,mac=$mac,bsize=$bsize${rsize:+,rsize=$rsize}$floor" ;;
	veth)
		# WIRE_AF_PACKET_ARGS: more device arguments (framesz=... for
		# the ring slots a jumbo MTU needs, WIRE_VETH_MTU_SERVER and
		# WIRE_VETH_MTU_CLIENT)
		local ifname=dfis0
		[ "$side" = client ] && ifname=dfic0
		echo "-l $core $WIRE_EAL_COMMON --file-prefix dfi-$WIRE_ID-$side" \
			"--vdev=net_af_packet0,iface=$ifname${WIRE_AF_PACKET_ARGS:+,$WIRE_AF_PACKET_ARGS}" ;;
	esac
}

# wire_exec server|client CMD...: runs CMD in that side's namespace (veth)
wire_exec() {
	local side=$1
	shift
	if [ "$WIRE" = veth ]; then
		local ns=$WIRE_NS_S
		[ "$side" = client ] && ns=$WIRE_NS_C
		ip netns exec "$ns" "$@"
	else
		"$@"
	fi
}

# wire_run server|client LOG CMD...: in the background; the PID is in WIRE_PID
# (the command's own: the subshell execs it, ip netns exec does too)
wire_run() {
	local side=$1 log=$2
	shift 2
	if [ "$WIRE" = veth ]; then
		local ns=$WIRE_NS_S
		[ "$side" = client ] && ns=$WIRE_NS_C
		(exec ip netns exec "$ns" "$@") >"$log" 2>&1 &
	else
		(exec "$@") >"$log" 2>&1 &
	fi
	WIRE_PID=$!
	WIRE_PIDS+=("$WIRE_PID")
}

# wire_stacks PID: the threads of a process that outlived its deadline, for the
# log, before it is killed: each one's stack with gdb (in the image these tests
# run on), or its state and kernel wait channel without
wire_stacks() {
	local pid=$1 t
	kill -0 "$pid" 2>/dev/null || return 0
	echo "# process $pid outlived its deadline: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null |
		cut -c1-200)"
	if command -v gdb >/dev/null; then
		timeout 60 gdb -p "$pid" -batch -ex 'thread apply all bt 16' 2>/dev/null |
			grep -E '^(Thread|#)' | head -n 160 | sed 's|^|#   |'
		return 0
	fi
	for t in /proc/"$pid"/task/*; do
		echo "#   thread $(cat "$t/comm" 2>/dev/null): state $(cut -d' ' -f3 "$t/stat" \
			2>/dev/null), waiting in $(cat "$t/wchan" 2>/dev/null)"
	done
}

# wire_wait PID DEADLINE_S: the exit status, or 124 when killed at the deadline.
# Nothing runs meanwhile but one sleep to the deadline: a loop that ran date
# and sleep every 50 ms took a vCPU from the pair it waited for, a process
# start at a time, and stalled the pair 0.3-2.3 ms at once in bursts every
# 60 ms (a trace of both sides of fi_pingpong -S all, doc/rdm-protocol.md).
wire_wait() {
	local pid=$1 timer who rc
	# not a child of ours any more (waited for already): as wait says
	kill -0 "$pid" 2>/dev/null || { wait "$pid"; return; }
	# a signal to the timer before its exec would run this shell's traps
	# there, the EXIT one included (the wire torn down under the caller):
	# none in it, and SIGKILL
	(trap - EXIT INT TERM && exec sleep "$2") &
	timer=$!
	wait -n -p who "$pid" "$timer"
	rc=$?
	if [ "${who:-}" = "$pid" ]; then
		kill -9 "$timer" 2>/dev/null
		wait "$timer" 2>/dev/null
		return "$rc"
	fi
	wire_stacks "$pid"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 124
}

# wire_wait_line LOG PREFIX DEADLINE_S: waits until a line of LOG starts with PREFIX
wire_wait_line() {
	local i
	for ((i = 0; i < $3 * 20; i++)); do
		grep -q "^$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# wire_tcp_port PORT [listen]: 0 when a TCP socket on the server's side has
# local port PORT (listen: a listening one). Read from /proc/net/tcp and tcp6,
# not with ss: a machine without iproute2 (a lent one) made every wait for a
# listener run to its deadline
wire_tcp_port() {
	local hex state=
	hex=$(printf '%04X' "$1")
	[ "${2:-}" = listen ] && state=0A
	wire_exec server cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		awk -v p=":$hex" -v st="$state" \
			'substr($2, length($2) - 4) == p && (st == "" || $4 == st) { f = 1 } END { exit !f }'
}

# wire_floor PINGPONG OUT: the raw floor over the memif wire as it is set up
# now (wire_eal: the same rings and memory), in about a second: app/pingpong's
# 64-byte raw frames, 2000 round trips; the client's JSON table in OUT (its
# median_us). The scripts that pair providers sort their runs by the VM's
# regime with it. A floor that failed says so on standard error, with what
# the pair printed, and returns its status: the run goes on without it.
wire_floor() {
	local pp=$1 out=$2 rc
	# shellcheck disable=SC2046
	wire_pair 60 "$out.server" "$out" \
		::: "$pp" $(wire_eal server) -- --raw -S 64 -I 2000 --json \
		::: "$pp" $(wire_eal client) -- --raw -S 64 -I 2000 --json 127.0.0.1 >"$out.why"
	rc=$?
	[ "$rc" -eq 0 ] || { echo "the floor $out failed:" >&2; cat "$out.why" >&2; }
	return "$rc"
}

# wire_listening PORT DEADLINE_S [PID]: waits until the server side listens on
# TCP PORT (for clients that do not retry their control connection); gives up
# at once when the server PID has exited (a bind that failed)
wire_listening() {
	local port=$1 deadline=$(($(date +%s) + $2)) pid=${3:-}
	while [ "$(date +%s)" -lt "$deadline" ]; do
		wire_tcp_port "$port" listen && return 0
		[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && return 1
		sleep 0.05
	done
	return 1
}

# wire_bytes SIZE: a size as the pingpong tools take it, in bytes (4k -> 4096,
# 1m -> 1048576); nothing printed and status 1 for what is not a size
wire_bytes() {
	local n=${1%[kKmM]}
	[[ $n =~ ^[0-9]+$ ]] || return 1
	# base 10 said: bash reads a leading 0 as octal (08k was an error, 010 8)
	case $1 in
	*[kK]) echo $((10#$n << 10)) ;;
	*[mM]) echo $((10#$n << 20)) ;;
	*) echo $((10#$n)) ;;
	esac
}

# wire_free_port FIRST: the first TCP port from FIRST on that no socket uses,
# not even one in TIME_WAIT (a server's bind would fail there); a FIRST in
# the kernel's ephemeral range is moved below it, keeping its last 4 digits
wire_free_port() {
	local port=$1 lo
	# below the kernel's ephemeral ports: one that an outgoing connection
	# takes, or keeps in TIME_WAIT, between this look and the server's bind
	# fails the bind (start-order-memif's server: "Address already in use")
	read -r lo _ </proc/sys/net/ipv4/ip_local_port_range
	[ "$port" -ge "$lo" ] && [ "$lo" -gt 11024 ] && port=$((lo - 10000 + port % 10000))
	while wire_tcp_port "$port"; do
		port=$((port + 1))
	done
	echo "$port"
}

# wire_link up|down: both ends of the veth wire, administratively
wire_link() {
	[ "$WIRE" = veth ] || return 0
	ip -n "$WIRE_NS_S" link set dfis0 "$1" && ip -n "$WIRE_NS_C" link set dfic0 "$1"
}

# wire_pp_checks RC CLIENT_LOG WHAT MODE ITERS SIZE...: the checks of a run of
# app/pingpong's (-c: every reply checked) that wire_pair returned RC for:
# both sides exited 0, and the client's table has ITERS round trips of MODE
# for each SIZE; the client's output goes to the test's log
wire_pp_checks() {
	local rc=$1 log=$2 what=$3 mode=$4 iters=$5 out size
	shift 5
	check "$mode over $what: both sides exit 0, every reply checked" test "$rc" -eq 0
	out=$(cat "$log")
	echo "$out"
	for size in "$@"; do
		check "$mode $size B: $iters round trips over $what" contains "$out" \
			"^$mode +$size +$iters "
	done
}

# wire_pair DEADLINE_S SERVER_LOG CLIENT_LOG ::: SERVER_CMD... ::: CLIENT_CMD...
# Starts both sides; both must exit 0 before the deadline. (":::" since the
# commands carry EAL's "--".) The start order is the launcher's:
#   WIRE_FIRST=server|client  which side starts first (server by default)
#   WIRE_GAP=SECONDS          how long before the other one starts (0: at once)
# With WIRE_LISTEN_PORT set and the server first, the client starts once the
# server listens on that TCP port.
wire_pair() {
	local deadline=$1 slog=$2 clog=$3 spid cpid rs rc
	local first=${WIRE_FIRST:-server} gap=${WIRE_GAP:-0}
	shift 3
	local -a scmd=() ccmd=()
	[ "$1" = ":::" ] && shift
	while [ $# -gt 0 ] && [ "$1" != ":::" ]; do
		scmd+=("$1")
		shift
	done
	shift
	ccmd=("$@")
	if [ "$first" = client ]; then
		wire_run client "$clog" "${ccmd[@]}"
		cpid=$WIRE_PID
		[ "$gap" != 0 ] && sleep "$gap"
		wire_run server "$slog" "${scmd[@]}"
		spid=$WIRE_PID
	else
		wire_run server "$slog" "${scmd[@]}"
		spid=$WIRE_PID
		[ -n "${WIRE_LISTEN_PORT:-}" ] &&
			wire_listening "$WIRE_LISTEN_PORT" "$deadline" "$spid"
		[ "$gap" != 0 ] && sleep "$gap"
		wire_run client "$clog" "${ccmd[@]}"
		cpid=$WIRE_PID
	fi
	wire_wait "$cpid" "$deadline"
	rc=$?
	wire_wait "$spid" 20
	rs=$?
	[ "$rc" -eq 0 ] && [ "$rs" -eq 0 ] && return 0
	# what a failing side said besides its figures: the reason, for the CI log
	echo "# server exit $rs, client exit $rc; their last other lines:"
	grep -hv '^#' "$slog" | tail -n 15 | sed 's|^|#   server: |'
	grep -hv '^#' "$clog" | tail -n 15 | sed 's|^|#   client: |'
	return 1
}
