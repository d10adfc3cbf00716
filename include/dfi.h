/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Provider-wide definitions shared by every component: the provider object,
 * its logging macros and the helpers that turn DPDK and libc error codes into
 * libfabric ones.
 */

#ifndef _DFI_H_
#define _DFI_H_

#include <errno.h>
#include <stdint.h>
#include <time.h>

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>
#include <rdma/providers/fi_log.h>
#include <rdma/providers/fi_prov.h>

#include "dfi_config.h"

#define DFI_PROV_NAME		"dpdk"
/** Provider version printed by fi_info ("version: M.m"). */
#define DFI_PROV_VERSION	FI_VERSION(DFI_VERSION_MAJOR, DFI_VERSION_MINOR)
/** libfabric API version this provider implements. */
#define DFI_FI_VERSION		FI_VERSION(1, 17)
/** Oldest API version served: 1.5 changed the mr_mode semantics. */
#define DFI_MIN_FI_VERSION	FI_VERSION(1, 5)
/** A fabric's name, its IPv4 network: "255.255.255.255/32" plus NUL. */
#define DFI_FABRIC_NAME_LEN	20

extern struct fi_provider dfi_prov;

#define DFI_WARN(subsys, fmt, ...) \
	FI_WARN(&dfi_prov, subsys, fmt "\n", ##__VA_ARGS__)
#define DFI_WARN_ONCE(subsys, fmt, ...) \
	FI_WARN_ONCE(&dfi_prov, subsys, fmt "\n", ##__VA_ARGS__)
#define DFI_INFO(subsys, fmt, ...) \
	FI_INFO(&dfi_prov, subsys, fmt "\n", ##__VA_ARGS__)
#define DFI_TRACE(subsys, fmt, ...) \
	FI_TRACE(&dfi_prov, subsys, fmt "\n", ##__VA_ARGS__)

/** Object classes are counted with these; close is refused while > 0. */
#define DFI_REF_INIT(r)		__atomic_store_n((r), 0, __ATOMIC_RELAXED)
#define DFI_REF_GET(r)		__atomic_fetch_add((r), 1, __ATOMIC_ACQ_REL)
#define DFI_REF_PUT(r)		__atomic_fetch_sub((r), 1, __ATOMIC_ACQ_REL)
#define DFI_REF_READ(r)		__atomic_load_n((r), __ATOMIC_ACQUIRE)

/** CLOCK_MONOTONIC in nanoseconds: the blocking waits' deadlines (not the fast path). */
static inline int64_t
dfi_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/** The same in milliseconds. */
static inline int64_t
dfi_now_ms(void)
{
	return dfi_now_ns() / 1000000;
}

#endif /* _DFI_H_ */
