/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* net_memif ports: their role and ring buffer size, read from their device
 * arguments, and a client's start that keeps memif's refusals quiet. */

#include <string.h>

#include <rte_ethdev.h>
#include <rte_log.h>

#include "devargs.h"
#include "memif.h"
#include "wire.h"

/* drivers/net/memif/rte_eth_memif.h */
#define MEMIF_DRIVER		"net_memif"
#define MEMIF_ROLE_ARG		"role"
#define MEMIF_BSIZE_ARG		"bsize"
#define MEMIF_BSIZE_DEFAULT	2048
#define MEMIF_LOGTYPE		"pmd.net.memif"

static int
role_is_client(const char *key __rte_unused, const char *value, void *arg)
{
	/* memif takes "slave" for "client" too */
	*(bool *)arg = strcmp(value, "client") == 0 || strcmp(value, "slave") == 0;
	return 0;
}

bool
dfi_memif_is(uint16_t port_id)
{
	return dfi_driver_is(port_id, MEMIF_DRIVER);
}

uint16_t
dfi_memif_mtu(uint16_t port_id)
{
	uint32_t bsize = MEMIF_BSIZE_DEFAULT;

	dfi_devarg(port_id, MEMIF_BSIZE_ARG, dfi_devarg_u32, &bsize);
	return bsize > RTE_ETHER_HDR_LEN ?
	       (uint16_t)RTE_MIN(bsize - RTE_ETHER_HDR_LEN, (uint32_t)DFI_JUMBO_MTU) : 0;
}

bool
dfi_memif_is_client(uint16_t port_id)
{
	bool client = true;	/* memif's default role */

	if (!dfi_memif_is(port_id))
		return false;
	dfi_devarg(port_id, MEMIF_ROLE_ARG, role_is_client, &client);
	return client;
}

int
dfi_memif_client_start(uint16_t port_id)
{
	int type = rte_log_register(MEMIF_LOGTYPE);
	int level = type >= 0 ? rte_log_get_level(type) : -1;
	int ret;

	if (level >= 0)
		rte_log_set_level(type, RTE_LOG_CRIT);
	ret = rte_eth_dev_start(port_id);
	if (level >= 0)
		rte_log_set_level(type, (uint32_t)level);
	return ret;
}
