/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * -FI_ENOSYS for the endpoint operations a type does not offer. libfabric's
 * inline wrappers call these slots without checking them.
 */

#include "dfi.h"
#include "ep_stubs.h"

/* A stub takes its slot's parameters and uses none of them. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define NO_OP(type, name, ...) static type name(__VA_ARGS__) { return -FI_ENOSYS; }
#define NO_OP_EXTERN(type, name, ...) type name(__VA_ARGS__) { return -FI_ENOSYS; }

NO_OP(ssize_t, no_msg_recv, struct fid_ep *ep, void *buf, size_t len, void *desc,
	fi_addr_t src_addr, void *context)

NO_OP(ssize_t, no_msg_recvv, struct fid_ep *ep, const struct iovec *iov, void **desc,
	size_t count, fi_addr_t src_addr, void *context)

NO_OP(ssize_t, no_msg_recvmsg, struct fid_ep *ep, const struct fi_msg *msg, uint64_t flags)

NO_OP(ssize_t, no_msg_send, struct fid_ep *ep, const void *buf, size_t len, void *desc,
	fi_addr_t dest_addr, void *context)

NO_OP(ssize_t, no_msg_sendv, struct fid_ep *ep, const struct iovec *iov, void **desc,
	size_t count, fi_addr_t dest_addr, void *context)

NO_OP(ssize_t, no_msg_sendmsg, struct fid_ep *ep, const struct fi_msg *msg, uint64_t flags)

NO_OP(ssize_t, no_msg_inject, struct fid_ep *ep, const void *buf, size_t len,
	fi_addr_t dest_addr)

NO_OP(ssize_t, no_msg_senddata, struct fid_ep *ep, const void *buf, size_t len, void *desc,
	uint64_t data, fi_addr_t dest_addr, void *context)

NO_OP(ssize_t, no_msg_injectdata, struct fid_ep *ep, const void *buf, size_t len, uint64_t data,
	fi_addr_t dest_addr)

struct fi_ops_msg dfi_no_msg_ops = {
	.size = sizeof(struct fi_ops_msg),
	.recv = no_msg_recv,
	.recvv = no_msg_recvv,
	.recvmsg = no_msg_recvmsg,
	.send = no_msg_send,
	.sendv = no_msg_sendv,
	.sendmsg = no_msg_sendmsg,
	.inject = no_msg_inject,
	.senddata = no_msg_senddata,
	.injectdata = no_msg_injectdata,
};

NO_OP(ssize_t, no_tagged_recv, struct fid_ep *ep, void *buf, size_t len, void *desc,
	fi_addr_t src_addr, uint64_t tag, uint64_t ignore, void *context)

NO_OP(ssize_t, no_tagged_recvv, struct fid_ep *ep, const struct iovec *iov, void **desc,
	size_t count, fi_addr_t src_addr, uint64_t tag, uint64_t ignore, void *context)

NO_OP(ssize_t, no_tagged_recvmsg, struct fid_ep *ep, const struct fi_msg_tagged *msg,
	uint64_t flags)

NO_OP(ssize_t, no_tagged_send, struct fid_ep *ep, const void *buf, size_t len, void *desc,
	fi_addr_t dest_addr, uint64_t tag, void *context)

NO_OP(ssize_t, no_tagged_sendv, struct fid_ep *ep, const struct iovec *iov, void **desc,
	size_t count, fi_addr_t dest_addr, uint64_t tag, void *context)

NO_OP(ssize_t, no_tagged_sendmsg, struct fid_ep *ep, const struct fi_msg_tagged *msg,
	uint64_t flags)

NO_OP(ssize_t, no_tagged_inject, struct fid_ep *ep, const void *buf, size_t len,
	fi_addr_t dest_addr, uint64_t tag)

NO_OP(ssize_t, no_tagged_senddata, struct fid_ep *ep, const void *buf, size_t len, void *desc,
	uint64_t data, fi_addr_t dest_addr, uint64_t tag, void *context)

NO_OP(ssize_t, no_tagged_injectdata, struct fid_ep *ep, const void *buf, size_t len, uint64_t data,
	fi_addr_t dest_addr, uint64_t tag)

struct fi_ops_tagged dfi_no_tagged_ops = {
	.size = sizeof(struct fi_ops_tagged),

	.recv = no_tagged_recv,

	.recvv = no_tagged_recvv,

	.recvmsg = no_tagged_recvmsg,

	.send = no_tagged_send,

	.sendv = no_tagged_sendv,

	.sendmsg = no_tagged_sendmsg,

	.inject = no_tagged_inject,

	.senddata = no_tagged_senddata,

	.injectdata = no_tagged_injectdata,

};

NO_OP(ssize_t, no_rma_read, struct fid_ep *ep, void *buf, size_t len, void *desc,
	fi_addr_t src_addr, uint64_t addr, uint64_t key, void *context)

NO_OP(ssize_t, no_rma_readv, struct fid_ep *ep, const struct iovec *iov, void **desc, size_t count,
	fi_addr_t src_addr, uint64_t addr, uint64_t key, void *context)

NO_OP(ssize_t, no_rma_readmsg, struct fid_ep *ep, const struct fi_msg_rma *msg, uint64_t flags)

NO_OP(ssize_t, no_rma_write, struct fid_ep *ep, const void *buf, size_t len, void *desc,
	fi_addr_t dest_addr, uint64_t addr, uint64_t key, void *context)

NO_OP(ssize_t, no_rma_writev, struct fid_ep *ep, const struct iovec *iov, void **desc,
	size_t count, fi_addr_t dest_addr, uint64_t addr, uint64_t key, void *context)

NO_OP(ssize_t, no_rma_writemsg, struct fid_ep *ep, const struct fi_msg_rma *msg, uint64_t flags)

NO_OP(ssize_t, no_rma_inject, struct fid_ep *ep, const void *buf, size_t len, fi_addr_t dest_addr,
	uint64_t addr, uint64_t key)

NO_OP(ssize_t, no_rma_writedata, struct fid_ep *ep, const void *buf, size_t len, void *desc,
	uint64_t data, fi_addr_t dest_addr, uint64_t addr, uint64_t key, void *context)

NO_OP(ssize_t, no_rma_injectdata, struct fid_ep *ep, const void *buf, size_t len, uint64_t data,
	fi_addr_t dest_addr, uint64_t addr, uint64_t key)

struct fi_ops_rma dfi_no_rma_ops = {
	.size = sizeof(struct fi_ops_rma),

	.read = no_rma_read,

	.readv = no_rma_readv,

	.readmsg = no_rma_readmsg,

	.write = no_rma_write,

	.writev = no_rma_writev,

	.writemsg = no_rma_writemsg,

	.inject = no_rma_inject,

	.writedata = no_rma_writedata,

	.injectdata = no_rma_injectdata,

};

NO_OP(ssize_t, no_atomic_write, struct fid_ep *ep, const void *buf, size_t count, void *desc,
	fi_addr_t dest_addr, uint64_t addr, uint64_t key, enum fi_datatype datatype, enum fi_op op,
	void *context)

NO_OP(ssize_t, no_atomic_writev, struct fid_ep *ep, const struct fi_ioc *iov, void **desc,
	size_t count, fi_addr_t dest_addr, uint64_t addr, uint64_t key, enum fi_datatype datatype,
	enum fi_op op, void *context)

NO_OP(ssize_t, no_atomic_writemsg, struct fid_ep *ep, const struct fi_msg_atomic *msg,
	uint64_t flags)

NO_OP(ssize_t, no_atomic_inject, struct fid_ep *ep, const void *buf, size_t count,
	fi_addr_t dest_addr, uint64_t addr, uint64_t key, enum fi_datatype datatype, enum fi_op op)

NO_OP(ssize_t, no_atomic_readwrite, struct fid_ep *ep, const void *buf, size_t count, void *desc,
	void *result, void *result_desc, fi_addr_t dest_addr, uint64_t addr, uint64_t key,
	enum fi_datatype datatype, enum fi_op op, void *context)

NO_OP(ssize_t, no_atomic_readwritev, struct fid_ep *ep, const struct fi_ioc *iov, void **desc,
	size_t count, struct fi_ioc *resultv, void **result_desc, size_t result_count,
	fi_addr_t dest_addr, uint64_t addr, uint64_t key, enum fi_datatype datatype, enum fi_op op,
	void *context)

NO_OP(ssize_t, no_atomic_readwritemsg, struct fid_ep *ep, const struct fi_msg_atomic *msg,
	struct fi_ioc *resultv, void **result_desc, size_t result_count, uint64_t flags)

NO_OP(ssize_t, no_atomic_compwrite, struct fid_ep *ep, const void *buf, size_t count, void *desc,
	const void *compare, void *compare_desc, void *result, void *result_desc,
	fi_addr_t dest_addr, uint64_t addr, uint64_t key, enum fi_datatype datatype, enum fi_op op,
	void *context)

NO_OP(ssize_t, no_atomic_compwritev, struct fid_ep *ep, const struct fi_ioc *iov, void **desc,
	size_t count, const struct fi_ioc *comparev, void **compare_desc, size_t compare_count,
	struct fi_ioc *resultv, void **result_desc, size_t result_count, fi_addr_t dest_addr,
	uint64_t addr, uint64_t key, enum fi_datatype datatype, enum fi_op op, void *context)

NO_OP(ssize_t, no_atomic_compwritemsg, struct fid_ep *ep, const struct fi_msg_atomic *msg,
	const struct fi_ioc *comparev, void **compare_desc, size_t compare_count,
	struct fi_ioc *resultv, void **result_desc, size_t result_count, uint64_t flags)

NO_OP(int, no_atomic_writevalid, struct fid_ep *ep, enum fi_datatype datatype, enum fi_op op,
	size_t *count)

NO_OP(int, no_atomic_readwritevalid, struct fid_ep *ep, enum fi_datatype datatype, enum fi_op op,
	size_t *count)

NO_OP(int, no_atomic_compwritevalid, struct fid_ep *ep, enum fi_datatype datatype, enum fi_op op,
	size_t *count)

struct fi_ops_atomic dfi_no_atomic_ops = {
	.size = sizeof(struct fi_ops_atomic),

	.write = no_atomic_write,

	.writev = no_atomic_writev,

	.writemsg = no_atomic_writemsg,

	.inject = no_atomic_inject,

	.readwrite = no_atomic_readwrite,

	.readwritev = no_atomic_readwritev,

	.readwritemsg = no_atomic_readwritemsg,

	.compwrite = no_atomic_compwrite,

	.compwritev = no_atomic_compwritev,

	.compwritemsg = no_atomic_compwritemsg,

	.writevalid = no_atomic_writevalid,

	.readwritevalid = no_atomic_readwritevalid,

	.compwritevalid = no_atomic_compwritevalid,

};

NO_OP(ssize_t, no_collective_barrier, struct fid_ep *ep, fi_addr_t coll_addr, void *context)

NO_OP(ssize_t, no_collective_broadcast, struct fid_ep *ep, void *buf, size_t count, void *desc,
	fi_addr_t coll_addr, fi_addr_t root_addr, enum fi_datatype datatype, uint64_t flags,
	void *context)

NO_OP(ssize_t, no_collective_alltoall, struct fid_ep *ep, const void *buf, size_t count,
	void *desc, void *result, void *result_desc, fi_addr_t coll_addr,
	enum fi_datatype datatype, uint64_t flags, void *context)

NO_OP(ssize_t, no_collective_allreduce, struct fid_ep *ep, const void *buf, size_t count,
	void *desc, void *result, void *result_desc, fi_addr_t coll_addr,
	enum fi_datatype datatype, enum fi_op op, uint64_t flags, void *context)

NO_OP(ssize_t, no_collective_allgather, struct fid_ep *ep, const void *buf, size_t count,
	void *desc, void *result, void *result_desc, fi_addr_t coll_addr,
	enum fi_datatype datatype, uint64_t flags, void *context)

NO_OP(ssize_t, no_collective_reduce_scatter, struct fid_ep *ep, const void *buf, size_t count,
	void *desc, void *result, void *result_desc, fi_addr_t coll_addr,
	enum fi_datatype datatype, enum fi_op op, uint64_t flags, void *context)

NO_OP(ssize_t, no_collective_reduce, struct fid_ep *ep, const void *buf, size_t count, void *desc,
	void *result, void *result_desc, fi_addr_t coll_addr, fi_addr_t root_addr,
	enum fi_datatype datatype, enum fi_op op, uint64_t flags, void *context)

NO_OP(ssize_t, no_collective_scatter, struct fid_ep *ep, const void *buf, size_t count, void *desc,
	void *result, void *result_desc, fi_addr_t coll_addr, fi_addr_t root_addr,
	enum fi_datatype datatype, uint64_t flags, void *context)

NO_OP(ssize_t, no_collective_gather, struct fid_ep *ep, const void *buf, size_t count, void *desc,
	void *result, void *result_desc, fi_addr_t coll_addr, fi_addr_t root_addr,
	enum fi_datatype datatype, uint64_t flags, void *context)

NO_OP(ssize_t, no_collective_msg, struct fid_ep *ep, const struct fi_msg_collective *msg,
	struct fi_ioc *resultv, void **result_desc, size_t result_count, uint64_t flags)

NO_OP(ssize_t, no_collective_barrier2, struct fid_ep *ep, fi_addr_t coll_addr, uint64_t flags,
	void *context)

struct fi_ops_collective dfi_no_collective_ops = {
	.size = sizeof(struct fi_ops_collective),

	.barrier = no_collective_barrier,

	.broadcast = no_collective_broadcast,

	.alltoall = no_collective_alltoall,

	.allreduce = no_collective_allreduce,

	.allgather = no_collective_allgather,

	.reduce_scatter = no_collective_reduce_scatter,

	.reduce = no_collective_reduce,

	.scatter = no_collective_scatter,

	.gather = no_collective_gather,

	.msg = no_collective_msg,

	.barrier2 = no_collective_barrier2,

};

NO_OP_EXTERN(int, dfi_no_setname, fid_t fid, void *addr, size_t addrlen)

NO_OP_EXTERN(int, dfi_no_getname, fid_t fid, void *addr, size_t *addrlen)

NO_OP_EXTERN(int, dfi_no_getpeer, struct fid_ep *ep, void *addr, size_t *addrlen)

NO_OP_EXTERN(int, dfi_no_connect, struct fid_ep *ep, const void *addr, const void *param,
	size_t paramlen)

NO_OP_EXTERN(int, dfi_no_listen, struct fid_pep *pep)

NO_OP_EXTERN(int, dfi_no_accept, struct fid_ep *ep, const void *param, size_t paramlen)

NO_OP_EXTERN(int, dfi_no_reject, struct fid_pep *pep, fid_t handle, const void *param,
	size_t paramlen)

NO_OP_EXTERN(int, dfi_no_shutdown, struct fid_ep *ep, uint64_t flags)

NO_OP_EXTERN(int, dfi_no_join, struct fid_ep *ep, const void *addr, uint64_t flags,
	struct fid_mc **mc, void *context)

/* fi_ops_ep of an object that transfers nothing itself (passive and scalable endpoints) */

int
dfi_no_getopt(fid_t fid, int level, int optname, void *optval, size_t *optlen)
{
	return -FI_ENOPROTOOPT;
}

int
dfi_no_setopt(fid_t fid, int level, int optname, const void *optval, size_t optlen)
{
	return -FI_ENOPROTOOPT;
}

ssize_t
dfi_no_cancel(fid_t fid, void *context)
{
	return -FI_ENOSYS;
}

ssize_t
dfi_no_size_left(struct fid_ep *ep)
{
	return -FI_ENOSYS;
}

struct fi_ops_ep dfi_no_ep_ops = {
	.size = sizeof(struct fi_ops_ep),
	.cancel = dfi_no_cancel,
	.getopt = dfi_no_getopt,
	.setopt = dfi_no_setopt,
	.tx_ctx = dfi_no_tx_ctx,
	.rx_ctx = dfi_no_rx_ctx,
	.rx_size_left = dfi_no_size_left,
	.tx_size_left = dfi_no_size_left,
};

void
dfi_ep_fid_init(struct fid_ep *ep, size_t fclass, void *context, struct fi_ops *fi_ops,
		struct fi_ops_ep *ops, struct fi_ops_cm *cm, struct fi_ops_msg *msg,
		struct fi_ops_tagged *tagged)
{
	ep->fid.fclass = fclass;
	ep->fid.context = context;
	ep->fid.ops = fi_ops;
	ep->ops = ops;
	ep->cm = cm;
	ep->msg = msg;
	ep->tagged = tagged;
	ep->rma = &dfi_no_rma_ops;
	ep->atomic = &dfi_no_atomic_ops;
	ep->collective = &dfi_no_collective_ops;
}

/* fi_tx_context() and fi_rx_context() on anything but a scalable endpoint */

int
dfi_no_tx_ctx(struct fid_ep *sep, int index, struct fi_tx_attr *attr, struct fid_ep **tx_ep,
	      void *context)
{
	return -FI_ENOSYS;
}

int
dfi_no_rx_ctx(struct fid_ep *sep, int index, struct fi_rx_attr *attr, struct fid_ep **rx_ep,
	      void *context)
{
	return -FI_ENOSYS;
}
