/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * What the benchmark programs linked with the provider share: a check that
 * counts a failure and goes on, since a benchmark asserts correctness while
 * it prints its figures, and a domain opened straight on the provider. Each
 * program is one file, which owns the count.
 */

#ifndef _DFI_BENCH_H_
#define _DFI_BENCH_H_

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>

#include "prov.h"

static int failures __attribute__((unused));

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		failures++; \
		fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fprintf(stderr, "\n"); \
	} \
} while (0)

struct bench {
	struct fi_provider *prov;
	struct fi_info *info;
	struct fid_fabric *fabric;
	struct fid_domain *domain;
};

static inline double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The provider linked in, reached through fi_prov_ini(): a domain on the
 * first port, for endpoints of type with caps. */
static inline int
bench_open(struct bench *b, enum fi_ep_type type, uint64_t caps)
{
	struct fi_info *hints = fi_allocinfo();
	int ret;

	/* the provider is linked in: keep libfabric from loading a second copy */
	setenv("FI_PROVIDER_PATH", "/nonexistent", 1);
	setenv("FI_DPDK_EAL_ARGS", "--no-huge -m 256 --no-pci --no-shconf --no-telemetry "
	       "--log-level=warning --vdev=net_null0", 1);
	b->prov = fi_prov_ini();
	hints->ep_attr->type = type;
	hints->caps = caps;
	ret = b->prov->getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &b->info);
	fi_freeinfo(hints);
	if (ret == 0)
		ret = b->prov->fabric(b->info->fabric_attr, &b->fabric, NULL);
	if (ret == 0)
		ret = fi_domain(b->fabric, b->info, &b->domain, NULL);
	return ret;
}

static inline void
bench_close(struct bench *b)
{
	fi_close(&b->domain->fid);
	fi_close(&b->fabric->fid);
	fi_freeinfo(b->info);
	b->prov->cleanup();
}

#endif /* _DFI_BENCH_H_ */
