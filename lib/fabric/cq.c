/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Completion queues: reads progress the bound endpoints, then copy out the
 * prefix of each slot the application's format asks for. Waits spin on the
 * progress, yielding the CPU as FI_WAIT_YIELD does (an fd would need a
 * provider thread to poll the port: only wait sets have one, see waitset.h).
 */

#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_pause.h>

#include "dfi.h"
#include "cq.h"
#include "domain.h"
#include "stubs.h"
#include "waitset.h"

#define CQ_DEFAULT_SIZE		1024
#define CQ_MAX_SIZE		(1u << 20)
/* Spins between yields while waiting on an FI_WAIT_UNSPEC CQ. */
#define CQ_SPINS_PER_YIELD	1024

static int cq_close(struct fid *fid);
static int cq_control(struct fid *fid, int command, void *arg);
static ssize_t cq_read(struct fid_cq *cq, void *buf, size_t count);
static ssize_t cq_readfrom(struct fid_cq *cq, void *buf, size_t count, fi_addr_t *src_addr);
static ssize_t cq_readerr(struct fid_cq *cq, struct fi_cq_err_entry *buf, uint64_t flags);
static ssize_t cq_sread(struct fid_cq *cq, void *buf, size_t count, const void *cond,
			int timeout);
static ssize_t cq_sreadfrom(struct fid_cq *cq, void *buf, size_t count, fi_addr_t *src_addr,
			    const void *cond, int timeout);
static int cq_signal(struct fid_cq *cq);
static const char *cq_strerror(struct fid_cq *cq, int prov_errno, const void *err_data,
			       char *buf, size_t len);

static struct fi_ops dfi_cq_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = cq_close,
	.bind = dfi_no_bind,
	.control = cq_control,
	.ops_open = dfi_no_ops_open,
	.tostr = dfi_no_tostr,
	.ops_set = dfi_no_ops_set,
};

static struct fi_ops_cq dfi_cq_ops = {
	.size = sizeof(struct fi_ops_cq),
	.read = cq_read,
	.readfrom = cq_readfrom,
	.readerr = cq_readerr,
	.sread = cq_sread,
	.sreadfrom = cq_sreadfrom,
	.signal = cq_signal,
	.strerror = cq_strerror,
};

struct dfi_cq *
dfi_cq_from_fid(struct fid *fid)
{
	if (fid == NULL || fid->fclass != FI_CLASS_CQ || fid->ops != &dfi_cq_fi_ops)
		return NULL;
	return container_of(fid, struct dfi_cq, cq_fid.fid);
}

static void
slot_fill_err(struct dfi_cq_slot *slot, void *context, uint64_t flags, size_t len, void *buf,
	      uint64_t data, uint64_t tag, size_t olen, int err, fi_addr_t src)
{
	dfi_cq_slot_fill(slot, context, flags, len, buf, data, tag, src);
	slot->olen = olen;
	slot->err = err;
}

void
dfi_cq_write_err(struct dfi_cq *cq, void *context, uint64_t flags, size_t len, void *buf,
		 uint64_t data, uint64_t tag, size_t olen, int err, fi_addr_t src)
{
	struct dfi_cq_slot *slot = dfi_cq_next(cq);

	if (slot == NULL)
		return;
	slot_fill_err(slot, context, flags, len, buf, data, tag, olen, err, src);
	cq->tail++;
}

void
dfi_cq_write_err_unreserved(struct dfi_cq *cq, void *context, uint64_t flags, int err)
{
	struct dfi_cq_spill *s;

	/* behind what waits aside already, to keep the order */
	if (cq->spill == NULL && dfi_cq_room(cq) > 0) {
		dfi_cq_write_err(cq, context, flags, 0, NULL, 0, 0, 0, err, FI_ADDR_NOTAVAIL);
		return;
	}
	/* a failure, not the fast path: worth an allocation rather than a loss */
	s = malloc(sizeof(*s));
	if (s == NULL) {
		DFI_WARN(FI_LOG_CQ, "CQ overrun: no memory to keep an error completion (%s)",
			 fi_strerror(err));
		cq->overrun = true;
		return;
	}
	s->next = NULL;
	slot_fill_err(&s->slot, context, flags, 0, NULL, 0, 0, 0, err, FI_ADDR_NOTAVAIL);
	*cq->spill_tail = s;
	cq->spill_tail = &s->next;
}

/* The formats are prefixes of fi_cq_tagged_entry: constant sizes copy inline. */
static inline void
cq_entry_copy(void *out, const struct fi_cq_tagged_entry *e, size_t size)
{
	switch (size) {
	case sizeof(struct fi_cq_entry):
		memcpy(out, e, sizeof(struct fi_cq_entry));
		break;
	case sizeof(struct fi_cq_msg_entry):
		memcpy(out, e, sizeof(struct fi_cq_msg_entry));
		break;
	case sizeof(struct fi_cq_data_entry):
		memcpy(out, e, sizeof(struct fi_cq_data_entry));
		break;
	default:
		memcpy(out, e, sizeof(struct fi_cq_tagged_entry));
		break;
	}
}

/* Whether an error (or the overrun) is next: reads stop there. The errors
 * kept aside come after the ring's entries. */
static inline bool
cq_err_next(const struct dfi_cq *cq)
{
	return cq->head != cq->tail ? cq->ring[cq->head & cq->mask].err != 0 :
	       cq->spill != NULL || cq->overrun;
}

/*
 * Progresses the bound endpoints, then reads up to count completions if at
 * least min are queued or an error is next (min > 1 for a threshold wait).
 * @return the number read, -FI_EAVAIL when an error is next, or -FI_EAGAIN.
 */
static __rte_always_inline ssize_t
cq_take(struct dfi_cq *cq, void *buf, size_t count, fi_addr_t *src_addr, uint32_t min)
{
	const struct dfi_cq_slot *slot;
	struct dfi_guard *held;
	uint8_t *out = buf;
	size_t n = 0;

	if (unlikely(buf == NULL && count != 0))
		return -FI_EINVAL;
	held = dfi_progress_lock_run(&cq->progress, cq->guard, false);
	if (unlikely(min > 1 && cq->tail - cq->head < min && !cq_err_next(cq))) {
		dfi_guard_unlock(held);
		return -FI_EAGAIN;
	}
	while (n < count && cq->head != cq->tail) {
		slot = &cq->ring[cq->head & cq->mask];
		if (slot->err != 0)
			break;
		cq_entry_copy(out, &slot->e, cq->entry_size);
		out += cq->entry_size;
		if (src_addr != NULL)
			src_addr[n] = slot->src;
		cq->head++;
		n++;
	}
	if (n == 0 && count != 0)
		n = (size_t)(cq_err_next(cq) ? -FI_EAVAIL : -FI_EAGAIN);
	dfi_guard_unlock(held);
	return (ssize_t)n;
}

int
dfi_cq_ready(struct dfi_cq *cq, bool helper)
{
	struct dfi_guard *held = dfi_progress_lock_run(&cq->progress, cq->guard, helper);
	int ret;

	if (held == NULL)
		return -FI_EAGAIN;
	ret = cq->head != cq->tail || cq_err_next(cq);
	dfi_guard_unlock(held);
	return ret;
}

static ssize_t
cq_readfrom(struct fid_cq *cq_fid, void *buf, size_t count, fi_addr_t *src_addr)
{
	return cq_take(container_of(cq_fid, struct dfi_cq, cq_fid), buf, count, src_addr, 1);
}

static ssize_t
cq_read(struct fid_cq *cq, void *buf, size_t count)
{
	return cq_readfrom(cq, buf, count, NULL);
}

/* An error's slot as fi_cq_readerr() gives it; prov_errno for fi_cq_strerror(). */
static void
slot_err_entry(const struct dfi_cq_slot *slot, struct fi_cq_err_entry *e)
{
	RTE_BUILD_BUG_ON(offsetof(struct fi_cq_err_entry, olen) != sizeof(slot->e));
	memset(e, 0, sizeof(*e));
	memcpy(e, &slot->e, sizeof(slot->e));
	e->olen = slot->olen;
	e->err = slot->err;
	e->prov_errno = slot->err;
}

static ssize_t
cq_readerr(struct fid_cq *cq_fid, struct fi_cq_err_entry *buf, uint64_t flags)
{
	struct dfi_cq *cq = container_of(cq_fid, struct dfi_cq, cq_fid);
	struct fi_cq_err_entry entry;
	struct dfi_cq_spill *spill;
	struct dfi_cq_slot *slot;
	struct dfi_guard *held;
	uint32_t version = cq->domain->fabric->fabric_fid.api_version;

	if (flags != 0)
		return -FI_EBADFLAGS;
	if (buf == NULL)
		return -FI_EINVAL;
	/* a read like the others: the error may still wait in the port */
	held = dfi_progress_lock_run(&cq->progress, cq->guard, false);
	slot = cq->head != cq->tail ? &cq->ring[cq->head & cq->mask] : NULL;
	if (slot != NULL && slot->err != 0) {
		slot_err_entry(slot, &entry);
		cq->head++;
	} else if (slot == NULL && cq->spill != NULL) {
		spill = cq->spill;
		slot_err_entry(&spill->slot, &entry);
		cq->spill = spill->next;
		if (cq->spill == NULL)
			cq->spill_tail = &cq->spill;
		free(spill);
	} else if (slot == NULL && cq->overrun) {
		memset(&entry, 0, sizeof(entry));
		entry.err = FI_EOVERRUN;
		entry.prov_errno = FI_EOVERRUN;
	} else {
		dfi_guard_unlock(held);
		return -FI_EAGAIN;
	}
	dfi_guard_unlock(held);
	/* no provider error data: an application buffer is left empty */
	entry.err_data = buf->err_data_size != 0 ? buf->err_data : NULL;
	entry.err_data_size = 0;
	memcpy(buf, &entry, version != 0 && version < FI_VERSION(1, 5) ?
	       offsetof(struct fi_cq_err_entry, err_data_size) : sizeof(entry));
	return 1;
}

/*
 * fi_cq(3): returns with completions, an error, or -FI_EAGAIN once the time
 * is up or a signal came while nothing is ready. A signal is consumed only
 * by the wait it ends, so that it hides no completion.
 */
static ssize_t
cq_sreadfrom(struct fid_cq *cq_fid, void *buf, size_t count, fi_addr_t *src_addr,
	     const void *cond, int timeout)
{
	struct dfi_cq *cq = container_of(cq_fid, struct dfi_cq, cq_fid);
	int64_t deadline = timeout >= 0 ? dfi_now_ms() + timeout : INT64_MAX;
	size_t threshold = 1;
	uint32_t spins = 0;
	ssize_t ret;
	bool last;

	if (cq->wait_obj == FI_WAIT_NONE) {
		DFI_WARN(FI_LOG_CQ, "fi_cq_sread on a CQ without wait object");
		return -FI_EINVAL;
	}
	/* a threshold no read could meet is the most a read can take */
	if (cq->wait_cond == FI_CQ_COND_THRESHOLD && cond != NULL)
		threshold = RTE_MIN(*(const size_t *)cond, RTE_MIN(count, (size_t)cq->mask + 1));
	for (;;) {
		/* the last look takes whatever there is */
		last = __atomic_load_n(&cq->signaled, __ATOMIC_ACQUIRE) != 0 ||
		       dfi_now_ms() >= deadline;
		ret = cq_take(cq, buf, count, src_addr, last ? 1 : (uint32_t)threshold);
		if (ret != -FI_EAGAIN)
			return ret;
		if (last) {
			__atomic_store_n(&cq->signaled, 0, __ATOMIC_RELEASE);
			return -FI_EAGAIN;
		}
		if (cq->wait_obj == FI_WAIT_YIELD || ++spins % CQ_SPINS_PER_YIELD == 0)
			sched_yield();
		else
			rte_pause();
	}
}

static ssize_t
cq_sread(struct fid_cq *cq, void *buf, size_t count, const void *cond, int timeout)
{
	return cq_sreadfrom(cq, buf, count, NULL, cond, timeout);
}

static int
cq_signal(struct fid_cq *cq_fid)
{
	struct dfi_cq *cq = container_of(cq_fid, struct dfi_cq, cq_fid);

	if (cq->wait_obj == FI_WAIT_NONE)
		return -FI_EINVAL;
	__atomic_store_n(&cq->signaled, 1, __ATOMIC_RELEASE);
	return 0;
}

static const char *
cq_strerror(struct fid_cq *cq __rte_unused, int prov_errno, const void *err_data __rte_unused,
	    char *buf, size_t len)
{
	return dfi_strerror(prov_errno, buf, len);
}

static int
cq_control(struct fid *fid, int command, void *arg)
{
	struct dfi_cq *cq = container_of(fid, struct dfi_cq, cq_fid.fid);

	/* no file descriptor: completions appear only when polled */
	return dfi_wait_control(command, arg, -1, cq->wait_obj);
}

int
dfi_cq_attach_ep(struct dfi_cq *cq, struct dfi_ep *ep)
{
	int ret = dfi_progress_add(&cq->progress, cq->guard, ep);

	if (ret > 0)
		DFI_REF_GET(&cq->refs);
	return ret < 0 ? ret : 0;
}

void
dfi_cq_detach_ep(struct dfi_cq *cq, struct dfi_ep *ep)
{
	if (dfi_progress_del(&cq->progress, cq->guard, ep))
		DFI_REF_PUT(&cq->refs);
}

static int
cq_close(struct fid *fid)
{
	struct dfi_cq *cq = container_of(fid, struct dfi_cq, cq_fid.fid);

	if (DFI_REF_READ(&cq->refs) != 0) {
		DFI_WARN(FI_LOG_CQ, "CQ still bound to %u endpoints or poll sets",
			 DFI_REF_READ(&cq->refs));
		return -FI_EBUSY;
	}
	if (cq->wait != NULL)
		dfi_wait_leave(cq->wait, &cq->cq_fid.fid);
	dfi_domain_release(cq->domain);
	dfi_progress_fini(&cq->progress);
	dfi_guard_put(cq->guard);
	while (cq->spill != NULL) {
		struct dfi_cq_spill *next = cq->spill->next;

		free(cq->spill);
		cq->spill = next;
	}
	free(cq->ring);
	free(cq);
	return 0;
}

static size_t
format_size(enum fi_cq_format format)
{
	switch (format) {
	case FI_CQ_FORMAT_UNSPEC:
	case FI_CQ_FORMAT_CONTEXT:
		return sizeof(struct fi_cq_entry);
	case FI_CQ_FORMAT_MSG:
		return sizeof(struct fi_cq_msg_entry);
	case FI_CQ_FORMAT_DATA:
		return sizeof(struct fi_cq_data_entry);
	case FI_CQ_FORMAT_TAGGED:
		return sizeof(struct fi_cq_tagged_entry);
	default:
		return 0;
	}
}

int
dfi_cq_open(struct fid_domain *domain_fid, struct fi_cq_attr *attr, struct fid_cq **cq_fid,
	    void *context)
{
	struct dfi_domain *domain = dfi_domain_from_fid(domain_fid);
	struct dfi_cq *cq;
	uint32_t size;
	int ret;

	if (domain == NULL || attr == NULL || cq_fid == NULL || format_size(attr->format) == 0)
		return -FI_EINVAL;
	if ((attr->flags & ~FI_AFFINITY) != 0)
		return -FI_EBADFLAGS;
	if (attr->size > CQ_MAX_SIZE || attr->wait_cond > FI_CQ_COND_THRESHOLD)
		return -FI_EINVAL;
	switch (attr->wait_obj) {
	case FI_WAIT_NONE:
	case FI_WAIT_UNSPEC:
	case FI_WAIT_YIELD:
	case FI_WAIT_SET:
		break;
	default:
		/* An FD or condition variable of its own would need a thread
		 * of the provider to poll the port and signal it: a wait
		 * set has one. */
		DFI_WARN(FI_LOG_CQ, "CQ wait object %d not offered (NONE, UNSPEC, YIELD, SET)",
			 attr->wait_obj);
		return -FI_ENOSYS;
	}
	size = rte_align32pow2(attr->size != 0 ? (uint32_t)attr->size : CQ_DEFAULT_SIZE);
	cq = calloc(1, sizeof(*cq));
	if (cq == NULL)
		return -FI_ENOMEM;
	/* a slot a line, on lines of their own */
	RTE_BUILD_BUG_ON(sizeof(*cq->ring) != RTE_CACHE_LINE_SIZE);
	cq->ring = aligned_alloc(RTE_CACHE_LINE_SIZE, size * sizeof(*cq->ring));
	if (cq->ring == NULL) {
		ret = -FI_ENOMEM;
		goto err_free;
	}
	memset(cq->ring, 0, size * sizeof(*cq->ring));
	ret = dfi_domain_guard(domain, &cq->guard);
	if (ret != 0)
		goto err_free;
	cq->mask = size - 1;
	cq->spill_tail = &cq->spill;
	cq->format = attr->format == FI_CQ_FORMAT_UNSPEC ? FI_CQ_FORMAT_CONTEXT : attr->format;
	cq->entry_size = format_size(cq->format);
	cq->wait_obj = attr->wait_obj;
	cq->wait_cond = attr->wait_cond;
	cq->domain = domain;
	DFI_REF_INIT(&cq->refs);
	cq->cq_fid.fid.fclass = FI_CLASS_CQ;
	cq->cq_fid.fid.context = context;
	cq->cq_fid.fid.ops = &dfi_cq_fi_ops;
	cq->cq_fid.ops = &dfi_cq_ops;
	if (attr->wait_obj == FI_WAIT_SET) {
		/* last: the set's thread may look at the CQ from now on */
		ret = dfi_wait_join(attr->wait_set, domain->fabric, !domain->guard->locks,
				    &cq->cq_fid.fid, &cq->wait);
		if (ret != 0)
			goto err_guard;
	}
	dfi_domain_hold(domain);
	*cq_fid = &cq->cq_fid;
	return 0;

err_guard:
	dfi_guard_put(cq->guard);
err_free:
	free(cq->ring);
	free(cq);
	return ret;
}
