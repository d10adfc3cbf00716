/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * FI_EP_RDM, shared by its two halves: the reliable protocol (rdm_conn.c:
 * connections, sequence numbers, acknowledgements, retransmission, flow
 * control, deadlines) and the message layer (rdm.c: the libfabric
 * operations, segmentation, matching, the unexpected queue, completions).
 * doc/rdm-protocol.md describes the protocol.
 *
 * Everything here runs under the endpoint's guard (lib/fabric/guard.h; it
 * locks nothing in FI_THREAD_DOMAIN): the application's calls and the
 * progress they drive.
 */

#ifndef _DFI_RDM_H_
#define _DFI_RDM_H_

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/uio.h>

#include <rdma/fi_endpoint.h>

#include <rte_mbuf.h>

#include "addr.h"
#include "av.h"
#include "ep.h"
#include "iov.h"
#include "trigger.h"
#include "wire.h"

#define RDM_IOV_MAX		4
/* Injects this small are copied to the op's slot of dfi_rdm.inject_small. */
#define RDM_INJECT_SMALL	128
#define RDM_PEER_HASH_MIN	64
/* FI_DPDK_RDM_PTO_MIN_US's default: the probe timeout's floor */
#define RDM_PTO_MIN_US		5
/* FI_DPDK_RDM_AUTOCORK's default: packets in flight to a peer from which a
 * small message waits for others to share its packet (rdm_conn.c, cork()) */
#define RDM_AUTOCORK		8
#define RDM_QUIET_CALLS		4	/* progress calls in a row without the timers' pass */
/* Injects sent at once keep a copy of their packet (rdm_conn_inject()): at
 * most this many per endpoint, and fewer in flight to a peer than
 * RDM_AUTOCORK (or FI_DPDK_RDM_AUTOCORK, when lower) */
#define RDM_KEPT_MAX		32

struct dfi_ep;
struct dfi_mr;
struct rdm_atomic_req;
struct rdm_atomic_slot;
struct rdm_peer;

/* A send or a DONE notice, from its post to its completion. */
enum rdm_op_state {
	RDM_OP_FREE,
	RDM_OP_QUEUED,		/* bytes left to segment */
	RDM_OP_SENT,		/* all sent, waiting for acks */
	RDM_OP_WAIT_DONE,	/* all acked, waiting for the delivery notice */
};

struct rdm_op {
	struct rdm_op *next;		/* the peer's queue, or the free list */
	struct rdm_peer *peer;
	void *context;
	uint64_t flags;			/* operation flags, FI_* */
	uint64_t comp_flags;		/* the completion's flags */
	uint64_t tag;
	uint64_t data;
	uint32_t len;
	uint32_t sent;			/* bytes segmented */
	uint32_t unacked;		/* its packets in flight */
	uint32_t msg_seq;		/* MSG, DONE; RMA, atomics: the RMA sequence */
	uint8_t type;			/* DFI_PKT_RDM_* */
	uint8_t state;			/* enum rdm_op_state */
	uint16_t pkt_flags;		/* DFI_RDM_F_* */
	uint8_t cntr;			/* enum dfi_cntr_kind it counts in */
	uint32_t rma_len;		/* READ_REQ: bytes asked for */
	uint32_t got;			/* READ_REQ: bytes of the answer placed */
	bool answered;			/* READ_REQ, fetching ATOMIC: all of the answer
					 * is there */
	uint64_t key;			/* WRITE, READ_REQ: the target region */
	struct dfi_mr *mr;		/* READ_RESP: the region it reads */
	uint32_t iov_count;
	struct iovec iov[RDM_IOV_MAX];	/* the payload; an inject's copy in iov[0] */
};

/* Why a packet was sent again: what its acknowledgement counts as repaired. */
enum rdm_retx_cause {
	RDM_RETX_NONE,
	RDM_RETX_FAST,			/* a hole with later packets acknowledged */
	RDM_RETX_PROBE,			/* a tail-loss probe, or a hole its answer showed */
	RDM_RETX_TIMEOUT,		/* the same after the probe timer backed off */
	RDM_RETX_RNR,			/* refused by the receiver: not a loss */
};

/* One packet in flight: a slot of the peer's transmit window. */
struct rdm_txe {
	union {
		struct rdm_op *op;	/* nb_ops of them, from this one on */
		uint8_t *kept;		/* nb_ops 0: an inject's packet as it was
					 * sent, header then payload (a kept_bufs slot) */
	};
	uint64_t sent_tsc;		/* last transmission */
	uint32_t offset;		/* op's: the segment's place in the message */
	uint16_t len;
	uint8_t sacked;			/* the receiver holds it */
	uint8_t retx;			/* transmissions after the first */
	uint8_t cause;			/* enum rdm_retx_cause of the last one */
	uint8_t nb_ops;			/* a bundle's messages, op and the next ones */
	uint8_t awaited;		/* its ack completes an operation the
					 * application sees finish (op_awaited()) */
};

/* The RMA write a peer is sending us: its segments come in order. */
struct rdm_rma_in {
	uint8_t *ptr;			/* where its first byte goes */
	struct dfi_mr *mr;
	uint64_t data;			/* remote CQ data */
	uint32_t seq;
	uint32_t len;
	uint32_t got;
	int err;			/* FI_EACCES: refused, nothing is written */
	bool active;
	bool cq_data;
};

/* A posted receive. */
struct rdm_rx {
	TAILQ_ENTRY(rdm_rx) link;	/* on a posted list */
	struct rdm_rx *next;		/* the free list */
	void *context;
	uint64_t flags;			/* operation flags */
	uint64_t tag;
	uint64_t ignore;
	fi_addr_t src;			/* FI_DIRECTED_RECV, or FI_ADDR_UNSPEC */
	size_t cap;			/* bytes the iovecs hold */
	size_t used;			/* FI_MULTI_RECV: bytes given to messages */
	uint32_t busy;			/* FI_MULTI_RECV: messages still arriving in it */
	bool tagged;
	bool posted;			/* on a posted list */
	size_t min_left;		/* FI_MULTI_RECV: released below this much room */
	uint32_t iov_count;
	struct iovec iov[RDM_IOV_MAX];
};

/* A message that arrived before its receive. */
#define RDM_UX_INLINE		128

enum rdm_ux_state {
	RDM_UX_FREE,
	RDM_UX_ARRIVING,	/* segments buffered as they come */
	RDM_UX_COMPLETE,	/* all there */
	RDM_UX_BLOCKED,		/* too large to buffer: refused until a receive matches */
};

/* ux_alloc() clears each field before bytes, one by one: a new one is cleared there */
struct rdm_ux {
	struct rdm_ux *next;		/* the unexpected list, or the free list */
	struct dfi_ep *ep;		/* the endpoint it arrived on, whose peer sent it */
	struct rdm_peer *peer;
	void *claim;			/* FI_CLAIM context, once claimed */
	struct rdm_rx *rx;		/* BLOCKED: the receive that matched meanwhile */
	uint64_t tag;
	uint64_t data;
	uint64_t comp_flags;		/* FI_MSG or FI_TAGGED, FI_REMOTE_CQ_DATA */
	uint32_t msg_seq;
	uint32_t len;
	uint32_t got;			/* bytes buffered */
	uint16_t pkt_flags;
	uint8_t state;			/* enum rdm_ux_state */
	bool discard;			/* FI_DISCARD: taken, to be dropped */
	struct rte_mbuf *head;		/* buffered segments, data at each payload */
	struct rte_mbuf *tail;
	uint32_t nb_mbufs;
	/* a message of one packet and at most RDM_UX_INLINE bytes is copied
	 * here instead (got bytes, head NULL): a stream that outruns its
	 * receives keeps its backlog in these records, a few lines each, not
	 * in an mbuf per message that the backlog's length takes out of the
	 * cache; not cleared by ux_alloc */
	uint8_t bytes[RDM_UX_INLINE];
};

/* The message a peer is sending us now: its packets are processed in order,
 * so there is at most one. */
struct rdm_inmsg {
	bool active;
	bool discard;			/* FI_DISCARD: data dropped, nothing reported */
	uint32_t msg_seq;
	uint32_t len;
	uint32_t got;
	uint16_t pkt_flags;
	uint64_t tag;
	uint64_t data;
	struct rdm_rx *rx;		/* where it goes, or NULL while buffered */
	size_t rx_off;			/* its place in rx (FI_MULTI_RECV) */
	size_t rx_room;			/* bytes of it rx holds: less means truncated */
	struct rdm_ux *ux;		/* buffered while unexpected */
};

enum rdm_peer_state {
	RDM_PEER_IDLE,		/* no connection */
	RDM_PEER_CONNECTING,	/* CONN sent, no answer */
	RDM_PEER_UP,
};

struct rdm_peer {
	uint64_t key;			/* address key: table lookup */
	struct dfi_addr addr;
	fi_addr_t fi_addr;		/* FI_SOURCE cache, FI_ADDR_NOTAVAIL */
	uint32_t peer_inc;		/* 0 while unknown */
	uint8_t state;			/* enum rdm_peer_state */
	uint8_t version;
	bool active;			/* on the endpoint's active list */
	uint16_t seg;			/* payload per packet to it: what both take */
	uint16_t name_off;		/* its port less its name's (a context's place) */
	bool ack_owed;
	bool ack_now;			/* the sender waits on an acknowledgement */
	bool closing;			/* our CLOSE is not answered yet */
	bool watched;			/* kept connected and probed while idle (FI_EP_MSG) */
	uint16_t rx_unacked;		/* packets taken since our last acknowledgement */
	uint32_t ack_call;		/* the progress call that made the ack owed */
	uint32_t next_rma_seq;		/* our next RMA operation to it */
	struct rdm_rma_in rma_in;	/* the write it is sending us now */
	struct rdm_peer *next_active;
	/* transmit */
	uint32_t snd_una;		/* oldest PSN not acknowledged */
	uint32_t snd_nxt;		/* next new PSN */
	uint32_t snd_lim;		/* first PSN the receiver does not take yet */
	uint32_t high_sacked;		/* highest PSN the receiver reported holding, + 1 */
	uint32_t next_msg_seq;
	struct rdm_txe *txw;		/* window, by psn & mask */
	struct rdm_op *ops_head;	/* in posting order */
	struct rdm_op *ops_tail;
	struct rdm_op *seg_op;		/* the first op with bytes to segment */
	uint32_t corked;		/* small messages held for a fuller packet */
	uint32_t corked_bytes;		/* the bundle they would make */
	uint64_t srtt;			/* TSC cycles; 0: no sample yet */
	uint64_t rttvar;
	uint64_t pto_adapt;		/* added to 2 srtt after spurious probes */
	uint64_t pto_backoff;		/* the probe timeout backed off, 0: none */
	uint64_t ack_tsc;		/* the last ack that told something new */
	uint64_t last_tx_tsc;		/* the last sequenced packet sent */
	uint64_t probe_tsc;		/* the last probe, until an answer to it came */
	uint32_t unanswered;		/* probes (and CONNs) since the peer was last heard */
	uint8_t probe_cause;		/* RDM_RETX_PROBE or _TIMEOUT */
	uint64_t rnr_until;		/* refused (RNR): resend after */
	uint64_t rnr_wait;
	uint64_t last_heard;
	uint64_t last_probe;		/* CONN or keepalive sent */
	uint64_t conn_since;
	uint64_t reset_sent;
	/* receive */
	uint32_t rcv_nxt;		/* next PSN expected */
	uint32_t rcv_msg_seq;		/* next message expected */
	uint64_t rcv_sack;		/* PSNs rcv_nxt + 1 + i held: bit i */
	uint32_t ts_echo;		/* ts of the last new packet from the peer, or of a
					 * duplicate that asked for an ack */
	bool echo_dup;			/* ts_echo names such a duplicate */
	struct rte_mbuf **rxw;		/* out of order packets held, by psn & mask */
	uint32_t nb_held;		/* of them, non-NULL */
	struct rdm_inmsg in;
	struct rdm_ux *blocked;		/* the message refused (RNR) until a receive matches */
	/* the header of the last message taken in, whose acknowledgement waits
	 * for the next progress call (rdm_conn.c: ack_settle()), and when it came */
	uint64_t later_tsc;
	struct dfi_rdm_hdr later;
};

/*
 * What a post asks for: the message and RMA calls fill it. dest sits apart
 * from count and context, whose neighbours they are in struct fi_msg: copied
 * together, they were read as one 16-byte load that the application's two
 * 8-byte stores just before could not forward to, a stall that was a tenth
 * of a batched stream's sender.
 */
struct rdm_post {
	const struct iovec *iov;
	size_t count;
	uint64_t tag;			/* MSG: the tag; RMA: the target address */
	uint64_t data;
	fi_addr_t dest;			/* a receive: its source */
	uint64_t key;			/* RMA: the target region */
	void *context;
	uint64_t flags;			/* FI_* */
	uint64_t comp_flags;		/* the completion's */
	uint8_t type;			/* DFI_PKT_RDM_MSG, _WRITE, _READ_REQ or _ATOMIC */
	uint8_t cntr;			/* enum dfi_cntr_slot */
	uint16_t pkt_flags;
	const struct rdm_atomic_req *atomic;	/* ATOMIC: what it asks (rdm_atomic.h) */
};

/* A receive's arguments beyond those an rdm_post carries. */
struct rdm_rx_args {
	uint64_t ignore;
	bool tagged;
};

/* A triggered operation (rdm_trig.c): a copy of its post, waiting on its counter. */
struct rdm_trig {
	struct dfi_trig trig;		/* in its counter's queue */
	TAILQ_ENTRY(rdm_trig) link;	/* the endpoint's waiting list, or its free list */
	struct dfi_ep *ep;
	struct rdm_post req;		/* req.iov points at iov */
	struct rdm_rx_args rx;		/* a receive's */
	bool recv;
	struct iovec iov[RDM_IOV_MAX];
};

TAILQ_HEAD(rdm_trig_list, rdm_trig);

/** Statistics of an RDM endpoint (fi_ext_dpdk.h has the public copy). */
struct rdm_stats {
	uint64_t tx_pkts;
	uint64_t tx_retransmits;
	uint64_t tx_rto;		/* probe timeouts after a first unanswered probe */
	uint64_t tx_fast_retransmits;
	uint64_t tx_probes;		/* tail-loss probes (timeouts included) */
	uint64_t tx_spurious;		/* resends whose original arrived after all */
	uint64_t repaired_fast;		/* losses repaired by fast retransmission */
	uint64_t repaired_probe;	/* by a probe, or a resend its answer asked for */
	uint64_t repaired_timeout;	/* the same, after the probe timer backed off */
	uint64_t rescues;		/* progress calls the watchdog made for us */
	uint64_t tx_no_room;		/* the port took no more: as if lost */
	uint64_t rx_pkts;
	uint64_t rx_dup;		/* already had it */
	uint64_t rx_out_of_order;	/* held for later */
	uint64_t rx_beyond_window;
	uint64_t rx_bad_crc;
	uint64_t rx_stale;		/* for another incarnation */
	uint64_t rx_unknown;		/* from no connection */
	uint64_t rnr_sent;
	uint64_t rnr_received;
	uint64_t acks_sent;
	uint64_t msgs_sent;
	uint64_t msgs_received;
	uint64_t kept;			/* injects sent at once (rdm_conn_inject()) */
	uint64_t kept_resent;		/* their packets sent again */
	uint64_t peers_reset;		/* restarted peers */
	uint64_t peers_timed_out;
	uint64_t peers_closed;
};

TAILQ_HEAD(rdm_rx_list, rdm_rx);

/*
 * Where receives are posted and unexpected messages wait: an endpoint's
 * own, or a shared receive context's (srx.c), which every endpoint bound to
 * it matches from. A shared one promises no CQ slot when a receive is
 * posted, for it has no CQ: the endpoint a message arrives on takes one
 * from its own when the message matches, or refuses the message (RNR).
 */
struct rdm_rxq {
	struct rdm_rx *rxs;
	struct rdm_rx *rx_free;
	/* posted receives, in order: appended and taken out anywhere, so
	 * neither walks the list (a stream reposts one per message) */
	struct rdm_rx_list posted_msg;
	struct rdm_rx_list posted_tag;
	struct rdm_ux *uxs;
	struct rdm_ux *ux_free;
	struct rdm_ux *ux_head;		/* unexpected messages, in arrival order */
	struct rdm_ux *ux_tail;
	uint32_t ux_budget;		/* mbufs unexpected messages may hold */
	uint32_t ux_held;
	uint32_t eager_max;		/* largest message buffered while unexpected */
	bool shared;
	/* a bundled message buffered while unexpected is copied out of its
	 * packet into one of these (RDM_BUNDLE_MSG_MAX bytes), one per record:
	 * a jumbo mbuf of the port's pool for every 64-byte message made a
	 * stream's backlog ten times larger than the cache */
	struct rte_mempool *bundle_pool;
};

/** The endpoint's RDM state. */
struct dfi_rdm {
	uint32_t inc;			/* this endpoint's incarnation */
	uint32_t window;		/* packets in flight per peer, power of 2 */
	uint32_t seg_size;		/* payload per packet of the port's MTU */
	uint32_t seg_max;		/* of its jumbo MTU: what we take, and announce */
	uint32_t rx_held;		/* mbufs held out of order */
	uint32_t rx_held_max;
	uint64_t hz;
	uint64_t pto_min;		/* FI_DPDK_RDM_PTO_MIN_US */
	uint64_t pto_init;		/* before the first round trip is measured */
	uint64_t idle_probe;		/* the probe interval for a peer that does not answer */
	uint64_t pto_max;		/* no backoff goes past it */
	uint64_t conn_gap;		/* CONNs this far apart at most, at first */
	uint64_t conn_fast;		/* for this long after the first */
	uint64_t keepalive;		/* between probes of a busy peer with nothing in flight */
	uint64_t timeout;		/* a silent peer's deadline */
	uint64_t now;			/* TSC, read once per call */
	uint32_t calls;			/* progress calls: acks wait for the next one */
	uint32_t rescue_seen;		/* calls when the domain's watchdog looked last */
	uint32_t link_epoch;		/* the port's, when last looked at */
	uint32_t autocork;		/* FI_DPDK_RDM_AUTOCORK: packets in flight from
					 * which small messages wait to share one */
	bool crc;			/* send and demand CRC32C */
	bool in_rx;			/* taking packets in: new packets wait */
	bool rx_quiet;			/* the burst asks nothing of this call's timers'
					 * pass (rdm_conn_rx()) */
	uint8_t quiet_calls;		/* calls in a row that left the pass out */
	uint16_t nb_left;		/* packets in left[] */
	rte_be16_t name_off;		/* the endpoint's (a context's place, wire.h) */
	/* peers: open-addressed table of pointers, by address key */
	struct rdm_peer **peers;
	uint32_t peers_mask;
	uint32_t nb_peers;
	struct rdm_peer *last_peer;	/* the one used last (ping-pong, streams) */
	struct rdm_peer *ack_later;	/* its last message's ack waits, if any */
	/* the last send's destination and its peer, while the memo holds: a
	 * stream to one peer skips resolving and the address copy */
	struct dfi_av_memo tx_memo;
	struct rdm_peer *tx_peer;
	struct rdm_peer *active;	/* peers with something to do */
	/* operation pools */
	struct rdm_op *ops;
	struct rdm_op *op_free;
	/* an inject's copy: RDM_INJECT_SMALL bytes per op for small ones,
	 * dense so that a stream's copies stay on a few pages and lines;
	 * inject_size per op for the rest */
	uint8_t *inject_small;
	uint8_t *inject_bufs;		/* mapped: inject_bufs_map() */
	size_t inject_bufs_len;
	/* kept injects' packets: RDM_KEPT_MAX slots of kept_stride bytes
	 * (mapped: inject_bufs_map()); the free ones in kept_free[] */
	uint8_t *kept_bufs;
	size_t kept_stride;
	struct rdm_atomic_slot *atomic_slots;	/* FI_ATOMIC: one per op (rdm_atomic.c) */
	/* receives and unexpected messages: own, or a shared context's */
	struct rdm_rxq *rxq;
	struct rdm_rxq own_rxq;
	/* triggered operations (FI_TRIGGER): a pool, and those waiting, in posting order */
	struct rdm_trig *trigs;
	struct rdm_trig_list trig_free;
	struct rdm_trig_list trig_waiting;
	uint32_t nb_ops;		/* under way, kept injects included */
	uint32_t nb_kept;		/* injects whose packet is kept (RDM_KEPT_MAX) */
	uint32_t keep_inflight;		/* packets in flight to a peer below which an
					 * inject may be sent at once */
	/*
	 * FI_EP_MSG (msg.c): a connected endpoint has one peer, fixed when the
	 * connection is made; it takes packets from no other address, and
	 * posts go to it whatever their fi_addr_t.
	 */
	bool connected_only;
	struct rdm_peer *bound;		/* the only peer packets are taken from */
	struct rdm_peer *peer;		/* posts go to it; NULL before FI_CONNECTED and
					 * after a shutdown */
	/* the peer failed (err: FI_ETIMEDOUT, FI_ECONNRESET) */
	void (*peer_lost)(struct dfi_ep *ep, struct rdm_peer *peer, int err);
	struct rdm_stats stats;
	/* the rest of a burst whose messages ran out of posted receives: taken
	 * in at the next call, after the application could post more */
	struct rte_mbuf *left[DFI_RX_BURST];
	/* the free slots of kept_bufs, a stack of RDM_KEPT_MAX - nb_kept, the
	 * last freed on top (still in the cache); 256 bytes, one entry read a
	 * kept inject, here with left[] and out of the fields every packet reads */
	uint8_t *kept_free[RDM_KEPT_MAX];
};

/* -- the protocol (rdm_conn.c) -- */

/** Sets the protocol's state of an endpoint up; 0 or a negative fabric errno. */
int rdm_conn_init(struct dfi_ep *ep, struct dfi_rdm *r);
void rdm_conn_fini(struct dfi_ep *ep, struct dfi_rdm *r);

/** @return the peer of an address, created when create is set; NULL without memory. */
struct rdm_peer *rdm_peer_get(struct dfi_rdm *r, const struct dfi_addr *a, bool create);

/** Queues an operation to its peer and sends what the window allows. */
void rdm_conn_post(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_op *op);

/**
 * The packets to take in now, into pkts (DFI_RX_BURST of room): what the
 * last burst left (rdm_conn_rx()), else a burst from the port. @return how many.
 */
uint16_t rdm_conn_recv(struct dfi_ep *ep, struct dfi_rdm *r, struct rte_mbuf **pkts);

/**
 * Takes in received packets; those after the last posted receive was used
 * up are left for the next call (rdm_conn_recv()).
 */
void rdm_conn_rx(struct dfi_ep *ep, struct dfi_rdm *r, struct rte_mbuf **pkts, uint16_t n);

/** Timers, transmissions and acknowledgements owed; then flushes the port. */
void rdm_conn_progress(struct dfi_ep *ep, struct dfi_rdm *r);

/**
 * The end of a progress call whose burst was messages in order that ask
 * nothing now (r->rx_quiet): the timers' pass is left to the next call, off
 * the round trip, at most RDM_QUIET_CALLS calls in a row.
 */
void rdm_conn_quiet(struct dfi_ep *ep, struct dfi_rdm *r);

/**
 * Applies the acknowledgement a delivered message carried, which waits for
 * the next progress call (rdm_conn.c), if there is one: the sends it
 * acknowledges are released. @return whether there was one.
 */
bool rdm_conn_settle(struct dfi_ep *ep, struct dfi_rdm *r);

/**
 * Sends an inject of len bytes (the count buffers of iov; a message, no
 * completion or delivery notice asked; a send counter counts it when
 * acknowledged; pkt_flags DFI_RDM_F_TAGGED and _CQ_DATA, with data) to p at
 * once, without an operation, when nothing waits to be sent to p and the
 * window takes it: a copy of its packet is kept until acknowledged, and
 * sent again from there; it counts in nb_ops meanwhile. @return whether it
 * was sent; if not, the caller posts it as an operation.
 */
bool rdm_conn_inject(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p,
		     const struct iovec *iov, size_t count, uint32_t len, uint64_t tag,
		     uint64_t data, uint16_t pkt_flags);

/**
 * Watches a peer even while nothing is under way with it (on), or stops:
 * it is connected to at once, probed every keepalive while silent, and
 * failed (peer_lost) when silent past the deadline, as a busy peer is.
 */
void rdm_peer_watch(struct dfi_rdm *r, struct rdm_peer *p, bool on);

/** The endpoint closes: drops what is under way and takes leave of the peers. */
void rdm_conn_shutdown(struct dfi_ep *ep, struct dfi_rdm *r);

/** @return a random 32-bit number, never 0 (incarnations, first PSNs). */
uint32_t rdm_random32(void);

/** @return the number of a new message to a peer (from 0 on a new connection). */
uint32_t rdm_conn_next_msg_seq(struct rdm_peer *peer);

/** Tells a peer it may send what it was refused (RNR) now. */
void rdm_conn_resume(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *peer);

/* -- the message layer (rdm.c), called by the protocol -- */

enum rdm_take {
	RDM_TAKEN,	/* placed (or buffered and the mbuf kept: *kept) */
	RDM_REFUSED,	/* no room: the sender must try again (RNR) */
	RDM_BAD,	/* its payload failed its CRC: as if it never came */
};

/** A MSG packet in sequence: places or buffers its payload. */
enum rdm_take rdm_msg_segment(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *peer,
			      const struct dfi_rdm_hdr *hdr, struct rte_mbuf *m,
			      const uint8_t *payload, uint32_t len, bool *kept);

/** A bundle of small messages in sequence: delivers those not delivered yet. */
enum rdm_take rdm_msg_bundle(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *peer,
			     const struct dfi_rdm_hdr *hdr, struct rte_mbuf *m,
			     const uint8_t *payload, uint32_t len);

/** An operation finished its part in the protocol: completes it (err 0 or positive). */
void rdm_op_complete(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_op *op, int err);

/** A peer is gone (err: FI_ETIMEDOUT, FI_ECONNRESET): fails what it was sending us. */
void rdm_msg_peer_lost(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *peer, int err);

/** The sender asked to hear when its message or RMA operation was done (err 0 or positive). */
void rdm_queue_done(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *peer,
		    uint32_t msg_seq, uint16_t flags, int err);

static inline struct dfi_rdm *
rdm_of(struct dfi_ep *ep)
{
	return ep->priv;
}

static inline struct dfi_ep *
rdm_ep_of(struct fid_ep *ep_fid)
{
	return container_of(ep_fid, struct dfi_ep, ep_fid);
}

/**
 * The flags of a transmit call that takes none of its own (fi_write(),
 * fi_read(), fi_atomic()...): the endpoint's defaults (fi_endpoint(3),
 * op_flags), FI_COMPLETION under FI_SELECTIVE_COMPLETION among them. FI_INJECT
 * does not apply where the answer lands in the caller's buffers (fetch: a
 * read, a fetching atomic).
 */
static inline uint64_t
rdm_tx_defaults(struct fid_ep *ep_fid, bool fetch)
{
	uint64_t flags = rdm_ep_of(ep_fid)->tx_op_flags;

	return fetch ? flags & ~(uint64_t)FI_INJECT : flags;
}

/** @return whether an I/O vector of count entries is one the endpoint takes. */
static inline bool
rdm_iov_ok(const struct dfi_ep *ep, const struct iovec *iov, size_t count)
{
	return count <= ep->iov_limit && (count == 0 || iov != NULL);
}

/** What a send, write or read is refused for before the lock; 0 and its length *len. */
static inline ssize_t
rdm_post_check(const struct dfi_ep *ep, const struct rdm_post *req, size_t *len)
{
	if (unlikely(!rdm_iov_ok(ep, req->iov, req->count)))
		return -FI_EINVAL;
	*len = dfi_iov_len(req->iov, req->count);
	if (unlikely(*len > ep->max_msg_size ||
		     ((req->flags & FI_INJECT) && *len > ep->inject_size)))
		return -FI_EMSGSIZE;
	return 0;
}

/** Posts a send, a write or a read; 0 or a negative fabric errno (-FI_EAGAIN: full). */
ssize_t rdm_post(struct dfi_ep *ep, const struct rdm_post *req);

/** rdm_post() with its guard held (a triggered operation issued). */
ssize_t rdm_post_locked(struct dfi_ep *ep, const struct rdm_post *req);

/** Posts a receive with its guard held (a triggered one issued). */
ssize_t rdm_rx_post_locked(struct dfi_ep *ep, const struct rdm_post *req,
			   const struct rdm_rx_args *rx);

/* -- receive queues of shared receive contexts (srx.c) -- */

/**
 * Sets up a receive queue of size receives and unexpected messages on a
 * port, whose unexpected messages may buffer total_buffered_recv bytes.
 * @return 0 or -FI_ENOMEM.
 */
int rdm_rxq_init(struct rdm_rxq *q, const struct dfi_port *port, uint8_t encap, size_t size,
		 size_t total_buffered_recv, bool shared);

/** Frees a queue no endpoint uses any more: posted receives go without completions. */
void rdm_rxq_fini(struct rdm_rxq *q);

/**
 * Posts a receive to a shared queue (its guard held): it matches the
 * oldest unexpected message it accepts, whatever endpoint that arrived on,
 * or waits. 0, or -FI_EAGAIN: no receive left, or the CQ of the endpoint
 * the message it matched arrived on is full.
 */
ssize_t rdm_rxq_post(struct rdm_rxq *q, const struct rdm_post *req, const struct rdm_rx_args *rx,
		     size_t min_multi_recv);

/**
 * fi_cancel() of a receive posted to a shared queue (its guard held):
 * FI_ECANCELED goes to cq. 0, -FI_ENOENT, or -FI_EAGAIN when cq is full.
 */
ssize_t rdm_rxq_cancel(struct rdm_rxq *q, void *context, struct dfi_cq *cq);

/**
 * FI_EP_DGRAM on a shared queue: the oldest untagged receive that is not a
 * FI_MULTI_RECV buffer, taken off its list, or NULL; given back with
 * rdm_rxq_put() once its datagram is placed.
 */
struct rdm_rx *rdm_rxq_take(struct rdm_rxq *q);
void rdm_rxq_put(struct rdm_rxq *q, struct rdm_rx *rx);

/* -- triggered operations (rdm_trig.c) -- */

/** Sets up the endpoint's pool when it was opened with FI_TRIGGER; 0 or -FI_ENOMEM. */
int rdm_trig_init(struct dfi_ep *ep, struct dfi_rdm *r);
void rdm_trig_fini(struct dfi_rdm *r);

/**
 * An operation posted with FI_TRIGGER (rx: a receive's own arguments, or
 * NULL): checked, copied and queued on its counter, or issued at once when
 * the counter is already there. 0 or a negative fabric errno.
 */
ssize_t rdm_trig_post(struct dfi_ep *ep, const struct rdm_post *req,
		      const struct rdm_rx_args *rx);

/** fi_cancel() of a triggered operation still waiting; -FI_ENOENT when none has context. */
ssize_t rdm_trig_cancel(struct dfi_ep *ep, struct dfi_rdm *r, void *context);

/** The endpoint closes: what still waits is dropped; its guard is held. */
void rdm_trig_shutdown(struct dfi_rdm *r);

/* Messages this small share a packet when several wait to go (FI_MORE, or
 * the window or the port busy), up to RDM_BUNDLE_RECS of them. */
#define RDM_BUNDLE_MSG_MAX	1024
#define RDM_BUNDLE_RECS		64

/** @return whether packets of type carry payload, checked as it is copied. */
static inline bool
rdm_type_has_payload(uint8_t type)
{
	return type == DFI_PKT_RDM_MSG || type == DFI_PKT_RDM_WRITE ||
	       type == DFI_PKT_RDM_READ_RESP || type == DFI_PKT_RDM_ATOMIC ||
	       type == DFI_PKT_RDM_ATOMIC_RESP;
}

/** @return whether a packet's payload CRC is still to be checked (as it is copied). */
static inline bool
rdm_payload_unchecked(const struct dfi_rdm_hdr *h, struct rte_mbuf *m)
{
	return (h->flags & rte_cpu_to_be_16(DFI_RDM_F_CRC)) && !dfi_rx_meta(m)->verified;
}

/* -- RMA (rdm_rma.c) -- */

extern struct fi_ops_rma rdm_rma_ops;
/* the message and tagged operations (rdm.c), FI_EP_MSG's as well */
extern struct fi_ops_msg rdm_msg_ops;
extern struct fi_ops_tagged rdm_tagged_ops;

/** The write a peer was sending us is over (done, failed or abandoned): its
 * region, held since its first segment, may close. */
void rdm_rma_in_end(struct rdm_rma_in *in);

/** A WRITE, READ_REQ, READ_RESP, ATOMIC or ATOMIC_RESP packet in sequence. */
enum rdm_take rdm_rma_segment(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *peer,
			      const struct dfi_rdm_hdr *hdr, struct rte_mbuf *m,
			      const uint8_t *payload, uint32_t len);

/** @return the operation of type and number seq under way with a peer, or NULL. */
struct rdm_op *rdm_conn_find_op(struct rdm_peer *peer, uint8_t type, uint32_t seq);

/** An operation waiting on its peer (a DONE, a read's answer) is over (err 0 or positive). */
void rdm_conn_finish_op(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_op *op, int err);

/** @return an op for a DONE notice, or NULL when the pool is empty. */
struct rdm_op *rdm_op_alloc(struct dfi_rdm *r);

#endif /* _DFI_RDM_H_ */
