/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Guards: the locks that serialise the data path of objects the application
 * does not serialise itself (fi_domain(3), threading).
 *
 * - FI_THREAD_DOMAIN, FI_THREAD_COMPLETION: every object has the domain's
 *   guard, which locks nothing.
 * - FI_THREAD_SAFE: every object has the domain's guard, one lock.
 * - FI_THREAD_FID, FI_THREAD_ENDPOINT: every endpoint, context, CQ and
 *   shared context has a guard of its own. Binding objects together joins
 *   their guards into one group, whose lock then serialises them: what
 *   FI_THREAD_COMPLETION asks of the application, the provider does. A
 *   thread that drives its own context and CQ takes its own lock, on its own
 *   cache line, that no other thread touches. Counters, triggered operations
 *   and whatever binds to a counter join the domain's guard.
 *
 * Groups are joined, never split. A guard joined into another points to it
 * (parent) and holds a reference on it; the group's lock is its root's.
 */

#ifndef _DFI_GUARD_H_
#define _DFI_GUARD_H_

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_spinlock.h>

struct dfi_guard {
	rte_spinlock_t lock;		/* the group's, at its root */
	bool locks;			/* false: the application serialises */
	bool anchor;			/* a domain's: stays its group's root */
	struct dfi_guard *parent;	/* the guard it was joined into, NULL at a root */
	uint32_t refs;			/* its object, and the guards joined into it */
} __rte_cache_aligned;

/**
 * A new guard, alone in its group, with one reference for its object; an
 * anchor (the domain's) stays the root of the groups joined to it.
 * @return 0, or -FI_ENOMEM.
 */
int dfi_guard_new(bool locks, bool anchor, struct dfi_guard **guard);

/** Another reference: an object that shares the guard (the domain's). */
void dfi_guard_get(struct dfi_guard *guard);

/** Drops a reference; the last frees it and drops its reference on its parent. */
void dfi_guard_put(struct dfi_guard *guard);

/** @return the group's guard, whose lock serialises it. */
static inline struct dfi_guard *
dfi_guard_root(struct dfi_guard *g)
{
	struct dfi_guard *p;

	while ((p = __atomic_load_n(&g->parent, __ATOMIC_ACQUIRE)) != NULL)
		g = p;
	return g;
}

/**
 * Takes the group's lock (none where the application serialises).
 * @return the root held, for dfi_guard_unlock().
 */
static inline struct dfi_guard *
dfi_guard_lock(struct dfi_guard *g)
{
	struct dfi_guard *r;

	if (!g->locks)
		return g;
	for (;;) {
		r = dfi_guard_root(g);
		rte_spinlock_lock(&r->lock);
		/* joined into another group while this thread waited: that one's */
		if (likely(__atomic_load_n(&r->parent, __ATOMIC_RELAXED) == NULL))
			return r;
		rte_spinlock_unlock(&r->lock);
	}
}

/**
 * For a provider thread: takes the group's lock only if it is free, and
 * never where the application serialises (there only it may touch them).
 * @return the root held, or NULL.
 */
static inline struct dfi_guard *
dfi_guard_trylock(struct dfi_guard *g)
{
	struct dfi_guard *r;

	if (!g->locks)
		return NULL;
	r = dfi_guard_root(g);
	if (rte_spinlock_trylock(&r->lock) == 0)
		return NULL;
	if (__atomic_load_n(&r->parent, __ATOMIC_RELAXED) != NULL) {
		rte_spinlock_unlock(&r->lock);
		return NULL;
	}
	return r;
}

static inline void
dfi_guard_unlock(struct dfi_guard *root)
{
	if (root->locks)
		rte_spinlock_unlock(&root->lock);
}

/**
 * Joins two groups: from now on one lock serialises both. A control call,
 * made holding no guard, while either group may be in use. The domain's
 * guard stays its group's root. Groups already one are left.
 */
void dfi_guard_join(struct dfi_guard *a, struct dfi_guard *b);

/** @return whether both are in one group now. */
static inline bool
dfi_guard_same(struct dfi_guard *a, struct dfi_guard *b)
{
	return dfi_guard_root(a) == dfi_guard_root(b);
}

#endif /* _DFI_GUARD_H_ */
