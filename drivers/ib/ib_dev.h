/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * rdma-core facts about ports whose PCI function is also an RDMA device
 * (bifurcated mlx5, for instance): the firmware and hardware versions that
 * ethdev may not report.
 */

#ifndef _DFI_IB_DEV_H_
#define _DFI_IB_DEV_H_

#include <rdma/fabric.h>

#include <rte_pci.h>

#include "dfi_config.h"

#if DFI_HAVE_IBVERBS
/**
 * Completes dev with the firmware (when ethdev left it empty) and the
 * hardware version of the RDMA device at this PCI address, if there is one.
 *
 * @return 0, also when no RDMA device sits at pci; -FI_ENOMEM.
 */
int dfi_ib_dev_complete(const struct rte_pci_addr *pci, struct fi_device_attr *dev);
#else
static inline int
dfi_ib_dev_complete(const struct rte_pci_addr *pci __rte_unused,
		    struct fi_device_attr *dev __rte_unused)
{
	/* Built without rdma-core: ethdev's facts are all there is. */
	return 0;
}
#endif

#endif /* _DFI_IB_DEV_H_ */
