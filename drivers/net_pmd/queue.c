/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Port start and stop: queue pairs, the mbuf pool, offloads, link state. */

#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "af_packet.h"
#include "bond.h"
#include "dfi.h"
#include "intr_gate.h"
#include "memif.h"
#include "net_log.h"
#include "queue.h"
#include "rxtx.h"
#include "steer.h"

#define POOL_CACHE		256
/* How often a polled port looks at its neighbour timers, and at its link when
 * the PMD interrupts on link changes (in case one interrupt was missed). */
#define TICK_MS			10
#define LINK_LSC_CHECK_MS	1000
/* A send refused for a down link looks again, at most this often. */
#define LINK_RECHECK_MS		1
/* How long a start waits for the link (a memif client's handshake). */
#define LINK_START_WAIT_MS	250
struct dfi_queue_conf dfi_queue_conf = {
	.nb_mbufs = 16383,
	.nb_rx_desc = 1024,
	.nb_tx_desc = 1024,
	.steer_queues = 8,
};

struct dfi_port_rt *
dfi_queue_rt_alloc(void)
{
	/* its locks and counters keep to their own cache lines */
	struct dfi_port_rt *rt = aligned_alloc(RTE_CACHE_LINE_SIZE,
					       RTE_ALIGN_CEIL(sizeof(*rt), RTE_CACHE_LINE_SIZE));

	if (rt == NULL)
		return NULL;
	memset(rt, 0, sizeof(*rt));
	rte_spinlock_init(&rt->rx_lock);
	rte_spinlock_init(&rt->tx_lock);
	rte_spinlock_init(&rt->neigh.lock);
	pthread_mutex_init(&rt->ctl, NULL);
	rt->locked = 1;
	rt->nb_shared = 1;
	rt->link_fd = -1;
	rt->bond_primary = RTE_MAX_ETHPORTS;
	rt->cc.fd = -1;
	return rt;
}

/*
 * Set by the LSC callback, taken by the port's tick. Not in dfi_port_rt: with
 * an application's EAL the callback stays registered after the unload frees
 * rt (it cannot be unregistered once that EAL may be cleaned up), and the
 * interrupt thread may still call it; the library is never unloaded
 * (-z nodelete), so this array and the callback outlive rt.
 */
static uint32_t lsc_events[RTE_MAX_ETHPORTS];

static int
lsc_event(uint16_t port_id, enum rte_eth_event_type type __rte_unused, void *arg __rte_unused,
	  void *ret_param __rte_unused)
{
	/* the EAL interrupt thread: the next poller reads the new state */
	if (port_id < RTE_MAX_ETHPORTS)
		__atomic_store_n(&lsc_events[port_id], 1, __ATOMIC_RELEASE);
	return 0;
}

/* One buffer per frame: headroom for every encapsulation, the largest MTU, L2;
 * and what af_packet copies in at most, a whole ring slot's worth. */
static uint16_t
pool_data_room(const struct dfi_port *port)
{
	uint32_t room = RTE_MAX((uint32_t)RTE_MBUF_DEFAULT_BUF_SIZE,
				(uint32_t)(RTE_PKTMBUF_HEADROOM + port->jumbo_mtu +
					   RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN));

	if (dfi_af_packet_is(port->port_id))
		room = RTE_MAX(room, RTE_PKTMBUF_HEADROOM +
					     dfi_af_packet_frame_room(port->port_id));
	return (uint16_t)RTE_MIN(room, (uint32_t)UINT16_MAX);
}

uint32_t
dfi_port_pool_size(const struct dfi_port *port)
{
	uint64_t n = (uint64_t)dfi_queue_conf.nb_mbufs * RTE_MBUF_DEFAULT_BUF_SIZE /
		     pool_data_room(port);

	/* as much memory as FI_DPDK_MBUFS standard buffers, in fewer larger ones
	 * when the frames are jumbo */
	return (uint32_t)RTE_MAX(n, (uint64_t)1023);
}

static int
pool_create(struct dfi_port *port)
{
	struct dfi_port_rt *rt = port->rt;
	char name[RTE_MEMPOOL_NAMESIZE];
	uint16_t data_room = pool_data_room(port);
	uint32_t nb = dfi_port_pool_size(port);

	if (rt->pool != NULL)
		return 0;
	snprintf(name, sizeof(name), "dfi_pool_%u", port->port_id);
	rt->pool = rte_pktmbuf_pool_create(name, nb, POOL_CACHE,
					   RTE_ALIGN(sizeof(struct dfi_rx_meta),
						     RTE_MBUF_PRIV_ALIGN),
					   data_room, port->socket_id);
	if (rt->pool == NULL) {
		/* --no-huge memory sits on one node only */
		NET_LOG(NOTICE, "%s: no pool on NUMA node %d (%s), using any node", port->name,
			port->socket_id, rte_strerror(rte_errno));
		rt->pool = rte_pktmbuf_pool_create(name, nb, POOL_CACHE,
						   RTE_ALIGN(sizeof(struct dfi_rx_meta),
							     RTE_MBUF_PRIV_ALIGN),
						   data_room, SOCKET_ID_ANY);
	}
	if (rt->pool == NULL) {
		NET_LOG(ERR, "%s: cannot create a pool of %u mbufs of %u bytes: %s", port->name,
			nb, data_room, rte_strerror(rte_errno));
		return -FI_ENOMEM;
	}
	NET_LOG(INFO, "%s: a pool of %u mbufs of %u bytes", port->name, nb, data_room);
	return 0;
}

/* Checksum offloads the provider uses, when the PMD has them. */
#define WANT_TX_OFFLOADS	(RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM | \
				 RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
#define WANT_RX_OFFLOADS	(RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM)

/* @return whether the PMD's transmit burst is a system call (rxtx.h) */
static bool
burst_is_syscall(const struct rte_eth_dev_info *info)
{
	static const char *const drivers[] = { "net_af_packet", "net_af_xdp" };
	size_t i;

	for (i = 0; info->driver_name != NULL && i < RTE_DIM(drivers); i++) {
		if (strcmp(info->driver_name, drivers[i]) == 0)
			return true;
	}
	return false;
}

static int
port_configure(struct dfi_port *port)
{
	struct dfi_port_rt *rt = port->rt;
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	uint16_t nb_rxd = dfi_queue_conf.nb_rx_desc, nb_txd = dfi_queue_conf.nb_tx_desc, q;
	int ret;

	ret = rte_eth_dev_info_get(port->port_id, &info);
	if (ret != 0)
		return ret;
	ret = pool_create(port);
	if (ret != 0)
		return ret;
	if (rt->fault == NULL) {
		ret = dfi_fault_create(dfi_queue_conf.fault, port->port_id, rt->pool, &rt->fault);
		if (ret != 0)
			return ret;
	}
	memset(&conf, 0, sizeof(conf));
	/* no RSS: what no rule steers goes to queue 0 */
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_NONE;
	rt->tx_offloads = info.tx_offload_capa & WANT_TX_OFFLOADS;
	rt->tx_flush_bytes = burst_is_syscall(&info) ? DFI_TX_FLUSH_BYTES_SYSCALL :
			     DFI_TX_FLUSH_BYTES;
	rt->rx_offloads = info.rx_offload_capa & WANT_RX_OFFLOADS;
	conf.txmode.offloads = rt->tx_offloads;
	conf.rxmode.offloads = rt->rx_offloads;
	if (*info.dev_flags & RTE_ETH_DEV_INTR_LSC)
		conf.intr_conf.lsc = 1;
	rt->revive = dfi_memif_is_client(port->port_id);
	rt->nb_steered = dfi_steer_queues(port, &info, dfi_queue_conf.steer_queues);
	/* queues the kernel fills whatever we configure are all configured and
	 * polled, or what lands on them is lost */
	ret = rt->nb_steered == 0 ? dfi_af_packet_spread(port->port_id, &info) : 1;
	if (ret < 0)
		return ret;
	rt->nb_shared = (uint16_t)ret;
	rt->nb_queues = (uint16_t)(rt->nb_shared + rt->nb_steered);
	ret = rte_eth_dev_configure(port->port_id, rt->nb_queues, rt->nb_queues, &conf);
	if (ret != 0)
		return ret;
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(port->port_id, &nb_rxd, &nb_txd);
	if (ret != 0)
		return ret;
	for (q = 0; q < rt->nb_queues && ret == 0; q++) {
		ret = rte_eth_rx_queue_setup(port->port_id, q, nb_rxd, port->socket_id, NULL,
					     rt->pool);
		if (ret == 0)
			ret = rte_eth_tx_queue_setup(port->port_id, q, nb_txd, port->socket_id,
						     NULL);
	}
	if (ret != 0)
		return ret;
	free(rt->steer_used);
	rt->steer_used = calloc((size_t)rt->nb_queues / 64 + 1, sizeof(uint64_t));
	free(rt->qpairs);
	/* libc memory: freed at unload, maybe after the application's EAL is gone */
	rt->qpairs = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(*rt->qpairs) * rt->nb_queues);
	if (rt->steer_used == NULL || rt->qpairs == NULL)
		return -ENOMEM;
	memset(rt->qpairs, 0, sizeof(*rt->qpairs) * rt->nb_queues);
	rt->qpairs[0].stats = &rt->stats;
	for (q = 1; q < rt->nb_queues; q++)
		rt->qpairs[q].stats = &rt->qpairs[q].own;
	/* a bond's members may change without an event (dfi_bond_failover()) */
	rt->link_period = rte_get_timer_hz() / 1000 *
			  (conf.intr_conf.lsc != 0 && !dfi_bond_is(port->port_id) ?
			   LINK_LSC_CHECK_MS : DFI_LINK_POLL_MS);
	if (conf.intr_conf.lsc != 0 && !rt->ever_started)
		rte_eth_dev_callback_register(port->port_id, RTE_ETH_EVENT_INTR_LSC, lsc_event,
					      NULL);
	NET_LOG(INFO, "%s: %u queue pair(s) (%u shared, %u steerable), %u/%u descriptors, "
		"tx offloads 0x%" PRIx64 ", rx offloads 0x%" PRIx64, port->name, rt->nb_queues,
		rt->nb_shared, rt->nb_steered, nb_rxd, nb_txd, rt->tx_offloads, rt->rx_offloads);
	return 0;
}

/* The restarts of a memif client while its link is down (port_restart()):
 * the first waits DFI_REVIVE_MIN_MS, each next one twice as long. */
/*
 * The port's timers and restart back-off: every thread that sends or polls on
 * the port reads them, and a link change rearms them, with no lock held. The
 * worst such a race does is a tick run twice or a restart a tick late, so
 * relaxed atomics, which only keep each access whole.
 */
#define RT_LOAD(field)		__atomic_load_n(&(field), __ATOMIC_RELAXED)
#define RT_STORE(field, v)	__atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

static uint64_t
revive_min(void)
{
	return rte_get_timer_hz() / 1000 * DFI_REVIVE_MIN_MS;
}

static void
revive_rearm(struct dfi_port_rt *rt)
{
	RT_STORE(rt->revive_wait, revive_min());
	RT_STORE(rt->revive_tsc, rte_get_timer_cycles() + revive_min());
}

/* A memif client's start connected its socket: no restart closes it while
 * memif keeps it open (revive_would_cut()). Under ctl. */
static void
revive_handshake(struct dfi_port *port, uint64_t now)
{
	struct dfi_port_rt *rt = port->rt;

	rt->handshake_tsc = now + rte_get_timer_hz() / 1000 * DFI_REVIVE_HANDSHAKE_MS;
	if (rt->cc.fd < 0)
		NET_LOG(INFO, "%s: the start's control channel was not found among the "
			"process's sockets: the next restart waits %u ms", port->name,
			DFI_REVIVE_HANDSHAKE_MS);
}

/*
 * The frame the fault injector holds back on the way out, taken from it:
 * under the tx lock, which a sender holds while the injector runs.
 */
static struct rte_mbuf *
fault_take_tx_held(struct dfi_port_rt *rt)
{
	struct rte_mbuf *held;

	if (rt->locked)
		rte_spinlock_lock(&rt->tx_lock);
	held = dfi_fault_release(rt->fault, DFI_FAULT_TX);
	if (rt->locked)
		rte_spinlock_unlock(&rt->tx_lock);
	return held;
}

/*
 * memif's region mapped, and each page read, before the first frames need
 * them (dfi_memif_prefault()). The reads on the wire, as a burst's: the
 * interrupt thread, where memif unmaps the region of a peer gone, waits
 * meanwhile. Where its window is open, the pages are only mapped.
 */
static void
memif_map_ahead(struct dfi_port *port)
{
	struct dfi_port_rt *rt = port->rt;
	bool open;

	if (rt->locked)
		rte_spinlock_lock(&rt->tx_lock);
	open = dfi_wire_enter(rt);
	dfi_memif_prefault(port->name, open);
	if (open)
		dfi_wire_leave(rt);
	if (rt->locked)
		rte_spinlock_unlock(&rt->tx_lock);
	if (!open)
		NET_LOG(DEBUG, "%s: memif's region mapped, not read: the interrupt thread's "
			"window was open", port->name);
}

/* The link went up or down: what was meant for the old one goes. */
static void
link_changed(struct dfi_port *port, bool up, const struct rte_eth_link *link)
{
	struct dfi_port_rt *rt = port->rt;
	struct rte_mbuf *held = NULL;
	uint32_t dropped;

	/* neighbours may have moved, and what waited for them is stale */
	dropped = dfi_neigh_flush(port);
	if (!up && rt->fault != NULL) {
		held = fault_take_tx_held(rt);
		dropped += held != NULL;
		rte_pktmbuf_free(held);
	}
	__atomic_fetch_add(&rt->stats.tx_link_down, dropped, __ATOMIC_RELAXED);
	/* the next outage is fought from the shortest wait again */
	revive_rearm(rt);
	/* a connection maps memif's region anew: its pages before any frame */
	if (up && dfi_memif_is(port->port_id))
		memif_map_ahead(port);
	if (up)
		NET_LOG(NOTICE, "%s: link up, %u Mbps; neighbours forgotten, %u frames "
			"waiting for ARP dropped", port->name, link->link_speed, dropped);
	else
		NET_LOG(WARNING, "%s: link down: sends fail with -FI_ENETDOWN and staged "
			"frames are dropped until it is back; neighbours forgotten, %u frames "
			"waiting for ARP or held dropped", port->name, dropped);
}

/*
 * The link as the PMD says, and for a PMD on a kernel interface as the kernel
 * says too (dfi_kernel_link_up()): af_packet reports its link up from its
 * start to its stop, whatever the interface does.
 */
static int
link_read(struct dfi_port *port, struct rte_eth_link *link)
{
	int ret;

	ret = rte_eth_link_get_nowait(port->port_id, link);
	if (ret != 0 || link->link_status != RTE_ETH_LINK_UP || port->rt->link_fd < 0)
		return ret;
	if (port->ifname[0] != '\0' && !dfi_kernel_link_up(port->rt->link_fd, port->ifname))
		link->link_status = RTE_ETH_LINK_DOWN;
	return 0;
}

/* Reads the link; the thread that sees it change first acts on the change. */
static void
link_update(struct dfi_port *port)
{
	struct dfi_port_rt *rt = port->rt;
	struct rte_eth_link link;
	uint32_t up, epoch;

	if (rt->bond_primary != RTE_MAX_ETHPORTS)
		dfi_bond_failover(port->port_id, rt->link_fd, rt->bond_primary);
	if (link_read(port, &link) != 0)
		return;
	up = link.link_status == RTE_ETH_LINK_UP;
	epoch = __atomic_load_n(&rt->link_epoch, __ATOMIC_ACQUIRE);
	do {
		if ((epoch & 1) == up)
			return;
	} while (!__atomic_compare_exchange_n(&rt->link_epoch, &epoch, epoch + 1, false,
					      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	link_changed(port, up, &link);
}

/*
 * The link of a port that connects only when started (a memif client) is
 * down: it is restarted, which makes the PMD connect again, and the next
 * restart waits twice as long, up to DFI_REVIVE_MAX_MS. Under ctl; nothing
 * polls or transmits on the port meanwhile (its queue locks are taken, or
 * the caller is the one thread of a lock-free port, and such a PMD steers
 * no queue to an endpoint), and the EAL interrupt thread, where memif
 * connects and disconnects, is held in its gate.
 */
static void
port_restart(struct dfi_port *port, uint64_t now)
{
	struct dfi_port_rt *rt = port->rt;
	uint64_t wait;
	int ret;

	if (!dfi_intr_gate_hold()) {
		RT_STORE(rt->revive_tsc, now + revive_min());
		return;
	}
	if (rt->locked) {
		rte_spinlock_lock(&rt->rx_lock);
		rte_spinlock_lock(&rt->tx_lock);
	}
	if (rt->pmd_started)
		rte_eth_dev_stop(port->port_id);
	ret = dfi_memif_client_start(port->port_id, &rt->cc);
	RT_STORE(rt->pmd_started, ret == 0);	/* dfi_intr_gate_wait() looks unlocked */
	if (rt->locked) {
		rte_spinlock_unlock(&rt->tx_lock);
		rte_spinlock_unlock(&rt->rx_lock);
	}
	dfi_intr_gate_release();
	RT_STORE(rt->revivals, rt->revivals + 1);	/* read unlocked */
	NET_LOG(DEBUG, "%s: restarted to connect again (%s); next try in %" PRIu64 " ms",
		port->name, ret == 0 ? "the PMD started" : rte_strerror(-ret),
		RT_LOAD(rt->revive_wait) * 2000 / rte_get_timer_hz());
	wait = RT_LOAD(rt->revive_wait);
	if (wait == revive_min())
		NET_LOG(NOTICE, "%s: link down: the port is restarted to connect again, every "
			"%u ms at first and every %u ms at most, until it is up", port->name,
			DFI_REVIVE_MIN_MS, DFI_REVIVE_MAX_MS);
	wait = RTE_MIN(wait * 2, rte_get_timer_hz() / 1000 * DFI_REVIVE_MAX_MS);
	RT_STORE(rt->revive_wait, wait);
	RT_STORE(rt->revive_tsc, now + wait);
	if (ret == 0)
		revive_handshake(port, now);
}

/*
 * Whether a restart now may close a connection whose handshake is under way:
 * while memif keeps the last start's control channel open, the server may
 * not have greeted it yet (busy, stopped, swapped out), and closing it then
 * makes the server abort (DFI_REVIVE_HANDSHAKE_MS). memif closes the channel
 * itself on the server's refusal, disconnect or death. A channel the start
 * did not find is given DFI_REVIVE_HANDSHAKE_MS.
 */
static bool
revive_would_cut(const struct dfi_port_rt *rt, uint64_t now)
{
	if (rt->cc.fd >= 0)
		return !dfi_memif_cc_closed(&rt->cc);
	return now < rt->handshake_tsc;
}

/* Under ctl: restarts the port if its link is down and its time has come. */
static void
port_revive(struct dfi_port *port, uint64_t now)
{
	struct dfi_port_rt *rt = port->rt;

	if (rt->revive && rt->started && !dfi_port_link_up(port) &&
	    now >= RT_LOAD(rt->revive_tsc) && !revive_would_cut(rt, now))
		port_restart(port, now);
}

/* A start waits a little for the link, as DPDK applications do after
 * rte_eth_dev_start(): a memif client's handshake takes a few ms. */
static void
link_wait(struct dfi_port *port)
{
	int ms;

	for (ms = 0; ms < LINK_START_WAIT_MS && !dfi_port_link_up(port); ms++) {
		rte_delay_us_sleep(1000);
		link_update(port);
		port_revive(port, rte_get_timer_cycles());
	}
	if (!dfi_port_link_up(port))
		NET_LOG(INFO, "%s: link still down %u ms after the start: sends fail with "
			"-FI_ENETDOWN until it comes up", port->name, LINK_START_WAIT_MS);
}

void
dfi_port_link_recheck(struct dfi_port *port)
{
	struct dfi_port_rt *rt = port->rt;
	uint64_t now = rte_get_timer_cycles();

	if (now < __atomic_load_n(&rt->next_recheck_tsc, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(&rt->next_recheck_tsc, now + rte_get_timer_hz() / 1000 * LINK_RECHECK_MS,
			 __ATOMIC_RELAXED);
	link_update(port);
}

int
dfi_port_start(struct dfi_port *port)
{
	struct dfi_port_rt *rt = port->rt;
	bool memif = dfi_memif_is(port->port_id);
	bool lockfree = dfi_port_single_lockfree(port) && (!memif || dfi_intr_gate_lockfree());
	int ret = 0;

	pthread_mutex_lock(&rt->ctl);
	if (rt->started && rt->users == 0) {
		/* idle since its last endpoint closed: taken as the new one needs */
		rt->locked = !lockfree;
		rt->users = 1;
		goto out;
	}
	if (rt->started) {
		/* A port run lock-free has one domain: a second one must wait. */
		if (!rt->locked && !lockfree) {
			NET_LOG(WARNING, "%s: used lock-free by an FI_THREAD_DOMAIN domain; "
				"a second domain cannot use it meanwhile", port->name);
			ret = -FI_EBUSY;
		} else {
			rt->users++;
		}
		goto out;
	}
	if (memif && !rt->gated) {
		ret = dfi_intr_gate_add(rt);
		rt->gated = ret == 0;
	}
	if (ret == 0)
		ret = port_configure(port);
	if (ret == 0)
		ret = rt->revive ? dfi_memif_client_start(port->port_id, &rt->cc) :
		      rte_eth_dev_start(port->port_id);
	RT_STORE(rt->pmd_started, ret == 0);
	if (ret != 0 && rt->revive) {
		/* a memif client before its server: the port keeps trying */
		NET_LOG(NOTICE, "%s: memif server not there (yet): the port is started again "
			"until it connects", port->name);
		ret = 0;
	}
	if (ret != 0) {
		NET_LOG(ERR, "%s: cannot start: %s", port->name, fi_strerror(-ret));
		ret = ret == -ENOMEM || ret == -FI_ENOMEM ? -FI_ENOMEM :
		      ret == -FI_EINVAL ? -FI_EINVAL : -FI_EIO;
		goto out;
	}
	rt->locked = !lockfree;
	rt->started = true;
	rt->ever_started = true;
	rt->users = 1;
	revive_rearm(rt);
	if (rt->revive && rt->pmd_started)
		revive_handshake(port, rte_get_timer_cycles());
	rt->check_period = rte_get_timer_hz() * TICK_MS / 1000;
	RT_STORE(rt->next_check_tsc, rte_get_timer_cycles());
	rt->bond_primary = dfi_bond_primary(port->port_id);
	/* for the kernel's view of the interfaces: a PMD's may not follow it */
	if ((port->ifname[0] != '\0' || rt->bond_primary != RTE_MAX_ETHPORTS) && rt->link_fd < 0)
		rt->link_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	RT_STORE(rt->next_link_tsc, RT_LOAD(rt->next_check_tsc) + rt->link_period);
	link_update(port);
	link_wait(port);
	NET_LOG(INFO, "%s: started%s", port->name, rt->locked ? "" : ", lock-free");
out:
	pthread_mutex_unlock(&rt->ctl);
	return ret;
}

/* What the port did, for the log at its end. */
static void
port_stats_log(struct dfi_port *port)
{
	struct dfi_port_stats st;

	dfi_port_stats_read(port, &st);
	NET_LOG(INFO, "%s: received %" PRIu64 " (foreign %" PRIu64 ", bad %" PRIu64
		", for no endpoint %" PRIu64 ", backlog full %" PRIu64 ", ARP %" PRIu64
		"), sent %" PRIu64 " (looped back %" PRIu64 ", ARP %" PRIu64
		"), dropped by link changes %" PRIu64 ", at close %" PRIu64, port->name,
		st.rx_pkts, st.rx_foreign, st.rx_bad, st.rx_no_sink, st.rx_backlog_full,
		st.arp_rx, st.tx_pkts, st.tx_loopback, st.arp_tx, st.tx_link_down,
		st.tx_close_dropped);
}

static void
port_halt(struct dfi_port *port)
{
	struct dfi_port_rt *rt = port->rt;
	int ret;

	port_stats_log(port);
	ret = rt->pmd_started ? rte_eth_dev_stop(port->port_id) : 0;
	if (ret != 0)
		NET_LOG(WARNING, "%s: stop: %s", port->name, rte_strerror(-ret));
	RT_STORE(rt->pmd_started, false);
	if (rt->fault != NULL) {
		rte_pktmbuf_free(dfi_fault_release(rt->fault, DFI_FAULT_TX));
		rte_pktmbuf_free(dfi_fault_release(rt->fault, DFI_FAULT_RX));
	}
	dfi_neigh_flush(port);
	/* down until the next start looks */
	if (__atomic_load_n(&rt->link_epoch, __ATOMIC_RELAXED) & 1)
		__atomic_fetch_add(&rt->link_epoch, 1, __ATOMIC_RELEASE);
	if (rt->link_fd >= 0)
		close(rt->link_fd);
	rt->link_fd = -1;
	rt->cc.fd = -1;		/* memif closed it in the stop */
	rt->started = false;
	NET_LOG(INFO, "%s: stopped", port->name);
}

/*
 * The port keeps running without endpoints, until the provider unloads: a
 * stop and a start would flap the link under the peer (a memif peer then
 * tears its rings down in its interrupt thread, which DPDK 22.11 races with
 * a poll of them), and the next endpoint would wait for the link again.
 */
void
dfi_port_stop(struct dfi_port *port)
{
	struct dfi_port_rt *rt = port->rt;

	pthread_mutex_lock(&rt->ctl);
	if (rt->users > 0)
		rt->users--;
	if (rt->users == 0 && rt->fault != NULL) {
		/* a frame the injector holds back leaves with the next burst, and
		 * an idle port has none: it would stay out of the pool */
		rte_pktmbuf_free(fault_take_tx_held(rt));
		rte_pktmbuf_free(dfi_fault_release(rt->fault, DFI_FAULT_RX));
	}
	pthread_mutex_unlock(&rt->ctl);
}

void
dfi_port_tick(struct dfi_port *port, uint64_t now)
{
	struct dfi_port_rt *rt = port->rt;
	uint64_t due = RT_LOAD(rt->next_check_tsc);

	/* one of the threads polling the port runs the tick */
	if (now < due || !__atomic_compare_exchange_n(&rt->next_check_tsc, &due,
						      now + rt->check_period, false,
						      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	dfi_neigh_tick(port, now);
	if (rt->fault != NULL)
		dfi_wire_xmit_shared(port, NULL, 0);	/* a frame held back goes now */
	if (__atomic_exchange_n(&lsc_events[port->port_id], 0, __ATOMIC_ACQ_REL) != 0 ||
	    now >= RT_LOAD(rt->next_link_tsc)) {
		RT_STORE(rt->next_link_tsc, now + rt->link_period);
		link_update(port);
	}
	/* a start or stop under way has ctl: this tick leaves the port to it */
	if (rt->revive && !dfi_port_link_up(port) && now >= RT_LOAD(rt->revive_tsc) &&
	    pthread_mutex_trylock(&rt->ctl) == 0) {
		port_revive(port, now);
		pthread_mutex_unlock(&rt->ctl);
	}
}

void
dfi_port_stats_add(struct dfi_port_stats *to, const struct dfi_port_stats *from)
{
	const uint64_t *f = (const uint64_t *)from;
	uint64_t *t = (uint64_t *)to;
	size_t i;

	for (i = 0; i < sizeof(*to) / sizeof(uint64_t); i++)
		t[i] += f[i];
}

static void
sink_lo_stats_add(struct dfi_sink *sink, void *stats)
{
	dfi_port_stats_add(stats, &sink->lo_qp.own);
}

uint64_t
dfi_port_restarts(const struct dfi_port *port)
{
	return port->rt != NULL ? RT_LOAD(port->rt->revivals) : 0;
}

void
dfi_port_stats_read(const struct dfi_port *port, struct dfi_port_stats *stats)
{
	struct dfi_port_rt *rt = port->rt;
	size_t k;

	*stats = rt->stats;
	for (k = 1; rt->qpairs != NULL && k < rt->nb_queues; k++)
		dfi_port_stats_add(stats, &rt->qpairs[k].own);
	/* the live sinks' loopback counters; a detached sink's are in rt->stats */
	pthread_mutex_lock(&rt->ctl);
	dfi_sinks_each(rt, sink_lo_stats_add, stats);
	pthread_mutex_unlock(&rt->ctl);
}

void
dfi_port_fault_stats(const struct dfi_port *port, struct dfi_fault_stats *stats)
{
	dfi_fault_stats(port->rt != NULL ? port->rt->fault : NULL, stats);
}

void
dfi_queue_fini(struct dfi_port *port, bool own_eal)
{
	struct dfi_port_rt *rt = port->rt;
	unsigned int in_use;
	bool held, release;
	size_t i;

	if (rt == NULL)
		return;
	/* memif stops and closes in the interrupt thread's way */
	held = own_eal && rt->gated && dfi_intr_gate_hold();
	/* An application's EAL may be gone already (rte_eal_cleanup() before
	 * exit): its ports and memory are its own to release. A gated port the
	 * thread did not let us hold stays open too: the thread is in a handler
	 * of memif's, which would go on with the device a close releases. */
	release = own_eal && (!rt->gated || !rt->ever_started || held);
	if (own_eal && !release)
		NET_LOG(WARNING, "%s: the interrupt thread is busy: port left open", port->name);
	/* a port left open: what it did is logged all the same */
	if (!release && rt->started)
		port_stats_log(port);
	if (release && rt->started)
		port_halt(port);
	if (release && rt->ever_started) {
		rte_eth_dev_callback_unregister(port->port_id, RTE_ETH_EVENT_INTR_LSC, lsc_event,
						NULL);
		rte_eth_dev_close(port->port_id);
	}
	if (held)
		dfi_intr_gate_release();
	if (rt->gated)
		dfi_intr_gate_remove(rt);
	if (release && rt->pool != NULL) {
		/* A closed port has given its receive buffers back: all must be home. */
		in_use = rte_mempool_in_use_count(rt->pool);
		if (in_use != 0)
			NET_LOG(WARNING, "%s: %u mbufs never returned", port->name, in_use);
		else
			NET_LOG(INFO, "%s: all %u mbufs returned", port->name, rt->pool->size);
		/*
		 * Not freed: this runs as the process exits, and the EAL is not
		 * cleaned up after it (dfi_eal_fini()), so the kernel takes the
		 * pool's memory back with the rest. DPDK's free zeroes the memory it
		 * takes back: the 48 MB of a jumbo port's pool, in 4 KiB pages
		 * most of which were never touched before, took 9 % of a
		 * short-lived process's CPU time (perf: test/rdm_peer.c over memif).
		 */
	}
	dfi_fault_free(rt->fault);
	for (i = 0; i < RTE_DIM(rt->sinks); i++)
		free(rt->sinks[i]);
	free(rt->steer_used);
	free(rt->qpairs);
	pthread_mutex_destroy(&rt->ctl);
	free(rt);
	port->rt = NULL;
}
