/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Atomics (fi_atomic(3)) over the reliable protocol: the initiator's
 * requests, their execution at the target, and the answers. What an
 * operation does to memory is atomic_op.h's; this is how it travels.
 */

#ifndef _DFI_RDM_ATOMIC_H_
#define _DFI_RDM_ATOMIC_H_

#include <rdma/fi_atomic.h>

#include "atomic_op.h"
#include "rdm.h"

/** What an atomic call asks for, beyond an rdm_post's fields. */
struct rdm_atomic_req {
	const struct fi_ioc *iov;	/* operands (ignored by FI_ATOMIC_READ) */
	size_t count;
	const struct fi_ioc *cmp;	/* compare values: compare calls */
	size_t cmp_count;
	const struct fi_ioc *res;	/* where the values found go: fetch, compare */
	size_t res_count;
	size_t nelem;			/* elements at the target */
	enum fi_datatype datatype;
	enum fi_op op;
	enum dfi_atomic_kind kind;
};

extern struct fi_ops_atomic rdm_atomic_ops;

/** Sets up the requests' buffers when the endpoint has FI_ATOMIC; 0 or -FI_ENOMEM. */
int rdm_atomic_init(struct dfi_ep *ep, struct dfi_rdm *r, uint32_t nb_ops);
void rdm_atomic_fini(struct dfi_rdm *r);

/** Fills a new op from a checked atomic request: its payload and where its answer goes. */
void rdm_atomic_op_init(struct dfi_rdm *r, struct rdm_op *op, const struct rdm_atomic_req *a);

/** An ATOMIC packet in sequence: carried out once, answered (DONE or ATOMIC_RESP). */
enum rdm_take rdm_atomic_request(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *peer,
				 const struct dfi_rdm_hdr *hdr, struct rte_mbuf *m,
				 const uint8_t *payload, uint32_t len);

/** An ATOMIC_RESP packet in sequence: the values one of our operations found. */
enum rdm_take rdm_atomic_response(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *peer,
				  const struct dfi_rdm_hdr *hdr, struct rte_mbuf *m,
				  const uint8_t *payload, uint32_t len);

#endif /* _DFI_RDM_ATOMIC_H_ */
