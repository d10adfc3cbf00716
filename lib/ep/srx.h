/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Shared receive contexts (fi_srx_context(3), srx.c): one queue of posted
 * receives and unexpected messages (the reliable protocol's rdm_rxq) that
 * every endpoint bound to it matches from, RDM and MSG endpoints with
 * FI_DIRECTED_RECV and tags as on their own queue, DGRAM endpoints one
 * datagram per receive. Completions go to the CQ of the endpoint a message
 * arrived on (fi_endpoint(3)).
 */

#ifndef _DFI_SRX_H_
#define _DFI_SRX_H_

#include <rdma/fi_endpoint.h>

struct dfi_av;
struct dfi_ep;
struct dfi_srx;
struct rdm_rxq;

/** fi_srx_context() on one of our domains. */
int dfi_srx_context(struct fid_domain *domain, struct fi_rx_attr *attr, struct fid_ep **srx,
		    void *context);

/** @return the context behind fid, or NULL when fid is not a shared receive context of ours. */
struct dfi_srx *dfi_srx_from_fid(struct fid *fid);

/**
 * Binds an endpoint (fi_ep_bind()): its receive attributes must be a subset
 * of the context's. 0 or -FI_EINVAL (logged).
 */
int dfi_srx_attach(struct dfi_srx *srx, struct dfi_ep *ep);

/**
 * A bound endpoint is enabled: connectionless endpoints of one context share
 * their AV (fi_endpoint(3)). 0 or -FI_EINVAL (logged).
 */
int dfi_srx_enable(struct dfi_srx *srx, struct dfi_ep *ep);

/** A bound endpoint is closed. */
void dfi_srx_detach(struct dfi_srx *srx);

/** @return the queue the endpoints bound to srx match from. */
struct rdm_rxq *dfi_srx_rxq(struct dfi_srx *srx);

#endif /* _DFI_SRX_H_ */
