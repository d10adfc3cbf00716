/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Shared transmit contexts: their life cycle and the endpoints bound to
 * them. Operations are posted to the endpoints, which count them against
 * the context's size (stx.h) and complete them on their own CQs.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "dfi.h"
#include "domain.h"
#include "ep.h"
#include "ep_stubs.h"
#include "info.h"
#include "stubs.h"
#include "stx.h"

/* The transmit capabilities an endpoint may use through a context. */
#define STX_CAPS	(FI_MSG | FI_TAGGED | FI_RMA | FI_ATOMIC | FI_SEND | FI_READ | FI_WRITE)

static int stx_close(struct fid *fid);

static struct fi_ops stx_fi_ops = DFI_FI_OPS(stx_close, dfi_no_bind, dfi_no_control);

struct dfi_stx *
dfi_stx_from_fid(struct fid *fid)
{
	if (fid == NULL || fid->fclass != FI_CLASS_STX_CTX || fid->ops != &stx_fi_ops)
		return NULL;
	return container_of(fid, struct dfi_stx, stx_fid.fid);
}

/* The context's attributes: as asked, within what an RDM endpoint offers. */
static int
stx_attr(struct dfi_stx *stx, const struct fi_tx_attr *asked, const struct fi_info *prov)
{
	const struct fi_tx_attr *have = prov->tx_attr;

	stx->attr = *have;
	stx->attr.caps &= STX_CAPS;
	stx->max_eps = (uint32_t)prov->domain_attr->max_ep_stx_ctx;
	if (asked == NULL)
		return 0;
	if ((asked->caps & ~have->caps) != 0 ||
	    (asked->msg_order & ~have->msg_order) != 0 || asked->size > have->size ||
	    asked->iov_limit > have->iov_limit || asked->inject_size > have->inject_size ||
	    asked->rma_iov_limit > have->rma_iov_limit) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_stx_context: the attributes ask for more than "
			 "%s offers (size %zu, iov_limit %zu, inject_size %zu)",
			 stx->domain->port->name, have->size, have->iov_limit, have->inject_size);
		return -FI_EINVAL;
	}
	if (asked->caps != 0)
		stx->attr.caps = asked->caps & STX_CAPS;
	if (asked->msg_order != 0)
		stx->attr.msg_order = asked->msg_order;
	stx->attr.op_flags = asked->op_flags;
	if (asked->size != 0)
		stx->attr.size = asked->size;
	if (asked->iov_limit != 0)
		stx->attr.iov_limit = asked->iov_limit;
	if (asked->inject_size != 0)
		stx->attr.inject_size = asked->inject_size;
	return 0;
}

int
dfi_stx_context(struct fid_domain *domain_fid, struct fi_tx_attr *attr, struct fid_stx **out,
		void *context)
{
	struct dfi_domain *domain = dfi_domain_from_fid(domain_fid);
	struct fi_info *prov;
	struct dfi_stx *stx;
	int ret;

	if (domain == NULL || out == NULL)
		return -FI_EINVAL;
	stx = dfi_ep_zalloc(sizeof(*stx));
	if (stx == NULL)
		return -FI_ENOMEM;
	stx->domain = domain;
	prov = dfi_info_template(FI_EP_RDM, domain->port);
	if (prov == NULL) {
		ret = -FI_ENOMEM;
		goto err_free;
	}
	ret = stx_attr(stx, attr, prov);
	fi_freeinfo(prov);
	if (ret != 0)
		goto err_free;
	stx->stx_fid.fid.fclass = FI_CLASS_STX_CTX;
	stx->stx_fid.fid.context = context;
	stx->stx_fid.fid.ops = &stx_fi_ops;
	stx->stx_fid.ops = &dfi_no_ep_ops;
	dfi_domain_hold(domain);
	*out = &stx->stx_fid;
	return 0;

err_free:
	free(stx);
	return ret;
}

static int
stx_close(struct fid *fid)
{
	struct dfi_stx *stx = container_of(fid, struct dfi_stx, stx_fid.fid);

	if (__atomic_load_n(&stx->nb_eps, __ATOMIC_ACQUIRE) != 0) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_close: %u endpoints use the shared transmit "
			 "context: close them first", stx->nb_eps);
		return -FI_EBUSY;
	}
	dfi_domain_release(stx->domain);
	free(stx);
	return 0;
}

int
dfi_stx_attach(struct dfi_stx *stx, struct dfi_ep *ep)
{
	uint64_t caps = ep->caps & STX_CAPS;

	if (ep->domain != stx->domain) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_ep_bind: a shared transmit context of another domain");
		return -FI_EINVAL;
	}
	if ((caps & ~stx->attr.caps) != 0 || ep->tx_size > stx->attr.size ||
	    ep->inject_size > stx->attr.inject_size) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_ep_bind: the endpoint's transmit attributes are "
			 "not a subset of the shared context's (caps 0x%" PRIx64 " of 0x%" PRIx64
			 ", size %zu of %zu, inject_size %zu of %zu)", caps, stx->attr.caps,
			 ep->tx_size, stx->attr.size, ep->inject_size, stx->attr.inject_size);
		return -FI_EINVAL;
	}
	if (__atomic_add_fetch(&stx->nb_eps, 1, __ATOMIC_ACQ_REL) > stx->max_eps) {
		__atomic_sub_fetch(&stx->nb_eps, 1, __ATOMIC_ACQ_REL);
		DFI_WARN(FI_LOG_EP_CTRL, "fi_ep_bind: the shared transmit context has its %u "
			 "endpoints (max_ep_stx_ctx)", stx->max_eps);
		return -FI_EINVAL;
	}
	return 0;
}

void
dfi_stx_detach(struct dfi_stx *stx)
{
	__atomic_sub_fetch(&stx->nb_eps, 1, __ATOMIC_ACQ_REL);
}
