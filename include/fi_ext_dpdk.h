/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/**
 * @file
 * Extensions of the dpdk libfabric provider that applications may use.
 */

#ifndef _FI_EXT_DPDK_H_
#define _FI_EXT_DPDK_H_

#include <stdint.h>

#include <rdma/fabric.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Address format of raw-Ethernet endpoint addresses: a MAC address and the
 * endpoint's port, with no IP address. Ask for it in hints->addr_format.
 */
#define FI_ADDR_DPDK	(FI_PROV_SPECIFIC | 0xd9d0)

/** URI scheme of FI_ADDR_DPDK addresses: fi_addr_dpdk://[02:00:00:00:00:01]:7471 */
#define FI_ADDR_DPDK_URI	"fi_addr_dpdk://"

/** A raw-Ethernet endpoint address (FI_ADDR_DPDK). */
struct fi_dpdk_addr {
	uint8_t mac[6];		/**< the port's MAC address */
	uint16_t port;		/**< endpoint port, network byte order */
};

#ifdef __cplusplus
}
#endif

#endif /* _FI_EXT_DPDK_H_ */
