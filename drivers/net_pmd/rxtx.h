/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Packets in and out of a port. A sink is one receiver on a port, named by a
 * UDP port (also in the raw encapsulation): an endpoint. Whoever polls the
 * port's shared queue sorts what it receives: ARP to the neighbour cache,
 * foreign traffic to the bin, and the provider's packets to the sink they
 * are for, directly when it is the poller, else through that sink's backlog
 * ring. Transmit copies the encapsulation into the mbuf's headroom from a
 * template the sink keeps for its last destination (built once per peer and
 * neighbour change: no header is built field by field and no neighbour is
 * looked up per packet), and batches frames per sink for rte_eth_tx_burst().
 * Packets to the port's own address never touch the PMD: they are looped
 * back to the receiving sink (FI_LOCAL_COMM).
 */

#ifndef _DFI_RXTX_H_
#define _DFI_RXTX_H_

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "addr.h"
#include "port.h"
#include "queue.h"
#include "wire.h"

#define DFI_RX_BURST	32
#define DFI_TX_BURST	64
/*
 * Staged frames leave once they hold this many bytes, whoever asked to wait:
 * a large message's first frames are then on the wire while the rest are
 * built, and the receiver copies frames out while the sender builds the
 * next. At 32 KiB a 64 KiB message over memif left in two bursts of four
 * 9000-byte frames, each waited for whole by the receiver; two frames a
 * burst cost streams nothing measurable, one frame a burst 5 % (design.md,
 * "Transmit"). A PMD whose burst is a system call (af_packet, af_xdp) waits
 * for DFI_TX_FLUSH_BYTES_SYSCALL; the port holds its own figure (struct
 * dfi_port_rt's tx_flush_bytes).
 */
#define DFI_TX_FLUSH_BYTES		(16u << 10)
#define DFI_TX_FLUSH_BYTES_SYSCALL	(32u << 10)
/** Polls of a sink between looks at the clock for the port's timers. */
#define DFI_TICK_POLLS	256

/** What the receive path learnt of a packet, in its mbuf's private area. */
struct dfi_rx_meta {
	uint32_t src_ip;		/* 0 in raw frames of FI_ADDR_DPDK peers */
	rte_be16_t src_port;
	uint8_t src_mac[RTE_ETHER_ADDR_LEN];
	uint8_t encap;			/* enum dfi_encap */
	uint8_t verified;		/* the endpoint checked its payload's CRC */
};

static inline struct dfi_rx_meta *
dfi_rx_meta(struct rte_mbuf *m)
{
	return (struct dfi_rx_meta *)rte_mbuf_to_priv(m);
}

/**
 * The headers of the destination a sink sent to last, ready to copy: only
 * the lengths and checksums change from packet to packet. The partial sums
 * leave the lengths out.
 */
struct dfi_route {
	uint8_t hdr[DFI_MAX_HDRS_LEN];	/* Ethernet and IPv4/UDP, or Ethernet and shim */
	struct dfi_addr dst;		/* the key; dst.kind 0: no route */
	uint8_t encap;			/* the key's other half */
	uint8_t hdr_len;
	uint8_t local;			/* the port's own address: looped back */
	uint8_t sw_udp;			/* UDP checksum in software (no offload) */
	uint32_t neigh_gen;		/* the neighbour cache it was resolved in */
	uint32_t ip_sum;		/* IPv4 header */
	uint64_t phdr_sum;		/* UDP pseudo-header */
	uint64_t udp_sum;		/* UDP pseudo-header and ports */
	uint64_t ol_flags;		/* checksum offloads */
};

/** A sink's encapsulation before its endpoint says or sends. */
#define DFI_SINK_ENCAP_UNKNOWN	0xff

struct dfi_sink {
	struct dfi_port *port;
	struct rte_ring *backlog;	/* packets other pollers received for it */
	struct rte_ring *inbox;		/* packets its port's own sinks sent it (loopback) */
	void *owner;			/* the endpoint */
	rte_be16_t udp_port;
	uint16_t queue;			/* dedicated queue pair, or 0: the shared one */
	uint32_t active;		/* receives while 1 */
	uint8_t no_sw_udp_cksum;	/* its packets carry a CRC: no UDP checksum in software */
	uint8_t tos;			/* IPv4 type of service: DSCP << 2, no ECN */
	/* enum dfi_encap of its endpoint: the endpoint may set it after
	 * dfi_sink_attach(), else its first send or raw frame tells; only a
	 * UDP sink keeps a steered queue */
	uint8_t encap;
	uint32_t eth_seen;		/* a raw frame came for it on queue 0 */
	int kernel_fd;			/* reserves the port on a kernel interface */
	struct rte_flow *flow;		/* steers the port's packets to queue */
	uint32_t polls;
	uintptr_t poller;		/* the thread that polled it last (dfi_sink_recv()) */
	uint32_t poller_exits;		/* adopted threads that had exited then */
	uint32_t tx_epoch;		/* the (odd) link epoch its staged frames belong to */
	uint32_t down_noted;		/* 1 + the down epoch its refusals were logged in */
	uint16_t nb_tx;
	uint16_t nb_lo;
	uint32_t tx_bytes;		/* staged since the last flush */
	/* the mempool cache of the poller's lcore (NULL: it has none), which
	 * the poller's own sends and frees use without a TLS access */
	struct rte_mempool_cache *mbufs;
	struct rte_mbuf *tx[DFI_TX_BURST];	/* built, not yet accepted by the PMD */
	struct rte_mbuf *lo[DFI_TX_BURST];	/* to the port's own address: delivered
						 * at the flush, without a lock */
	struct dfi_route route __rte_cache_aligned;
	/* delivering its loopback burst: a detach waits for it to end */
	uint32_t lo_busy __rte_cache_aligned;
	struct dfi_qpair lo_qp;	/* its loopback's demultiplexing and counters */
};

/**
 * Takes a UDP port on the port for the sink: *udp_port if non-zero, else an
 * ephemeral one, which is returned. The sink receives nothing before
 * dfi_sink_activate().
 *
 * @return 0, -FI_EADDRINUSE, or -FI_ENOMEM.
 */
int dfi_sink_attach(struct dfi_port *port, struct dfi_sink *sink, rte_be16_t *udp_port,
		    void *owner);

/**
 * Moves a sink that is not active yet (attached, not activated) to another
 * place in memory and owner: the port's table holds the sink's address, so a
 * plain copy would leave it pointing at the old place. from is left empty.
 */
void dfi_sink_move(struct dfi_sink *to, struct dfi_sink *from, void *owner);

/** Starts the port if needed and opens the sink to its packets. */
int dfi_sink_activate(struct dfi_sink *sink);

/**
 * Stops receiving, hands the frames still staged to the PMD (for at most
 * 100 ms; what it still refuses then is dropped, counted and logged), frees
 * what waits for the sink, gives its UDP port back.
 */
void dfi_sink_detach(struct dfi_sink *sink);

/**
 * Calls fn on every sink in the port's table (live ones: attached, not yet
 * detached). The caller holds the port's ctl mutex, so that none leaves.
 */
void dfi_sinks_each(struct dfi_port_rt *rt, void (*fn)(struct dfi_sink *sink, void *arg),
		    void *arg);

/**
 * Receives up to n packets for the sink, polling the port. Each packet's data
 * starts at its struct dfi_hdr and its dfi_rx_meta tells the sender.
 */
uint16_t dfi_sink_recv(struct dfi_sink *sink, struct rte_mbuf **pkts, uint16_t n);

/**
 * Sends a packet whose data starts at its struct dfi_hdr (with at least
 * DFI_MAX_HDRS_LEN bytes of headroom) to dst. On success the packet is the
 * wire's: staged for the next flush, held for ARP, or looped back.
 *
 * Frames staged before the link changed are dropped (counted in
 * tx_link_down) rather than sent late.
 *
 * Staged frames holding DFI_TX_FLUSH_BYTES are flushed before it returns.
 *
 * @return 0; -FI_EAGAIN when DFI_TX_BURST packets are staged already;
 *   -FI_ENETDOWN while the port's link is down (unless dst is the port
 *   itself), logged once per endpoint and outage; -FI_EHOSTUNREACH for an
 *   off-link destination without gateway; -FI_EINVAL for an address the
 *   encapsulation cannot carry; -FI_ENOMEM when a frame others hold a
 *   reference to, for the port itself, cannot be copied (a local receiver
 *   gets a copy of such a frame). The caller keeps the packet on error.
 */
int dfi_sink_send(struct dfi_sink *sink, enum dfi_encap encap, const struct dfi_addr *dst,
		  struct rte_mbuf *m);

/**
 * @return whether packets to dst stay on the sink's port: its own address,
 *   looped back to the receiving sink's inbox at the flush (FI_LOCAL_COMM),
 *   never on a wire.
 */
bool dfi_sink_dst_local(const struct dfi_sink *sink, const struct dfi_addr *dst);

/** @return the looped-back packets dropped at a full inbox, since attach. */
static inline uint64_t
dfi_sink_lo_dropped(const struct dfi_sink *sink)
{
	return sink->lo_qp.own.rx_backlog_full;
}

/**
 * dst stopped answering: the MAC of its next hop is asked for again before
 * the next packet to it leaves (nothing to do for a raw-Ethernet address,
 * which is its own MAC).
 */
void dfi_sink_neigh_refresh(struct dfi_sink *sink, const struct dfi_addr *dst);

/**
 * Hands the staged packets to the PMD, or drops them when the link changed
 * since they were staged. @return how many are still staged.
 */
uint16_t dfi_sink_flush(struct dfi_sink *sink);

extern uint32_t dfi_thread_exits;

/*
 * The calling thread, without a TLS access: the provider is a dlopen()ed
 * library, where one is a call to __tls_get_addr(), which every poll made
 * for a thread-local flag, and every mbuf for rte_lcore_id() (callgrind,
 * bench_ep).
 */
static inline uintptr_t
dfi_thread_self(void)
{
#if defined(__GNUC__) && __GNUC__ >= 11 && defined(__x86_64__)
	return (uintptr_t)__builtin_thread_pointer();
#else
	return (uintptr_t)pthread_self();
#endif
}

/** Whether thread self, with exits adopted threads gone, is the one that
 * polled sink last (glibc hands a new thread an exited one's pointer). */
static inline bool
dfi_sink_polled_by(const struct dfi_sink *sink, uintptr_t self, uint32_t exits)
{
	return __atomic_load_n(&sink->poller, __ATOMIC_RELAXED) == self &&
	       __atomic_load_n(&sink->poller_exits, __ATOMIC_RELAXED) == exits;
}

/*
 * The mempool cache the calling thread may use for sink's mbufs: the one of
 * its lcore, found at its last poll, when it is the sink's poller; NULL for
 * another thread, whose lcore is looked up (rte_pktmbuf_alloc()). A cache
 * apart per sink would keep the PMD's frees (memif's, after transmit) and
 * allocations (its receive) out of it: mbufs would then go round the whole
 * pool through its FIFO ring, out of the CPU's caches (a one-way stream of
 * 64 KiB messages lost 55 % so).
 */
static inline struct rte_mempool_cache *
dfi_sink_cache(const struct dfi_sink *sink)
{
	return likely(dfi_sink_polled_by(sink, dfi_thread_self(),
					 __atomic_load_n(&dfi_thread_exits, __ATOMIC_RELAXED))) ?
	       sink->mbufs : NULL;
}

/** An mbuf of the port's pool to send from sink, or NULL when the pool is empty. */
static inline struct rte_mbuf *
dfi_sink_mbuf(struct dfi_sink *sink)
{
	struct rte_mempool_cache *cache = dfi_sink_cache(sink);
	struct rte_mbuf *m;

	if (unlikely(cache == NULL))
		return rte_pktmbuf_alloc(sink->port->rt->pool);
	if (unlikely(rte_mempool_generic_get(sink->port->rt->pool, (void **)&m, 1, cache) != 0))
		return NULL;
	rte_pktmbuf_reset(m);
	return m;
}

/* A segment nobody references any more, back to its pool: through cache
 * when it is the port's pool's. */
static inline void
sink_seg_put(struct rte_mempool *pool, struct rte_mempool_cache *cache, struct rte_mbuf *seg)
{
	if (likely(cache != NULL && seg->pool == pool))
		rte_mempool_generic_put(pool, (void **)&seg, 1, cache);
	else
		rte_mbuf_raw_free(seg);
}

/** Gives back n packets sink received (or built and did not send), under the
 * lock its sends take: rte_pktmbuf_free()'s steps, through the cache of
 * dfi_sink_cache() for what belongs to the port's pool. */
static inline void
dfi_sink_mbufs_free(struct dfi_sink *sink, struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mempool_cache *cache = dfi_sink_cache(sink);
	struct rte_mempool *pool = sink->port->rt->pool;
	struct rte_mbuf *m, *seg, *next;
	uint16_t i;

	if (unlikely(cache == NULL)) {
		rte_pktmbuf_free_bulk(pkts, n);
		return;
	}
	for (i = 0; i < n; i++) {
		for (m = pkts[i]; m != NULL; m = next) {
			next = m->next;
			seg = rte_pktmbuf_prefree_seg(m);
			if (seg != NULL)	/* else still referenced */
				sink_seg_put(pool, cache, seg);
		}
	}
}

static inline void
dfi_sink_mbuf_free(struct dfi_sink *sink, struct rte_mbuf *m)
{
	dfi_sink_mbufs_free(sink, &m, 1);
}

/** @return how many more packets dfi_sink_send() accepts before a flush. */
static inline uint16_t
dfi_sink_tx_room(const struct dfi_sink *sink)
{
	return (uint16_t)(DFI_TX_BURST - sink->nb_tx);
}

/** Transmits frames on the shared queue; what the PMD refuses is freed. */
void dfi_wire_xmit_shared(struct dfi_port *port, struct rte_mbuf **pkts, uint16_t n);

/** Transmits frames on the shared queue. @return how many the PMD took;
 * the rest are still the caller's. */
uint16_t dfi_wire_xmit_some(struct dfi_port *port, struct rte_mbuf **pkts, uint16_t n);

#endif /* _DFI_RXTX_H_ */
