/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Counters: values bumped atomically unless the threading model makes
 * plain adds safe, progress on read, spinning waits; the application's
 * writes issue the triggered operations they make due. */

#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include <rte_common.h>
#include <rte_pause.h>

#include "dfi.h"
#include "cntr.h"
#include "domain.h"
#include "stubs.h"
#include "waitset.h"

#define CNTR_SPINS_PER_YIELD	1024

static int cntr_close(struct fid *fid);
static int cntr_control(struct fid *fid, int command, void *arg);
static uint64_t cntr_read(struct fid_cntr *cntr);
static uint64_t cntr_readerr(struct fid_cntr *cntr);
static int cntr_add(struct fid_cntr *cntr, uint64_t value);
static int cntr_set(struct fid_cntr *cntr, uint64_t value);
static int cntr_wait(struct fid_cntr *cntr, uint64_t threshold, int timeout);
static int cntr_adderr(struct fid_cntr *cntr, uint64_t value);
static int cntr_seterr(struct fid_cntr *cntr, uint64_t value);

static struct fi_ops dfi_cntr_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = cntr_close,
	.bind = dfi_no_bind,
	.control = cntr_control,
	.ops_open = dfi_no_ops_open,
	.tostr = dfi_no_tostr,
	.ops_set = dfi_no_ops_set,
};

static struct fi_ops_cntr dfi_cntr_ops = {
	.size = sizeof(struct fi_ops_cntr),
	.read = cntr_read,
	.readerr = cntr_readerr,
	.add = cntr_add,
	.set = cntr_set,
	.wait = cntr_wait,
	.adderr = cntr_adderr,
	.seterr = cntr_seterr,
};

struct dfi_cntr *
dfi_cntr_from_fid(struct fid *fid)
{
	if (fid == NULL || fid->fclass != FI_CLASS_CNTR || fid->ops != &dfi_cntr_fi_ops)
		return NULL;
	return container_of(fid, struct dfi_cntr, cntr_fid.fid);
}

/* Counters are in the domain's group, with what binds to them (guard.h). */
static void
cntr_progress(struct dfi_cntr *cntr)
{
	dfi_guard_unlock(dfi_progress_lock_run(&cntr->progress, cntr->domain->guard, false));
}

static uint64_t
cntr_read(struct fid_cntr *cntr_fid)
{
	struct dfi_cntr *cntr = container_of(cntr_fid, struct dfi_cntr, cntr_fid);

	cntr_progress(cntr);
	return __atomic_load_n(&cntr->value, __ATOMIC_ACQUIRE);
}

static uint64_t
cntr_readerr(struct fid_cntr *cntr_fid)
{
	struct dfi_cntr *cntr = container_of(cntr_fid, struct dfi_cntr, cntr_fid);

	cntr_progress(cntr);
	return __atomic_load_n(&cntr->err, __ATOMIC_ACQUIRE);
}

int
dfi_cntr_changed(struct dfi_cntr *cntr, struct dfi_cntr_seen *seen, bool helper, bool take)
{
	struct dfi_guard *held = dfi_progress_lock_run(&cntr->progress, cntr->domain->guard,
						       helper);
	struct dfi_cntr_seen now;
	int ret;

	if (held == NULL)
		return -FI_EAGAIN;
	now.value = __atomic_load_n(&cntr->value, __ATOMIC_ACQUIRE);
	now.err = __atomic_load_n(&cntr->err, __ATOMIC_ACQUIRE);
	ret = now.value != seen->value || now.err != seen->err;
	if (take)
		*seen = now;
	dfi_guard_unlock(held);
	return ret;
}

/* What the application writes is no event: seen moves with it. */
static void
cntr_seen_write(struct dfi_cntr_seen *seen, bool err, uint64_t value, bool add)
{
	uint64_t *s = err ? &seen->err : &seen->value;

	*s = add ? *s + value : value;
}

/*
 * The application's writes to the value or, with err, the error value: under
 * the domain's guard, as the endpoints' are, so that a plain add never races
 * with one of theirs. A success value that reaches a triggered operation's
 * threshold issues it before the call returns.
 */
static int
cntr_write(struct fid_cntr *cntr_fid, bool err, uint64_t value, bool add)
{
	struct dfi_cntr *cntr = container_of(cntr_fid, struct dfi_cntr, cntr_fid);
	uint64_t *v = err ? &cntr->err : &cntr->value, now = value;
	struct dfi_guard *held = dfi_guard_lock(cntr->domain->guard);

	if (add)
		now = dfi_cntr_add_to(cntr, v, value);
	else
		__atomic_store_n(v, value, __ATOMIC_RELEASE);
	dfi_cntr_moved(cntr, err, now);
	/* the application's own writes are no news to its poll or wait sets */
	cntr_seen_write(&cntr->polled, err, value, add);
	cntr_seen_write(&cntr->waited, err, value, add);
	dfi_trig_progress(cntr->domain);
	dfi_guard_unlock(held);
	return 0;
}

static int
cntr_add(struct fid_cntr *cntr_fid, uint64_t value)
{
	return cntr_write(cntr_fid, false, value, true);
}

static int
cntr_set(struct fid_cntr *cntr_fid, uint64_t value)
{
	return cntr_write(cntr_fid, false, value, false);
}

static int
cntr_adderr(struct fid_cntr *cntr_fid, uint64_t value)
{
	return cntr_write(cntr_fid, true, value, true);
}

static int
cntr_seterr(struct fid_cntr *cntr_fid, uint64_t value)
{
	return cntr_write(cntr_fid, true, value, false);
}

static int
cntr_wait(struct fid_cntr *cntr_fid, uint64_t threshold, int timeout)
{
	struct dfi_cntr *cntr = container_of(cntr_fid, struct dfi_cntr, cntr_fid);
	int64_t deadline = timeout >= 0 ? dfi_now_ms() + timeout : INT64_MAX;
	uint64_t err = __atomic_load_n(&cntr->err, __ATOMIC_ACQUIRE);
	uint32_t spins = 0;

	if (cntr->wait_obj == FI_WAIT_NONE) {
		DFI_WARN(FI_LOG_CNTR, "fi_cntr_wait on a counter without wait object");
		return -FI_EINVAL;
	}
	for (;;) {
		if (cntr_read(cntr_fid) >= threshold)
			return 0;
		/* any change of the error count wakes the waiter */
		if (__atomic_load_n(&cntr->err, __ATOMIC_ACQUIRE) != err)
			return -FI_EAVAIL;
		if (dfi_now_ms() >= deadline)
			return -FI_ETIMEDOUT;
		if (cntr->wait_obj == FI_WAIT_YIELD || ++spins % CNTR_SPINS_PER_YIELD == 0)
			sched_yield();
		else
			rte_pause();
	}
}

static int
cntr_control(struct fid *fid, int command, void *arg)
{
	struct dfi_cntr *cntr = container_of(fid, struct dfi_cntr, cntr_fid.fid);

	if (arg == NULL)
		return -FI_EINVAL;
	switch (command) {
	case FI_GETOPSFLAG:
		*(uint64_t *)arg = cntr->ops_flags;
		return 0;
	case FI_SETOPSFLAG:
		cntr->ops_flags = *(uint64_t *)arg;
		return 0;
	default:
		return dfi_wait_control(command, arg, -1, cntr->wait_obj);
	}
}

int
dfi_cntr_attach(struct dfi_cntr *cntr, struct dfi_ep *ep)
{
	int ret = ep != NULL ? dfi_progress_add(&cntr->progress, cntr->domain->guard, ep) : 1;

	if (ret > 0)
		DFI_REF_GET(&cntr->refs);
	return ret < 0 ? ret : 0;
}

void
dfi_cntr_detach(struct dfi_cntr *cntr, struct dfi_ep *ep)
{
	if (ep == NULL || dfi_progress_del(&cntr->progress, cntr->domain->guard, ep))
		DFI_REF_PUT(&cntr->refs);
}

static int
cntr_close(struct fid *fid)
{
	struct dfi_cntr *cntr = container_of(fid, struct dfi_cntr, cntr_fid.fid);
	struct dfi_guard *held;
	int ret;

	if (DFI_REF_READ(&cntr->refs) != 0) {
		DFI_WARN(FI_LOG_CNTR, "counter still bound to %u objects",
			 DFI_REF_READ(&cntr->refs));
		return -FI_EBUSY;
	}
	/* fi_cntr(3): no resource may still be associated with it */
	held = dfi_guard_lock(cntr->domain->guard);
	ret = dfi_trig_cntr_close(cntr);
	dfi_guard_unlock(held);
	if (ret != 0)
		return ret;
	if (cntr->wait != NULL)
		dfi_wait_leave(cntr->wait, &cntr->cntr_fid.fid);
	dfi_domain_release(cntr->domain);
	dfi_progress_fini(&cntr->progress);
	free(cntr);
	return 0;
}

int
dfi_cntr_open(struct fid_domain *domain_fid, struct fi_cntr_attr *attr,
	      struct fid_cntr **cntr_fid, void *context)
{
	struct dfi_domain *domain = dfi_domain_from_fid(domain_fid);
	enum fi_wait_obj wait_obj = attr != NULL ? attr->wait_obj : FI_WAIT_NONE;
	struct dfi_cntr *cntr;
	int ret;

	if (domain == NULL || cntr_fid == NULL)
		return -FI_EINVAL;
	if (attr != NULL && (attr->events != FI_CNTR_EVENTS_COMP || attr->flags != 0))
		return attr->flags != 0 ? -FI_EBADFLAGS : -FI_EINVAL;
	switch (wait_obj) {
	case FI_WAIT_NONE:
	case FI_WAIT_UNSPEC:
	case FI_WAIT_YIELD:
	case FI_WAIT_SET:
		break;
	default:
		DFI_WARN(FI_LOG_CNTR,
			 "counter wait object %d not offered (NONE, UNSPEC, YIELD, SET)", wait_obj);
		return -FI_ENOSYS;
	}
	cntr = calloc(1, sizeof(*cntr));
	if (cntr == NULL)
		return -FI_ENOMEM;
	cntr->domain = domain;
	cntr->serial = domain->threading == FI_THREAD_DOMAIN ||
		       domain->threading == FI_THREAD_COMPLETION;
	cntr->wait_obj = wait_obj;
	dfi_trig_cntr_init(&cntr->trig);
	DFI_REF_INIT(&cntr->refs);
	cntr->cntr_fid.fid.fclass = FI_CLASS_CNTR;
	cntr->cntr_fid.fid.context = context;
	cntr->cntr_fid.fid.ops = &dfi_cntr_fi_ops;
	cntr->cntr_fid.ops = &dfi_cntr_ops;
	if (wait_obj == FI_WAIT_SET) {
		/* last: the set's thread may look at the counter from now on */
		ret = dfi_wait_join(attr->wait_set, domain->fabric, !domain->guard->locks,
				    &cntr->cntr_fid.fid, &cntr->wait);
		if (ret != 0) {
			free(cntr);
			return ret;
		}
	}
	dfi_domain_hold(domain);
	*cntr_fid = &cntr->cntr_fid;
	return 0;
}
