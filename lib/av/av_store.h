/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The storage under an address vector. Entries sit in chunks of 4096 that
 * never move, so the data path reads them without a lock. A three-level
 * bitmap finds the lowest free index in constant time (FI_AV_TABLE assigns
 * indices in insertion order, lowest unused first), and a chained hash maps
 * addresses back to indices for FI_SOURCE, growing by incremental rehash so
 * that no insert or remove ever costs O(n).
 *
 * A named AV keeps the same layout in a POSIX shared memory region with a
 * fixed capacity, shared by the processes of one host; a robust,
 * process-shared mutex serialises writers there. The region ends with the
 * fi_addr_t of every insert in insertion order, where an AV's map_addr
 * points (fi_av(3); the convention of the bgq and opx providers).
 */

#ifndef _DFI_AV_STORE_H_
#define _DFI_AV_STORE_H_

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>

#include "addr.h"

#define DFI_AVS_CHUNK_SHIFT	12
#define DFI_AVS_CHUNK		(1u << DFI_AVS_CHUNK_SHIFT)
#define DFI_AVS_CHUNK_WORDS	(DFI_AVS_CHUNK / 64)
#define DFI_AVS_MAX_CHUNKS	4096u
#define DFI_AVS_MAX_ENTRIES	(DFI_AVS_CHUNK * DFI_AVS_MAX_CHUNKS)	/* 2^24 */

/* The header's magic: a shared store is usable while it reads DFI_AVS_MAGIC;
 * its last user writes DFI_AVS_DEAD, under the lock, before removing it. */
#define DFI_AVS_MAGIC		0x6466692d61767331ULL	/* "dfi-avs1" */
#define DFI_AVS_DEAD		0x646669646561640aULL

/** One address; kind DFI_ADDR_NONE marks a free slot. 24 bytes. */
struct dfi_av_entry {
	uint32_t ipv4;		/* network byte order */
	uint16_t port;		/* network byte order */
	uint8_t kind;		/* enum dfi_addr_kind, written last on insert */
	uint8_t reserved;
	uint8_t mac[6];
	uint16_t reserved2;
	uint32_t gen;		/* bumped on every remove */
	uint32_t next;		/* hash chain: index + 1 of the next entry, 0 ends */
};

/** State shared by all users of a store: in shared memory for named AVs. */
struct dfi_av_store_hdr {
	uint64_t magic;
	uint32_t version;
	uint32_t av_type;		/* enum fi_av_type of a named AV */
	uint32_t capacity;		/* entries allocated */
	uint32_t used;
	uint32_t seq;			/* odd while a writer changes the hash */
	uint32_t opens;			/* named AVs: open handles, all processes */
	uint64_t l3;			/* bit i: l2[i] has a free bit */
	uint64_t map_addr;		/* named AVs: the creator's view of the list */
	uint32_t listed;		/* fi_addr_t values in the list */
	pthread_mutex_t lock;		/* serialises writers */
};

struct dfi_av_store {
	struct dfi_av_store_hdr *hdr;
	struct dfi_av_entry **chunks;	/* DFI_AVS_MAX_CHUNKS pointers */
	uint64_t **chunk_free;		/* per chunk, 64 words; bit set: slot free */
	uint64_t *l1;			/* per chunk; bit w: chunk_free[c][w] != 0 */
	uint64_t *l2;			/* bit c: l1[c] != 0 */
	uint32_t *buckets;		/* hash heads: index + 1, 0 empty */
	uint32_t bucket_mask;
	uint32_t *old_buckets;		/* table being migrated, or NULL */
	uint32_t old_mask;
	uint32_t migrate_pos;		/* old buckets below it are migrated */
	uint32_t max_chunks;		/* fixed for shared stores */
	int numa_node;			/* private chunks are allocated there */
	bool shared;
	void *region;			/* shared mapping */
	uint64_t *list;			/* shared: the fi_addr_t of each insert, in order */
	size_t region_len;
	void **retired;			/* old bucket tables, freed at fini */
	uint32_t nb_retired;
	size_t bytes;			/* memory held, for the benchmark */
	uint32_t chunks_added;		/* by inserts, past the chunks sized at open */
	uint32_t rehashes;		/* reverse index tables outgrown */
};

/** What a store holds and how often it grew since it was opened. */
struct dfi_avs_stats {
	uint64_t capacity;		/* entries allocated */
	uint64_t used;
	uint64_t chunks_added;		/* by inserts, past the capacity sized at open */
	uint64_t rehashes;		/* times the reverse index was outgrown */
	uint64_t bytes;			/* memory held by this process's view */
};

/**
 * Sets up a private store sized for count entries (it grows past them).
 *
 * @return 0, -FI_EINVAL when count exceeds DFI_AVS_MAX_ENTRIES, -FI_ENOMEM.
 */
int dfi_avs_init(struct dfi_av_store *s, uint32_t count, int numa_node);

/**
 * Opens the store of a named AV in shared memory, creating it with room for
 * count entries unless readonly. An existing store keeps its own type and
 * capacity.
 *
 * @param av_type
 *   In: the type for a new store. Out: the store's type.
 * An opener that finds the store being removed by its last user (marked
 * dead, under the lock) does not join it: it starts over, creating it anew.
 *
 * @return 0, -FI_EINVAL for a malformed name, -FI_ENOENT when readonly and
 *   the store does not exist, -FI_EAGAIN when it was being removed at each
 *   of three tries, -FI_ENOMEM, or another negative errno.
 */
int dfi_avs_open_shared(struct dfi_av_store *s, const char *name, uint32_t count,
			bool readonly, uint32_t *av_type);

/** Releases the store; the last close of a named one removes it. */
void dfi_avs_fini(struct dfi_av_store *s, const char *name);

/** Serialises writers (insert, remove). */
void dfi_avs_lock(struct dfi_av_store *s);
void dfi_avs_unlock(struct dfi_av_store *s);

/**
 * Stores an address at the lowest free index. Writer lock held.
 *
 * @return 0 and the index, or -FI_ENOSPC when the store is full.
 */
int dfi_avs_insert(struct dfi_av_store *s, const struct dfi_addr *a, uint32_t *idx);

/**
 * A shared store: appends the fi_addr_t an insert returned to the list
 * map_addr shows (a private store keeps none). Writer lock held. A removed
 * address stays listed; the list holds one value per insert until it has
 * the store's capacity of them.
 */
void dfi_avs_list(struct dfi_av_store *s, uint64_t fi_addr);

/** Frees an index taken by insert. Writer lock held. */
void dfi_avs_remove(struct dfi_av_store *s, uint32_t idx);

/**
 * Reverse lookup, lock-free against writers.
 *
 * @return the index of an entry holding a, or -1.
 */
int64_t dfi_avs_find(const struct dfi_av_store *s, const struct dfi_addr *a);

/** @return the entry at idx, or NULL when idx is not in use. */
static inline const struct dfi_av_entry *
dfi_avs_get(const struct dfi_av_store *s, uint32_t idx)
{
	const struct dfi_av_entry *e;

	if (unlikely(idx >= __atomic_load_n(&s->hdr->capacity, __ATOMIC_ACQUIRE)))
		return NULL;
	e = &s->chunks[idx >> DFI_AVS_CHUNK_SHIFT][idx & (DFI_AVS_CHUNK - 1)];
	if (unlikely(__atomic_load_n(&e->kind, __ATOMIC_ACQUIRE) == DFI_ADDR_NONE))
		return NULL;
	return e;
}

/** Reads the store's figures. Writer lock held. */
void dfi_avs_stats(const struct dfi_av_store *s, struct dfi_avs_stats *st);

/** Copies an entry's address out. */
void dfi_avs_entry_addr(const struct dfi_av_entry *e, struct dfi_addr *a);

#endif /* _DFI_AV_STORE_H_ */
