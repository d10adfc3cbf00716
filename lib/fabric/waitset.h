/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Wait sets (fi_poll(3)): fi_wait_open(), fi_wait(), FI_GETWAIT, fi_trywait()
 * on a set, and the CQs, counters and EQs opened with FI_WAIT_SET that join
 * one. The set's wait object is an eventfd. Under manual progress nothing
 * arrives while nobody polls the port, so:
 *   - fi_wait() progresses the members' endpoints itself, and naps on the
 *     eventfd DFI_WAIT_NAP_US at a time between looks;
 *   - fi_trywait() that returns 0 arms the set's helper thread (started the
 *     first time), which progresses the members every DFI_WAIT_NAP_US under
 *     the guard, when free, as the watchdog does, makes the eventfd
 *     readable once one of them has something, and parks again. An
 *     application asleep in poll() or epoll on the fd is thus woken.
 * EQ events signal the eventfd as they are queued.
 */

#ifndef _DFI_WAITSET_H_
#define _DFI_WAITSET_H_

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rdma/fabric.h>
#include <rdma/fi_eq.h>

#include "helper.h"

#define DFI_WAIT_NAP_US		100

struct dfi_fabric;

struct dfi_wait_member {
	struct fid *fid;		/* CQ, counter or EQ */
	bool unlocked;			/* of an FI_THREAD_DOMAIN domain */
};

struct dfi_wait {
	struct fid_wait wait_fid;
	struct dfi_fabric *fabric;
	int fd;				/* eventfd: readable when a member may have something */
	pthread_mutex_t lock;		/* the members and the helper's state */
	pthread_cond_t cond;		/* wakes the parked helper */
	struct dfi_wait_member *members;
	uint32_t nb_members;
	uint32_t nb_unlocked;		/* members no provider thread may progress */
	pthread_t helper;
	bool helper_running;
	bool armed;			/* fi_trywait() returned 0: the helper watches */
	bool stop;
	struct dfi_helper helper_entry;	/* listed while the set is open (helper.h) */
};

/** fi_wait_open() on one of our fabrics. */
int dfi_wait_open(struct fid_fabric *fabric, struct fi_wait_attr *attr, struct fid_wait **waitset);

/**
 * Joins a CQ, counter or EQ opening with FI_WAIT_SET to the set its attr
 * names: fully set up, the member may be looked at by the set's thread at
 * once. unlocked: it belongs to an FI_THREAD_DOMAIN domain.
 *
 * @return 0 with *wait set, -FI_EINVAL (not a set of ours on fabric; logged),
 *   -FI_ENOMEM.
 */
int dfi_wait_join(struct fid_wait *set, struct dfi_fabric *fabric, bool unlocked,
		  struct fid *member, struct dfi_wait **wait);

/** Takes a closing member out of its set. */
void dfi_wait_leave(struct dfi_wait *wait, struct fid *member);

/** Makes the set's fd readable (an EQ member got events). */
void dfi_wait_signal(struct dfi_wait *wait);

/** @return the wait set fid is, or the one it joined; NULL for anything else. */
struct dfi_wait *dfi_wait_of(struct fid *fid);

/**
 * fi_trywait() on a set: progresses its members and @return -FI_EAGAIN when
 * one has something (or when a member of an FI_THREAD_DOMAIN domain, which no
 * provider thread may progress, makes blocking unsafe), or 0 with the helper
 * armed. Other errors: the helper could not start.
 */
int dfi_wait_try(struct dfi_wait *wait);

#endif /* _DFI_WAITSET_H_ */
