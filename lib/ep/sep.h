/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Scalable endpoints: a name, a range of UDP ports from it, and the
 * transmit and receive contexts that use them (sep.c).
 */

#ifndef _DFI_SEP_H_
#define _DFI_SEP_H_

#include <rdma/fi_endpoint.h>

struct dfi_ep;
struct dfi_sep;

/** fi_scalable_ep() on one of our domains. */
int dfi_scalable_ep(struct fid_domain *domain, struct fi_info *info, struct fid_ep **sep,
		    void *context);

/** A context of sep is being closed: its slot may be opened again. */
void dfi_sep_ctx_closed(struct dfi_sep *sep, struct dfi_ep *ep);

#endif /* _DFI_SEP_H_ */
