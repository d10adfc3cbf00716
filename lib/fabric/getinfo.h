/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * fi_getinfo(): one fi_info per DPDK port and endpoint type, filtered and
 * shaped by the hints, node, service and flags as fi_getinfo(3) and
 * fi_domain(3) define them.
 */

#ifndef _DFI_GETINFO_H_
#define _DFI_GETINFO_H_

#include <stdint.h>

#include <rdma/fabric.h>

/** The provider's getinfo entry (struct fi_provider::getinfo). */
int dfi_getinfo(uint32_t version, const char *node, const char *service, uint64_t flags,
		const struct fi_info *hints, struct fi_info **info);

/**
 * Checks an info against hints and narrows it to what they ask for: the
 * capability, mode, size, order, progress, threading and memory-registration
 * rules of fi_getinfo(3).
 *
 * @param info
 *   A template from dfi_info_template(); rewritten in place.
 * @return 0, or -FI_ENODATA when the hints ask for something info cannot give
 *   (the reason is logged at info level).
 */
int dfi_info_apply_hints(struct fi_info *info, const struct fi_info *hints, uint32_t version);

#endif /* _DFI_GETINFO_H_ */
