/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Event queues. Control-path only, so a mutex guards everything and events
 * are allocated as they come. The eventfd counter is non-zero exactly while
 * something is waiting to be read (events, errors, or an overrun). Blocking
 * reads wait on it with nanosecond deadlines.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "dfi.h"
#include "eq.h"
#include "fabric.h"
#include "stubs.h"
#include "waitset.h"

#define EQ_DEFAULT_SIZE		1024
/* The largest event fi_eq_write() takes: a CM entry with connection data. */
#define EQ_MAX_ENTRY_LEN	4096

struct dfi_eq_event {
	TAILQ_ENTRY(dfi_eq_event) link;
	uint32_t event;
	size_t len;
	union {
		struct fi_eq_err_entry err;
		uint8_t data[0];
	};
	/* an error's err_data follows the union */
};

/* Where an error event keeps its err_data: after the entry. */
static uint8_t *
err_data_of(struct dfi_eq_event *ev)
{
	return (uint8_t *)(ev + 1);
}

static int eq_close(struct fid *fid);
static int eq_control(struct fid *fid, int command, void *arg);
static ssize_t eq_read(struct fid_eq *eq, uint32_t *event, void *buf, size_t len,
		       uint64_t flags);
static ssize_t eq_readerr(struct fid_eq *eq, struct fi_eq_err_entry *buf, uint64_t flags);
static ssize_t eq_write(struct fid_eq *eq, uint32_t event, const void *buf, size_t len,
			uint64_t flags);
static ssize_t eq_sread(struct fid_eq *eq, uint32_t *event, void *buf, size_t len,
			int timeout, uint64_t flags);
static const char *eq_strerror(struct fid_eq *eq, int prov_errno, const void *err_data,
			       char *buf, size_t len);

static struct fi_ops dfi_eq_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = eq_close,
	.bind = dfi_no_bind,
	.control = eq_control,
	.ops_open = dfi_no_ops_open,
	.tostr = dfi_no_tostr,
	.ops_set = dfi_no_ops_set,
};

static struct fi_ops_eq dfi_eq_ops = {
	.size = sizeof(struct fi_ops_eq),
	.read = eq_read,
	.readerr = eq_readerr,
	.write = eq_write,
	.sread = eq_sread,
	.strerror = eq_strerror,
};

struct dfi_eq *
dfi_eq_from_fid(struct fid *fid)
{
	if (fid == NULL || fid->fclass != FI_CLASS_EQ || fid->ops != &dfi_eq_fi_ops)
		return NULL;
	return container_of(fid, struct dfi_eq, eq_fid.fid);
}

/* Called with the lock held, after the waiting count changed. */
static void
eq_signal_update(struct dfi_eq *eq, bool was_waiting)
{
	bool waiting = eq->count > 0 || eq->overrun;
	uint64_t v = 1;
	ssize_t n;

	if (waiting == was_waiting)
		return;
	if (waiting && eq->wait != NULL)
		dfi_wait_signal(eq->wait);
	if (eq->fd < 0)
		return;
	/* eventfd never blocks here: the counter only goes 0 -> 1 -> 0 */
	n = waiting ? write(eq->fd, &v, sizeof(v)) : read(eq->fd, &v, sizeof(v));
	if (n != (ssize_t)sizeof(v))
		DFI_WARN(FI_LOG_EQ, "cannot %s the EQ's wait fd: %s",
			 waiting ? "signal" : "clear", n < 0 ? strerror(errno) : "short count");
}

static bool
eq_waiting(const struct dfi_eq *eq)
{
	return eq->count > 0 || eq->overrun;
}

/* Called with the lock held. */
static int
eq_enqueue(struct dfi_eq *eq, uint32_t event, const void *entry, size_t len,
	   const struct fi_eq_err_entry *err)
{
	struct dfi_eq_event *ev;
	bool was_waiting = eq_waiting(eq);

	ev = malloc(sizeof(*ev) + (err != NULL ? err->err_data_size : len));
	if (ev == NULL)
		return -FI_ENOMEM;
	ev->event = event;
	if (err != NULL) {
		ev->err = *err;
		if (err->err_data_size != 0)
			memcpy(err_data_of(ev), err->err_data, err->err_data_size);
		ev->err.err_data = err->err_data_size != 0 ? err_data_of(ev) : NULL;
		ev->len = sizeof(ev->err);
		TAILQ_INSERT_TAIL(&eq->errors, ev, link);
	} else {
		memcpy(ev->data, entry, len);
		ev->len = len;
		TAILQ_INSERT_TAIL(&eq->events, ev, link);
	}
	eq->count++;
	eq_signal_update(eq, was_waiting);
	return 0;
}

/* Called with the lock held. */
static void
eq_dequeue(struct dfi_eq *eq, struct dfi_eq_event *ev, bool error)
{
	bool was_waiting = eq_waiting(eq);

	if (error)
		TAILQ_REMOVE(&eq->errors, ev, link);
	else
		TAILQ_REMOVE(&eq->events, ev, link);
	free(ev);
	eq->count--;
	eq_signal_update(eq, was_waiting);
}

void
dfi_eq_post(struct dfi_eq *eq, uint32_t event, const void *entry, size_t len,
	    const struct fi_eq_err_entry *err)
{
	bool was_waiting;

	pthread_mutex_lock(&eq->lock);
	/* fi_eq(3): an overrun EQ reports no further events */
	if (!eq->overrun && eq_enqueue(eq, event, entry, len, err) != 0) {
		was_waiting = eq_waiting(eq);
		eq->overrun = true;
		eq_signal_update(eq, was_waiting);
		DFI_WARN(FI_LOG_EQ, "event queue overrun: out of memory, an event is lost");
	}
	pthread_mutex_unlock(&eq->lock);
}

void
dfi_eq_hold(struct dfi_eq *eq)
{
	DFI_REF_GET(&eq->refs);
}

void
dfi_eq_release(struct dfi_eq *eq)
{
	DFI_REF_PUT(&eq->refs);
}

void
dfi_eq_prog_add(struct dfi_eq *eq, struct dfi_eq_prog *prog)
{
	pthread_mutex_lock(&eq->prog_lock);
	TAILQ_INSERT_TAIL(&eq->progs, prog, link);
	pthread_mutex_unlock(&eq->prog_lock);
}

void
dfi_eq_prog_del(struct dfi_eq *eq, struct dfi_eq_prog *prog)
{
	pthread_mutex_lock(&eq->prog_lock);
	TAILQ_REMOVE(&eq->progs, prog, link);
	pthread_mutex_unlock(&eq->prog_lock);
}

/* A connection request nobody will read: its info and handle go with it. */
static void
eq_drop_connreq(struct fi_info *info)
{
	if (info == NULL)
		return;
	if (info->handle != NULL)
		fi_close(info->handle);
	fi_freeinfo(info);
}

void
dfi_eq_purge(struct dfi_eq *eq, const struct fid *fid)
{
	struct fi_info *reqs = NULL, *info;
	struct fi_eq_cm_entry *cm;
	struct dfi_eq_event *ev, *next;

	pthread_mutex_lock(&eq->lock);
	for (ev = TAILQ_FIRST(&eq->events); ev != NULL; ev = next) {
		next = TAILQ_NEXT(ev, link);
		if (ev->len < sizeof(fid) || *(const struct fid **)(void *)ev->data != fid)
			continue;
		if (ev->event == FI_CONNREQ && ev->len >= sizeof(*cm)) {
			/* freed once the lock is dropped: closing a handle takes
			 * the listeners' lock, which is held while posting here */
			cm = (struct fi_eq_cm_entry *)(void *)ev->data;
			if (cm->info != NULL) {
				cm->info->next = reqs;
				reqs = cm->info;
			}
		}
		eq_dequeue(eq, ev, false);
	}
	for (ev = TAILQ_FIRST(&eq->errors); ev != NULL; ev = next) {
		next = TAILQ_NEXT(ev, link);
		if (ev->err.fid == fid)
			eq_dequeue(eq, ev, true);
	}
	pthread_mutex_unlock(&eq->lock);
	while ((info = reqs) != NULL) {
		reqs = info->next;
		info->next = NULL;
		eq_drop_connreq(info);
	}
}

void
dfi_eq_progress(struct dfi_eq *eq)
{
	struct dfi_eq_prog *prog;

	pthread_mutex_lock(&eq->prog_lock);
	TAILQ_FOREACH(prog, &eq->progs, link)
		prog->fn(prog->arg);
	pthread_mutex_unlock(&eq->prog_lock);
}

bool
dfi_eq_pending(struct dfi_eq *eq)
{
	bool pending;

	pthread_mutex_lock(&eq->lock);
	pending = eq_waiting(eq);
	pthread_mutex_unlock(&eq->lock);
	return pending;
}

static ssize_t
eq_read(struct fid_eq *eq_fid, uint32_t *event, void *buf, size_t len, uint64_t flags)
{
	struct dfi_eq *eq = container_of(eq_fid, struct dfi_eq, eq_fid);
	struct dfi_eq_event *ev;
	ssize_t ret;

	if ((flags & ~FI_PEEK) != 0)
		return -FI_EBADFLAGS;
	if (buf == NULL && len != 0)
		return -FI_EINVAL;
	dfi_eq_progress(eq);
	pthread_mutex_lock(&eq->lock);
	ev = TAILQ_FIRST(&eq->events);
	if (!TAILQ_EMPTY(&eq->errors)) {
		ret = -FI_EAVAIL;
	} else if (ev == NULL) {
		/* After the last valid event an overrun EQ reports its error. */
		ret = eq->overrun ? -FI_EAVAIL : -FI_EAGAIN;
	} else if (len < ev->len) {
		ret = -FI_ETOOSMALL;
	} else {
		memcpy(buf, ev->data, ev->len);
		if (event != NULL)
			*event = ev->event;
		ret = (ssize_t)ev->len;
		if ((flags & FI_PEEK) == 0)
			eq_dequeue(eq, ev, false);
	}
	pthread_mutex_unlock(&eq->lock);
	return ret;
}

static ssize_t
eq_readerr(struct fid_eq *eq_fid, struct fi_eq_err_entry *buf, uint64_t flags)
{
	struct dfi_eq *eq = container_of(eq_fid, struct dfi_eq, eq_fid);
	uint32_t version = eq->fabric->fabric_fid.api_version;
	struct fi_eq_err_entry entry;
	struct dfi_eq_event *ev;
	size_t n;

	if ((flags & ~FI_PEEK) != 0) {
		DFI_WARN(FI_LOG_EQ, "fi_eq_readerr: flags 0x%" PRIx64 " not supported", flags);
		return -FI_EBADFLAGS;
	}
	if (buf == NULL) {
		DFI_WARN(FI_LOG_EQ, "fi_eq_readerr: buf NULL");
		return -FI_EINVAL;
	}
	pthread_mutex_lock(&eq->lock);
	ev = TAILQ_FIRST(&eq->errors);
	if (ev != NULL) {
		entry = ev->err;
	} else if (eq->overrun) {
		memset(&entry, 0, sizeof(entry));
		entry.fid = &eq->eq_fid.fid;
		entry.err = FI_EOVERRUN;
	} else {
		pthread_mutex_unlock(&eq->lock);
		return -FI_EAGAIN;
	}
	/*
	 * The error data (a rejection's CM data) goes to the application's
	 * buffer, cut to its size; without one, to a copy the EQ keeps until
	 * the next read of an error (fi_eq(3)).
	 */
	if (buf->err_data_size != 0) {
		if (entry.err_data_size > buf->err_data_size)
			entry.err_data_size = buf->err_data_size;
		if (entry.err_data_size != 0)
			memcpy(buf->err_data, entry.err_data, entry.err_data_size);
		entry.err_data = buf->err_data;
	} else if (entry.err_data_size != 0 && (flags & FI_PEEK) == 0) {
		free(eq->last_err_data);
		eq->last_err_data = malloc(entry.err_data_size);
		if (eq->last_err_data != NULL)
			memcpy(eq->last_err_data, entry.err_data, entry.err_data_size);
		else
			entry.err_data_size = 0;
		entry.err_data = eq->last_err_data;
	}
	/* Before 1.5 the entry ended with err_data: that much is written and
	 * counted, the caller's buffer being no larger. */
	n = version != 0 && version < FI_VERSION(1, 5) ?
	    offsetof(struct fi_eq_err_entry, err_data_size) : sizeof(entry);
	memcpy(buf, &entry, n);
	if (ev != NULL && (flags & FI_PEEK) == 0)
		eq_dequeue(eq, ev, true);
	pthread_mutex_unlock(&eq->lock);
	return (ssize_t)n;
}

static ssize_t
eq_write(struct fid_eq *eq_fid, uint32_t event, const void *buf, size_t len, uint64_t flags)
{
	struct dfi_eq *eq = container_of(eq_fid, struct dfi_eq, eq_fid);
	ssize_t ret;

	if ((eq->flags & FI_WRITE) == 0) {
		DFI_WARN(FI_LOG_EQ, "fi_eq_write on an EQ opened without FI_WRITE");
		return -FI_EINVAL;
	}
	if (flags != 0)
		return -FI_EBADFLAGS;
	if (buf == NULL || len == 0 || len > EQ_MAX_ENTRY_LEN)
		return -FI_EINVAL;
	pthread_mutex_lock(&eq->lock);
	if (eq->overrun)
		ret = -FI_EOVERRUN;
	else if (eq->count >= eq->size)
		ret = -FI_EAGAIN;
	else
		ret = eq_enqueue(eq, event, buf, len, NULL);
	pthread_mutex_unlock(&eq->lock);
	return ret == 0 ? (ssize_t)len : ret;
}

static ssize_t
eq_sread(struct fid_eq *eq_fid, uint32_t *event, void *buf, size_t len, int timeout,
	 uint64_t flags)
{
	struct dfi_eq *eq = container_of(eq_fid, struct dfi_eq, eq_fid);
	/* in ns, so that a wait is never cut short by a rounded clock */
	int64_t deadline = timeout >= 0 ? dfi_now_ns() + (int64_t)timeout * (NS_PER_S / MS_PER_S) :
			   INT64_MAX;
	struct pollfd pfd = { .fd = eq->fd, .events = POLLIN };
	struct timespec ts;
	int64_t left;
	ssize_t ret;

	if (eq->wait_obj == FI_WAIT_NONE) {
		DFI_WARN(FI_LOG_EQ, "fi_eq_sread on an EQ without wait object");
		return -FI_EINVAL;
	}
	for (;;) {
		/* eq_read() progresses the connections registered with us */
		ret = eq_read(eq_fid, event, buf, len, flags);
		if (ret != -FI_EAGAIN)
			return ret;
		left = deadline - dfi_now_ns();
		if (left <= 0)
			return -FI_EAGAIN;
		/* nothing but our progress makes a connection's events */
		if (eq->fd < 0 || !TAILQ_EMPTY(&eq->progs)) {
			sched_yield();
			continue;
		}
		ts.tv_sec = left / NS_PER_S;
		ts.tv_nsec = left % NS_PER_S;
		if (ppoll(&pfd, 1, timeout >= 0 ? &ts : NULL, NULL) < 0 && errno == EINTR)
			return -FI_EAGAIN;	/* signaled, as fi_eq(3) allows */
	}
}

static const char *
eq_strerror(struct fid_eq *eq_fid __rte_unused, int prov_errno,
	    const void *err_data __rte_unused, char *buf, size_t len)
{
	return dfi_strerror(prov_errno, buf, len);
}

static int
eq_control(struct fid *fid, int command, void *arg)
{
	struct dfi_eq *eq = container_of(fid, struct dfi_eq, eq_fid.fid);

	return dfi_wait_control(command, arg, eq->fd,
				eq->wait_obj == FI_WAIT_UNSPEC ? FI_WAIT_FD : eq->wait_obj);
}

static int
eq_close(struct fid *fid)
{
	struct dfi_eq *eq = container_of(fid, struct dfi_eq, eq_fid.fid);
	struct dfi_eq_event *ev;

	if (DFI_REF_READ(&eq->refs) != 0) {
		DFI_WARN(FI_LOG_EQ, "event queue still bound to %u objects",
			 DFI_REF_READ(&eq->refs));
		return -FI_EBUSY;
	}
	/* first: the set's thread may be looking at it */
	if (eq->wait != NULL)
		dfi_wait_leave(eq->wait, &eq->eq_fid.fid);
	while ((ev = TAILQ_FIRST(&eq->events)) != NULL) {
		TAILQ_REMOVE(&eq->events, ev, link);
		free(ev);
	}
	while ((ev = TAILQ_FIRST(&eq->errors)) != NULL) {
		TAILQ_REMOVE(&eq->errors, ev, link);
		free(ev);
	}
	if (eq->fd >= 0)
		close(eq->fd);
	free(eq->last_err_data);
	pthread_mutex_destroy(&eq->prog_lock);
	pthread_mutex_destroy(&eq->lock);
	dfi_fabric_release(eq->fabric);
	free(eq);
	return 0;
}

int
dfi_eq_open(struct fid_fabric *fabric_fid, struct fi_eq_attr *attr, struct fid_eq **eq_fid,
	    void *context)
{
	struct dfi_fabric *fabric = dfi_fabric_from_fid(fabric_fid);
	struct dfi_eq *eq;
	int ret;

	if (fabric == NULL || attr == NULL || eq_fid == NULL) {
		DFI_WARN(FI_LOG_EQ, "fi_eq_open: attr or eq NULL");
		return -FI_EINVAL;
	}
	if ((attr->flags & ~(FI_WRITE | FI_AFFINITY)) != 0) {
		DFI_WARN(FI_LOG_EQ, "fi_eq_open: flags 0x%" PRIx64 " not supported", attr->flags);
		return -FI_EBADFLAGS;
	}
	switch (attr->wait_obj) {
	case FI_WAIT_NONE:
	case FI_WAIT_UNSPEC:
	case FI_WAIT_FD:
	case FI_WAIT_YIELD:
	case FI_WAIT_SET:
		break;
	default:
		DFI_WARN(FI_LOG_EQ, "EQ wait object %d not offered (NONE, UNSPEC, FD, YIELD, SET)",
			 attr->wait_obj);
		return -FI_ENOSYS;
	}

	eq = calloc(1, sizeof(*eq));
	if (eq == NULL)
		return -FI_ENOMEM;
	eq->fd = -1;
	if (attr->wait_obj == FI_WAIT_FD || attr->wait_obj == FI_WAIT_UNSPEC) {
		eq->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (eq->fd < 0) {
			free(eq);
			return -errno;
		}
	}
	pthread_mutex_init(&eq->lock, NULL);
	pthread_mutex_init(&eq->prog_lock, NULL);
	TAILQ_INIT(&eq->progs);
	TAILQ_INIT(&eq->events);
	TAILQ_INIT(&eq->errors);
	/* 0 asks for the provider's default */
	eq->size = attr->size != 0 ? attr->size : EQ_DEFAULT_SIZE;
	eq->flags = attr->flags;
	eq->wait_obj = attr->wait_obj;
	eq->fabric = fabric;
	DFI_REF_INIT(&eq->refs);
	eq->eq_fid.fid.fclass = FI_CLASS_EQ;
	eq->eq_fid.fid.context = context;
	eq->eq_fid.fid.ops = &dfi_eq_fi_ops;
	eq->eq_fid.ops = &dfi_eq_ops;
	if (attr->wait_obj == FI_WAIT_SET) {
		ret = dfi_wait_join(attr->wait_set, fabric, false, &eq->eq_fid.fid, &eq->wait);
		if (ret != 0)
			goto err_free;
	}
	dfi_fabric_hold(fabric);
	*eq_fid = &eq->eq_fid;
	return 0;

err_free:
	pthread_mutex_destroy(&eq->prog_lock);
	pthread_mutex_destroy(&eq->lock);
	free(eq);
	return ret;
}
