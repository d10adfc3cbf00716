/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * A port at work: its queue pairs, its mbuf pool on the port's NUMA node,
 * checksum offloads, link state, and the start that endpoints drive. The
 * port is configured and started by its first enabled endpoint and runs,
 * with its pool, until the provider unloads.
 */

#ifndef _DFI_QUEUE_H_
#define _DFI_QUEUE_H_

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_mempool.h>
#include <rte_spinlock.h>

#include "fault.h"
#include "memif.h"
#include "neigh.h"
#include "port.h"

struct dfi_fault;
struct dfi_sink;

/**
 * Statistics of a running port, counted by whoever polls or transmits on a
 * queue (see struct dfi_qpair); the port-wide events (ARP sent, frames
 * dropped by a link going down or by a close) are added atomically.
 */
struct dfi_port_stats {
	uint64_t rx_pkts;
	uint64_t rx_foreign;		/* not the provider's: wrong MAC, address, EtherType,
					 * version, type or reserved bits; dropped */
	uint64_t rx_bad;		/* malformed, bad checksum */
	uint64_t rx_no_sink;		/* for a port no endpoint has */
	uint64_t rx_backlog_full;	/* for an endpoint that does not poll */
	uint64_t tx_pkts;
	uint64_t tx_loopback;
	uint64_t tx_link_down;		/* staged, held or waiting for ARP when the link
					 * changed: dropped */
	uint64_t tx_close_dropped;	/* staged at close, refused by the PMD until the deadline */
	uint64_t arp_rx;
	uint64_t arp_tx;
};

/**
 * What the user of one queue pair writes and nobody else: queue 0's under
 * the port's rx (receive counters) and tx (transmit counters) locks, a
 * steered queue's by its one endpoint, which polls it without a lock.
 */
struct dfi_qpair {
	struct dfi_port_stats *stats;	/* the port's own for queue 0, else &own */
	struct dfi_neigh_last last;	/* the on-link sender noted last on this queue */
	struct dfi_port_stats own;
} __rte_cache_aligned;

/**
 * A started port's datapath: its queues, pool, receivers and neighbours.
 * What every packet reads comes first; the locks, the timers and the
 * counters that threads write each have their own cache lines, so that a
 * thread taking queue 0's rx lock does not evict the pool pointer from the
 * cores of the threads driving their own contexts (perf: pkt_alloc's load
 * of the pool took three times longer with two threads before).
 */
struct dfi_port_rt {
	uint32_t locked;		/* 0: one FI_THREAD_DOMAIN domain drives the port */
	uint16_t nb_queues;		/* queue pairs configured */
	uint16_t nb_steered;		/* of those, dedicated to endpoints by rte_flow */
	uint16_t nb_shared;		/* queues 0 to nb_shared - 1, polled as one; more
					 * than 1 only with none steered (af_packet.h) */
	uint64_t tx_offloads;
	uint64_t rx_offloads;
	uint32_t tx_flush_bytes;	/* staged bytes that leave at once (rxtx.h) */
	struct rte_mempool *pool;
	struct dfi_qpair *qpairs;	/* one per queue pair configured */
	struct dfi_fault *fault;	/* injected faults, NULL: none */
	uint64_t *steer_used;		/* queues given to endpoints, bit per queue */
	struct dfi_sink **sinks[256];	/* by UDP port, two levels */

	rte_spinlock_t rx_lock __rte_cache_aligned;	/* shared queue 0 receive, demux */
	rte_spinlock_t tx_lock __rte_cache_aligned;	/* shared queue 0 transmit */

	uint64_t next_check_tsc __rte_cache_aligned;	/* neighbour timers */
	uint64_t next_link_tsc;		/* link state, from the timers */
	uint64_t next_recheck_tsc;	/* link state, from a refused send */
	uint64_t check_period;
	uint64_t link_period;		/* between looks at the link */
	uint32_t link_epoch;		/* bumped at each change: odd while the link is up */
	uint32_t intr_busy;		/* gated: the interrupt thread is out of its gate */
	uint32_t wire_busy;		/* gated, lock-free: the port's thread is in a burst */

	struct dfi_neigh neigh __rte_cache_aligned;
	int link_fd;			/* a socket to ask the kernel about ifname, or -1 */
	uint16_t bond_primary;		/* an active-backup bond's first; else RTE_MAX_ETHPORTS */
	uint32_t users;			/* enabled endpoints; 0: idle, still running */
	uint32_t ephemeral_next;
	bool started;			/* for the provider: endpoints may use it */
	bool ever_started;
	/* a link down brought back by a restart (a memif client, whose PMD
	 * connects only in rte_eth_dev_start()): */
	bool revive;
	bool pmd_started;		/* rte_eth_dev_start() succeeded */
	bool gated;			/* kept apart from the EAL interrupt thread (intr_gate.h) */
	uint64_t revive_tsc;		/* the next restart, while the link is down */
	uint64_t revive_wait;		/* from DFI_REVIVE_MIN_MS, doubling to _MAX_MS */
	uint64_t handshake_tsc;		/* no restart before, if cc is unknown */
	struct dfi_memif_cc cc;		/* what the last start connected */
	uint64_t revivals;		/* restarts done */
	pthread_mutex_t ctl;		/* start, stop, attach, detach */
	struct dfi_port_stats stats __rte_cache_aligned;
};

/** How ports are set up; the provider sets it from its parameters. */
struct dfi_queue_conf {
	uint32_t nb_mbufs;		/* per port pool */
	uint16_t nb_rx_desc;
	uint16_t nb_tx_desc;
	uint16_t steer_queues;		/* dedicated queue pairs wanted */
	bool lcore_threads;		/* application threads become lcores (rxtx.c) */
	char fault[256];		/* FI_DPDK_FAULT, "" for none */
};

extern struct dfi_queue_conf dfi_queue_conf;

/**
 * @return the mbufs in the port's pool: FI_DPDK_MBUFS standard ones' worth
 *   of memory (fewer when the port takes jumbo frames), at least 1023.
 */
uint32_t dfi_port_pool_size(const struct dfi_port *port);

/** @return a port's datapath state, before its first start; NULL without memory. */
struct dfi_port_rt *dfi_queue_rt_alloc(void);

/**
 * Starts the port for one more endpoint: configures its queues, pool and
 * offloads on the first call. Endpoints run lock-free when a single
 * FI_THREAD_DOMAIN domain uses the port.
 *
 * @return 0, -FI_EBUSY when a port run lock-free would be shared, or -FI_EIO
 *   when DPDK refuses the configuration (logged).
 */
int dfi_port_start(struct dfi_port *port);

/** One endpoint fewer; the port runs on, idle, until dfi_queue_fini(). */
void dfi_port_stop(struct dfi_port *port);

/**
 * Checks the link and the neighbour timers when their time has come: the
 * link every DFI_LINK_POLL_MS on PMDs without link interrupts (af_packet,
 * ring; on a kernel interface the kernel's flags count too), else when the
 * interrupt said so (and every second in case one was missed). A change of
 * the link forgets every neighbour and drops the frames waiting for ARP;
 * going down also drops a frame the fault injector holds. A memif client's
 * port whose link is down is restarted, with backoff, to connect again.
 */
void dfi_port_tick(struct dfi_port *port, uint64_t now);

#define DFI_LINK_POLL_MS	20
/* A port whose PMD connects only when started (a memif client) is restarted
 * while its link is down, this often at first, half as often after each try,
 * and never less often than _MAX_MS: a late server is met within that of its
 * start. A try costs a connect() refused, or the server a refusal. */
#define DFI_REVIVE_MIN_MS	10
#define DFI_REVIVE_MAX_MS	100
/*
 * A start that connected (the memif server accepted the socket) is not
 * undone while memif keeps its control channel open: DPDK 22.11's memif
 * server panics in the EAL interrupt thread when a client closes its
 * connection before the server's hello went out (memif_listener_handler()
 * closes the socket, leaving it registered), which a server busy or stopped
 * for longer than any fixed wait would meet. Once memif has closed the
 * channel (the server refused the client, disconnected or died), the next
 * restart comes when the back-off says. Where the start's channel was not
 * found, it is given this long.
 */
#define DFI_REVIVE_HANDSHAKE_MS	1000

/**
 * Whether the port's PMD queues may be used now: the PMD is started and, on a
 * gated port, the EAL interrupt thread is parked. Under the queue's lock on a
 * locked port; the one thread of a lock-free port marks itself first, and the
 * gate's membarrier(2) orders that mark before its read of intr_busy. Every
 * true is followed by dfi_wire_leave() when the burst is over.
 */
static inline bool
dfi_wire_enter(struct dfi_port_rt *rt)
{
	if (!rt->locked) {
		__atomic_store_n(&rt->wire_busy, 1, __ATOMIC_RELAXED);
		rte_compiler_barrier();
	}
	if (likely(rt->pmd_started && __atomic_load_n(&rt->intr_busy, __ATOMIC_RELAXED) == 0))
		return true;
	if (!rt->locked)
		__atomic_store_n(&rt->wire_busy, 0, __ATOMIC_RELEASE);
	return false;
}

static inline void
dfi_wire_leave(struct dfi_port_rt *rt)
{
	if (!rt->locked)
		__atomic_store_n(&rt->wire_busy, 0, __ATOMIC_RELEASE);
}

/** Looks at the link now, unless that was done less than 1 ms ago. */
void dfi_port_link_recheck(struct dfi_port *port);

/** @return the link's epoch: it changes with the link, and is odd while it is up. */
static inline uint32_t
dfi_port_link_epoch(const struct dfi_port *port)
{
	return __atomic_load_n(&port->rt->link_epoch, __ATOMIC_ACQUIRE);
}

/** @return whether the started port's link was up when last looked at. */
static inline bool
dfi_port_link_up(const struct dfi_port *port)
{
	return (dfi_port_link_epoch(port) & 1) != 0;
}

/** Adds every counter of from to to's. */
void dfi_port_stats_add(struct dfi_port_stats *to, const struct dfi_port_stats *from);

/** Sums the port's statistics over its queues. */
void dfi_port_stats_read(const struct dfi_port *port, struct dfi_port_stats *stats);

/** @return the restarts done to connect the port again (a memif client's). */
uint64_t dfi_port_restarts(const struct dfi_port *port);

/** The port's fault injection counts (zero when none is configured). */
void dfi_port_fault_stats(const struct dfi_port *port, struct dfi_fault_stats *stats);

/**
 * At provider unload: when the provider owns the EAL, stops and closes the
 * port, checks that every mbuf came back and frees the pool; always frees
 * the port's datapath state.
 */
void dfi_queue_fini(struct dfi_port *port, bool own_eal);

#endif /* _DFI_QUEUE_H_ */
