/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The receive demultiplexer, the transmit path and the sinks' UDP ports.
 * The shared queue and the sink table are guarded by the port's rx and tx
 * spinlocks unless a single FI_THREAD_DOMAIN domain drives the port. The
 * loopback (packets to the port's own address) takes no lock: a sink
 * delivers its burst into each receiver's inbox, a ring of many producers,
 * and a detach waits for the bursts under way (loopback_quiesce()).
 */

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_arp.h>
#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_udp.h>

#include "cksum.h"
#include "copy.h"
#include "dfi.h"
#include "intr_gate.h"
#include "net_log.h"
#include "queue.h"
#include "rxtx.h"
#include "steer.h"

/* the header lengths wire.h states without DPDK's structs */
_Static_assert(sizeof(struct rte_ether_hdr) == DFI_ETHER_HDR_LEN, "Ethernet header");
_Static_assert(sizeof(struct rte_ipv4_hdr) == DFI_IPV4_HDR_LEN, "IPv4 header");
_Static_assert(sizeof(struct rte_udp_hdr) == DFI_UDP_HDR_LEN, "UDP header");

#define EPHEMERAL_FIRST	49152
#define EPHEMERAL_COUNT	(65536 - EPHEMERAL_FIRST)
#define BACKLOG_SIZE	1024
/* the sink table's second level: the low byte of a UDP port */
#define SINK_PAGE	256
/* Gate windows a burst waits out before leaving its frames staged. */
#define TX_GATE_TRIES		3

/* How long a close keeps offering its staged frames to a full PMD queue. */
#define CLOSE_FLUSH_MS	100

#define IPV4_VHL	0x45
#define IPV4_TTL	64

/*
 * The data path's unlock: a release store. DPDK's x86 rte_spinlock_unlock()
 * is an xchg, a full barrier that waits for the burst's stores into the
 * memif ring to drain, once per poll and per transmitted burst.
 */
static inline void
wire_unlock(rte_spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

static inline void
rx_lock(struct dfi_port_rt *rt)
{
	if (rt->locked)
		rte_spinlock_lock(&rt->rx_lock);
}

static inline void
rx_unlock(struct dfi_port_rt *rt)
{
	if (rt->locked)
		wire_unlock(&rt->rx_lock);
}

/* -- the sink table -- */

static inline struct dfi_sink *
sink_lookup(const struct dfi_port_rt *rt, rte_be16_t udp_port)
{
	uint16_t p = rte_be_to_cpu_16(udp_port);
	struct dfi_sink **page = __atomic_load_n(&rt->sinks[p >> 8], __ATOMIC_ACQUIRE);

	/* read without the rx lock by dedicated queues and the loopback */
	return page != NULL ? __atomic_load_n(&page[p & 0xff], __ATOMIC_ACQUIRE) : NULL;
}

/* Under ctl and the rx lock. */
static int
sink_slot_set(struct dfi_port_rt *rt, uint16_t p, struct dfi_sink *sink)
{
	struct dfi_sink **page = rt->sinks[p >> 8];

	if (page == NULL) {
		page = calloc(SINK_PAGE, sizeof(*page));
		if (page == NULL)
			return -FI_ENOMEM;
		__atomic_store_n(&rt->sinks[p >> 8], page, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&page[p & 0xff], sink, __ATOMIC_RELEASE);
	return 0;
}

void
dfi_sinks_each(struct dfi_port_rt *rt, void (*fn)(struct dfi_sink *sink, void *arg), void *arg)
{
	struct dfi_sink *s;
	uint32_t pg, i;

	for (pg = 0; pg < RTE_DIM(rt->sinks); pg++) {
		for (i = 0; rt->sinks[pg] != NULL && i < SINK_PAGE; i++) {
			s = rt->sinks[pg][i];
			if (s != NULL)
				fn(s, arg);
		}
	}
}

/* A UDP socket on the kernel interface keeps kernel applications off the
 * port and keeps the kernel from answering our packets with ICMP. */
static int
kernel_reserve(const struct dfi_port *port, uint16_t p)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(p) };
	int fd, small = 1;

	sin.sin_addr.s_addr = port->ipv4;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) != 0) {
		close(fd);
		return errno == EADDRINUSE ? -FI_EADDRINUSE : -errno;
	}
	return fd;
}

/* A ring for packets to the sink, on the port's socket if it can be. */
static struct rte_ring *
sink_ring(const struct dfi_port *port, const char *what, unsigned int flags)
{
	char name[RTE_RING_NAMESIZE];
	static uint32_t ring_id;
	struct rte_ring *r;

	snprintf(name, sizeof(name), "dfi_%s_%u", what,
		 __atomic_fetch_add(&ring_id, 1, __ATOMIC_RELAXED));
	r = rte_ring_create(name, BACKLOG_SIZE, port->socket_id, flags);
	return r != NULL ? r : rte_ring_create(name, BACKLOG_SIZE, SOCKET_ID_ANY, flags);
}

/* Under ctl: takes p for the sink if nobody has it. */
static int
sink_take(struct dfi_port *port, struct dfi_sink *sink, uint16_t p)
{
	struct dfi_port_rt *rt = port->rt;
	int fd = -1, ret;

	if (p == 0 || sink_lookup(rt, rte_cpu_to_be_16(p)) != NULL)
		return -FI_EADDRINUSE;
	if (port->ip_origin == DFI_IP_KERNEL) {
		fd = kernel_reserve(port, p);
		if (fd < 0)
			return fd;
	}
	rte_spinlock_lock(&rt->rx_lock);
	ret = sink_slot_set(rt, p, sink);
	rte_spinlock_unlock(&rt->rx_lock);
	if (ret != 0) {
		if (fd >= 0)
			close(fd);
		return ret;
	}
	sink->kernel_fd = fd;
	sink->udp_port = rte_cpu_to_be_16(p);
	return 0;
}

int
dfi_sink_attach(struct dfi_port *port, struct dfi_sink *sink, rte_be16_t *udp_port, void *owner)
{
	struct dfi_port_rt *rt = port->rt;
	uint32_t i;
	int ret = -FI_EADDRINUSE;

	memset(sink, 0, sizeof(*sink));
	sink->port = port;
	sink->owner = owner;
	sink->kernel_fd = -1;
	sink->encap = DFI_SINK_ENCAP_UNKNOWN;
	sink->tx_epoch = dfi_port_link_epoch(port) | 1;
	sink->lo_qp.stats = &sink->lo_qp.own;
	/* one producer at a time (the rx lock), one consumer (the owner) */
	sink->backlog = sink_ring(port, "bl", RING_F_SP_ENQ | RING_F_SC_DEQ);
	/* any sink of the port may loop a packet back to it, unlocked */
	sink->inbox = sink_ring(port, "lo", RING_F_SC_DEQ);
	if (sink->backlog == NULL || sink->inbox == NULL) {
		ret = -FI_ENOMEM;
		goto err_rings;
	}

	pthread_mutex_lock(&rt->ctl);
	if (*udp_port != 0) {
		ret = sink_take(port, sink, rte_be_to_cpu_16(*udp_port));
	} else {
		for (i = 0; i < EPHEMERAL_COUNT && ret == -FI_EADDRINUSE; i++) {
			ret = sink_take(port, sink, (uint16_t)(EPHEMERAL_FIRST +
					(rt->ephemeral_next + i) % EPHEMERAL_COUNT));
		}
		rt->ephemeral_next += i;
	}
	pthread_mutex_unlock(&rt->ctl);
	if (ret != 0) {
		NET_LOG(INFO, "%s: UDP port %u: %s", port->name, rte_be_to_cpu_16(*udp_port),
			ret == -FI_EADDRINUSE ? "in use" : "no memory");
		goto err_rings;
	}
	*udp_port = sink->udp_port;
	return 0;

err_rings:
	rte_ring_free(sink->inbox);
	rte_ring_free(sink->backlog);
	return ret;
}

/*
 * Under ctl, a sink just out of the table: waits until no sink of the port
 * is still delivering a loopback burst, which may have found it before it
 * left. A sender raises lo_busy, then looks the receiver up; this clears
 * the slot, then looks at lo_busy: with a full fence between on both sides,
 * one of the two sees the other.
 */
static void
loopback_wait(struct dfi_sink *sink, void *arg __rte_unused)
{
	while (__atomic_load_n(&sink->lo_busy, __ATOMIC_ACQUIRE) != 0)
		rte_pause();
}

static void
loopback_quiesce(struct dfi_port_rt *rt)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	dfi_sinks_each(rt, loopback_wait, NULL);
}

void
dfi_sink_move(struct dfi_sink *to, struct dfi_sink *from, void *owner)
{
	struct dfi_port_rt *rt = from->port->rt;

	pthread_mutex_lock(&rt->ctl);
	rte_spinlock_lock(&rt->rx_lock);
	*to = *from;
	to->owner = owner;
	to->lo_qp.stats = &to->lo_qp.own;
	/* the port's table named from: it names to now (a new page is never
	 * needed, the slot exists) */
	sink_slot_set(rt, rte_be_to_cpu_16(to->udp_port), to);
	rte_spinlock_unlock(&rt->rx_lock);
	/* a loopback sender may have found from (not active: it takes nothing) */
	loopback_quiesce(rt);
	pthread_mutex_unlock(&rt->ctl);
	memset(from, 0, sizeof(*from));
	from->kernel_fd = -1;
}

int
dfi_sink_activate(struct dfi_sink *sink)
{
	struct dfi_port *port = sink->port;
	int ret;

	ret = dfi_port_start(port);
	if (ret != 0)
		return ret;
	/* rules match UDP: a raw-Ethernet endpoint's packets come on queue 0 */
	if (sink->encap != DFI_ENCAP_ETH)
		dfi_steer_attach(port, sink);
	__atomic_store_n(&sink->active, 1, __ATOMIC_RELEASE);
	return 0;
}

/* The sink's encapsulation is known now: a raw-Ethernet sink gives its
 * steered queue back, since no packet of its ever reaches that queue. */
static void
sink_encap_seen(struct dfi_sink *sink, enum dfi_encap encap)
{
	sink->encap = (uint8_t)encap;
	if (encap == DFI_ENCAP_ETH && sink->queue != 0) {
		NET_LOG(INFO, "%s: UDP port %u sends raw Ethernet: queue %u given back",
			sink->port->name, rte_be_to_cpu_16(sink->udp_port), sink->queue);
		dfi_steer_detach(sink->port, sink);
	}
	__atomic_store_n(&sink->eth_seen, 0, __ATOMIC_RELAXED);
}

/* Frees the frames the sink staged, counting them in *counter. */
static void
sink_drop_staged(struct dfi_sink *sink, uint64_t *counter, const char *why)
{
	if (sink->nb_tx == 0)
		return;
	rte_pktmbuf_free_bulk(sink->tx, sink->nb_tx);
	__atomic_fetch_add(counter, sink->nb_tx, __ATOMIC_RELAXED);
	NET_LOG(INFO, "%s: UDP port %u: %u staged frames dropped: %s", sink->port->name,
		rte_be_to_cpu_16(sink->udp_port), sink->nb_tx, why);
	sink->nb_tx = 0;
}

/* An orderly close: what the endpoint staged (and reported as sent) leaves. */
static void
sink_drain_tx(struct dfi_sink *sink)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * CLOSE_FLUSH_MS;

	while (dfi_sink_flush(sink) > 0 && rte_get_timer_cycles() < end)
		rte_pause();
	sink_drop_staged(sink, &sink->port->rt->stats.tx_close_dropped,
			 "the PMD refused them until the close's deadline");
}

void
dfi_sink_detach(struct dfi_sink *sink)
{
	struct dfi_port *port = sink->port;
	struct dfi_port_rt *rt = port->rt;
	struct rte_mbuf *m;
	bool was_active = sink->active != 0;

	pthread_mutex_lock(&rt->ctl);
	/* after this no poller can reach the sink */
	rte_spinlock_lock(&rt->rx_lock);
	__atomic_store_n(&sink->active, 0, __ATOMIC_RELAXED);
	sink_slot_set(rt, rte_be_to_cpu_16(sink->udp_port), NULL);
	rte_spinlock_unlock(&rt->rx_lock);
	loopback_quiesce(rt);
	pthread_mutex_unlock(&rt->ctl);

	if (was_active)
		sink_drain_tx(sink);
	dfi_steer_detach(port, sink);
	/* its loopback counters join the port's, which the rx lock's holders write */
	rte_spinlock_lock(&rt->rx_lock);
	dfi_port_stats_add(&rt->stats, &sink->lo_qp.own);
	rte_spinlock_unlock(&rt->rx_lock);
	while (rte_ring_sc_dequeue(sink->backlog, (void **)&m) == 0)
		rte_pktmbuf_free(m);
	while (rte_ring_sc_dequeue(sink->inbox, (void **)&m) == 0)
		rte_pktmbuf_free(m);
	rte_ring_free(sink->inbox);
	rte_ring_free(sink->backlog);
	if (sink->kernel_fd >= 0)
		close(sink->kernel_fd);
	if (was_active)
		dfi_port_stop(port);
}

/* -- receive -- */

/*
 * What the PMD says of a received checksum: GOOD, or NONE (the field is not
 * right in the data, a virtual device's partial sum, but the data was
 * verified) pass; BAD fails; UNKNOWN is checked in software.
 */
static bool
ipv4_cksum_ok(const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip)
{
	uint64_t f = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;

	if (f == RTE_MBUF_F_RX_IP_CKSUM_GOOD || f == RTE_MBUF_F_RX_IP_CKSUM_NONE)
		return true;
	if (f == RTE_MBUF_F_RX_IP_CKSUM_BAD)
		return false;
	return dfi_ipv4_cksum(ip) == 0;
}

static bool
udp_cksum_ok(const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip,
	     const struct rte_udp_hdr *udp)
{
	uint64_t f = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;

	if (f == RTE_MBUF_F_RX_L4_CKSUM_GOOD || f == RTE_MBUF_F_RX_L4_CKSUM_NONE ||
	    udp->dgram_cksum == 0)
		return true;
	if (f == RTE_MBUF_F_RX_L4_CKSUM_BAD)
		return false;
	return dfi_udp_sum(m, ip, (uint32_t)((const uint8_t *)udp -
					     rte_pktmbuf_mtod(m, const uint8_t *))) == 0xffff;
}

/*
 * The provider's own header, with avail bytes of it in the first segment:
 * our version (or a later one asking for a connection, answered in ours), a
 * known type, and every reserved field and flag zero.
 */
static bool
hdr_ours(const struct dfi_hdr *hdr, uint32_t avail)
{
	const struct dfi_rdm_hdr *rdm = (const struct dfi_rdm_hdr *)hdr;

	if (unlikely(hdr->version != DFI_WIRE_VERSION))
		return hdr->version > DFI_WIRE_VERSION && hdr->type == DFI_PKT_RDM_CONN;
	if (hdr->type == DFI_PKT_DGRAM)
		return hdr->reserved == 0 &&
		       (hdr->flags & ~rte_cpu_to_be_16(DFI_HDR_F_CQ_DATA)) == 0;
	return ((hdr->type >= DFI_PKT_RDM_CONN && hdr->type <= DFI_PKT_RDM_LAST) ||
		(hdr->type >= DFI_PKT_CM_REQ && hdr->type <= DFI_PKT_CM_LAST)) &&
	       avail >= sizeof(*rdm) && rdm->reserved == 0;
}

/*
 * The tail of both encapsulations: the datagram of len bytes at off is the
 * provider's, for sink; m is adjusted to it. @return sink, or NULL (counted;
 * m is then still the caller's).
 */
static struct dfi_sink *
accept_pkt(struct dfi_port *port, struct dfi_qpair *qp, struct dfi_sink *sink,
	   struct rte_mbuf *m, uint16_t off, uint16_t len, uint32_t src_ip, rte_be16_t src_port)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	uint32_t avail = rte_pktmbuf_data_len(m) - (uint32_t)off;
	struct dfi_rx_meta *meta;

	if (unlikely(len < sizeof(struct dfi_hdr) || avail < sizeof(struct dfi_hdr) ||
		     !hdr_ours(rte_pktmbuf_mtod_offset(m, const struct dfi_hdr *, off),
			       RTE_MIN(avail, (uint32_t)len)))) {
		NET_LOG(DEBUG, "%s: a datagram for UDP port %u is not the provider's",
			port->name, rte_be_to_cpu_16(sink->udp_port));
		qp->stats->rx_foreign++;
		return NULL;
	}
	meta = dfi_rx_meta(m);
	meta->src_ip = src_ip;
	meta->src_port = src_port;
	rte_ether_addr_copy(&eth->src_addr, (struct rte_ether_addr *)meta->src_mac);
	meta->encap = eth->ether_type == rte_cpu_to_be_16(DFI_ETHER_TYPE) ? DFI_ENCAP_ETH :
									     DFI_ENCAP_UDP;
	/* the sender is a neighbour: no ARP needed to answer it */
	if (src_ip != 0 && dfi_port_on_link(port, src_ip))
		dfi_neigh_note(&port->rt->neigh, &qp->last, port, src_ip, &eth->src_addr);
	rte_pktmbuf_adj(m, off);
	rte_pktmbuf_trim(m, (uint16_t)(rte_pktmbuf_pkt_len(m) - len));
	return sink;
}

/* IPv4/UDP: the sink the datagram is for, or NULL (m is then still the caller's). */
static struct dfi_sink *
classify_udp(struct dfi_port *port, struct dfi_qpair *qp, struct rte_mbuf *m,
	     const struct rte_ether_hdr *eth)
{
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eth + 1);
	struct dfi_port_stats *st = qp->stats;
	const struct rte_udp_hdr *udp;
	struct dfi_sink *sink;
	uint16_t ip_len, udp_len, hlen;

	if (unlikely(rte_pktmbuf_data_len(m) < DFI_UDP_HDRS_LEN)) {
		st->rx_bad++;
		return NULL;
	}
	/* IPv4/UDP is addressed by IPv4 address: the NIC's MAC filter has done
	 * its part, and a MAC a neighbour's cache got wrong (a corrupted frame
	 * on a point-to-point wire) still reaches us here */
	if (ip->next_proto_id != IPPROTO_UDP || ip->dst_addr != port->ipv4) {
		st->rx_foreign++;
		return NULL;
	}
	hlen = (uint16_t)((ip->version_ihl & 0xf) * 4);
	ip_len = rte_be_to_cpu_16(ip->total_length);
	if (unlikely(ip->version_ihl != IPV4_VHL || (ip->fragment_offset &
						      rte_cpu_to_be_16(0x3fff)) != 0 ||
		     ip_len < hlen + sizeof(*udp) ||
		     ip_len > rte_pktmbuf_pkt_len(m) - sizeof(*eth) || !ipv4_cksum_ok(m, ip))) {
		st->rx_bad++;
		return NULL;
	}
	udp = (const struct rte_udp_hdr *)((const uint8_t *)ip + hlen);
	udp_len = rte_be_to_cpu_16(udp->dgram_len);
	sink = sink_lookup(port->rt, udp->dst_port);
	if (sink == NULL || !__atomic_load_n(&sink->active, __ATOMIC_ACQUIRE)) {
		st->rx_no_sink++;
		return NULL;
	}
	if (unlikely(udp_len != ip_len - hlen || !udp_cksum_ok(m, ip, udp))) {
		st->rx_bad++;
		return NULL;
	}
	return accept_pkt(port, qp, sink, m, (uint16_t)(sizeof(*eth) + hlen + sizeof(*udp)),
			  (uint16_t)(udp_len - sizeof(*udp)), ip->src_addr, udp->src_port);
}

static struct dfi_sink *
classify_eth(struct dfi_port *port, struct dfi_qpair *qp, struct rte_mbuf *m,
	     const struct rte_ether_hdr *eth)
{
	const struct dfi_eth_shim *shim = (const struct dfi_eth_shim *)(eth + 1);
	struct dfi_port_stats *st = qp->stats;
	struct dfi_sink *sink;
	uint16_t len;

	if (unlikely(rte_pktmbuf_data_len(m) < DFI_ETH_HDRS_LEN)) {
		st->rx_bad++;
		return NULL;
	}
	len = rte_be_to_cpu_16(shim->len);
	/* raw Ethernet is addressed by MAC */
	if (!rte_is_same_ether_addr(&eth->dst_addr, dfi_port_mac(port)) || shim->reserved != 0 ||
	    (shim->dst_ip != 0 && shim->dst_ip != port->ipv4)) {
		st->rx_foreign++;
		return NULL;
	}
	if (unlikely(len > rte_pktmbuf_pkt_len(m) - DFI_ETH_HDRS_LEN)) {
		st->rx_bad++;
		return NULL;
	}
	sink = sink_lookup(port->rt, shim->dst_port);
	if (sink == NULL || !__atomic_load_n(&sink->active, __ATOMIC_ACQUIRE)) {
		st->rx_no_sink++;
		return NULL;
	}
	/* its endpoint speaks raw Ethernet: the owner gives its UDP queue back */
	if (unlikely(sink->queue != 0))
		__atomic_store_n(&sink->eth_seen, 1, __ATOMIC_RELAXED);
	return accept_pkt(port, qp, sink, m, DFI_ETH_HDRS_LEN, len, shim->src_ip,
			  shim->src_port);
}

/*
 * Sorts one frame received on qp's queue: returns the sink it is for (m
 * adjusted to its dfi_hdr), or NULL when the frame was consumed (ARP) or
 * dropped. On queue 0 the rx lock is held.
 */
static struct dfi_sink *
classify(struct dfi_port *port, struct dfi_qpair *qp, struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	struct dfi_port_stats *st = qp->stats;
	struct dfi_sink *sink = NULL;

	st->rx_pkts++;
	if (unlikely(rte_pktmbuf_data_len(m) < sizeof(*eth))) {
		st->rx_bad++;
	} else if (eth->ether_type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4)) {
		sink = classify_udp(port, qp, m, eth);
	} else if (eth->ether_type == rte_cpu_to_be_16(DFI_ETHER_TYPE)) {
		sink = classify_eth(port, qp, m, eth);
	} else if (eth->ether_type == rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP)) {
		st->arp_rx++;
		dfi_neigh_input(port, m);
		return NULL;
	} else {
		st->rx_foreign++;
	}
	if (sink != NULL)
		return sink;
	rte_pktmbuf_free(m);
	return NULL;
}

/* Delivers a classified packet to another sink (rx lock held). */
static void
to_backlog(struct dfi_port *port, struct dfi_sink *sink, struct rte_mbuf *m)
{
	if (unlikely(rte_ring_sp_enqueue(sink->backlog, m) != 0)) {
		port->rt->stats.rx_backlog_full++;
		rte_pktmbuf_free(m);
	}
}

static void
port_poll(struct dfi_sink *self, uint16_t queue, struct rte_mbuf **pkts, uint16_t n,
	  uint16_t *got)
{
	struct dfi_port *port = self->port;
	struct dfi_port_rt *rt = port->rt;
	struct dfi_qpair *qp = &rt->qpairs[queue];
	struct rte_mbuf *burst[DFI_RX_BURST], *faulty[2 * DFI_RX_BURST + 1], **in = burst;
	struct dfi_sink *sink;
	uint16_t i, nb, max = DFI_RX_BURST;
	bool shared = queue < rt->nb_shared;

	/* a steered queue is its owner's: take no more than the owner has room for */
	if (!shared)
		max = (uint16_t)RTE_MIN(max, n - *got);
	/* a port being restarted to connect again (queue.c), or whose memif
	 * control runs now (intr_gate.c), has nothing to give */
	nb = 0;
	if (max > 0 && dfi_wire_enter(rt)) {
		nb = rte_eth_rx_burst(port->port_id, queue, burst, max);
		dfi_wire_leave(rt);
	}
	if (unlikely(rt->fault != NULL)) {
		/* under the rx lock, which a dedicated queue does not take otherwise */
		if (!shared)
			rx_lock(rt);
		nb = dfi_fault_apply(rt->fault, DFI_FAULT_RX, burst, nb, faulty);
		if (!shared)
			rx_unlock(rt);
		in = faulty;
	}
	for (i = 0; i < nb; i++) {
		sink = classify(port, qp, in[i]);
		if (sink == NULL)
			continue;
		if (sink == self && *got < n) {
			pkts[(*got)++] = in[i];
		} else if (shared) {
			to_backlog(port, sink, in[i]);
		} else {
			/* backlogs have one producer: the rx lock's holder */
			rx_lock(rt);
			to_backlog(port, sink, in[i]);
			rx_unlock(rt);
		}
	}
}

/*
 * A thread that is not an lcore has no mempool cache: every mbuf it takes or
 * gives back goes through the pool's shared ring, whose head and tail bounce
 * between the cores of threads that each drive their own endpoint. Such a
 * thread becomes a (non-EAL) lcore the first time it polls, and gives its
 * lcore id back when it exits.
 */
static __thread bool thread_seen;
static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;

/* adopted threads that exited: a new thread may have an old one's pointer */
uint32_t dfi_thread_exits;

static void
thread_exit(void *arg __rte_unused)
{
	rte_thread_unregister();
	__atomic_add_fetch(&dfi_thread_exits, 1, __ATOMIC_RELAXED);
}

static void
thread_key_create(void)
{
	if (pthread_key_create(&thread_key, thread_exit) != 0)
		thread_key = (pthread_key_t)-1;
}

static void
thread_adopt(void)
{
	thread_seen = true;
	if (!__atomic_load_n(&dfi_queue_conf.lcore_threads, __ATOMIC_RELAXED) ||
	    rte_lcore_id() != LCORE_ID_ANY)
		return;
	pthread_once(&thread_key_once, thread_key_create);
	if (thread_key == (pthread_key_t)-1)
		return;
	if (rte_thread_register() != 0) {
		NET_LOG(INFO, "this thread stays without an lcore (mbufs without a cache): %s",
			rte_strerror(rte_errno));
		return;
	}
	pthread_setspecific(thread_key, (void *)1);
}

/* The shared queues, under the rx lock where the port has one. */
static inline void
shared_poll(struct dfi_sink *self, struct rte_mbuf **pkts, uint16_t n, uint16_t *got)
{
	uint16_t q;

	port_poll(self, 0, pkts, n, got);
	for (q = 1; unlikely(q < self->port->rt->nb_shared); q++)
		port_poll(self, q, pkts, n, got);
}

uint16_t
dfi_sink_recv(struct dfi_sink *sink, struct rte_mbuf **pkts, uint16_t n)
{
	struct dfi_port *port = sink->port;
	struct dfi_port_rt *rt = port->rt;
	uintptr_t self = dfi_thread_self();
	uint32_t exits = __atomic_load_n(&dfi_thread_exits, __ATOMIC_RELAXED);
	uint16_t got;

	/* a thread that polls the sink again was seen, unless an adopted one
	 * exited since (glibc hands a new thread an old one's pointer); several
	 * that take turns (FI_THREAD_SAFE) each look at their own flag */
	if (unlikely(!dfi_sink_polled_by(sink, self, exits))) {
		__atomic_store_n(&sink->poller, self, __ATOMIC_RELAXED);
		__atomic_store_n(&sink->poller_exits, exits, __ATOMIC_RELAXED);
		if (!thread_seen)
			thread_adopt();
		/* its lcore's, for as long as it is the poller (dfi_sink_mbuf()) */
		sink->mbufs = rte_mempool_default_cache(rt->pool, rte_lcore_id());
	}

	/* what others received or looped back for us came first */
	got = (uint16_t)rte_ring_sc_dequeue_burst(sink->backlog, (void **)pkts, n, NULL);
	if (got < n)
		got += (uint16_t)rte_ring_sc_dequeue_burst(sink->inbox, (void **)pkts + got,
							   n - got, NULL);
	if (got == n)
		return got;
	if (sink->queue != 0) {
		if (unlikely(__atomic_load_n(&sink->eth_seen, __ATOMIC_RELAXED) != 0))
			sink_encap_seen(sink, DFI_ENCAP_ETH);
		else
			port_poll(sink, sink->queue, pkts, n, &got);
	}
	if (!rt->locked) {
		shared_poll(sink, pkts, n, &got);
	} else if (rte_spinlock_trylock(&rt->rx_lock)) {
		/* another thread polling the shared queues delivers to our backlog */
		shared_poll(sink, pkts, n, &got);
		wire_unlock(&rt->rx_lock);
	}
	if (unlikely(++sink->polls % DFI_TICK_POLLS == 0))
		dfi_port_tick(port, rte_get_timer_cycles());
	return got;
}

/* -- transmit -- */

/* Puts a run of looped-back packets into to's inbox; what does not fit is
 * dropped and counted by the sender. */
static void
inbox_put(struct dfi_sink *self, struct dfi_sink *to, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t put = (uint16_t)rte_ring_mp_enqueue_burst(to->inbox, (void **)pkts, n, NULL);

	if (unlikely(put < n)) {
		self->lo_qp.own.rx_backlog_full += n - put;
		rte_pktmbuf_free_bulk(pkts + put, n - put);
	}
}

/*
 * Delivers the packets a sink sent to its own port's address into their
 * sinks' inboxes. No lock: threads that each drive their own contexts on one
 * port spun on queue 0's rx lock here (perf: a third of a two-context run),
 * so the sender demultiplexes with its own counters and its lo_busy flag
 * keeps the receivers it finds from being freed meanwhile.
 */
static void
loopback_flush(struct dfi_sink *self)
{
	struct dfi_port *port = self->port;
	struct rte_mbuf *out[DFI_TX_BURST];
	struct dfi_sink *sink, *to = NULL;
	uint16_t i, nb_out = 0;

	__atomic_store_n(&self->lo_busy, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* before any lookup: see loopback_quiesce() */
	self->lo_qp.own.tx_loopback += self->nb_lo;
	for (i = 0; i < self->nb_lo; i++) {
		/* never on a wire: nothing to verify */
		self->lo[i]->ol_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
		sink = classify(port, &self->lo_qp, self->lo[i]);
		if (sink == NULL)
			continue;
		/* a run of packets to one receiver goes in at once */
		if (sink != to && nb_out != 0) {
			inbox_put(self, to, out, nb_out);
			nb_out = 0;
		}
		to = sink;
		out[nb_out++] = self->lo[i];
	}
	if (nb_out != 0)
		inbox_put(self, to, out, nb_out);
	__atomic_store_n(&self->lo_busy, 0, __ATOMIC_RELEASE);
	self->nb_lo = 0;
}

bool
dfi_sink_dst_local(const struct dfi_sink *sink, const struct dfi_addr *dst)
{
	const struct dfi_port *port = sink->port;

	if (dst->kind == DFI_ADDR_IPV4)
		return dst->ipv4 == port->ipv4;
	return memcmp(dst->mac, port->mac, RTE_ETHER_ADDR_LEN) == 0;
}

/* Builds the headers to dst into r (the MAC of an unresolved neighbour
 * left zero). @return 0, 1 when the next hop must still be resolved, or a
 * negative error. */
static int
route_fill(const struct dfi_sink *sink, enum dfi_encap encap, const struct dfi_addr *dst,
	   struct dfi_route *r)
{
	const struct dfi_port *port = sink->port;
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)r->hdr;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	struct dfi_eth_shim *shim = (struct dfi_eth_shim *)(eth + 1);
	uint64_t offloads = port->rt->tx_offloads;
	uint32_t hop = 0;
	int ret = 0;

	if (unlikely(encap == DFI_ENCAP_UDP && dst->kind != DFI_ADDR_IPV4))
		return -FI_EINVAL;
	memset(r, 0, sizeof(*r));
	r->neigh_gen = dfi_neigh_gen(&port->rt->neigh);
	r->local = dfi_sink_dst_local(sink, dst);
	if (dst->kind == DFI_ADDR_IPV4) {
		hop = r->local ? dst->ipv4 : dfi_port_next_hop(port, dst->ipv4);
		if (unlikely(hop == 0))
			return -FI_EHOSTUNREACH;
	} else {
		memcpy(eth->dst_addr.addr_bytes, dst->mac, RTE_ETHER_ADDR_LEN);
	}
	if (r->local)
		rte_ether_addr_copy(dfi_port_mac(port), &eth->dst_addr);
	else if (hop != 0 && dfi_neigh_lookup(port, hop, &eth->dst_addr) != 0)
		ret = 1;
	rte_ether_addr_copy(dfi_port_mac(port), &eth->src_addr);
	if (encap == DFI_ENCAP_UDP) {
		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		ip->version_ihl = IPV4_VHL;
		ip->type_of_service = sink->tos;
		ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
		ip->time_to_live = IPV4_TTL;
		ip->next_proto_id = IPPROTO_UDP;
		ip->src_addr = port->ipv4;
		ip->dst_addr = dst->ipv4;
		udp->src_port = sink->udp_port;
		udp->dst_port = dst->port;
		r->hdr_len = DFI_UDP_HDRS_LEN;
		r->sw_udp = !sink->no_sw_udp_cksum;
		/* the looped back never meet a wire: nothing to offload */
		if (!r->local && (offloads & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM))
			r->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
		if (!r->local && (offloads & RTE_ETH_TX_OFFLOAD_UDP_CKSUM))
			r->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_UDP_CKSUM;
		r->ip_sum = dfi_cksum_fold(dfi_cksum_add(ip, sizeof(*ip), 0));
		r->phdr_sum = (uint64_t)ip->src_addr + ip->dst_addr +
			      rte_cpu_to_be_16(IPPROTO_UDP);
		r->udp_sum = r->phdr_sum + udp->src_port + udp->dst_port;
	} else {
		eth->ether_type = rte_cpu_to_be_16(DFI_ETHER_TYPE);
		/* IPv4 addressing rides along when the peer has some */
		shim->src_ip = dst->kind == DFI_ADDR_IPV4 ? port->ipv4 : 0;
		shim->dst_ip = dst->kind == DFI_ADDR_IPV4 ? dst->ipv4 : 0;
		shim->src_port = sink->udp_port;
		shim->dst_port = dst->port;
		r->hdr_len = DFI_ETH_HDRS_LEN;
	}
	r->dst = *dst;
	r->encap = (uint8_t)encap;
	return ret;
}

static inline bool
route_matches(const struct dfi_route *r, enum dfi_encap encap, const struct dfi_addr *dst,
	      uint32_t gen)
{
	return r->dst.kind == dst->kind && r->dst.port == dst->port && r->encap == encap &&
	       r->neigh_gen == gen && (dst->kind == DFI_ADDR_IPV4 ?
				       r->dst.ipv4 == dst->ipv4 :
				       memcmp(r->dst.mac, dst->mac, RTE_ETHER_ADDR_LEN) == 0);
}

/* Puts r's headers in front of m's data and completes them for its length. */
static inline void
route_apply(const struct dfi_route *r, struct rte_mbuf *m)
{
	uint8_t *h = (uint8_t *)rte_pktmbuf_prepend(m, r->hdr_len);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(h + sizeof(struct rte_ether_hdr));
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	struct dfi_eth_shim *shim = (struct dfi_eth_shim *)ip;
	uint32_t len = rte_pktmbuf_pkt_len(m) - sizeof(struct rte_ether_hdr);
	rte_be16_t l3_len, l4_len;
	uint64_t sum;

	m->ol_flags = r->ol_flags;
	if (r->encap == DFI_ENCAP_ETH) {
		memcpy(h, r->hdr, DFI_ETH_HDRS_LEN);
		shim->len = rte_cpu_to_be_16((uint16_t)(len - sizeof(*shim)));
		return;
	}
	memcpy(h, r->hdr, DFI_UDP_HDRS_LEN);
	l3_len = rte_cpu_to_be_16((uint16_t)len);
	l4_len = rte_cpu_to_be_16((uint16_t)(len - sizeof(*ip)));
	ip->total_length = l3_len;
	udp->dgram_len = l4_len;
	m->l2_len = sizeof(struct rte_ether_hdr);
	m->l3_len = sizeof(*ip);
	if (r->local)
		return;		/* looped back as verified */
	if (!(r->ol_flags & RTE_MBUF_F_TX_IP_CKSUM))
		ip->hdr_checksum = (uint16_t)~dfi_cksum_fold((uint64_t)r->ip_sum + l3_len);
	if (r->ol_flags & RTE_MBUF_F_TX_UDP_CKSUM) {
		/* the PMD wants the pseudo-header's sum in place */
		udp->dgram_cksum = dfi_cksum_fold(r->phdr_sum + l4_len);
		return;
	}
	if (!r->sw_udp) {
		udp->dgram_cksum = 0;	/* none (IPv4 allows it): the payload has a CRC */
		return;
	}
	/* the pseudo-header and the UDP header each carry the length */
	sum = dfi_cksum_add_mbuf(m, DFI_UDP_HDRS_LEN, len - sizeof(*ip) - sizeof(*udp),
				 r->udp_sum + 2 * (uint64_t)l4_len);
	udp->dgram_cksum = (uint16_t)~dfi_cksum_fold(sum);
	if (udp->dgram_cksum == 0)
		udp->dgram_cksum = 0xffff;	/* 0 would mean "no checksum" */
}

/*
 * The link changed since the sink staged its frames, or it is down: they are
 * dropped, never sent late. @return 0 when the link is up (again), else
 * -FI_ENETDOWN, logged once per endpoint and outage.
 */
static int
sink_link_changed(struct dfi_sink *sink)
{
	struct dfi_port *port = sink->port;
	uint32_t epoch = dfi_port_link_epoch(port);

	if ((epoch & 1) == 0) {
		dfi_port_link_recheck(port);	/* it may be back */
		epoch = dfi_port_link_epoch(port);
	}
	sink_drop_staged(sink, &port->rt->stats.tx_link_down, "the link went down");
	if (epoch & 1) {
		sink->tx_epoch = epoch;
		return 0;
	}
	if (sink->down_noted != epoch + 1) {
		sink->down_noted = epoch + 1;
		DFI_INFO(FI_LOG_EP_DATA, "%s: link down: sends from UDP port %u fail with "
			 "-FI_ENETDOWN until it is back", port->name,
			 rte_be_to_cpu_16(sink->udp_port));
	}
	return -FI_ENETDOWN;
}

void
dfi_sink_neigh_refresh(struct dfi_sink *sink, const struct dfi_addr *dst)
{
	struct dfi_port *port = sink->port;
	uint32_t hop;

	if (dst->kind != DFI_ADDR_IPV4 || dst->ipv4 == port->ipv4)
		return;
	hop = dfi_port_next_hop(port, dst->ipv4);
	if (hop != 0)
		dfi_neigh_forget(port, hop);
}

int
dfi_sink_send(struct dfi_sink *sink, enum dfi_encap encap, const struct dfi_addr *dst,
	      struct rte_mbuf *m)
{
	struct dfi_port *port = sink->port;
	struct dfi_route *r = &sink->route;
	struct dfi_route fresh;
	int ret;

	if (unlikely(sink->nb_tx == DFI_TX_BURST))
		return -FI_EAGAIN;
	if (unlikely(!route_matches(r, encap, dst, dfi_neigh_gen(&port->rt->neigh)))) {
		ret = route_fill(sink, encap, dst, &fresh);
		if (ret < 0)
			return ret;
		if (unlikely(sink->encap != encap))
			sink_encap_seen(sink, encap);
		if (ret > 0) {
			if (!dfi_port_link_up(port) && (ret = sink_link_changed(sink)) != 0)
				return ret;
			/* the first packets to a neighbour wait for its ARP reply */
			route_apply(&fresh, m);
			ret = dfi_neigh_park(port, dfi_port_next_hop(port, dst->ipv4), m);
			if (ret != 0)
				rte_pktmbuf_adj(m, fresh.hdr_len);
			return ret;
		}
		*r = fresh;
	}
	if (r->local) {
		/* the receiver adjusts, chains and holds the frame itself: no
		 * sender keeps a reference to a frame it sent (RDM's kept
		 * injects keep a copy) */
		route_apply(r, m);
		sink->lo[sink->nb_lo++] = m;
		if (unlikely(sink->nb_lo == DFI_TX_BURST))
			loopback_flush(sink);
		return 0;
	}
	/* one load on the way: the staged frames' link is still the port's */
	if (unlikely(dfi_port_link_epoch(port) != sink->tx_epoch)) {
		ret = sink_link_changed(sink);
		if (ret != 0)
			return ret;
	}
	route_apply(r, m);
	sink->tx[sink->nb_tx++] = m;
	sink->tx_bytes += rte_pktmbuf_pkt_len(m);
	if (unlikely(sink->tx_bytes >= port->rt->tx_flush_bytes))
		dfi_sink_flush(sink);
	return 0;
}

/* Under the tx lock for queue 0, and for any queue with faults injected (the
 * injector's state is the port's); what the injector or the PMD did not take
 * counts as lost on the wire. */
static uint16_t
tx_burst_faulty(struct dfi_port *port, uint16_t queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mbuf *out[2 * DFI_TX_BURST + 1];
	uint16_t nb, sent;

	nb = dfi_fault_apply(port->rt->fault, DFI_FAULT_TX, pkts, n, out);
	sent = rte_eth_tx_burst(port->port_id, queue, out, nb);
	if (sent < nb)
		rte_pktmbuf_free_bulk(out + sent, nb - sent);
	port->rt->qpairs[queue].stats->tx_pkts += sent;
	return n;
}

static uint16_t
tx_burst(struct dfi_port *port, uint16_t queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct dfi_port_rt *rt = port->rt;
	bool faulty = rt->fault != NULL;
	bool lock = rt->locked && (queue == 0 || faulty);
	uint16_t sent = 0;
	bool open;
	int tries;

	/* a port being restarted keeps what it was given for later; memif's
	 * control in a gate window is waited out, a few windows at most */
	for (tries = 0; tries < TX_GATE_TRIES; tries++) {
		if (lock)
			rte_spinlock_lock(&rt->tx_lock);
		open = dfi_wire_enter(rt);
		if (likely(open)) {
			if (unlikely(faulty)) {
				sent = tx_burst_faulty(port, queue, pkts,
						       RTE_MIN(n, (uint16_t)DFI_TX_BURST));
			} else {
				sent = rte_eth_tx_burst(port->port_id, queue, pkts, n);
				rt->qpairs[queue].stats->tx_pkts += sent;
			}
			dfi_wire_leave(rt);
		}
		if (lock)
			wire_unlock(&rt->tx_lock);
		if (likely(open) || !dfi_intr_gate_wait(rt))
			break;
	}
	return sent;
}

uint16_t
dfi_sink_flush(struct dfi_sink *sink)
{
	uint16_t sent;

	sink->tx_bytes = 0;
	if (sink->nb_lo != 0)
		loopback_flush(sink);
	/* frames that waited for ARP and found the ring full go first */
	if (unlikely(dfi_neigh_has_ready(&sink->port->rt->neigh)))
		dfi_neigh_retry(sink->port);
	if (sink->nb_tx == 0)
		return 0;
	if (unlikely(dfi_port_link_epoch(sink->port) != sink->tx_epoch)) {
		sink_drop_staged(sink, &sink->port->rt->stats.tx_link_down, "the link went down");
		return 0;
	}
	sent = tx_burst(sink->port, sink->queue, sink->tx, sink->nb_tx);
	if (sent < sink->nb_tx)
		memmove(sink->tx, sink->tx + sent, sizeof(sink->tx[0]) * (sink->nb_tx - sent));
	sink->nb_tx = (uint16_t)(sink->nb_tx - sent);
	return sink->nb_tx;
}

uint16_t
dfi_wire_xmit_some(struct dfi_port *port, struct rte_mbuf **pkts, uint16_t n)
{
	return tx_burst(port, 0, pkts, n);
}

void
dfi_wire_xmit_shared(struct dfi_port *port, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t sent = dfi_wire_xmit_some(port, pkts, n);

	if (sent < n)
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
}
