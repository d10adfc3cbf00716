/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Wait sets (see waitset.h): fi_wait_open(), fi_close(), FI_GETWAIT, fi_wait(),
 * the members that join and leave, fi_trywait() on a set, and the helper
 * thread that fi_trywait() arms.
 */

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>

#include "dfi.h"
#include "cntr.h"
#include "cq.h"
#include "eq.h"
#include "fabric.h"
#include "pollset.h"
#include "stubs.h"
#include "waitset.h"

static int wait_close(struct fid *fid);
static int wait_control(struct fid *fid, int command, void *arg);
static int wait_wait(struct fid_wait *waitset, int timeout);

static struct fi_ops dfi_wait_fi_ops = DFI_FI_OPS(wait_close, dfi_no_bind, wait_control);

static struct fi_ops_wait dfi_wait_ops = {
	.size = sizeof(struct fi_ops_wait),
	.wait = wait_wait,
};

static struct dfi_wait *
wait_from_fid(struct fid *fid)
{
	if (fid == NULL || fid->fclass != FI_CLASS_WAIT || fid->ops != &dfi_wait_fi_ops)
		return NULL;
	return container_of(fid, struct dfi_wait, wait_fid.fid);
}

struct dfi_wait *
dfi_wait_of(struct fid *fid)
{
	struct dfi_cntr *cntr = dfi_cntr_from_fid(fid);
	struct dfi_cq *cq = dfi_cq_from_fid(fid);
	struct dfi_eq *eq = dfi_eq_from_fid(fid);

	if (cq != NULL)
		return cq->wait;
	if (cntr != NULL)
		return cntr->wait;
	if (eq != NULL)
		return eq->wait;
	return wait_from_fid(fid);
}

void
dfi_wait_signal(struct dfi_wait *wait)
{
	uint64_t v = 1;

	/* the eventfd counter only adds up: a write never blocks short of 2^64 */
	if (write(wait->fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		DFI_WARN(FI_LOG_FABRIC, "cannot signal the wait set's fd: %s", strerror(errno));
}

/* Empties the eventfd before a look, so that it says what came after. */
static void
wait_clear(struct dfi_wait *wait)
{
	uint64_t v;
	ssize_t n = read(wait->fd, &v, sizeof(v));

	RTE_SET_USED(n);	/* -EAGAIN when it was clear */
}

/* @return 1 once a member has something, else 0; the lock is held. */
static int
wait_look(struct dfi_wait *wait, enum dfi_look how)
{
	uint32_t i;

	for (i = 0; i < wait->nb_members; i++) {
		if (dfi_poll_look(wait->members[i].fid, how) > 0)
			return 1;
	}
	return 0;
}

/* The helper: asleep until armed, then looks every DFI_WAIT_NAP_US until a
 * member has something, signals the fd and sleeps again. */
static void *
wait_helper(void *arg)
{
	struct dfi_wait *wait = arg;
	struct timespec nap = { .tv_nsec = DFI_WAIT_NAP_US * 1000L };

	pthread_mutex_lock(&wait->lock);
	while (!wait->stop) {
		if (!wait->armed) {
			pthread_cond_wait(&wait->cond, &wait->lock);
		} else if (wait_look(wait, DFI_LOOK_HELPER)) {
			dfi_wait_signal(wait);
			wait->armed = false;
		} else {
			pthread_mutex_unlock(&wait->lock);
			nanosleep(&nap, NULL);
			pthread_mutex_lock(&wait->lock);
		}
	}
	pthread_mutex_unlock(&wait->lock);
	return NULL;
}

/* Joins the helper, when it runs; for good: it is not started again. */
static void
wait_helper_stop(struct dfi_helper *entry)
{
	struct dfi_wait *wait = container_of(entry, struct dfi_wait, helper_entry);
	bool running;

	pthread_mutex_lock(&wait->lock);
	wait->stop = true;
	running = wait->helper_running;
	pthread_cond_signal(&wait->cond);
	pthread_mutex_unlock(&wait->lock);
	if (!running)
		return;
	pthread_join(wait->helper, NULL);
	pthread_mutex_lock(&wait->lock);
	wait->helper_running = false;
	pthread_mutex_unlock(&wait->lock);
}

/* Starts the helper the first time, and arms it; the lock is held. */
static int
wait_arm(struct dfi_wait *wait)
{
	int ret;

	/* stopped for good (the provider's cleanup): the caller polls */
	if (wait->stop)
		return -FI_EAGAIN;
	if (!wait->helper_running) {
		ret = pthread_create(&wait->helper, NULL, wait_helper, wait);
		if (ret != 0) {
			DFI_WARN(FI_LOG_FABRIC, "no wait set thread: %s", strerror(ret));
			return ret == ENOMEM ? -FI_ENOMEM : -FI_EAGAIN;
		}
		pthread_setname_np(wait->helper, "dfi-waitset");
		wait->helper_running = true;
	}
	wait->armed = true;
	pthread_cond_signal(&wait->cond);
	return 0;
}

int
dfi_wait_try(struct dfi_wait *wait)
{
	int ret;

	pthread_mutex_lock(&wait->lock);
	wait_clear(wait);
	if (wait_look(wait, DFI_LOOK_WAIT)) {
		ret = -FI_EAGAIN;
	} else if (wait->nb_unlocked > 0) {
		DFI_WARN_ONCE(FI_LOG_FABRIC, "fi_trywait: a wait set holds objects of an "
			      "FI_THREAD_DOMAIN domain, which only the application may progress: "
			      "blocking on its fd could hang (-FI_EAGAIN)");
		ret = -FI_EAGAIN;
	} else {
		ret = wait_arm(wait);
	}
	/* an application that does not block needs no helper */
	if (ret != 0)
		wait->armed = false;
	pthread_mutex_unlock(&wait->lock);
	return ret;
}

/*
 * fi_poll(3): returns 0 once a member has something, -FI_ETIMEDOUT when the
 * time is up. Manual progress: the members are progressed here between naps
 * on the fd, which EQ events and the helper cut short.
 */
static int
wait_wait(struct fid_wait *waitset, int timeout)
{
	struct dfi_wait *wait = container_of(waitset, struct dfi_wait, wait_fid);
	int64_t deadline = timeout >= 0 ? dfi_now_ns() + (int64_t)timeout * 1000000 : INT64_MAX;
	struct pollfd pfd = { .fd = wait->fd, .events = POLLIN };
	struct timespec nap = { 0 };
	int64_t left;
	int ready;

	for (;;) {
		pthread_mutex_lock(&wait->lock);
		wait_clear(wait);
		ready = wait_look(wait, DFI_LOOK_WAIT);
		pthread_mutex_unlock(&wait->lock);
		if (ready)
			return 0;
		left = deadline - dfi_now_ns();
		if (left <= 0)
			return -FI_ETIMEDOUT;
		nap.tv_nsec = (long)RTE_MIN(left, (int64_t)DFI_WAIT_NAP_US * 1000);
		if (ppoll(&pfd, 1, &nap, NULL) < 0 && errno == EINTR)
			return -FI_EINTR;
	}
}

static int
wait_control(struct fid *fid, int command, void *arg)
{
	struct dfi_wait *wait = container_of(fid, struct dfi_wait, wait_fid.fid);

	/* FI_WAIT_UNSPEC sets have the same fd */
	return dfi_wait_control(command, arg, wait->fd, FI_WAIT_FD);
}

int
dfi_wait_join(struct fid_wait *set, struct dfi_fabric *fabric, bool unlocked,
	      struct fid *member, struct dfi_wait **joined)
{
	struct dfi_wait *wait = set != NULL ? wait_from_fid(&set->fid) : NULL;
	struct dfi_wait_member *members;

	if (wait == NULL || wait->fabric != fabric) {
		DFI_WARN(FI_LOG_FABRIC, "FI_WAIT_SET: attr->wait_set must be a wait set of this "
			 "provider on the object's fabric");
		return -FI_EINVAL;
	}
	pthread_mutex_lock(&wait->lock);
	members = realloc(wait->members, sizeof(*members) * (wait->nb_members + 1));
	if (members == NULL) {
		pthread_mutex_unlock(&wait->lock);
		return -FI_ENOMEM;
	}
	members[wait->nb_members].fid = member;
	members[wait->nb_members].unlocked = unlocked;
	wait->members = members;
	wait->nb_members++;
	wait->nb_unlocked += unlocked;
	pthread_mutex_unlock(&wait->lock);
	*joined = wait;
	return 0;
}

void
dfi_wait_leave(struct dfi_wait *wait, struct fid *member)
{
	uint32_t i;

	pthread_mutex_lock(&wait->lock);
	for (i = 0; i < wait->nb_members; i++) {
		if (wait->members[i].fid == member) {
			wait->nb_unlocked -= wait->members[i].unlocked;
			wait->members[i] = wait->members[--wait->nb_members];
			break;
		}
	}
	pthread_mutex_unlock(&wait->lock);
}

static int
wait_close(struct fid *fid)
{
	struct dfi_wait *wait = container_of(fid, struct dfi_wait, wait_fid.fid);

	pthread_mutex_lock(&wait->lock);
	if (wait->nb_members != 0) {
		pthread_mutex_unlock(&wait->lock);
		DFI_WARN(FI_LOG_FABRIC, "wait set still has %u CQs, counters or EQs",
			 wait->nb_members);
		return -FI_EBUSY;
	}
	pthread_mutex_unlock(&wait->lock);
	dfi_helper_unlist(&wait->helper_entry);
	wait_helper_stop(&wait->helper_entry);
	close(wait->fd);
	pthread_cond_destroy(&wait->cond);
	pthread_mutex_destroy(&wait->lock);
	dfi_fabric_release(wait->fabric);
	free(wait->members);
	free(wait);
	return 0;
}

/* The wait objects of fi_poll(3): an eventfd serves FD and UNSPEC; the
 * others are not offered, and no wait set is made of anything else
 * (FI_WAIT_NONE, FI_WAIT_SET). */
static int
wait_obj_check(enum fi_wait_obj wait_obj)
{
	bool other = wait_obj == FI_WAIT_MUTEX_COND || wait_obj == FI_WAIT_YIELD ||
		     wait_obj == FI_WAIT_POLLFD;

	if (wait_obj == FI_WAIT_UNSPEC || wait_obj == FI_WAIT_FD)
		return 0;
	DFI_WARN(FI_LOG_FABRIC, "wait set wait object %d: %s (UNSPEC and FD are)", wait_obj,
		 other ? "not offered" : "not one of a wait set");
	return other ? -FI_ENOSYS : -FI_EINVAL;
}

int
dfi_wait_open(struct fid_fabric *fabric_fid, struct fi_wait_attr *attr, struct fid_wait **waitset)
{
	struct dfi_fabric *fabric = dfi_fabric_from_fid(fabric_fid);
	int ret = dfi_args_check(FI_LOG_FABRIC, "fi_wait_open",
				 fabric != NULL && attr != NULL && waitset != NULL,
				 attr != NULL ? attr->flags : 0);
	struct dfi_wait *wait;

	if (ret == 0)
		ret = wait_obj_check(attr->wait_obj);
	if (ret != 0)
		return ret;
	wait = calloc(1, sizeof(*wait));
	if (wait == NULL)
		return -FI_ENOMEM;
	wait->wait_fid.fid.fclass = FI_CLASS_WAIT;
	wait->wait_fid.fid.ops = &dfi_wait_fi_ops;
	wait->wait_fid.ops = &dfi_wait_ops;
	wait->fabric = fabric;
	wait->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (wait->fd < 0) {
		ret = -errno;
		DFI_WARN(FI_LOG_FABRIC, "fi_wait_open: no eventfd: %s", strerror(errno));
		goto err_free;
	}
	pthread_mutex_init(&wait->lock, NULL);
	pthread_cond_init(&wait->cond, NULL);
	dfi_helper_list(&wait->helper_entry, wait_helper_stop);
	dfi_fabric_hold(fabric);
	*waitset = &wait->wait_fid;
	return 0;

err_free:
	free(wait);
	return ret;
}
