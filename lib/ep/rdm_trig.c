/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * FI_EP_RDM's triggered operations (fi_trigger(3), FI_TRIGGER_THRESHOLD):
 * this file owns the endpoint's pool of copies of the posts made with
 * FI_TRIGGER (sends, tagged sends, RMA writes and reads, receives) and the
 * list of those waiting, and issues them when the counter's queue
 * (lib/fabric/trigger.c) says their threshold is reached. A post keeps its
 * arguments and I/O vector, not the data: the buffers stay the
 * application's until the operation completes, as for any post. The
 * completion reports the application's context, the struct
 * fi_triggered_context.
 */

#include <string.h>

#include <rdma/fi_trigger.h>

#include <rte_common.h>

#include "dfi.h"
#include "cntr.h"
#include "cq.h"
#include "domain.h"
#include "ep.h"
#include "rdm.h"

int
rdm_trig_init(struct dfi_ep *ep, struct dfi_rdm *r)
{
	/* as many as the endpoint's queues hold: a full pool is -FI_EAGAIN */
	size_t nb = ep->tx_size + ep->rx_size, i;

	TAILQ_INIT(&r->trig_free);
	TAILQ_INIT(&r->trig_waiting);
	if (!(ep->caps & FI_TRIGGER))
		return 0;
	r->trigs = calloc(nb, sizeof(*r->trigs));
	if (r->trigs == NULL)
		return -FI_ENOMEM;
	for (i = 0; i < nb; i++) {
		r->trigs[i].ep = ep;
		TAILQ_INSERT_TAIL(&r->trig_free, &r->trigs[i], link);
	}
	return 0;
}

void
rdm_trig_fini(struct dfi_rdm *r)
{
	free(r->trigs);
	r->trigs = NULL;
}

/* Back to the pool, off its counter's queue already. */
static void
trig_release(struct dfi_rdm *r, struct rdm_trig *t)
{
	TAILQ_REMOVE(&r->trig_waiting, t, link);
	TAILQ_INSERT_HEAD(&r->trig_free, t, link);
}

/* Reports t failed (err positive), as its operation would have been. */
static void
trig_report(struct dfi_ep *ep, const struct rdm_trig *t, int err)
{
	struct dfi_cq *cq = t->recv ? ep->rx_cq : ep->tx_cq;
	uint64_t flags = t->recv ? FI_RECV | (t->rx.tagged ? FI_TAGGED : FI_MSG) :
			 t->req.comp_flags;

	if (cq != NULL)
		dfi_cq_write_err_unreserved(cq, t->req.context, flags, err);
	dfi_ep_count(ep, t->recv ? DFI_CNTR_RECV : t->req.cntr, true);
}

/* The counter reached t's threshold: the operation is posted as asked. */
static int
trig_fire(struct dfi_trig *trig)
{
	struct rdm_trig *t = container_of(trig, struct rdm_trig, trig);
	struct dfi_ep *ep = t->ep;
	ssize_t ret;

	ret = t->recv ? rdm_rx_post_locked(ep, &t->req, &t->rx) : rdm_post_locked(ep, &t->req);
	if (ret == -FI_EAGAIN)
		return -FI_EAGAIN;	/* the queue or the CQ is full: the next progress */
	if (ret != 0) {
		DFI_WARN(FI_LOG_EP_DATA, "a triggered operation failed when issued: %s",
			 fi_strerror((int)-ret));
		trig_report(ep, t, (int)-ret);
	}
	trig_release(rdm_of(ep), t);
	return 0;
}

/* The trigger of a post: what fi_trigger(3) asks of it, and what we offer. */
static int
trig_check(const struct dfi_ep *ep, const struct rdm_post *req,
	   const struct rdm_rx_args *rx, struct dfi_cntr **cntr, uint64_t *threshold)
{
	const struct fi_triggered_context *tc = req->context;
	size_t len;

	if (!(ep->caps & FI_TRIGGER)) {
		DFI_WARN(FI_LOG_EP_DATA, "FI_TRIGGER on an endpoint opened without it");
		return -FI_EOPNOTSUPP;
	}
	if (tc == NULL) {
		DFI_WARN(FI_LOG_EP_DATA, "FI_TRIGGER needs a struct fi_triggered_context as "
			 "the context");
		return -FI_EINVAL;
	}
	if (tc->event_type != FI_TRIGGER_THRESHOLD) {
		DFI_WARN(FI_LOG_EP_DATA, "trigger event %d: only FI_TRIGGER_THRESHOLD is offered",
			 (int)tc->event_type);
		return -FI_EINVAL;
	}
	*cntr = tc->trigger.threshold.cntr != NULL ?
		dfi_cntr_from_fid(&tc->trigger.threshold.cntr->fid) : NULL;
	if (*cntr == NULL || (*cntr)->domain != ep->domain) {
		DFI_WARN(FI_LOG_EP_DATA, "the trigger's counter is not one of the endpoint's "
			 "domain");
		return -FI_EINVAL;
	}
	*threshold = tc->trigger.threshold.threshold;
	if (req->flags & FI_INJECT) {
		/* the buffer would be the application's again before the data went */
		DFI_WARN(FI_LOG_EP_DATA, "FI_INJECT with FI_TRIGGER is not offered");
		return -FI_EBADFLAGS;
	}
	if (rx != NULL)
		return rdm_iov_ok(ep, req->iov, req->count) ? 0 : -FI_EINVAL;
	return (int)rdm_post_check(ep, req, &len);
}

ssize_t
rdm_trig_post(struct dfi_ep *ep, const struct rdm_post *req, const struct rdm_rx_args *rx)
{
	struct dfi_guard *held;
	struct dfi_rdm *r = rdm_of(ep);
	struct dfi_cntr *cntr;
	struct rdm_trig *t;
	uint64_t threshold;
	ssize_t ret;

	ret = trig_check(ep, req, rx, &cntr, &threshold);
	if (ret != 0)
		return ret;
	/* the counter's group, the domain's, issues it (trigger.h) */
	dfi_guard_join(cntr->domain->guard, ep->guard);
	held = dfi_guard_lock(ep->guard);
	t = TAILQ_FIRST(&r->trig_free);
	if (unlikely(!ep->enabled || t == NULL)) {
		ret = !ep->enabled ? -FI_EOPBADSTATE : -FI_EAGAIN;
		goto out;
	}
	TAILQ_REMOVE(&r->trig_free, t, link);
	TAILQ_INSERT_TAIL(&r->trig_waiting, t, link);
	/* the application may reuse its fi_msg and I/O vector once this returns */
	t->req = *req;
	t->req.flags &= ~FI_TRIGGER;
	if (req->count > 0)
		memcpy(t->iov, req->iov, req->count * sizeof(*req->iov));
	t->req.iov = t->iov;
	t->recv = rx != NULL;
	if (rx != NULL)
		t->rx = *rx;
	t->trig.cntr = cntr;
	t->trig.threshold = threshold;
	t->trig.fire = trig_fire;
	dfi_trig_queue(&t->trig);
	dfi_trig_progress(ep->domain);	/* the counter is there already: issued now */
out:
	dfi_guard_unlock(held);
	return ret;
}

ssize_t
rdm_trig_cancel(struct dfi_ep *ep, struct dfi_rdm *r, void *context)
{
	struct rdm_trig *t;

	TAILQ_FOREACH(t, &r->trig_waiting, link) {
		if (t->req.context == context) {
			dfi_trig_unqueue(&t->trig);
			trig_report(ep, t, FI_ECANCELED);
			trig_release(r, t);
			return 0;
		}
	}
	return -FI_ENOENT;
}

void
rdm_trig_shutdown(struct dfi_rdm *r)
{
	struct rdm_trig *t;
	uint32_t n = 0;

	while ((t = TAILQ_FIRST(&r->trig_waiting)) != NULL) {
		dfi_trig_unqueue(&t->trig);
		trig_release(r, t);
		n++;
	}
	if (n > 0)
		DFI_INFO(FI_LOG_EP_CTRL, "%u triggered operations dropped at close", n);
}
