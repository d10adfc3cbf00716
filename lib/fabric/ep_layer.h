/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The endpoint layer (lib/ep) as the layer below it sees it: what fabrics,
 * domains, CQs and counters call up into, through function pointers that
 * lib/ep registers when the provider is loaded (a constructor, as DPDK's
 * drivers register with their bus), so that lib/fabric includes no header
 * of lib/ep.
 */

#ifndef _DFI_EP_LAYER_H_
#define _DFI_EP_LAYER_H_

#include <stdbool.h>

#include <rdma/fabric.h>
#include <rdma/fi_endpoint.h>

struct dfi_ep;

struct dfi_ep_layer {
	/** fi_endpoint() on one of our domains */
	int (*endpoint)(struct fid_domain *domain, struct fi_info *info, struct fid_ep **ep,
			void *context);
	/** fi_scalable_ep() on one of our domains */
	int (*scalable_ep)(struct fid_domain *domain, struct fi_info *info, struct fid_ep **sep,
			   void *context);
	/** fi_stx_context() and fi_srx_context() on one of our domains */
	int (*stx_ctx)(struct fid_domain *domain, struct fi_tx_attr *attr, struct fid_stx **stx,
		       void *context);
	int (*srx_ctx)(struct fid_domain *domain, struct fi_rx_attr *attr, struct fid_ep **srx,
		       void *context);
	/** fi_passive_ep() on one of our fabrics */
	int (*passive_ep)(struct fid_fabric *fabric, struct fi_info *info, struct fid_pep **pep,
			  void *context);
	/** progresses an endpoint (manual progress); its guard is held */
	void (*progress)(struct dfi_ep *ep);
	/** the domain's watchdog looks at an endpoint, under its guard if that
	 * is free (guard.h), else not; true when the application had left it
	 * alone since the last look (and the look progressed it) */
	bool (*rescue)(struct dfi_ep *ep);
	/** whether an endpoint's traffic class is progressed before the others' */
	bool (*urgent)(const struct dfi_ep *ep);
};

/** What lib/ep registered; every member is set before the first fi_getinfo(). */
extern struct dfi_ep_layer dfi_ep_layer;

#endif /* _DFI_EP_LAYER_H_ */
