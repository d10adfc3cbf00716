/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Shared transmit contexts (fi_stx_context(3), stx.c): the transmit queue
 * that the endpoints bound to one share. Every endpoint of a port already
 * sends on the port's queue; what the context adds is its attributes, which
 * bound endpoints take a subset of, and its size, a bound on the operations
 * in flight across all of them.
 */

#ifndef _DFI_STX_H_
#define _DFI_STX_H_

#include <stdbool.h>
#include <stdint.h>

#include <rdma/fi_endpoint.h>

#include <rte_common.h>

struct dfi_domain;
struct dfi_ep;

struct dfi_stx {
	struct fid_stx stx_fid;
	struct dfi_domain *domain;
	struct fi_tx_attr attr;
	uint32_t nb_eps;		/* bound endpoints (the domain's control lock) */
	uint32_t max_eps;		/* domain_attr->max_ep_stx_ctx */
	/* operations in flight on every endpoint bound: its own line, as the
	 * endpoints that post on different threads all write it */
	uint32_t inflight __rte_cache_aligned;
};

/** fi_stx_context() on one of our domains. */
int dfi_stx_context(struct fid_domain *domain, struct fi_tx_attr *attr, struct fid_stx **stx,
		    void *context);

/** @return the context behind fid, or NULL when fid is not a shared transmit context of ours. */
struct dfi_stx *dfi_stx_from_fid(struct fid *fid);

/**
 * Binds an endpoint (fi_ep_bind()): its transmit attributes must be a subset
 * of the context's. 0 or -FI_EINVAL (logged).
 */
int dfi_stx_attach(struct dfi_stx *stx, struct dfi_ep *ep);

/** A bound endpoint is closed (its type gave back what it still counted in flight). */
void dfi_stx_detach(struct dfi_stx *stx);

/** Counts an operation in: @return false when the context's size is used up. */
static inline bool
dfi_stx_take(struct dfi_stx *stx)
{
	if (__atomic_fetch_add(&stx->inflight, 1, __ATOMIC_RELAXED) < stx->attr.size)
		return true;
	__atomic_fetch_sub(&stx->inflight, 1, __ATOMIC_RELAXED);
	return false;
}

/** n operations counted in by dfi_stx_take() are over. */
static inline void
dfi_stx_put(struct dfi_stx *stx, uint32_t n)
{
	__atomic_fetch_sub(&stx->inflight, n, __ATOMIC_RELAXED);
}

#endif /* _DFI_STX_H_ */
