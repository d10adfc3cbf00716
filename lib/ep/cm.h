/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The connection manager's packets (FI_EP_MSG): building, sealing and
 * checking the CM types of wire.h, shared by the passive endpoint (pep.c),
 * which takes requests, and the connected endpoint (msg.c), which makes and
 * answers them. doc/rdm-protocol.md, "Connected endpoints", has the state
 * machine.
 */

#ifndef _DFI_CM_H_
#define _DFI_CM_H_

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "addr.h"
#include "rxtx.h"
#include "wire.h"

/* The first resend of an unanswered CM packet; doubled up to CM_RETRY_MAX_US. */
#define CM_RETRY_US		1000
#define CM_RETRY_MAX_US		100000

/** What a CM packet says, in host order. */
struct dfi_cm_pkt {
	uint8_t type;			/* DFI_PKT_CM_* */
	uint32_t src_inc;		/* the sender's incarnation */
	uint32_t dst_inc;		/* the receiver's, 0 in a REQ */
	uint32_t conn_id;		/* the connection attempt */
	uint64_t err;			/* REJECT: the fabric errno */
	const void *data;		/* CM data */
	uint32_t len;
	struct dfi_addr src;		/* sending: our address, sealed by the header CRC */
};

/** @return whether a received packet is one of the connection manager's. */
static inline bool
dfi_cm_is_cm(struct rte_mbuf *m)
{
	const struct dfi_rdm_hdr *h = rte_pktmbuf_mtod(m, const struct dfi_rdm_hdr *);

	return rte_pktmbuf_data_len(m) >= sizeof(*h) && h->type >= DFI_PKT_CM_REQ &&
	       h->type <= DFI_PKT_CM_LAST;
}

/**
 * Reads a received CM packet from src (the frame's source), checking its
 * length and both CRCs, the header's over src too.
 * @return 0, or -FI_EINVAL for a packet to drop (c->data points into m).
 */
int dfi_cm_parse(struct rte_mbuf *m, const struct dfi_addr *src, struct dfi_cm_pkt *c);

/**
 * Sends a CM packet from a sink to dst and flushes; c->src is the sink's own
 * address. @return 0 or a negative fabric errno.
 */
int dfi_cm_send(struct dfi_sink *sink, uint8_t encap, const struct dfi_addr *dst,
		const struct dfi_cm_pkt *c);

/** @return the TSC cycles of a CM timeout (FI_DPDK_CM_TIMEOUT_MS). */
uint64_t dfi_cm_timeout(void);

/** @return the retry interval after one of retry cycles (doubled, capped). */
uint64_t dfi_cm_backoff(uint64_t retry);

#endif /* _DFI_CM_H_ */
