/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Counters (fi_cntr(3)): a success and an error count, bumped by the
 * endpoints and memory regions bound to them. Reading or waiting progresses
 * the bound endpoints. Triggered operations wait on the success count
 * (trigger.h).
 */

#ifndef _DFI_CNTR_H_
#define _DFI_CNTR_H_

#include <stdbool.h>
#include <stdint.h>

#include <rdma/fi_domain.h>
#include <rdma/fi_eq.h>

#include <rte_branch_prediction.h>

#include "progress.h"
#include "trigger.h"

struct dfi_domain;
struct dfi_wait;

/** A counter's values as a poll set or wait set last reported them. */
struct dfi_cntr_seen {
	uint64_t value;
	uint64_t err;
};

struct dfi_cntr {
	struct fid_cntr cntr_fid;
	uint64_t value;
	uint64_t err;
	/* The application serialises the counter with whatever bumps it
	 * (FI_THREAD_DOMAIN, FI_THREAD_COMPLETION): plain adds, no atomics. */
	bool serial;
	struct dfi_progress progress;
	struct dfi_domain *domain;
	enum fi_wait_obj wait_obj;
	struct dfi_wait *wait;		/* FI_WAIT_SET: the set it signals, else NULL */
	/* under the domain's guard; the application's own writes move them too */
	struct dfi_cntr_seen polled;	/* by fi_poll() */
	struct dfi_cntr_seen waited;	/* by its wait set */
	uint64_t ops_flags;		/* FI_GETOPSFLAG / FI_SETOPSFLAG */
	uint32_t refs;			/* bound endpoints, memory regions, poll sets */
	struct dfi_trig_cntr trig;	/* the triggered operations waiting on it */
};

/** fi_cntr_open() on one of our domains. */
int dfi_cntr_open(struct fid_domain *domain, struct fi_cntr_attr *attr, struct fid_cntr **cntr,
		  void *context);

/** @return the counter behind fid, or NULL when fid is not a counter of ours. */
struct dfi_cntr *dfi_cntr_from_fid(struct fid *fid);

/**
 * Progresses the endpoints bound to the counter (a helper: only if the domain
 * lock is free; see dfi_progress_lock_run()) and compares its values with
 * seen, which take updates to them.
 *
 * @return 1 when they changed, 0, or -FI_EAGAIN.
 */
int dfi_cntr_changed(struct dfi_cntr *cntr, struct dfi_cntr_seen *seen, bool helper, bool take);

/** Binds an endpoint (progressed by reads and waits) or, with ep NULL, an MR. */
int dfi_cntr_attach(struct dfi_cntr *cntr, struct dfi_ep *ep);
void dfi_cntr_detach(struct dfi_cntr *cntr, struct dfi_ep *ep);

/** Adds n to one of the counter's values (value or err); @return the new value. */
static inline uint64_t
dfi_cntr_add_to(const struct dfi_cntr *cntr, uint64_t *v, uint64_t n)
{
	uint64_t nv;

	if (likely(cntr->serial)) {
		nv = __atomic_load_n(v, __ATOMIC_RELAXED) + n;
		__atomic_store_n(v, nv, __ATOMIC_RELEASE);
		return nv;
	}
	return __atomic_add_fetch(v, n, __ATOMIC_RELEASE);
}

/** One of the counter's values is now now: a success value may make
 * triggered operations due (the error count triggers none). */
static inline void
dfi_cntr_moved(struct dfi_cntr *cntr, bool err, uint64_t now)
{
	if (unlikely(!err && now >= cntr->trig.next))
		dfi_trig_reached(cntr);
}

/** Adds n to the success value: the one that triggers operations. */
static inline void
dfi_cntr_add(struct dfi_cntr *cntr, uint64_t n)
{
	dfi_cntr_moved(cntr, false, dfi_cntr_add_to(cntr, &cntr->value, n));
}

static inline void
dfi_cntr_inc(struct dfi_cntr *cntr)
{
	dfi_cntr_add(cntr, 1);
}

static inline void
dfi_cntr_inc_err(struct dfi_cntr *cntr)
{
	dfi_cntr_add_to(cntr, &cntr->err, 1);
}

#endif /* _DFI_CNTR_H_ */
