/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * FI_EP_RDM, the message layer: the libfabric send and receive operations
 * (fi_msg, fi_tagged), their pools, segmentation into the reliable protocol
 * (rdm_conn.c), matching of arriving messages with posted receives, the
 * unexpected queue (FI_PEEK, FI_CLAIM, FI_DISCARD), FI_MULTI_RECV and the
 * completions. A message's segments arrive in order, so a peer has at most
 * one message arriving at a time, placed straight into its receive buffer,
 * or buffered in its own mbufs until a receive is posted for it.
 *
 * CQ slots are promised when an operation is posted (dfi_cq_reserve()), so
 * that whatever later completes finds room: a full CQ makes the post return
 * -FI_EAGAIN, and an unexpected message that would need a slot it cannot
 * get is refused (RNR) until the application reads its CQ.
 */

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rdma/fi_endpoint.h>
#include <rdma/fi_tagged.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include "dfi.h"
#include "av.h"
#include "cq.h"
#include "domain.h"
#include "ep.h"
#include "ep_stubs.h"
#include "iov.h"
#include "params.h"
#include "mr.h"
#include "rdm.h"
#include "rdm_atomic.h"
#include "srx.h"
#include "stx.h"

#define RDM_TX_FLAGS	(FI_COMPLETION | FI_INJECT | FI_REMOTE_CQ_DATA | FI_MORE | \
			 FI_INJECT_COMPLETE | FI_TRANSMIT_COMPLETE | FI_DELIVERY_COMPLETE | \
			 FI_MATCH_COMPLETE | FI_TRIGGER)
#define RDM_RX_FLAGS	(FI_COMPLETION | FI_MORE | FI_MULTI_RECV | FI_TRIGGER)
#define RDM_TRX_FLAGS	(FI_COMPLETION | FI_MORE | FI_PEEK | FI_CLAIM | FI_DISCARD | FI_TRIGGER)
#define MIN_MULTI_RECV	64

/* -- pools -- */

struct rdm_op *
rdm_op_alloc(struct dfi_rdm *r)
{
	struct rdm_op *op = r->op_free;

	if (op != NULL) {
		r->op_free = op->next;
		op->next = NULL;
	}
	return op;
}

static void
op_free(struct dfi_rdm *r, struct rdm_op *op)
{
	op->state = RDM_OP_FREE;
	op->next = r->op_free;
	r->op_free = op;
}

static struct rdm_rx *
rx_alloc(struct rdm_rxq *q)
{
	struct rdm_rx *rx = q->rx_free;

	if (rx != NULL) {
		q->rx_free = rx->next;
		rx->next = NULL;
	}
	return rx;
}

static void
rx_free(struct rdm_rxq *q, struct rdm_rx *rx)
{
	rx->posted = false;
	rx->next = q->rx_free;
	q->rx_free = rx;
}

static struct rdm_ux *
ux_alloc(struct rdm_rxq *q, struct dfi_ep *ep)
{
	struct rdm_ux *ux = q->ux_free;

	if (ux != NULL) {
		/* field by field: a memset() of the header was a `rep stos`,
		 * slow to start, once per unexpected message */
		q->ux_free = ux->next;
		ux->next = NULL;
		ux->ep = ep;
		ux->peer = NULL;
		ux->claim = NULL;
		ux->rx = NULL;
		ux->tag = 0;
		ux->data = 0;
		ux->comp_flags = 0;
		ux->msg_seq = 0;
		ux->len = 0;
		ux->got = 0;
		ux->pkt_flags = 0;
		ux->state = RDM_UX_FREE;
		ux->discard = false;
		ux->head = NULL;
		ux->tail = NULL;
		ux->nb_mbufs = 0;
	}
	return ux;
}

static void
ux_drop_data(struct rdm_rxq *q, struct rdm_ux *ux)
{
	struct rte_mbuf *m, *next;

	for (m = ux->head; m != NULL; m = next) {
		next = m->next;
		m->next = NULL;
		rte_pktmbuf_free(m);
	}
	q->ux_held -= ux->nb_mbufs;
	ux->head = ux->tail = NULL;
	ux->nb_mbufs = 0;
}

static void
ux_free(struct rdm_rxq *q, struct rdm_ux *ux)
{
	ux_drop_data(q, ux);
	ux->state = RDM_UX_FREE;
	ux->next = q->ux_free;
	q->ux_free = ux;
}

static void
ux_append(struct rdm_rxq *q, struct rdm_ux *ux)
{
	ux->next = NULL;
	if (q->ux_tail != NULL)
		q->ux_tail->next = ux;
	else
		q->ux_head = ux;
	q->ux_tail = ux;
}

static void
ux_unlink(struct rdm_rxq *q, struct rdm_ux *ux)
{
	struct rdm_ux **pp, *prev = NULL;

	for (pp = &q->ux_head; *pp != NULL && *pp != ux; pp = &(*pp)->next)
		prev = *pp;
	if (*pp == NULL)
		return;
	*pp = ux->next;
	if (q->ux_tail == ux)
		q->ux_tail = prev;
	ux->next = NULL;
}

/* -- addresses -- */

/*
 * The sender's fi_addr_t, kept with the peer and checked against the AV: the
 * AV has its name, which is its address unless it is a scalable endpoint's
 * context.
 */
static fi_addr_t
peer_fi_addr(struct dfi_ep *ep, struct rdm_peer *p)
{
	const struct dfi_av_entry *e;
	struct dfi_addr a, name = p->addr;

	if (ep->av == NULL)
		return FI_ADDR_NOTAVAIL;
	name.port = dfi_port_sub(name.port, p->name_off);
	if (p->fi_addr != FI_ADDR_NOTAVAIL) {
		e = dfi_av_resolve(ep->av, p->fi_addr);
		if (e != NULL) {
			dfi_avs_entry_addr(e, &a);
			if (dfi_addr_equal(&a, &name))
				return p->fi_addr;
		}
	}
	p->fi_addr = dfi_av_reverse(ep->av, &name);
	return p->fi_addr;
}

/* -- completions -- */

static bool
rx_wants_comp(const struct dfi_ep *ep, const struct rdm_rx *rx)
{
	return ep->rx_cq != NULL && (!ep->rx_selective || (rx->flags & FI_COMPLETION));
}

void
rdm_op_complete(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_op *op, int err)
{
	if (op->type == DFI_PKT_RDM_READ_RESP) {
		/* the provider's own answer to a peer's read: the region may
		 * close once it is over */
		if (err == 0) {
			dfi_mr_event(op->mr, FI_REMOTE_READ, ep->guard);
			dfi_ep_count(ep, DFI_CNTR_REMOTE_READ, false);
		}
		dfi_mr_unhold(op->mr);
	}
	if (op->type == DFI_PKT_RDM_DONE || op->type == DFI_PKT_RDM_READ_RESP ||
	    op->type == DFI_PKT_RDM_ATOMIC_RESP) {
		op_free(r, op);		/* the provider's own */
		return;
	}
	r->nb_ops--;
	if (ep->stx != NULL)
		dfi_stx_put(ep->stx, 1);
	if (op->flags & FI_COMPLETION) {
		dfi_cq_unreserve(ep->tx_cq);
		if (err != 0)
			dfi_cq_write_err(ep->tx_cq, op->context, op->comp_flags, 0, NULL, 0, 0, 0,
					 err, FI_ADDR_NOTAVAIL);
		else
			dfi_cq_write(ep->tx_cq, op->context, op->comp_flags, 0, NULL, 0, 0,
				     FI_ADDR_NOTAVAIL);
	} else if (err != 0 && ep->tx_cq != NULL) {
		/* an inject or an unsignaled send failed: fi_cq(3) reports it all the same */
		dfi_cq_write_err_unreserved(ep->tx_cq, op->context, op->comp_flags, err);
	}
	dfi_ep_count(ep, op->cntr, err != 0);
	op_free(r, op);
}

/*
 * A message has all its bytes in rx at off (len of them, of which the
 * receive held got): writes its completion and lets go of a receive that
 * is used up.
 */
static __rte_always_inline void
rx_finish(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, struct rdm_rx *rx,
	  size_t off, uint32_t len, size_t got, uint64_t comp_flags, uint64_t tag,
	  uint64_t data)
{
	uint64_t flags = FI_RECV | comp_flags;
	bool multi = (rx->flags & FI_MULTI_RECV) != 0, release = !multi;
	fi_addr_t src = (ep->caps & FI_SOURCE) ? peer_fi_addr(ep, p) : FI_ADDR_NOTAVAIL;
	void *buf = rx->iov_count > 0 ? (uint8_t *)rx->iov[0].iov_base + off : NULL;

	if (multi && --rx->busy == 0 && !rx->posted) {
		flags |= FI_MULTI_RECV;		/* the buffer goes back */
		release = true;
	}
	if (multi || rx_wants_comp(ep, rx)) {
		dfi_cq_unreserve(ep->rx_cq);
		if (got < len)
			dfi_cq_write_err(ep->rx_cq, rx->context, flags, got, buf, data, tag,
					 len - got, FI_ETRUNC, src);
		else if (multi && !rx_wants_comp(ep, rx) && !(flags & FI_MULTI_RECV))
			;	/* suppressed: only the release is always reported */
		else
			dfi_cq_write(ep->rx_cq, rx->context, flags, len, buf, data, tag, src);
	} else if (got < len && ep->rx_cq != NULL) {
		dfi_cq_write_err_unreserved(ep->rx_cq, rx->context, flags, FI_ETRUNC);
	}
	dfi_ep_count(ep, DFI_CNTR_RECV, got < len);
	r->stats.msgs_received++;
	if (release)
		rx_free(r->rxq, rx);
}

void
rdm_queue_done(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, uint32_t msg_seq,
	       uint16_t flags, int err)
{
	struct rdm_op *op = rdm_op_alloc(r);

	if (op == NULL) {
		/* the pool holds tx_size + rx_size ops: cannot happen */
		DFI_WARN(FI_LOG_EP_DATA, "no op left for a delivery notice");
		return;
	}
	memset(op, 0, sizeof(*op));
	op->peer = p;
	op->type = DFI_PKT_RDM_DONE;
	op->msg_seq = msg_seq;
	op->pkt_flags = flags | (err != 0 ? DFI_RDM_F_ERROR : 0);
	op->data = (uint64_t)err;
	rdm_conn_post(ep, r, op);
}

/* -- posted receives -- */

static struct rdm_rx_list *
posted_list(struct rdm_rxq *q, bool tagged)
{
	return tagged ? &q->posted_tag : &q->posted_msg;
}

/*
 * Whether a receive for src takes a message from p, arriving on ep: an
 * endpoint without FI_DIRECTED_RECV (FI_EP_MSG, whose connection is its
 * source) takes any, as a shared context's receives may name one.
 */
static inline bool
src_accepts(fi_addr_t src, struct dfi_ep *ep, struct rdm_peer *p)
{
	return src == FI_ADDR_UNSPEC || !(ep->caps & FI_DIRECTED_RECV) ||
	       src == peer_fi_addr(ep, p);
}

static bool
rx_accepts(struct dfi_ep *ep, const struct rdm_rx *rx, struct rdm_peer *p, uint64_t tag)
{
	if (rx->tagged && ((tag | rx->ignore) != (rx->tag | rx->ignore)))
		return false;
	return src_accepts(rx->src, ep, p);
}

/* Takes rx off its posted list, if it is on it. */
static void
posted_unlink(struct rdm_rxq *q, struct rdm_rx *rx)
{
	if (rx->posted)
		TAILQ_REMOVE(posted_list(q, rx->tagged), rx, link);
	rx->posted = false;
}

static void
posted_append(struct rdm_rxq *q, struct rdm_rx *rx)
{
	TAILQ_INSERT_TAIL(posted_list(q, rx->tagged), rx, link);
	rx->posted = true;
}

/* Where the next message goes in rx: an FI_MULTI_RECV buffer's first unused
 * byte, any other's start. */
static inline size_t
rx_next_off(const struct rdm_rx *rx)
{
	return (rx->flags & FI_MULTI_RECV) ? rx->used : 0;
}

/*
 * Gives a message of len bytes, arriving on ep, its place in rx: all of
 * it, or for FI_MULTI_RECV the next part of the buffer, whose completion
 * slot is promised now, as is a shared receive's. @return false when that
 * slot cannot be had: ep's CQ is full.
 */
static __rte_always_inline bool
rx_claim_room(struct dfi_ep *ep, struct rdm_rx *rx, uint32_t len, size_t *off, size_t *room)
{
	struct rdm_rxq *q = rdm_of(ep)->rxq;

	if (!(rx->flags & FI_MULTI_RECV)) {
		if (q->shared && rx_wants_comp(ep, rx) && dfi_cq_reserve(ep->rx_cq) != 0)
			return false;
		*off = rx_next_off(rx);
		*room = rx->cap;
		posted_unlink(q, rx);
		return true;
	}
	if (ep->rx_cq == NULL || dfi_cq_reserve(ep->rx_cq) != 0)
		return false;
	*off = rx_next_off(rx);
	*room = RTE_MIN((size_t)len, rx->cap - rx->used);
	rx->used += *room;
	rx->busy++;
	if (rx->cap - rx->used < rx->min_left)
		posted_unlink(q, rx);
	return true;
}

/* -- arriving messages -- */

static void
in_bind(struct rdm_peer *p, struct rdm_rx *rx, size_t off, size_t room)
{
	p->in.rx = rx;
	p->in.rx_off = off;
	p->in.rx_room = room;
}

static __rte_always_inline struct rdm_rx *
rx_match(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, bool tagged, uint64_t tag)
{
	struct rdm_rx *rx;

	TAILQ_FOREACH(rx, posted_list(r->rxq, tagged), link) {
		if (rx_accepts(ep, rx, p, tag))
			return rx;
	}
	return NULL;
}

/* The completion flags of a message whose packets carry pkt_flags. */
static inline uint64_t
in_comp_flags(uint16_t pkt_flags)
{
	return (pkt_flags & DFI_RDM_F_TAGGED ? FI_TAGGED : FI_MSG) |
	       (pkt_flags & DFI_RDM_F_CQ_DATA ? FI_REMOTE_CQ_DATA : 0);
}

/* The whole message is there. */
static void
in_finish(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p)
{
	struct rdm_inmsg *in = &p->in;
	uint64_t comp_flags = in_comp_flags(in->pkt_flags);
	bool delivered = true;

	if (in->rx != NULL)
		rx_finish(ep, r, p, in->rx, in->rx_off, in->len, RTE_MIN(in->rx_room, in->len),
			  comp_flags, in->tag, in->data);
	else if (in->ux != NULL) {
		in->ux->state = RDM_UX_COMPLETE;
		delivered = false;	/* once a receive takes it */
	}
	if (delivered && (in->pkt_flags & DFI_RDM_F_DELIVERY))
		rdm_queue_done(ep, r, p, in->msg_seq, 0, 0);
	memset(in, 0, sizeof(*in));
}

/* The record of an unexpected message (msg_seq, len bytes) whose first
 * segment has header h, not queued yet; NULL when none is free. */
static struct rdm_ux *
ux_open(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, const struct dfi_rdm_hdr *h,
	uint32_t msg_seq, uint32_t len)
{
	uint16_t flags = rte_be_to_cpu_16(h->flags);
	struct rdm_ux *ux = ux_alloc(r->rxq, ep);

	if (ux == NULL)
		return NULL;
	ux->peer = p;
	ux->msg_seq = msg_seq;
	ux->len = len;
	ux->tag = rte_be_to_cpu_64(h->tag);
	ux->data = rte_be_to_cpu_64(h->data);
	ux->pkt_flags = flags;
	ux->comp_flags = in_comp_flags(flags);
	return ux;
}

/* The first segment of a message: where does it go? unmatched: msg_whole()
 * has just found no posted receive for it. */
static enum rdm_take
in_start(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, const struct dfi_rdm_hdr *h,
	 bool unmatched)
{
	uint16_t flags = rte_be_to_cpu_16(h->flags);
	uint32_t len = rte_be_to_cpu_32(h->msg_len), msg_seq = rte_be_to_cpu_32(h->msg_seq);
	uint64_t tag = rte_be_to_cpu_64(h->tag);
	struct rdm_ux *ux = p->blocked;
	struct rdm_rx *rx = NULL;
	size_t off, room;

	if (ux != NULL && ux->msg_seq == msg_seq) {
		/* refused before: has a receive (or FI_DISCARD) taken it since? */
		rx = ux->rx;
		if (rx == NULL && !ux->discard && ux->claim == NULL)
			rx = rx_match(ep, r, p, (flags & DFI_RDM_F_TAGGED) != 0, tag);
		if (rx == NULL && !ux->discard)
			return RDM_REFUSED;
		if (rx != NULL && !rx_claim_room(ep, rx, len, &off, &room))
			return RDM_REFUSED;
		if (ux->rx == NULL && rx != NULL)
			ux_unlink(r->rxq, ux);
		p->in.discard = ux->discard;
		p->blocked = NULL;
		ux_free(r->rxq, ux);
	} else {
		if (!unmatched)
			rx = rx_match(ep, r, p, (flags & DFI_RDM_F_TAGGED) != 0, tag);
		if (rx != NULL && !rx_claim_room(ep, rx, len, &off, &room))
			return RDM_REFUSED;
		if (rx == NULL) {
			ux = ux_open(ep, r, p, h, msg_seq, len);
			if (ux == NULL)
				return RDM_REFUSED;
			ux_append(r->rxq, ux);
			if (len > r->rxq->eager_max) {
				/* too large to buffer: seen by FI_PEEK, refused until matched */
				ux->state = RDM_UX_BLOCKED;
				p->blocked = ux;
				return RDM_REFUSED;
			}
			ux->state = RDM_UX_ARRIVING;
			p->in.ux = ux;
		}
	}
	if (rx != NULL)
		in_bind(p, rx, off, room);
	p->in.active = true;
	p->in.msg_seq = msg_seq;
	p->in.len = len;
	p->in.pkt_flags = flags;
	p->in.tag = tag;
	p->in.data = rte_be_to_cpu_64(h->data);
	p->rcv_msg_seq++;
	return RDM_TAKEN;
}

/*
 * A segment of an unexpected message is buffered: its packet is kept, or,
 * when the packet carries other messages, the segment is copied into an mbuf
 * of its own (small: RDM_BUNDLE_MSG_MAX at most). @return 0, or -FI_ENOMEM.
 */
static int
ux_hold(struct rdm_rxq *q, struct rdm_ux *ux, const struct dfi_rdm_hdr *h, struct rte_mbuf *m,
	const uint8_t *payload, uint32_t len, bool *kept)
{
	if (h->flags & rte_cpu_to_be_16(DFI_RDM_F_BUNDLE)) {
		m = rte_pktmbuf_alloc(q->bundle_pool);
		if (m == NULL)
			return -FI_ENOMEM;
		memcpy(rte_pktmbuf_append(m, (uint16_t)len), payload, len);
	} else {
		rte_pktmbuf_adj(m, (uint16_t)(payload - rte_pktmbuf_mtod(m, const uint8_t *)));
		*kept = true;
	}
	m->next = NULL;
	if (ux->tail != NULL)
		ux->tail->next = m;
	else
		ux->head = m;
	ux->tail = m;
	ux->nb_mbufs++;
	ux->got += len;
	q->ux_held++;
	return 0;
}

/*
 * A message in one packet, next in its sender's order, that no posted
 * receive takes and that its record holds (RDM_UX_INLINE): whole at once,
 * without the state of a message under way, as a stream that outruns its
 * receives has most of its messages. Out of line: inlined into msg_whole()
 * with its copy, it made the matched path's 64-byte round trip 382 against
 * 345 ns (bench_ep, six interleaved pairs), though it never came this way.
 */
static __rte_noinline enum rdm_take
ux_whole(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, const struct dfi_rdm_hdr *h,
	 struct rte_mbuf *m, const uint8_t *payload, uint32_t len)
{
	struct rdm_ux *ux;

	if (rdm_payload_unchecked(h, m) &&
	    dfi_crc32c(payload, len, UINT32_MAX) != rte_be_to_cpu_32(h->pcrc))
		return RDM_BAD;
	ux = ux_open(ep, r, p, h, p->rcv_msg_seq, len);
	if (ux == NULL)
		return RDM_REFUSED;
	p->rcv_msg_seq++;
	ux->got = len;
	ux->state = RDM_UX_COMPLETE;
	/* gcc makes a memcpy() it knows is short a `rep movsb`, whose start
	 * took a third of this path's time */
	rte_memcpy(ux->bytes, payload, len);
	ux_append(r->rxq, ux);
	return RDM_TAKEN;
}

/*
 * Whether message msg_seq, of packet flags flags, may go the way of a whole
 * one (msg_whole(), a bundle's record): next in p's order, no refused one
 * waiting before it, no delivery notice wanted.
 */
static inline bool
msg_next_whole(const struct rdm_peer *p, uint32_t msg_seq, uint16_t flags)
{
	return msg_seq == p->rcv_msg_seq && p->blocked == NULL && !(flags & DFI_RDM_F_DELIVERY);
}

/*
 * Message len bytes at payload, whole and next in p's order, into rx, which
 * takes it: the receive claimed, the bytes copied (payload NULL: there
 * already, checked on the way), the completion written.
 */
static __rte_always_inline enum rdm_take
rx_take_whole(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, struct rdm_rx *rx,
	      const uint8_t *payload, uint32_t len, uint16_t flags, uint64_t tag, uint64_t data)
{
	size_t off, room;

	if (!rx_claim_room(ep, rx, len, &off, &room))
		return RDM_REFUSED;
	room = RTE_MIN(room, (size_t)len);
	if (payload != NULL)
		dfi_iov_scatter(rx->iov, rx->iov_count, off, payload, room);
	p->rcv_msg_seq++;
	rx_finish(ep, r, p, rx, off, len, room, in_comp_flags(flags), tag, data);
	return RDM_TAKEN;
}

/*
 * A message in one packet, next in its sender's order, that a posted
 * receive takes: straight into it, without the state of a message under
 * way (in_start(), in_finish()). Its payload is checked as it is copied to
 * where the receive would take it, and the receive is claimed after: a bad
 * CRC leaves nothing to undo (the bytes are in memory posted for messages,
 * which its resend or a later message writes again). Unmatched, it goes to
 * ux_whole() when its record holds it. @return false when the general path
 * is to take it (unexpected and larger, a delivery notice wanted, a sender
 * out of order, a refused message waiting; *unmatched when it found no
 * receive), else *take.
 */
static bool
msg_whole(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, const struct dfi_rdm_hdr *h,
	  struct rte_mbuf *m, const uint8_t *payload, uint32_t len, enum rdm_take *take,
	  bool *unmatched)
{
	uint16_t flags = rte_be_to_cpu_16(h->flags);
	uint64_t tag = rte_be_to_cpu_64(h->tag);
	struct rdm_rx *rx;
	bool checked;

	if (h->offset != 0 || rte_be_to_cpu_32(h->msg_len) != len ||
	    !msg_next_whole(p, rte_be_to_cpu_32(h->msg_seq), flags))
		return false;
	rx = rx_match(ep, r, p, (flags & DFI_RDM_F_TAGGED) != 0, tag);
	if (rx == NULL && len <= RDM_UX_INLINE && len <= r->rxq->eager_max) {
		*take = ux_whole(ep, r, p, h, m, payload, len);
		return true;
	}
	if (rx == NULL) {
		*unmatched = true;
		return false;
	}
	checked = !rdm_payload_unchecked(h, m);
	if (!checked) {
		/* one pass: the copy with its CRC, where the claim puts it */
		if (dfi_iov_scatter_crc(rx->iov, rx->iov_count, rx_next_off(rx), payload, len,
					UINT32_MAX) !=
		    rte_be_to_cpu_32(h->pcrc)) {
			*take = RDM_BAD;
			return true;
		}
	}
	*take = rx_take_whole(ep, r, p, rx, checked ? payload : NULL, len, flags, tag,
			      rte_be_to_cpu_64(h->data));
	return true;
}

enum rdm_take
rdm_msg_segment(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p,
		const struct dfi_rdm_hdr *h, struct rte_mbuf *m, const uint8_t *payload,
		uint32_t len, bool *kept)
{
	struct rdm_inmsg *in = &p->in;
	uint32_t offset = rte_be_to_cpu_32(h->offset);
	bool unchecked = rdm_payload_unchecked(h, m);
	bool small, unmatched = false;
	enum rdm_take take;
	size_t n;

	*kept = false;
	if (!in->active && msg_whole(ep, r, p, h, m, payload, len, &take, &unmatched))
		return take;
	if (!in->active) {
		if (unlikely(offset != 0 || rte_be_to_cpu_32(h->msg_seq) != p->rcv_msg_seq ||
			     rte_be_to_cpu_32(h->msg_len) > ep->max_msg_size)) {
			DFI_WARN(FI_LOG_EP_DATA, "message %u at %u of %u: out of sequence, dropped",
				 rte_be_to_cpu_32(h->msg_seq), offset,
				 rte_be_to_cpu_32(h->msg_len));
			return RDM_TAKEN;
		}
		if ((rte_be_to_cpu_16(h->flags) & DFI_RDM_F_DELIVERY) &&
		    r->op_free == NULL)
			return RDM_REFUSED;	/* no op for its delivery notice yet */
		if (in_start(ep, r, p, h, unmatched) == RDM_REFUSED)
			return RDM_REFUSED;
	}
	if (unlikely(offset != in->got || (uint64_t)offset + len > in->len)) {
		DFI_WARN(FI_LOG_EP_DATA, "segment at %u of message %u: expected %u, dropped",
			 offset, in->msg_seq, in->got);
		return RDM_TAKEN;
	}
	if (in->rx != NULL) {
		n = offset < in->rx_room ? RTE_MIN((size_t)len, in->rx_room - offset) : 0;
		if (!unchecked) {
			dfi_iov_scatter(in->rx->iov, in->rx->iov_count, in->rx_off + offset,
					payload, n);
		} else if (dfi_iov_scatter_crc(in->rx->iov, in->rx->iov_count, in->rx_off + offset,
					       payload, len, UINT32_MAX) !=
			   rte_be_to_cpu_32(h->pcrc)) {
			/* what it wrote is the message's own place: the retry writes it again */
			return RDM_BAD;
		}
	} else if (in->ux != NULL && len > 0) {
		small = len == in->len && len <= RDM_UX_INLINE;
		if (!small && r->rxq->ux_held >= r->rxq->ux_budget)
			return RDM_REFUSED;
		if (unchecked && dfi_crc32c(payload, len, UINT32_MAX) != rte_be_to_cpu_32(h->pcrc))
			return RDM_BAD;
		if (small) {
			memcpy(in->ux->bytes, payload, len);
			in->ux->got = len;
		} else if (ux_hold(r->rxq, in->ux, h, m, payload, len, kept) != 0) {
			return RDM_REFUSED;
		}
	}
	in->got += len;
	if (in->got == in->len)
		in_finish(ep, r, p);
	return RDM_TAKEN;
}

/*
 * A bundle: its messages in order, each as a message of one segment. A
 * message refused (no receive, no room) refuses the packet, which comes
 * again: the messages before it were delivered and are skipped then, and
 * the refused one, if it was started, goes on where it stopped.
 */
enum rdm_take
rdm_msg_bundle(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p,
	       const struct dfi_rdm_hdr *h, struct rte_mbuf *m, const uint8_t *payload,
	       uint32_t len)
{
	const uint16_t own = DFI_RDM_F_TAGGED | DFI_RDM_F_CQ_DATA | DFI_RDM_F_DELIVERY;
	uint32_t nb = rte_be_to_cpu_32(h->msg_len), seq = rte_be_to_cpu_32(h->msg_seq), i;
	struct dfi_rdm_hdr one = *h;
	struct dfi_rdm_rec rec;
	enum rdm_take take;
	struct rdm_rx *rx;
	rte_be16_t flags;
	uint32_t rlen;
	bool kept;

	if (rdm_payload_unchecked(h, m)) {
		if (dfi_crc32c(payload, len, UINT32_MAX) != rte_be_to_cpu_32(h->pcrc))
			return RDM_BAD;
		dfi_rx_meta(m)->verified = 1;
	}
	for (i = 0; i < nb; i++, seq++) {
		if (unlikely(len < sizeof(rec)))
			goto bad;
		memcpy(&rec, payload, sizeof(rec));
		rlen = rte_be_to_cpu_32(rec.len);
		if (unlikely(rlen > len - sizeof(rec)))
			goto bad;
		flags = (h->flags & ~rte_cpu_to_be_16(own)) | (rec.flags & rte_cpu_to_be_16(own));
		rx = NULL;
		/* the next message, none under way: to a receive that takes it
		 * at once, without a header of its own (msg_whole()'s way) */
		if (!p->in.active && msg_next_whole(p, seq, rte_be_to_cpu_16(flags)))
			rx = rx_match(ep, r, p, (flags & rte_cpu_to_be_16(DFI_RDM_F_TAGGED)) != 0,
				      rte_be_to_cpu_64(rec.tag));
		if (rx != NULL) {
			take = rx_take_whole(ep, r, p, rx, payload + sizeof(rec), rlen,
					     rte_be_to_cpu_16(flags), rte_be_to_cpu_64(rec.tag),
					     rte_be_to_cpu_64(rec.data));
		} else if ((int32_t)(seq - p->rcv_msg_seq) >= 0 ||
			   (p->in.active && seq == p->in.msg_seq)) {
			one.flags = flags;
			one.msg_seq = rte_cpu_to_be_32(seq);
			one.offset = 0;
			one.msg_len = rec.len;
			one.tag = rec.tag;
			one.data = rec.data;
			take = rdm_msg_segment(ep, r, p, &one, m, payload + sizeof(rec), rlen,
					       &kept);
		} else {
			take = RDM_TAKEN;	/* delivered before this packet was refused */
		}
		if (take != RDM_TAKEN)
			return take;
		payload += sizeof(rec) + rlen;
		len -= (uint32_t)sizeof(rec) + rlen;
	}
	return RDM_TAKEN;
bad:
	DFI_WARN(FI_LOG_EP_DATA, "a bundle of %u messages from %u is malformed at %u: dropped",
		 nb, rte_be_to_cpu_32(h->msg_seq), i);
	return RDM_TAKEN;
}

/*
 * What a peer was sending us will not come (err: positive): the receive it
 * was filling fails, and what waited for a receive goes. A receive that a
 * refused message had matched waits for another.
 */
static void
in_abort(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, int err)
{
	struct rdm_inmsg *in = &p->in;
	struct rdm_rxq *q = r->rxq;
	struct rdm_ux *ux;

	if (in->active && in->rx != NULL) {
		/* the rest of the message will not come */
		if ((in->rx->flags & FI_MULTI_RECV) || rx_wants_comp(ep, in->rx)) {
			dfi_cq_unreserve(ep->rx_cq);
			dfi_cq_write_err(ep->rx_cq, in->rx->context, FI_RECV, 0, NULL, 0, 0, 0,
					 err, FI_ADDR_NOTAVAIL);
		} else if (ep->rx_cq != NULL) {
			dfi_cq_write_err_unreserved(ep->rx_cq, in->rx->context, FI_RECV, err);
		}
		dfi_ep_count(ep, DFI_CNTR_RECV, true);
		if (!(in->rx->flags & FI_MULTI_RECV) || (--in->rx->busy == 0 && !in->rx->posted))
			rx_free(q, in->rx);
	}
	if (in->active && in->ux != NULL) {
		ux_unlink(q, in->ux);
		ux_free(q, in->ux);
	}
	ux = p->blocked;
	if (ux != NULL) {
		ux_unlink(q, ux);
		if (ux->rx != NULL) {
			/* it had matched a receive: that receive waits for another message */
			posted_append(q, ux->rx);
		}
		ux_free(q, ux);
		p->blocked = NULL;
	}
	memset(in, 0, sizeof(*in));
}

void
rdm_msg_peer_lost(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, int err)
{
	in_abort(ep, r, p, err);
	if (r->peer_lost != NULL)
		r->peer_lost(ep, p, err);
}

/*
 * An endpoint on a shared receive queue closes: the messages its peers were
 * placing in the queue's receives fail (FI_ECANCELED, on its CQ, still
 * bound), and its unexpected messages leave the queue, which outlives it.
 */
static void
rxq_leave(struct dfi_ep *ep, struct dfi_rdm *r)
{
	struct rdm_rxq *q = r->rxq;
	struct rdm_ux *ux, *next;
	uint32_t i;

	for (i = 0; r->peers != NULL && i <= r->peers_mask; i++) {
		if (r->peers[i] != NULL)
			in_abort(ep, r, r->peers[i], FI_ECANCELED);
	}
	for (ux = q->ux_head; ux != NULL; ux = next) {
		next = ux->next;
		if (ux->ep == ep) {
			ux_unlink(q, ux);
			ux_free(q, ux);
		}
	}
}

/* -- sends -- */

/* @return whether the transmit queue (and a shared context's) takes one more. */
static inline bool
tx_take(struct dfi_ep *ep, const struct dfi_rdm *r)
{
	return r->nb_ops < ep->tx_size && (ep->stx == NULL || dfi_stx_take(ep->stx));
}

/* The packets' flag of an operation's remote CQ data, of its flags. */
static inline uint16_t
cq_data_flag(uint64_t flags)
{
	return (flags & FI_REMOTE_CQ_DATA) ? DFI_RDM_F_CQ_DATA : 0;
}

/*
 * An inject without completion or delivery notice (flags, pkt_flags: a
 * message's, with DFI_RDM_F_CQ_DATA where it carries data) sent at once to
 * p, without an operation, where rdm_conn_inject() takes it. @return
 * whether it did.
 */
static __rte_always_inline bool
inject_now(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p, uint64_t flags,
	   uint16_t pkt_flags, const struct iovec *iov, size_t count, size_t len, uint64_t tag,
	   uint64_t data)
{
	if ((flags & (FI_INJECT | FI_MORE)) != FI_INJECT || (pkt_flags & DFI_RDM_F_DELIVERY) ||
	    ep->stx != NULL ||
	    !rdm_conn_inject(ep, r, p, iov, count, (uint32_t)len, tag, data, pkt_flags))
		return false;
	r->stats.msgs_sent++;
	dfi_sink_flush(&ep->sink);
	return true;
}

/* A post checked and within the endpoint's limits, with its guard held. */
static __rte_always_inline ssize_t
post_locked(struct dfi_ep *ep, const struct rdm_post *req, size_t len)
{
	struct dfi_rdm *r = rdm_of(ep);
	const struct dfi_av_entry *e;
	uint64_t flags = req->flags;
	uint16_t pkt_flags = req->pkt_flags | cq_data_flag(flags);
	struct rdm_peer *p;
	struct rdm_op *op;
	struct dfi_addr a;
	size_t i;
	bool comp;

	if (unlikely(!ep->enabled))
		return -FI_EOPBADSTATE;
	if (r->connected_only) {
		/* fi_cm(3): nothing is sent before FI_CONNECTED */
		p = r->peer;
		if (unlikely(p == NULL))
			return -FI_EOPBADSTATE;
	} else if (likely(dfi_av_memo_holds(&r->tx_memo, req->dest))) {
		p = r->tx_peer;
	} else {
		e = dfi_av_memo_resolve(ep->av, &r->tx_memo, req->dest);
		if (unlikely(e == NULL)) {
			DFI_INFO(FI_LOG_EP_DATA, "send to 0x%" PRIx64 ": not in the AV",
				 req->dest);
			return -FI_EINVAL;
		}
		dfi_av_dest(ep->av, e, req->dest, &a);
		p = rdm_peer_get(r, &a, true);
		if (unlikely(p == NULL)) {
			r->tx_memo.e = NULL;	/* kept only with its peer */
			return -FI_ENOMEM;
		}
		r->tx_peer = p;
	}
	comp = ep->tx_cq != NULL && !(flags & DFI_F_NO_COMPLETION) &&
	       (!ep->tx_selective || (flags & FI_COMPLETION));
	/* a full queue may hold sends whose ack came already and waits */
	if (unlikely(!tx_take(ep, r)) && !(rdm_conn_settle(ep, r) && tx_take(ep, r)))
		return -FI_EAGAIN;
	/* an inject without completion or notice goes at once when it can,
	 * without an op */
	if (!comp && req->type == DFI_PKT_RDM_MSG &&
	    inject_now(ep, r, p, flags, pkt_flags, req->iov, req->count, len, req->tag,
		       req->data))
		return 0;
	if (unlikely(comp && dfi_cq_reserve(ep->tx_cq) != 0))
		goto err_stx;
	op = rdm_op_alloc(r);
	if (unlikely(op == NULL)) {
		/* delivery notices hold the rest of the pool for now */
		if (comp)
			dfi_cq_unreserve(ep->tx_cq);
		goto err_stx;
	}
	op->peer = p;
	op->context = req->context;
	op->flags = (flags & ~FI_COMPLETION) | (comp ? FI_COMPLETION : 0);
	op->comp_flags = req->comp_flags;
	op->tag = req->tag;
	op->data = (flags & FI_REMOTE_CQ_DATA) ? req->data : 0;
	op->key = req->key;
	op->mr = NULL;
	op->type = req->type;
	op->cntr = req->cntr;
	op->pkt_flags = pkt_flags;
	/* a read sends a request of no payload; its iovecs take the answer */
	op->len = req->type == DFI_PKT_RDM_READ_REQ ? 0 : (uint32_t)len;
	op->rma_len = (uint32_t)len;
	op->got = 0;
	op->answered = false;
	op->sent = 0;
	op->unacked = 0;
	if (req->type == DFI_PKT_RDM_MSG) {
		op->msg_seq = rdm_conn_next_msg_seq(p);
		r->stats.msgs_sent++;
	} else {
		op->msg_seq = p->next_rma_seq++;
	}
	if (req->atomic != NULL) {
		/* its request is built in a buffer of its own: never the application's */
		rdm_atomic_op_init(r, op, req->atomic);
	} else if (flags & FI_INJECT) {
		/* the buffer is the application's again when this call returns */
		op->iov[0].iov_base = len <= RDM_INJECT_SMALL ?
			r->inject_small + (size_t)(op - r->ops) * RDM_INJECT_SMALL :
			r->inject_bufs + (size_t)(op - r->ops) * ep->inject_size;
		op->iov[0].iov_len = len;
		dfi_iov_gather(op->iov[0].iov_base, req->iov, req->count, 0, len);
		op->iov_count = 1;
	} else {
		for (i = 0; i < req->count; i++)
			op->iov[i] = req->iov[i];
		op->iov_count = (uint32_t)req->count;
	}
	r->nb_ops++;
	rdm_conn_post(ep, r, op);
	if (!(flags & FI_MORE))
		dfi_sink_flush(&ep->sink);
	return 0;
err_stx:
	if (ep->stx != NULL)
		dfi_stx_put(ep->stx, 1);
	return -FI_EAGAIN;
}

ssize_t
rdm_post(struct dfi_ep *ep, const struct rdm_post *req)
{
	struct dfi_guard *held;
	size_t len;
	ssize_t ret;

	if (unlikely(req->flags & FI_TRIGGER))
		return rdm_trig_post(ep, req, NULL);
	ret = rdm_post_check(ep, req, &len);
	if (unlikely(ret != 0))
		return ret;
	held = dfi_guard_lock(ep->guard);
	ret = post_locked(ep, req, len);
	dfi_guard_unlock(held);
	return ret;
}

ssize_t
rdm_post_locked(struct dfi_ep *ep, const struct rdm_post *req)
{
	size_t len;
	ssize_t ret = rdm_post_check(ep, req, &len);

	return ret != 0 ? ret : post_locked(ep, req, len);
}

/* A send's request, of the calls' arguments. */
static __rte_always_inline struct rdm_post
tx_req(const struct iovec *iov, size_t count, fi_addr_t dest, uint64_t tag, uint64_t data,
       void *context, uint64_t flags, bool tagged)
{
	struct rdm_post req = {
		.iov = iov,
		.count = count,
		.dest = dest,
		.tag = tag,
		.data = data,
		.context = context,
		.flags = flags,
		.comp_flags = FI_SEND | (tagged ? FI_TAGGED : FI_MSG),
		.type = DFI_PKT_RDM_MSG,
		.cntr = DFI_CNTR_SEND,
		.pkt_flags = (tagged ? DFI_RDM_F_TAGGED : 0) |
			     ((flags & (FI_DELIVERY_COMPLETE | FI_MATCH_COMPLETE)) ?
			      DFI_RDM_F_DELIVERY : 0),
	};

	return req;
}

static ssize_t
rdm_tx(struct dfi_ep *ep, const struct iovec *iov, size_t count, fi_addr_t dest, uint64_t tag,
       uint64_t data, void *context, uint64_t flags, bool tagged)
{
	struct rdm_post req = tx_req(iov, count, dest, tag, data, context, flags, tagged);

	return rdm_post(ep, &req);
}

/* An inject that did not go at once (rdm_tx_inject()), posted as any send,
 * its guard held: apart, so that its request is built only here. */
static __rte_noinline ssize_t
tx_inject_post(struct dfi_ep *ep, const struct iovec *iov, fi_addr_t dest, uint64_t tag,
	       uint64_t data, uint64_t flags, bool tagged)
{
	struct rdm_post req = tx_req(iov, 1, dest, tag, data, NULL, flags, tagged);

	return rdm_post_locked(ep, &req);
}

/*
 * fi_inject() and its kin: at once where it can (inject_now()), to a peer
 * the AV's memo holds, without the request a post builds (60 instructions
 * of a 64-byte inject's, callgrind, bench_ep); otherwise as any send.
 */
static __rte_noinline ssize_t
rdm_tx_inject(struct dfi_ep *ep, const void *buf, size_t len, fi_addr_t dest, uint64_t tag,
	      uint64_t data, uint64_t flags, bool tagged)
{
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };
	uint64_t all = ep->tx_op_flags | FI_INJECT | DFI_F_NO_COMPLETION | flags;
	uint16_t pkt_flags = (tagged ? DFI_RDM_F_TAGGED : 0) | cq_data_flag(flags);
	struct dfi_rdm *r = rdm_of(ep);
	struct dfi_guard *held;
	ssize_t ret;

	if (unlikely(all & (FI_TRIGGER | FI_DELIVERY_COMPLETE | FI_MATCH_COMPLETE)))
		return rdm_tx(ep, &iov, 1, dest, tag, data, NULL, all, tagged);
	held = dfi_guard_lock(ep->guard);
	/* a shared context's credit is taken by the post that keeps it
	 * (post_locked()), never here */
	if (likely(len <= ep->inject_size && ep->enabled && !r->connected_only &&
		   ep->stx == NULL && dfi_av_memo_holds(&r->tx_memo, dest) && tx_take(ep, r)) &&
	    inject_now(ep, r, r->tx_peer, all, pkt_flags, &iov, 1, len, tag, data))
		ret = 0;
	else
		ret = tx_inject_post(ep, &iov, dest, tag, data, all, tagged);
	dfi_guard_unlock(held);
	return ret;
}

/* -- receives -- */

static struct rdm_ux *
ux_find(struct rdm_rxq *q, bool tagged, uint64_t tag, uint64_t ignore, fi_addr_t src,
	void *claim)
{
	struct rdm_ux *ux;

	for (ux = q->ux_head; ux != NULL; ux = ux->next) {
		if (ux->claim != claim || ux->rx != NULL || ux->discard ||
		    ((ux->comp_flags & FI_TAGGED) != 0) != tagged)
			continue;
		if (claim != NULL)
			return ux;
		if (tagged && (ux->tag | ignore) != (tag | ignore))
			continue;
		if (!src_accepts(src, ux->ep, ux->peer))
			continue;
		return ux;
	}
	return NULL;
}

/*
 * Gives an unexpected message to a receive that matches it; its completion
 * goes to the endpoint it arrived on. @return false when that endpoint's CQ
 * has no room for it (a multi-receive buffer's, or a shared receive's).
 */
static bool
ux_take(struct rdm_ux *ux, struct rdm_rx *rx)
{
	struct dfi_ep *ep = ux->ep;
	struct dfi_rdm *r = rdm_of(ep);
	struct rdm_peer *p = ux->peer;
	size_t off = 0, room = rx->cap, got;

	if (ux->state == RDM_UX_BLOCKED) {
		/* its sender was refused: it may send now, into rx */
		ux_unlink(r->rxq, ux);
		ux->rx = rx;
		rdm_conn_resume(ep, r, p);
		return true;
	}
	if (!rx_claim_room(ep, rx, ux->len, &off, &room))
		return false;
	ux_unlink(r->rxq, ux);
	if (ux->head != NULL)
		got = dfi_iov_scatter_mbuf(rx->iov, rx->iov_count, off, ux->head, 0);
	else
		got = dfi_iov_scatter(rx->iov, rx->iov_count, off, ux->bytes,
				      RTE_MIN((size_t)ux->got, room));
	got = RTE_MIN(got, room);
	if (ux->state == RDM_UX_COMPLETE) {
		rx_finish(ep, r, p, rx, off, ux->len, RTE_MIN(room, (size_t)ux->len),
			  ux->comp_flags, ux->tag, ux->data);
		if (ux->pkt_flags & DFI_RDM_F_DELIVERY)
			rdm_queue_done(ep, r, p, ux->msg_seq, 0, 0);
	} else {
		/* still arriving: the rest goes straight into rx */
		in_bind(p, rx, off, room);
		p->in.ux = NULL;
	}
	ux_free(r->rxq, ux);
	return true;
}

static void
ux_discard(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_ux *ux)
{
	struct rdm_peer *p = ux->peer;

	if (ux->state == RDM_UX_BLOCKED) {
		/* refused so far: take it now, into nowhere */
		ux_unlink(r->rxq, ux);
		ux->discard = true;
		rdm_conn_resume(ep, r, p);
		return;
	}
	ux_unlink(r->rxq, ux);
	if (ux->state == RDM_UX_ARRIVING) {
		p->in.ux = NULL;
		p->in.discard = true;
	} else if (ux->pkt_flags & DFI_RDM_F_DELIVERY) {
		rdm_queue_done(ep, r, p, ux->msg_seq, 0, 0);
	}
	ux_free(r->rxq, ux);
}

/*
 * FI_CLAIM | FI_DISCARD: the claimed message goes without its data, and the
 * request completes (length 0) as every receive does, or a program that
 * waits for it waits forever. Its sender's operation completes as usual.
 */
static ssize_t
claim_discard(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_ux *ux, void *context)
{
	uint64_t comp_flags = ux->comp_flags, data = ux->data, tag = ux->tag;
	fi_addr_t src = (ep->caps & FI_SOURCE) ? peer_fi_addr(ep, ux->peer) : FI_ADDR_NOTAVAIL;

	if (ep->rx_cq == NULL || dfi_cq_room(ep->rx_cq) == 0)
		return -FI_EAGAIN;
	ux_discard(ep, r, ux);
	dfi_cq_write(ep->rx_cq, context, FI_RECV | comp_flags, 0, NULL, data, tag, src);
	return 0;
}

/* FI_PEEK, alone or with FI_CLAIM or FI_DISCARD. */
static ssize_t
rx_peek(struct dfi_ep *ep, struct dfi_rdm *r, fi_addr_t src, uint64_t tag, uint64_t ignore,
	void *context, uint64_t flags)
{
	struct rdm_ux *ux;

	if (ep->rx_cq == NULL || dfi_cq_room(ep->rx_cq) == 0)
		return -FI_EAGAIN;
	ux = ux_find(r->rxq, true, tag, ignore, src, NULL);
	if (ux == NULL) {
		dfi_cq_write_err(ep->rx_cq, context, FI_RECV | FI_TAGGED, 0, NULL, 0, tag, 0,
				 FI_ENOMSG, FI_ADDR_NOTAVAIL);
		return 0;
	}
	dfi_cq_write(ep->rx_cq, context, FI_RECV | ux->comp_flags, ux->len, NULL, ux->data,
		     ux->tag, (ep->caps & FI_SOURCE) ? peer_fi_addr(ep, ux->peer) :
						       FI_ADDR_NOTAVAIL);
	if (flags & FI_CLAIM)
		ux->claim = context;
	else if (flags & FI_DISCARD)
		ux_discard(ep, r, ux);
	return 0;
}

/*
 * A receive, checked, into a queue (its guard held): ep's own, whose
 * CQ slot is promised now, or a shared one (ep NULL), whose slot the
 * endpoint a message arrives on promises when the message matches. ux is
 * the message it claimed (FI_CLAIM), if any.
 */
static __rte_always_inline ssize_t
rxq_post(struct rdm_rxq *q, struct dfi_ep *ep, const struct rdm_post *req,
	 const struct rdm_rx_args *args, fi_addr_t src, size_t min_left, struct rdm_ux *ux)
{
	uint64_t flags = req->flags;
	struct rdm_rx *rx;
	size_t i;

	rx = rx_alloc(q);
	if (rx == NULL)
		return -FI_EAGAIN;
	rx->context = req->context;
	rx->flags = flags;
	rx->tag = req->tag;
	rx->ignore = args->ignore;
	rx->src = src;
	rx->tagged = args->tagged;
	rx->used = 0;
	rx->busy = 0;
	rx->posted = false;
	rx->min_left = min_left;
	rx->iov_count = (uint32_t)req->count;
	rx->cap = 0;
	/* field by field: fi_recv() built its iovec on the stack a field at a
	 * time, and a load of both at once would wait for those stores */
	for (i = 0; i < req->count; i++) {
		rx->iov[i].iov_base = req->iov[i].iov_base;
		rx->iov[i].iov_len = req->iov[i].iov_len;
		rx->cap += req->iov[i].iov_len;
	}
	if (ep != NULL && !(flags & FI_MULTI_RECV) && rx_wants_comp(ep, rx) &&
	    dfi_cq_reserve(ep->rx_cq) != 0) {
		rx_free(q, rx);
		return -FI_EAGAIN;
	}
	if (flags & FI_MULTI_RECV) {
		/* what is waiting fills it first, as far as it has room; a message
		 * refused for its size is left to its sender's retry */
		while (rx->cap - rx->used >= min_left &&
		       (ux = ux_find(q, args->tagged, req->tag, args->ignore, src, NULL)) != NULL &&
		       ux->state != RDM_UX_BLOCKED && ux_take(ux, rx))
			dfi_sink_flush(&ux->ep->sink);	/* a delivery notice */
		if (rx->cap - rx->used >= min_left || rx->busy == 0)
			posted_append(q, rx);
		return 0;
	}
	if (ux == NULL)
		ux = ux_find(q, args->tagged, req->tag, args->ignore, src, NULL);
	else
		ux->claim = NULL;
	if (ux == NULL) {
		posted_append(q, rx);
	} else if (ux_take(ux, rx)) {
		dfi_sink_flush(&ux->ep->sink);	/* a RESUME, a delivery notice */
	} else {
		/* only a shared receive finds the CQ full here: none was promised */
		rx_free(q, rx);
		return -FI_EAGAIN;
	}
	return 0;
}

/* A receive checked, with its guard held. */
static __rte_always_inline ssize_t
rx_post_locked(struct dfi_ep *ep, const struct rdm_post *req, const struct rdm_rx_args *args)
{
	struct dfi_rdm *r = rdm_of(ep);
	fi_addr_t src = (ep->caps & FI_DIRECTED_RECV) ? req->dest : FI_ADDR_UNSPEC;
	struct rdm_ux *ux = NULL;

	if (unlikely(!ep->enabled))
		return -FI_EOPBADSTATE;
	if (unlikely(r->rxq->shared)) {
		DFI_INFO(FI_LOG_EP_DATA, "a receive on an endpoint of a shared receive "
			 "context: post it to the context");
		return -FI_EOPNOTSUPP;
	}
	if (req->flags & FI_PEEK)
		return rx_peek(ep, r, src, req->tag, args->ignore, req->context, req->flags);
	if (req->flags & FI_CLAIM) {
		ux = ux_find(r->rxq, true, 0, 0, FI_ADDR_UNSPEC, req->context);
		if (ux == NULL)
			return -FI_EINVAL;	/* nothing was claimed with this context */
		if (req->flags & FI_DISCARD)
			return claim_discard(ep, r, ux, req->context);
	}
	return rxq_post(r->rxq, ep, req, args, src, ep->min_multi_recv, ux);
}

/* A receive's request, of the calls' arguments. */
static __rte_always_inline struct rdm_post
rx_req(const struct iovec *iov, size_t count, fi_addr_t src, uint64_t tag, void *context,
       uint64_t flags)
{
	struct rdm_post req = {
		.iov = iov, .count = count, .dest = src, .tag = tag,
		.context = context, .flags = flags,
	};

	return req;
}

/* A triggered receive, deferred: apart, so that the request of the others
 * (rdm_rx_post()) never goes to memory. */
static __rte_noinline ssize_t
rx_trig_post(struct dfi_ep *ep, const struct iovec *iov, size_t count, fi_addr_t src,
	     uint64_t tag, uint64_t ignore, void *context, uint64_t flags, bool tagged)
{
	struct rdm_post req = rx_req(iov, count, src, tag, context, flags);
	struct rdm_rx_args args = { .ignore = ignore, .tagged = tagged };

	return rdm_trig_post(ep, &req, &args);
}

static __rte_always_inline ssize_t
rdm_rx_post(struct dfi_ep *ep, const struct iovec *iov, size_t count, fi_addr_t src,
	    uint64_t tag, uint64_t ignore, void *context, uint64_t flags, bool tagged)
{
	struct dfi_guard *held;
	struct rdm_post req = rx_req(iov, count, src, tag, context, flags);
	struct rdm_rx_args args = { .ignore = ignore, .tagged = tagged };
	ssize_t ret;

	if (unlikely(!rdm_iov_ok(ep, iov, count)))
		return -FI_EINVAL;
	if (unlikely((flags & ~(tagged ? RDM_TRX_FLAGS : RDM_RX_FLAGS)) != 0 ||
		     ((flags & FI_DISCARD) && !(flags & (FI_PEEK | FI_CLAIM))) ||
		     ((flags & FI_TRIGGER) && (flags & (FI_PEEK | FI_CLAIM)))))
		return -FI_EBADFLAGS;
	if (unlikely(flags & FI_TRIGGER))
		return rx_trig_post(ep, iov, count, src, tag, ignore, context, flags, tagged);
	held = dfi_guard_lock(ep->guard);
	ret = rx_post_locked(ep, &req, &args);
	dfi_guard_unlock(held);
	return ret;
}

ssize_t
rdm_rx_post_locked(struct dfi_ep *ep, const struct rdm_post *req, const struct rdm_rx_args *rx)
{
	return rx_post_locked(ep, req, rx);
}

ssize_t
rdm_rxq_post(struct rdm_rxq *q, const struct rdm_post *req, const struct rdm_rx_args *rx,
	     size_t min_multi_recv)
{
	return rxq_post(q, NULL, req, rx, req->dest, min_multi_recv, NULL);
}

/*
 * Takes a posted receive of a context out of its queue (its guard
 * held): ep, its own endpoint, or NULL for a shared queue, which promised no
 * CQ slot. FI_ECANCELED goes to cq. 0, -FI_ENOENT or -FI_EAGAIN (cq full).
 */
static ssize_t
rxq_cancel(struct rdm_rxq *q, struct dfi_ep *ep, struct dfi_cq *cq, void *context)
{
	struct rdm_rx *rx = NULL;
	bool promised;
	int t;

	for (t = 0; t < 2 && rx == NULL; t++) {
		TAILQ_FOREACH(rx, posted_list(q, t != 0), link) {
			if (rx->context == context)
				break;
		}
	}
	if (rx == NULL)
		return -FI_ENOENT;
	/* the error entry takes the slot promised at post, else needs room */
	promised = ep != NULL && (rx->flags & FI_MULTI_RECV) == 0 && rx_wants_comp(ep, rx);
	if (rx->busy == 0 && !promised && cq != NULL && dfi_cq_room(cq) == 0)
		return -FI_EAGAIN;
	posted_unlink(q, rx);
	if (rx->busy > 0)
		return 0;	/* a multi-receive buffer in use: released by its last message */
	if (promised)
		dfi_cq_unreserve(cq);
	if (cq != NULL)
		dfi_cq_write_err(cq, context, FI_RECV | (rx->tagged ? FI_TAGGED : FI_MSG),
				 0, NULL, 0, 0, 0, FI_ECANCELED, FI_ADDR_NOTAVAIL);
	if (ep != NULL)
		dfi_ep_count(ep, DFI_CNTR_RECV, true);
	rx_free(q, rx);
	return 0;
}

ssize_t
rdm_rxq_cancel(struct rdm_rxq *q, void *context, struct dfi_cq *cq)
{
	return rxq_cancel(q, NULL, cq, context);
}

static ssize_t
rdm_cancel(struct dfi_ep *ep, void *context)
{
	struct dfi_rdm *r = rdm_of(ep);

	if (context == NULL)
		return -FI_ENOENT;	/* cannot be cancelled (fi_endpoint(3)) */
	if (unlikely(!TAILQ_EMPTY(&r->trig_waiting)) && rdm_trig_cancel(ep, r, context) == 0)
		return 0;
	if (r->rxq->shared)
		return -FI_ENOENT;	/* its receives are its context's */
	return rxq_cancel(r->rxq, ep, ep->rx_cq, context);
}

/* A multi-receive buffer is RDM's: messages may still be arriving into it. */
struct rdm_rx *
rdm_rxq_take(struct rdm_rxq *q)
{
	struct rdm_rx *rx;

	TAILQ_FOREACH(rx, &q->posted_msg, link) {
		if (!(rx->flags & FI_MULTI_RECV)) {
			posted_unlink(q, rx);
			return rx;
		}
	}
	return NULL;
}

void
rdm_rxq_put(struct rdm_rxq *q, struct rdm_rx *rx)
{
	rx_free(q, rx);
}

/* -- libfabric entry points -- */

static ssize_t
rdm_sendmsg(struct fid_ep *ep_fid, const struct fi_msg *msg, uint64_t flags)
{
	if (unlikely(msg == NULL))
		return -FI_EINVAL;
	if (unlikely((flags & ~RDM_TX_FLAGS) != 0))
		return -FI_EBADFLAGS;
	return rdm_tx(rdm_ep_of(ep_fid), msg->msg_iov, msg->iov_count, msg->addr, 0, msg->data,
		      msg->context, flags, false);
}

static ssize_t
rdm_send(struct fid_ep *ep_fid, const void *buf, size_t len, void *desc __rte_unused,
	 fi_addr_t dest, void *context)
{
	struct dfi_ep *ep = rdm_ep_of(ep_fid);
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return rdm_tx(ep, &iov, 1, dest, 0, 0, context, ep->tx_op_flags, false);
}

static ssize_t
rdm_sendv(struct fid_ep *ep_fid, const struct iovec *iov, void **desc __rte_unused,
	  size_t count, fi_addr_t dest, void *context)
{
	struct dfi_ep *ep = rdm_ep_of(ep_fid);

	return rdm_tx(ep, iov, count, dest, 0, 0, context, ep->tx_op_flags, false);
}

static ssize_t
rdm_inject(struct fid_ep *ep_fid, const void *buf, size_t len, fi_addr_t dest)
{
	return rdm_tx_inject(rdm_ep_of(ep_fid), buf, len, dest, 0, 0, 0, false);
}

static ssize_t
rdm_senddata(struct fid_ep *ep_fid, const void *buf, size_t len, void *desc __rte_unused,
	     uint64_t data, fi_addr_t dest, void *context)
{
	struct dfi_ep *ep = rdm_ep_of(ep_fid);
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return rdm_tx(ep, &iov, 1, dest, 0, data, context, ep->tx_op_flags | FI_REMOTE_CQ_DATA,
		      false);
}

static ssize_t
rdm_injectdata(struct fid_ep *ep_fid, const void *buf, size_t len, uint64_t data,
	       fi_addr_t dest)
{
	return rdm_tx_inject(rdm_ep_of(ep_fid), buf, len, dest, 0, data, FI_REMOTE_CQ_DATA,
			     false);
}

static ssize_t
rdm_recvmsg(struct fid_ep *ep_fid, const struct fi_msg *msg, uint64_t flags)
{
	if (unlikely(msg == NULL))
		return -FI_EINVAL;
	return rdm_rx_post(rdm_ep_of(ep_fid), msg->msg_iov, msg->iov_count, msg->addr, 0, 0,
			   msg->context, flags, false);
}

static ssize_t
rdm_recv(struct fid_ep *ep_fid, void *buf, size_t len, void *desc __rte_unused,
	 fi_addr_t src, void *context)
{
	struct dfi_ep *ep = rdm_ep_of(ep_fid);
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	return rdm_rx_post(ep, &iov, 1, src, 0, 0, context, ep->rx_op_flags, false);
}

static ssize_t
rdm_recvv(struct fid_ep *ep_fid, const struct iovec *iov, void **desc __rte_unused,
	  size_t count, fi_addr_t src, void *context)
{
	struct dfi_ep *ep = rdm_ep_of(ep_fid);

	return rdm_rx_post(ep, iov, count, src, 0, 0, context, ep->rx_op_flags, false);
}

static ssize_t
rdm_tsendmsg(struct fid_ep *ep_fid, const struct fi_msg_tagged *msg, uint64_t flags)
{
	if (unlikely(msg == NULL))
		return -FI_EINVAL;
	if (unlikely((flags & ~RDM_TX_FLAGS) != 0))
		return -FI_EBADFLAGS;
	return rdm_tx(rdm_ep_of(ep_fid), msg->msg_iov, msg->iov_count, msg->addr, msg->tag,
		      msg->data, msg->context, flags, true);
}

static ssize_t
rdm_tsend(struct fid_ep *ep_fid, const void *buf, size_t len, void *desc __rte_unused,
	  fi_addr_t dest, uint64_t tag, void *context)
{
	struct dfi_ep *ep = rdm_ep_of(ep_fid);
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return rdm_tx(ep, &iov, 1, dest, tag, 0, context, ep->tx_op_flags, true);
}

static ssize_t
rdm_tsendv(struct fid_ep *ep_fid, const struct iovec *iov, void **desc __rte_unused,
	   size_t count, fi_addr_t dest, uint64_t tag, void *context)
{
	struct dfi_ep *ep = rdm_ep_of(ep_fid);

	return rdm_tx(ep, iov, count, dest, tag, 0, context, ep->tx_op_flags, true);
}

static ssize_t
rdm_tinject(struct fid_ep *ep_fid, const void *buf, size_t len, fi_addr_t dest, uint64_t tag)
{
	return rdm_tx_inject(rdm_ep_of(ep_fid), buf, len, dest, tag, 0, 0, true);
}

static ssize_t
rdm_tsenddata(struct fid_ep *ep_fid, const void *buf, size_t len, void *desc __rte_unused,
	      uint64_t data, fi_addr_t dest, uint64_t tag, void *context)
{
	struct dfi_ep *ep = rdm_ep_of(ep_fid);
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return rdm_tx(ep, &iov, 1, dest, tag, data, context,
		      ep->tx_op_flags | FI_REMOTE_CQ_DATA, true);
}

static ssize_t
rdm_tinjectdata(struct fid_ep *ep_fid, const void *buf, size_t len, uint64_t data,
		fi_addr_t dest, uint64_t tag)
{
	return rdm_tx_inject(rdm_ep_of(ep_fid), buf, len, dest, tag, data, FI_REMOTE_CQ_DATA,
			     true);
}

static ssize_t
rdm_trecvmsg(struct fid_ep *ep_fid, const struct fi_msg_tagged *msg, uint64_t flags)
{
	if (unlikely(msg == NULL))
		return -FI_EINVAL;
	return rdm_rx_post(rdm_ep_of(ep_fid), msg->msg_iov, msg->iov_count, msg->addr, msg->tag,
			   msg->ignore, msg->context, flags, true);
}

static ssize_t
rdm_trecv(struct fid_ep *ep_fid, void *buf, size_t len, void *desc __rte_unused,
	  fi_addr_t src, uint64_t tag, uint64_t ignore, void *context)
{
	struct dfi_ep *ep = rdm_ep_of(ep_fid);
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	return rdm_rx_post(ep, &iov, 1, src, tag, ignore, context, ep->rx_op_flags, true);
}

static ssize_t
rdm_trecvv(struct fid_ep *ep_fid, const struct iovec *iov, void **desc __rte_unused,
	   size_t count, fi_addr_t src, uint64_t tag, uint64_t ignore, void *context)
{
	struct dfi_ep *ep = rdm_ep_of(ep_fid);

	return rdm_rx_post(ep, iov, count, src, tag, ignore, context, ep->rx_op_flags, true);
}

/* -- life cycle -- */

static void
rdm_progress(struct dfi_ep *ep)
{
	struct dfi_rdm *r = rdm_of(ep);
	struct rte_mbuf *pkts[DFI_RX_BURST];
	uint16_t n;

	n = rdm_conn_recv(ep, r, pkts);
	if (n > 0)
		rdm_conn_rx(ep, r, pkts, n);
	/* messages that ask nothing now: their completions go back without
	 * the timers' pass, which the calls waiting for the answer run */
	if (n > 0 && r->rx_quiet && r->quiet_calls < RDM_QUIET_CALLS)
		rdm_conn_quiet(ep, r);
	else
		rdm_conn_progress(ep, r);
}

/*
 * The watchdog's look: the application has not progressed us since the last
 * one. What its calls would do is done for it: packets in flight are probed
 * and sent again, and what waits in the port is taken in and acknowledged
 * (a receiver that answers nothing makes its peer probe; one whose
 * process merely computes can still answer).
 */
static bool
rdm_rescue(struct dfi_ep *ep)
{
	struct dfi_rdm *r = rdm_of(ep);
	bool alone = r->calls == r->rescue_seen;

	if (alone) {
		r->now = rte_rdtsc();	/* its calls read the clock only now and then */
		r->stats.rescues++;
		ep->type_ops->progress(ep);	/* FI_EP_MSG's takes its CM packets too */
	}
	r->rescue_seen = r->calls;
	return alone;
}

/* The CRC is for wires without an FCS, and for the faults we inject. */
static int
crc_wanted(const struct dfi_ep *ep, bool *crc)
{
	const char *v = dfi_param_str(DFI_PARAM_CRC);

	if (v == NULL || strcmp(v, "auto") == 0)
		*crc = !ep->sink.port->has_fcs || dfi_param_str(DFI_PARAM_FAULT) != NULL;
	else if (strcmp(v, "on") == 0)
		*crc = true;
	else if (strcmp(v, "off") == 0)
		*crc = false;
	else {
		DFI_WARN(FI_LOG_EP_CTRL, "FI_DPDK_CRC='%s': on, off or auto", v);
		return -FI_EINVAL;
	}
	return 0;
}

/*
 * rdm_rxq.bundle_pool: a bundled message buffered takes an unexpected-message
 * record and counts against ux_budget, so there are never more of them than
 * the smaller of the two.
 */
static int
bundle_pool_create(struct rdm_rxq *q, const struct dfi_port *port, uint32_t size)
{
	static uint32_t pools;
	uint32_t n = RTE_MIN(size, q->ux_budget);
	char name[RTE_MEMPOOL_NAMESIZE];

	snprintf(name, sizeof(name), "dfi_ux_%u_%u", port->port_id,
		 __atomic_fetch_add(&pools, 1, __ATOMIC_RELAXED));
	q->bundle_pool = rte_pktmbuf_pool_create(name, n, 0,
						 RTE_ALIGN(sizeof(struct dfi_rx_meta),
							   RTE_MBUF_PRIV_ALIGN),
						 RTE_PKTMBUF_HEADROOM + RDM_BUNDLE_MSG_MAX,
						 SOCKET_ID_ANY);
	if (q->bundle_pool == NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "rdm: no pool of %u mbufs for unexpected messages: %s",
			 n, rte_strerror(rte_errno));
		return -FI_ENOMEM;
	}
	return 0;
}

int
rdm_rxq_init(struct rdm_rxq *q, const struct dfi_port *port, uint8_t encap, size_t size,
	     size_t total_buffered_recv, bool shared)
{
	uint32_t seg_max = dfi_wire_max_rdm_payload(port->jumbo_mtu, encap), i;

	memset(q, 0, sizeof(*q));
	TAILQ_INIT(&q->posted_msg);
	TAILQ_INIT(&q->posted_tag);
	q->shared = shared;
	if (seg_max == 0)
		return -FI_EINVAL;
	/* an unexpected message holds one mbuf per segment, of whatever size */
	q->ux_budget = (uint32_t)RTE_MAX(total_buffered_recv / seg_max, (size_t)64);
	q->eager_max = RTE_MIN(q->ux_budget * seg_max / 4, (uint32_t)(256 << 10));
	q->rxs = calloc(size, sizeof(*q->rxs));
	q->uxs = calloc(size, sizeof(*q->uxs));
	if (q->rxs == NULL || q->uxs == NULL)
		goto err_nomem;
	for (i = (uint32_t)size; i > 0; i--) {
		rx_free(q, &q->rxs[i - 1]);
		q->uxs[i - 1].next = q->ux_free;
		q->ux_free = &q->uxs[i - 1];
	}
	if (bundle_pool_create(q, port, (uint32_t)size) != 0)
		goto err_nomem;
	return 0;
err_nomem:
	rdm_rxq_fini(q);
	return -FI_ENOMEM;
}

void
rdm_rxq_fini(struct rdm_rxq *q)
{
	struct rdm_ux *ux;

	while ((ux = q->ux_head) != NULL) {
		q->ux_head = ux->next;
		ux_drop_data(q, ux);
	}
	q->ux_tail = NULL;
	free(q->rxs);
	free(q->uxs);
	rte_mempool_free(q->bundle_pool);
	q->rxs = NULL;
	q->uxs = NULL;
	q->bundle_pool = NULL;
}

/*
 * The large injects' buffers, inject_size per operation: 16 MiB for the
 * default 2048 operations of 8 KiB, of which injects use what their sizes
 * and numbers in flight reach. Mapped, never cleared: calloc() served them
 * from glibc's heap once a chunk that size had been freed (its mmap
 * threshold follows the frees) and cleared all 16 MiB, in 2-3 ms and 16 MiB
 * made resident per endpoint opened (an FI_EP_MSG endpoint per connection).
 * The kept injects' packets (rdm_conn_inject()) take such a mapping too.
 */
static uint8_t *
inject_bufs_map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Frees what rdm_init() allocated, as far as it got. */
static void
rdm_release(struct dfi_ep *ep, struct dfi_rdm *r)
{
	rdm_conn_fini(ep, r);
	free(r->ops);
	free(r->inject_small);
	if (r->inject_bufs != NULL)
		munmap(r->inject_bufs, r->inject_bufs_len);
	if (r->kept_bufs != NULL)
		munmap(r->kept_bufs, RDM_KEPT_MAX * r->kept_stride);
	rdm_atomic_fini(r);
	rdm_rxq_fini(&r->own_rxq);
	rdm_trig_fini(r);
	free(r);
	ep->priv = NULL;
}

static int
rdm_init(struct dfi_ep *ep, const struct fi_info *info)
{
	struct dfi_rdm *r = calloc(1, sizeof(*r));
	long timeout_ms = dfi_param_int(DFI_PARAM_RDM_TIMEOUT_MS, 30000, 10, 86400000);
	long pto_us = dfi_param_int(DFI_PARAM_RDM_PTO_MIN_US, RDM_PTO_MIN_US, 1, 1000000);
	long window = dfi_param_int(DFI_PARAM_RDM_WINDOW, 256, 16, 4096);
	long autocork = dfi_param_int(DFI_PARAM_RDM_AUTOCORK, RDM_AUTOCORK, 0, 4096);
	uint32_t i, nb_ops;
	int ret;

	if (r == NULL)
		return -FI_ENOMEM;
	ep->priv = r;
	r->rxq = &r->own_rxq;
	if (timeout_ms < 0 || pto_us < 0 || window < 0 || autocork < 0) {
		ret = -FI_EINVAL;	/* the parameter said why */
		goto err;
	}
	if (!rte_is_power_of_2((uint32_t)window)) {
		DFI_WARN(FI_LOG_EP_CTRL, "FI_DPDK_RDM_WINDOW must be a power of 2");
		ret = -FI_EINVAL;
		goto err;
	}
	r->autocork = (uint32_t)autocork;
	r->keep_inflight = autocork != 0 ? RTE_MIN((uint32_t)autocork, (uint32_t)RDM_AUTOCORK) :
					   RDM_AUTOCORK;
	r->name_off = rte_cpu_to_be_16(ep->name_off);
	ret = crc_wanted(ep, &r->crc);
	if (ret != 0)
		goto err;
	ret = rdm_conn_init(ep, r);
	if (ret != 0)
		goto err;
	r->window = (uint32_t)window;
	r->timeout = r->hz * (uint64_t)timeout_ms / 1000;
	r->pto_min = r->hz * (uint64_t)pto_us / 1000000;
	r->pto_init = RTE_MAX(r->pto_init, r->pto_min);
	/* a busy peer that owes us nothing in flight is asked how it is 32
	 * times per deadline, so that its death is seen in time */
	r->keepalive = RTE_MAX(r->timeout / 32, r->pto_min);
	r->seg_size = dfi_wire_max_rdm_payload(ep->sink.port->mtu, ep->encap);
	r->seg_max = dfi_wire_max_rdm_payload(ep->sink.port->jumbo_mtu, ep->encap);
	r->rx_held_max = dfi_port_pool_size(ep->sink.port) / 4;
	ep->min_multi_recv = MIN_MULTI_RECV;
	if (r->seg_size == 0) {
		ret = -FI_EINVAL;
		goto err;
	}
	/* the packets carry their own CRC: no UDP checksum in software */
	ep->sink.no_sw_udp_cksum = r->crc;
	/* a delivery notice may be owed for every posted receive */
	nb_ops = (uint32_t)(ep->tx_size + ep->rx_size);
	r->ops = calloc(nb_ops, sizeof(*r->ops));
	r->inject_small = calloc(nb_ops, RDM_INJECT_SMALL);
	r->inject_bufs_len = nb_ops * RTE_MAX(ep->inject_size, (size_t)1);
	r->inject_bufs = inject_bufs_map(r->inject_bufs_len);
	r->kept_stride = RTE_ALIGN_CEIL(sizeof(struct dfi_rdm_hdr) + ep->inject_size,
					RTE_CACHE_LINE_SIZE);
	r->kept_bufs = inject_bufs_map(RDM_KEPT_MAX * r->kept_stride);
	if (r->ops == NULL || r->inject_small == NULL || r->inject_bufs == NULL ||
	    r->kept_bufs == NULL) {
		ret = -FI_ENOMEM;
		goto err;
	}
	for (i = 0; i < RDM_KEPT_MAX; i++)
		r->kept_free[i] = r->kept_bufs + (size_t)i * r->kept_stride;
	for (i = nb_ops; i > 0; i--)
		op_free(r, &r->ops[i - 1]);
	/* an endpoint of a shared receive context takes its queue at fi_enable() */
	ret = ep->rx_shared ? 0 :
	      rdm_rxq_init(&r->own_rxq, ep->sink.port, ep->encap, ep->rx_size,
			   info->rx_attr->total_buffered_recv, false);
	ret = ret != 0 ? ret : rdm_atomic_init(ep, r, nb_ops);
	ret = ret != 0 ? ret : rdm_trig_init(ep, r);
	if (ret != 0)
		goto err;
	return 0;
err:
	rdm_release(ep, r);
	return ret;
}

static int
rdm_enable(struct dfi_ep *ep)
{
	if (ep->srx != NULL)
		rdm_of(ep)->rxq = dfi_srx_rxq(ep->srx);
	return 0;
}

static void
rdm_shutdown(struct dfi_ep *ep)
{
	struct dfi_rdm *r = rdm_of(ep);

	if (r == NULL)
		return;
	rdm_trig_shutdown(r);
	rdm_conn_shutdown(ep, r);
	if (r->rxq->shared)
		rxq_leave(ep, r);
	if (ep->stx != NULL) {
		/* what was in flight was dropped: the context's count forgets it */
		dfi_stx_put(ep->stx, r->nb_ops);
		r->nb_ops = 0;
	}
}

static void
rdm_fini(struct dfi_ep *ep)
{
	struct dfi_rdm *r = rdm_of(ep);

	if (r == NULL)
		return;
	DFI_INFO(FI_LOG_EP_CTRL, "rdm: %" PRIu64 " packets out (%" PRIu64 " again: %" PRIu64
		 " probes, %" PRIu64 " spurious), %" PRIu64 " in (%" PRIu64 " duplicates, %"
		 PRIu64 " bad), %" PRIu64 " messages out, %" PRIu64 " in; %" PRIu64 " acks alone; RNR %"
		 PRIu64 " sent, %" PRIu64 " received; %" PRIu64 " watchdog rescues",
		 r->stats.tx_pkts, r->stats.tx_retransmits, r->stats.tx_probes,
		 r->stats.tx_spurious, r->stats.rx_pkts, r->stats.rx_dup, r->stats.rx_bad_crc,
		 r->stats.msgs_sent, r->stats.msgs_received, r->stats.acks_sent,
		 r->stats.rnr_sent, r->stats.rnr_received, r->stats.rescues);
	rdm_release(ep, r);
}

static void
rdm_stats(struct dfi_ep *ep, struct fi_dpdk_ep_stats *s)
{
	const struct rdm_stats *st = &rdm_of(ep)->stats;

	s->tx_pkts = st->tx_pkts;
	s->tx_retransmits = st->tx_retransmits;
	s->tx_timeouts = st->tx_rto;
	s->tx_fast_retransmits = st->tx_fast_retransmits;
	s->tx_probes = st->tx_probes;
	s->tx_spurious = st->tx_spurious;
	s->repaired_fast = st->repaired_fast;
	s->repaired_probe = st->repaired_probe;
	s->repaired_timeout = st->repaired_timeout;
	s->progress_rescues = st->rescues;
	s->tx_no_room = st->tx_no_room;
	s->rx_pkts = st->rx_pkts;
	s->rx_duplicates = st->rx_dup;
	s->rx_out_of_order = st->rx_out_of_order;
	s->rx_beyond_window = st->rx_beyond_window;
	s->rx_bad = st->rx_bad_crc;
	s->rx_stale = st->rx_stale;
	s->rx_unknown = st->rx_unknown;
	s->rnr_sent = st->rnr_sent;
	s->rnr_received = st->rnr_received;
	s->acks_sent = st->acks_sent;
	s->msgs_sent = st->msgs_sent;
	s->msgs_received = st->msgs_received;
	s->injects_kept = st->kept;
	s->injects_kept_resent = st->kept_resent;
	s->peers_reset = st->peers_reset;
	s->peers_timed_out = st->peers_timed_out;
	s->peers_closed = st->peers_closed;
}

struct fi_ops_msg rdm_msg_ops = {
	.size = sizeof(struct fi_ops_msg),
	.recv = rdm_recv,
	.recvv = rdm_recvv,
	.recvmsg = rdm_recvmsg,
	.send = rdm_send,
	.sendv = rdm_sendv,
	.sendmsg = rdm_sendmsg,
	.inject = rdm_inject,
	.senddata = rdm_senddata,
	.injectdata = rdm_injectdata,
};

struct fi_ops_tagged rdm_tagged_ops = {
	.size = sizeof(struct fi_ops_tagged),
	.recv = rdm_trecv,
	.recvv = rdm_trecvv,
	.recvmsg = rdm_trecvmsg,
	.send = rdm_tsend,
	.sendv = rdm_tsendv,
	.sendmsg = rdm_tsendmsg,
	.inject = rdm_tinject,
	.senddata = rdm_tsenddata,
	.injectdata = rdm_tinjectdata,
};

const struct dfi_ep_type_ops dfi_rdm_ops = {
	.init = rdm_init,
	.enable = rdm_enable,
	.progress = rdm_progress,
	.cancel = rdm_cancel,
	.shutdown = rdm_shutdown,
	.fini = rdm_fini,
	.rescue = rdm_rescue,
	.stats = rdm_stats,
	.cntr_flags = FI_SEND | FI_RECV | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE,
	.msg = &rdm_msg_ops,
	.tagged = &rdm_tagged_ops,
	.rma = &rdm_rma_ops,
	.atomic = &rdm_atomic_ops,
};
