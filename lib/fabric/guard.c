/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Guards' life and joins (see guard.h). */

#include <stdlib.h>

#include <rdma/fi_errno.h>

#include "dfi.h"
#include "guard.h"

int
dfi_guard_new(bool locks, bool anchor, struct dfi_guard **guard)
{
	struct dfi_guard *g = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(*g));

	if (g == NULL)
		return -FI_ENOMEM;
	rte_spinlock_init(&g->lock);
	g->locks = locks;
	g->anchor = anchor;
	g->parent = NULL;
	__atomic_store_n(&g->refs, 1, __ATOMIC_RELAXED);
	*guard = g;
	return 0;
}

void
dfi_guard_get(struct dfi_guard *guard)
{
	DFI_REF_GET(&guard->refs);
}

void
dfi_guard_put(struct dfi_guard *g)
{
	struct dfi_guard *parent;

	/* no object reaches a guard without a reference: none walks through it */
	while (g != NULL && DFI_REF_PUT(&g->refs) == 1) {
		parent = g->parent;
		free(g);
		g = parent;
	}
}

void
dfi_guard_join(struct dfi_guard *a, struct dfi_guard *b)
{
	struct dfi_guard *ra, *rb, *first, *second;

	for (;;) {
		ra = dfi_guard_root(a);
		rb = dfi_guard_root(b);
		if (ra == rb)
			return;
		if (rb->anchor)
			RTE_SWAP(ra, rb);
		/* in address order: two joins never wait on each other */
		first = ra < rb ? ra : rb;
		second = ra < rb ? rb : ra;
		rte_spinlock_lock(&first->lock);
		rte_spinlock_lock(&second->lock);
		if (ra->parent == NULL && rb->parent == NULL)
			break;
		/* one was joined meanwhile: its group's root now */
		rte_spinlock_unlock(&second->lock);
		rte_spinlock_unlock(&first->lock);
	}
	DFI_REF_GET(&ra->refs);
	/* whoever waits on rb's lock finds the parent once it has it, and goes to ra */
	__atomic_store_n(&rb->parent, ra, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&second->lock);
	rte_spinlock_unlock(&first->lock);
}
