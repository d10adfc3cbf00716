/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Memory regions: fi_mr_reg/regv/regattr, their keys and the table a target
 * finds them in. A key is looked up in O(1) (rte_hash); provider keys are 40
 * random bits over a 24-bit generation, so that a closed region's key never
 * names a later one. A remote access is checked here, before any byte of the
 * region is touched.
 */

#ifndef _DFI_MR_H_
#define _DFI_MR_H_

#include <stdbool.h>
#include <stdint.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>

#include <rte_spinlock.h>

struct dfi_domain;
struct dfi_cntr;
struct dfi_guard;
struct rte_hash;

struct dfi_mr {
	struct fid_mr mr_fid;		/* key and mem_desc (this) */
	struct dfi_domain *domain;
	uint8_t *base;			/* its first byte */
	uint64_t len;
	uint64_t access;		/* FI_SEND ... FI_REMOTE_WRITE */
	uint64_t addr0;			/* what a peer's address 0 of it is: base or 0 */
	struct dfi_cntr *cntr_write;	/* FI_REMOTE_WRITE events, or NULL */
	struct dfi_cntr *cntr_read;	/* FI_REMOTE_READ events, or NULL */
	struct dfi_cntr *bound[2];	/* what fi_mr_bind() holds */
	uint32_t nb_bound;
	uint32_t busy;			/* read responses sent from it, in flight (atomic) */
	bool enabled;
};

/** A domain's keys. */
struct dfi_mr_map {
	/* registration, close and lookups: under FI_THREAD_COMPLETION the
	 * domain takes no lock, while control calls stay thread safe */
	rte_spinlock_t lock;
	struct rte_hash *keys;		/* key -> struct dfi_mr *, created on first use */
	uint32_t gen;			/* provider keys' generation */
	bool prov_key;			/* FI_MR_PROV_KEY (or FI_MR_BASIC) */
	bool virt_addr;			/* FI_MR_VIRT_ADDR (or FI_MR_BASIC) */
};

/** Sets a domain's map up from its mr_mode; nothing is allocated yet. */
void dfi_mr_map_init(struct dfi_mr_map *map, int mr_mode);

/** Frees a map whose regions are all closed. */
void dfi_mr_map_fini(struct dfi_mr_map *map);

/** The domain's fi_ops_mr. */
extern struct fi_ops_mr dfi_mr_ops;

/** @return the enabled region of key, or NULL. */
struct dfi_mr *dfi_mr_find(struct dfi_mr_map *map, uint64_t key);

/**
 * Checks a peer's access to [addr, addr + len) of the region of key, with
 * right FI_REMOTE_READ, FI_REMOTE_WRITE or both (an atomic that fetches and
 * changes), and logs a refusal (warning). With hold, the region found is
 * busy until dfi_mr_unhold(): fi_close() refuses it meanwhile.
 *
 * @return 0 with *mr and *ptr set, or -FI_EACCES.
 */
int dfi_mr_access(struct dfi_mr_map *map, uint64_t key, uint64_t right, uint64_t addr,
		  uint64_t len, bool hold, struct dfi_mr **mr, uint8_t **ptr);

/** Ends what a dfi_mr_access() with hold began: the region may close again. */
void dfi_mr_unhold(struct dfi_mr *mr);

/**
 * An event (FI_REMOTE_READ or FI_REMOTE_WRITE) on the region, for its
 * counter; guard is that of the endpoint it came through, which is held.
 */
void dfi_mr_event(struct dfi_mr *mr, uint64_t right, struct dfi_guard *guard);

#endif /* _DFI_MR_H_ */
