/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Three-lane CRC32C. A buffer is cut into three lanes of equal length L
 * (a multiple of 8 bytes, at most LANE_MAX) and a tail; each lane runs its
 * own chain of 8-byte crc32 instructions, and the lanes are merged with
 *
 *	crc(c, A|B|C) = crc(c, A)·x^(16L) ^ crc(0, B)·x^(8L) ^ crc(0, C)  mod P
 *
 * (the register is linear in its input). A product a·x^(8L) mod P is one
 * carry-less multiplication by the constant x^(8L-33) mod P and one crc32
 * of the 64-bit product: the instruction multiplies by x^64 and reduces,
 * and the product of two bit-reflected values is shifted by one. The
 * multiplication is done in software, a nibble at a time, because DPDK's
 * baseline CPU (and Debian's build of it) does not assume PCLMULQDQ; two of
 * them per buffer cost less than the latency they hide.
 */

#include <string.h>

#include <rte_common.h>

#include "crc32c.h"

#define LANE_MAX	1024	/* bytes; longer buffers take several rounds */
#define POLY_REFLECTED	0x82f63b78u

/* shift_k[n] = x^(64n - 33) mod P, bit-reflected: merges lanes of 8n bytes */
static uint32_t shift_k[2 * LANE_MAX / 8 + 1];

RTE_INIT(crc32c_init)
{
	uint32_t v = 0x80000000u;	/* x^0 */
	unsigned int n, bit, exp = 0;

	for (n = 1; n < RTE_DIM(shift_k); n++) {
		for (; exp < 64 * n - 33; exp++) {
			bit = v & 1;
			v = (v >> 1) ^ (bit ? POLY_REFLECTED : 0);
		}
		shift_k[n] = v;
	}
}

/* Carry-less product of two 32-bit values. */
static inline uint64_t
clmul32(uint32_t a, uint32_t b)
{
	uint64_t t[16], r = 0;
	int i;

	t[0] = 0;
	t[1] = a;
	for (i = 2; i < 16; i += 2) {
		t[i] = t[i / 2] << 1;
		t[i + 1] = t[i] ^ a;
	}
	for (i = 28; i >= 0; i -= 4)
		r = (r << 4) ^ t[(b >> i) & 15];
	return r;
}

/* crc·x^(64n) mod P: crc followed by 8n zero bytes. */
static inline uint32_t
crc_shift(uint32_t crc, size_t n)
{
	return rte_hash_crc_8byte(clmul32(crc, shift_k[n]), 0);
}

static __rte_always_inline uint32_t
crc_lanes(uint8_t *d, const uint8_t *s, size_t len, uint32_t crc, bool copy)
{
	uint64_t va, vb, vc;
	uint32_t cb, cc;
	size_t lane, i;

	while (len >= DFI_CRC32C_LANES_MIN) {
		lane = RTE_MIN(len / 24 * 8, (size_t)LANE_MAX);
		cb = 0;
		cc = 0;
		for (i = 0; i < lane; i += 8) {
			memcpy(&va, s + i, 8);
			memcpy(&vb, s + lane + i, 8);
			memcpy(&vc, s + 2 * lane + i, 8);
			crc = rte_hash_crc_8byte(va, crc);
			cb = rte_hash_crc_8byte(vb, cb);
			cc = rte_hash_crc_8byte(vc, cc);
			if (copy) {
				memcpy(d + i, &va, 8);
				memcpy(d + lane + i, &vb, 8);
				memcpy(d + 2 * lane + i, &vc, 8);
			}
		}
		crc = crc_shift(crc, lane / 4) ^ crc_shift(cb, lane / 8) ^ cc;
		s += 3 * lane;
		d += copy ? 3 * lane : 0;
		len -= 3 * lane;
	}
	for (; len >= 8; len -= 8, s += 8, d += copy ? 8 : 0) {
		memcpy(&va, s, 8);
		crc = rte_hash_crc_8byte(va, crc);
		if (copy)
			memcpy(d, &va, 8);
	}
	if (len > 0) {
		crc = rte_hash_crc(s, (uint32_t)len, crc);
		if (copy)
			memcpy(d, s, len);
	}
	return crc;
}

uint32_t
dfi_crc32c_copy(void *dst, const void *src, size_t len, uint32_t crc)
{
	return crc_lanes(dst, src, len, crc, true);
}

uint32_t
dfi_crc32c_long(const void *buf, size_t len, uint32_t crc)
{
	return crc_lanes(NULL, buf, len, crc, false);
}
