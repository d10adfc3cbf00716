/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Address vectors (fi_av(3)). An fi_addr_t reaches its entry with no lookup:
 * FI_AV_TABLE hands out plain indices, FI_AV_MAP encodes the index and the
 * entry's generation, so a handle kept after fi_av_remove() no longer
 * resolves. The top rx_ctx_bits bits are left to fi_rx_addr().
 *
 *   FI_AV_MAP fi_addr_t:  | rx ctx (<= 16) | 0 | generation (24) | index (24) |
 */

#ifndef _DFI_AV_H_
#define _DFI_AV_H_

#include <stdbool.h>
#include <stdint.h>

#include <rdma/fi_domain.h>

#include <rte_branch_prediction.h>

#include "av_store.h"

#define DFI_AV_IDX_BITS		24
#define DFI_AV_GEN_BITS		24
#define DFI_AV_IDX_MASK		((1ULL << DFI_AV_IDX_BITS) - 1)
#define DFI_AV_GEN_MASK		((1ULL << DFI_AV_GEN_BITS) - 1)
#define DFI_AV_MAX_RX_CTX_BITS	16

/*
 * fi_control() command on an AV, for the tests: copies a struct
 * dfi_avs_stats (capacity, growth since open, memory). Internal: not in
 * fi_ext_dpdk.h, and no promise to applications.
 */
#define DFI_AV_GETSTATS		((int)(FI_PROV_SPECIFIC | 0xa5))

struct dfi_domain;
struct dfi_eq;

struct dfi_av {
	struct fid_av av_fid;
	/* read by the data path */
	struct dfi_av_store store;
	enum fi_av_type type;
	uint64_t addr_mask;		/* clears the receive-context bits */
	uint64_t flags;			/* FI_EVENT, FI_READ, FI_SYMMETRIC */
	uint32_t addr_format;		/* the domain's */
	int rx_ctx_bits;
	/* control path */
	struct dfi_domain *domain;
	struct dfi_eq *eq;
	uint32_t refs;			/* endpoints bound to it */
	char *name;			/* named (shared) AV, or NULL */
};

/** fi_av_open() on one of our domains. */
int dfi_av_open(struct fid_domain *domain, struct fi_av_attr *attr, struct fid_av **av,
		void *context);

/** @return the AV behind fid, or NULL when fid is not an AV of ours. */
struct dfi_av *dfi_av_from_fid(struct fid *fid);

/** Counts an endpoint bound to the AV; fi_close() of the AV is refused meanwhile. */
void dfi_av_hold(struct dfi_av *av);
void dfi_av_release(struct dfi_av *av);

/**
 * The data path's view of an fi_addr_t: its entry, with no lookup.
 *
 * @return the entry, or NULL when addr is not (or no longer) in the AV.
 */
static inline const struct dfi_av_entry *
dfi_av_resolve(const struct dfi_av *av, fi_addr_t addr)
{
	const struct dfi_av_entry *e;
	uint64_t a = addr & av->addr_mask;

	if (av->type == FI_AV_TABLE) {
		if (unlikely(a > DFI_AV_IDX_MASK))
			return NULL;
		return dfi_avs_get(&av->store, (uint32_t)a);
	}
	if (unlikely(a >> (DFI_AV_IDX_BITS + DFI_AV_GEN_BITS) != 0))
		return NULL;
	e = dfi_avs_get(&av->store, (uint32_t)(a & DFI_AV_IDX_MASK));
	if (unlikely(e == NULL || (e->gen & DFI_AV_GEN_MASK) != a >> DFI_AV_IDX_BITS))
		return NULL;
	return e;
}

/*
 * An endpoint's last destination: the fi_addr_t, its entry and the entry's
 * generation when resolved. A remove bumps the generation, so the memo
 * holds while the address would still resolve to the same entry, and a
 * stream to one peer skips the chain of dependent loads resolving takes.
 */
struct dfi_av_memo {
	fi_addr_t addr;
	const struct dfi_av_entry *e;	/* NULL: nothing kept */
	uint32_t gen;
};

/** @return whether addr is the memo's and its entry was not removed since. */
static inline bool
dfi_av_memo_holds(const struct dfi_av_memo *m, fi_addr_t addr)
{
	return addr == m->addr && m->e != NULL &&
	       __atomic_load_n(&m->e->gen, __ATOMIC_ACQUIRE) == m->gen;
}

/**
 * dfi_av_resolve() for a send whose memo did not hold: what it resolves is
 * kept in the memo, the entry's generation read before the caller reads the
 * address out of it.
 *
 * @return the entry, or NULL when addr is not (or no longer) in the AV.
 */
static inline const struct dfi_av_entry *
dfi_av_memo_resolve(const struct dfi_av *av, struct dfi_av_memo *m, fi_addr_t addr)
{
	const struct dfi_av_entry *e = dfi_av_resolve(av, addr);

	if (e != NULL) {
		m->gen = __atomic_load_n(&e->gen, __ATOMIC_ACQUIRE);
		m->addr = addr;
		m->e = e;
	}
	return e;
}

/**
 * The address a send to addr goes to: its entry's, at the receive context
 * fi_rx_addr() put in addr's top rx_ctx_bits (a scalable endpoint's receive
 * context i has the UDP port i places after its name, wire.h).
 */
static inline void
dfi_av_dest(const struct dfi_av *av, const struct dfi_av_entry *e, fi_addr_t addr,
	    struct dfi_addr *a)
{
	dfi_avs_entry_addr(e, a);
	if (av->rx_ctx_bits != 0)
		a->port = dfi_port_add(a->port, (uint16_t)(addr >> (64 - av->rx_ctx_bits)));
}

/** @return the fi_addr_t of an address in the AV, or FI_ADDR_NOTAVAIL (FI_SOURCE). */
fi_addr_t dfi_av_reverse(const struct dfi_av *av, const struct dfi_addr *a);

#endif /* _DFI_AV_H_ */
