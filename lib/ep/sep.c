/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Scalable endpoints (fi_endpoint(3)): one name, and a range of UDP ports
 * from it, receive context i at name + i, then transmit context j at name +
 * rx_ctx_cnt + j (wire.h). Each context is an endpoint of the type's own
 * (ep.c) with the half of the data operations its direction has, its own
 * CQs, counters, queue pair where the PMD steers, and reliable-protocol
 * state: a context pair is a connection. The scalable endpoint keeps the
 * range's ports (attached, inactive sinks) from fi_scalable_ep() on, and each
 * context takes its own when it is opened.
 */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "dfi.h"
#include "av.h"
#include "domain.h"
#include "ep.h"
#include "ep_stubs.h"
#include "sep.h"
#include "stubs.h"

/* What a context of one direction gets of the other: a transmit context
 * still takes acknowledgements in, a receive context still sends them. */
#define SEP_OTHER_SIZE		64
/* Ephemeral ranges tried before fi_scalable_ep() gives up. */
#define SEP_RESERVE_TRIES	64

enum sep_dir {
	SEP_TX,
	SEP_RX,
};

struct dfi_sep {
	struct fid_ep ep_fid;
	struct dfi_domain *domain;
	struct fi_info *info;
	struct dfi_av *av;
	pthread_mutex_t lock;		/* contexts opened, closed, bound */
	uint16_t nb_rx;
	uint16_t nb_tx;
	uint16_t name;			/* UDP port (host order) of receive context 0 */
	struct dfi_sink *slots;		/* nb_rx + nb_tx ports; port NULL: a context has it */
	struct dfi_ep **ctx;		/* by slot, NULL: not open */
};

/* A context's data operations: its own direction's, the other -FI_ENOSYS. */
struct sep_ctx_ops {
	struct fi_ops_msg msg;
	struct fi_ops_tagged tagged;
};

static struct sep_ctx_ops ctx_ops[2][2];	/* [RDM?][enum sep_dir] */
static pthread_once_t ctx_ops_once = PTHREAD_ONCE_INIT;

static void
ctx_ops_build(struct sep_ctx_ops *o, const struct dfi_ep_type_ops *type, enum sep_dir dir)
{
	const struct fi_ops_msg *nm = &dfi_no_msg_ops;
	const struct fi_ops_tagged *nt = &dfi_no_tagged_ops;

	o->msg = *type->msg;
	o->tagged = *type->tagged;
	if (dir == SEP_TX) {
		o->msg.recv = nm->recv;
		o->msg.recvv = nm->recvv;
		o->msg.recvmsg = nm->recvmsg;
		o->tagged.recv = nt->recv;
		o->tagged.recvv = nt->recvv;
		o->tagged.recvmsg = nt->recvmsg;
		return;
	}
	o->msg.send = nm->send;
	o->msg.sendv = nm->sendv;
	o->msg.sendmsg = nm->sendmsg;
	o->msg.inject = nm->inject;
	o->msg.senddata = nm->senddata;
	o->msg.injectdata = nm->injectdata;
	o->tagged.send = nt->send;
	o->tagged.sendv = nt->sendv;
	o->tagged.sendmsg = nt->sendmsg;
	o->tagged.inject = nt->inject;
	o->tagged.senddata = nt->senddata;
	o->tagged.injectdata = nt->injectdata;
}

static void
ctx_ops_init(void)
{
	ctx_ops_build(&ctx_ops[0][SEP_TX], &dfi_dgram_ops, SEP_TX);
	ctx_ops_build(&ctx_ops[0][SEP_RX], &dfi_dgram_ops, SEP_RX);
	ctx_ops_build(&ctx_ops[1][SEP_TX], &dfi_rdm_ops, SEP_TX);
	ctx_ops_build(&ctx_ops[1][SEP_RX], &dfi_rdm_ops, SEP_RX);
}

static struct dfi_sep *
sep_of(fid_t fid)
{
	return container_of(fid, struct dfi_sep, ep_fid.fid);
}

static uint16_t
sep_slots(const struct dfi_sep *sep)
{
	return (uint16_t)(sep->nb_rx + sep->nb_tx);
}

/* -- the range of ports -- */

static int
slot_take(struct dfi_sep *sep, uint16_t k, uint16_t port)
{
	rte_be16_t p = rte_cpu_to_be_16(port);

	if (port == 0 || (uint32_t)port + k > UINT16_MAX)
		return -FI_EADDRINUSE;
	p = dfi_port_add(p, k);
	return dfi_sink_attach(sep->domain->port, &sep->slots[k], &p, sep);
}

/* Takes the ports of every slot from want (host order), or from any free range. */
static int
sep_reserve(struct dfi_sep *sep, uint16_t want)
{
	uint16_t n = sep_slots(sep), k;
	rte_be16_t first;
	int t, ret = -FI_EADDRINUSE;

	for (t = 0; t < (want != 0 ? 1 : SEP_RESERVE_TRIES); t++) {
		first = rte_cpu_to_be_16(want);
		ret = dfi_sink_attach(sep->domain->port, &sep->slots[0], &first, sep);
		if (ret != 0)
			return ret;
		for (k = 1; k < n; k++) {
			ret = slot_take(sep, k, rte_be_to_cpu_16(first));
			if (ret != 0)
				break;
		}
		if (k == n) {
			sep->name = rte_be_to_cpu_16(first);
			return 0;
		}
		while (k-- > 0)
			dfi_sink_detach(&sep->slots[k]);
		if (ret != -FI_EADDRINUSE)
			return ret;
	}
	DFI_WARN(FI_LOG_EP_CTRL, "fi_scalable_ep: no %u free UDP ports in a row on %s%s",
		 n, sep->domain->port->name, want != 0 ? " from the src_addr's" : "");
	return ret;
}

/* -- contexts -- */

/* A size asked for a context: no more than the endpoint's; 0 keeps it. */
#define NARROW(have, asked) do { \
	if ((asked) != 0) \
		(have) = RTE_MIN((asked), (have)); \
} while (0)

static bool
attr_more(uint64_t caps, uint64_t order, uint64_t have_caps, uint64_t have_order)
{
	return (caps & ~have_caps) != 0 || (order & ~have_order) != 0;
}

/* An info for a context: the endpoint's, with the context's direction's
 * attributes as asked and no more than the endpoint's. */
static int
ctx_info(const struct dfi_sep *sep, enum sep_dir dir, const void *attr, struct fi_info **out)
{
	struct fi_info *info = fi_dupinfo(sep->info);
	const struct fi_tx_attr *ta = dir == SEP_TX ? attr : NULL;
	const struct fi_rx_attr *ra = dir == SEP_RX ? attr : NULL;

	if (info == NULL)
		return -FI_ENOMEM;
	free(info->src_addr);
	info->src_addr = NULL;
	info->src_addrlen = 0;
	info->ep_attr->tx_ctx_cnt = 1;
	info->ep_attr->rx_ctx_cnt = 1;
	if (ta != NULL) {
		if (attr_more(ta->caps, ta->msg_order, info->tx_attr->caps,
			      info->tx_attr->msg_order))
			goto err_more;
		info->tx_attr->caps = ta->caps != 0 ? ta->caps : info->tx_attr->caps;
		info->tx_attr->op_flags = ta->op_flags;
		NARROW(info->tx_attr->size, ta->size);
		NARROW(info->tx_attr->iov_limit, ta->iov_limit);
		NARROW(info->tx_attr->inject_size, ta->inject_size);
	}
	if (ra != NULL) {
		if (attr_more(ra->caps, ra->msg_order, info->rx_attr->caps,
			      info->rx_attr->msg_order))
			goto err_more;
		info->rx_attr->caps = ra->caps != 0 ? ra->caps : info->rx_attr->caps;
		info->rx_attr->op_flags = ra->op_flags;
		NARROW(info->rx_attr->size, ra->size);
		NARROW(info->rx_attr->iov_limit, ra->iov_limit);
	}
	if (dir == SEP_TX)
		info->rx_attr->size = RTE_MIN(info->rx_attr->size, (size_t)SEP_OTHER_SIZE);
	else
		info->tx_attr->size = RTE_MIN(info->tx_attr->size, (size_t)SEP_OTHER_SIZE);
	*out = info;
	return 0;

err_more:
	DFI_WARN(FI_LOG_EP_CTRL, "fi_%cx_context: the attributes ask for more than the "
		 "scalable endpoint has", dir == SEP_TX ? 't' : 'r');
	fi_freeinfo(info);
	return -FI_EINVAL;
}

static int
ctx_open(struct dfi_sep *sep, enum sep_dir dir, int index, void *attr, struct fid_ep **out,
	 void *context)
{
	uint16_t k = (uint16_t)(dir == SEP_RX ? index : sep->nb_rx + index);
	struct sep_ctx_ops *ops;
	struct fi_info *info;
	struct dfi_ep *ep;
	int ret;

	if (out == NULL || index < 0 || index >= (dir == SEP_RX ? sep->nb_rx : sep->nb_tx)) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_%cx_context: no context %d (the endpoint has %u)",
			 dir == SEP_TX ? 't' : 'r', index, dir == SEP_RX ? sep->nb_rx : sep->nb_tx);
		return -FI_EINVAL;
	}
	pthread_once(&ctx_ops_once, ctx_ops_init);
	ret = ctx_info(sep, dir, attr, &info);
	if (ret != 0)
		return ret;
	pthread_mutex_lock(&sep->lock);
	if (sep->ctx[k] != NULL) {
		ret = -FI_EBUSY;
		goto out;
	}
	/* a context closed before gave its port back: it takes it again */
	if (sep->slots[k].port == NULL) {
		ret = slot_take(sep, k, sep->name);
		if (ret != 0)
			goto out;
	}
	ret = dfi_ep_open(sep->domain, info, &sep->slots[k], k, context, &ep);
	if (ret != 0)
		goto out;
	ep->sep = sep;
	if (sep->av != NULL) {
		dfi_av_hold(sep->av);
		ep->av = sep->av;
	}
	ops = &ctx_ops[ep->type == FI_EP_RDM][dir];
	ep->ep_fid.fid.fclass = dir == SEP_TX ? FI_CLASS_TX_CTX : FI_CLASS_RX_CTX;
	ep->ep_fid.msg = &ops->msg;
	ep->ep_fid.tagged = &ops->tagged;
	if (dir == SEP_RX) {
		ep->ep_fid.rma = &dfi_no_rma_ops;
		ep->ep_fid.atomic = &dfi_no_atomic_ops;
	}
	sep->ctx[k] = ep;
	*out = &ep->ep_fid;
	/* fi_endpoint(3): the attributes the context got */
	if (attr != NULL && dir == SEP_TX)
		*(struct fi_tx_attr *)attr = *info->tx_attr;
	else if (attr != NULL)
		*(struct fi_rx_attr *)attr = *info->rx_attr;
out:
	pthread_mutex_unlock(&sep->lock);
	fi_freeinfo(info);
	return ret;
}

static int
sep_tx_ctx(struct fid_ep *sep_fid, int index, struct fi_tx_attr *attr, struct fid_ep **tx_ep,
	   void *context)
{
	return ctx_open(sep_of(&sep_fid->fid), SEP_TX, index, attr, tx_ep, context);
}

static int
sep_rx_ctx(struct fid_ep *sep_fid, int index, struct fi_rx_attr *attr, struct fid_ep **rx_ep,
	   void *context)
{
	return ctx_open(sep_of(&sep_fid->fid), SEP_RX, index, attr, rx_ep, context);
}

void
dfi_sep_ctx_closed(struct dfi_sep *sep, struct dfi_ep *ep)
{
	/* a context's place in the range is its slot */
	pthread_mutex_lock(&sep->lock);
	sep->ctx[ep->name_off] = NULL;
	pthread_mutex_unlock(&sep->lock);
}

/* -- the scalable endpoint -- */

static int
sep_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct dfi_sep *sep = sep_of(fid);
	struct dfi_av *av = bfid != NULL ? dfi_av_from_fid(bfid) : NULL;
	uint16_t k;

	if (av == NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_scalable_ep_bind: an AV only; CQs and counters "
			 "bind to the contexts");
		return -FI_EINVAL;
	}
	if (flags != 0)
		return -FI_EBADFLAGS;
	pthread_mutex_lock(&sep->lock);
	if (sep->av != NULL || av->domain != sep->domain) {
		pthread_mutex_unlock(&sep->lock);
		return -FI_EINVAL;
	}
	dfi_av_hold(av);
	sep->av = av;
	/* contexts opened before are bound as well */
	for (k = 0; k < sep_slots(sep); k++) {
		if (sep->ctx[k] != NULL && sep->ctx[k]->av == NULL) {
			dfi_av_hold(av);
			sep->ctx[k]->av = av;
		}
	}
	pthread_mutex_unlock(&sep->lock);
	return 0;
}

static int
sep_control(struct fid *fid, int command, void *arg __rte_unused)
{
	struct dfi_sep *sep = sep_of(fid);
	int ret = 0;

	if (command != FI_ENABLE)
		return -FI_ENOSYS;
	/* nothing else to start: the contexts are enabled one by one */
	pthread_mutex_lock(&sep->lock);
	if (sep->av == NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_enable: no AV bound to the scalable endpoint");
		ret = -FI_ENOAV;
	}
	pthread_mutex_unlock(&sep->lock);
	return ret;
}

static void
sep_free(struct dfi_sep *sep)
{
	uint16_t k;

	for (k = 0; k < sep_slots(sep); k++) {
		if (sep->slots[k].port != NULL)
			dfi_sink_detach(&sep->slots[k]);
	}
	if (sep->av != NULL)
		dfi_av_release(sep->av);
	pthread_mutex_destroy(&sep->lock);
	fi_freeinfo(sep->info);
	free(sep->ctx);
	free(sep->slots);
	free(sep);
}

static int
sep_close(struct fid *fid)
{
	struct dfi_sep *sep = sep_of(fid);
	struct dfi_domain *domain = sep->domain;
	uint16_t k;

	pthread_mutex_lock(&sep->lock);
	for (k = 0; k < sep_slots(sep); k++) {
		if (sep->ctx[k] != NULL) {
			pthread_mutex_unlock(&sep->lock);
			DFI_WARN(FI_LOG_EP_CTRL, "fi_close: the scalable endpoint's contexts "
				 "are still open");
			return -FI_EBUSY;
		}
	}
	pthread_mutex_unlock(&sep->lock);
	sep_free(sep);
	dfi_domain_release(domain);
	return 0;
}

static int
sep_getname(fid_t fid, void *addr, size_t *addrlen)
{
	struct dfi_sep *sep = sep_of(fid);
	struct dfi_addr a;

	if (addrlen == NULL || (addr == NULL && *addrlen != 0))
		return -FI_EINVAL;
	dfi_port_addr(sep->domain->port, sep->domain->addr_format,
		      rte_cpu_to_be_16(sep->name), &a);
	return dfi_addr_name(sep->domain->addr_format, &a, addr, addrlen);
}

static int
sep_setname(fid_t fid __rte_unused, void *addr __rte_unused, size_t addrlen __rte_unused)
{
	/* the range is taken at fi_scalable_ep(): info->src_addr names it */
	return -FI_ENOSYS;
}

static struct fi_ops sep_fi_ops = DFI_FI_OPS(sep_close, sep_bind, sep_control);

static struct fi_ops_ep sep_ep_ops = {
	.size = sizeof(struct fi_ops_ep),
	.cancel = dfi_no_cancel,	/* operations go to the contexts */
	.getopt = dfi_no_getopt,
	.setopt = dfi_no_setopt,
	.tx_ctx = sep_tx_ctx,
	.rx_ctx = sep_rx_ctx,
	.rx_size_left = dfi_no_size_left,
	.tx_size_left = dfi_no_size_left,
};

static struct fi_ops_cm sep_cm_ops = DFI_CM_OPS_NAMES(sep_setname, sep_getname);

/* A count of fi_endpoint(3): 0 is 1. */
static int
ctx_count(size_t asked, uint16_t *n)
{
	if (asked == FI_SHARED_CONTEXT) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_scalable_ep: FI_SHARED_CONTEXT is fi_endpoint()'s");
		return -FI_EINVAL;
	}
	*n = (uint16_t)RTE_MAX(asked, (size_t)1);
	return 0;
}

int
dfi_scalable_ep(struct fid_domain *domain_fid, struct fi_info *info, struct fid_ep **sep_fid,
		void *context)
{
	struct dfi_domain *domain = dfi_domain_from_fid(domain_fid);
	struct dfi_sep *sep;
	rte_be16_t want;
	uint16_t nb_tx = 0, nb_rx = 0, n;
	int ret;

	if (sep_fid == NULL)
		return -FI_EINVAL;
	ret = dfi_ep_check(domain, info);
	if (ret != 0)
		return ret;
	if (info->ep_attr->type != FI_EP_RDM && info->ep_attr->type != FI_EP_DGRAM) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_scalable_ep: FI_EP_RDM and FI_EP_DGRAM only");
		return -FI_EINVAL;
	}
	ret = ctx_count(info->ep_attr->tx_ctx_cnt, &nb_tx);
	ret = ret != 0 ? ret : ctx_count(info->ep_attr->rx_ctx_cnt, &nb_rx);
	ret = ret != 0 ? ret : dfi_ep_src_port(domain, info, &want);
	if (ret != 0)
		return ret;
	n = (uint16_t)(nb_tx + nb_rx);
	sep = calloc(1, sizeof(*sep));
	if (sep == NULL)
		return -FI_ENOMEM;
	sep->domain = domain;
	sep->nb_tx = nb_tx;
	sep->nb_rx = nb_rx;
	pthread_mutex_init(&sep->lock, NULL);
	sep->info = fi_dupinfo(info);
	/* sinks hold a cache-aligned route */
	sep->slots = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(*sep->slots) * n);
	sep->ctx = calloc(n, sizeof(*sep->ctx));
	if (sep->info == NULL || sep->slots == NULL || sep->ctx == NULL) {
		ret = -FI_ENOMEM;
		goto err_free;
	}
	memset(sep->slots, 0, sizeof(*sep->slots) * n);
	ret = sep_reserve(sep, rte_be_to_cpu_16(want));
	if (ret != 0) {
		memset(sep->slots, 0, sizeof(*sep->slots) * n);
		goto err_free;
	}
	/* a scalable endpoint carries no data itself: its contexts do */
	dfi_ep_fid_init(&sep->ep_fid, FI_CLASS_SEP, context, &sep_fi_ops, &sep_ep_ops,
			&sep_cm_ops, &dfi_no_msg_ops, &dfi_no_tagged_ops);
	dfi_domain_hold(domain);
	*sep_fid = &sep->ep_fid;
	return 0;

err_free:
	sep_free(sep);
	return ret;
}
