/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Event queues (fi_eq(3)): the control-path events of address vectors and
 * memory registration. Events and errors wait in two FIFOs; an eventfd is
 * readable exactly while events are waiting, which gives FI_WAIT_FD to
 * applications and the blocking reads to everyone; an EQ opened with
 * FI_WAIT_SET signals its wait set instead when events start waiting. The size an application
 * asks for is a minimum (fi_eq(3)): it bounds fi_eq_write(), while the
 * provider's own events are always queued, so that none is lost.
 */

#ifndef _DFI_EQ_H_
#define _DFI_EQ_H_

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rdma/fi_eq.h>

struct dfi_fabric;
struct dfi_eq_event;
struct dfi_wait;

struct dfi_eq {
	struct fid_eq eq_fid;
	struct dfi_fabric *fabric;
	pthread_mutex_t lock;
	TAILQ_HEAD(, dfi_eq_event) events;
	TAILQ_HEAD(, dfi_eq_event) errors;
	size_t size;			/* fi_eq_write() refused from this many waiting */
	size_t count;			/* events + errors waiting */
	uint64_t flags;			/* FI_WRITE, FI_AFFINITY */
	enum fi_wait_obj wait_obj;
	int fd;				/* eventfd, readable while count > 0 */
	struct dfi_wait *wait;		/* FI_WAIT_SET: the set signalled, else NULL */
	bool overrun;			/* out of memory, an event lost: fatal (fi_eq(3)) */
	uint32_t refs;			/* AVs and domains bound to it */
	struct fi_eq_err_entry last_err;	/* keeps err_data of the last readerr */
};

/** fi_eq_open() on one of our fabrics. */
int dfi_eq_open(struct fid_fabric *fabric, struct fi_eq_attr *attr, struct fid_eq **eq,
		void *context);

/** @return the EQ behind fid, or NULL when fid is not an EQ of ours. */
struct dfi_eq *dfi_eq_from_fid(struct fid *fid);

/**
 * Queues a provider event, past the EQ's size if need be: the provider's own
 * events are never refused for want of room. Nothing for the caller to check:
 * should memory run out, the event is lost and the EQ overrun, which its
 * reader sees as an FI_EOVERRUN error once the valid events are read.
 *
 * @param err
 *   NULL for an event, or the error entry (entry and len are then ignored).
 */
void dfi_eq_post(struct dfi_eq *eq, uint32_t event, const void *entry, size_t len,
		 const struct fi_eq_err_entry *err);

/** Counts an object bound to the EQ; fi_close() of the EQ is refused meanwhile. */
void dfi_eq_hold(struct dfi_eq *eq);
void dfi_eq_release(struct dfi_eq *eq);

/** @return true when events or errors are waiting (for fi_trywait()). */
bool dfi_eq_pending(struct dfi_eq *eq);

#endif /* _DFI_EQ_H_ */
