/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Lists of endpoints to progress, for CQs and counters. */

#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "dfi.h"
#include "domain.h"
#include "ep_layer.h"
#include "progress.h"

int
dfi_progress_add(struct dfi_progress *p, struct dfi_domain *domain, struct dfi_ep *ep)
{
	struct dfi_ep **eps;
	uint32_t i, at;

	for (i = 0; i < p->nb_eps; i++) {
		if (p->eps[i] == ep)
			return 0;
	}
	eps = malloc(sizeof(*eps) * (p->nb_eps + 1));
	if (eps == NULL)
		return -FI_ENOMEM;
	dfi_domain_lock(domain);
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
	dfi_domain_unlock(domain);
	free(eps);
	return 1;
}

bool
dfi_progress_del(struct dfi_progress *p, struct dfi_domain *domain, struct dfi_ep *ep)
{
	bool found = false;
	uint32_t i;

	dfi_domain_lock(domain);
	for (i = 0; i < p->nb_eps && !found; i++)
		found = p->eps[i] == ep;
	if (found) {
		/* the rest keep their order (urgent first) */
		memmove(p->eps + i - 1, p->eps + i, sizeof(*p->eps) * (p->nb_eps - i));
		p->nb_eps--;
	}
	dfi_domain_unlock(domain);
	return found;
}

void
dfi_progress_run(struct dfi_progress *p)
{
	uint32_t i;

	for (i = 0; i < p->nb_eps; i++)
		dfi_ep_layer.progress(p->eps[i]);
}

int
dfi_progress_lock_run(struct dfi_progress *p, struct dfi_domain *domain, bool helper)
{
	if (!helper)
		dfi_domain_lock(domain);
	else if (!dfi_domain_trylock(domain))
		return -FI_EAGAIN;
	dfi_progress_run(p);
	return 0;
}

void
dfi_progress_rescue(struct dfi_progress *p)
{
	uint32_t i;

	for (i = 0; i < p->nb_eps; i++)
		dfi_ep_layer.rescue(p->eps[i]);
}

void
dfi_progress_fini(struct dfi_progress *p)
{
	free(p->eps);
	p->eps = NULL;
	p->nb_eps = 0;
}
