/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The data path's bulk copy: memcpy(), but not into glibc's `rep movsb`
 * where the CPU runs it slowly.
 */

#ifndef _DFI_COPY_H_
#define _DFI_COPY_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_memcpy.h>

/* glibc 2.36 copies more than 2 KiB with `rep movsb` */
#define DFI_COPY_MOVSB_MIN	2048
/* a destination 1 to DFI_COPY_NEAR - 1 bytes past the source, modulo a
 * page, slows it */
#define DFI_COPY_NEAR		32
#define DFI_COPY_PAGE		4096

/**
 * Copies len bytes from src to dst (apart). glibc's memcpy() of more than
 * 2 KiB is a `rep movsb`, which this project's AMD EPYC runs 17-24 times
 * slower when the destination lies 1 to 31 bytes past the source modulo
 * 4 KiB (4096 bytes: 3,577 cycles against 147 at any other distance; 8 KiB:
 * 6,958 against 245; test/bench_copy.c): an inject buffer that calloc() put 16
 * bytes into a page, filled from an application's page-aligned buffer, is
 * such a pair. There rte_memcpy(), vector loads and stores (4096 bytes: 245
 * cycles), is used; elsewhere memcpy(), the faster of the two.
 */
static inline void
dfi_copy(void *dst, const void *src, size_t len)
{
	if (unlikely(len > DFI_COPY_MOVSB_MIN &&
		     (((uintptr_t)dst - (uintptr_t)src - 1) & (DFI_COPY_PAGE - 1)) <
		     DFI_COPY_NEAR - 1))
		rte_memcpy(dst, src, len);
	else
		memcpy(dst, src, len);
}

#endif /* _DFI_COPY_H_ */
