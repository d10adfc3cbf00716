/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Address vector storage: chunked entries, a free-slot bitmap hierarchy and
 * an incrementally rehashed reverse index, in private or shared memory.
 */

#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_hash_crc.h>
#include <rte_pause.h>

#include "dfi.h"
#include "av_store.h"

#define AVS_VERSION		2
#define AVS_MIN_BUCKETS		1024u
#define AVS_L2_WORDS		(DFI_AVS_MAX_CHUNKS / 64)
/* Old buckets migrated by each insert or remove while a rehash runs. */
#define AVS_MIGRATE_STEP	8
#define AVS_NAME_MAX		64
#define AVS_ATTACH_TRIES	1000	/* x 1 ms, waiting for a creator */

static inline struct dfi_av_entry *
entry_at(const struct dfi_av_store *s, uint32_t idx)
{
	return &s->chunks[idx >> DFI_AVS_CHUNK_SHIFT][idx & (DFI_AVS_CHUNK - 1)];
}

static uint32_t
addr_hash(const struct dfi_addr *a)
{
	uint64_t key;

	if (a->kind == DFI_ADDR_ETH)
		key = (uint64_t)a->mac[0] | (uint64_t)a->mac[1] << 8 |
		      (uint64_t)a->mac[2] << 16 | (uint64_t)a->mac[3] << 24 |
		      (uint64_t)a->mac[4] << 32 | (uint64_t)a->mac[5] << 40 |
		      (uint64_t)a->port << 48;
	else
		key = (uint64_t)a->ipv4 << 32 | (uint64_t)a->port << 16;
	return rte_hash_crc_8byte(key, a->kind);
}

static bool
entry_holds(const struct dfi_av_entry *e, const struct dfi_addr *a)
{
	if (__atomic_load_n(&e->kind, __ATOMIC_ACQUIRE) != a->kind || e->port != a->port)
		return false;
	if (a->kind == DFI_ADDR_ETH)
		return memcmp(e->mac, a->mac, sizeof(e->mac)) == 0;
	return e->ipv4 == a->ipv4;
}

void
dfi_avs_stats(const struct dfi_av_store *s, struct dfi_avs_stats *st)
{
	st->capacity = s->hdr->capacity;
	st->used = s->hdr->used;
	st->chunks_added = s->chunks_added;
	st->rehashes = s->rehashes;
	st->bytes = s->bytes;
}

void
dfi_avs_entry_addr(const struct dfi_av_entry *e, struct dfi_addr *a)
{
	memset(a, 0, sizeof(*a));
	a->kind = e->kind;
	a->ipv4 = e->ipv4;
	a->port = e->port;
	memcpy(a->mac, e->mac, sizeof(a->mac));
}

/* -- free slots: three bitmap levels above the per-chunk words -- */

static int64_t
lowest_free(const struct dfi_av_store *s)
{
	uint32_t i, c, w;

	if (s->hdr->l3 == 0)
		return -1;
	i = (uint32_t)__builtin_ctzll(s->hdr->l3);
	c = i * 64 + (uint32_t)__builtin_ctzll(s->l2[i]);
	w = (uint32_t)__builtin_ctzll(s->l1[c]);
	return (int64_t)c * DFI_AVS_CHUNK + w * 64 +
	       __builtin_ctzll(s->chunk_free[c][w]);
}

static void
mark_used(struct dfi_av_store *s, uint32_t idx)
{
	uint32_t c = idx >> DFI_AVS_CHUNK_SHIFT, w = (idx & (DFI_AVS_CHUNK - 1)) / 64;

	s->chunk_free[c][w] &= ~(1ULL << (idx % 64));
	if (s->chunk_free[c][w] != 0)
		return;
	s->l1[c] &= ~(1ULL << w);
	if (s->l1[c] != 0)
		return;
	s->l2[c / 64] &= ~(1ULL << (c % 64));
	if (s->l2[c / 64] == 0)
		s->hdr->l3 &= ~(1ULL << (c / 64));
}

static void
mark_free(struct dfi_av_store *s, uint32_t idx)
{
	uint32_t c = idx >> DFI_AVS_CHUNK_SHIFT, w = (idx & (DFI_AVS_CHUNK - 1)) / 64;

	s->chunk_free[c][w] |= 1ULL << (idx % 64);
	s->l1[c] |= 1ULL << w;
	s->l2[c / 64] |= 1ULL << (c % 64);
	s->hdr->l3 |= 1ULL << (c / 64);
}

/* -- private memory -- */

static void *
mem_alloc(struct dfi_av_store *s, size_t len)
{
	void *p;

	if (numa_available() >= 0)
		p = numa_alloc_onnode(len, s->numa_node);
	else
		p = calloc(1, len);
	if (p != NULL)
		s->bytes += len;
	return p;
}

static void
mem_free(void *p, size_t len)
{
	if (p == NULL)
		return;
	if (numa_available() >= 0)
		numa_free(p, len);
	else
		free(p);
}

/* A chunk's entries, followed by its free-slot words. */
#define CHUNK_BYTES	(sizeof(struct dfi_av_entry) * DFI_AVS_CHUNK + \
			 sizeof(uint64_t) * DFI_AVS_CHUNK_WORDS)

static int
add_chunk(struct dfi_av_store *s)
{
	uint32_t c = s->hdr->capacity >> DFI_AVS_CHUNK_SHIFT;
	struct dfi_av_entry *entries;
	uint64_t *words;

	if (c >= s->max_chunks)
		return -FI_ENOSPC;
	entries = mem_alloc(s, CHUNK_BYTES);
	if (entries == NULL)
		return -FI_ENOMEM;
	words = (uint64_t *)(void *)(entries + DFI_AVS_CHUNK);
	memset(words, 0xff, sizeof(*words) * DFI_AVS_CHUNK_WORDS);
	s->chunks[c] = entries;
	s->chunk_free[c] = words;
	s->l1[c] = ~0ULL;
	s->l2[c / 64] |= 1ULL << (c % 64);
	s->hdr->l3 |= 1ULL << (c / 64);
	/* readers check the capacity before touching a chunk */
	__atomic_store_n(&s->hdr->capacity, s->hdr->capacity + DFI_AVS_CHUNK, __ATOMIC_RELEASE);
	return 0;
}

static uint32_t
pow2_at_least(uint32_t n)
{
	return n <= 1 ? 1 : 1u << (32 - __builtin_clz(n - 1));
}

int
dfi_avs_init(struct dfi_av_store *s, uint32_t count, int numa_node)
{
	uint32_t nb_buckets, i;
	int ret;

	memset(s, 0, sizeof(*s));
	if (count > DFI_AVS_MAX_ENTRIES)
		return -FI_EINVAL;
	s->numa_node = numa_node;
	s->max_chunks = DFI_AVS_MAX_CHUNKS;
	nb_buckets = pow2_at_least(RTE_MAX(count, AVS_MIN_BUCKETS));
	s->hdr = calloc(1, sizeof(*s->hdr));
	s->chunks = calloc(DFI_AVS_MAX_CHUNKS, sizeof(*s->chunks));
	s->chunk_free = calloc(DFI_AVS_MAX_CHUNKS, sizeof(*s->chunk_free));
	s->l1 = calloc(DFI_AVS_MAX_CHUNKS, sizeof(*s->l1));
	s->l2 = calloc(AVS_L2_WORDS, sizeof(*s->l2));
	s->buckets = calloc(nb_buckets, sizeof(*s->buckets));
	if (s->hdr == NULL || s->chunks == NULL || s->chunk_free == NULL || s->l1 == NULL ||
	    s->l2 == NULL || s->buckets == NULL) {
		ret = -FI_ENOMEM;
		goto err_free;
	}
	s->bytes += sizeof(*s->hdr) + DFI_AVS_MAX_CHUNKS * (2 * sizeof(void *) + sizeof(*s->l1)) +
		    AVS_L2_WORDS * sizeof(*s->l2) + sizeof(*s->buckets) * nb_buckets;
	s->bucket_mask = nb_buckets - 1;
	pthread_mutex_init(&s->hdr->lock, NULL);
	for (i = 0; i < count; i += DFI_AVS_CHUNK) {
		ret = add_chunk(s);
		if (ret != 0)
			goto err_free;
	}
	return 0;

err_free:
	dfi_avs_fini(s, NULL);
	return ret;
}

/* -- shared memory -- */

struct shm_layout {
	size_t entries, free_words, l1, l2, buckets, list, len;
};

static void
shm_layout(uint32_t capacity, uint32_t nb_buckets, struct shm_layout *l)
{
	uint32_t nb_chunks = capacity / DFI_AVS_CHUNK;

	l->entries = RTE_ALIGN_CEIL(sizeof(struct dfi_av_store_hdr), RTE_CACHE_LINE_SIZE);
	l->free_words = l->entries + (size_t)capacity * sizeof(struct dfi_av_entry);
	l->l1 = l->free_words + (size_t)nb_chunks * DFI_AVS_CHUNK_WORDS * sizeof(uint64_t);
	l->l2 = l->l1 + (size_t)nb_chunks * sizeof(uint64_t);
	l->buckets = l->l2 + AVS_L2_WORDS * sizeof(uint64_t);
	l->list = RTE_ALIGN_CEIL(l->buckets + (size_t)nb_buckets * sizeof(uint32_t),
				 RTE_CACHE_LINE_SIZE);
	l->len = l->list + (size_t)capacity * sizeof(uint64_t);
}

/* Points the process-local view at a mapped region. */
static int
shm_view(struct dfi_av_store *s, void *region, size_t len)
{
	struct dfi_av_store_hdr *hdr = region;
	uint32_t nb_chunks = hdr->capacity / DFI_AVS_CHUNK, c;
	uint32_t nb_buckets = pow2_at_least(hdr->capacity);
	struct shm_layout l;
	uint8_t *base = region;

	shm_layout(hdr->capacity, nb_buckets, &l);
	if (l.len != len)
		return -FI_EINVAL;
	s->chunks = calloc(DFI_AVS_MAX_CHUNKS, sizeof(*s->chunks));
	s->chunk_free = calloc(DFI_AVS_MAX_CHUNKS, sizeof(*s->chunk_free));
	if (s->chunks == NULL || s->chunk_free == NULL)
		return -FI_ENOMEM;
	for (c = 0; c < nb_chunks; c++) {
		s->chunks[c] = (struct dfi_av_entry *)(void *)(base + l.entries) +
			       (size_t)c * DFI_AVS_CHUNK;
		s->chunk_free[c] = (uint64_t *)(void *)(base + l.free_words) +
				   (size_t)c * DFI_AVS_CHUNK_WORDS;
	}
	s->hdr = hdr;
	s->l1 = (uint64_t *)(void *)(base + l.l1);
	s->l2 = (uint64_t *)(void *)(base + l.l2);
	s->buckets = (uint32_t *)(void *)(base + l.buckets);
	s->list = (uint64_t *)(void *)(base + l.list);
	s->bucket_mask = nb_buckets - 1;
	s->max_chunks = nb_chunks;
	s->region = region;
	s->region_len = len;
	s->shared = true;
	s->bytes = len;
	return 0;
}

static int
shm_create(int fd, uint32_t count, uint32_t av_type, void **region, size_t *len)
{
	uint32_t capacity = RTE_ALIGN_CEIL(RTE_MAX(count, 1u), DFI_AVS_CHUNK);
	uint32_t nb_chunks = capacity / DFI_AVS_CHUNK, c;
	struct dfi_av_store_hdr *hdr;
	pthread_mutexattr_t mattr;
	struct shm_layout l;
	uint64_t *l1, *l2, *words;

	shm_layout(capacity, pow2_at_least(capacity), &l);
	if (ftruncate(fd, (off_t)l.len) != 0)
		return -errno;
	*region = mmap(NULL, l.len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (*region == MAP_FAILED)
		return -errno;
	*len = l.len;
	hdr = *region;
	words = (uint64_t *)(void *)((uint8_t *)*region + l.free_words);
	l1 = (uint64_t *)(void *)((uint8_t *)*region + l.l1);
	l2 = (uint64_t *)(void *)((uint8_t *)*region + l.l2);
	memset(words, 0xff, (size_t)nb_chunks * DFI_AVS_CHUNK_WORDS * sizeof(*words));
	for (c = 0; c < nb_chunks; c++) {
		l1[c] = ~0ULL;
		l2[c / 64] |= 1ULL << (c % 64);
		hdr->l3 |= 1ULL << (c / 64);
	}
	hdr->version = AVS_VERSION;
	hdr->av_type = av_type;
	hdr->capacity = capacity;
	hdr->opens = 1;
	hdr->map_addr = (uint64_t)(uintptr_t)((uint8_t *)*region + l.list);
	pthread_mutexattr_init(&mattr);
	pthread_mutexattr_setpshared(&mattr, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&mattr, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&hdr->lock, &mattr);
	pthread_mutexattr_destroy(&mattr);
	/* openers wait for the magic: it is written last */
	__atomic_store_n(&hdr->magic, DFI_AVS_MAGIC, __ATOMIC_RELEASE);
	return 0;
}

static int
shm_attach(int fd, void **region, size_t *len)
{
	struct dfi_av_store_hdr *hdr;
	struct stat st;
	uint64_t magic;
	int tries;

	for (tries = 0; tries < AVS_ATTACH_TRIES; tries++) {
		if (fstat(fd, &st) != 0)
			return -errno;
		if ((size_t)st.st_size >= sizeof(*hdr)) {
			*region = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
				       MAP_SHARED, fd, 0);
			if (*region == MAP_FAILED)
				return -errno;
			hdr = *region;
			magic = __atomic_load_n(&hdr->magic, __ATOMIC_ACQUIRE);
			if (magic == DFI_AVS_MAGIC && hdr->version == AVS_VERSION) {
				*len = (size_t)st.st_size;
				return 0;
			}
			munmap(*region, (size_t)st.st_size);
			if (magic == DFI_AVS_DEAD)
				return -FI_EAGAIN;	/* its last user is removing it */
		}
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	return -FI_ETIMEDOUT;
}

static int
shm_name(const char *name, char *buf, size_t len)
{
	size_t i, n = strlen(name);

	if (n == 0 || n > AVS_NAME_MAX)
		return -FI_EINVAL;
	for (i = 0; i < n; i++) {
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '_' || name[i] == '-' ||
		      name[i] == '.'))
			return -FI_EINVAL;
	}
	snprintf(buf, len, "/dfi-av.%s", name);
	return 0;
}

/* Creates the region at path, or maps the existing one. */
static int
shm_get(const char *path, uint32_t count, bool readonly, uint32_t av_type, void **region,
	size_t *len, bool *created)
{
	int fd, ret;

	*created = false;
	fd = readonly ? -1 : shm_open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd >= 0) {
		ret = shm_create(fd, count, av_type, region, len);
		close(fd);
		if (ret != 0)
			shm_unlink(path);
		*created = ret == 0;
		return ret;
	}
	if (!readonly && errno != EEXIST)
		return -errno;
	fd = shm_open(path, O_RDWR, 0);
	if (fd < 0) {
		if (errno == ENOENT && readonly)
			return -FI_ENOENT;
		/* removed since O_EXCL saw it: create it again */
		return errno == ENOENT ? -FI_EAGAIN : -errno;
	}
	ret = shm_attach(fd, region, len);
	close(fd);
	return ret;
}

static void
shm_unview(struct dfi_av_store *s)
{
	munmap(s->region, s->region_len);
	free(s->chunks);
	free(s->chunk_free);
	memset(s, 0, sizeof(*s));
}

int
dfi_avs_open_shared(struct dfi_av_store *s, const char *name, uint32_t count, bool readonly,
		    uint32_t *av_type)
{
	char path[AVS_NAME_MAX + 16];
	bool created, alive;
	void *region = NULL;
	size_t len = 0;
	int ret, tries;

	memset(s, 0, sizeof(*s));
	ret = shm_name(name, path, sizeof(path));
	if (ret != 0)
		return ret;
	if (count > DFI_AVS_MAX_ENTRIES)
		return -FI_EINVAL;
	/* Create it, or attach to it; retry if its last user removes it meanwhile. */
	for (tries = 0, ret = -FI_EAGAIN; tries < 3 && ret == -FI_EAGAIN; tries++) {
		ret = shm_get(path, count, readonly, *av_type, &region, &len, &created);
		if (ret != 0)
			continue;
		ret = shm_view(s, region, len);
		if (ret != 0) {
			if (created)
				shm_unlink(path);
			s->region = region;
			s->region_len = len;
			shm_unview(s);
			return ret;
		}
		/* The last user marks it dead under the lock before unlinking it: an
		 * opener that attached just before must not count itself in. */
		dfi_avs_lock(s);
		alive = __atomic_load_n(&s->hdr->magic, __ATOMIC_ACQUIRE) == DFI_AVS_MAGIC;
		if (alive && !created)
			s->hdr->opens++;
		*av_type = s->hdr->av_type;
		dfi_avs_unlock(s);
		if (alive)
			return 0;
		shm_unview(s);
		ret = -FI_EAGAIN;
	}
	return ret;
}

void
dfi_avs_fini(struct dfi_av_store *s, const char *name)
{
	char path[AVS_NAME_MAX + 16];
	uint32_t c, i;
	bool last;

	if (s->shared) {
		dfi_avs_lock(s);
		last = --s->hdr->opens == 0;
		if (last)
			__atomic_store_n(&s->hdr->magic, DFI_AVS_DEAD, __ATOMIC_RELEASE);
		dfi_avs_unlock(s);
		if (last && name != NULL && shm_name(name, path, sizeof(path)) == 0)
			shm_unlink(path);
		shm_unview(s);
		return;
	}
	if (s->chunks != NULL) {
		for (c = 0; c < DFI_AVS_MAX_CHUNKS && s->chunks[c] != NULL; c++)
			mem_free(s->chunks[c], CHUNK_BYTES);
	}
	free(s->buckets);
	free(s->old_buckets);
	for (i = 0; i < s->nb_retired; i++)
		free(s->retired[i]);
	free(s->retired);
	if (s->hdr != NULL)
		pthread_mutex_destroy(&s->hdr->lock);
	free(s->hdr);
	free(s->chunks);
	free(s->chunk_free);
	free(s->l1);
	free(s->l2);
	memset(s, 0, sizeof(*s));
}

void
dfi_avs_lock(struct dfi_av_store *s)
{
	if (pthread_mutex_lock(&s->hdr->lock) == EOWNERDEAD) {
		/* A process died holding it: its half-done change may leave a
		 * stale hash link, which lookups tolerate. */
		DFI_WARN(FI_LOG_AV, "a process died while changing a shared AV");
		if (s->hdr->seq & 1)
			s->hdr->seq++;
		pthread_mutex_consistent(&s->hdr->lock);
	}
}

void
dfi_avs_unlock(struct dfi_av_store *s)
{
	pthread_mutex_unlock(&s->hdr->lock);
}

void
dfi_avs_list(struct dfi_av_store *s, uint64_t fi_addr)
{
	uint32_t n;

	if (!s->shared)
		return;
	n = s->hdr->listed;
	if (n >= s->hdr->capacity) {
		DFI_INFO(FI_LOG_AV, "the shared AV's list (map_addr) is full: %u inserts", n);
		return;
	}
	s->list[n] = fi_addr;
	/* readers in other processes see the value before the count */
	__atomic_store_n(&s->hdr->listed, n + 1, __ATOMIC_RELEASE);
}

/* -- reverse index -- */

static void
seq_begin(struct dfi_av_store *s)
{
	__atomic_store_n(&s->hdr->seq, s->hdr->seq + 1, __ATOMIC_RELAXED);
	rte_atomic_thread_fence(__ATOMIC_RELEASE);
}

static void
seq_end(struct dfi_av_store *s)
{
	__atomic_store_n(&s->hdr->seq, s->hdr->seq + 1, __ATOMIC_RELEASE);
}

/* Which table holds the chain of hash h while a rehash runs. */
static uint32_t *
bucket_of(struct dfi_av_store *s, uint32_t h)
{
	if (s->old_buckets != NULL && (h & s->old_mask) >= s->migrate_pos)
		return &s->old_buckets[h & s->old_mask];
	return &s->buckets[h & s->bucket_mask];
}

static void
migrate(struct dfi_av_store *s, uint32_t nb)
{
	struct dfi_av_entry *e;
	struct dfi_addr a;
	uint32_t head, idx, *b;
	void **retired;

	while (nb-- > 0 && s->old_buckets != NULL) {
		head = s->old_buckets[s->migrate_pos];
		s->old_buckets[s->migrate_pos] = 0;
		s->migrate_pos++;
		while (head != 0) {
			idx = head - 1;
			e = entry_at(s, idx);
			head = e->next;
			dfi_avs_entry_addr(e, &a);
			b = &s->buckets[addr_hash(&a) & s->bucket_mask];
			e->next = *b;
			*b = idx + 1;
		}
		if (s->migrate_pos > s->old_mask) {
			/* Lock-free readers may still walk it: freed at fini. */
			retired = realloc(s->retired, sizeof(*retired) * (s->nb_retired + 1));
			if (retired != NULL) {
				s->retired = retired;
				s->retired[s->nb_retired++] = s->old_buckets;
			}
			s->old_buckets = NULL;
		}
	}
}

static void
rehash_step(struct dfi_av_store *s)
{
	uint32_t nb = (s->bucket_mask + 1) * 2;
	uint32_t *grown;

	if (s->shared)
		return;
	if (s->old_buckets != NULL) {
		migrate(s, AVS_MIGRATE_STEP);
		return;
	}
	if (s->hdr->used <= s->bucket_mask + 1 || nb > DFI_AVS_MAX_ENTRIES)
		return;
	grown = calloc(nb, sizeof(*grown));
	if (grown == NULL)
		return;	/* longer chains, still correct */
	s->bytes += sizeof(*grown) * nb;
	s->rehashes++;
	s->old_buckets = s->buckets;
	s->old_mask = s->bucket_mask;
	s->migrate_pos = 0;
	s->buckets = grown;
	s->bucket_mask = nb - 1;
	migrate(s, AVS_MIGRATE_STEP);
}

int
dfi_avs_insert(struct dfi_av_store *s, const struct dfi_addr *a, uint32_t *idx_out)
{
	struct dfi_av_entry *e;
	int64_t idx;
	uint32_t *b;
	int ret;

	idx = lowest_free(s);
	if (idx < 0) {
		ret = s->shared ? -FI_ENOSPC : add_chunk(s);
		if (ret != 0)
			return ret;
		s->chunks_added++;
		idx = lowest_free(s);
	}
	mark_used(s, (uint32_t)idx);
	e = entry_at(s, (uint32_t)idx);
	e->ipv4 = a->ipv4;
	e->port = a->port;
	memcpy(e->mac, a->mac, sizeof(e->mac));

	seq_begin(s);
	b = bucket_of(s, addr_hash(a));
	e->next = *b;
	*b = (uint32_t)idx + 1;
	rehash_step(s);
	seq_end(s);

	__atomic_store_n(&e->kind, a->kind, __ATOMIC_RELEASE);
	s->hdr->used++;
	*idx_out = (uint32_t)idx;
	return 0;
}

void
dfi_avs_remove(struct dfi_av_store *s, uint32_t idx)
{
	struct dfi_av_entry *e = entry_at(s, idx), *prev;
	struct dfi_addr a;
	uint32_t *link, cur;

	dfi_avs_entry_addr(e, &a);
	seq_begin(s);
	link = bucket_of(s, addr_hash(&a));
	for (cur = *link; cur != 0 && cur != idx + 1; cur = prev->next) {
		prev = entry_at(s, cur - 1);
		link = &prev->next;
	}
	if (cur == idx + 1)
		*link = e->next;
	rehash_step(s);
	seq_end(s);

	__atomic_store_n(&e->kind, DFI_ADDR_NONE, __ATOMIC_RELEASE);
	e->gen++;
	mark_free(s, idx);
	s->hdr->used--;
}

static int64_t
chain_find(const struct dfi_av_store *s, uint32_t head, const struct dfi_addr *a,
	   uint32_t capacity)
{
	const struct dfi_av_entry *e;
	uint32_t steps = 0;

	while (head != 0 && head - 1 < capacity && steps++ <= capacity) {
		e = entry_at(s, head - 1);
		if (entry_holds(e, a))
			return (int64_t)head - 1;
		head = __atomic_load_n(&e->next, __ATOMIC_RELAXED);
	}
	return -1;
}

int64_t
dfi_avs_find(const struct dfi_av_store *s, const struct dfi_addr *a)
{
	uint32_t h = addr_hash(a), seq, capacity;
	const uint32_t *old;
	int64_t idx;

	for (;;) {
		seq = __atomic_load_n(&s->hdr->seq, __ATOMIC_ACQUIRE);
		if (seq & 1) {
			rte_pause();
			continue;
		}
		capacity = __atomic_load_n(&s->hdr->capacity, __ATOMIC_ACQUIRE);
		idx = chain_find(s, __atomic_load_n(&s->buckets[h & s->bucket_mask],
						    __ATOMIC_RELAXED), a, capacity);
		old = s->old_buckets;
		if (idx < 0 && old != NULL && (h & s->old_mask) >= s->migrate_pos)
			idx = chain_find(s, __atomic_load_n(&old[h & s->old_mask],
							    __ATOMIC_RELAXED), a, capacity);
		rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&s->hdr->seq, __ATOMIC_RELAXED) == seq)
			return idx;
	}
}
