/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* ARP (RFC 826) for the port's IPv4 address, and the neighbour cache. */

#include <string.h>

#include <rte_arp.h>
#include <rte_cycles.h>
#include <rte_hash_crc.h>

#include "dfi.h"
#include "net_log.h"
#include "queue.h"
#include "port.h"
#include "rxtx.h"

#define NEIGH_MASK	(DFI_NEIGH_SIZE - 1)

/* nb_pending is written under the lock, and dfi_neigh_tick() looks at it
 * without: a whole store for that look. */
static void
pending_set(struct dfi_neigh *n, uint32_t nb)
{
	__atomic_store_n(&n->nb_pending, nb, __ATOMIC_RELAXED);
}

static uint32_t
slot_of(uint32_t ip)
{
	return rte_hash_crc_4byte(ip, 0) & NEIGH_MASK;
}

/* Lock-free: an entry's key is written once, before its MAC word. */
static struct dfi_neigh_entry *
neigh_find(struct dfi_neigh *n, uint32_t ip)
{
	uint32_t i, slot = slot_of(ip), key;

	for (i = 0; i < DFI_NEIGH_SIZE; i++) {
		key = __atomic_load_n(&n->table[(slot + i) & NEIGH_MASK].ip, __ATOMIC_ACQUIRE);
		if (key == ip)
			return &n->table[(slot + i) & NEIGH_MASK];
		if (key == 0)
			return NULL;
	}
	return NULL;
}

/* Lock held. */
static struct dfi_neigh_entry *
neigh_find_or_add(struct dfi_neigh *n, uint32_t ip)
{
	struct dfi_neigh_entry *e;
	uint32_t i, slot = slot_of(ip);

	for (i = 0; i < DFI_NEIGH_SIZE; i++) {
		e = &n->table[(slot + i) & NEIGH_MASK];
		if (e->ip == ip)
			return e;
		if (e->ip == 0) {
			e->mac = 0;
			e->req_tsc = 0;
			e->req_wait = 0;
			__atomic_store_n(&e->ip, ip, __ATOMIC_RELEASE);
			return e;
		}
	}
	n->overflow++;
	return NULL;
}

int
dfi_neigh_lookup(const struct dfi_port *port, uint32_t ip, struct rte_ether_addr *mac)
{
	struct dfi_neigh_entry *e = neigh_find(&port->rt->neigh, ip);
	uint64_t w;
	int i;

	if (e == NULL)
		return -FI_EAGAIN;
	w = __atomic_load_n(&e->mac, __ATOMIC_ACQUIRE);
	if ((w & DFI_NEIGH_VALID) == 0)
		return -FI_EAGAIN;
	for (i = 0; i < RTE_ETHER_ADDR_LEN; i++)	/* dfi_neigh_mac_word() backwards */
		mac->addr_bytes[i] = (uint8_t)(w >> (8 * i));
	return 0;
}

static struct rte_mbuf *
arp_frame(struct dfi_port *port, uint16_t op, const struct rte_ether_addr *tha, uint32_t tip)
{
	struct rte_ether_hdr *eth;
	struct rte_arp_hdr *arp;
	struct rte_mbuf *m;

	m = rte_pktmbuf_alloc(port->rt->pool);
	if (m == NULL)
		return NULL;
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, sizeof(*eth) + sizeof(*arp));
	arp = (struct rte_arp_hdr *)(eth + 1);
	rte_ether_addr_copy(dfi_port_mac(port), &eth->src_addr);
	if (op == RTE_ARP_OP_REQUEST)
		memset(&eth->dst_addr, 0xff, sizeof(eth->dst_addr));
	else
		rte_ether_addr_copy(tha, &eth->dst_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
	arp->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	arp->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	arp->arp_hlen = RTE_ETHER_ADDR_LEN;
	arp->arp_plen = sizeof(uint32_t);
	arp->arp_opcode = rte_cpu_to_be_16(op);
	rte_ether_addr_copy(dfi_port_mac(port), &arp->arp_data.arp_sha);
	arp->arp_data.arp_sip = port->ipv4;
	if (op == RTE_ARP_OP_REQUEST)
		memset(&arp->arp_data.arp_tha, 0, sizeof(arp->arp_data.arp_tha));
	else
		rte_ether_addr_copy(tha, &arp->arp_data.arp_tha);
	arp->arp_data.arp_tip = tip;
	return m;
}

static void
arp_send(struct dfi_port *port, uint16_t op, const struct rte_ether_addr *tha, uint32_t tip)
{
	struct rte_mbuf *m = arp_frame(port, op, tha, tip);

	if (m == NULL)
		return;
	/* from senders, pollers and timers alike */
	__atomic_fetch_add(&port->rt->stats.arp_tx, 1, __ATOMIC_RELAXED);
	dfi_wire_xmit_shared(port, &m, 1);
}

/* Lock held: whether e's next ARP request is due now (it is then counted as sent). */
static bool
neigh_ask_due(struct dfi_neigh_entry *e, uint64_t now)
{
	uint64_t ms = rte_get_timer_hz() / 1000;

	if (e->req_wait != 0 && now - e->req_tsc < e->req_wait)
		return false;
	e->req_tsc = now;
	e->req_wait = RTE_MIN(RTE_MAX(2 * e->req_wait, ms * DFI_NEIGH_RETRY_MIN_MS),
			      ms * DFI_NEIGH_RETRY_MS);
	return true;
}

int
dfi_neigh_park(struct dfi_port *port, uint32_t ip, struct rte_mbuf *m)
{
	struct dfi_neigh *n = &port->rt->neigh;
	uint64_t now = rte_get_timer_cycles();
	struct dfi_neigh_entry *e;
	bool ask = false;

	rte_spinlock_lock(&n->lock);
	if (n->nb_pending == DFI_NEIGH_PENDING) {
		rte_spinlock_unlock(&n->lock);
		return -FI_EAGAIN;
	}
	n->pending[n->nb_pending].m = m;
	n->pending[n->nb_pending].ip = ip;
	n->pending[n->nb_pending].since_tsc = now;
	pending_set(n, n->nb_pending + 1);
	e = neigh_find_or_add(n, ip);
	if (e != NULL && neigh_ask_due(e, now))
		ask = true;
	rte_spinlock_unlock(&n->lock);
	if (ask)
		arp_send(port, RTE_ARP_OP_REQUEST, NULL, ip);
	return 0;
}

/* Whether learning w for e changes nothing (lock held, or a first look). */
static bool
neigh_known(const struct dfi_neigh_entry *e, uint64_t w, bool replace)
{
	uint64_t cur = __atomic_load_n(&e->mac, __ATOMIC_RELAXED);

	return cur == w || (!replace && (cur & DFI_NEIGH_VALID) != 0);
}

/* Lock held: the ready list loses its first k frames (sent, or given up). */
static void
ready_shift(struct dfi_neigh *n, uint32_t k)
{
	memmove(n->ready, n->ready + k, sizeof(n->ready[0]) * (n->nb_ready - k));
	__atomic_store_n(&n->nb_ready, n->nb_ready - k, __ATOMIC_RELAXED);
}

/*
 * Lock held: hands the ready frames to the PMD, oldest first, and keeps what
 * it refused. Sent at once, 256 frames that waited for an ARP reply met a
 * memif ring of 128 slots: the PMD took 128, and the other 128 were freed,
 * though their senders had been told they were sent (a DGRAM stream lost
 * the 129th to 256th datagrams, every time).
 */
static void
ready_send(struct dfi_neigh *n, struct dfi_port *port)
{
	struct rte_mbuf *m[DFI_NEIGH_PENDING];
	uint32_t i, nb = n->nb_ready;
	uint16_t sent;

	for (i = 0; i < nb; i++)
		m[i] = n->ready[i].m;
	sent = dfi_wire_xmit_some(port, m, (uint16_t)nb);
	if (sent != 0)
		ready_shift(n, sent);
}

void
dfi_neigh_retry(struct dfi_port *port)
{
	struct dfi_neigh *n = &port->rt->neigh;

	if (!rte_spinlock_trylock(&n->lock))
		return;
	if (n->nb_ready != 0)
		ready_send(n, port);
	rte_spinlock_unlock(&n->lock);
}

int
dfi_neigh_learn(struct dfi_neigh *n, struct dfi_port *port, uint32_t ip,
		const struct rte_ether_addr *mac, bool replace)
{
	struct dfi_neigh_entry *e;
	uint64_t w = dfi_neigh_mac_word(mac);
	uint32_t i, kept = 0, nb_ready;

	e = neigh_find(n, ip);
	if (e != NULL && neigh_known(e, w, replace))
		return 0;	/* the usual case: nothing new */
	rte_spinlock_lock(&n->lock);
	e = neigh_find_or_add(n, ip);
	if (e != NULL && neigh_known(e, w, replace)) {
		rte_spinlock_unlock(&n->lock);
		return 0;
	}
	if (e != NULL) {
		__atomic_store_n(&e->mac, w, __ATOMIC_RELEASE);
		__atomic_fetch_add(&n->gen, 1, __ATOMIC_RELEASE);
		e->req_wait = 0;	/* answered: the next question starts quick */
	}
	/* in the order they were parked; both lists hold DFI_NEIGH_PENDING */
	nb_ready = n->nb_ready;
	for (i = 0; i < n->nb_pending; i++) {
		if (n->pending[i].ip != ip || nb_ready == DFI_NEIGH_PENDING) {
			n->pending[kept++] = n->pending[i];
			continue;
		}
		rte_ether_addr_copy(mac, &rte_pktmbuf_mtod(n->pending[i].m,
							   struct rte_ether_hdr *)->dst_addr);
		n->ready[nb_ready++] = n->pending[i];
	}
	pending_set(n, kept);
	__atomic_store_n(&n->nb_ready, nb_ready, __ATOMIC_RELAXED);
	if (nb_ready != 0)
		ready_send(n, port);
	rte_spinlock_unlock(&n->lock);
	return e != NULL ? 0 : -FI_ENOSPC;
}

void
dfi_neigh_forget(struct dfi_port *port, uint32_t ip)
{
	struct dfi_neigh *n = &port->rt->neigh;
	struct dfi_neigh_entry *e;

	rte_spinlock_lock(&n->lock);
	e = neigh_find(n, ip);
	if (e != NULL && (e->mac & DFI_NEIGH_VALID) != 0) {
		/* the key stays: its slot keeps the probe chains of others intact */
		__atomic_store_n(&e->mac, 0, __ATOMIC_RELEASE);
		__atomic_fetch_add(&n->gen, 1, __ATOMIC_RELEASE);
		n->forgotten++;
		NET_LOG(INFO, "%s: neighbour %u.%u.%u.%u stopped answering: asking ARP again",
			port->name, ((const uint8_t *)&ip)[0], ((const uint8_t *)&ip)[1],
			((const uint8_t *)&ip)[2], ((const uint8_t *)&ip)[3]);
	}
	rte_spinlock_unlock(&n->lock);
}

void
dfi_neigh_input(struct dfi_port *port, struct rte_mbuf *m)
{
	struct rte_arp_hdr *arp;
	struct rte_ether_addr sha;
	uint32_t sip, tip;
	uint16_t op;

	if (rte_pktmbuf_data_len(m) < sizeof(struct rte_ether_hdr) + sizeof(*arp))
		goto out;
	arp = rte_pktmbuf_mtod_offset(m, struct rte_arp_hdr *, sizeof(struct rte_ether_hdr));
	if (arp->arp_hardware != rte_cpu_to_be_16(RTE_ARP_HRD_ETHER) ||
	    arp->arp_protocol != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
	    arp->arp_hlen != RTE_ETHER_ADDR_LEN || arp->arp_plen != sizeof(uint32_t))
		goto out;
	op = rte_be_to_cpu_16(arp->arp_opcode);
	sip = arp->arp_data.arp_sip;
	tip = arp->arp_data.arp_tip;
	rte_ether_addr_copy(&arp->arp_data.arp_sha, &sha);
	if (sip != 0 && rte_is_unicast_ether_addr(&sha) && dfi_port_on_link(port, sip))
		dfi_neigh_learn(&port->rt->neigh, port, sip, &sha, true);
	if (op == RTE_ARP_OP_REQUEST && tip == port->ipv4)
		arp_send(port, RTE_ARP_OP_REPLY, &sha, sip);
out:
	rte_pktmbuf_free(m);
}

void
dfi_neigh_tick(struct dfi_port *port, uint64_t now)
{
	struct dfi_neigh *n = &port->rt->neigh;
	uint64_t hz = rte_get_timer_hz();
	uint64_t give_up = hz * DFI_NEIGH_GIVE_UP_MS / 1000;
	uint32_t ask[DFI_NEIGH_PENDING], i, j, nb_ask = 0;
	struct dfi_neigh_entry *e;

	if (__atomic_load_n(&n->nb_pending, __ATOMIC_RELAXED) == 0 && !dfi_neigh_has_ready(n))
		return;
	rte_spinlock_lock(&n->lock);
	if (n->nb_ready != 0) {
		ready_send(n, port);
		/* a peer that takes nothing for that long is not coming back */
		for (i = 0; i < n->nb_ready && now - n->ready[i].since_tsc >= give_up; i++)
			;
		if (i > 0) {
			for (j = 0; j < i; j++)
				rte_pktmbuf_free(n->ready[j].m);
			n->given_up += i;
			ready_shift(n, i);
		}
	}
	for (i = 0; i < n->nb_pending;) {
		if (now - n->pending[i].since_tsc >= give_up) {
			rte_pktmbuf_free(n->pending[i].m);
			n->given_up++;
			n->pending[i] = n->pending[n->nb_pending - 1];
			pending_set(n, n->nb_pending - 1);
			continue;
		}
		e = neigh_find(n, n->pending[i].ip);
		if (e != NULL && neigh_ask_due(e, now)) {
			for (j = 0; j < nb_ask && ask[j] != e->ip; j++)
				;
			if (j == nb_ask)
				ask[nb_ask++] = e->ip;
		}
		i++;
	}
	rte_spinlock_unlock(&n->lock);
	for (i = 0; i < nb_ask; i++)
		arp_send(port, RTE_ARP_OP_REQUEST, NULL, ask[i]);
}

uint32_t
dfi_neigh_flush(struct dfi_port *port)
{
	struct dfi_neigh *n = &port->rt->neigh;
	uint32_t i, dropped;

	rte_spinlock_lock(&n->lock);
	for (i = 0; i < n->nb_pending; i++)
		rte_pktmbuf_free(n->pending[i].m);
	for (i = 0; i < n->nb_ready; i++)
		rte_pktmbuf_free(n->ready[i].m);
	dropped = n->nb_pending + n->nb_ready;
	n->flushed += dropped;
	pending_set(n, 0);
	__atomic_store_n(&n->nb_ready, 0, __ATOMIC_RELAXED);
	/* Keys stay: a lock-free reader may be probing past them. A reader that
	 * loaded a MAC just before this finds the route stale by the generation. */
	for (i = 0; i < DFI_NEIGH_SIZE; i++) {
		if (n->table[i].ip != 0) {
			__atomic_store_n(&n->table[i].mac, 0, __ATOMIC_RELEASE);
			n->table[i].req_tsc = 0;
			n->table[i].req_wait = 0;
		}
	}
	__atomic_fetch_add(&n->gen, 1, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&n->lock);
	return dropped;
}
