/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * CRC32C of long buffers, and of long buffers as they are copied.
 *
 * Where the CPU has VPCLMULQDQ, a fold of our own takes blocks of 256
 * bytes, in 128-bit lanes, four to a register with AVX-512 (four
 * registers), two with AVX2 alone (eight), and stores each block to the
 * destination as it goes: the copy costs no pass of its own. With AVX-512
 * its speed alone is ISA-L's (65536 bytes in 1039 against 1034 ns; both are
 * bound by the carry-less multiplier), and fused with the copy it takes the
 * time the CRC alone took, where memcpy() and then the library took a third
 * more: 4096 bytes in 65 against 89 ns, 8870 in 144 against 211, 65536 in
 * 1028 against 1544, 1370 in 27 against 45 (one run, AMD EPYC of this
 * project's VM, chains of calls). With AVX2 (the AMD EPYC of this project's
 * later VM, which has VPCLMULQDQ without AVX-512) the same: 8870 bytes
 * copied in 376 ns against 508 for memcpy() and the library, 65536 in 2921
 * against 4321, 4096 in 173 against 239, 1370 in 97 against 114 (the
 * library alone: 402, 2882, 183 and 87). ISA-L has no copying CRC, and its
 * crc32_iscsi() takes 128-bit registers on that CPU.
 *
 * Elsewhere ISA-L's crc32_iscsi(), which picks the CPU's fastest method at
 * run time (Debian's DPDK is built for a baseline without PCLMULQDQ):
 * 1370 bytes in 43-73 ns against 95-140 ns for three chains of crc32
 * instructions merged in software, 8 KiB in 180-214 ns against 434-504 ns.
 *
 * Below DFI_CRC32C_LIB_MIN bytes either costs more to set up than one chain
 * of the crc32 instruction, and a copy is fused with the chain there.
 */

#include <string.h>

#include <immintrin.h>
#include <isa-l/crc.h>

#include <rte_common.h>

#include "copy.h"
#include "crc32c.h"

/*
 * The library folds blocks of 256 bytes; what is left after them it takes
 * more slowly than one chain of the crc32 instruction does, so the chain
 * takes it (1370 bytes: 37.5 against 42.5 ns, 2000: 52 against 63, 4000:
 * 64 against 75; multiples of 256 the same; one run, latency of a chain of
 * calls).
 */
#define CRC32C_LIB_BLOCK	256
#define CRC32C_LIB_CHUNK	(1 << 30)	/* a multiple of the block in an int */

/*
 * The fold's constants, each pair the multipliers of a 128-bit lane's low
 * and high halves that carry it D bits further: bit-reflected x^(D+32) mod P
 * and x^(D-32) mod P, shifted left once (P is CRC32C's polynomial, 0x1EDC6F41).
 * A lane so moved onto another and added to it leaves the CRC unchanged.
 */
#define FOLD_2048_LO	0x0dcb17aa4ULL	/* one register past the four of a block */
#define FOLD_2048_HI	0x0b9e02b86ULL
#define FOLD_512_LO	0x0740eef02ULL	/* one register past the next */
#define FOLD_512_HI	0x09e4addf8ULL
#define FOLD_384_LO	0x01c291d04ULL	/* a register's lanes onto its last */
#define FOLD_384_HI	0x1d82c63daULL
#define FOLD_256_LO	0x1384aa63aULL
#define FOLD_256_HI	0x0ba4fc28eULL
#define FOLD_128_LO	0x0f20c0dfeULL
#define FOLD_128_HI	0x14cd00bd6ULL

/* The CRC of len >= 256 bytes at src, copied to dst on the way unless dst is NULL. */
typedef uint32_t (*fold_fn)(uint8_t *dst, const uint8_t *src, size_t len, uint32_t crc);

/*
 * fold_fn name, of an always-inlined body(dst, src, len, crc, copy) made
 * twice, copy constant in each: a test of it in the loops would cost more
 * than the branch here.
 */
#define FOLD_FN(name, body)						\
static uint32_t								\
name(uint8_t *dst, const uint8_t *src, size_t len, uint32_t crc)	\
{									\
	return dst != NULL ? body(dst, src, len, crc, true) :		\
			     body(NULL, src, len, crc, false);		\
}

static fold_fn fold;	/* NULL: the library */

/* the folds' code, and only it, may use what the probe found */
#pragma GCC push_options
#pragma GCC target("pclmul,sse4.2")

/* inlined, in the folds' VEX encoding: a call to this region's legacy SSE
 * from theirs stalls (a 1370-byte CRC took 312 ns, 73 without the call) */
static __rte_always_inline __m128i
fold_128(__m128i x, uint64_t lo, uint64_t hi, __m128i next)
{
	__m128i k = _mm_set_epi64x((long long)hi, (long long)lo);

	return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
					   _mm_clmulepi64_si128(x, k, 0x11)), next);
}

/*
 * What both folds end with, from the one lane x their blocks were folded
 * onto: on over 16-byte blocks, then the CRC from 0 of the lane's 16 bytes
 * and the tail after them, which is the buffer's.
 */
static __rte_always_inline uint32_t
fold_end(__m128i x, uint8_t *dst, const uint8_t *src, size_t len, bool copy)
{
	uint64_t lo, hi;
	uint32_t crc;

	for (; len >= 16; src += 16, len -= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)src);

		if (copy) {
			_mm_storeu_si128((__m128i *)(void *)dst, v);
			dst += 16;
		}
		x = fold_128(x, FOLD_128_LO, FOLD_128_HI, v);
	}
	lo = (uint64_t)_mm_cvtsi128_si64(x);
	hi = (uint64_t)_mm_extract_epi64(x, 1);
	crc = (uint32_t)_mm_crc32_u64(_mm_crc32_u64(0, lo), hi);
	if (copy)
		memcpy(dst, src, len);
	return dfi_crc32c_short(src, len, crc);
}

#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,vpclmulqdq,pclmul,sse4.2")

static inline __m512i
fold_512(__m512i x, __m512i k, __m512i next)
{
	/* 0x96: the three-way exclusive or */
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
					 _mm512_clmulepi64_epi128(x, k, 0x11), next, 0x96);
}

static inline __m512i
load_512(uint8_t **dst, const uint8_t *src, bool copy)
{
	__m512i v = _mm512_loadu_si512(src);

	if (copy) {
		_mm512_storeu_si512(*dst, v);
		*dst += 64;
	}
	return v;
}

/*
 * The CRC of len >= 256 bytes at src, copied to dst on the way when copy:
 * the first 256 bytes (crc added to their first four) in four registers,
 * each folded 256 bytes on per block after them, then onto each other, on
 * over what 64-byte blocks are left, and its four lanes onto its last.
 */
static __rte_always_inline uint32_t
fold_by_512(uint8_t *dst, const uint8_t *src, size_t len, uint32_t crc, bool copy)
{
	const __m512i k2048 = _mm512_broadcast_i32x4(_mm_set_epi64x(FOLD_2048_HI, FOLD_2048_LO));
	const __m512i k512 = _mm512_broadcast_i32x4(_mm_set_epi64x(FOLD_512_HI, FOLD_512_LO));
	__m512i x0, x1, x2, x3;
	__m128i x;

	x0 = _mm512_xor_si512(load_512(&dst, src, copy),
			      _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)crc)));
	x1 = load_512(&dst, src + 64, copy);
	x2 = load_512(&dst, src + 128, copy);
	x3 = load_512(&dst, src + 192, copy);
	for (src += 256, len -= 256; len >= 256; src += 256, len -= 256) {
		x0 = fold_512(x0, k2048, load_512(&dst, src, copy));
		x1 = fold_512(x1, k2048, load_512(&dst, src + 64, copy));
		x2 = fold_512(x2, k2048, load_512(&dst, src + 128, copy));
		x3 = fold_512(x3, k2048, load_512(&dst, src + 192, copy));
	}
	x3 = fold_512(fold_512(fold_512(x0, k512, x1), k512, x2), k512, x3);
	for (; len >= 64; src += 64, len -= 64)
		x3 = fold_512(x3, k512, load_512(&dst, src, copy));
	x = fold_128(_mm512_extracti32x4_epi32(x3, 0), FOLD_384_LO, FOLD_384_HI,
		     _mm512_extracti32x4_epi32(x3, 3));
	x = fold_128(_mm512_extracti32x4_epi32(x3, 1), FOLD_256_LO, FOLD_256_HI, x);
	x = fold_128(_mm512_extracti32x4_epi32(x3, 2), FOLD_128_LO, FOLD_128_HI, x);
	return fold_end(x, dst, src, len, copy);
}

FOLD_FN(crc_fold_512, fold_by_512)

#pragma GCC pop_options

#pragma GCC push_options
/* corei7's tuning, the build's, splits every unaligned 256-bit load and store in two */
#pragma GCC target("avx2,vpclmulqdq,pclmul,sse4.2,tune=haswell")

/* without AVX-512's three-way exclusive or: two */
static inline __m256i
fold_256(__m256i x, __m256i k, __m256i next)
{
	return _mm256_xor_si256(_mm256_xor_si256(_mm256_clmulepi64_epi128(x, k, 0x00),
						 _mm256_clmulepi64_epi128(x, k, 0x11)), next);
}

static inline __m256i
load_256(uint8_t **dst, const uint8_t *src, bool copy)
{
	__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)src);

	if (copy) {
		_mm256_storeu_si256((__m256i *)(void *)*dst, v);
		*dst += 32;
	}
	return v;
}

/*
 * fold_by_512() in registers of two lanes: the first 256 bytes in eight,
 * each folded 256 bytes on per block, then onto each other, on over what
 * 32-byte blocks are left, and its two lanes onto its last. Eight
 * registers, not four on 128-byte blocks: the multiplier's latency is
 * hidden so, and the constants are those of the wider fold.
 */
static __rte_always_inline uint32_t
fold_by_256(uint8_t *dst, const uint8_t *src, size_t len, uint32_t crc, bool copy)
{
	const __m256i k2048 = _mm256_broadcastsi128_si256(_mm_set_epi64x(FOLD_2048_HI,
									 FOLD_2048_LO));
	const __m256i k256 = _mm256_broadcastsi128_si256(_mm_set_epi64x(FOLD_256_HI,
									FOLD_256_LO));
	__m256i x[8];
	unsigned int i;
	__m128i lane;

	/* unrolled, or the registers are an array in memory */
#pragma GCC unroll 8
	for (i = 0; i < 8; i++)
		x[i] = load_256(&dst, src + 32 * i, copy);
	x[0] = _mm256_xor_si256(x[0], _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)crc)));
	for (src += 256, len -= 256; len >= 256; src += 256, len -= 256) {
#pragma GCC unroll 8
		for (i = 0; i < 8; i++)
			x[i] = fold_256(x[i], k2048, load_256(&dst, src + 32 * i, copy));
	}
#pragma GCC unroll 8
	for (i = 1; i < 8; i++)
		x[i] = fold_256(x[i - 1], k256, x[i]);
	for (; len >= 32; src += 32, len -= 32)
		x[7] = fold_256(x[7], k256, load_256(&dst, src, copy));
	lane = fold_128(_mm256_castsi256_si128(x[7]), FOLD_128_LO, FOLD_128_HI,
			_mm256_extracti128_si256(x[7], 1));
	/* GCC 12 leaves the upper halves dirty where fold_end() ends in a
	 * jump to dfi_crc32c_short(), and the SSE code after would pay */
	_mm256_zeroupper();
	return fold_end(lane, dst, src, len, copy);
}

FOLD_FN(crc_fold_256, fold_by_256)

#pragma GCC pop_options

bool
dfi_crc32c_fold(unsigned int bits)
{
	bool vpclmul = __builtin_cpu_supports("vpclmulqdq");

	fold = NULL;
	if (bits == 512 && vpclmul && __builtin_cpu_supports("avx512f"))
		fold = crc_fold_512;
	else if (bits == 256 && vpclmul && __builtin_cpu_supports("avx2"))
		fold = crc_fold_256;
	return bits == 0 || fold != NULL;
}

RTE_INIT(crc32c_fold_probe)
{
	/* a constructor may run before libgcc's, which fills what the
	 * feature tests read */
	__builtin_cpu_init();
	if (!dfi_crc32c_fold(512))
		dfi_crc32c_fold(256);
}

uint32_t
dfi_crc32c_copy(void *dst, const void *src, size_t len, uint32_t crc)
{
	const uint8_t *s = src;
	uint8_t *d = dst;
	uint64_t w0, w1, w2, w3, c = crc;

	if (len >= DFI_CRC32C_LIB_MIN) {
		if (fold != NULL)
			return fold(dst, src, len, crc);
		/* the library reads what the copy just brought into the cache */
		dfi_copy(dst, src, len);
		return dfi_crc32c_long(dst, len, crc);
	}
	/* four words a turn: a 64-byte message's payload took 76 instructions
	 * in a loop of one (callgrind, bench_ep); the sum stays 64 bits wide
	 * between the crc32s (dfi_crc32c_8()) */
#ifdef __SSE4_2__
	if (len >= 32) {
		do {
			memcpy(&w0, s, 8);
			memcpy(&w1, s + 8, 8);
			memcpy(&w2, s + 16, 8);
			memcpy(&w3, s + 24, 8);
			c = _mm_crc32_u64(c, w0);
			c = _mm_crc32_u64(c, w1);
			c = _mm_crc32_u64(c, w2);
			c = _mm_crc32_u64(c, w3);
			memcpy(d, &w0, 8);
			memcpy(d + 8, &w1, 8);
			memcpy(d + 16, &w2, 8);
			memcpy(d + 24, &w3, 8);
			len -= 32;
			s += 32;
			d += 32;
		} while (len >= 32);
	}
#endif
	for (; len >= 8; len -= 8, s += 8, d += 8) {
		memcpy(&w0, s, 8);
		c = dfi_crc32c_8(w0, c);
		memcpy(d, &w0, 8);
	}
	crc = (uint32_t)c;
	if (len > 0) {
		crc = dfi_crc32c_tail(s, len, crc);
		memcpy(d, s, len);
	}
	return crc;
}

uint32_t
dfi_crc32c_long(const void *buf, size_t len, uint32_t crc)
{
	const uint8_t *p = buf;
	size_t bulk;

	if (fold != NULL && len >= DFI_CRC32C_LIB_MIN)
		return fold(NULL, p, len, crc);
	/* crc32_iscsi() takes an int length */
	while (len > CRC32C_LIB_CHUNK) {
		crc = crc32_iscsi((unsigned char *)(uintptr_t)p, CRC32C_LIB_CHUNK, crc);
		p += CRC32C_LIB_CHUNK;
		len -= CRC32C_LIB_CHUNK;
	}
	bulk = len & ~(size_t)(CRC32C_LIB_BLOCK - 1);
	if (bulk > 0)
		crc = crc32_iscsi((unsigned char *)(uintptr_t)p, (int)bulk, crc);
	return dfi_crc32c_short(p + bulk, len - bulk, crc);
}
