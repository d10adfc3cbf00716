/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Matching ethdev PCI ports with rdma-core devices through sysfs. */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include <rte_log.h>

#include "dfi.h"
#include "ib_dev.h"

RTE_LOG_REGISTER_DEFAULT(dfi_ib_logtype, NOTICE);

#define IB_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, dfi_ib_logtype, "DFI_IB: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

static bool
ib_dev_at(struct ibv_device *ibdev, const char *pci_name)
{
	char link[PATH_MAX], real[PATH_MAX];
	const char *base;

	snprintf(link, sizeof(link), "%s/device", ibdev->ibdev_path);
	if (realpath(link, real) == NULL)
		return false;
	base = strrchr(real, '/');
	return base != NULL && strcmp(base + 1, pci_name) == 0;
}

int
dfi_ib_dev_complete(const struct rte_pci_addr *pci, struct fi_device_attr *dev)
{
	struct ibv_device **list;
	struct ibv_device_attr attr;
	struct ibv_context *ctx;
	char pci_name[PCI_PRI_STR_SIZE], ver[32];
	int i, n, ret = 0;

	rte_pci_device_name(pci, pci_name, sizeof(pci_name));
	list = ibv_get_device_list(&n);
	if (list == NULL)
		return 0;
	for (i = 0; i < n; i++) {
		if (!ib_dev_at(list[i], pci_name))
			continue;
		ctx = ibv_open_device(list[i]);
		if (ctx == NULL || ibv_query_device(ctx, &attr) != 0) {
			IB_LOG(INFO, "%s: cannot query %s", pci_name,
			       ibv_get_device_name(list[i]));
			if (ctx != NULL)
				ibv_close_device(ctx);
			break;
		}
		ibv_close_device(ctx);
		if (dev->firmware == NULL && attr.fw_ver[0] != '\0') {
			dev->firmware = strdup(attr.fw_ver);
			if (dev->firmware == NULL)
				ret = -FI_ENOMEM;
		}
		if (ret == 0 && dev->device_version == NULL) {
			snprintf(ver, sizeof(ver), "0x%x", attr.hw_ver);
			dev->device_version = strdup(ver);
			if (dev->device_version == NULL)
				ret = -FI_ENOMEM;
		}
		break;
	}
	ibv_free_device_list(list);
	return ret;
}
