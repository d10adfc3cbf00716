/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * What the benchmark programs share: a check that counts a failure and goes
 * on, since a benchmark asserts correctness while it prints its figures.
 * Each program is one file, which owns the count.
 */

#ifndef _DFI_BENCH_H_
#define _DFI_BENCH_H_

#include <stdio.h>

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		failures++; \
		fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fprintf(stderr, "\n"); \
	} \
} while (0)

#endif /* _DFI_BENCH_H_ */
