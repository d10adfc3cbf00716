/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Domain objects: one DPDK port seen through one fi_domain() call. Several
 * domains may share a port; the port's facts stay fixed while any is open.
 */

#ifndef _DFI_DOMAIN_H_
#define _DFI_DOMAIN_H_

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>

#include "encap.h"
#include "fabric.h"
#include "guard.h"
#include "mr.h"
#include "watchdog.h"

struct dfi_cntr;
struct dfi_eq;
struct dfi_port;

struct dfi_domain {
	struct fid_domain domain_fid;
	/* the guard of what the application does not serialise (guard.h):
	 * everything's under FI_THREAD_SAFE, counters' under FI_THREAD_FID and
	 * FI_THREAD_ENDPOINT, where each other object has its own, and one
	 * that locks nothing under FI_THREAD_DOMAIN and FI_THREAD_COMPLETION */
	struct dfi_guard *guard;
	bool own_guards;		/* FI_THREAD_FID, FI_THREAD_ENDPOINT */
	uint8_t encap;			/* enum dfi_encap of its endpoints */
	struct dfi_fabric *fabric;
	struct dfi_port *port;
	uint32_t refs;			/* objects opened on the domain */
	enum fi_threading threading;
	enum fi_av_type av_type;
	int mr_mode;
	struct dfi_mr_map mrs;		/* memory regions by key */
	uint32_t addr_format;		/* FI_SOCKADDR_IN, FI_ADDR_STR or FI_ADDR_DPDK */
	uint32_t tclass;		/* its endpoints' traffic class unless they say */
	uint64_t caps;
	struct dfi_eq *eq;		/* fi_domain_bind(), or NULL */
	uint64_t eq_flags;
	struct dfi_watchdog watchdog;	/* progresses what the application left */
	struct dfi_cntr *trig_ready;	/* counters with triggered operations due (trigger.h) */
	TAILQ_ENTRY(dfi_domain) link;	/* in fabric->domains */
};

/**
 * The guard of a new endpoint, context or CQ: its own where the domain gives
 * each one (FI_THREAD_FID, FI_THREAD_ENDPOINT), else a reference on the
 * domain's. @return 0, or -FI_ENOMEM.
 */
int dfi_domain_guard(struct dfi_domain *domain, struct dfi_guard **guard);

/** Whether the group of g is the domain's (counters, triggered operations). */
static inline bool
dfi_in_domain_group(struct dfi_domain *domain, struct dfi_guard *g)
{
	return dfi_guard_root(g) == domain->guard;
}

/**
 * The encapsulation FI_DPDK_ENCAP asks for, eth whatever it says for
 * FI_ADDR_DPDK addresses.
 *
 * @return 0, or -FI_EINVAL for an unknown value (logged).
 */
int dfi_encap_param(uint32_t addr_format, enum dfi_encap *encap);

/** fi_domain() on one of our fabrics. */
int dfi_domain_open(struct fid_fabric *fabric, struct fi_info *info, struct fid_domain **domain,
		    void *context);

/** @return the domain behind fid, or NULL when fid is not a domain of ours. */
struct dfi_domain *dfi_domain_from_fid(struct fid_domain *fid);

/** Counts an object opened on the domain; fi_close() is refused meanwhile. */
void dfi_domain_hold(struct dfi_domain *domain);
void dfi_domain_release(struct dfi_domain *domain);

/** @return the port name of one of our domains, or NULL when fid is not ours. */
const char *dfi_domain_port_name(struct fid_domain *fid);

#endif /* _DFI_DOMAIN_H_ */
