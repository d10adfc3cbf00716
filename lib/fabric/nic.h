/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * fid_nic (fi_nic(3)) of a DPDK port: device, bus and link facts read from
 * the PMD. Its close, FI_DUP control and tostr work on copies libfabric makes
 * itself, so the object is a plain calloc'ed fid_nic with nothing attached.
 */

#ifndef _DFI_NIC_H_
#define _DFI_NIC_H_

#include <rdma/fabric.h>

#include "port.h"

/**
 * Creates the nic of a port (fi_close() it).
 *
 * @return 0 with *nic set; the ethdev's error when the PMD cannot describe
 *   the port (logged), or -FI_ENOMEM; *nic is NULL then.
 */
int dfi_nic_create(const struct dfi_port *port, struct fid_nic **nic);

#endif /* _DFI_NIC_H_ */
