/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* net_memif ports: their role and ring buffer size, read from their device
 * arguments, and a client's start that keeps memif's refusals quiet. */

#include <stdlib.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>
#include <rte_kvargs.h>
#include <rte_log.h>

#include "memif.h"

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
	struct rte_eth_dev_info info;

	return rte_eth_dev_info_get(port_id, &info) == 0 && info.driver_name != NULL &&
	       strcmp(info.driver_name, MEMIF_DRIVER) == 0;
}

static int
bsize_of(const char *key __rte_unused, const char *value, void *arg)
{
	unsigned long v = strtoul(value, NULL, 10);

	if (v > 0 && v <= UINT16_MAX)
		*(uint16_t *)arg = (uint16_t)v;
	return 0;
}

/* Calls handler on key's value in the port's device arguments, if any. */
static void
devarg(uint16_t port_id, const char *key, arg_handler_t handler, void *arg)
{
	struct rte_eth_dev_info info;
	const struct rte_devargs *da;
	struct rte_kvargs *kv;

	if (rte_eth_dev_info_get(port_id, &info) != 0 || info.device == NULL)
		return;
	da = rte_dev_devargs(info.device);
	if (da == NULL || da->args == NULL || da->args[0] == '\0')
		return;
	kv = rte_kvargs_parse(da->args, NULL);
	if (kv == NULL)
		return;
	rte_kvargs_process(kv, key, handler, arg);
	rte_kvargs_free(kv);
}

uint16_t
dfi_memif_mtu(uint16_t port_id)
{
	uint16_t bsize = MEMIF_BSIZE_DEFAULT;

	devarg(port_id, MEMIF_BSIZE_ARG, bsize_of, &bsize);
	return bsize > RTE_ETHER_HDR_LEN ?
	       (uint16_t)RTE_MIN(bsize - RTE_ETHER_HDR_LEN, DFI_MEMIF_JUMBO_MTU) : 0;
}

bool
dfi_memif_is_client(uint16_t port_id)
{
	bool client = true;	/* memif's default role */

	if (!dfi_memif_is(port_id))
		return false;
	devarg(port_id, MEMIF_ROLE_ARG, role_is_client, &client);
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
