/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Endpoints: what every endpoint type shares. An endpoint is a sink on its
 * domain's port (a UDP port it receives on), bound to an AV, CQs and
 * counters; its type (dgram.c, and the reliable protocol) supplies the data
 * transfer operations and the progress routine that CQ and counter reads
 * drive.
 */

#ifndef _DFI_EP_H_
#define _DFI_EP_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_endpoint.h>

#include <rte_common.h>

#include "fi_ext_dpdk.h"

#include "addr.h"
#include "rxtx.h"
#include "trigger.h"

struct dfi_av;
struct dfi_cq;
struct dfi_cntr;
struct dfi_domain;
struct dfi_ep;
struct dfi_msg_cm;
struct dfi_sep;
struct dfi_srx;
struct dfi_stx;

/* An operation flag of our own, above libfabric's: fi_inject() and its kin,
 * which generate no completion (fi_sendmsg() with FI_INJECT does). */
#define DFI_F_NO_COMPLETION	(1ULL << 61)

/* Which counter an event bumps (fi_ep_bind() flags). */
enum dfi_cntr_slot {
	DFI_CNTR_SEND,
	DFI_CNTR_RECV,
	DFI_CNTR_READ,
	DFI_CNTR_WRITE,
	DFI_CNTR_REMOTE_READ,
	DFI_CNTR_REMOTE_WRITE,
	DFI_CNTR_NB
};

/** What an endpoint type provides to the common code. */
struct dfi_ep_type_ops {
	/** Sets up the type's state from the info; 0 or a negative fabric errno. */
	int (*init)(struct dfi_ep *ep, const struct fi_info *info);
	/** Called once bound and activated. */
	int (*enable)(struct dfi_ep *ep);
	/** Moves packets and completions; its guard is held. */
	void (*progress)(struct dfi_ep *ep);
	/** fi_cancel(); its guard is held. */
	ssize_t (*cancel)(struct dfi_ep *ep, void *context);
	/** fi_close(), before the endpoint leaves its port: takes leave of the
	 * peers; its guard is held. NULL when there is nothing to do. */
	void (*shutdown)(struct dfi_ep *ep);
	/** Frees the type's state; the endpoint is detached from the port. */
	void (*fini)(struct dfi_ep *ep);
	/** The domain's watchdog looks (its guard held): progresses the
	 * endpoint if the application has not since the last look, and says
	 * whether it did. NULL when a type needs none. */
	bool (*rescue)(struct dfi_ep *ep);
	/** Adds the type's statistics (fi_ext_dpdk.h); NULL when it keeps none. */
	void (*stats)(struct dfi_ep *ep, struct fi_dpdk_ep_stats *stats);
	/** Counter flags the type accepts in fi_ep_bind(). */
	uint64_t cntr_flags;
	struct fi_ops_msg *msg;
	struct fi_ops_tagged *tagged;
	struct fi_ops_rma *rma;
	/** fi_atomic(3); NULL: none (the stubs answer -FI_ENOSYS). */
	struct fi_ops_atomic *atomic;
	/** The connection calls; NULL: the connectionless set (names only). */
	struct fi_ops_cm *cm;
};

struct dfi_ep {
	struct fid_ep ep_fid;
	/* data path */
	struct dfi_sink sink;		/* port, queues, the endpoint's UDP port */
	struct dfi_guard *guard;	/* serialises it where the application does not */
	struct dfi_av *av;
	struct dfi_cq *tx_cq;
	struct dfi_cq *rx_cq;
	struct dfi_stx *stx;		/* its shared transmit context (stx.c), or NULL */
	struct dfi_cntr *cntrs[DFI_CNTR_NB];
	uint64_t tx_op_flags;		/* defaults for operations without flags */
	uint64_t rx_op_flags;
	uint64_t caps;
	bool tx_selective;		/* FI_SELECTIVE_COMPLETION on the transmit CQ */
	bool rx_selective;
	bool enabled;
	uint8_t encap;			/* enum dfi_encap */
	bool urgent;			/* an urgent traffic class: progressed first */
	uint16_t name_off;		/* a scalable endpoint's context: its UDP port's
					 * place after the endpoint's name (wire.h) */
	uint32_t addr_format;
	size_t max_msg_size;
	size_t inject_size;
	size_t iov_limit;
	size_t tx_size;
	size_t rx_size;
	size_t min_multi_recv;		/* FI_OPT_MIN_MULTI_RECV */
	const struct dfi_ep_type_ops *type_ops;
	void *priv;			/* the type's state */
	/* control */
	struct dfi_domain *domain;
	enum fi_ep_type type;
	struct dfi_eq *eq;
	struct dfi_msg_cm *cm;		/* FI_EP_MSG: its connection (msg.c) */
	struct dfi_sep *sep;		/* a context's scalable endpoint, else NULL */
	/* shared contexts asked for (FI_SHARED_CONTEXT), bound before fi_enable() */
	bool tx_shared;
	bool rx_shared;
	struct dfi_srx *srx;		/* its shared receive context (srx.c), or NULL */
};

/** fi_endpoint() on one of our domains. */
int dfi_endpoint(struct fid_domain *domain, struct fi_info *info, struct fid_ep **ep,
		 void *context);

/**
 * Checks an info for an endpoint of the domain, as fi_endpoint() does.
 * @return 0, -FI_EINVAL (logged when the info asks for too much) or -FI_ENOSYS.
 */
int dfi_ep_check(struct dfi_domain *domain, const struct fi_info *info);

/** The UDP port (network order) of the info's src_addr, 0 when it names none. */
int dfi_ep_src_port(const struct dfi_domain *domain, const struct fi_info *info,
		    rte_be16_t *port);

/**
 * Opens an endpoint of a checked info. With sink, the endpoint takes over that
 * attached, inactive sink (a scalable endpoint's reserved UDP port) and gives
 * it back on failure; name_off is the sink's place in the scalable endpoint's
 * range. Without, it takes the info's src_addr port or an ephemeral one.
 */
int dfi_ep_open(struct dfi_domain *domain, const struct fi_info *info, struct dfi_sink *sink,
		uint16_t name_off, void *context, struct dfi_ep **ep);

/**
 * Issues the triggered operations an endpoint's completions made due. Those
 * live in the domain's group (trigger.h): an endpoint of another has none.
 */
static inline void
dfi_ep_trig(struct dfi_ep *ep)
{
	if (unlikely(dfi_trig_due(ep->domain)) && dfi_in_domain_group(ep->domain, ep->guard))
		dfi_trig_run(ep->domain);
}

/** Progresses an endpoint, then its triggered operations; its guard is held. */
static inline void
dfi_ep_progress(struct dfi_ep *ep)
{
	if (ep->enabled) {
		ep->type_ops->progress(ep);
		dfi_ep_trig(ep);
	}
}

/** The address of a UDP port (network order) of a port, in an address format's kind. */
void dfi_port_addr(const struct dfi_port *port, uint32_t format, rte_be16_t udp_port,
		   struct dfi_addr *a);

/** The endpoint's own address, in its domain's format. */
void dfi_ep_self(const struct dfi_ep *ep, struct dfi_addr *a);

/** The sender of a received packet, in an address format's kind. */
void dfi_rx_addr(uint32_t format, struct rte_mbuf *m, struct dfi_addr *a);

/** The sender of a received packet, in the endpoint's address kind. */
static inline void
dfi_ep_rx_addr(const struct dfi_ep *ep, struct rte_mbuf *m, struct dfi_addr *a)
{
	dfi_rx_addr(ep->addr_format, m, a);
}

/** fi_getname() and fi_setname() of every endpoint. */
int dfi_ep_getname(fid_t fid, void *addr, size_t *addrlen);
int dfi_ep_setname(fid_t fid, void *addr, size_t addrlen);

/** @return the sender of a received packet as the AV knows it (FI_SOURCE). */
fi_addr_t dfi_ep_source(const struct dfi_ep *ep, struct rte_mbuf *m);

/** Bumps the counter bound in slot (dfi_ep_count()). */
void dfi_ep_count_bound(struct dfi_ep *ep, enum dfi_cntr_slot slot, bool error);

/** Bumps a bound counter, if any: the test inline, since most endpoints
 * bind none, and every message asks. */
static inline void
dfi_ep_count(struct dfi_ep *ep, enum dfi_cntr_slot slot, bool error)
{
	if (ep->cntrs[slot] != NULL)
		dfi_ep_count_bound(ep, slot, error);
}

/* Endpoint types. */
extern const struct dfi_ep_type_ops dfi_dgram_ops;
extern const struct dfi_ep_type_ops dfi_rdm_ops;
extern const struct dfi_ep_type_ops dfi_msg_ops;

/**
 * A zeroed endpoint or passive endpoint: they hold a sink, whose route is
 * cache-line aligned, and calloc() aligns to 16 bytes only. Freed with free().
 */
static inline void *
dfi_ep_zalloc(size_t size)
{
	void *p = aligned_alloc(RTE_CACHE_LINE_SIZE, RTE_ALIGN_CEIL(size, RTE_CACHE_LINE_SIZE));

	if (p != NULL)
		memset(p, 0, size);
	return p;
}

#endif /* _DFI_EP_H_ */
