/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Lists of endpoints to progress, for CQs and counters. */

#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "dfi.h"
#include "guard.h"
#include "ep_layer.h"
#include "progress.h"

int
dfi_progress_add(struct dfi_progress *p, struct dfi_guard *guard, struct dfi_ep *ep)
{
	struct dfi_guard *held;
	struct dfi_ep **eps;
	uint32_t i, at;

	for (i = 0; i < p->nb_eps; i++) {
		if (p->eps[i] == ep)
			return 0;
	}
	eps = malloc(sizeof(*eps) * (p->nb_eps + 1));
	if (eps == NULL)
		return -FI_ENOMEM;
	held = dfi_guard_lock(guard);
	/* urgent endpoints first, so that their frames leave before the others'
	 * in every pass; each after the last of its kind */
	at = p->nb_eps;
	if (dfi_ep_layer.urgent(ep))
		for (at = 0; at < p->nb_eps && dfi_ep_layer.urgent(p->eps[at]); at++)
			;
	if (p->nb_eps > 0) {
		memcpy(eps, p->eps, sizeof(*eps) * at);
		memcpy(eps + at + 1, p->eps + at, sizeof(*eps) * (p->nb_eps - at));
	}
	eps[at] = ep;
	RTE_SWAP(eps, p->eps);
	p->nb_eps++;
	dfi_guard_unlock(held);
	free(eps);
	return 1;
}

bool
dfi_progress_del(struct dfi_progress *p, struct dfi_guard *guard, struct dfi_ep *ep)
{
	struct dfi_guard *held = dfi_guard_lock(guard);
	bool found = false;
	uint32_t i;

	for (i = 0; i < p->nb_eps && !found; i++)
		found = p->eps[i] == ep;
	if (found) {
		/* the rest keep their order (urgent first) */
		memmove(p->eps + i - 1, p->eps + i, sizeof(*p->eps) * (p->nb_eps - i));
		p->nb_eps--;
	}
	dfi_guard_unlock(held);
	return found;
}

void
dfi_progress_run(struct dfi_progress *p)
{
	uint32_t i;

	for (i = 0; i < p->nb_eps; i++)
		dfi_ep_layer.progress(p->eps[i]);
}

struct dfi_guard *
dfi_progress_lock_run(struct dfi_progress *p, struct dfi_guard *guard, bool helper)
{
	struct dfi_guard *held = helper ? dfi_guard_trylock(guard) : dfi_guard_lock(guard);

	if (held != NULL)
		dfi_progress_run(p);
	return held;
}

bool
dfi_progress_rescue(struct dfi_progress *p)
{
	bool alone = false;
	uint32_t i;

	for (i = 0; i < p->nb_eps; i++)
		alone |= dfi_ep_layer.rescue(p->eps[i]);
	return alone;
}

void
dfi_progress_fini(struct dfi_progress *p)
{
	free(p->eps);
	p->eps = NULL;
	p->nb_eps = 0;
}
