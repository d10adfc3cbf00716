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

/** The fi_ops_cm of a connectionless endpoint: its names, nothing else. */
#define DFI_CM_OPS_NAMES(setname_fn, getname_fn) {	\
	.size = sizeof(struct fi_ops_cm),		\
	.setname = (setname_fn),			\
	.getname = (getname_fn),			\
	.getpeer = dfi_no_getpeer,			\
	.connect = dfi_no_connect,			\
	.listen = dfi_no_listen,			\
	.accept = dfi_no_accept,			\
	.reject = dfi_no_reject,			\
	.shutdown = dfi_no_shutdown,			\
	.join = dfi_no_join,				\
}

/* fi_ops_ep slots of an object that transfers nothing itself: options
 * -FI_ENOPROTOOPT, cancel and the sizes left -FI_ENOSYS */
int dfi_no_getopt(fid_t fid, int level, int optname, void *optval, size_t *optlen);
int dfi_no_setopt(fid_t fid, int level, int optname, const void *optval, size_t optlen);
ssize_t dfi_no_cancel(fid_t fid, void *context);
ssize_t dfi_no_size_left(struct fid_ep *ep);
/* the fi_ops_ep of an object that transfers nothing itself (passive
 * endpoints, shared transmit contexts): the slots above */
extern struct fi_ops_ep dfi_no_ep_ops;

/**
 * Fills an fid_ep whose RMA, atomics and collectives are not offered (a
 * scalable endpoint, a shared receive context); an endpoint then puts its
 * own RMA and atomics in.
 */
void dfi_ep_fid_init(struct fid_ep *ep, size_t fclass, void *context, struct fi_ops *fi_ops,
		     struct fi_ops_ep *ops, struct fi_ops_cm *cm, struct fi_ops_msg *msg,
		     struct fi_ops_tagged *tagged);

/* fi_tx_context() and fi_rx_context() on anything but a scalable endpoint */
int dfi_no_tx_ctx(struct fid_ep *sep, int index, struct fi_tx_attr *attr, struct fid_ep **tx_ep,
		  void *context);
int dfi_no_rx_ctx(struct fid_ep *sep, int index, struct fi_rx_attr *attr, struct fid_ep **rx_ep,
		  void *context);

/* the names of an object that has none (a shared receive context) */
int dfi_no_setname(fid_t fid, void *addr, size_t addrlen);
int dfi_no_getname(fid_t fid, void *addr, size_t *addrlen);
int dfi_no_getpeer(struct fid_ep *ep, void *addr, size_t *addrlen);
int dfi_no_connect(struct fid_ep *ep, const void *addr, const void *param, size_t paramlen);
int dfi_no_listen(struct fid_pep *pep);
int dfi_no_accept(struct fid_ep *ep, const void *param, size_t paramlen);
int dfi_no_reject(struct fid_pep *pep, fid_t handle, const void *param, size_t paramlen);
int dfi_no_shutdown(struct fid_ep *ep, uint64_t flags);
int dfi_no_join(struct fid_ep *ep, const void *addr, uint64_t flags, struct fid_mc **mc,
		void *context);

#endif /* _DFI_EP_STUBS_H_ */
