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

#include <rte_spinlock.h>

#include "fabric.h"
#include "mr.h"
#include "port.h"
#include "watchdog.h"
#include "wire.h"

struct dfi_cntr;
struct dfi_eq;

struct dfi_domain {
	struct fid_domain domain_fid;
	/* data path: serialises endpoints, CQs and counters unless the
	 * application does (FI_THREAD_DOMAIN, FI_THREAD_COMPLETION) */
	rte_spinlock_t lock;
	bool locked;
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

static inline void
dfi_domain_lock(struct dfi_domain *domain)
{
	if (domain->locked)
		rte_spinlock_lock(&domain->lock);
}

/**
 * For a provider thread: @return whether it now holds the lock, which it
 * never takes in a domain without one (FI_THREAD_DOMAIN): there the
 * application alone may touch the domain's objects.
 */
static inline bool
dfi_domain_trylock(struct dfi_domain *domain)
{
	return domain->locked && rte_spinlock_trylock(&domain->lock) != 0;
}

static inline void
dfi_domain_unlock(struct dfi_domain *domain)
{
	if (domain->locked)
		rte_spinlock_unlock(&domain->lock);
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
