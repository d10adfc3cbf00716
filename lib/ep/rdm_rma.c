/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * RMA over the reliable protocol (fi_rma(3)). The initiator's writes and
 * read requests are sequenced like messages; each waits on the target: a
 * write on its DONE, which reports a refusal (FI_EACCES), a read on the
 * READ_RESP segments of its answer, or on a DONE that refuses it. The
 * target checks key, right and bounds (lib/mr) before a byte of a region is
 * touched, then copies straight between the wire and the region.
 */

#include <inttypes.h>
#include <string.h>

#include <rdma/fi_rma.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "cq.h"
#include "crc32c.h"
#include "dfi.h"
#include "domain.h"
#include "ep.h"
#include "iov.h"
#include "mr.h"
#include "rdm.h"
#include "rdm_atomic.h"

#define RMA_FLAGS	(FI_COMPLETION | FI_INJECT | FI_REMOTE_CQ_DATA | FI_MORE | \
			 FI_INJECT_COMPLETE | FI_TRANSMIT_COMPLETE | FI_DELIVERY_COMPLETE | \
			 FI_TRIGGER)

/* -- the initiator -- */

static ssize_t
rma_post(struct fid_ep *ep_fid, const struct iovec *iov, size_t count, fi_addr_t dest,
	 uint64_t addr, uint64_t key, uint64_t data, void *context, uint64_t flags, bool read)
{
	struct rdm_post req = {
		.iov = iov,
		.count = count,
		.dest = dest,
		.tag = addr,
		.data = data,
		.key = key,
		.context = context,
		.flags = flags,
		.comp_flags = FI_RMA | (read ? FI_READ : FI_WRITE),
		.type = read ? DFI_PKT_RDM_READ_REQ : DFI_PKT_RDM_WRITE,
		.cntr = read ? DFI_CNTR_READ : DFI_CNTR_WRITE,
	};
	struct dfi_ep *ep = rdm_ep_of(ep_fid);

	if (unlikely((ep->caps & FI_RMA) == 0)) {
		DFI_WARN(FI_LOG_EP_DATA, "RMA on an endpoint opened without FI_RMA");
		return -FI_EOPNOTSUPP;
	}
	/* a read's answer lands in the buffer: it cannot be an inject's copy */
	if (unlikely(read && (flags & (FI_INJECT | FI_REMOTE_CQ_DATA))))
		return -FI_EINVAL;
	return rdm_post(ep, &req);
}

static ssize_t
rma_msg(struct fid_ep *ep_fid, const struct fi_msg_rma *msg, uint64_t flags, bool read)
{
	if (unlikely(msg == NULL || msg->rma_iov_count != 1 || msg->rma_iov == NULL))
		return -FI_EINVAL;
	if (unlikely((flags & ~(uint64_t)RMA_FLAGS) != 0))
		return -FI_EBADFLAGS;
	if (unlikely(dfi_iov_len(msg->msg_iov, msg->iov_count) > msg->rma_iov->len))
		return -FI_EINVAL;
	return rma_post(ep_fid, msg->msg_iov, msg->iov_count, msg->addr, msg->rma_iov->addr,
			msg->rma_iov->key, msg->data, msg->context, flags, read);
}

static ssize_t
rdm_read(struct fid_ep *ep, void *buf, size_t len, void *desc __rte_unused, fi_addr_t src,
	 uint64_t addr, uint64_t key, void *context)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	return rma_post(ep, &iov, 1, src, addr, key, 0, context, rdm_tx_defaults(ep, true), true);
}

static ssize_t
rdm_readv(struct fid_ep *ep, const struct iovec *iov, void **desc __rte_unused, size_t count,
	  fi_addr_t src, uint64_t addr, uint64_t key, void *context)
{
	return rma_post(ep, iov, count, src, addr, key, 0, context, rdm_tx_defaults(ep, true),
			true);
}

static ssize_t
rdm_readmsg(struct fid_ep *ep, const struct fi_msg_rma *msg, uint64_t flags)
{
	return rma_msg(ep, msg, flags, true);
}

static ssize_t
rdm_write(struct fid_ep *ep, const void *buf, size_t len, void *desc __rte_unused,
	  fi_addr_t dest, uint64_t addr, uint64_t key, void *context)
{
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return rma_post(ep, &iov, 1, dest, addr, key, 0, context, rdm_tx_defaults(ep, false),
			false);
}

static ssize_t
rdm_writev(struct fid_ep *ep, const struct iovec *iov, void **desc __rte_unused, size_t count,
	   fi_addr_t dest, uint64_t addr, uint64_t key, void *context)
{
	return rma_post(ep, iov, count, dest, addr, key, 0, context, rdm_tx_defaults(ep, false),
			false);
}

static ssize_t
rdm_writemsg(struct fid_ep *ep, const struct fi_msg_rma *msg, uint64_t flags)
{
	return rma_msg(ep, msg, flags, false);
}

static ssize_t
rdm_inject_write(struct fid_ep *ep, const void *buf, size_t len, fi_addr_t dest, uint64_t addr,
		 uint64_t key)
{
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return rma_post(ep, &iov, 1, dest, addr, key, 0, NULL,
			rdm_tx_defaults(ep, false) | FI_INJECT | DFI_F_NO_COMPLETION, false);
}

static ssize_t
rdm_writedata(struct fid_ep *ep, const void *buf, size_t len, void *desc __rte_unused,
	      uint64_t data, fi_addr_t dest, uint64_t addr, uint64_t key, void *context)
{
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return rma_post(ep, &iov, 1, dest, addr, key, data, context,
			rdm_tx_defaults(ep, false) | FI_REMOTE_CQ_DATA, false);
}

static ssize_t
rdm_inject_writedata(struct fid_ep *ep, const void *buf, size_t len, uint64_t data,
		     fi_addr_t dest, uint64_t addr, uint64_t key)
{
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return rma_post(ep, &iov, 1, dest, addr, key, data, NULL,
			rdm_tx_defaults(ep, false) | FI_INJECT | FI_REMOTE_CQ_DATA |
			DFI_F_NO_COMPLETION, false);
}

struct fi_ops_rma rdm_rma_ops = {
	.size = sizeof(struct fi_ops_rma),
	.read = rdm_read,
	.readv = rdm_readv,
	.readmsg = rdm_readmsg,
	.write = rdm_write,
	.writev = rdm_writev,
	.writemsg = rdm_writemsg,
	.inject = rdm_inject_write,
	.writedata = rdm_writedata,
	.injectdata = rdm_inject_writedata,
};

/* -- the target -- */

/* @return 0 when the endpoint may be the target of right, else FI_EACCES (logged). */
static int
target_allows(const struct dfi_ep *ep, uint64_t right)
{
	if ((ep->caps & FI_RMA) && (ep->caps & right))
		return 0;
	DFI_WARN(FI_LOG_EP_DATA, "remote %s refused: the endpoint was opened without %s",
		 right == FI_REMOTE_WRITE ? "write" : "read",
		 right == FI_REMOTE_WRITE ? "FI_REMOTE_WRITE" : "FI_REMOTE_READ");
	return FI_EACCES;
}

void
rdm_rma_in_end(struct rdm_rma_in *in)
{
	if (in->active && in->err == 0)
		dfi_mr_unhold(in->mr);
	in->active = false;
	in->mr = NULL;
}

/* The write's last segment is in: counters, remote CQ data, the DONE. */
static enum rdm_take
write_finish(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p)
{
	struct rdm_rma_in *in = &p->rma_in;
	bool cq_data = in->err == 0 && in->cq_data && ep->rx_cq != NULL;

	/* what the end needs is there, or the sender tries the segment again */
	if (r->op_free == NULL || (cq_data && dfi_cq_reserve(ep->rx_cq) != 0))
		return RDM_REFUSED;
	if (in->err == 0) {
		dfi_mr_event(in->mr, FI_REMOTE_WRITE, ep->guard);
		dfi_ep_count(ep, DFI_CNTR_REMOTE_WRITE, false);
	}
	rdm_rma_in_end(in);
	if (cq_data) {
		dfi_cq_unreserve(ep->rx_cq);
		dfi_cq_write(ep->rx_cq, NULL, FI_RMA | FI_REMOTE_WRITE | FI_REMOTE_CQ_DATA, 0, NULL,
			     in->data, 0, FI_ADDR_NOTAVAIL);
	}
	rdm_queue_done(ep, r, p, in->seq, DFI_RDM_F_RMA, in->err);
	return RDM_TAKEN;
}

static enum rdm_take
write_segment(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p,
	      const struct dfi_rdm_hdr *h, struct rte_mbuf *m, const uint8_t *payload,
	      uint32_t len)
{
	struct rdm_rma_in *in = &p->rma_in;
	uint32_t offset = rte_be_to_cpu_32(h->offset), seq = rte_be_to_cpu_32(h->msg_seq);

	if (!in->active) {
		if (unlikely(offset != 0)) {
			DFI_WARN(FI_LOG_EP_DATA, "write %u at %u: out of sequence, dropped", seq,
				 offset);
			return RDM_TAKEN;
		}
		/* checked once, for all of it, before any byte is written; the
		 * region is held until the last segment, so that it cannot close
		 * (and its memory go back) under the segments still to come */
		in->active = true;
		in->seq = seq;
		in->len = rte_be_to_cpu_32(h->msg_len);
		in->got = 0;
		in->cq_data = (h->flags & rte_cpu_to_be_16(DFI_RDM_F_CQ_DATA)) != 0;
		in->data = rte_be_to_cpu_64(h->data);
		in->err = target_allows(ep, FI_REMOTE_WRITE);
		if (in->err == 0)
			in->err = -dfi_mr_access(&ep->domain->mrs, rte_be_to_cpu_64(h->key),
						 FI_REMOTE_WRITE, rte_be_to_cpu_64(h->tag),
						 in->len, true, &in->mr, &in->ptr);
	}
	if (unlikely(seq != in->seq || offset != in->got || (uint64_t)offset + len > in->len)) {
		/* the peer breaks the protocol: the write ends here, failed */
		DFI_WARN(FI_LOG_EP_DATA, "write %u at %u (%u bytes) of %u: expected write %u at "
			 "%u, the write fails", seq, offset, len, in->len, in->seq, in->got);
		if (r->op_free == NULL)
			return RDM_REFUSED;
		rdm_queue_done(ep, r, p, in->seq, DFI_RDM_F_RMA, FI_EIO);
		rdm_rma_in_end(in);
		return RDM_TAKEN;
	}
	if (in->err == 0 && len > 0) {
		if (!rdm_payload_unchecked(h, m))
			dfi_copy(in->ptr + offset, payload, len);
		else if (dfi_crc32c_copy(in->ptr + offset, payload, len, UINT32_MAX) !=
			 rte_be_to_cpu_32(h->pcrc))
			return RDM_BAD;	/* inside the region: the retry writes it again */
	}
	if (offset + len == in->len)
		return write_finish(ep, r, p);
	in->got += len;
	return RDM_TAKEN;
}

/* A read request: checked, then answered from the region by an op of ours. */
static enum rdm_take
read_request(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p,
	     const struct dfi_rdm_hdr *h)
{
	uint32_t seq = rte_be_to_cpu_32(h->msg_seq), len = rte_be_to_cpu_32(h->msg_len);
	struct dfi_mr *mr;
	struct rdm_op *op;
	uint8_t *ptr;
	int err;

	if (r->op_free == NULL)
		return RDM_REFUSED;	/* no op for the answer yet */
	err = target_allows(ep, FI_REMOTE_READ);
	if (err == 0)
		err = -dfi_mr_access(&ep->domain->mrs, rte_be_to_cpu_64(h->key), FI_REMOTE_READ,
				     rte_be_to_cpu_64(h->tag), len, true, &mr, &ptr);
	if (err != 0) {
		rdm_queue_done(ep, r, p, seq, DFI_RDM_F_RMA, err);
		return RDM_TAKEN;
	}
	op = rdm_op_alloc(r);
	memset(op, 0, sizeof(*op));
	op->peer = p;
	op->type = DFI_PKT_RDM_READ_RESP;
	op->msg_seq = seq;
	op->len = len;
	op->rma_len = len;
	op->iov[0].iov_base = ptr;
	op->iov[0].iov_len = len;
	op->iov_count = 1;
	op->mr = mr;	/* held: the region cannot close under its answer */
	rdm_conn_post(ep, r, op);
	return RDM_TAKEN;
}

/* A segment of the answer to one of our reads. */
static enum rdm_take
read_response(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p,
	      const struct dfi_rdm_hdr *h, struct rte_mbuf *m, const uint8_t *payload,
	      uint32_t len)
{
	uint32_t seq = rte_be_to_cpu_32(h->msg_seq), offset = rte_be_to_cpu_32(h->offset);
	struct rdm_op *op = rdm_conn_find_op(p, DFI_PKT_RDM_READ_REQ, seq);

	if (unlikely(op == NULL || offset != op->got || (uint64_t)offset + len > op->rma_len ||
		     rte_be_to_cpu_32(h->msg_len) != op->rma_len)) {
		DFI_WARN(FI_LOG_EP_DATA, "answer to read %u at %u: %s, dropped", seq, offset,
			 op == NULL ? "no such read" : "out of sequence");
		return RDM_TAKEN;
	}
	if (!rdm_payload_unchecked(h, m))
		dfi_iov_scatter(op->iov, op->iov_count, offset, payload, len);
	else if (dfi_iov_scatter_crc(op->iov, op->iov_count, offset, payload, len, UINT32_MAX) !=
		 rte_be_to_cpu_32(h->pcrc))
		return RDM_BAD;
	op->got += len;
	op->answered = op->got == op->rma_len;
	/* an answer that came before the request's ack leaves it to the ack */
	if (op->answered && op->state == RDM_OP_WAIT_DONE)
		rdm_conn_finish_op(ep, r, op, 0);
	return RDM_TAKEN;
}

enum rdm_take
rdm_rma_segment(struct dfi_ep *ep, struct dfi_rdm *r, struct rdm_peer *p,
		const struct dfi_rdm_hdr *h, struct rte_mbuf *m, const uint8_t *payload,
		uint32_t len)
{
	switch (h->type) {
	case DFI_PKT_RDM_WRITE:
		return write_segment(ep, r, p, h, m, payload, len);
	case DFI_PKT_RDM_READ_REQ:
		return read_request(ep, r, p, h);
	case DFI_PKT_RDM_ATOMIC:
		return rdm_atomic_request(ep, r, p, h, m, payload, len);
	case DFI_PKT_RDM_ATOMIC_RESP:
		return rdm_atomic_response(ep, r, p, h, m, payload, len);
	default:
		return read_response(ep, r, p, h, m, payload, len);
	}
}
