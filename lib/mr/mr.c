/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Memory regions and their keys (fi_mr(3)). Registration pins nothing and
 * touches no page: the data path copies between the wire and the region, so
 * a region is its bounds, its rights and its key. Registration, close and
 * lookups run under the map's lock; a region answering a read, or taking a
 * write of several segments, is held busy from its lookup, so that it cannot
 * close under the answer or the segments still to come.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <rte_common.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_lcore.h>
#include <rte_random.h>

#include "cntr.h"
#include "dfi.h"
#include "domain.h"
#include "mr.h"
#include "stubs.h"

#define MR_GEN_BITS	24
#define MR_GEN_MASK	((1u << MR_GEN_BITS) - 1)
#define MR_MAP_MIN	1024	/* a domain's table starts this large and doubles */

#define MR_ACCESS	(FI_SEND | FI_RECV | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE)

static struct dfi_mr *
mr_of(struct fid *fid)
{
	return container_of(fid, struct dfi_mr, mr_fid.fid);
}

void
dfi_mr_map_init(struct dfi_mr_map *map, int mr_mode)
{
	memset(map, 0, sizeof(*map));
	rte_spinlock_init(&map->lock);
	map->prov_key = mr_mode == FI_MR_BASIC || (mr_mode & FI_MR_PROV_KEY) != 0;
	map->virt_addr = mr_mode == FI_MR_BASIC || (mr_mode & FI_MR_VIRT_ADDR) != 0;
}

void
dfi_mr_map_fini(struct dfi_mr_map *map)
{
	rte_hash_free(map->keys);
	map->keys = NULL;
}

/* The table grows by rehashing into one twice as large: registration is
 * not on the data path, and lookups stay one hash probe. */
static int
map_grow(struct dfi_mr_map *map)
{
	uint32_t size = map->keys == NULL ? MR_MAP_MIN : 2 * (uint32_t)rte_hash_max_key_id(map->keys);
	struct rte_hash_parameters p = {
		.entries = size,
		.key_len = sizeof(uint64_t),
		.hash_func = rte_hash_crc,
		.socket_id = (int)rte_socket_id(),
	};
	const void *key;
	void *data;
	uint32_t it = 0;
	struct rte_hash *h;
	char name[RTE_HASH_NAMESIZE];

	snprintf(name, sizeof(name), "dfi_mr_%p_%u", (void *)map, size);
	p.name = name;
	h = rte_hash_create(&p);
	if (h == NULL) {
		DFI_WARN(FI_LOG_MR, "no memory for a table of %u memory regions", size);
		return -FI_ENOMEM;
	}
	while (map->keys != NULL && rte_hash_iterate(map->keys, &key, &data, &it) >= 0) {
		if (rte_hash_add_key_data(h, key, data) != 0) {
			rte_hash_free(h);
			return -FI_ENOMEM;
		}
	}
	rte_hash_free(map->keys);
	map->keys = h;
	return 0;
}

static uint64_t
prov_key(struct dfi_mr_map *map)
{
	uint64_t rnd = 0;

	/* 40 unguessable bits; the generation keeps a reused draw apart */
	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd)) {
		DFI_WARN(FI_LOG_MR, "getrandom failed: this key's random bits come from rte_rand()");
		rnd = rte_rand();
	}
	map->gen = (map->gen + 1) & MR_GEN_MASK;
	return (rnd << MR_GEN_BITS) | map->gen;
}

static int
map_add(struct dfi_mr_map *map, struct dfi_mr *mr, uint64_t requested_key)
{
	uint64_t key;
	int ret;

	if (map->keys == NULL ||
	    rte_hash_count(map->keys) >= rte_hash_max_key_id(map->keys) * 3 / 4) {
		ret = map_grow(map);
		if (ret != 0)
			return ret;
	}
	do {
		key = map->prov_key ? prov_key(map) : requested_key;
		if (rte_hash_lookup(map->keys, &key) < 0)
			break;
		if (!map->prov_key)
			return -FI_ENOKEY;
	} while (true);
	/* a full bucket refuses a key before the table is full: grow and retry */
	while ((ret = rte_hash_add_key_data(map->keys, &key, mr)) == -ENOSPC) {
		ret = map_grow(map);
		if (ret != 0)
			return ret;
	}
	if (ret != 0)
		return -FI_ENOMEM;
	mr->mr_fid.key = key;
	return 0;
}

static int
mr_close(struct fid *fid)
{
	struct dfi_mr *mr = mr_of(fid);
	struct dfi_domain *domain = mr->domain;
	uint32_t busy;

	rte_spinlock_lock(&domain->mrs.lock);
	busy = __atomic_load_n(&mr->busy, __ATOMIC_ACQUIRE);
	if (busy != 0) {
		rte_spinlock_unlock(&domain->mrs.lock);
		DFI_WARN(FI_LOG_MR, "memory region 0x%" PRIx64 ": %u remote reads or writes "
			 "in flight", mr->mr_fid.key, busy);
		return -FI_EBUSY;
	}
	rte_hash_del_key(domain->mrs.keys, &mr->mr_fid.key);
	rte_spinlock_unlock(&domain->mrs.lock);
	while (mr->nb_bound > 0)
		dfi_cntr_detach(mr->bound[--mr->nb_bound], NULL);
	dfi_domain_release(domain);
	free(mr);
	return 0;
}

static int
mr_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct dfi_mr *mr = mr_of(fid);
	struct dfi_cntr *cntr = bfid != NULL ? dfi_cntr_from_fid(bfid) : NULL;
	int ret;

	if (cntr == NULL || cntr->domain != mr->domain) {
		DFI_WARN(FI_LOG_MR, "fi_mr_bind: only a counter of the region's domain binds");
		return -FI_EINVAL;
	}
	if (flags == 0 || (flags & ~(uint64_t)(FI_REMOTE_READ | FI_REMOTE_WRITE)) != 0)
		return -FI_EBADFLAGS;
	if (((flags & FI_REMOTE_WRITE) && mr->cntr_write != NULL) ||
	    ((flags & FI_REMOTE_READ) && mr->cntr_read != NULL))
		return -FI_EBUSY;
	ret = dfi_cntr_attach(cntr, NULL);
	if (ret != 0)
		return ret;
	mr->bound[mr->nb_bound++] = cntr;
	if (flags & FI_REMOTE_WRITE)
		mr->cntr_write = cntr;
	if (flags & FI_REMOTE_READ)
		mr->cntr_read = cntr;
	return 0;
}

static int
mr_control(struct fid *fid, int command, void *arg __rte_unused)
{
	struct dfi_mr *mr = mr_of(fid);

	if (command != FI_ENABLE)
		return -FI_ENOSYS;
	mr->enabled = true;
	return 0;
}

static struct fi_ops mr_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = mr_close,
	.bind = mr_bind,
	.control = mr_control,
	.ops_open = dfi_no_ops_open,
	.tostr = dfi_no_tostr,
	.ops_set = dfi_no_ops_set,
};

static int
mr_regattr(struct fid *fid, const struct fi_mr_attr *attr, uint64_t flags, struct fid_mr **mr_fid)
{
	struct dfi_domain *domain = container_of(fid, struct dfi_domain, domain_fid.fid);
	const struct iovec *iov;
	struct dfi_mr *mr;
	int ret;

	if (attr == NULL || mr_fid == NULL || fid->fclass != FI_CLASS_DOMAIN)
		return -FI_EINVAL;
	if ((flags & ~(uint64_t)FI_RMA_EVENT) != 0)
		return -FI_EBADFLAGS;
	iov = attr->mr_iov;
	if (attr->iov_count != 1 || iov == NULL || (iov->iov_base == NULL && iov->iov_len != 0)) {
		DFI_WARN(FI_LOG_MR, "fi_mr_reg: one buffer per region (mr_iov_limit 1), not %zu",
			 attr->iov_count);
		return -FI_EINVAL;
	}
	if (attr->offset != 0 || (attr->access & ~(uint64_t)MR_ACCESS) != 0 ||
	    attr->iface != FI_HMEM_SYSTEM ||
	    (uintptr_t)iov->iov_base > UINTPTR_MAX - iov->iov_len)
		return -FI_EINVAL;
	mr = calloc(1, sizeof(*mr));
	if (mr == NULL)
		return -FI_ENOMEM;
	mr->mr_fid.fid.fclass = FI_CLASS_MR;
	mr->mr_fid.fid.context = attr->context;
	mr->mr_fid.fid.ops = &mr_fi_ops;
	mr->mr_fid.mem_desc = mr;
	mr->domain = domain;
	mr->base = iov->iov_base;
	mr->len = iov->iov_len;
	/* fi_mr(3): no access given means every access */
	mr->access = attr->access != 0 ? attr->access : MR_ACCESS;
	mr->addr0 = domain->mrs.virt_addr ? (uint64_t)(uintptr_t)mr->base : 0;
	/* FI_MR_RMA_EVENT is not required: a region is live at once, and
	 * fi_mr_enable() is accepted */
	mr->enabled = true;
	rte_spinlock_lock(&domain->mrs.lock);
	ret = map_add(&domain->mrs, mr, attr->requested_key);
	rte_spinlock_unlock(&domain->mrs.lock);
	if (ret != 0) {
		if (ret == -FI_ENOKEY)
			DFI_INFO(FI_LOG_MR, "fi_mr_reg: key 0x%" PRIx64 " is in use",
				 attr->requested_key);
		free(mr);
		return ret;
	}
	dfi_domain_hold(domain);
	*mr_fid = &mr->mr_fid;
	return 0;
}

static int
mr_regv(struct fid *fid, const struct iovec *iov, size_t count, uint64_t access,
	uint64_t offset, uint64_t requested_key, uint64_t flags, struct fid_mr **mr,
	void *context)
{
	struct fi_mr_attr attr = {
		.mr_iov = iov,
		.iov_count = count,
		.access = access,
		.offset = offset,
		.requested_key = requested_key,
		.context = context,
		.iface = FI_HMEM_SYSTEM,
	};

	return mr_regattr(fid, &attr, flags, mr);
}

static int
mr_reg(struct fid *fid, const void *buf, size_t len, uint64_t access, uint64_t offset,
       uint64_t requested_key, uint64_t flags, struct fid_mr **mr, void *context)
{
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };

	return mr_regv(fid, &iov, 1, access, offset, requested_key, flags, mr, context);
}

struct fi_ops_mr dfi_mr_ops = {
	.size = sizeof(struct fi_ops_mr),
	.reg = mr_reg,
	.regv = mr_regv,
	.regattr = mr_regattr,
};

/* The map's lock is held. */
static struct dfi_mr *
map_find(struct dfi_mr_map *map, uint64_t key)
{
	void *data = NULL;

	if (map->keys == NULL || rte_hash_lookup_data(map->keys, &key, &data) < 0)
		data = NULL;
	return data != NULL && ((struct dfi_mr *)data)->enabled ? data : NULL;
}

struct dfi_mr *
dfi_mr_find(struct dfi_mr_map *map, uint64_t key)
{
	struct dfi_mr *mr;

	rte_spinlock_lock(&map->lock);
	mr = map_find(map, key);
	rte_spinlock_unlock(&map->lock);
	return mr;
}

int
dfi_mr_access(struct dfi_mr_map *map, uint64_t key, uint64_t right, uint64_t addr,
	      uint64_t len, bool hold, struct dfi_mr **mrp, uint8_t **ptr)
{
	struct dfi_mr *mr;
	uint64_t off;
	const char *why;

	rte_spinlock_lock(&map->lock);
	mr = map_find(map, key);
	if (mr != NULL && hold)
		__atomic_fetch_add(&mr->busy, 1, __ATOMIC_RELAXED);
	rte_spinlock_unlock(&map->lock);
	if (mr == NULL) {
		why = "no such key";
	} else if ((mr->access & right) != right) {
		why = (right & ~mr->access & FI_REMOTE_WRITE) ? "not granted FI_REMOTE_WRITE" :
								 "not granted FI_REMOTE_READ";
	} else if (addr < mr->addr0 || len > mr->len || addr - mr->addr0 > mr->len - len) {
		why = "outside the region";
	} else {
		off = addr - mr->addr0;
		*mrp = mr;
		*ptr = mr->base + off;
		return 0;
	}
	if (mr != NULL && hold)
		dfi_mr_unhold(mr);
	DFI_WARN(FI_LOG_MR, "remote %s of %" PRIu64 " bytes at 0x%" PRIx64 " with key 0x%" PRIx64
		 " refused: %s", right == FI_REMOTE_READ ? "read" : "write", len, addr, key, why);
	return -FI_EACCES;
}

void
dfi_mr_unhold(struct dfi_mr *mr)
{
	__atomic_fetch_sub(&mr->busy, 1, __ATOMIC_RELEASE);
}

void
dfi_mr_event(struct dfi_mr *mr, uint64_t right, struct dfi_guard *guard)
{
	struct dfi_cntr *c = right == FI_REMOTE_WRITE ? mr->cntr_write : mr->cntr_read;
	struct dfi_guard *held = NULL;

	if (c == NULL)
		return;
	/* a counter is in the domain's group (guard.h): taken from another,
	 * which no holder of the domain's waits for */
	if (!dfi_in_domain_group(mr->domain, guard))
		held = dfi_guard_lock(mr->domain->guard);
	dfi_cntr_inc(c);
	if (held != NULL)
		dfi_guard_unlock(held);
}
