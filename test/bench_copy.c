/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The data path's bulk copy (drivers/net_pmd/copy.h) next to glibc's
 * memcpy() and DPDK's rte_memcpy(), in cache, for the distances between
 * destination and source modulo a page that matter: 0 and 64, where memcpy()
 * is fast, and 16, where its `rep movsb` (above 2 KiB) is slow on some CPUs
 * (AMD EPYC in this project's VM). Nanoseconds per copy, the best of several
 * batches, and memcpy()'s time as a ratio of dfi_copy()'s. Figures are
 * printed, never asserted; what is asserted is that every copy is right.
 *
 * usage: bench_copy
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_memcpy.h>

#include "bench.h"
#include "copy.h"

#define BATCH		2000
#define BATCHES		7

enum way { WAY_MEMCPY, WAY_RTE, WAY_DFI, NB_WAYS };

static const char *const way_names[NB_WAYS] = { "memcpy", "rte_memcpy", "dfi_copy" };

/* The best of BATCHES batches of BATCH copies, in ns a copy; checks the bytes. */
static double
copy_ns(enum way w, uint8_t *dst, const uint8_t *src, size_t len)
{
	double best = 0, t;
	int b, i;

	for (b = 0; b < BATCHES; b++) {
		memset(dst, 0, len);
		t = now_ns();
		for (i = 0; i < BATCH; i++) {
			if (w == WAY_MEMCPY)
				memcpy(dst, src, len);
			else if (w == WAY_RTE)
				rte_memcpy(dst, src, len);
			else
				dfi_copy(dst, src, len);
			/* keeps the compiler from merging the copies */
			__asm__ volatile("" : : "r"(dst) : "memory");
		}
		t = (now_ns() - t) / BATCH;
		if (b == 0 || t < best)
			best = t;
		CHECK(memcmp(dst, src, len) == 0, "%s of %zu bytes", way_names[w], len);
	}
	return best;
}

int
main(void)
{
	static const size_t lens[] = { 2048, 4096, 8192, 65536 };
	static const size_t dists[] = { 0, 16, 64 };
	uint8_t *src = aligned_alloc(4096, 65536 + 4096);
	uint8_t *dst = aligned_alloc(4096, 65536 + 8192);
	double ns[NB_WAYS];
	size_t l, d, i;
	int w;

	if (src == NULL || dst == NULL)
		return 1;
	for (i = 0; i < 65536 + 4096; i++)
		src[i] = (uint8_t)i;
	printf("bulk copies in cache, ns a copy (best of %d batches of %d); the destination d bytes\n"
	       "past the source modulo a page; memcpy / dfi_copy: memcpy()'s time over dfi_copy()'s\n",
	       BATCHES, BATCH);
	printf("%8s %6s %10s %10s %10s %18s\n", "bytes", "d", way_names[0], way_names[1],
	       way_names[2], "memcpy / dfi_copy");
	for (l = 0; l < RTE_DIM(lens); l++) {
		for (d = 0; d < RTE_DIM(dists); d++) {
			for (w = 0; w < NB_WAYS; w++)
				ns[w] = copy_ns((enum way)w, dst + dists[d], src, lens[l]);
			printf("%8zu %6zu %10.1f %10.1f %10.1f %17.2fx\n", lens[l], dists[d],
			       ns[WAY_MEMCPY], ns[WAY_RTE], ns[WAY_DFI], ns[WAY_MEMCPY] / ns[WAY_DFI]);
		}
	}
	free(src);
	free(dst);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
