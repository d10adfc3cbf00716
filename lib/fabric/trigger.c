/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* The counters' queues of triggered operations and the domain's ready list (see trigger.h). */

#include <rdma/fi_errno.h>

#include "dfi.h"
#include "cntr.h"
#include "domain.h"
#include "trigger.h"

void
dfi_trig_cntr_init(struct dfi_trig_cntr *tc)
{
	tc->next = UINT64_MAX;
	TAILQ_INIT(&tc->queue);
	tc->ready_next = NULL;
	tc->ready = false;
}

static uint64_t
cntr_value(const struct dfi_cntr *cntr)
{
	return __atomic_load_n(&cntr->value, __ATOMIC_ACQUIRE);
}

/* next from the queue's head, once the counter is off the ready list; a
 * value already there puts it back on. */
static void
trig_arm(struct dfi_cntr *cntr)
{
	struct dfi_trig *first = TAILQ_FIRST(&cntr->trig.queue);

	cntr->trig.next = first != NULL ? first->threshold : UINT64_MAX;
	if (cntr_value(cntr) >= cntr->trig.next)
		dfi_trig_reached(cntr);
}

void
dfi_trig_reached(struct dfi_cntr *cntr)
{
	struct dfi_domain *domain = cntr->domain;

	if (cntr->trig.ready)
		return;
	cntr->trig.ready = true;
	cntr->trig.next = UINT64_MAX;	/* the increments after need not call */
	cntr->trig.ready_next = domain->trig_ready;
	__atomic_store_n(&domain->trig_ready, cntr, __ATOMIC_RELAXED);
}

void
dfi_trig_queue(struct dfi_trig *t)
{
	struct dfi_trig_cntr *tc = &t->cntr->trig;
	struct dfi_trig *prev;

	/* after the last of a threshold not above its own: usually the tail */
	TAILQ_FOREACH_REVERSE(prev, &tc->queue, dfi_trig_queue, link) {
		if (prev->threshold <= t->threshold)
			break;
	}
	if (prev != NULL)
		TAILQ_INSERT_AFTER(&tc->queue, prev, t, link);
	else
		TAILQ_INSERT_HEAD(&tc->queue, t, link);
	if (!tc->ready)
		trig_arm(t->cntr);
}

void
dfi_trig_unqueue(struct dfi_trig *t)
{
	TAILQ_REMOVE(&t->cntr->trig.queue, t, link);
	if (!t->cntr->trig.ready)
		trig_arm(t->cntr);
}

/*
 * Issues the operations of one ready counter whose thresholds its value
 * reached, in order. @return false when one could not go yet (-FI_EAGAIN):
 * it and those after it wait for the next progress.
 */
static bool
cntr_fire(struct dfi_cntr *cntr)
{
	struct dfi_trig *t;

	while ((t = TAILQ_FIRST(&cntr->trig.queue)) != NULL &&
	       t->threshold <= cntr_value(cntr)) {
		TAILQ_REMOVE(&cntr->trig.queue, t, link);
		if (t->fire(t) == -FI_EAGAIN) {
			TAILQ_INSERT_HEAD(&cntr->trig.queue, t, link);
			return false;
		}
	}
	return true;
}

void
dfi_trig_run(struct dfi_domain *domain)
{
	struct dfi_cntr *cntr, *blocked = NULL;

	/* an operation issued may complete and move another counter: it joins the list */
	while ((cntr = domain->trig_ready) != NULL) {
		__atomic_store_n(&domain->trig_ready, cntr->trig.ready_next, __ATOMIC_RELAXED);
		if (!cntr_fire(cntr)) {
			cntr->trig.ready_next = blocked;	/* still ready */
			blocked = cntr;
			continue;
		}
		cntr->trig.ready = false;
		trig_arm(cntr);
	}
	__atomic_store_n(&domain->trig_ready, blocked, __ATOMIC_RELAXED);
}

int
dfi_trig_cntr_close(struct dfi_cntr *cntr)
{
	struct dfi_cntr **pp;

	if (!TAILQ_EMPTY(&cntr->trig.queue)) {
		DFI_WARN(FI_LOG_CNTR, "triggered operations still wait on the counter");
		return -FI_EBUSY;
	}
	if (cntr->trig.ready) {
		for (pp = &cntr->domain->trig_ready; *pp != cntr; pp = &(*pp)->trig.ready_next)
			;
		*pp = cntr->trig.ready_next;
		cntr->trig.ready = false;
	}
	return 0;
}
