/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Triggered operations (fi_trigger(3), FI_TRIGGER_THRESHOLD), the counters'
 * side. This file owns each counter's queue of the operations waiting on
 * it, in threshold order (posting order among equal thresholds), and the
 * domain's list of counters with an operation due. It does not own the
 * operations: the endpoint layer embeds a struct dfi_trig in its own
 * record and says, through the fire pointer, how the operation is issued.
 *
 * A counter keeps the first threshold it waits for in next, UINT64_MAX
 * when nothing waits: its increments compare the new value with it, the
 * one branch a counter without triggered operations costs. The increment
 * that reaches it puts the counter on its domain's ready list, nothing
 * more (it may run deep inside an endpoint's progress); the operations
 * are issued by dfi_trig_run() at the end of an endpoint's progress, in
 * the application's fi_cntr_add()/fi_cntr_set(), and in the post of a
 * triggered operation whose threshold is already met. All of it runs
 * under the domain's guard: counters, the endpoints bound to them and those
 * with triggered operations are in its group (guard.h).
 */

#ifndef _DFI_TRIGGER_H_
#define _DFI_TRIGGER_H_

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_branch_prediction.h>

#include "domain.h"

struct dfi_cntr;

/** An operation waiting on a counter, embedded in the endpoint layer's record. */
struct dfi_trig {
	TAILQ_ENTRY(dfi_trig) link;	/* its counter's queue */
	struct dfi_cntr *cntr;
	uint64_t threshold;
	/**
	 * Issues the operation, off its queue (the domain's guard held).
	 * @return -FI_EAGAIN to be put back first in the queue and tried at the
	 * next progress; anything else gives t back to its owner.
	 */
	int (*fire)(struct dfi_trig *t);
};

TAILQ_HEAD(dfi_trig_queue, dfi_trig);

/** A counter's part. */
struct dfi_trig_cntr {
	uint64_t next;			/* first threshold waited for, UINT64_MAX: none */
	struct dfi_trig_queue queue;
	struct dfi_cntr *ready_next;	/* the domain's ready list */
	bool ready;			/* on it (next is UINT64_MAX meanwhile) */
};

void dfi_trig_cntr_init(struct dfi_trig_cntr *tc);

/**
 * A counter's close: -FI_EBUSY (logged) while operations wait on it,
 * otherwise it leaves its domain's ready list. The domain's guard is held.
 */
int dfi_trig_cntr_close(struct dfi_cntr *cntr);

/** Queues t (cntr and threshold set) on its counter; the domain's guard is held. */
void dfi_trig_queue(struct dfi_trig *t);

/** Takes a waiting t off its counter's queue; the domain's guard is held. */
void dfi_trig_unqueue(struct dfi_trig *t);

/** The counter's value reached its next threshold: it goes on the ready list. */
void dfi_trig_reached(struct dfi_cntr *cntr);

/** Issues the operations due on the ready counters; the domain's guard is held. */
void dfi_trig_run(struct dfi_domain *domain);

/** Whether a counter is ready; an endpoint of another group may look. */
static inline bool
dfi_trig_due(struct dfi_domain *domain)
{
	return __atomic_load_n(&domain->trig_ready, __ATOMIC_RELAXED) != NULL;
}

/** The progress's look at its domain: one branch while no counter is ready. */
static inline void
dfi_trig_progress(struct dfi_domain *domain)
{
	if (unlikely(dfi_trig_due(domain)))
		dfi_trig_run(domain);
}

#endif /* _DFI_TRIGGER_H_ */
