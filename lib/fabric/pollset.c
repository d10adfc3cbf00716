/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Poll sets: fi_poll_open(), fi_poll_add(), fi_poll_del(), fi_poll() and
 * fi_close() of a set, and the look at a member that wait sets use too.
 * A member holds a reference of its CQ or counter, so neither closes while
 * in a set; the set does not close while it has members (fi_poll(3)).
 */

#include <stdlib.h>

#include <rte_common.h>

#include "dfi.h"
#include "cntr.h"
#include "cq.h"
#include "domain.h"
#include "eq.h"
#include "pollset.h"
#include "stubs.h"

static int poll_close(struct fid *fid);
static int poll_poll(struct fid_poll *pollset, void **context, int count);
static int poll_add(struct fid_poll *pollset, struct fid *event_fid, uint64_t flags);
static int poll_del(struct fid_poll *pollset, struct fid *event_fid, uint64_t flags);

static struct fi_ops dfi_poll_fi_ops = DFI_FI_OPS(poll_close, dfi_no_bind, dfi_no_control);

static struct fi_ops_poll dfi_poll_ops = {
	.size = sizeof(struct fi_ops_poll),
	.poll = poll_poll,
	.poll_add = poll_add,
	.poll_del = poll_del,
};

int
dfi_poll_look(struct fid *fid, enum dfi_look how)
{
	bool helper = how == DFI_LOOK_HELPER;
	struct dfi_cntr *cntr;
	struct dfi_cq *cq;
	struct dfi_eq *eq;

	cq = dfi_cq_from_fid(fid);
	if (cq != NULL)
		return dfi_cq_ready(cq, helper);
	cntr = dfi_cntr_from_fid(fid);
	if (cntr != NULL)
		return dfi_cntr_changed(cntr, how == DFI_LOOK_POLL ? &cntr->polled : &cntr->waited,
					helper, !helper);
	eq = dfi_eq_from_fid(fid);
	if (eq != NULL && !helper)
		dfi_eq_progress(eq);
	return eq != NULL && dfi_eq_pending(eq);
}

/* The reference count of a CQ or counter of domain, or NULL. */
static uint32_t *
member_refs(struct fid *fid, const struct dfi_domain *domain)
{
	struct dfi_cntr *cntr = dfi_cntr_from_fid(fid);
	struct dfi_cq *cq = dfi_cq_from_fid(fid);

	if (cq != NULL && cq->domain == domain)
		return &cq->refs;
	if (cntr != NULL && cntr->domain == domain)
		return &cntr->refs;
	return NULL;
}

/* @return the member's index, or nb_fids. Called with the lock held. */
static uint32_t
member_find(const struct dfi_poll *poll, const struct fid *fid)
{
	uint32_t i;

	for (i = 0; i < poll->nb_fids && poll->fids[i] != fid; i++)
		;
	return i;
}

static int
poll_add(struct fid_poll *pollset, struct fid *event_fid, uint64_t flags)
{
	struct dfi_poll *poll = container_of(pollset, struct dfi_poll, poll_fid);
	uint32_t *refs = member_refs(event_fid, poll->domain);
	struct fid **fids;
	int ret = dfi_args_check(FI_LOG_DOMAIN, "fi_poll_add", event_fid != NULL, flags);

	if (ret != 0)
		return ret;
	if (refs == NULL) {
		DFI_WARN(FI_LOG_DOMAIN, "fi_poll_add: only CQs and counters of the poll set's "
			 "domain join it");
		return -FI_EINVAL;
	}
	pthread_mutex_lock(&poll->lock);
	if (member_find(poll, event_fid) < poll->nb_fids) {
		ret = -FI_EALREADY;
		goto out;
	}
	fids = realloc(poll->fids, sizeof(*fids) * (poll->nb_fids + 1));
	if (fids == NULL) {
		ret = -FI_ENOMEM;
		goto out;
	}
	fids[poll->nb_fids++] = event_fid;
	poll->fids = fids;
	DFI_REF_GET(refs);
out:
	pthread_mutex_unlock(&poll->lock);
	return ret;
}

static int
poll_del(struct fid_poll *pollset, struct fid *event_fid, uint64_t flags)
{
	struct dfi_poll *poll = container_of(pollset, struct dfi_poll, poll_fid);
	int ret = dfi_args_check(FI_LOG_DOMAIN, "fi_poll_del", event_fid != NULL, flags);
	uint32_t i;

	if (ret != 0)
		return ret;
	pthread_mutex_lock(&poll->lock);
	i = member_find(poll, event_fid);
	if (i == poll->nb_fids) {
		pthread_mutex_unlock(&poll->lock);
		DFI_WARN(FI_LOG_DOMAIN, "fi_poll_del: the object is not in the poll set");
		return -FI_EINVAL;
	}
	poll->fids[i] = poll->fids[--poll->nb_fids];
	DFI_REF_PUT(member_refs(event_fid, poll->domain));
	pthread_mutex_unlock(&poll->lock);
	return 0;
}

static int
poll_close(struct fid *fid)
{
	struct dfi_poll *poll = container_of(fid, struct dfi_poll, poll_fid.fid);

	if (poll->nb_fids != 0) {
		DFI_WARN(FI_LOG_DOMAIN, "poll set still holds %u CQs or counters", poll->nb_fids);
		return -FI_EBUSY;
	}
	dfi_domain_release(poll->domain);
	pthread_mutex_destroy(&poll->lock);
	free(poll->fids);
	free(poll);
	return 0;
}

/*
 * Looks at every member, starting after the last one reported, so that a
 * context array smaller than the set leaves none behind for ever.
 */
static int
poll_poll(struct fid_poll *pollset, void **context, int count)
{
	struct dfi_poll *poll = container_of(pollset, struct dfi_poll, poll_fid);
	uint32_t i, k, start;
	int n = 0;

	if (context == NULL || count <= 0)
		return -FI_EINVAL;
	pthread_mutex_lock(&poll->lock);
	start = poll->next;
	for (i = 0; i < poll->nb_fids && n < count; i++) {
		k = (start + i) % poll->nb_fids;
		if (dfi_poll_look(poll->fids[k], DFI_LOOK_POLL) > 0) {
			context[n++] = poll->fids[k]->context;
			poll->next = k + 1;
		}
	}
	pthread_mutex_unlock(&poll->lock);
	return n;
}

int
dfi_poll_open(struct fid_domain *domain_fid, struct fi_poll_attr *attr,
	      struct fid_poll **pollset)
{
	struct dfi_domain *domain = dfi_domain_from_fid(domain_fid);
	struct dfi_poll *poll;
	int ret;

	ret = dfi_args_check(FI_LOG_DOMAIN, "fi_poll_open",
			     domain != NULL && attr != NULL && pollset != NULL,
			     attr != NULL ? attr->flags : 0);
	if (ret != 0)
		return ret;
	poll = calloc(1, sizeof(*poll));
	if (poll == NULL)
		return -FI_ENOMEM;
	pthread_mutex_init(&poll->lock, NULL);
	poll->domain = domain;
	poll->poll_fid.fid.fclass = FI_CLASS_POLL;
	poll->poll_fid.fid.ops = &dfi_poll_fi_ops;
	poll->poll_fid.ops = &dfi_poll_ops;
	dfi_domain_hold(domain);
	*pollset = &poll->poll_fid;
	return 0;
}
