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
 * provider's own events are always queued, so that none is lost. Reads
 * (and fi_trywait()) drive the control progress of the objects that
 * registered with the EQ: passive endpoints and connecting endpoints.
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

/** Control progress an EQ read drives; registered by an object bound to the EQ. */
struct dfi_eq_prog {
	TAILQ_ENTRY(dfi_eq_prog) link;
	void (*fn)(void *arg);		/* may post events; takes no EQ lock itself */
	void *arg;
};

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
	void *last_err_data;		/* its copy, given to a reader without a buffer */
	pthread_mutex_t prog_lock;	/* progs; taken before any lock the fns take */
	TAILQ_HEAD(, dfi_eq_prog) progs;
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
 *   NULL for an event, or the error entry (entry and len are then ignored);
 *   its err_data, if any, is copied.
 */
void dfi_eq_post(struct dfi_eq *eq, uint32_t event, const void *entry, size_t len,
		 const struct fi_eq_err_entry *err);

/** Registers control progress with an EQ (the object holds the EQ meanwhile). */
void dfi_eq_prog_add(struct dfi_eq *eq, struct dfi_eq_prog *prog);
/** Unregisters it: when this returns, its function runs no more. */
void dfi_eq_prog_del(struct dfi_eq *eq, struct dfi_eq_prog *prog);

/**
 * Runs the registered progress functions: from the application's calls
 * only (reads, fi_trywait(), fi_poll()), never from a helper thread, since
 * an FI_THREAD_DOMAIN endpoint takes no lock.
 */
void dfi_eq_progress(struct dfi_eq *eq);

/**
 * Drops the events and errors of an object that closes, so that no reader
 * sees its fid after (every entry starts with the fid it is about).
 */
void dfi_eq_purge(struct dfi_eq *eq, const struct fid *fid);

/** Counts an object bound to the EQ; fi_close() of the EQ is refused meanwhile. */
void dfi_eq_hold(struct dfi_eq *eq);
void dfi_eq_release(struct dfi_eq *eq);

/** @return true when events or errors are waiting (for fi_trywait()). */
bool dfi_eq_pending(struct dfi_eq *eq);

#endif /* _DFI_EQ_H_ */
