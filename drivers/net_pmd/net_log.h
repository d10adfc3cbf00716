/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* The dfi.net_pmd log type (rte_log), as DPDK drivers declare theirs. */

#ifndef _DFI_NET_LOG_H_
#define _DFI_NET_LOG_H_

#include <rte_log.h>

extern int dfi_net_logtype;

#define NET_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, dfi_net_logtype, "DFI_NET: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

#endif /* _DFI_NET_LOG_H_ */
