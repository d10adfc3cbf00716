/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Poll sets (fi_poll(3)): the CQs and counters of one domain that fi_poll()
 * progresses and reports in one call. Also the look at one CQ, counter or EQ
 * that poll sets and wait sets (waitset.h) share: progress its endpoints, then
 * tell whether it has something to read.
 */

#ifndef _DFI_POLLSET_H_
#define _DFI_POLLSET_H_

#include <pthread.h>
#include <stdint.h>

#include <rdma/fi_domain.h>
#include <rdma/fi_eq.h>

struct dfi_domain;

struct dfi_poll {
	struct fid_poll poll_fid;
	struct dfi_domain *domain;
	pthread_mutex_t lock;		/* the members */
	struct fid **fids;		/* CQs and counters, each holding a reference */
	uint32_t nb_fids;
	uint32_t next;			/* where the next fi_poll() starts looking */
};

/** Who looks at a member, and what a counter's change is measured against. */
enum dfi_look {
	DFI_LOOK_POLL,		/* fi_poll(): the counter's change is then seen */
	DFI_LOOK_WAIT,		/* fi_wait(), fi_trywait(): the same for the wait set */
	DFI_LOOK_HELPER,	/* a wait set's thread: never under a taken lock, sees nothing */
};

/**
 * Progresses the endpoints of a CQ, counter or EQ (EQs have none) and tells
 * whether it has something: a CQ entries or an error, an EQ events, a
 * counter a value or error count other than the one its poll sets or its
 * wait set last reported (fi_poll(3)).
 *
 * @return 1, 0, or -FI_EAGAIN when a helper found the guard taken.
 */
int dfi_poll_look(struct fid *fid, enum dfi_look how);

/** fi_poll_open() on one of our domains. */
int dfi_poll_open(struct fid_domain *domain, struct fi_poll_attr *attr,
		  struct fid_poll **pollset);

#endif /* _DFI_POLLSET_H_ */
