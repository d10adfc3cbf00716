/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Shared receive contexts: their receive calls, fi_cancel(), and the
 * endpoints bound to them. The queue itself, its matching and its
 * unexpected messages are the reliable protocol's (rdm.c); a context takes
 * the guard as an endpoint's receive does.
 *
 * The context has no CQ of its own for the completions of messages, which
 * go to the endpoint they arrived on. Two calls report on nothing an
 * endpoint did: fi_cancel() reports FI_ECANCELED to a CQ bound to the
 * context with FI_RECV (libfabric's own shared receive contexts do the
 * same), and FI_PEEK and FI_CLAIM, whose "nothing found" has no endpoint,
 * are not offered.
 */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_tagged.h>

#include <rte_common.h>

#include "dfi.h"
#include "av.h"
#include "cq.h"
#include "domain.h"
#include "ep.h"
#include "ep_stubs.h"
#include "info.h"
#include "rdm.h"
#include "srx.h"
#include "stubs.h"

/* The receive capabilities a context holds, that its endpoints use. */
#define SRX_CAPS	(FI_MSG | FI_TAGGED | FI_RECV | FI_DIRECTED_RECV | FI_MULTI_RECV | \
			 FI_SOURCE)
#define SRX_FLAGS	(FI_COMPLETION | FI_MORE | FI_MULTI_RECV)
#define SRX_MIN_MULTI_RECV	64

struct dfi_srx {
	struct fid_ep ep_fid;
	struct dfi_domain *domain;
	struct dfi_guard *guard;	/* its endpoints' group's (guard.h) */
	struct fi_rx_attr attr;
	size_t min_multi_recv;		/* FI_OPT_MIN_MULTI_RECV */
	struct dfi_cq *cq;		/* fi_cancel()'s reports, or NULL */
	pthread_mutex_t lock;		/* endpoints bound, enabled, closed */
	struct dfi_av *av;		/* its connectionless endpoints': the first enabled one's */
	uint32_t nb_eps;
	uint32_t max_eps;		/* domain_attr->max_ep_srx_ctx */
	struct rdm_rxq rxq;
};

static int srx_close(struct fid *fid);
static int srx_bind(struct fid *fid, struct fid *bfid, uint64_t flags);
static int srx_control(struct fid *fid, int command, void *arg);
static ssize_t srx_cancel(fid_t fid, void *context);
static int srx_getopt(fid_t fid, int level, int optname, void *optval, size_t *optlen);
static int srx_setopt(fid_t fid, int level, int optname, const void *optval, size_t optlen);

static struct fi_ops srx_fi_ops = DFI_FI_OPS(srx_close, srx_bind, srx_control);

static struct fi_ops_ep srx_ep_ops = {
	.size = sizeof(struct fi_ops_ep),
	.cancel = srx_cancel,
	.getopt = srx_getopt,
	.setopt = srx_setopt,
	.tx_ctx = dfi_no_tx_ctx,
	.rx_ctx = dfi_no_rx_ctx,
	.rx_size_left = dfi_no_size_left,
	.tx_size_left = dfi_no_size_left,
};

static struct fi_ops_cm srx_cm_ops = DFI_CM_OPS_NAMES(dfi_no_setname, dfi_no_getname);

static struct dfi_srx *
srx_of(fid_t fid)
{
	return container_of(fid, struct dfi_srx, ep_fid.fid);
}

struct dfi_srx *
dfi_srx_from_fid(struct fid *fid)
{
	if (fid == NULL || fid->fclass != FI_CLASS_SRX_CTX || fid->ops != &srx_fi_ops)
		return NULL;
	return srx_of(fid);
}

struct rdm_rxq *
dfi_srx_rxq(struct dfi_srx *srx)
{
	return &srx->rxq;
}

/* -- receives -- */

static ssize_t
srx_post(struct dfi_srx *srx, const struct iovec *iov, size_t count, fi_addr_t src,
	 uint64_t tag, uint64_t ignore, void *context, uint64_t flags, bool tagged)
{
	struct dfi_guard *held;
	struct rdm_post req = {
		.iov = iov, .count = count, .tag = tag, .context = context, .flags = flags,
		.dest = (srx->attr.caps & FI_DIRECTED_RECV) ? src : FI_ADDR_UNSPEC,
	};
	struct rdm_rx_args args = { .ignore = ignore, .tagged = tagged };
	ssize_t ret;

	if (unlikely(count > srx->attr.iov_limit || (count > 0 && iov == NULL)))
		return -FI_EINVAL;
	if (unlikely((flags & ~SRX_FLAGS) != 0 ||
		     !(srx->attr.caps & (tagged ? FI_TAGGED : FI_MSG)))) {
		DFI_INFO(FI_LOG_EP_DATA, "shared receive context: %s, flags 0x%" PRIx64 " not "
			 "offered (FI_PEEK, FI_CLAIM and FI_TRIGGER are the endpoints')",
			 tagged ? "tagged" : "message", flags);
		return (flags & (FI_PEEK | FI_CLAIM | FI_DISCARD | FI_TRIGGER)) != 0 ||
		       (flags & ~SRX_FLAGS) == 0 ? -FI_EOPNOTSUPP : -FI_EBADFLAGS;
	}
	held = dfi_guard_lock(srx->guard);
	ret = rdm_rxq_post(&srx->rxq, &req, &args, srx->min_multi_recv);
	dfi_guard_unlock(held);
	return ret;
}

static ssize_t
srx_recv(struct fid_ep *ep, void *buf, size_t len, void *desc __rte_unused, fi_addr_t src,
	 void *context)
{
	struct dfi_srx *srx = srx_of(&ep->fid);
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	return srx_post(srx, &iov, 1, src, 0, 0, context, srx->attr.op_flags, false);
}

static ssize_t
srx_recvv(struct fid_ep *ep, const struct iovec *iov, void **desc __rte_unused, size_t count,
	  fi_addr_t src, void *context)
{
	struct dfi_srx *srx = srx_of(&ep->fid);

	return srx_post(srx, iov, count, src, 0, 0, context, srx->attr.op_flags, false);
}

static ssize_t
srx_recvmsg(struct fid_ep *ep, const struct fi_msg *msg, uint64_t flags)
{
	if (msg == NULL)
		return -FI_EINVAL;
	return srx_post(srx_of(&ep->fid), msg->msg_iov, msg->iov_count, msg->addr, 0, 0,
			msg->context, flags, false);
}

static ssize_t
srx_trecv(struct fid_ep *ep, void *buf, size_t len, void *desc __rte_unused, fi_addr_t src,
	  uint64_t tag, uint64_t ignore, void *context)
{
	struct dfi_srx *srx = srx_of(&ep->fid);
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	return srx_post(srx, &iov, 1, src, tag, ignore, context, srx->attr.op_flags, true);
}

static ssize_t
srx_trecvv(struct fid_ep *ep, const struct iovec *iov, void **desc __rte_unused, size_t count,
	   fi_addr_t src, uint64_t tag, uint64_t ignore, void *context)
{
	struct dfi_srx *srx = srx_of(&ep->fid);

	return srx_post(srx, iov, count, src, tag, ignore, context, srx->attr.op_flags, true);
}

static ssize_t
srx_trecvmsg(struct fid_ep *ep, const struct fi_msg_tagged *msg, uint64_t flags)
{
	if (msg == NULL)
		return -FI_EINVAL;
	return srx_post(srx_of(&ep->fid), msg->msg_iov, msg->iov_count, msg->addr, msg->tag,
			msg->ignore, msg->context, flags, true);
}

static struct fi_ops_msg srx_msg_ops;
static struct fi_ops_tagged srx_tagged_ops;

/* The receive slots; the send slots answer -FI_ENOSYS. */
RTE_INIT(srx_ops_build)
{
	srx_msg_ops = dfi_no_msg_ops;
	srx_msg_ops.recv = srx_recv;
	srx_msg_ops.recvv = srx_recvv;
	srx_msg_ops.recvmsg = srx_recvmsg;
	srx_tagged_ops = dfi_no_tagged_ops;
	srx_tagged_ops.recv = srx_trecv;
	srx_tagged_ops.recvv = srx_trecvv;
	srx_tagged_ops.recvmsg = srx_trecvmsg;
}

static ssize_t
srx_cancel(fid_t fid, void *context)
{
	struct dfi_guard *held;
	struct dfi_srx *srx = srx_of(fid);
	ssize_t ret;

	if (context == NULL)
		return -FI_ENOENT;
	if (srx->cq == NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_cancel on a shared receive context: bind it a CQ "
			 "(FI_RECV) for its FI_ECANCELED");
		return -FI_ENOCQ;
	}
	held = dfi_guard_lock(srx->guard);
	ret = rdm_rxq_cancel(&srx->rxq, context, srx->cq);
	dfi_guard_unlock(held);
	return ret;
}

static int
srx_getopt(fid_t fid, int level, int optname, void *optval, size_t *optlen)
{
	if (level != FI_OPT_ENDPOINT || optname != FI_OPT_MIN_MULTI_RECV)
		return -FI_ENOPROTOOPT;
	if (optval == NULL || optlen == NULL || *optlen < sizeof(size_t))
		return -FI_EINVAL;
	*(size_t *)optval = srx_of(fid)->min_multi_recv;
	*optlen = sizeof(size_t);
	return 0;
}

static int
srx_setopt(fid_t fid, int level, int optname, const void *optval, size_t optlen)
{
	if (level != FI_OPT_ENDPOINT || optname != FI_OPT_MIN_MULTI_RECV)
		return -FI_ENOPROTOOPT;
	if (optval == NULL || optlen != sizeof(size_t))
		return -FI_EINVAL;
	srx_of(fid)->min_multi_recv = *(const size_t *)optval;	/* for receives posted later */
	return 0;
}

/* -- binding, control -- */

static int
srx_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct dfi_srx *srx = srx_of(fid);
	struct dfi_cq *cq = dfi_cq_from_fid(bfid);

	if (cq == NULL || cq->domain != srx->domain || srx->cq != NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_ep_bind: a shared receive context takes one CQ "
			 "of its domain (for fi_cancel), nothing else");
		return -FI_EINVAL;
	}
	if (flags != FI_RECV)
		return -FI_EBADFLAGS;
	dfi_guard_join(srx->guard, cq->guard);	/* fi_cancel() writes it */
	DFI_REF_GET(&cq->refs);
	srx->cq = cq;
	return 0;
}

static int
srx_control(struct fid *fid, int command, void *arg)
{
	struct dfi_srx *srx = srx_of(fid);
	uint64_t *flags = arg;

	switch (command) {
	case FI_ENABLE:
		return 0;	/* receives may be posted from fi_srx_context() on */
	case FI_GETOPSFLAG:
	case FI_SETOPSFLAG:
		if (flags == NULL || (*flags & (FI_TRANSMIT | FI_RECV)) != FI_RECV)
			return -FI_EINVAL;
		if (command == FI_GETOPSFLAG)
			*flags = srx->attr.op_flags | FI_RECV;
		else
			srx->attr.op_flags = *flags & ~(uint64_t)(FI_TRANSMIT | FI_RECV);
		return 0;
	default:
		return -FI_ENOSYS;
	}
}

int
dfi_srx_attach(struct dfi_srx *srx, struct dfi_ep *ep)
{
	uint64_t caps = ep->caps & SRX_CAPS & ~(uint64_t)FI_SOURCE;
	int ret = -FI_EINVAL;

	if (ep->domain != srx->domain) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_ep_bind: a shared receive context of another domain");
		return -FI_EINVAL;
	}
	if ((caps & ~srx->attr.caps) != 0 || ep->iov_limit > srx->attr.iov_limit) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_ep_bind: the endpoint's receive attributes are "
			 "not a subset of the shared context's (caps 0x%" PRIx64 " of 0x%" PRIx64
			 ", iov_limit %zu of %zu)", caps, srx->attr.caps, ep->iov_limit,
			 srx->attr.iov_limit);
		return -FI_EINVAL;
	}
	pthread_mutex_lock(&srx->lock);
	if (srx->nb_eps < srx->max_eps) {
		srx->nb_eps++;
		ret = 0;
	}
	pthread_mutex_unlock(&srx->lock);
	if (ret != 0)
		DFI_WARN(FI_LOG_EP_CTRL, "fi_ep_bind: the shared receive context has its %u "
			 "endpoints (max_ep_srx_ctx)", srx->max_eps);
	else
		dfi_guard_join(srx->guard, ep->guard);	/* its progress takes from the queue */
	return ret;
}

int
dfi_srx_enable(struct dfi_srx *srx, struct dfi_ep *ep)
{
	int ret = 0;

	if (ep->av == NULL)
		return 0;	/* FI_EP_MSG: its peer is its connection */
	pthread_mutex_lock(&srx->lock);
	if (srx->av == NULL) {
		dfi_av_hold(ep->av);	/* the context's from now on */
		srx->av = ep->av;
	} else if (srx->av != ep->av) {
		ret = -FI_EINVAL;
	}
	pthread_mutex_unlock(&srx->lock);
	if (ret != 0)
		DFI_WARN(FI_LOG_EP_CTRL, "fi_enable: the endpoints of a shared receive context "
			 "share one AV (fi_endpoint(3)); this one has another");
	return ret;
}

void
dfi_srx_detach(struct dfi_srx *srx)
{
	pthread_mutex_lock(&srx->lock);
	srx->nb_eps--;
	pthread_mutex_unlock(&srx->lock);
}

/* -- open, close -- */

/* The context's attributes: as asked, within what an RDM endpoint offers. */
static int
srx_attr(struct dfi_srx *srx, const struct fi_rx_attr *asked, const struct fi_info *prov)
{
	const struct fi_rx_attr *have = prov->rx_attr;

	srx->attr = *have;
	srx->attr.caps = (have->caps | prov->caps) & SRX_CAPS;
	srx->attr.iov_limit = RTE_MIN(have->iov_limit, (size_t)RDM_IOV_MAX);
	srx->max_eps = (uint32_t)prov->domain_attr->max_ep_srx_ctx;
	if (asked == NULL)
		return 0;
	if ((asked->caps & ~srx->attr.caps) != 0 || (asked->msg_order & ~have->msg_order) != 0 ||
	    asked->size > have->size || asked->iov_limit > srx->attr.iov_limit) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_srx_context: the attributes ask for more than "
			 "%s offers (caps 0x%" PRIx64 ", size %zu, iov_limit %zu)",
			 srx->domain->port->name, srx->attr.caps, have->size, srx->attr.iov_limit);
		return -FI_EINVAL;
	}
	if (asked->caps != 0)
		srx->attr.caps = asked->caps;
	if (asked->msg_order != 0)
		srx->attr.msg_order = asked->msg_order;
	srx->attr.op_flags = asked->op_flags;
	if (asked->size != 0)
		srx->attr.size = asked->size;
	if (asked->iov_limit != 0)
		srx->attr.iov_limit = asked->iov_limit;
	if (asked->total_buffered_recv != 0)
		srx->attr.total_buffered_recv = asked->total_buffered_recv;
	return 0;
}

int
dfi_srx_context(struct fid_domain *domain_fid, struct fi_rx_attr *attr, struct fid_ep **out,
		void *context)
{
	struct dfi_domain *domain = dfi_domain_from_fid(domain_fid);
	struct fi_info *prov;
	struct dfi_srx *srx;
	int ret;

	if (domain == NULL || out == NULL)
		return -FI_EINVAL;
	srx = calloc(1, sizeof(*srx));
	if (srx == NULL)
		return -FI_ENOMEM;
	srx->domain = domain;
	srx->min_multi_recv = SRX_MIN_MULTI_RECV;
	ret = dfi_domain_guard(domain, &srx->guard);
	if (ret != 0)
		goto err_free;
	prov = dfi_info_template(FI_EP_RDM, domain->port);
	if (prov == NULL) {
		ret = -FI_ENOMEM;
		goto err_guard;
	}
	ret = srx_attr(srx, attr, prov);
	fi_freeinfo(prov);
	if (ret != 0)
		goto err_guard;
	ret = rdm_rxq_init(&srx->rxq, domain->port, (uint8_t)domain->encap, srx->attr.size,
			   srx->attr.total_buffered_recv, true);
	if (ret != 0)
		goto err_guard;
	pthread_mutex_init(&srx->lock, NULL);
	dfi_ep_fid_init(&srx->ep_fid, FI_CLASS_SRX_CTX, context, &srx_fi_ops, &srx_ep_ops,
			&srx_cm_ops, &srx_msg_ops, &srx_tagged_ops);
	dfi_domain_hold(domain);
	*out = &srx->ep_fid;
	return 0;

err_guard:
	dfi_guard_put(srx->guard);
err_free:
	free(srx);
	return ret;
}

static int
srx_close(struct fid *fid)
{
	struct dfi_srx *srx = srx_of(fid);
	uint32_t nb;

	pthread_mutex_lock(&srx->lock);
	nb = srx->nb_eps;
	pthread_mutex_unlock(&srx->lock);
	if (nb != 0) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_close: %u endpoints use the shared receive "
			 "context: close them first", nb);
		return -FI_EBUSY;
	}
	rdm_rxq_fini(&srx->rxq);
	if (srx->cq != NULL)
		DFI_REF_PUT(&srx->cq->refs);
	if (srx->av != NULL)
		dfi_av_release(srx->av);
	pthread_mutex_destroy(&srx->lock);
	dfi_guard_put(srx->guard);
	dfi_domain_release(srx->domain);
	free(srx);
	return 0;
}
