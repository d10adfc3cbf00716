/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * ARP and the neighbour cache of a port: the port answers ARP for its IPv4
 * address, learns neighbours from ARP and new ones from the packets it
 * receives (only ARP changes a MAC it knows), forgets one that stops
 * answering a reliable endpoint, and holds packets for a neighbour being
 * resolved until its reply comes (or gives up after DFI_NEIGH_GIVE_UP_MS).
 *
 * The transmit path reads the cache without a lock: a MAC and its valid bit
 * are one 64-bit word, and an entry's IPv4 key never changes once written.
 */

#ifndef _DFI_NEIGH_H_
#define _DFI_NEIGH_H_

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#define DFI_NEIGH_SIZE		4096	/* power of 2 */
#define DFI_NEIGH_PENDING	256
/* An unanswered ARP request is repeated after DFI_NEIGH_RETRY_MIN_MS, then
 * after twice as long each time, up to DFI_NEIGH_RETRY_MS: a lost request or
 * reply costs milliseconds, a neighbour that is gone 30 requests in 3 s. */
#define DFI_NEIGH_RETRY_MIN_MS	2
#define DFI_NEIGH_RETRY_MS	100
#define DFI_NEIGH_GIVE_UP_MS	3000

struct dfi_port;

struct dfi_neigh_entry {
	uint32_t ip;			/* network byte order; 0: free */
	uint64_t mac;			/* DFI_NEIGH_VALID | 48-bit MAC */
	uint64_t req_tsc;		/* last ARP request for it */
	uint64_t req_wait;		/* before the next one, 0: none asked yet */
};

struct dfi_neigh_pending {
	struct rte_mbuf *m;
	uint32_t ip;
	uint64_t since_tsc;
};

/** A receive queue's note of the sender it saw last, so that a stream from
 * one peer skips the table; stale once the cache's generation moves. */
struct dfi_neigh_last {
	uint32_t ip;
	uint32_t gen;
	uint64_t mac;
};

struct dfi_neigh {
	struct dfi_neigh_entry table[DFI_NEIGH_SIZE];
	rte_spinlock_t lock;		/* table writers, the pending and ready lists */
	struct dfi_neigh_pending pending[DFI_NEIGH_PENDING];
	uint32_t nb_pending;
	/* resolved, but the PMD had no room for them (a full ring): they go
	 * out first, in order, at the next flush of any endpoint's frames */
	struct dfi_neigh_pending ready[DFI_NEIGH_PENDING];
	uint32_t nb_ready;
	uint64_t given_up;		/* pending packets dropped unresolved or unsent */
	uint64_t overflow;		/* cache full: neighbours not learned */
	uint64_t flushed;		/* pending packets dropped by a flush */
	uint64_t forgotten;		/* MACs forgotten for a silent neighbour */
	uint32_t gen;			/* bumped whenever an entry's MAC is written */
};

#define DFI_NEIGH_VALID		(1ULL << 63)

/** A MAC as the cache stores it: one word, with its valid bit. */
static inline uint64_t
dfi_neigh_mac_word(const struct rte_ether_addr *mac)
{
	uint32_t lo;
	uint16_t hi;

	/* two loads, not a copy to the stack: that would stall store forwarding */
	memcpy(&lo, mac->addr_bytes, sizeof(lo));
	memcpy(&hi, mac->addr_bytes + sizeof(lo), sizeof(hi));
	return lo | (uint64_t)hi << 32 | DFI_NEIGH_VALID;
}

/**
 * Looks a neighbour up (lock-free).
 *
 * @return 0 with its MAC, or -FI_EAGAIN when it is not resolved yet.
 */
int dfi_neigh_lookup(const struct dfi_port *port, uint32_t ip, struct rte_ether_addr *mac);

/** Whether resolved frames wait for room in the PMD (a relaxed look, no lock). */
static inline bool
dfi_neigh_has_ready(const struct dfi_neigh *n)
{
	return __atomic_load_n(&n->nb_ready, __ATOMIC_RELAXED) != 0;
}

/**
 * Sends the resolved frames that found no room before, in order, as far as
 * the PMD takes them; the rest wait for the next try. It gives way to a
 * thread that holds the cache's lock (the tick tries again).
 */
void dfi_neigh_retry(struct dfi_port *port);

/**
 * Holds a packet for a neighbour being resolved and asks for it, unless it
 * was asked for less than DFI_NEIGH_RETRY_MS ago. The frame's destination
 * MAC is written once the reply comes, and the packet sent.
 *
 * @return 0 (the packet is the cache's), or -FI_EAGAIN when too many wait.
 */
int dfi_neigh_park(struct dfi_port *port, uint32_t ip, struct rte_mbuf *m);

/**
 * Records a neighbour and sends what waited for it. Only ARP replaces a MAC
 * already known (replace): a data packet's source MAC is covered by no
 * checksum of ours, and one corrupted frame must not send every later packet
 * to a MAC nobody has, while the peer has nothing to send that would mend it.
 *
 * @return 0, or -FI_ENOSPC when the cache is full (counted).
 */
int dfi_neigh_learn(struct dfi_neigh *n, struct dfi_port *port, uint32_t ip,
		    const struct rte_ether_addr *mac, bool replace);

/**
 * Forgets the MAC of a neighbour that stopped answering, so that the next
 * packet to it asks ARP again (a MAC that changed, or one learned wrong).
 */
void dfi_neigh_forget(struct dfi_port *port, uint32_t ip);

/** @return the generation of the cache: what was read from it before is stale
 *  once it changes. */
static inline uint32_t
dfi_neigh_gen(const struct dfi_neigh *n)
{
	return __atomic_load_n(&n->gen, __ATOMIC_ACQUIRE);
}

/**
 * Notes the sender of a received packet: a neighbour needs no ARP to be
 * answered. last is the receive queue's own note (its poller's alone).
 */
static inline void
dfi_neigh_note(struct dfi_neigh *n, struct dfi_neigh_last *last, struct dfi_port *port,
	       uint32_t ip, const struct rte_ether_addr *mac)
{
	uint64_t w = dfi_neigh_mac_word(mac);
	uint32_t gen = dfi_neigh_gen(n);

	if (likely(last->ip == ip && last->mac == w && last->gen == gen))
		return;
	if (dfi_neigh_learn(n, port, ip, mac, false) != 0)
		return;
	last->ip = ip;
	last->mac = w;
	last->gen = dfi_neigh_gen(n);
}

/** Handles a received ARP frame (answers requests for us, learns); frees m. */
void dfi_neigh_input(struct dfi_port *port, struct rte_mbuf *m);

/** Repeats requests for what still waits, and gives up on the oldest. */
void dfi_neigh_tick(struct dfi_port *port, uint64_t now);

/**
 * Drops every waiting packet and forgets every neighbour (a link change, a
 * port stop). Safe while the port runs: lock-free readers find entries
 * without a MAC, and routes built from the cache are rebuilt (its generation
 * moves).
 *
 * @return the number of waiting packets dropped.
 */
uint32_t dfi_neigh_flush(struct dfi_port *port);

#endif /* _DFI_NEIGH_H_ */
