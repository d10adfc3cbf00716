/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The provider's own threads that progress endpoints: a domain's watchdog
 * (watchdog.h) and a wait set's helper (waitset.h). A program that exits
 * with them running (its objects left open, as exit() allows) has
 * libfabric's destructor call the provider's cleanup while they still run,
 * and the cleanup frees the ports they poll: each owner (a domain, a wait
 * set) is listed here from its open to its close, and the cleanup stops
 * every listed owner's thread first.
 */

#ifndef _DFI_HELPER_H_
#define _DFI_HELPER_H_

#include <stdbool.h>
#include <sys/queue.h>

struct dfi_helper;

/** Stops and joins the owner's thread when it runs; that thread never lists or unlists. */
typedef void (*dfi_helper_stop_t)(struct dfi_helper *helper);

struct dfi_helper {
	TAILQ_ENTRY(dfi_helper) next;
	dfi_helper_stop_t stop;
	bool listed;
};

/** Lists a helper as its owner opens, before its thread may start. */
void dfi_helper_list(struct dfi_helper *helper, dfi_helper_stop_t stop);

/**
 * Takes a helper off the list before its owner stops it (a close); after a
 * stop by dfi_helpers_stop(), which may have run meanwhile, it is off already.
 */
void dfi_helper_unlist(struct dfi_helper *helper);

/** Stops every listed helper (the provider's cleanup). */
void dfi_helpers_stop(void);

#endif /* _DFI_HELPER_H_ */
