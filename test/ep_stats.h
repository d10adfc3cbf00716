/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * An endpoint's statistics through the provider's extension
 * (fi_ext_dpdk.h), for the unit tests and the wire tests' peers alike.
 */

#ifndef _DFI_TEST_EP_STATS_H_
#define _DFI_TEST_EP_STATS_H_

#include <string.h>

#include <rdma/fi_endpoint.h>

#include "fi_ext_dpdk.h"

/** Fills *st (zeroed first); 0 or a negative fabric errno. */
static inline int
test_ep_stats(struct fid_ep *ep, struct fi_dpdk_ep_stats *st)
{
	struct fi_dpdk_ep_ops *ops;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = fi_open_ops(&ep->fid, FI_DPDK_EP_OPS_1, 0, (void **)&ops, NULL);
	return ret ? ret : fi_dpdk_ep_stats(ops, ep, st);
}

#endif /* _DFI_TEST_EP_STATS_H_ */
