/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Completion queues (fi_cq(3)). Completions and errors share one ring, so an
 * error is reported where it happened (-FI_EAVAIL once it reaches the top).
 * Reading or waiting on a CQ progresses the endpoints bound to it: this is
 * manual progress. A CQ opened with FI_WAIT_SET joins a wait set (waitset.h),
 * whose fi_wait() and helper thread progress it too.
 */

#ifndef _DFI_CQ_H_
#define _DFI_CQ_H_

#include <stdbool.h>
#include <stdint.h>

#include <rdma/fi_eq.h>

#include <rte_branch_prediction.h>

#include "progress.h"

struct dfi_domain;
struct dfi_ep;
struct dfi_guard;
struct dfi_wait;

/*
 * A completion as stored, one cache line (a ring of fi_cq_err_entry's 88
 * bytes and the source touched two lines for most): the success formats'
 * fields, which are prefixes of fi_cq_tagged_entry, the source, and an
 * error's two fields of its own, its olen in the source's place
 * (fi_cq_readerr() gives none).
 */
struct dfi_cq_slot {
	struct fi_cq_tagged_entry e;
	union {
		fi_addr_t src;		/* a completion's */
		size_t olen;		/* an error's */
	};
	int32_t err;			/* 0, or an error's positive fabric errno */
	uint32_t reserved;
};

/** An error of an operation that reserved no slot, kept while the ring is full. */
struct dfi_cq_spill {
	struct dfi_cq_spill *next;
	struct dfi_cq_slot slot;
};

struct dfi_cq {
	struct fid_cq cq_fid;
	/* data path */
	struct dfi_cq_slot *ring;
	uint32_t mask;
	uint32_t head;			/* next slot to read */
	uint32_t tail;			/* next slot to write */
	uint32_t signaled;		/* fi_cq_signal(), latched */
	uint32_t reserved;		/* slots promised to operations in progress */
	size_t entry_size;		/* of the application's format */
	struct dfi_progress progress;	/* bound endpoints, progressed by reads */
	struct dfi_cq_spill *spill;	/* errors read once the ring is empty, oldest first */
	struct dfi_cq_spill **spill_tail;
	bool overrun;
	struct dfi_guard *guard;	/* its endpoints' group's (guard.h) */
	/* control */
	struct dfi_domain *domain;
	enum fi_cq_format format;
	enum fi_wait_obj wait_obj;
	enum fi_cq_wait_cond wait_cond;
	struct dfi_wait *wait;		/* FI_WAIT_SET: the set it signals, else NULL */
	uint32_t refs;			/* bound endpoints, poll sets it is in */
};

/** fi_cq_open() on one of our domains. */
int dfi_cq_open(struct fid_domain *domain, struct fi_cq_attr *attr, struct fid_cq **cq,
		void *context);

/** @return the CQ behind fid, or NULL when fid is not a CQ of ours. */
struct dfi_cq *dfi_cq_from_fid(struct fid *fid);

/**
 * Progresses the endpoints bound to the CQ (a helper: only if their guard
 * is free; see dfi_progress_lock_run()).
 *
 * @return 1 when entries or errors wait to be read, 0, or -FI_EAGAIN.
 */
int dfi_cq_ready(struct dfi_cq *cq, bool helper);

/** Binds or unbinds an endpoint, whose progress reads then drive; its guard
 * joined the CQ's first (guard.h). */
int dfi_cq_attach_ep(struct dfi_cq *cq, struct dfi_ep *ep);
void dfi_cq_detach_ep(struct dfi_cq *cq, struct dfi_ep *ep);

/** @return how many completions the CQ can still take. */
static inline uint32_t
dfi_cq_room(const struct dfi_cq *cq)
{
	return cq->mask + 1 - (cq->tail - cq->head) - cq->reserved;
}

/**
 * Promises a slot to an operation that will complete later, so that its
 * completion always finds room. @return 0, or -FI_EAGAIN when the CQ is full.
 */
static inline int
dfi_cq_reserve(struct dfi_cq *cq)
{
	if (unlikely(dfi_cq_room(cq) == 0))
		return -FI_EAGAIN;
	cq->reserved++;
	return 0;
}

/** Gives a promised slot back (the operation wrote no completion). */
static inline void
dfi_cq_unreserve(struct dfi_cq *cq)
{
	cq->reserved--;
}

static inline struct dfi_cq_slot *
dfi_cq_next(struct dfi_cq *cq)
{
	struct dfi_cq_slot *slot;

	if (unlikely(cq->mask + 1 - (cq->tail - cq->head) == 0)) {
		/* writers check the room first: this is a provider bug */
		cq->overrun = true;
		return NULL;
	}
	slot = &cq->ring[cq->tail & cq->mask];
	return slot;
}

/* The fields every completion has. */
static inline void
dfi_cq_slot_fill(struct dfi_cq_slot *slot, void *context, uint64_t flags, size_t len, void *buf,
		 uint64_t data, uint64_t tag, fi_addr_t src)
{
	slot->e.op_context = context;
	slot->e.flags = flags;
	slot->e.len = len;
	slot->e.buf = buf;
	slot->e.data = data;
	slot->e.tag = tag;
	slot->src = src;
}

/** Writes a successful completion. */
static inline void
dfi_cq_write(struct dfi_cq *cq, void *context, uint64_t flags, size_t len, void *buf,
	     uint64_t data, uint64_t tag, fi_addr_t src)
{
	struct dfi_cq_slot *slot = dfi_cq_next(cq);

	if (unlikely(slot == NULL))
		return;
	dfi_cq_slot_fill(slot, context, flags, len, buf, data, tag, src);
	slot->err = 0;
	cq->tail++;
}

/** Writes an error completion into a reserved slot: err is a positive fabric errno. */
void dfi_cq_write_err(struct dfi_cq *cq, void *context, uint64_t flags, size_t len, void *buf,
		      uint64_t data, uint64_t tag, size_t olen, int err, fi_addr_t src);

/**
 * Reports the failure of an operation that asked for no completion (an
 * inject, or FI_SELECTIVE_COMPLETION without FI_COMPLETION): fi_cq(3)
 * reports errors for every operation. It takes a free slot of the ring, or,
 * when every slot is used or promised, waits aside until the ring has been
 * read empty; only a failed allocation then loses it, as an overrun.
 */
void dfi_cq_write_err_unreserved(struct dfi_cq *cq, void *context, uint64_t flags, int err);

#endif /* _DFI_CQ_H_ */
