/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Memory registration benchmark: fi_mr_reg() plus fi_close() for regions of
 * 4 KiB to 1 GiB, next to mlock() plus munlock() of the same memory, the
 * least a provider that pins pages for a NIC pays (measured in the same run:
 * the ratio is printed). Then the target's key lookup with 16 and 60,000
 * regions registered: one hash probe either way; what the larger table adds
 * is cache misses.
 * Figures are printed, never asserted; what is asserted is that every
 * registration succeeds and every key finds its own region.
 *
 * usage: bench_mr
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <rdma/fi_domain.h>

#include "bench.h"
#include "domain.h"
#include "mr.h"

#define NB_LOOKUP_KEYS	60000

/* ns per register + deregister of len bytes at mem, over iters. */
static double
reg_cost(struct fid_domain *domain, uint8_t *mem, size_t len, int iters)
{
	struct fid_mr *mr;
	double t0 = now_ns();
	int i;

	for (i = 0; i < iters; i++) {
		CHECK(fi_mr_reg(domain, mem, len, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 1, 0, &mr,
				NULL) == 0, "fi_mr_reg of %zu bytes", len);
		CHECK(fi_close(&mr->fid) == 0, "fi_close of a region");
	}
	return (now_ns() - t0) / iters;
}

/* ns per mlock + munlock of len bytes at mem, or -1 when refused. */
static double
pin_cost(uint8_t *mem, size_t len, int iters)
{
	double t0 = now_ns();
	int i;

	for (i = 0; i < iters; i++) {
		if (mlock(mem, len) != 0)
			return -1;
		munlock(mem, len);
	}
	return (now_ns() - t0) / iters;
}

/* ns per key lookup, over the first n of keys. */
static double
lookup_cost(struct dfi_domain *d, struct fid_mr **mrs, uint32_t n)
{
	const uint32_t rounds = 2000000;
	uint64_t x = 88172645463325252ULL;
	double t0 = now_ns();
	uint32_t i, found = 0;
	struct dfi_mr *mr;

	for (i = 0; i < rounds; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		mr = dfi_mr_find(&d->mrs, fi_mr_key(mrs[x % n]));
		found += mr != NULL && &mr->mr_fid == mrs[x % n];
	}
	t0 = (now_ns() - t0) / rounds;
	CHECK(found == rounds, "every key finds its region (%u of %u)", found, rounds);
	return t0;
}

int
main(void)
{
	static const size_t sizes[] = { 4096, 65536, 1 << 20, 16 << 20, 256 << 20, 1 << 30 };
	struct fid_mr **mrs = calloc(NB_LOOKUP_KEYS, sizeof(*mrs));
	size_t max = sizes[RTE_DIM(sizes) - 1], i;
	struct bench b;
	uint8_t *mem;
	double reg, pin;
	int iters;

	mem = mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || mrs == NULL || bench_open(&b, FI_EP_RDM, FI_MSG | FI_RMA) != 0) {
		fprintf(stderr, "bench_mr: set-up failed\n");
		return 1;
	}
	memset(mem, 1, max);	/* resident, as an application's buffers are */
	printf("register + deregister (fi_mr_reg + fi_close) vs pinning (mlock + munlock)\n");
	printf("%10s %8s %14s %14s %8s\n", "bytes", "iters", "reg+dereg ns", "mlock+unlock ns",
	       "ratio");
	for (i = 0; i < RTE_DIM(sizes); i++) {
		iters = sizes[i] >= (16 << 20) ? 5 : 2000;
		reg = reg_cost(b.domain, mem, sizes[i], 20000);
		pin = pin_cost(mem, sizes[i], iters);
		printf("%10zu %8d %14.0f %14.0f %8.4f\n", sizes[i], iters, reg, pin,
		       pin > 0 ? reg / pin : 0);
	}
	/* the target's lookup: one hash probe whatever the table holds */
	for (i = 0; i < NB_LOOKUP_KEYS; i++)
		CHECK(fi_mr_reg(b.domain, mem + i, 1, FI_REMOTE_WRITE, 0, 1000 + i, 0, &mrs[i],
				NULL) == 0, "region %zu", i);
	printf("key lookup at the target: %.1f ns with 16 regions, %.1f ns with %u\n",
	       lookup_cost(container_of(b.domain, struct dfi_domain, domain_fid), mrs, 16),
	       lookup_cost(container_of(b.domain, struct dfi_domain, domain_fid), mrs,
			   NB_LOOKUP_KEYS), NB_LOOKUP_KEYS);
	for (i = 0; i < NB_LOOKUP_KEYS; i++)
		fi_close(&mrs[i]->fid);
	bench_close(&b);
	munmap(mem, max);
	free(mrs);
	printf("%s\n", failures == 0 ? "ok" : "FAILED");
	fflush(stdout);
	return failures == 0 ? 0 : 1;
}
