/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Endpoint operations a type does not offer: connection management (the
 * endpoints are connectionless), collectives, and whichever of tagged
 * messages, RMA and atomics a type lacks (messages: a scalable endpoint
 * itself, and the half a context lacks). They answer -FI_ENOSYS.
 */

#ifndef _DFI_EP_STUBS_H_
#define _DFI_EP_STUBS_H_

#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_collective.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

extern struct fi_ops_msg dfi_no_msg_ops;
extern struct fi_ops_tagged dfi_no_tagged_ops;
extern struct fi_ops_rma dfi_no_rma_ops;
extern struct fi_ops_atomic dfi_no_atomic_ops;
extern struct fi_ops_collective dfi_no_collective_ops;

int dfi_no_getpeer(struct fid_ep *ep, void *addr, size_t *addrlen);
int dfi_no_connect(struct fid_ep *ep, const void *addr, const void *param, size_t paramlen);
int dfi_no_listen(struct fid_pep *pep);
int dfi_no_accept(struct fid_ep *ep, const void *param, size_t paramlen);
int dfi_no_reject(struct fid_pep *pep, fid_t handle, const void *param, size_t paramlen);
int dfi_no_shutdown(struct fid_ep *ep, uint64_t flags);
int dfi_no_join(struct fid_ep *ep, const void *addr, uint64_t flags, struct fid_mc **mc,
		void *context);

#endif /* _DFI_EP_STUBS_H_ */
