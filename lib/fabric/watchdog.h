/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The safety net of manual progress. A reliable endpoint's last message can
 * only be sent again by its own process, and a process that goes on to wait
 * for something else (a control socket, a barrier outside libfabric, exit)
 * after its last fi_inject() would leave a lost packet lost and its peer
 * waiting forever. In a domain the application does not serialise itself
 * (not FI_THREAD_DOMAIN), a thread of the domain, asleep otherwise, looks
 * at its endpoints every DFI_WATCHDOG_US and progresses one, under its
 * guard (guard.h), when the application has not called into it since the
 * look before: its lost packets are sent again, and what its peers send is
 * taken in and acknowledged. It never waits for a guard, and never runs
 * while the application progresses the endpoint itself.
 *
 * The thread runs on the EAL's control cores (rte_ctrl_thread_create()),
 * those of no lcore: made with pthread_create(), it took the affinity of
 * the application's thread, the poller's lcore, and each look (a wakeup of
 * about 20 us in this project's VM) stopped that poller. On a host with no
 * core to spare a look still stops some poller, so the looks space out
 * while the application progresses every endpoint itself: each nap twice
 * the one before, up to FI_DPDK_WATCHDOG_MAX_US (8 ms), and 1 ms again at
 * the first look that finds an endpoint left alone. Where more threads are
 * runnable than the application has CPUs (FI_DPDK_WATCHDOG_CPUS), some of
 * its threads are off their CPU, the looks stand in for them, and they stay
 * every millisecond: spaced out there, they made test_sep's "split" (five
 * threads on two CPUs, lossy) twice as slow. The count is the fourth field
 * of /proc/loadavg, read after each look that found no endpoint alone.
 */

#ifndef _DFI_WATCHDOG_H_
#define _DFI_WATCHDOG_H_

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "helper.h"
#include "progress.h"

#define DFI_WATCHDOG_US		1000	/* the shortest nap, and the first */
#define DFI_WATCHDOG_MAX_US	8000	/* FI_DPDK_WATCHDOG_MAX_US's default */

struct dfi_domain;
struct dfi_ep;

struct dfi_watchdog {
	struct dfi_progress eps;	/* enabled endpoints, under list */
	struct dfi_guard *list;		/* eps' own lock, taken before theirs */
	pthread_t thread;
	bool running;			/* under list */
	uint32_t stop;
	uint32_t max_us;		/* the longest nap */
	uint32_t cpus;			/* the application's, for crowding */
	struct dfi_helper helper;	/* listed while the domain is open */
};

/**
 * The watchdog's list of a new domain, listed as a helper (helper.h), whose
 * stop may come from the provider's cleanup. @return 0, or -FI_ENOMEM.
 */
int dfi_watchdog_init(struct dfi_domain *domain);

/**
 * Puts an enabled endpoint whose type has a rescue in its domain's care,
 * starting the thread with the first one. Nothing is done for
 * FI_THREAD_DOMAIN domains.
 *
 * @return 0, or -FI_ENOMEM / -FI_EAGAIN when no thread could be started.
 */
int dfi_watchdog_add(struct dfi_domain *domain, struct dfi_ep *ep);

/** Takes an endpoint out of the domain's care (before it closes). */
void dfi_watchdog_del(struct dfi_domain *domain, struct dfi_ep *ep);

/** Stops the domain's thread, when it runs (domain close). */
void dfi_watchdog_fini(struct dfi_domain *domain);

#endif /* _DFI_WATCHDOG_H_ */
