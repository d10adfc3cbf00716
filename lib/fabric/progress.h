/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Manual progress: the endpoints a CQ or counter drives when the application
 * reads or waits on it. The list changes under the guard of the CQ or
 * counter (guard.h), which the readers hold while they walk it.
 */

#ifndef _DFI_PROGRESS_H_
#define _DFI_PROGRESS_H_

#include <stdbool.h>
#include <stdint.h>

struct dfi_ep;
struct dfi_guard;

struct dfi_progress {
	struct dfi_ep **eps;
	uint32_t nb_eps;
};

/** @return 1 when ep was added, 0 when it was there already, -FI_ENOMEM. */
int dfi_progress_add(struct dfi_progress *p, struct dfi_guard *guard, struct dfi_ep *ep);

/** @return true when ep was there and is removed. */
bool dfi_progress_del(struct dfi_progress *p, struct dfi_guard *guard, struct dfi_ep *ep);

/** Progresses every endpoint; their guard is held. */
void dfi_progress_run(struct dfi_progress *p);

/**
 * Takes the guard and progresses every endpoint; the guard stays held for
 * the caller to look at what came. A provider thread (helper) only takes a
 * free lock, and never one where the application serialises.
 *
 * @return the guard held, for dfi_guard_unlock(), or NULL (helper: nothing done).
 */
struct dfi_guard *dfi_progress_lock_run(struct dfi_progress *p, struct dfi_guard *guard,
					bool helper);

/**
 * The watchdog's look at every endpoint (see watchdog.h); each one's guard is
 * held. @return whether one had been left alone by the application since the
 * look before (and was progressed).
 */
bool dfi_progress_rescue(struct dfi_progress *p);

void dfi_progress_fini(struct dfi_progress *p);

#endif /* _DFI_PROGRESS_H_ */
