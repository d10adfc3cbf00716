/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The reliable protocol under FI_EP_RDM, all of its state machine: per-peer
 * connections with random incarnations, sequence numbers in both
 * directions, cumulative and selective acknowledgements, fast retransmission
 * of holes and timeouts derived from measured round trips, a receiver's
 * window and its refusals (RNR), and the deadline past which a silent peer
 * is given up. Packets are taken in sequence order; what arrives early
 * waits in the receive window. doc/rdm-protocol.md is the description.
 *
 * It runs from the application's calls only (manual progress); every call
 * reads the clock once.
 */

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_hash_crc.h>

#include "cq.h"
#include "dfi.h"
#include "ep.h"
#include "iov.h"
#include "mr.h"
#include "rdm.h"
#include "rxtx.h"

#define DUP_THRESH		3	/* later packets held before a hole counts as lost */
#define RNR_WAIT_MIN_US		20
#define RNR_WAIT_MAX_US		20000
#define RESET_INTERVAL_US	1000	/* RESETs to one address, at most one per */
#define ACK_EVERY		16	/* packets taken before an ack goes at once */
#define ACK_WAIT_MAX		4	/* packets an ack that waits may acknowledge */
/* The probe timeout: twice the smoothed round trip (and what spurious probes
 * taught), from FI_DPDK_RDM_PTO_MIN_US on; before a first measurement it is
 * PTO_INIT_US. Unanswered probes double it, up to LOSS_CAP_RTTS round trips:
 * a run of losses costs about that much at most. A peer that answered none
 * of IDLE_PROBES probes in a row is taken to be away from its progress
 * calls, not lossy, and is probed every IDLE_PROBE_US at most, a bounded
 * load while it computes; when it is back it answers the probes that wait
 * in its queue, and what they reveal is repaired at once. */
#define PTO_INIT_US		200
#define LOSS_CAP_RTTS		100
#define IDLE_PROBES		16
#define IDLE_PROBE_US		10000
#define PTO_MAX_US		1000000
/* A CONN that finds no endpoint (its process still starting: processes
 * started together) is sent again at most CONN_GAP_US apart for the first
 * CONN_FAST_US, so that the peer is reached within that gap of its
 * endpoint's opening; left to the backoff (0.2, 0.6, 1.4, ... 12.6, 25.4 ms
 * after the first), a peer that opened 13 ms late would be reached 25 ms
 * after the first CONN. A peer still absent after that is tried as rarely
 * as any that does not answer. */
#define CONN_GAP_US		1000
#define CONN_FAST_US		1000000
#define TS_SHIFT		10	/* timestamps: TSC / 1024, 32 bits */
#define CLOCK_CALLS		16
#define CLOSE_LINGER_US		250000	/* a closing endpoint waits this long for answers */

static inline bool ack_settle(struct dfi_ep *ep, struct dfi_rdm *r);

/* An op type as a bit of a mask: the reliable protocol's types span 16 values. */
#define OP_TYPE(t)	(1u << ((t) - DFI_PKT_RDM_CONN))
static_assert(DFI_PKT_RDM_LAST - DFI_PKT_RDM_CONN < 32, "an op type mask holds every type");

static inline bool
seq_lt(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

static inline bool
seq_le(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) <= 0;
}

uint32_t
rdm_random32(void)
{
	uint32_t v = 0;

	/* getrandom() does not block once the pool is initialised, as at run time */
	while (getrandom(&v, sizeof(v), 0) != sizeof(v) || v == 0)
		;
	return v;
}

/* -- peers -- */

static uint64_t
addr_key(const struct dfi_addr *a)
{
	uint64_t mac = 0;

	if (a->kind == DFI_ADDR_IPV4)
		return (uint64_t)a->ipv4 << 16 | a->port;
	memcpy(&mac, a->mac, sizeof(a->mac));
	return (mac << 16 | a->port) ^ (1ULL << 63);
}

static uint32_t
key_slot(const struct dfi_rdm *r, uint64_t key)
{
	return rte_hash_crc_8byte(key, 0) & r->peers_mask;
}

static int
peers_grow(struct dfi_rdm *r)
{
	uint32_t size = (r->peers_mask + 1) * 2, i, j;
	struct rdm_peer **t = calloc(size, sizeof(*t));

	if (t == NULL)
		return -FI_ENOMEM;
	for (i = 0; i <= r->peers_mask; i++) {
		if (r->peers[i] == NULL)
			continue;
		for (j = rte_hash_crc_8byte(r->peers[i]->key, 0) & (size - 1); t[j] != NULL;
		     j = (j + 1) & (size - 1))
			;
		t[j] = r->peers[i];
	}
	free(r->peers);
	r->peers = t;
	r->peers_mask = size - 1;
	return 0;
}

/* A free slot for a kept inject's packet; the caller checked there is one. */
static inline uint8_t *
kept_take(struct dfi_rdm *r)
{
	return r->kept_free[RDM_KEPT_MAX - 1 - r->nb_kept++];
}

/* A kept inject's slot freed, on top of the stack. */
static inline void
kept_put(struct dfi_rdm *r, uint8_t *slot)
{
	r->kept_free[RDM_KEPT_MAX - r->nb_kept--] = slot;
}

/* @return whether window slot e holds a kept inject's packet (nb_ops 0). */
static inline bool
txe_kept(const struct rdm_txe *e)
{
	return e->nb_ops == 0 && e->kept != NULL;
}

/* The window slot of a new packet, but for its op or kept packet: nb_ops
 * ops from offset in the first (0: a kept inject's packet), len payload
 * bytes. */
static inline void
txe_open(struct rdm_txe *e, uint8_t nb_ops, uint32_t offset, uint32_t len, uint8_t awaited)
{
	e->nb_ops = nb_ops;
	e->offset = offset;
	e->len = (uint16_t)len;
	e->sacked = 0;
	e->retx = 0;
	e->cause = RDM_RETX_NONE;
	e->awaited = awaited;
}

static void
peer_reset_windows(struct dfi_rdm *r, struct rdm_peer *p)
{
	uint32_t i;

	for (i = 0; i < r->window; i++) {
		if (p->rxw[i] != NULL) {
			rte_pktmbuf_free(p->rxw[i]);
			p->rxw[i] = NULL;
			r->rx_held--;
		}
	}
	p->nb_held = 0;
	for (i = 0; i < r->window; i++) {
		if (txe_kept(&p->txw[i])) {
			kept_put(r, p->txw[i].kept);
			r->nb_ops--;
		}
	}
	memset(p->txw, 0, sizeof(*p->txw) * r->window);
	p->snd_una = p->snd_nxt = rdm_random32();
	p->snd_lim = p->snd_una;
	p->high_sacked = p->snd_una;
	p->next_msg_seq = 0;
	p->rcv_nxt = 0;
	p->rcv_msg_seq = 0;
	p->rcv_sack = 0;
	p->peer_inc = 0;
	p->state = RDM_PEER_IDLE;
	p->rnr_until = 0;
	p->rnr_wait = 0;
	p->pto_backoff = 0;
	p->probe_tsc = 0;
	p->unanswered = 0;
	p->ts_echo = 0;
	p->echo_dup = false;
	p->ack_owed = false;
	p->corked = 0;
	rdm_rma_in_end(&p->rma_in);
	memset(&p->rma_in, 0, sizeof(p->rma_in));
}

/* The table's search for the peer at a, and its creation if asked for. */
static struct rdm_peer *
peer_find(struct dfi_rdm *r, const struct dfi_addr *a, uint64_t key, bool create)
{
	struct rdm_peer *p;
	uint32_t i;

	for (i = key_slot(r, key); r->peers[i] != NULL; i = (i + 1) & r->peers_mask) {
		if (r->peers[i]->key == key) {
			r->last_peer = r->peers[i];
			return r->peers[i];
		}
	}
	if (!create)
		return NULL;
	/* a new peer: a connection's set-up, not the steady state */
	if ((r->nb_peers + 1) * 2 > r->peers_mask + 1 && peers_grow(r) != 0)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NULL;
	p->txw = calloc(r->window, sizeof(*p->txw));
	p->rxw = calloc(r->window, sizeof(*p->rxw));
	if (p->txw == NULL || p->rxw == NULL) {
		free(p->txw);
		free(p->rxw);
		free(p);
		return NULL;
	}
	p->key = key;
	p->addr = *a;
	p->fi_addr = FI_ADDR_NOTAVAIL;
	p->version = DFI_WIRE_VERSION;
	p->seg = (uint16_t)r->seg_size;
	peer_reset_windows(r, p);
	for (i = key_slot(r, key); r->peers[i] != NULL; i = (i + 1) & r->peers_mask)
		;
	r->peers[i] = p;
	r->nb_peers++;
	r->last_peer = p;
	return p;
}

/* The peer at a (rdm_peer_get()): the last one looked up, inline, since
 * packets come in runs from one peer; the table's search otherwise. */
static __rte_always_inline struct rdm_peer *
peer_lookup(struct dfi_rdm *r, const struct dfi_addr *a, bool create)
{
	uint64_t key = addr_key(a);
	struct rdm_peer *p = r->last_peer;

	if (likely(p != NULL && p->key == key))
		return p;
	return peer_find(r, a, key, create);
}

struct rdm_peer *
rdm_peer_get(struct dfi_rdm *r, const struct dfi_addr *a, bool create)
{
	return peer_lookup(r, a, create);
}

static void
peer_activate(struct dfi_rdm *r, struct rdm_peer *p)
{
	if (p->active)
		return;
	p->active = true;
	p->next_active = r->active;
	r->active = p;
}

void
rdm_peer_watch(struct dfi_rdm *r, struct rdm_peer *p, bool on)
{
	p->watched = on;
	if (on)
		peer_activate(r, p);
}

/* -- integrity -- */

#define HDR_WORDS	(sizeof(struct dfi_rdm_hdr) / sizeof(uint64_t))
#define HDR_HCRC_WORD	(offsetof(struct dfi_rdm_hdr, hcrc) / sizeof(uint64_t))

#if RTE_BYTE_ORDER != RTE_LITTLE_ENDIAN
#error "a header's words are put together and read as little-endian"
#endif

/*
 * CRC32C of a header's words in memory order (q: the words put together
 * in registers, or the packet), hcrc's bytes taken as 0. hcrc is masked in
 * its loaded word rather than zeroed first, since a store of it would hold
 * back the load of its word until the store reached the cache (a load wider
 * than a store in flight is not forwarded from it). Each word goes from
 * where it is to the instruction: a copy of a received header on the stack
 * took 16 instructions of a 64-byte message's receive (callgrind, bench_ep).
 */
static __rte_always_inline uint32_t
hdr_crc(const void *q)
{
	uint64_t crc = UINT32_MAX, w;
	unsigned int i;

	/* unrolled, the words stay in registers */
#pragma GCC unroll 16
	for (i = 0; i < HDR_WORDS; i++) {
		memcpy(&w, (const uint8_t *)q + i * sizeof(w), sizeof(w));
		if (i == HDR_HCRC_WORD)
			w &= UINT32_MAX;
		crc = dfi_crc32c_8(w, crc);
	}
	return (uint32_t)crc;
}

static bool
hcrc_ok(const struct dfi_rdm_hdr *h)
{
	return hdr_crc(h) == rte_be_to_cpu_32(h->hcrc);
}

/* The payload's CRC, when the packet carries one and it was not checked yet. */
static bool
pcrc_ok(struct rte_mbuf *m)
{
	const struct dfi_rdm_hdr *h = rte_pktmbuf_mtod(m, const struct dfi_rdm_hdr *);

	if (!rdm_payload_unchecked(h, m))
		return true;
	dfi_rx_meta(m)->verified = 1;
	return dfi_crc32c(h + 1, rte_pktmbuf_data_len(m) - sizeof(*h), UINT32_MAX) ==
	       rte_be_to_cpu_32(h->pcrc);
}

/* -- building and sending packets -- */

/* What a packet's header says besides its connection's state; fields left
 * out are 0. */
struct hdr_args {
	uint8_t type;
	uint16_t flags;		/* DFI_RDM_F_* */
	uint32_t psn;
	uint32_t msg_seq;
	uint32_t offset;
	uint32_t msg_len;
	uint32_t pcrc;		/* the payload's, with CRCs on */
	uint64_t tag;
	uint64_t data;
	uint64_t key;
};

static struct rte_mbuf *
pkt_alloc(struct dfi_ep *ep, uint32_t payload, struct dfi_rdm_hdr **hdr)
{
	struct rte_mbuf *m = dfi_sink_mbuf(&ep->sink);

	if (unlikely(m == NULL))
		return NULL;
	*hdr = (struct dfi_rdm_hdr *)rte_pktmbuf_append(m, (uint16_t)(sizeof(**hdr) + payload));
	return m;
}

/* Two 32-bit fields side by side, in wire order, as their word reads them. */
static inline uint64_t
be32_pair(uint32_t first, uint32_t second)
{
	return rte_cpu_to_be_32(first) | (uint64_t)rte_cpu_to_be_32(second) << 32;
}

/*
 * Writes h whole, after its payload, with its CRC. The words are put
 * together in registers, the CRC taken from them and each stored once:
 * fields stored one by one and the CRC's loads of them after, wider than
 * those stores, made every send wait for its stores to reach the cache
 * (bench_ep's 64 B RDM round trip, this and hcrc_ok() together: 372
 * against 383 ns, means of five interleaved pairs).
 */
static __rte_always_inline void
hdr_fill(const struct dfi_rdm *r, const struct rdm_peer *p, struct dfi_rdm_hdr *h,
	 const struct hdr_args *a)
{
	uint16_t flags = a->flags | (p->echo_dup ? DFI_RDM_F_ECHO_DUP : 0) |
			 (r->crc ? DFI_RDM_F_CRC : 0);
	/* a connection's two sides say what segments they take */
	uint32_t msg_len = a->type == DFI_PKT_RDM_CONN || a->type == DFI_PKT_RDM_ACCEPT ?
			   r->seg_max : a->msg_len;
	uint64_t q[HDR_WORDS];
	unsigned int i;

	RTE_BUILD_BUG_ON(sizeof(*h) != 88 || offsetof(struct dfi_rdm_hdr, psn) != 4 ||
			 offsetof(struct dfi_rdm_hdr, window) != 20 ||
			 offsetof(struct dfi_rdm_hdr, hcrc) != 44 ||
			 offsetof(struct dfi_rdm_hdr, name_off) != 84);
	q[0] = p->version | (uint64_t)a->type << 8 | (uint64_t)rte_cpu_to_be_16(flags) << 16 |
	       (uint64_t)rte_cpu_to_be_32(a->psn) << 32;
	q[1] = be32_pair(r->inc, p->peer_inc);
	q[2] = rte_cpu_to_be_32(p->rcv_nxt) |
	       (uint64_t)rte_cpu_to_be_16((uint16_t)r->window) << 32 |
	       (uint64_t)rte_cpu_to_be_16(sizeof(*h)) << 48;
	q[3] = rte_cpu_to_be_64(p->rcv_sack);
	q[4] = be32_pair(a->msg_seq, a->offset);
	q[5] = rte_cpu_to_be_32(msg_len);	/* hcrc 0 */
	q[6] = rte_cpu_to_be_64(a->tag);
	q[7] = rte_cpu_to_be_64(a->data);
	q[8] = rte_cpu_to_be_64(a->key);
	q[9] = be32_pair((uint32_t)(r->now >> TS_SHIFT), p->ts_echo);
	q[10] = rte_cpu_to_be_32(r->crc ? a->pcrc : UINT32_MAX) | (uint64_t)r->name_off << 32;
	if (r->crc)
		q[HDR_HCRC_WORD] |= (uint64_t)rte_cpu_to_be_32(hdr_crc(q)) << 32;
	/* word by word from the registers: one memcpy() of the array had it
	 * stored on the stack and loaded back in pairs, the same wait */
#pragma GCC unroll 16
	for (i = 0; i < HDR_WORDS; i++)
		memcpy((uint8_t *)h + i * sizeof(q[i]), &q[i], sizeof(q[i]));
}

/* hdr_fill(), one copy for the packets other than an inject's. */
static __rte_noinline void
hdr_write(const struct dfi_rdm *r, const struct rdm_peer *p, struct dfi_rdm_hdr *h,
	  const struct hdr_args *a)
{
	hdr_fill(r, p, h, a);
}

/* Stages a sealed packet for the wire; the packet is consumed. @return
 * whether it was staged. */
static bool
pkt_send(struct dfi_ep *ep, struct dfi_rdm *r, const struct dfi_addr *dst, struct rte_mbuf *m)
{
	if (unlikely(dfi_sink_tx_room(&ep->sink) == 0))
		dfi_sink_flush(&ep->sink);
	if (unlikely(dfi_sink_send(&ep->sink, ep->encap, dst, m) != 0)) {
		/* no room on the wire: as good as lost, the protocol sends it again */
		r->stats.tx_no_room++;
		dfi_sink_mbuf_free(&ep->sink, m);
		return false;
	}
	r->stats.tx_pkts++;
	return true;
}

/* A packet without payload outside the sequence (ACK, RNR, CONN...).
 * @return whether it was staged. */
static bool
send_ctrl(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, uint8_t type,
	  uint16_t flags, uint32_t psn)
{
	struct hdr_args a = { .type = type, .flags = flags, .psn = psn, .pcrc = UINT32_MAX };
	struct dfi_rdm_hdr *h;
	struct rte_mbuf *m = pkt_alloc(ep, 0, &h);

	if (m == NULL)
		return false;
	hdr_write(r, p, h, &a);
	p->ack_owed = false;
	p->ack_now = false;
	p->rx_unacked = 0;
	return pkt_send(ep, r, &p->addr, m);
}

/*
 * An acknowledgement alone: its payload is the whole window's map of what
 * arrived after a hole (bit i: rcv_nxt + 1 + i), where every other packet
 * carries the first 64 bits only, so that the sender resends just the holes.
 */
static void
send_ack(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, uint16_t flags)
{
	uint32_t mask = r->window - 1, i, bytes = p->nb_held != 0 ? r->window / 8 : 0;
	struct hdr_args a = { .type = DFI_PKT_RDM_ACK, .flags = flags };
	struct dfi_rdm_hdr *h;
	struct rte_mbuf *m = pkt_alloc(ep, bytes, &h);
	uint8_t *map;

	if (m == NULL)
		return;
	map = (uint8_t *)(h + 1);
	memset(map, 0, bytes);
	for (i = 0; i + 1 < r->window && bytes > 0; i++) {
		if (p->rxw[(p->rcv_nxt + 1 + i) & mask] != NULL)
			map[i / 8] |= (uint8_t)(1u << (i % 8));
	}
	if (r->crc)
		a.pcrc = dfi_crc32c(map, bytes, UINT32_MAX);
	hdr_write(r, p, h, &a);
	p->ack_owed = false;
	p->ack_now = false;
	p->rx_unacked = 0;
	r->stats.acks_sent++;
	pkt_send(ep, r, &p->addr, m);
}

/* A RESET or a CLOSE's answer to an address we may hold no connection with. */
static void
send_unbound(struct dfi_ep *ep, struct dfi_rdm *r, const struct dfi_addr *a, uint32_t their_inc,
	     uint8_t type)
{
	struct rdm_peer tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.addr = *a;
	tmp.peer_inc = their_inc;
	tmp.version = DFI_WIRE_VERSION;
	send_ctrl(ep, r, &tmp, type, 0, 0);
}

/*
 * Whether the application can see the operation finish (a completion, a
 * counter, a delivery notice): then its last packet asks for an immediate
 * ack. One it cannot see (fi_inject() without counter) lets the ack ride on
 * the answer, or wait for the receiver's next progress call.
 */
static bool
op_awaited(const struct dfi_ep *ep, const struct rdm_op *op)
{
	return op->type != DFI_PKT_RDM_MSG || (op->flags & FI_COMPLETION) ||
	       (op->pkt_flags & DFI_RDM_F_DELIVERY) || ep->cntrs[DFI_CNTR_SEND] != NULL;
}

/* A sequenced packet leaves: it carries the ack owed, the timers restart. */
static void
seq_out(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, struct rdm_txe *e,
	struct rte_mbuf *m)
{
	e->sent_tsc = r->now;
	p->last_tx_tsc = r->now;
	p->ack_owed = false;
	p->ack_now = false;
	p->rx_unacked = 0;
	pkt_send(ep, r, &p->addr, m);
}

/*
 * The bundle of window slot e: its nb_ops small messages, each a record and
 * its bytes, behind one header and one CRC.
 */
static void
send_bundle(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, struct rdm_txe *e,
	    uint32_t psn, bool ack_req)
{
	struct rdm_op *op = e->op;
	struct hdr_args a = { .type = DFI_PKT_RDM_MSG, .psn = psn, .msg_seq = op->msg_seq,
			      .msg_len = e->nb_ops };
	struct dfi_rdm_hdr *h;
	struct rte_mbuf *m = pkt_alloc(ep, e->len, &h);
	uint64_t rec[3];
	uint8_t *w;
	uint32_t i;

	RTE_BUILD_BUG_ON(sizeof(struct dfi_rdm_rec) != sizeof(rec) ||
			 offsetof(struct dfi_rdm_rec, flags) != 4 ||
			 offsetof(struct dfi_rdm_rec, tag) != 8);
	if (unlikely(m == NULL))
		return;	/* the timer sends it again */
	w = (uint8_t *)(h + 1);
	e->awaited = 0;
	for (i = 0; i < e->nb_ops; i++, op = op->next) {
		e->awaited |= op_awaited(ep, op);
		/* a record put together in a struct on the stack, field by
		 * field, and copied out whole was loaded back wider than its
		 * stores: the load waited for them to reach the cache, a
		 * third of the sender's bundling (perf, batched stream) */
		rec[0] = rte_cpu_to_be_32(op->len) |
			 (uint64_t)rte_cpu_to_be_16(op->pkt_flags) << 32;
		rec[1] = rte_cpu_to_be_64(op->tag);
		rec[2] = rte_cpu_to_be_64(op->data);
		memcpy(w, &rec[0], sizeof(rec[0]));
		memcpy(w + 8, &rec[1], sizeof(rec[1]));
		memcpy(w + 16, &rec[2], sizeof(rec[2]));
		dfi_iov_gather(w + sizeof(rec), op->iov, op->iov_count, 0, op->len);
		w += sizeof(rec) + op->len;
	}
	a.flags = DFI_RDM_F_BUNDLE | (ack_req || e->awaited ? DFI_RDM_F_ACK_REQ : 0);
	if (r->crc)
		a.pcrc = dfi_crc32c(h + 1, e->len, UINT32_MAX);
	hdr_write(r, p, h, &a);
	seq_out(ep, r, p, e, m);
}

/* The header of a kept inject's packet, its payload after it. */
static inline const struct dfi_rdm_hdr *
kept_hdr(const struct rdm_txe *e)
{
	return (const struct dfi_rdm_hdr *)e->kept;
}

/* A kept inject's packet again, with the connection's state of now. */
static void
send_kept(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, struct rdm_txe *e,
	  uint32_t psn, bool ack_req)
{
	const struct dfi_rdm_hdr *k = kept_hdr(e);
	uint16_t own = DFI_RDM_F_ACK_REQ | DFI_RDM_F_ECHO_DUP | DFI_RDM_F_CRC;
	struct hdr_args a = {
		.type = k->type,
		.flags = (rte_be_to_cpu_16(k->flags) & ~own) |
			 (ack_req || e->awaited ? DFI_RDM_F_ACK_REQ : 0),
		.psn = psn,
		.msg_seq = rte_be_to_cpu_32(k->msg_seq),
		.msg_len = rte_be_to_cpu_32(k->msg_len),
		.pcrc = rte_be_to_cpu_32(k->pcrc),
		.tag = rte_be_to_cpu_64(k->tag),
		.data = rte_be_to_cpu_64(k->data),
	};
	struct dfi_rdm_hdr *h;
	struct rte_mbuf *m = pkt_alloc(ep, e->len, &h);

	if (unlikely(m == NULL))
		return;	/* the timer sends it again */
	r->stats.kept_resent++;
	dfi_copy(h + 1, k + 1, e->len);
	hdr_write(r, p, h, &a);
	seq_out(ep, r, p, e, m);
}

/* A kept inject is acknowledged: the send counter counts it. */
static inline void
kept_release(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_txe *e)
{
	dfi_ep_count(ep, DFI_CNTR_SEND, false);
	kept_put(r, e->kept);
	e->kept = NULL;
	r->nb_ops--;
}

/*
 * A kept inject's connection is over: it fails as its operation would have
 * (rdm_op_complete()), an error completion without context, fi_cq(3)'s for
 * an operation that asked for none, and the send counter's error count.
 */
static void
kept_fail(struct dfi_ep *ep, const struct rdm_txe *e, int err)
{
	bool tagged = (kept_hdr(e)->flags & rte_cpu_to_be_16(DFI_RDM_F_TAGGED)) != 0;

	if (ep->tx_cq != NULL)
		dfi_cq_write_err_unreserved(ep->tx_cq, NULL, FI_SEND | (tagged ? FI_TAGGED : FI_MSG),
					    err);
	dfi_ep_count(ep, DFI_CNTR_SEND, true);
}

/*
 * Builds the packet of window slot psn from its operation and sends it;
 * ack_req asks for an acknowledgement at once (a probe's), which the last
 * packet of an operation the application waits on asks for anyway.
 */
static void
send_seq(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, uint32_t psn, bool ack_req)
{
	struct rdm_txe *e = &p->txw[psn & (r->window - 1)];
	struct rdm_op *op = e->op;
	struct hdr_args a = { 0 };
	struct dfi_rdm_hdr *h;
	struct rte_mbuf *m;

	if (txe_kept(e)) {
		send_kept(ep, r, p, e, psn, ack_req);
		return;
	}
	if (e->nb_ops > 1) {
		send_bundle(ep, r, p, e, psn, ack_req);
		return;
	}
	m = pkt_alloc(ep, e->len, &h);
	if (unlikely(m == NULL))
		return;	/* the timer sends it again */
	e->awaited = e->offset + e->len == op->len && op_awaited(ep, op);
	ack_req |= e->awaited;
	a.type = op->type;
	a.flags = op->pkt_flags | (ack_req ? DFI_RDM_F_ACK_REQ : 0);
	a.psn = psn;
	a.msg_seq = op->msg_seq;
	a.data = op->data;
	a.pcrc = UINT32_MAX;	/* no payload */
	if (op->type != DFI_PKT_RDM_DONE) {
		a.offset = e->offset;
		a.msg_len = op->rma_len;
		a.tag = op->tag;
		a.key = op->key;
	}
	if (rdm_type_has_payload(op->type)) {
		if (r->crc)
			a.pcrc = dfi_iov_gather_crc(h + 1, op->iov, op->iov_count, e->offset,
						    e->len, UINT32_MAX);
		else
			dfi_iov_gather(h + 1, op->iov, op->iov_count, e->offset, e->len);
	}
	hdr_write(r, p, h, &a);
	seq_out(ep, r, p, e, m);
}

/* @return whether the port takes another packet now (it may be busy). */
static bool
wire_room(struct dfi_ep *ep)
{
	return dfi_sink_tx_room(&ep->sink) > 0 || dfi_sink_flush(&ep->sink) < DFI_TX_BURST;
}

/* @return whether the window, ours and the receiver's, takes a new packet. */
static inline bool
window_open(const struct dfi_rdm *r, const struct rdm_peer *p)
{
	return p->snd_nxt - p->snd_una < r->window && seq_lt(p->snd_nxt, p->snd_lim);
}

/* @return whether op may share a packet: a whole small message not sent yet. */
static inline bool
bundlable(const struct rdm_op *op)
{
	return op != NULL && op->type == DFI_PKT_RDM_MSG && op->state == RDM_OP_QUEUED &&
	       op->sent == 0 && op->len <= RDM_BUNDLE_MSG_MAX;
}

/* @return how many messages from op on one packet of seg bytes takes (their
 * bytes in *bytes): 2 or more when they share it. */
static uint32_t
bundle_count(const struct rdm_op *op, uint32_t seg, uint32_t *bytes)
{
	uint32_t n = 0, b = 0;

	if (!bundlable(op) || !bundlable(op->next))
		return 1;
	for (; n < RDM_BUNDLE_RECS && bundlable(op); op = op->next, n++) {
		if (b + sizeof(struct dfi_rdm_rec) + op->len > seg)
			break;
		b += (uint32_t)sizeof(struct dfi_rdm_rec) + op->len;
	}
	*bytes = b;
	return n >= 2 ? n : 1;
}

/* Sends the next new packet if the window, the receiver and the port allow it. */
static bool
send_new(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p)
{
	struct rdm_txe *e;
	struct rdm_op *op;
	uint32_t len, n, i;

	/* a window that looks shut may be open already: an ack waits */
	if (unlikely(!window_open(r, p)) &&
	    (r->ack_later != p || (ack_settle(ep, r), !window_open(r, p))))
		return false;
	op = p->seg_op;
	if (op == NULL || p->state != RDM_PEER_UP || p->rnr_until != 0 || !wire_room(ep))
		return false;
	n = bundle_count(op, p->seg, &len);
	if (n == 1)
		len = rdm_type_has_payload(op->type) ? RTE_MIN(p->seg, op->len - op->sent) : 0;
	e = &p->txw[p->snd_nxt & (r->window - 1)];
	e->op = op;
	/* awaited until its packet is built (send_seq()) */
	txe_open(e, (uint8_t)n, op->sent, len, 1);
	for (i = 0; i < n; i++, op = op->next) {
		op->sent += n == 1 ? len : op->len;
		op->unacked++;
		if (op->sent == op->len)
			op->state = RDM_OP_SENT;	/* a message of 0 bytes is one packet */
	}
	/* every byte of the first n ops is out: the next op has none out (the
	 * queue behind seg_op holds only ops not begun) */
	if (e->op->state == RDM_OP_SENT)
		p->seg_op = op;
	send_seq(ep, r, p, p->snd_nxt++, false);
	return true;
}

/* Sends what the window and the port allow. The last look, which mostly
 * finds nothing left to send, is made without the call: with it a 64-byte
 * round trip took 45 more instructions a hop (callgrind, bench_ep). */
static inline void
send_news(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p)
{
	p->corked = 0;
	while (p->seg_op != NULL && send_new(ep, r, p))
		;
}

static void
send_retx(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, uint32_t psn,
	  enum rdm_retx_cause cause, bool ack_req)
{
	struct rdm_txe *e = &p->txw[psn & (r->window - 1)];

	e->retx++;
	e->cause = (uint8_t)cause;
	r->stats.tx_retransmits++;
	send_seq(ep, r, p, psn, ack_req);
}

/* -- operations, peers failing -- */

static void
ops_unlink(struct rdm_peer *p, struct rdm_op *op)
{
	struct rdm_op **pp;

	for (pp = &p->ops_head; *pp != NULL && *pp != op; pp = &(*pp)->next)
		;
	if (*pp == NULL)
		return;
	*pp = op->next;
	if (p->ops_tail == op) {
		p->ops_tail = NULL;
		for (op = p->ops_head; op != NULL; op = op->next)
			p->ops_tail = op;
	}
}

/* Every packet of op is acknowledged. */
static void
op_acked(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, struct rdm_op *op)
{
	/* a write waits on the target's verdict; a read on its answer, unless
	 * all of it came before the ack; an atomic on either */
	if ((op->type == DFI_PKT_RDM_MSG && (op->pkt_flags & DFI_RDM_F_DELIVERY)) ||
	    op->type == DFI_PKT_RDM_WRITE ||
	    ((op->type == DFI_PKT_RDM_READ_REQ || op->type == DFI_PKT_RDM_ATOMIC) &&
	     !op->answered)) {
		op->state = RDM_OP_WAIT_DONE;	/* stays queued until the DONE */
		return;
	}
	ops_unlink(p, op);
	rdm_op_complete(ep, r, op, 0);
}

/* The op numbered seq whose type is in the mask (bit t: type DFI_PKT_RDM_CONN + t). */
static struct rdm_op *
find_op(struct rdm_peer *p, uint32_t types, uint32_t seq)
{
	struct rdm_op *op;

	for (op = p->ops_head; op != NULL; op = op->next) {
		if (op->msg_seq == seq && (types & OP_TYPE(op->type)))
			return op;
	}
	return NULL;
}

struct rdm_op *
rdm_conn_find_op(struct rdm_peer *p, uint8_t type, uint32_t seq)
{
	return find_op(p, OP_TYPE(type), seq);
}

void
rdm_conn_finish_op(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_op *op, int err)
{
	ops_unlink(op->peer, op);
	rdm_op_complete(ep, r, op, err);
}

/*
 * A DONE: the message msg_seq we sent was delivered, or the RMA operation
 * msg_seq was carried out or refused (the error in data). A write's DONE
 * ends it, and a base atomic's; a read's only when it reports a refusal,
 * its answer ends it (a fetching atomic's likewise).
 */
static void
done_received(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p,
	      const struct dfi_rdm_hdr *h)
{
	uint16_t flags = rte_be_to_cpu_16(h->flags);
	uint32_t seq = rte_be_to_cpu_32(h->msg_seq);
	int err = (flags & DFI_RDM_F_ERROR) ? (int)rte_be_to_cpu_64(h->data) : 0;
	struct rdm_op *op;

	if (!(flags & DFI_RDM_F_RMA)) {
		op = rdm_conn_find_op(p, DFI_PKT_RDM_MSG, seq);
	} else {
		/* RMA operations share one sequence: one walk finds any of them
		 * (two walks of the whole list per atomic cost 5 % of a stream) */
		op = find_op(p, OP_TYPE(DFI_PKT_RDM_WRITE) | OP_TYPE(DFI_PKT_RDM_ATOMIC) |
			     OP_TYPE(DFI_PKT_RDM_READ_REQ), seq);
		/* a read, and a fetch, end on their answer only, unless refused */
		if (op != NULL && err == 0 && (op->type == DFI_PKT_RDM_READ_REQ ||
					       (op->pkt_flags & DFI_RDM_F_FETCH)))
			op = NULL;
	}
	if (err < 0 || err > UINT16_MAX)
		err = FI_EIO;	/* not an errno: the peer is confused, still a failure */
	if (op != NULL && op->state == RDM_OP_WAIT_DONE)
		rdm_conn_finish_op(ep, r, op, err);
}

static bool
peer_busy(const struct rdm_peer *p)
{
	return p->ops_head != NULL || p->in.active || p->snd_una != p->snd_nxt;
}

/* Its death must be seen: something is under way with it, or it is a
 * connection's one peer, whose death ends the connection even when idle. */
static bool
peer_watched(const struct rdm_peer *p)
{
	return p->watched || peer_busy(p);
}

/* The connection is over: fails what was under way (err positive) and forgets it. */
static void
peer_fail(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, int err, const char *why,
	  uint64_t *count)
{
	struct rdm_op *op;
	char name[64];
	uint32_t i;

	/* what its last ack acknowledged is done, not failed */
	if (r->ack_later == p)
		ack_settle(ep, r);
	dfi_addr_to_uri(&p->addr, name, sizeof(name));
	if (peer_busy(p))
		DFI_WARN(FI_LOG_EP_DATA, "peer %s: %s, what was under way with it fails", name,
			 why);
	else
		DFI_INFO(FI_LOG_EP_CTRL, "peer %s: %s", name, why);
	while ((op = p->ops_head) != NULL) {
		p->ops_head = op->next;
		rdm_op_complete(ep, r, op, err);
	}
	/* injects kept unacknowledged fail too (their packets go with the
	 * windows) */
	for (i = 0; i < r->window; i++) {
		if (txe_kept(&p->txw[i]))
			kept_fail(ep, &p->txw[i], err);
	}
	p->ops_tail = NULL;
	p->seg_op = NULL;
	p->watched = false;
	rdm_msg_peer_lost(ep, r, p, err);
	peer_reset_windows(r, p);
	(*count)++;
}

/* -- acknowledgements -- */

/* @return the TSC a timestamp of ours (ts, ts_echo) was taken at. */
static inline uint64_t
ts_to_tsc(const struct dfi_rdm *r, uint32_t ts)
{
	return r->now - ((uint64_t)((uint32_t)(r->now >> TS_SHIFT) - ts) << TS_SHIFT);
}

static void
rtt_sample(struct rdm_peer *p, uint64_t rtt)
{
	uint64_t err;

	/* RFC 6298 */
	if (p->srtt == 0) {
		p->srtt = rtt;
		p->rttvar = rtt / 2;
	} else {
		err = rtt > p->srtt ? rtt - p->srtt : p->srtt - rtt;
		p->rttvar = (3 * p->rttvar + err) / 4;
		p->srtt = (7 * p->srtt + rtt) / 8;
	}
}

/* The probe timeout before any backoff. */
static uint64_t
pto_base(const struct dfi_rdm *r, const struct rdm_peer *p)
{
	return RTE_MAX(p->srtt != 0 ? 2 * p->srtt + p->pto_adapt : r->pto_init, r->pto_min);
}

/* How far unanswered probes (and CONNs) back the timeout off (see
 * PTO_INIT_US and CONN_GAP_US). */
static uint64_t
pto_cap(const struct dfi_rdm *r, const struct rdm_peer *p)
{
	uint64_t cap = RTE_MAX(LOSS_CAP_RTTS * (p->srtt != 0 ? p->srtt : r->pto_init),
			       r->pto_min);

	if (p->unanswered >= IDLE_PROBES)
		cap = RTE_MAX(cap, r->idle_probe);
	if (p->state == RDM_PEER_CONNECTING && r->now - p->conn_since < r->conn_fast)
		cap = RTE_MIN(cap, r->conn_gap);
	return RTE_MIN(cap, r->pto_max);
}

static uint64_t
pto_now(const struct dfi_rdm *r, const struct rdm_peer *p)
{
	return p->pto_backoff != 0 ? p->pto_backoff : pto_base(r, p);
}

/* The probe timeout fired (or a CONN went unanswered): the next waits longer. */
static void
pto_back_off(const struct dfi_rdm *r, struct rdm_peer *p)
{
	p->pto_backoff = RTE_MIN(2 * pto_now(r, p), pto_cap(r, p));
	p->unanswered++;
}

/* What an acknowledgement says of the resends it covers. */
struct ack_echo {
	uint32_t ts;			/* ts_echo: the newest packet of ours it saw */
	bool dup;			/* that packet was a duplicate for it */
	bool alone;			/* an ACK of its own, not carried by data */
};

/*
 * A packet we sent again is acknowledged. If the receiver had seen nothing
 * of ours sent since the resend when it acknowledged (its echo is older),
 * the original arrived after all: the resend was spurious. An ACK of its own
 * that came so late says how long the receiver takes to acknowledge, and the
 * probe timeout learns it; an ack carried by data says only when the
 * application answered, and teaches nothing. Otherwise the resend repaired a
 * loss, counted by what sent it.
 */
static void
retx_acked(struct dfi_rdm *r, struct rdm_peer *p, struct rdm_txe *e, const struct ack_echo *a)
{
	uint32_t sent = (uint32_t)(e->sent_tsc >> TS_SHIFT);
	uint64_t took, want;

	if (a->dup && a->ts == sent) {
		/* the receiver had the original when the resend came: its ack was
		 * lost or late, which says nothing of the timeout */
		r->stats.tx_spurious++;
		return;
	}
	if (a->ts != 0 && (int32_t)(a->ts - sent) < 0) {
		r->stats.tx_spurious++;
		took = r->now - ts_to_tsc(r, a->ts);
		want = took + took / 4;
		if (a->alone && e->cause != RDM_RETX_FAST && want > 2 * p->srtt)
			p->pto_adapt = RTE_MIN(RTE_MAX(p->pto_adapt, want - 2 * p->srtt),
					       LOSS_CAP_RTTS / 4 * p->srtt);
		return;
	}
	switch (e->cause) {
	case RDM_RETX_FAST:
		r->stats.repaired_fast++;
		break;
	case RDM_RETX_PROBE:
		r->stats.repaired_probe++;
		p->pto_adapt -= p->pto_adapt / 4;	/* the delay learnt fades */
		break;
	case RDM_RETX_TIMEOUT:
		r->stats.repaired_timeout++;
		break;
	default:
		break;
	}
}

/* Marks what the receiver holds beyond ack (map: bit i for ack + 1 + i). */
static bool
mark_sacked(struct dfi_rdm *r, struct rdm_peer *p, uint32_t ack, const uint8_t *map,
	    uint32_t bits, const struct ack_echo *a)
{
	uint32_t i, psn, mask = r->window - 1;
	struct rdm_txe *e;
	bool news = false;

	for (i = 0; i < bits; i++) {
		if (!(map[i / 8] & (1u << (i % 8))))
			continue;
		psn = ack + 1 + i;
		if (!seq_lt(psn, p->snd_nxt) || seq_lt(psn, p->snd_una))
			continue;
		e = &p->txw[psn & mask];
		if (e->sacked)
			continue;
		news = true;
		e->sacked = 1;
		if (e->retx != 0)
			retx_acked(r, p, e, a);
		if (seq_lt(p->high_sacked, psn + 1))
			p->high_sacked = psn + 1;
	}
	return news;
}

/*
 * An answer to our last probe (the receiver had seen it, or something sent
 * later, when it acknowledged): every packet below the highest it reports
 * holding, sent before the probe and still missing, is lost. All of them go
 * again at once; the next probe finds what is lost again.
 */
static void
probe_answered(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p)
{
	struct rdm_txe *e;
	uint32_t psn;

	for (psn = p->snd_una; seq_lt(psn, p->high_sacked); psn++) {
		e = &p->txw[psn & (r->window - 1)];
		if (!e->sacked && e->sent_tsc < p->probe_tsc)
			send_retx(ep, r, p, psn, (enum rdm_retx_cause)p->probe_cause, false);
	}
	p->probe_tsc = 0;
}

/* @return whether a cumulative ack acknowledges packets in flight. */
static inline bool
acks_new(const struct rdm_peer *p, uint32_t ack)
{
	return seq_lt(p->snd_una, ack) && seq_le(ack, p->snd_nxt);
}

/* What ack h says of the resends it covers. */
static inline struct ack_echo
ack_echo_of(const struct dfi_rdm_hdr *h)
{
	struct ack_echo a = {
		.ts = rte_be_to_cpu_32(h->ts_echo),
		.dup = (h->flags & rte_cpu_to_be_16(DFI_RDM_F_ECHO_DUP)) != 0,
		.alone = h->type == DFI_PKT_RDM_ACK,
	};

	return a;
}

/*
 * What ack h says beyond its cumulative ack, and what follows from it: the
 * packets held past a hole (a SACK or the map of map_bytes), the answer to
 * a probe, the holes to repair at once. Apart from on_ack(), whose common
 * case (a ping-pong's, a stream's without loss) has none of it: that one
 * took 142 instructions a message with all of it inline (callgrind,
 * bench_ep). @return whether it marked packets held.
 */
static __rte_noinline bool
ack_beyond(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p,
	   const struct dfi_rdm_hdr *h, uint32_t map_bytes)
{
	uint32_t ack = rte_be_to_cpu_32(h->ack), echo = rte_be_to_cpu_32(h->ts_echo);
	struct ack_echo a = ack_echo_of(h);
	uint64_t sack = rte_be_to_cpu_64(h->sack);
	uint32_t mask = r->window - 1, psn;
	bool news = false;
	struct rdm_txe *e;
	uint8_t map[8];
	int i;

	if (map_bytes > 0) {
		news = mark_sacked(r, p, ack, (const uint8_t *)(h + 1),
				   RTE_MIN(map_bytes * 8, r->window - 1), &a);
	} else if (sack != 0) {
		for (i = 0; i < 8; i++)
			map[i] = (uint8_t)(sack >> (8 * i));
		news = mark_sacked(r, p, ack, map, 64, &a);
	}
	if (p->probe_tsc != 0 && echo != 0 &&
	    (int32_t)(echo - (uint32_t)(p->probe_tsc >> TS_SHIFT)) >= 0)
		probe_answered(ep, r, p);
	/* a hole with DUP_THRESH packets held after it is lost: send it again,
	 * once; if that is lost too, the next probe finds it */
	for (psn = p->snd_una; seq_lt(psn, p->high_sacked); psn++) {
		e = &p->txw[psn & mask];
		if (e->sacked || e->retx != 0)
			continue;
		if (p->high_sacked - psn > DUP_THRESH) {
			send_retx(ep, r, p, psn, RDM_RETX_FAST, false);
			r->stats.tx_fast_retransmits++;
		}
	}
	return news;
}

static void
on_ack(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, const struct dfi_rdm_hdr *h,
       uint32_t map_bytes)
{
	uint32_t ack = rte_be_to_cpu_32(h->ack), mask = r->window - 1, psn;
	uint32_t echo = rte_be_to_cpu_32(h->ts_echo);
	struct rdm_op *op, *next;
	struct ack_echo a;
	bool news = false;
	struct rdm_txe *e;
	uint32_t n;

	if (acks_new(p, ack)) {
		news = true;
		for (psn = p->snd_una; psn != ack; psn++) {
			e = &p->txw[psn & mask];
			if (unlikely(e->retx != 0 && !e->sacked)) {
				a = ack_echo_of(h);
				retx_acked(r, p, e, &a);
			}
			if (txe_kept(e)) {
				kept_release(ep, r, e);
				continue;
			}
			/* a bundle's messages follow each other in the queue */
			for (op = e->op, n = e->nb_ops; n > 0; op = next, n--) {
				next = op->next;
				if (--op->unacked == 0 && op->state == RDM_OP_SENT)
					op_acked(ep, r, p, op);
			}
			e->op = NULL;
		}
		p->snd_una = ack;
		p->rnr_wait = 0;
		if (seq_lt(p->high_sacked, ack))
			p->high_sacked = ack;
	}
	if (seq_lt(p->snd_lim, ack + rte_be_to_cpu_16(h->window)))
		p->snd_lim = ack + rte_be_to_cpu_16(h->window);
	if (unlikely(map_bytes > 0 || h->sack != 0 || p->probe_tsc != 0 ||
		     seq_lt(p->snd_una, p->high_sacked)))
		news |= ack_beyond(ep, r, p, h, map_bytes);
	if (news) {
		/* the wire works: the probe timer starts over from its base */
		p->ack_tsc = r->now;
		p->pto_backoff = 0;
		/* the echo of the packet that made this ack: the wire and the
		 * peer's acking, never a wait for a hole (and no ambiguity on a
		 * resend) */
		if (echo != 0)
			rtt_sample(p, r->now - ts_to_tsc(r, echo));
	}
}

/*
 * Whether the ack h carries may wait (ack_settle()): it completes none of
 * the operations the application waits on, and a few at most (a stream's
 * acks are applied as they come, the window's room with them).
 */
static inline bool
ack_can_wait(const struct dfi_rdm *r, const struct rdm_peer *p, const struct dfi_rdm_hdr *h)
{
	uint32_t ack = rte_be_to_cpu_32(h->ack), psn;

	if (!acks_new(p, ack))
		return true;
	if (ack - p->snd_una > ACK_WAIT_MAX)
		return false;
	for (psn = p->snd_una; psn != ack; psn++) {
		if (p->txw[psn & (r->window - 1)].awaited)
			return false;
	}
	return true;
}

/*
 * The acknowledgement a message carried is applied after the message is
 * delivered, at the endpoint's next progress call, when none of the
 * operations it may acknowledge is awaited (ack_can_wait()): releasing
 * them, and what else an ack sets off, waits while the application takes
 * the message and answers it, off the round trip. Taking in a 64-byte
 * round trip's packet (rdm_conn_rx()) went from 1043 to 853 instructions
 * so, the post of the answer from 1460 to 1482 (callgrind,
 * fi_dpdk_pingpong's client), and from the port's burst to the
 * completion's return from a median of 620 TSC cycles to 500 (both sides
 * of four interleaved pairs of runs, a clock read around it). The ack is
 * applied as of its arrival (r->now), so that round trips and timers are
 * measured as before. One peer's waits at a time, and whatever needs the
 * acknowledged state before that call applies it first: the next packet
 * taken in, a window or a transmit queue that looks full, the corking, a
 * probe, a failed peer, a close.
 */
static void
ack_apply(struct dfi_ep *ep, struct dfi_rdm *r)
{
	struct rdm_peer *p = r->ack_later;
	uint64_t now = r->now;

	r->ack_later = NULL;
	r->now = p->later_tsc;
	on_ack(ep, r, p, &p->later, 0);
	r->now = now;
}

/* The waiting ack, if any, applied: @return whether there was one. The test
 * stays inline at the callers of every packet and call (rdm_conn_settle()
 * is exported, which -fPIC keeps from being inlined). */
static inline bool
ack_settle(struct dfi_ep *ep, struct dfi_rdm *r)
{
	if (r->ack_later == NULL)
		return false;
	ack_apply(ep, r);
	return true;
}

bool
rdm_conn_settle(struct dfi_ep *ep, struct dfi_rdm *r)
{
	return ack_settle(ep, r);
}

/* -- receiving in sequence -- */

/* Hands one packet in sequence to the message layer; false: refused (RNR). */
static bool
deliver(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, struct rte_mbuf *m)
{
	const struct dfi_rdm_hdr *h = rte_pktmbuf_mtod(m, const struct dfi_rdm_hdr *);
	uint32_t len = rte_pktmbuf_data_len(m) - (uint32_t)sizeof(*h);
	bool kept = false;

	if (h->type == DFI_PKT_RDM_DONE) {
		done_received(ep, r, p, h);
	} else {
		switch (h->type != DFI_PKT_RDM_MSG ?
			rdm_rma_segment(ep, r, p, h, m, (const uint8_t *)(h + 1), len) :
			(h->flags & rte_cpu_to_be_16(DFI_RDM_F_BUNDLE)) ?
			rdm_msg_bundle(ep, r, p, h, m, (const uint8_t *)(h + 1), len) :
			rdm_msg_segment(ep, r, p, h, m, (const uint8_t *)(h + 1), len, &kept)) {
		case RDM_REFUSED:
			r->stats.rnr_sent++;
			send_ctrl(ep, r, p, DFI_PKT_RDM_RNR, 0, p->rcv_nxt);
			dfi_sink_mbuf_free(&ep->sink, m);
			return false;
		case RDM_BAD:
			/* its payload failed its CRC: as if lost, it comes again */
			r->stats.rx_bad_crc++;
			dfi_sink_mbuf_free(&ep->sink, m);
			return false;
		default:
			break;
		}
	}
	if (!kept)
		dfi_sink_mbuf_free(&ep->sink, m);
	return true;
}

static void
seq_rx(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, struct rte_mbuf *m,
       uint32_t psn)
{
	const struct dfi_rdm_hdr *h = rte_pktmbuf_mtod(m, const struct dfi_rdm_hdr *);
	uint32_t mask = r->window - 1, d = psn - p->rcv_nxt;
	bool ack_req = (h->flags & rte_cpu_to_be_16(DFI_RDM_F_ACK_REQ)) != 0;

	/* the echo names the newest packet seen, a probe even when we had it
	 * (saying so): the sender learns that its probe's answer is this one */
	p->ack_now |= ack_req;
	if (((int32_t)d >= 0 && d < r->window) || ack_req) {
		p->ts_echo = rte_be_to_cpu_32(h->ts);
		p->echo_dup = (int32_t)d < 0 || (d > 0 && d < r->window &&
						 p->rxw[psn & mask] != NULL);
	}
	if (!p->ack_owed)
		p->ack_call = r->calls;
	p->ack_owed = true;
	p->rx_unacked++;
	if ((int32_t)d < 0) {
		r->stats.rx_dup++;
		dfi_sink_mbuf_free(&ep->sink, m);
		return;
	}
	if (d >= r->window) {
		r->stats.rx_beyond_window++;
		dfi_sink_mbuf_free(&ep->sink, m);
		return;
	}
	if (d > 0) {
		/* held for later: its payload is checked now, what it reports (SACK) true */
		if (p->rxw[psn & mask] != NULL)
			r->stats.rx_dup++;
		else if (r->rx_held < r->rx_held_max && !pcrc_ok(m))
			r->stats.rx_bad_crc++;
		else if (r->rx_held < r->rx_held_max)
			goto hold;
		dfi_sink_mbuf_free(&ep->sink, m);
		return;
hold:
		p->rxw[psn & mask] = m;
		r->rx_held++;
		p->nb_held++;
		if (d <= 64)
			p->rcv_sack |= 1ULL << (d - 1);
		r->stats.rx_out_of_order++;
		return;
	}
	for (;;) {
		if (!deliver(ep, r, p, m))
			return;
		p->rcv_nxt++;
		p->rcv_sack >>= 1;
		m = p->rxw[p->rcv_nxt & mask];
		if (m == NULL)
			return;
		p->rxw[p->rcv_nxt & mask] = NULL;
		r->rx_held--;
		p->nb_held--;
	}
}

/* -- connections -- */

/* A packet of the peer's came in: it is there, and polling. */
static inline void
heard(const struct dfi_rdm *r, struct rdm_peer *p)
{
	p->last_heard = r->now;
	p->unanswered = 0;
}

static void
adopt(const struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, const struct dfi_rdm_hdr *h)
{
	p->peer_inc = rte_be_to_cpu_32(h->src_inc);
	p->rcv_nxt = rte_be_to_cpu_32(h->psn);
	p->rcv_msg_seq = 0;
	p->rcv_sack = 0;
	p->version = (uint8_t)RTE_MIN(h->version, DFI_WIRE_VERSION);
	p->snd_lim = p->snd_una + rte_be_to_cpu_16(h->window);
	/* the largest segment both take: a peer that says nothing takes a
	 * standard MTU's, and so does one behind a router, whose links may not
	 * carry what the two ends do (no one says: a larger packet would
	 * vanish there, every resend of it too) */
	p->seg = (uint16_t)(h->msg_len != 0 ? RTE_MIN(rte_be_to_cpu_32(h->msg_len), r->seg_max) :
			    r->seg_size);
	if (p->addr.kind == DFI_ADDR_IPV4 && !dfi_port_on_link(ep->sink.port, p->addr.ipv4))
		p->seg = (uint16_t)RTE_MIN(p->seg, r->seg_size);
	p->state = RDM_PEER_UP;
	heard(r, p);
	p->rnr_until = 0;
	if (p->name_off != rte_be_to_cpu_16(h->name_off)) {
		p->name_off = rte_be_to_cpu_16(h->name_off);
		p->fi_addr = FI_ADDR_NOTAVAIL;	/* its name is elsewhere now */
	}
}

static void
on_conn(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, const struct dfi_rdm_hdr *h)
{
	uint32_t inc = rte_be_to_cpu_32(h->src_inc);

	if (p->peer_inc != inc) {
		/* a new incarnation: its predecessor's connection is over */
		if (p->peer_inc != 0)
			peer_fail(ep, r, p, FI_ECONNRESET, "restarted", &r->stats.peers_reset);
		if (p->state == RDM_PEER_IDLE)
			p->next_msg_seq = 0;
		adopt(ep, r, p, h);
	}
	heard(r, p);
	p->ts_echo = rte_be_to_cpu_32(h->ts);	/* the ACCEPT measures a round trip */
	/* answered every time: the first answer may have been lost */
	send_ctrl(ep, r, p, DFI_PKT_RDM_ACCEPT, 0, p->snd_una);
	peer_activate(r, p);
}

static void
on_accept(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, const struct dfi_rdm_hdr *h)
{
	uint32_t inc = rte_be_to_cpu_32(h->src_inc);

	if (rte_be_to_cpu_32(h->dst_inc) != r->inc) {
		r->stats.rx_stale++;
		return;
	}
	if (p->peer_inc == inc) {
		heard(r, p);
		return;		/* again: already up */
	}
	if (p->peer_inc != 0)
		peer_fail(ep, r, p, FI_ECONNRESET, "restarted", &r->stats.peers_reset);
	adopt(ep, r, p, h);
	if (h->ts_echo != 0)
		rtt_sample(p, r->now - ts_to_tsc(r, rte_be_to_cpu_32(h->ts_echo)));
	peer_activate(r, p);
}

static void
on_reset(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, const struct dfi_rdm_hdr *h)
{
	/* the peer we knew has gone: whoever answers from its address is another */
	if (p != NULL && rte_be_to_cpu_32(h->dst_inc) == r->inc && p->peer_inc != 0 &&
	    p->peer_inc != rte_be_to_cpu_32(h->src_inc))
		peer_fail(ep, r, p, FI_ECONNRESET, "restarted", &r->stats.peers_reset);
}

/*
 * The peer closes its endpoint: what it acknowledged completes, the rest
 * fails, and the connection is forgotten. Its request is answered every
 * time, known or not: our first answer may have been lost.
 */
static void
on_close(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, const struct dfi_rdm_hdr *h,
	 const struct dfi_addr *a)
{
	uint32_t inc = rte_be_to_cpu_32(h->src_inc);

	/* an answer to a CLOSE of ours is only awaited while we close */
	if (rte_be_to_cpu_32(h->dst_inc) != r->inc ||
	    !(h->flags & rte_cpu_to_be_16(DFI_RDM_F_ACK_REQ)))
		return;
	send_unbound(ep, r, a, inc, DFI_PKT_RDM_CLOSE);
	if (p == NULL || p->peer_inc != inc)
		return;
	on_ack(ep, r, p, h, 0);
	peer_fail(ep, r, p, FI_ECONNRESET, "closed its endpoint", &r->stats.peers_closed);
}

static void
connect_peer(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p)
{
	p->state = RDM_PEER_CONNECTING;
	p->conn_since = r->now;
	p->last_probe = r->now;
	p->last_heard = r->now;
	send_ctrl(ep, r, p, DFI_PKT_RDM_CONN, 0, p->snd_una);
}

/* -- the entry points -- */

/*
 * Autocorking: with r->autocork packets or more in flight to the peer, the
 * receiver or the wire is behind, and a small message posted now gets there
 * no sooner for leaving alone: it waits, as if posted with FI_MORE, for the
 * messages posted after it to fill a bundle, or for the next progress call,
 * whichever comes first. A stream of 64-byte fi_inject()s then takes dozens
 * of messages to a packet instead of one, and a ping-pong, with nothing in
 * flight when it posts, is not held at all. @return whether op waits.
 */
static inline bool
cork(const struct dfi_rdm *r, struct rdm_peer *p, const struct rdm_op *op)
{
	uint32_t bytes = (uint32_t)sizeof(struct dfi_rdm_rec) + op->len;

	if (p->snd_nxt - p->snd_una < r->autocork || r->autocork == 0 ||
	    op->type != DFI_PKT_RDM_MSG || op->len > RDM_BUNDLE_MSG_MAX)
		return false;
	p->corked_bytes = p->corked == 0 ? bytes : p->corked_bytes + bytes;
	/* they leave once another like op would not fit in their packet */
	return ++p->corked < RDM_BUNDLE_RECS && p->corked_bytes + bytes <= p->seg;
}

void
rdm_conn_post(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_op *op)
{
	struct rdm_peer *p = op->peer;

	/* once per message that leaves now: the application may have been away
	 * a long time; an FI_MORE post sends nothing yet, and the clock costs
	 * tens of ns in a VM (a twentieth of a batched 64-byte stream's time) */
	if (!(op->flags & FI_MORE) || p->state == RDM_PEER_IDLE)
		r->now = rte_rdtsc();
	op->next = NULL;
	op->state = RDM_OP_QUEUED;
	if (p->ops_tail != NULL)
		p->ops_tail->next = op;
	else
		p->ops_head = op;
	p->ops_tail = op;
	if (p->seg_op == NULL)
		p->seg_op = op;
	if (p->state == RDM_PEER_IDLE)
		connect_peer(ep, r, p);
	/* what is in flight decides the corking: not what an ack that waits
	 * has acknowledged already (one in flight, a ping-pong's, never does) */
	if (unlikely(r->ack_later == p) && p->snd_nxt - p->snd_una >= r->autocork)
		ack_settle(ep, r);
	r->rx_quiet &= !r->in_rx;
	/* posted while packets are taken in (a DONE, a read's answer), it
	 * waits for the end of the burst, when its ack covers them; with
	 * FI_MORE, for the next post or progress call, which bundles what
	 * waits */
	if (!r->in_rx && !(op->flags & FI_MORE) && !cork(r, p, op))
		send_news(ep, r, p);
	peer_activate(r, p);
}

bool
rdm_conn_inject(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, const struct iovec *iov,
		size_t count, uint32_t len, uint64_t tag, uint64_t data, uint16_t pkt_flags)
{
	struct hdr_args a = { .type = DFI_PKT_RDM_MSG, .msg_len = len, .tag = tag };
	struct dfi_rdm_hdr *h;
	struct rdm_txe *e;
	struct rte_mbuf *m;

	/* behind what waits, or where the generic path would cork it, bundle
	 * it or take in an ack first, it goes the generic way */
	if (p->seg_op != NULL || p->state != RDM_PEER_UP || p->rnr_until != 0 || r->in_rx ||
	    p->snd_nxt - p->snd_una >= r->keep_inflight || !window_open(r, p) ||
	    r->nb_kept >= RDM_KEPT_MAX || len > p->seg || !wire_room(ep))
		return false;
	m = pkt_alloc(ep, len, &h);
	if (unlikely(m == NULL))
		return false;
	r->now = rte_rdtsc();	/* as rdm_conn_post() */
	a.psn = p->snd_nxt++;
	a.msg_seq = p->next_msg_seq++;
	/* a send counter waits on it (op_awaited()) */
	e = &p->txw[a.psn & (r->window - 1)];
	e->kept = kept_take(r);
	txe_open(e, 0, 0, len, ep->cntrs[DFI_CNTR_SEND] != NULL);
	a.flags = pkt_flags | (e->awaited ? DFI_RDM_F_ACK_REQ : 0);
	if (pkt_flags & DFI_RDM_F_CQ_DATA)
		a.data = data;
	if (r->crc)
		a.pcrc = dfi_iov_gather_crc(h + 1, iov, count, 0, len, UINT32_MAX);
	else
		dfi_iov_gather(h + 1, iov, count, 0, len);
	hdr_fill(r, p, h, &a);
	/*
	 * A copy, not a second reference to the frame: freed after its
	 * transmit with a reference of two, the frame took an atomic
	 * decrement in memif's burst, whose lock waited for the frame's
	 * stores into the ring (lines the other side's core had read) before
	 * the ring's head could follow them: 60 ns more a round trip between
	 * two processes (design.md, "Kept injects").
	 */
	dfi_copy(e->kept, h, sizeof(*h) + len);
	r->nb_ops++;
	r->stats.kept++;
	seq_out(ep, r, p, e, m);
	peer_activate(r, p);
	return true;
}

uint32_t
rdm_conn_next_msg_seq(struct rdm_peer *p)
{
	/* a new connection numbers its messages from 0 */
	if (p->state == RDM_PEER_IDLE && p->ops_head == NULL)
		p->next_msg_seq = 0;
	return p->next_msg_seq++;
}

void
rdm_conn_resume(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p)
{
	if (p->state == RDM_PEER_UP)
		send_ctrl(ep, r, p, DFI_PKT_RDM_RESUME, 0, p->rcv_nxt);
}

/* @return whether a packet holds together; a message's payload is checked
 * as it is copied out. */
static bool
pkt_valid(struct dfi_rdm *r, struct rte_mbuf *m)
{
	struct dfi_rdm_hdr *h = rte_pktmbuf_mtod(m, struct dfi_rdm_hdr *);

	if (unlikely(rte_pktmbuf_data_len(m) < sizeof(*h) || m->nb_segs != 1 ||
		     rte_be_to_cpu_16(h->hdr_len) < sizeof(*h) ||
		     h->type < DFI_PKT_RDM_CONN || h->type > DFI_PKT_RDM_LAST ||
		     h->src_inc == 0))
		goto bad;
	dfi_rx_meta(m)->verified = 0;
	if (h->flags & rte_cpu_to_be_16(DFI_RDM_F_CRC)) {
		if (!hcrc_ok(h) || (!rdm_type_has_payload(h->type) && !pcrc_ok(m)))
			goto bad;
	} else if (r->crc) {
		goto bad;
	}
	return true;
bad:
	r->stats.rx_bad_crc++;
	return false;
}

static void
rx_one(struct dfi_ep *ep, struct dfi_rdm *r, struct rte_mbuf *m)
{
	struct dfi_rdm_hdr *h = rte_pktmbuf_mtod(m, struct dfi_rdm_hdr *);
	struct rdm_peer *p;
	struct dfi_addr a;
	uint8_t type;

	r->stats.rx_pkts++;
	ack_settle(ep, r);
	if (!pkt_valid(r, m))
		goto drop;
	type = h->type;
	dfi_ep_rx_addr(ep, m, &a);
	p = peer_lookup(r, &a, type == DFI_PKT_RDM_CONN && !r->connected_only);
	if (r->connected_only && p != r->bound)
		p = NULL;	/* not the connection's: refused as unknown */
	if (type == DFI_PKT_RDM_CONN) {
		if (p != NULL)
			on_conn(ep, r, p, h);
		goto drop;
	}
	if (type == DFI_PKT_RDM_RESET) {
		on_reset(ep, r, p, h);
		goto drop;
	}
	if (type == DFI_PKT_RDM_ACCEPT) {
		if (p != NULL)
			on_accept(ep, r, p, h);
		goto drop;
	}
	if (type == DFI_PKT_RDM_CLOSE) {
		on_close(ep, r, p, h, &a);
		goto drop;
	}
	if (p == NULL || p->peer_inc == 0 || rte_be_to_cpu_32(h->dst_inc) != r->inc ||
	    rte_be_to_cpu_32(h->src_inc) != p->peer_inc || h->version != p->version) {
		/* for or from another incarnation, or no connection at all */
		if (rte_be_to_cpu_32(h->dst_inc) != r->inc ||
		    (p != NULL && p->peer_inc != 0 && rte_be_to_cpu_32(h->src_inc) != p->peer_inc))
			r->stats.rx_stale++;
		else
			r->stats.rx_unknown++;
		if (rte_be_to_cpu_32(h->dst_inc) != r->inc &&
		    (p == NULL || r->now - p->reset_sent > r->hz * RESET_INTERVAL_US / 1000000)) {
			if (p != NULL)
				p->reset_sent = r->now;
			send_unbound(ep, r, &a, rte_be_to_cpu_32(h->src_inc), DFI_PKT_RDM_RESET);
		}
		goto drop;
	}
	heard(r, p);
	if (type == DFI_PKT_RDM_MSG && ack_can_wait(r, p, h)) {
		/* a message's ack waits for the next call (ack_settle()) when
		 * nothing it acknowledges is awaited: the completions the
		 * application sees keep their order (a send's before the
		 * answer's receive, which programs that wait for one context
		 * at a time count on). What else may complete our operations
		 * (DONE, a read's answer) is taken with its ack first. */
		p->later = *h;
		p->later_tsc = r->now;
		r->ack_later = p;
	} else {
		on_ack(ep, r, p, h, type == DFI_PKT_RDM_ACK ?
		       rte_pktmbuf_data_len(m) - (uint32_t)sizeof(*h) : 0);
	}
	peer_activate(r, p);
	switch (type) {
	case DFI_PKT_RDM_ACK:
		if (h->flags & rte_cpu_to_be_16(DFI_RDM_F_PROBE))
			p->ack_owed = true;
		break;
	case DFI_PKT_RDM_RNR:
		/* refused: wait, longer each time in a row, then send it again */
		r->stats.rnr_received++;
		p->rnr_wait = RTE_MIN(RTE_MAX(p->rnr_wait * 2,
					      r->hz * RNR_WAIT_MIN_US / 1000000),
				      r->hz * RNR_WAIT_MAX_US / 1000000);
		p->rnr_until = r->now + p->rnr_wait;
		break;
	case DFI_PKT_RDM_RESUME:
		if (p->rnr_until != 0)
			p->rnr_until = r->now;
		break;
	default:
		seq_rx(ep, r, p, m, rte_be_to_cpu_32(h->psn));
		/* an ack to send now, a hole, a stream's ack: the pass runs */
		r->rx_quiet &= type == DFI_PKT_RDM_MSG && !p->ack_now &&
			       p->rx_unacked < ACK_EVERY && p->nb_held == 0;
		return;
	}
drop:
	r->rx_quiet = false;
	dfi_sink_mbuf_free(&ep->sink, m);
}

static inline bool
rx_posted(const struct rdm_rxq *q)
{
	return !TAILQ_EMPTY(&q->posted_msg) || !TAILQ_EMPTY(&q->posted_tag);
}

/*
 * A burst that used up the posted receives stops there: what follows would
 * be unexpected, copied into records and matched again later, or refused
 * (RNR) and sent again once the records ran out, while the application,
 * back from this call, posts receives for it. A stream whose receiver
 * reposts as it reads its completions then runs without refusals. A burst
 * that began with no receive posted is taken in whole: the application
 * takes its messages as unexpected ones; so is the rest of a message under
 * way, whose receive is claimed already (fi_pingpong posts one receive for
 * its 64 KiB message of eight packets: the seven after the first would
 * wait for another call).
 */
void
rdm_conn_rx(struct dfi_ep *ep, struct dfi_rdm *r, struct rte_mbuf **pkts, uint16_t n)
{
	bool posted = rx_posted(r->rxq);
	uint16_t i;

	r->now = rte_rdtsc();
	r->in_rx = true;
	r->rx_quiet = true;
	for (i = 0; i < n; i++) {
		if (unlikely(posted && !rx_posted(r->rxq)) &&
		    (r->last_peer == NULL || !r->last_peer->in.active)) {
			r->nb_left = n - i;
			memcpy(r->left, pkts + i, sizeof(pkts[0]) * r->nb_left);
			break;
		}
		rx_one(ep, r, pkts[i]);
	}
	r->in_rx = false;
}

uint16_t
rdm_conn_recv(struct dfi_ep *ep, struct dfi_rdm *r, struct rte_mbuf **pkts)
{
	uint16_t n = r->nb_left;

	/* the last call's last message was delivered: its ack now */
	ack_settle(ep, r);
	if (likely(n == 0))
		return dfi_sink_recv(&ep->sink, pkts, DFI_RX_BURST);
	memcpy(pkts, r->left, sizeof(pkts[0]) * n);
	r->nb_left = 0;
	return n;
}

/*
 * The probe timer fired with packets in flight and no news from the peer:
 * the newest packet it has not reported is sent again, asking for an ack at
 * once. Its answer tells what else is missing (probe_answered()). If the
 * newest packet was the one lost, the probe is its repair.
 */
static void
probe(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p)
{
	bool timeout = p->pto_backoff != 0;
	uint32_t psn = p->snd_nxt - 1;

	while (psn != p->snd_una && p->txw[psn & (r->window - 1)].sacked)
		psn--;
	r->stats.tx_probes++;
	r->stats.tx_rto += timeout;
	/* silent for an eighth of the deadline, probes after probes: perhaps
	 * its MAC is not the one we send to (it changed, or a corrupted frame
	 * taught it); sooner would cost an ARP round trip to every loss */
	if (r->now - p->last_heard > RTE_MAX(2 * pto_now(r, p), r->timeout / 8))
		dfi_sink_neigh_refresh(&ep->sink, &p->addr);
	pto_back_off(r, p);
	p->probe_tsc = r->now;
	p->probe_cause = timeout ? RDM_RETX_TIMEOUT : RDM_RETX_PROBE;
	send_retx(ep, r, p, psn, (enum rdm_retx_cause)p->probe_cause, true);
}

/* Timers of one peer. @return false when the peer was failed. */
static bool
peer_timers(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p)
{
	uint64_t pto = pto_now(r, p);

	if (p->state == RDM_PEER_IDLE) {
		/* a connection's peer is reached at once, so that probes may ask it */
		if (p->watched)
			connect_peer(ep, r, p);
		return true;
	}
	if (peer_watched(p) && r->now - p->last_heard > r->timeout) {
		/* a link still down is the likelier reason, and the more useful one */
		if (dfi_port_link_up(ep->sink.port))
			peer_fail(ep, r, p, FI_ETIMEDOUT, "silent past the deadline",
				  &r->stats.peers_timed_out);
		else
			peer_fail(ep, r, p, FI_ENETDOWN, "unreachable past the deadline: the "
				  "link is down", &r->stats.peers_timed_out);
		return false;
	}
	if (p->state == RDM_PEER_CONNECTING) {
		if (r->now - p->last_probe > pto) {
			p->last_probe = r->now;
			pto_back_off(r, p);
			send_ctrl(ep, r, p, DFI_PKT_RDM_CONN, 0, p->snd_una);
		}
		return true;
	}
	if (p->rnr_until != 0 && r->now >= p->rnr_until) {
		p->rnr_until = 0;
		if (seq_lt(p->snd_una, p->snd_nxt))
			send_retx(ep, r, p, p->snd_una, RDM_RETX_RNR, false);
	}
	/* the timer runs from the later of the last packet sent and the last
	 * ack that told something new: a stream that keeps sending or hearing
	 * is not stalled; packets that wait behind a refusal (RNR) are not lost */
	if (p->snd_una != p->snd_nxt && p->rnr_until == 0 &&
	    r->now - RTE_MAX(p->last_tx_tsc, p->ack_tsc) > pto) {
		/* not while an ack that came waits: it may answer what the
		 * probe would ask */
		if (r->ack_later == p)
			ack_settle(ep, r);
		else
			probe(ep, r, p);
	}
	/* waiting on the other side with nothing in flight (a delivery notice,
	 * a message's rest), or connected to it and idle: ask now and then
	 * whether it is still there, so that its death is seen; its own probes
	 * repair its losses */
	if (peer_watched(p) && p->snd_una == p->snd_nxt && r->now - p->last_heard > r->keepalive &&
	    r->now - p->last_probe > r->keepalive) {
		p->last_probe = r->now;
		send_ack(ep, r, p, DFI_RDM_F_PROBE);
	}
	return true;
}

/*
 * The link is up again: what waited for it goes now rather than when its
 * timer, backed off while every try met a link down, says. The deadline
 * still runs from the peer's last word.
 */
static void
link_back(struct dfi_rdm *r)
{
	struct rdm_peer *p;

	for (p = r->active; p != NULL; p = p->next_active) {
		p->pto_backoff = 0;
		p->unanswered = 0;
		p->last_probe = 0;		/* a connection's CONN */
		p->ack_tsc = 0;			/* a probe of what is in flight */
		p->last_tx_tsc = 0;
	}
}

void
rdm_conn_progress(struct dfi_ep *ep, struct dfi_rdm *r)
{
	struct rdm_peer **pp = &r->active, *p;
	uint32_t epoch = dfi_port_link_epoch(ep->sink.port);

	/* reading the clock is not free (a VM may trap it): the timers look at
	 * it every CLOCK_CALLS calls, receiving reads it for every burst */
	if (r->calls % CLOCK_CALLS == 0)
		r->now = rte_rdtsc();
	if (unlikely(epoch != r->link_epoch)) {
		r->link_epoch = epoch;
		if (epoch & 1)
			link_back(r);
	}
	while ((p = *pp) != NULL) {
		if (peer_timers(ep, r, p)) {
			send_news(ep, r, p);
			/* an ack owed since an earlier call goes now, and so does one a
			 * sender waits on, a stream's or a gap's; the others wait a call
			 * for the application's answer to carry them */
			if (p->ack_owed && (p->ack_now || p->ack_call != r->calls ||
					    p->rx_unacked >= ACK_EVERY || p->nb_held != 0)) {
				send_ack(ep, r, p, 0);
			}
		}
		if (!peer_watched(p) && !p->ack_owed && p->state != RDM_PEER_CONNECTING) {
			*pp = p->next_active;
			p->active = false;
			continue;
		}
		pp = &p->next_active;
	}
	r->calls++;
	r->quiet_calls = 0;
	dfi_sink_flush(&ep->sink);
}

void
rdm_conn_quiet(struct dfi_ep *ep, struct dfi_rdm *r)
{
	r->calls++;	/* an ack owed now goes in the next call, as it would */
	r->quiet_calls++;
	dfi_sink_flush(&ep->sink);
}

/* -- closing -- */

/* While lingering: @return 1 when m answers one of our CLOSEs. */
static uint32_t
close_answered(struct dfi_ep *ep, struct dfi_rdm *r, struct rte_mbuf *m)
{
	struct dfi_rdm_hdr *h = rte_pktmbuf_mtod(m, struct dfi_rdm_hdr *);
	struct rdm_peer *p = NULL;
	struct dfi_addr a;
	uint32_t done = 0;

	if (pkt_valid(r, m) && h->type == DFI_PKT_RDM_CLOSE &&
	    rte_be_to_cpu_32(h->dst_inc) == r->inc) {
		dfi_ep_rx_addr(ep, m, &a);
		p = rdm_peer_get(r, &a, false);
	}
	if (p != NULL && p->closing && p->peer_inc == rte_be_to_cpu_32(h->src_inc)) {
		/* its own CLOSE crossed ours: it waits on an answer as well */
		if (h->flags & rte_cpu_to_be_16(DFI_RDM_F_ACK_REQ))
			send_ctrl(ep, r, p, DFI_PKT_RDM_CLOSE, 0, p->snd_nxt);
		p->closing = false;
		done = 1;
	}
	rte_pktmbuf_free(m);
	return done;
}

/*
 * Sends p our CLOSE. @return true when p is an endpoint of our own port
 * (FI_LOCAL_COMM) and the CLOSE is in its inbox: looped back at once, no
 * inbox found full. It is in memory then, not on a wire, and the thread that
 * would answer it may be this one (rdm-protocol.md, "Connections and
 * incarnations").
 */
static bool
close_send(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p)
{
	uint64_t dropped = dfi_sink_lo_dropped(&ep->sink);

	if (!send_ctrl(ep, r, p, DFI_PKT_RDM_CLOSE, DFI_RDM_F_ACK_REQ, p->snd_nxt) ||
	    !dfi_sink_dst_local(&ep->sink, &p->addr))
		return false;
	dfi_sink_flush(&ep->sink);
	return dfi_sink_lo_dropped(&ep->sink) == dropped;
}

/*
 * The endpoint closes. What it had under way is dropped without a word to
 * the application, whose buffers may be gone already. Each connected peer
 * gets a CLOSE, which carries our last acknowledgement, and the endpoint
 * stays on the wire until each answers, CLOSE_LINGER_US pass or the link
 * goes down: a peer that waits on that acknowledgement would otherwise lose
 * it with our port (a memif peer loses what it has not read when we leave),
 * and then wait on a dead peer until its deadline. A peer on our own port is
 * not waited for: its CLOSE is in its inbox, in memory, and the thread that
 * would answer may be this one. Nothing that arrives meanwhile is delivered.
 */
void
rdm_conn_shutdown(struct dfi_ep *ep, struct dfi_rdm *r)
{
	struct rte_mbuf *pkts[DFI_RX_BURST];
	uint32_t i, nb_sent = 0, waiting = 0;
	struct rdm_peer *p;
	struct rdm_op *op;
	uint64_t end;
	uint16_t n, k;

	r->now = rte_rdtsc();
	ack_settle(ep, r);	/* what a waiting ack acknowledged is done */
	for (i = 0; r->peers != NULL && i <= r->peers_mask; i++) {
		p = r->peers[i];
		if (p == NULL)
			continue;
		for (op = p->ops_head; op != NULL; op = op->next) {
			if (op->mr != NULL)
				op->mr->busy--;	/* a read's answer: the region is free */
		}
		p->ops_head = p->ops_tail = p->seg_op = NULL;
		p->snd_una = p->snd_nxt;
		if (p->state != RDM_PEER_UP)
			continue;
		p->last_probe = r->now;
		p->closing = !close_send(ep, r, p);
		waiting += p->closing;
		nb_sent++;
	}
	end = r->now + RTE_MIN(r->timeout, r->hz * CLOSE_LINGER_US / 1000000);
	/* a peer at the other end of a link that went down has left already */
	while (waiting > 0 && r->now < end && dfi_port_link_up(ep->sink.port)) {
		dfi_sink_flush(&ep->sink);
		n = rdm_conn_recv(ep, r, pkts);
		r->now = rte_rdtsc();
		for (k = 0; k < n; k++)
			waiting -= close_answered(ep, r, pkts[k]);
		for (i = 0; waiting > 0 && i <= r->peers_mask; i++) {
			p = r->peers[i];
			if (p == NULL || !p->closing || r->now - p->last_probe <= pto_now(r, p))
				continue;
			p->last_probe = r->now;
			pto_back_off(r, p);
			send_ctrl(ep, r, p, DFI_PKT_RDM_CLOSE, DFI_RDM_F_ACK_REQ, p->snd_nxt);
		}
	}
	if (waiting > 0)
		DFI_INFO(FI_LOG_EP_CTRL, "rdm: %u of %u peers did not answer our CLOSE%s",
			 waiting, nb_sent, dfi_port_link_up(ep->sink.port) ? "" : " (link down)");
	dfi_sink_flush(&ep->sink);
}

/* -- set-up -- */

static uint64_t
param_us(struct dfi_rdm *r, uint64_t us)
{
	return r->hz * us / 1000000;
}

int
rdm_conn_init(struct dfi_ep *ep, struct dfi_rdm *r)
{
	r->inc = rdm_random32();
	r->hz = rte_get_tsc_hz();
	r->now = rte_rdtsc();
	r->peers_mask = RDM_PEER_HASH_MIN - 1;
	r->peers = calloc(RDM_PEER_HASH_MIN, sizeof(*r->peers));
	if (r->peers == NULL)
		return -FI_ENOMEM;
	r->pto_init = param_us(r, PTO_INIT_US);
	r->idle_probe = param_us(r, IDLE_PROBE_US);
	r->pto_max = param_us(r, PTO_MAX_US);
	r->conn_gap = param_us(r, CONN_GAP_US);
	r->conn_fast = param_us(r, CONN_FAST_US);
	RTE_SET_USED(ep);
	return 0;
}

void
rdm_conn_fini(struct dfi_ep *ep, struct dfi_rdm *r)
{
	struct rdm_peer *p;
	uint32_t i;

	RTE_SET_USED(ep);
	rte_pktmbuf_free_bulk(r->left, r->nb_left);
	r->nb_left = 0;
	r->ack_later = NULL;
	for (i = 0; r->peers != NULL && i <= r->peers_mask; i++) {
		p = r->peers[i];
		if (p == NULL)
			continue;
		peer_reset_windows(r, p);
		free(p->txw);
		free(p->rxw);
		free(p);
	}
	free(r->peers);
	r->peers = NULL;
}
