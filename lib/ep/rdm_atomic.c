/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Atomics over the reliable protocol (fi_atomic(3)). A request is one
 * sequenced ATOMIC packet, numbered among the initiator's RMA operations.
 * The protocol hands each packet to the target exactly once and in order,
 * so a resent request is dropped as a duplicate before it comes here: it is
 * carried out once. A refusal (RNR) comes before anything is touched. The
 * answer is a packet of the target's own, sequenced and resent until the
 * initiator acknowledges it: a DONE for a base operation or any refusal,
 * an ATOMIC_RESP carrying the values found for a fetch or compare. Those
 * values are taken when the operation is carried out and kept in the
 * answer's buffer (one per op of the pool, so bounded) until acknowledged:
 * a lost answer is resent as it was, never computed again.
 */

#include <inttypes.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "cq.h"
#include "crc32c.h"
#include "dfi.h"
#include "domain.h"
#include "ep.h"
#include "iov.h"
#include "mr.h"
#include "rdm_atomic.h"

#define ATOMIC_FLAGS	(FI_COMPLETION | FI_INJECT | FI_REMOTE_CQ_DATA | FI_MORE | \
			 FI_INJECT_COMPLETE | FI_TRANSMIT_COMPLETE | FI_DELIVERY_COMPLETE)
#define ATOMIC_PAYLOAD_MAX	(sizeof(struct dfi_rdm_atomic) + 2 * DFI_ATOMIC_MAX_BYTES)

/* An op's atomic state: the request it sends, or the answer it holds. */
struct rdm_atomic_slot {
	struct iovec res[RDM_IOV_MAX];	/* the initiator's result buffers */
	uint32_t res_count;
	uint32_t res_len;		/* bytes of the answer expected */
	uint8_t buf[ATOMIC_PAYLOAD_MAX];
};

static struct rdm_atomic_slot *
slot_of(struct dfi_rdm *r, const struct rdm_op *op)
{
	return &r->atomic_slots[op - r->ops];
}

/* -- the initiator -- */

/*
 * @return the elements of an fi_ioc array, 0 when it is not one the endpoint
 * takes, or ATOMIC_ELEMS_OVER when they are more than any datatype's count
 * (never a sum that wrapped around).
 */
#define ATOMIC_ELEMS_OVER	(DFI_ATOMIC_MAX_BYTES + 1)

static size_t
ioc_elems(const struct dfi_ep *ep, const struct fi_ioc *ioc, size_t count, bool need_addr)
{
	size_t i, n = 0;

	if (count > ep->iov_limit || count > RDM_IOV_MAX || (count > 0 && ioc == NULL))
		return 0;
	for (i = 0; i < count; i++) {
		if (need_addr && ioc[i].addr == NULL && ioc[i].count > 0)
			return 0;
		if (ioc[i].count > DFI_ATOMIC_MAX_BYTES - n)
			return ATOMIC_ELEMS_OVER;
		n += ioc[i].count;
	}
	return n;
}

static size_t
ioc_gather(uint8_t *dst, const struct fi_ioc *ioc, size_t count, size_t size)
{
	size_t i, off = 0;

	for (i = 0; i < count; i++) {
		memcpy(dst + off, ioc[i].addr, ioc[i].count * size);
		off += ioc[i].count * size;
	}
	return off;
}

static const char *const kind_names[] = { "fi_atomic", "fi_fetch_atomic", "fi_compare_atomic" };

/* Checks a request against the endpoint and fi_atomic(3); 0 or a negative errno. */
static ssize_t
atomic_check(const struct dfi_ep *ep, struct rdm_atomic_req *a, uint64_t flags)
{
	size_t max, size = dfi_atomic_type_size(a->datatype);
	bool read = a->op == FI_ATOMIC_READ;

	if (unlikely((ep->caps & FI_ATOMIC) == 0)) {
		DFI_WARN(FI_LOG_EP_DATA, "atomic on an endpoint opened without FI_ATOMIC");
		return -FI_EOPNOTSUPP;
	}
	if (unlikely(dfi_atomic_valid(a->kind, a->datatype, a->op, &max) != 0)) {
		DFI_WARN(FI_LOG_EP_DATA, "%s: operation %d on datatype %d is not offered",
			 kind_names[a->kind], a->op, a->datatype);
		return -FI_EOPNOTSUPP;
	}
	a->nelem = ioc_elems(ep, a->iov, a->count, !read);
	if (a->kind != DFI_ATOMIC_BASE) {
		/* FI_ATOMIC_READ's operands may be absent: the results count */
		size_t nres = ioc_elems(ep, a->res, a->res_count, true);

		if (read && a->nelem == 0)
			a->nelem = nres;
		if (nres != a->nelem)
			a->nelem = 0;
	}
	if (a->kind == DFI_ATOMIC_COMPARE &&
	    ioc_elems(ep, a->cmp, a->cmp_count, true) != a->nelem)
		a->nelem = 0;
	if (unlikely(a->nelem == 0)) {
		DFI_WARN(FI_LOG_EP_DATA, "%s: operands, compare values and results must be "
			 "as many, at least one, in at most %zu buffers", kind_names[a->kind],
			 RTE_MIN(ep->iov_limit, (size_t)RDM_IOV_MAX));
		return -FI_EINVAL;
	}
	if (unlikely(a->nelem > max ||
		     ((flags & FI_INJECT) && a->nelem * size > ep->inject_size))) {
		DFI_WARN(FI_LOG_EP_DATA, "%s: %zu elements of %zu bytes, more than the %zu "
			 "it takes%s", kind_names[a->kind], a->nelem, size,
			 (flags & FI_INJECT) ? RTE_MIN(max, ep->inject_size / size) : max,
			 (flags & FI_INJECT) ? " injected (inject_size)" : "");
		return -FI_EMSGSIZE;
	}
	return 0;
}

static ssize_t
atomic_post(struct fid_ep *ep_fid, struct rdm_atomic_req *a, fi_addr_t dest, uint64_t addr,
	    uint64_t key, uint64_t data, void *context, uint64_t flags)
{
	bool base = a->kind == DFI_ATOMIC_BASE;
	struct rdm_post req = {
		.dest = dest,
		.tag = addr,
		.data = data,
		.key = key,
		.context = context,
		.flags = flags,
		.comp_flags = FI_ATOMIC | (base ? FI_WRITE : FI_READ),
		.type = DFI_PKT_RDM_ATOMIC,
		.cntr = base ? DFI_CNTR_WRITE : DFI_CNTR_READ,
		.pkt_flags = base ? 0 : DFI_RDM_F_FETCH,
		.atomic = a,
	};
	struct dfi_ep *ep = rdm_ep_of(ep_fid);
	ssize_t ret = atomic_check(ep, a, flags);

	return ret != 0 ? ret : rdm_post(ep, &req);
}

/* An fi_msg_atomic's own checks; 0 or a negative errno. */
static ssize_t
msg_check(const struct fi_msg_atomic *msg, uint64_t flags)
{
	if (unlikely(msg == NULL || msg->rma_iov_count != 1 || msg->rma_iov == NULL))
		return -FI_EINVAL;
	if (unlikely((flags & ~(uint64_t)ATOMIC_FLAGS) != 0)) {
		DFI_WARN(FI_LOG_EP_DATA, "atomic flags 0x%" PRIx64 " not supported",
			 flags & ~(uint64_t)ATOMIC_FLAGS);
		return -FI_EBADFLAGS;
	}
	return 0;
}

static ssize_t
atomic_msg(struct fid_ep *ep, const struct fi_msg_atomic *msg, struct rdm_atomic_req *a,
	   uint64_t flags)
{
	ssize_t ret = msg_check(msg, flags);

	if (ret != 0)
		return ret;
	a->iov = msg->msg_iov;
	a->count = msg->iov_count;
	a->datatype = msg->datatype;
	a->op = msg->op;
	ret = atomic_check(rdm_ep_of(ep), a, flags);
	if (ret != 0)
		return ret;
	/* the target's elements: as many as ours, or the call is wrong */
	if (unlikely(msg->rma_iov->count != a->nelem)) {
		DFI_WARN(FI_LOG_EP_DATA, "atomic of %zu elements at %zu remote ones", a->nelem,
			 msg->rma_iov->count);
		return -FI_EINVAL;
	}
	return atomic_post(ep, a, msg->addr, msg->rma_iov->addr, msg->rma_iov->key, msg->data,
			   msg->context, flags);
}

static ssize_t
rdm_atomic_write(struct fid_ep *ep, const void *buf, size_t count, void *desc __rte_unused,
		 fi_addr_t dest, uint64_t addr, uint64_t key, enum fi_datatype datatype,
		 enum fi_op op, void *context)
{
	struct fi_ioc ioc = { .addr = (void *)(uintptr_t)buf, .count = count };
	struct rdm_atomic_req a = { .iov = &ioc, .count = 1, .datatype = datatype, .op = op };

	return atomic_post(ep, &a, dest, addr, key, 0, context,
			   rdm_tx_defaults(ep, false));
}

static ssize_t
rdm_atomic_writev(struct fid_ep *ep, const struct fi_ioc *iov, void **desc __rte_unused,
		  size_t count, fi_addr_t dest, uint64_t addr, uint64_t key,
		  enum fi_datatype datatype, enum fi_op op, void *context)
{
	struct rdm_atomic_req a = { .iov = iov, .count = count, .datatype = datatype, .op = op };

	return atomic_post(ep, &a, dest, addr, key, 0, context,
			   rdm_tx_defaults(ep, false));
}

static ssize_t
rdm_atomic_writemsg(struct fid_ep *ep, const struct fi_msg_atomic *msg, uint64_t flags)
{
	struct rdm_atomic_req a = { .kind = DFI_ATOMIC_BASE };

	return atomic_msg(ep, msg, &a, flags);
}

static ssize_t
rdm_atomic_inject(struct fid_ep *ep, const void *buf, size_t count, fi_addr_t dest,
		  uint64_t addr, uint64_t key, enum fi_datatype datatype, enum fi_op op)
{
	struct fi_ioc ioc = { .addr = (void *)(uintptr_t)buf, .count = count };
	struct rdm_atomic_req a = { .iov = &ioc, .count = 1, .datatype = datatype, .op = op };

	return atomic_post(ep, &a, dest, addr, key, 0, NULL,
			   rdm_tx_defaults(ep, false) | FI_INJECT | DFI_F_NO_COMPLETION);
}

static ssize_t
rdm_atomic_readwrite(struct fid_ep *ep, const void *buf, size_t count, void *desc __rte_unused,
		     void *result, void *result_desc __rte_unused, fi_addr_t dest,
		     uint64_t addr, uint64_t key, enum fi_datatype datatype, enum fi_op op,
		     void *context)
{
	struct fi_ioc ioc = { .addr = (void *)(uintptr_t)buf, .count = count };
	struct fi_ioc res = { .addr = result, .count = count };
	struct rdm_atomic_req a = {
		.iov = &ioc, .count = 1, .res = &res, .res_count = 1,
		.datatype = datatype, .op = op, .kind = DFI_ATOMIC_FETCH,
	};

	return atomic_post(ep, &a, dest, addr, key, 0, context,
			   rdm_tx_defaults(ep, true));
}

static ssize_t
rdm_atomic_readwritev(struct fid_ep *ep, const struct fi_ioc *iov, void **desc __rte_unused,
		      size_t count, struct fi_ioc *resultv, void **result_desc __rte_unused,
		      size_t result_count, fi_addr_t dest, uint64_t addr, uint64_t key,
		      enum fi_datatype datatype, enum fi_op op, void *context)
{
	struct rdm_atomic_req a = {
		.iov = iov, .count = count, .res = resultv, .res_count = result_count,
		.datatype = datatype, .op = op, .kind = DFI_ATOMIC_FETCH,
	};

	return atomic_post(ep, &a, dest, addr, key, 0, context,
			   rdm_tx_defaults(ep, true));
}

static ssize_t
rdm_atomic_readwritemsg(struct fid_ep *ep, const struct fi_msg_atomic *msg,
			struct fi_ioc *resultv, void **result_desc __rte_unused,
			size_t result_count, uint64_t flags)
{
	struct rdm_atomic_req a = {
		.res = resultv, .res_count = result_count, .kind = DFI_ATOMIC_FETCH,
	};

	return atomic_msg(ep, msg, &a, flags);
}

static ssize_t
rdm_atomic_compwrite(struct fid_ep *ep, const void *buf, size_t count, void *desc __rte_unused,
		     const void *compare, void *compare_desc __rte_unused, void *result,
		     void *result_desc __rte_unused, fi_addr_t dest, uint64_t addr, uint64_t key,
		     enum fi_datatype datatype, enum fi_op op, void *context)
{
	struct fi_ioc ioc = { .addr = (void *)(uintptr_t)buf, .count = count };
	struct fi_ioc cmp = { .addr = (void *)(uintptr_t)compare, .count = count };
	struct fi_ioc res = { .addr = result, .count = count };
	struct rdm_atomic_req a = {
		.iov = &ioc, .count = 1, .cmp = &cmp, .cmp_count = 1, .res = &res,
		.res_count = 1, .datatype = datatype, .op = op, .kind = DFI_ATOMIC_COMPARE,
	};

	return atomic_post(ep, &a, dest, addr, key, 0, context,
			   rdm_tx_defaults(ep, true));
}

static ssize_t
rdm_atomic_compwritev(struct fid_ep *ep, const struct fi_ioc *iov, void **desc __rte_unused,
		      size_t count, const struct fi_ioc *comparev,
		      void **compare_desc __rte_unused, size_t compare_count,
		      struct fi_ioc *resultv, void **result_desc __rte_unused,
		      size_t result_count, fi_addr_t dest, uint64_t addr, uint64_t key,
		      enum fi_datatype datatype, enum fi_op op, void *context)
{
	struct rdm_atomic_req a = {
		.iov = iov, .count = count, .cmp = comparev, .cmp_count = compare_count,
		.res = resultv, .res_count = result_count, .datatype = datatype, .op = op,
		.kind = DFI_ATOMIC_COMPARE,
	};

	return atomic_post(ep, &a, dest, addr, key, 0, context,
			   rdm_tx_defaults(ep, true));
}

static ssize_t
rdm_atomic_compwritemsg(struct fid_ep *ep, const struct fi_msg_atomic *msg,
			const struct fi_ioc *comparev, void **compare_desc __rte_unused,
			size_t compare_count, struct fi_ioc *resultv,
			void **result_desc __rte_unused, size_t result_count, uint64_t flags)
{
	struct rdm_atomic_req a = {
		.cmp = comparev, .cmp_count = compare_count, .res = resultv,
		.res_count = result_count, .kind = DFI_ATOMIC_COMPARE,
	};

	return atomic_msg(ep, msg, &a, flags);
}

static int
atomic_valid(struct fid_ep *ep_fid, enum dfi_atomic_kind kind, enum fi_datatype datatype,
	     enum fi_op op, size_t *count)
{
	if ((rdm_ep_of(ep_fid)->caps & FI_ATOMIC) == 0)
		return -FI_EOPNOTSUPP;
	return dfi_atomic_valid(kind, datatype, op, count);
}

static int
rdm_atomic_writevalid(struct fid_ep *ep, enum fi_datatype datatype, enum fi_op op,
		      size_t *count)
{
	return atomic_valid(ep, DFI_ATOMIC_BASE, datatype, op, count);
}

static int
rdm_atomic_readwritevalid(struct fid_ep *ep, enum fi_datatype datatype, enum fi_op op,
			  size_t *count)
{
	return atomic_valid(ep, DFI_ATOMIC_FETCH, datatype, op, count);
}

static int
rdm_atomic_compwritevalid(struct fid_ep *ep, enum fi_datatype datatype, enum fi_op op,
			  size_t *count)
{
	return atomic_valid(ep, DFI_ATOMIC_COMPARE, datatype, op, count);
}

struct fi_ops_atomic rdm_atomic_ops = {
	.size = sizeof(struct fi_ops_atomic),
	.write = rdm_atomic_write,
	.writev = rdm_atomic_writev,
	.writemsg = rdm_atomic_writemsg,
	.inject = rdm_atomic_inject,
	.readwrite = rdm_atomic_readwrite,
	.readwritev = rdm_atomic_readwritev,
	.readwritemsg = rdm_atomic_readwritemsg,
	.compwrite = rdm_atomic_compwrite,
	.compwritev = rdm_atomic_compwritev,
	.compwritemsg = rdm_atomic_compwritemsg,
	.writevalid = rdm_atomic_writevalid,
	.readwritevalid = rdm_atomic_readwritevalid,
	.compwritevalid = rdm_atomic_compwritevalid,
};

void
rdm_atomic_op_init(struct dfi_rdm *r, struct rdm_op *op, const struct rdm_atomic_req *a)
{
	struct rdm_atomic_slot *s = slot_of(r, op);
	struct dfi_rdm_atomic *h = (struct dfi_rdm_atomic *)s->buf;
	size_t i, len = sizeof(*h), size = dfi_atomic_type_size(a->datatype);

	h->op = (uint8_t)a->op;
	h->datatype = (uint8_t)a->datatype;
	h->count = rte_cpu_to_be_16((uint16_t)a->nelem);
	h->reserved = 0;
	if (a->op != FI_ATOMIC_READ)
		len += ioc_gather(s->buf + len, a->iov, a->count, size);
	if (a->kind == DFI_ATOMIC_COMPARE)
		len += ioc_gather(s->buf + len, a->cmp, a->cmp_count, size);
	for (i = 0; i < a->res_count; i++) {
		s->res[i].iov_base = a->res[i].addr;
		s->res[i].iov_len = a->res[i].count * size;
	}
	s->res_count = (uint32_t)a->res_count;
	s->res_len = a->kind == DFI_ATOMIC_BASE ? 0 : (uint32_t)(a->nelem * size);
	op->iov[0].iov_base = s->buf;
	op->iov[0].iov_len = len;
	op->iov_count = 1;
	op->len = (uint32_t)len;
	op->rma_len = (uint32_t)len;
}

/* -- the target -- */

int
rdm_atomic_init(struct dfi_ep *ep, struct dfi_rdm *r, uint32_t nb_ops)
{
	if ((ep->caps & FI_ATOMIC) == 0)
		return 0;
	r->atomic_slots = calloc(nb_ops, sizeof(*r->atomic_slots));
	return r->atomic_slots == NULL ? -FI_ENOMEM : 0;
}

void
rdm_atomic_fini(struct dfi_rdm *r)
{
	free(r->atomic_slots);
	r->atomic_slots = NULL;
}

/*
 * Decodes a request copied to req (len bytes) and checks it against the
 * endpoint and the region; 0 with the target's bytes at *ptr, or the
 * positive errno the initiator gets.
 */
static int
request_check(struct dfi_ep *ep, const struct dfi_rdm_hdr *h, const uint8_t *req, uint32_t len,
	      uint64_t *right, struct dfi_mr **mr, uint8_t **ptr)
{
	const struct dfi_rdm_atomic *a = (const struct dfi_rdm_atomic *)req;
	bool fetch = (h->flags & rte_cpu_to_be_16(DFI_RDM_F_FETCH)) != 0;
	enum dfi_atomic_kind kind;
	size_t size, n, expect;

	if ((ep->caps & FI_ATOMIC) == 0) {
		DFI_WARN(FI_LOG_EP_DATA, "remote atomic refused: the endpoint was opened "
			 "without FI_ATOMIC");
		return FI_EOPNOTSUPP;
	}
	if (len < sizeof(*a) || h->offset != 0) {
		DFI_WARN(FI_LOG_EP_DATA, "atomic request of %u bytes: malformed, refused", len);
		return FI_EIO;
	}
	kind = a->op >= FI_CSWAP && a->op <= FI_MSWAP ? DFI_ATOMIC_COMPARE :
	       fetch ? DFI_ATOMIC_FETCH : DFI_ATOMIC_BASE;
	if (dfi_atomic_valid(kind, a->datatype, a->op, NULL) != 0 ||
	    (kind == DFI_ATOMIC_COMPARE && !fetch)) {
		DFI_WARN(FI_LOG_EP_DATA, "atomic operation %u on datatype %u: not offered, refused",
			 a->op, a->datatype);
		return FI_EOPNOTSUPP;
	}
	size = dfi_atomic_type_size(a->datatype);
	n = rte_be_to_cpu_16(a->count);
	expect = sizeof(*a) + n * size * ((a->op != FI_ATOMIC_READ) +
					  (kind == DFI_ATOMIC_COMPARE));
	if (n == 0 || n * size > DFI_ATOMIC_MAX_BYTES || len != expect) {
		DFI_WARN(FI_LOG_EP_DATA, "atomic request of %zu elements in %u bytes: malformed, "
			 "refused", n, len);
		return FI_EIO;
	}
	/* fetching needs read, changing needs write: a compare both */
	*right = (a->op != FI_ATOMIC_READ ? FI_REMOTE_WRITE : 0) | (fetch ? FI_REMOTE_READ : 0);
	if ((ep->caps & *right) != *right) {
		DFI_WARN(FI_LOG_EP_DATA, "remote atomic refused: the endpoint was opened without "
			 "the FI_REMOTE_READ or FI_REMOTE_WRITE it needs");
		return FI_EACCES;
	}
	return -dfi_mr_access(&ep->domain->mrs, rte_be_to_cpu_64(h->key), *right,
			      rte_be_to_cpu_64(h->tag), n * size, false, mr, ptr);
}

enum rdm_take
rdm_atomic_request(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p,
		   const struct dfi_rdm_hdr *h, struct rte_mbuf *m, const uint8_t *payload,
		   uint32_t len)
{
	uint32_t seq = rte_be_to_cpu_32(h->msg_seq);
	bool cq_data = (h->flags & rte_cpu_to_be_16(DFI_RDM_F_CQ_DATA)) != 0 && ep->rx_cq != NULL;
	bool fetch = (h->flags & rte_cpu_to_be_16(DFI_RDM_F_FETCH)) != 0;
	uint8_t req[ATOMIC_PAYLOAD_MAX] __rte_aligned(16);
	const struct dfi_rdm_atomic *a = (const struct dfi_rdm_atomic *)req;
	struct rdm_atomic_slot *s;
	const uint8_t *operand;
	uint64_t right = 0;
	struct dfi_mr *mr;
	struct rdm_op *op;
	size_t size, n;
	uint8_t *ptr;
	int err;

	/* nothing is touched before the answer and the completion have room */
	if (r->op_free == NULL || (cq_data && dfi_cq_reserve(ep->rx_cq) != 0))
		return RDM_REFUSED;
	if (unlikely(len > sizeof(req))) {
		DFI_WARN(FI_LOG_EP_DATA, "atomic request of %u bytes: more than any carries, "
			 "refused", len);
		err = FI_EIO;
		goto refuse;
	}
	if (!rdm_payload_unchecked(h, m)) {
		memcpy(req, payload, len);
	} else if (dfi_crc32c_copy(req, payload, len, UINT32_MAX) != rte_be_to_cpu_32(h->pcrc)) {
		if (cq_data)
			dfi_cq_unreserve(ep->rx_cq);
		return RDM_BAD;
	}
	err = request_check(ep, h, req, len, &right, &mr, &ptr);
	if (err != 0)
		goto refuse;
	size = dfi_atomic_type_size(a->datatype);
	n = rte_be_to_cpu_16(a->count);
	operand = a->op != FI_ATOMIC_READ ? req + sizeof(*a) : NULL;
	if (!fetch) {
		dfi_atomic_apply(a->op, a->datatype, ptr, operand, NULL, NULL, n);
		rdm_queue_done(ep, r, p, seq, DFI_RDM_F_RMA, 0);
	} else {
		op = rdm_op_alloc(r);
		s = slot_of(r, op);
		dfi_atomic_apply(a->op, a->datatype, ptr, operand,
				 a->op >= FI_CSWAP ? req + sizeof(*a) + n * size : NULL, s->buf, n);
		memset(op, 0, sizeof(*op));
		op->peer = p;
		op->type = DFI_PKT_RDM_ATOMIC_RESP;
		op->msg_seq = seq;
		op->len = (uint32_t)(n * size);
		op->rma_len = op->len;
		op->iov[0].iov_base = s->buf;
		op->iov[0].iov_len = op->len;
		op->iov_count = 1;
		rdm_conn_post(ep, r, op);
	}
	/* one event per operation: a fetch or compare counts as a read, as at
	 * the initiator */
	right = fetch ? FI_REMOTE_READ : FI_REMOTE_WRITE;
	dfi_mr_event(mr, right, ep->guard);
	dfi_ep_count(ep, fetch ? DFI_CNTR_REMOTE_READ : DFI_CNTR_REMOTE_WRITE, false);
	if (cq_data) {
		dfi_cq_unreserve(ep->rx_cq);
		dfi_cq_write(ep->rx_cq, NULL, FI_ATOMIC | right | FI_REMOTE_CQ_DATA, 0, NULL,
			     rte_be_to_cpu_64(h->data), 0, FI_ADDR_NOTAVAIL);
	}
	return RDM_TAKEN;

refuse:
	if (cq_data)
		dfi_cq_unreserve(ep->rx_cq);
	rdm_queue_done(ep, r, p, seq, DFI_RDM_F_RMA, err);
	return RDM_TAKEN;
}

enum rdm_take
rdm_atomic_response(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p,
		    const struct dfi_rdm_hdr *h, struct rte_mbuf *m, const uint8_t *payload,
		    uint32_t len)
{
	uint32_t seq = rte_be_to_cpu_32(h->msg_seq);
	struct rdm_op *op = rdm_conn_find_op(p, DFI_PKT_RDM_ATOMIC, seq);
	struct rdm_atomic_slot *s = op != NULL ? slot_of(r, op) : NULL;

	if (unlikely(s == NULL || op->answered || !(op->pkt_flags & DFI_RDM_F_FETCH) ||
		     len != s->res_len || h->offset != 0)) {
		DFI_WARN(FI_LOG_EP_DATA, "answer to atomic %u (%u bytes): %s, dropped", seq, len,
			 s == NULL ? "no such operation" : "not the one expected");
		return RDM_TAKEN;
	}
	if (!rdm_payload_unchecked(h, m))
		dfi_iov_scatter(s->res, s->res_count, 0, payload, len);
	else if (dfi_iov_scatter_crc(s->res, s->res_count, 0, payload, len, UINT32_MAX) !=
		 rte_be_to_cpu_32(h->pcrc))
		return RDM_BAD;
	op->answered = true;
	/* an answer that came before the request's ack leaves it to the ack */
	if (op->state == RDM_OP_WAIT_DONE)
		rdm_conn_finish_op(ep, r, op, 0);
	return RDM_TAKEN;
}
