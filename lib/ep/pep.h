/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Passive endpoints (fi_passive_ep(), fi_listen(), fi_reject()) and the
 * connection requests they take: each request is an FI_CONNREQ event whose
 * info's handle the endpoint opened on it takes (msg.c).
 */

#ifndef _DFI_PEP_H_
#define _DFI_PEP_H_

#include <stdint.h>
#include <sys/queue.h>

#include <rdma/fi_endpoint.h>

#include "addr.h"
#include "wire.h"

struct dfi_pep;

/** A connection request, from its arrival to its answer. */
struct dfi_connreq {
	struct fid fid;			/* FI_CLASS_CONNREQ: the info's handle */
	TAILQ_ENTRY(dfi_connreq) link;	/* its listener's requests */
	struct dfi_pep *pep;		/* NULL once the listener closed */
	struct dfi_addr src;		/* the connecting endpoint */
	uint32_t src_inc;		/* its incarnation */
	uint32_t conn_id;		/* its attempt */
	uint8_t state;			/* enum in pep.c */
	uint64_t expire;		/* rejected: forgotten then */
	uint16_t len;			/* rejected: the CM data, resent with the refusal */
	uint8_t data[DFI_CM_DATA_MAX];
};

/** fi_passive_ep() on one of our fabrics. */
int dfi_passive_ep(struct fid_fabric *fabric, struct fi_info *info, struct fid_pep **pep,
		   void *context);

/**
 * The request behind an fi_info's handle, for the endpoint fi_endpoint()
 * opens on it. @return NULL (logged) when the handle is none of ours, or was
 * taken or rejected already.
 */
struct dfi_connreq *dfi_connreq_take(struct fid *handle);

/** The endpoint that took a request closes. */
void dfi_connreq_release(struct dfi_connreq *req);

#endif /* _DFI_PEP_H_ */
