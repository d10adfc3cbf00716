/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * FI_EP_DGRAM: one datagram per packet, unreliable and unordered, as the
 * wire carries them. A send copies the payload behind a dfi_hdr in a fresh
 * mbuf and completes once the packet is built (the application's buffer is
 * free again; FI_INJECT_COMPLETE and FI_TRANSMIT_COMPLETE are the same here).
 * A received datagram fills the oldest posted receive, or is dropped when
 * none is posted.
 */

#include <stdlib.h>
#include <string.h>

#include <rdma/fi_endpoint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_mbuf.h>

#include "dfi.h"
#include "av.h"
#include "cq.h"
#include "domain.h"
#include "ep.h"
#include "ep_stubs.h"
#include "iov.h"
#include "info.h"
#include "rdm.h"
#include "srx.h"

#define DGRAM_TX_FLAGS	(FI_COMPLETION | FI_INJECT | FI_REMOTE_CQ_DATA | FI_MORE | \
			 FI_INJECT_COMPLETE | FI_TRANSMIT_COMPLETE)
#define DGRAM_RX_FLAGS	(FI_COMPLETION | FI_MORE)
#define DGRAM_IOV_MAX	4

struct dgram_rx {
	void *context;
	uint64_t flags;
	size_t iov_count;
	struct iovec iov[DGRAM_IOV_MAX];
};

struct dfi_dgram {
	struct dgram_rx *rx;		/* posted receives, oldest at rx_head */
	uint32_t rx_mask;
	uint32_t rx_head;
	uint32_t rx_tail;
	uint64_t rx_dropped;		/* datagrams no receive was posted for */
	struct rdm_rxq *srq;		/* a shared receive context's queue, or NULL */
	/* the last destination, and its address while the memo holds */
	struct dfi_av_memo tx_memo;
	struct dfi_addr tx_dst;
};

static struct dfi_dgram *
dgram_of(struct dfi_ep *ep)
{
	return ep->priv;
}

static struct dfi_ep *
ep_of(struct fid_ep *ep_fid)
{
	return container_of(ep_fid, struct dfi_ep, ep_fid);
}

/* -- transmit -- */

static ssize_t
dgram_tx(struct dfi_ep *ep, const struct iovec *iov, size_t count, fi_addr_t dest,
	 void *context, uint64_t data, uint64_t flags)
{
	struct dfi_guard *held;
	struct dfi_dgram *d = dgram_of(ep);
	const struct dfi_av_entry *e;
	struct dfi_hdr *hdr;
	struct rte_mbuf *m;
	size_t len;
	bool comp;
	ssize_t ret = 0;

	if (unlikely(count > ep->iov_limit || (count > 0 && iov == NULL)))
		return -FI_EINVAL;
	len = dfi_iov_len(iov, count);
	if (unlikely(len > ep->max_msg_size || ((flags & FI_INJECT) && len > ep->inject_size))) {
		DFI_INFO(FI_LOG_EP_DATA, "datagram of %zu bytes: at most %zu (inject %zu)",
			 len, ep->max_msg_size, ep->inject_size);
		return -FI_EMSGSIZE;
	}
	held = dfi_guard_lock(ep->guard);
	if (unlikely(!ep->enabled)) {
		ret = -FI_EOPBADSTATE;
		goto out;
	}
	if (unlikely(!dfi_av_memo_holds(&d->tx_memo, dest))) {
		e = dfi_av_memo_resolve(ep->av, &d->tx_memo, dest);
		if (unlikely(e == NULL)) {
			DFI_INFO(FI_LOG_EP_DATA, "send to 0x%" PRIx64 ": not in the AV", dest);
			ret = -FI_EINVAL;
			goto out;
		}
		dfi_av_dest(ep->av, e, dest, &d->tx_dst);
	}
	comp = ep->tx_cq != NULL && !(flags & DFI_F_NO_COMPLETION) &&
	       (!ep->tx_selective || (flags & FI_COMPLETION));
	if (unlikely((comp && dfi_cq_room(ep->tx_cq) == 0) ||
		     (dfi_sink_tx_room(&ep->sink) == 0 && dfi_sink_flush(&ep->sink) ==
		      DFI_TX_BURST))) {
		ret = -FI_EAGAIN;
		goto out;
	}
	m = dfi_sink_mbuf(&ep->sink);
	if (unlikely(m == NULL)) {
		ret = -FI_EAGAIN;
		goto out;
	}
	hdr = (struct dfi_hdr *)rte_pktmbuf_append(m, (uint16_t)(sizeof(*hdr) + len));
	hdr->version = DFI_WIRE_VERSION;
	hdr->type = DFI_PKT_DGRAM;
	hdr->flags = (flags & FI_REMOTE_CQ_DATA) ? rte_cpu_to_be_16(DFI_HDR_F_CQ_DATA) : 0;
	hdr->name_off = rte_cpu_to_be_16(ep->name_off);
	hdr->reserved = 0;
	hdr->cq_data = rte_cpu_to_be_64(data);
	dfi_iov_gather(hdr + 1, iov, count, 0, len);
	ret = dfi_sink_send(&ep->sink, ep->encap, &d->tx_dst, m);
	if (unlikely(ret != 0)) {
		dfi_sink_mbuf_free(&ep->sink, m);
		goto out;
	}
	if (!(flags & FI_MORE))
		dfi_sink_flush(&ep->sink);
	if (comp)
		dfi_cq_write(ep->tx_cq, context, FI_SEND | FI_MSG, 0, NULL, 0, 0,
			     FI_ADDR_NOTAVAIL);
	dfi_ep_count(ep, DFI_CNTR_SEND, false);
out:
	dfi_guard_unlock(held);
	return ret;
}

static ssize_t
dgram_sendmsg(struct fid_ep *ep_fid, const struct fi_msg *msg, uint64_t flags)
{
	if (unlikely(msg == NULL))
		return -FI_EINVAL;
	if (unlikely((flags & ~DGRAM_TX_FLAGS) != 0)) {
		DFI_INFO(FI_LOG_EP_DATA, "datagram send flags 0x%" PRIx64 " not offered "
			 "(delivery is not known)", (uint64_t)(flags & ~DGRAM_TX_FLAGS));
		return -FI_EBADFLAGS;
	}
	return dgram_tx(ep_of(ep_fid), msg->msg_iov, msg->iov_count, msg->addr, msg->context,
			msg->data, flags);
}

static ssize_t
dgram_send(struct fid_ep *ep_fid, const void *buf, size_t len, void *desc __rte_unused,
	   fi_addr_t dest, void *context)
{
	struct dfi_ep *ep = ep_of(ep_fid);
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return dgram_tx(ep, &iov, 1, dest, context, 0, ep->tx_op_flags);
}

static ssize_t
dgram_sendv(struct fid_ep *ep_fid, const struct iovec *iov, void **desc __rte_unused,
	    size_t count, fi_addr_t dest, void *context)
{
	struct dfi_ep *ep = ep_of(ep_fid);

	return dgram_tx(ep, iov, count, dest, context, 0, ep->tx_op_flags);
}

static ssize_t
dgram_inject(struct fid_ep *ep_fid, const void *buf, size_t len, fi_addr_t dest)
{
	struct dfi_ep *ep = ep_of(ep_fid);
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return dgram_tx(ep, &iov, 1, dest, NULL, 0,
			ep->tx_op_flags | FI_INJECT | DFI_F_NO_COMPLETION);
}

static ssize_t
dgram_senddata(struct fid_ep *ep_fid, const void *buf, size_t len, void *desc __rte_unused,
	       uint64_t data, fi_addr_t dest, void *context)
{
	struct dfi_ep *ep = ep_of(ep_fid);
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return dgram_tx(ep, &iov, 1, dest, context, data, ep->tx_op_flags | FI_REMOTE_CQ_DATA);
}

static ssize_t
dgram_injectdata(struct fid_ep *ep_fid, const void *buf, size_t len, uint64_t data,
		 fi_addr_t dest)
{
	struct dfi_ep *ep = ep_of(ep_fid);
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return dgram_tx(ep, &iov, 1, dest, NULL, data,
			ep->tx_op_flags | FI_INJECT | FI_REMOTE_CQ_DATA |
			DFI_F_NO_COMPLETION);
}

/* -- receive -- */

static ssize_t
dgram_post_rx(struct dfi_ep *ep, const struct iovec *iov, size_t count, void *context,
	      uint64_t flags)
{
	struct dfi_guard *held;
	struct dfi_dgram *dg = dgram_of(ep);
	struct dgram_rx *rx;
	ssize_t ret = 0;
	size_t i;

	if (unlikely(count > ep->iov_limit || count > DGRAM_IOV_MAX ||
		     (count > 0 && iov == NULL)))
		return -FI_EINVAL;
	if (unlikely((flags & ~DGRAM_RX_FLAGS) != 0))
		return -FI_EBADFLAGS;
	held = dfi_guard_lock(ep->guard);
	if (unlikely(!ep->enabled)) {
		ret = -FI_EOPBADSTATE;
	} else if (unlikely(dg->srq != NULL)) {
		ret = -FI_EOPNOTSUPP;	/* posted to the shared receive context */
	} else if (unlikely(dg->rx_tail - dg->rx_head > dg->rx_mask)) {
		ret = -FI_EAGAIN;
	} else {
		rx = &dg->rx[dg->rx_tail++ & dg->rx_mask];
		rx->context = context;
		rx->flags = flags;
		rx->iov_count = count;
		/* not memcpy(): one or two iovecs are not worth a string move */
		for (i = 0; i < count; i++)
			rx->iov[i] = iov[i];
	}
	dfi_guard_unlock(held);
	return ret;
}

static ssize_t
dgram_recvmsg(struct fid_ep *ep_fid, const struct fi_msg *msg, uint64_t flags)
{
	if (unlikely(msg == NULL))
		return -FI_EINVAL;
	return dgram_post_rx(ep_of(ep_fid), msg->msg_iov, msg->iov_count, msg->context, flags);
}

static ssize_t
dgram_recv(struct fid_ep *ep_fid, void *buf, size_t len, void *desc __rte_unused,
	   fi_addr_t src __rte_unused, void *context)
{
	struct dfi_ep *ep = ep_of(ep_fid);
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	return dgram_post_rx(ep, &iov, 1, context, ep->rx_op_flags);
}

static ssize_t
dgram_recvv(struct fid_ep *ep_fid, const struct iovec *iov, void **desc __rte_unused,
	    size_t count, fi_addr_t src __rte_unused, void *context)
{
	struct dfi_ep *ep = ep_of(ep_fid);

	return dgram_post_rx(ep, iov, count, context, ep->rx_op_flags);
}

/* A datagram into a receive's iovecs (flags: the receive's), with its completion. */
static void
dgram_place(struct dfi_ep *ep, struct rte_mbuf *m, const struct iovec *iov, size_t iov_count,
	    void *context, uint64_t rx_flags)
{
	const struct dfi_hdr *hdr = rte_pktmbuf_mtod(m, const struct dfi_hdr *);
	uint64_t flags = FI_RECV | FI_MSG, data = 0;
	size_t len = rte_pktmbuf_pkt_len(m) - sizeof(*hdr), got;
	void *buf = iov_count > 0 ? iov[0].iov_base : NULL;

	got = dfi_iov_scatter_mbuf(iov, iov_count, 0, m, sizeof(*hdr));
	if (hdr->flags & rte_cpu_to_be_16(DFI_HDR_F_CQ_DATA)) {
		flags |= FI_REMOTE_CQ_DATA;
		data = rte_be_to_cpu_64(hdr->cq_data);
	}
	if (unlikely(got < len)) {
		/* errors are reported whatever the completion flags */
		if (ep->rx_cq != NULL)
			dfi_cq_write_err(ep->rx_cq, context, flags, got, buf, data, 0, len - got,
					 FI_ETRUNC, dfi_ep_source(ep, m));
		dfi_ep_count(ep, DFI_CNTR_RECV, true);
		return;
	}
	if (ep->rx_cq != NULL && (!ep->rx_selective || (rx_flags & FI_COMPLETION)))
		dfi_cq_write(ep->rx_cq, context, flags, len, buf, data, 0, dfi_ep_source(ep, m));
	dfi_ep_count(ep, DFI_CNTR_RECV, false);
}

/*
 * A datagram fills the oldest receive: the endpoint's own, or its shared
 * receive context's (one datagram per receive there too; the context's
 * FI_MULTI_RECV buffers are its RDM endpoints').
 */
static void
dgram_deliver(struct dfi_ep *ep, struct rte_mbuf *m)
{
	struct dfi_dgram *dg = dgram_of(ep);
	struct rdm_rx *srx;
	struct dgram_rx *rx;

	if (unlikely(rte_pktmbuf_mtod(m, const struct dfi_hdr *)->type != DFI_PKT_DGRAM))
		goto drop;
	if (unlikely(dg->srq != NULL)) {
		srx = rdm_rxq_take(dg->srq);
		if (srx == NULL)
			goto drop;
		dgram_place(ep, m, srx->iov, srx->iov_count, srx->context, srx->flags);
		rdm_rxq_put(dg->srq, srx);
		return;
	}
	if (dg->rx_head == dg->rx_tail)
		goto drop;
	rx = &dg->rx[dg->rx_head++ & dg->rx_mask];
	dgram_place(ep, m, rx->iov, rx->iov_count, rx->context, rx->flags);
	return;
drop:
	dg->rx_dropped++;
}

static void
dgram_progress(struct dfi_ep *ep)
{
	struct rte_mbuf *pkts[DFI_RX_BURST];
	uint16_t max = DFI_RX_BURST, n, i;

	/* never take in more than the CQ can report */
	if (ep->rx_cq != NULL)
		max = (uint16_t)RTE_MIN((uint32_t)max, dfi_cq_room(ep->rx_cq));
	if (max > 0) {
		n = dfi_sink_recv(&ep->sink, pkts, max);
		for (i = 0; i < n; i++)
			dgram_deliver(ep, pkts[i]);
		dfi_sink_mbufs_free(&ep->sink, pkts, n);
	}
	dfi_sink_flush(&ep->sink);
}

/*
 * A receive posted without a context cannot be cancelled (fi_endpoint(3)).
 * The FI_ECANCELED entry needs room in the CQ, as every completion does
 * here: without it the receive stays posted and the cancel gets
 * -FI_EAGAIN, to be tried again once the CQ has been read.
 */
static ssize_t
dgram_cancel(struct dfi_ep *ep, void *context)
{
	struct dfi_dgram *dg = dgram_of(ep);
	struct dgram_rx found;
	uint32_t i;

	if (context == NULL)
		return -FI_ENOENT;
	for (i = dg->rx_head; i != dg->rx_tail; i++) {
		if (dg->rx[i & dg->rx_mask].context == context)
			break;
	}
	if (i == dg->rx_tail)
		return -FI_ENOENT;
	if (ep->rx_cq != NULL && dfi_cq_room(ep->rx_cq) == 0)
		return -FI_EAGAIN;
	found = dg->rx[i & dg->rx_mask];
	for (; i + 1 != dg->rx_tail; i++)
		dg->rx[i & dg->rx_mask] = dg->rx[(i + 1) & dg->rx_mask];
	dg->rx_tail--;
	if (ep->rx_cq != NULL)
		dfi_cq_write_err(ep->rx_cq, found.context, FI_RECV | FI_MSG, 0, NULL, 0, 0, 0,
				 FI_ECANCELED, FI_ADDR_NOTAVAIL);
	dfi_ep_count(ep, DFI_CNTR_RECV, true);
	return 0;
}

/* -- life cycle -- */

static int
dgram_init(struct dfi_ep *ep, const struct fi_info *info __rte_unused)
{
	struct dfi_dgram *dg = calloc(1, sizeof(*dg));
	uint32_t size = rte_align32pow2((uint32_t)RTE_MAX(ep->rx_size, (size_t)1));

	if (dg == NULL)
		return -FI_ENOMEM;
	dg->rx = calloc(size, sizeof(*dg->rx));
	if (dg->rx == NULL) {
		free(dg);
		return -FI_ENOMEM;
	}
	dg->rx_mask = size - 1;
	/* what one packet carries on this port in this encapsulation */
	ep->max_msg_size = RTE_MIN(ep->max_msg_size,
				   (size_t)dfi_wire_max_payload(ep->sink.port->mtu, ep->encap));
	ep->inject_size = RTE_MIN(ep->inject_size, ep->max_msg_size);
	ep->priv = dg;
	return 0;
}

static int
dgram_enable(struct dfi_ep *ep)
{
	if (ep->srx != NULL)
		dgram_of(ep)->srq = dfi_srx_rxq(ep->srx);
	return 0;
}

static void
dgram_fini(struct dfi_ep *ep)
{
	struct dfi_dgram *dg = dgram_of(ep);

	if (dg == NULL)
		return;
	if (dg->rx_dropped != 0)
		DFI_INFO(FI_LOG_EP_DATA, "%" PRIu64 " datagrams found no posted receive",
			 dg->rx_dropped);
	free(dg->rx);
	free(dg);
	ep->priv = NULL;
}

static struct fi_ops_msg dgram_msg_ops = {
	.size = sizeof(struct fi_ops_msg),
	.recv = dgram_recv,
	.recvv = dgram_recvv,
	.recvmsg = dgram_recvmsg,
	.send = dgram_send,
	.sendv = dgram_sendv,
	.sendmsg = dgram_sendmsg,
	.inject = dgram_inject,
	.senddata = dgram_senddata,
	.injectdata = dgram_injectdata,
};

const struct dfi_ep_type_ops dfi_dgram_ops = {
	.init = dgram_init,
	.enable = dgram_enable,
	.progress = dgram_progress,
	.cancel = dgram_cancel,
	.fini = dgram_fini,
	.cntr_flags = FI_SEND | FI_RECV,
	.msg = &dgram_msg_ops,
	.tagged = &dfi_no_tagged_ops,
	.rma = &dfi_no_rma_ops,
};
