/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Device arguments of a port, parsed when a fact is asked for (devargs.h). */

#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>

#include "devargs.h"

bool
dfi_driver_is(uint16_t port_id, const char *driver)
{
	struct rte_eth_dev_info info;

	return rte_eth_dev_info_get(port_id, &info) == 0 && info.driver_name != NULL &&
	       strcmp(info.driver_name, driver) == 0;
}

void
dfi_devarg(uint16_t port_id, const char *key, arg_handler_t handler, void *arg)
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

int
dfi_devarg_u32(const char *key __rte_unused, const char *value, void *arg)
{
	unsigned long v = strtoul(value, NULL, 10);

	if (v > 0 && v <= UINT32_MAX)
		*(uint32_t *)arg = (uint32_t)v;
	return 0;
}
