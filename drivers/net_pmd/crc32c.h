/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * CRC32C (Castagnoli), the reliable protocol's integrity check for wires
 * without an FCS, on the CPU's crc32 instruction through DPDK's
 * rte_hash_crc. Values are raw register states: no inversion on the way in
 * or out, so that a sum can be carried from one buffer into the next.
 */

#ifndef _DFI_CRC32C_H_
#define _DFI_CRC32C_H_

#include <stddef.h>
#include <stdint.h>

#include <rte_hash_crc.h>

/* Below this, one dependency chain is as fast as three and their merge. */
#define DFI_CRC32C_LANES_MIN	192

/**
 * Copies len bytes from src to dst and returns the CRC of what it copied,
 * continuing crc: a payload is read once on its way in or out. Buffers of
 * DFI_CRC32C_LANES_MIN bytes or more run as three independent chains of
 * crc32 instructions (the instruction's latency is three times its issue
 * interval), merged by a multiplication in GF(2)[x].
 */
uint32_t dfi_crc32c_copy(void *dst, const void *src, size_t len, uint32_t crc);

/** The CRC of len bytes at buf, continuing crc. */
uint32_t dfi_crc32c_long(const void *buf, size_t len, uint32_t crc);

static inline uint32_t
dfi_crc32c(const void *buf, size_t len, uint32_t crc)
{
	if (len < DFI_CRC32C_LANES_MIN)
		return rte_hash_crc(buf, (uint32_t)len, crc);
	return dfi_crc32c_long(buf, len, crc);
}

#endif /* _DFI_CRC32C_H_ */
