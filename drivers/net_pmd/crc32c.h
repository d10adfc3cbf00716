/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * CRC32C (Castagnoli), the reliable protocol's integrity check for wires
 * without an FCS: the CPU's crc32 instruction (DPDK's rte_hash_crc) for
 * short buffers; for long ones a fold of carry-less products that copies
 * as it goes where the CPU has VPCLMULQDQ (with AVX-512 or AVX2), ISA-L
 * elsewhere
 * (crc32c.c). Values are raw register states: no
 * inversion on the way in or out, so that a sum can be carried from one
 * buffer into the next.
 */

#ifndef _DFI_CRC32C_H_
#define _DFI_CRC32C_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_hash_crc.h>
#ifdef __SSE4_2__
#include <nmmintrin.h>
#endif

/* From this length on the fold and ISA-L are faster than one chain of crc32
 * instructions. */
#define DFI_CRC32C_LIB_MIN	256

/**
 * Copies len bytes from src to dst and returns the CRC of what it copied,
 * continuing crc: a payload is read once on its way in or out (by ISA-L
 * right after the copy, in the cache, on a CPU without the fold).
 */
uint32_t dfi_crc32c_copy(void *dst, const void *src, size_t len, uint32_t crc);

/** The CRC of len bytes at buf, continuing crc. */
uint32_t dfi_crc32c_long(const void *buf, size_t len, uint32_t crc);

/**
 * Which way long buffers take: the fold in registers of bits (512: AVX-512,
 * 256: AVX2, both with VPCLMULQDQ), or 0, the library. The widest the CPU
 * has is chosen at load; tests take every way. @return false, and the
 * library taken, when this CPU has not that fold.
 */
bool dfi_crc32c_fold(unsigned int bits);

/**
 * The CRC of 8 bytes, continuing crc. Where the build targets SSE4.2 (DPDK's
 * baseline for x86 is corei7), the instruction itself: rte_hash_crc_8byte()
 * asks which method to use at every call, and a packet's header and payload
 * took ninety instructions each so (callgrind, bench_ep).
 *
 * 64 bits wide in and out, for a chain's sum to stay so between the steps:
 * the instruction reads the low half of crc and clears the high half of its
 * result, and a sum cut to 32 bits at each step cost a zero-extending move
 * in the chain, a cycle more per word (the CRC is the low half; callers cut
 * it once, at the end).
 */
static inline uint64_t
dfi_crc32c_8(uint64_t v, uint64_t crc)
{
#ifdef __SSE4_2__
	/* the intrinsic, not DPDK's asm volatile: the compiler may schedule it
	 * and keep the operand in a register */
	return _mm_crc32_u64(crc, v);
#else
	return rte_hash_crc_8byte(v, (uint32_t)crc);
#endif
}

/**
 * The CRC of the last len (< 8) bytes at p, continuing crc: 4, 2 and 1 at a
 * time, as rte_hash_crc() takes them, but read through memcpy(), since a
 * payload's tail is seldom aligned (rte_hash_crc() dereferences it as
 * uint32_t and uint16_t, which UBSan reports).
 */
static inline uint32_t
dfi_crc32c_tail(const uint8_t *p, size_t len, uint32_t crc)
{
	uint32_t v4;
	uint16_t v2;

	if (len & 4) {
		memcpy(&v4, p, 4);
		crc = rte_hash_crc_4byte(v4, crc);
		p += 4;
	}
	if (len & 2) {
		memcpy(&v2, p, 2);
		crc = rte_hash_crc_2byte(v2, crc);
		p += 2;
	}
	if (len & 1)
		crc = rte_hash_crc_1byte(*p, crc);
	return crc;
}

/** The CRC of len bytes at buf, continuing crc, in one chain of the instruction. */
static inline uint32_t
dfi_crc32c_short(const void *buf, size_t len, uint32_t crc)
{
	const uint8_t *p = buf;
	uint64_t v, c = crc;

	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&v, p, 8);	/* unaligned: a packet's payload */
		c = dfi_crc32c_8(v, c);
	}
	return dfi_crc32c_tail(p, len, (uint32_t)c);
}

static inline uint32_t
dfi_crc32c(const void *buf, size_t len, uint32_t crc)
{
	if (len < DFI_CRC32C_LIB_MIN)
		return dfi_crc32c_short(buf, len, crc);
	return dfi_crc32c_long(buf, len, crc);
}

#endif /* _DFI_CRC32C_H_ */
