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

/** @return a new nic for the port (fi_close() it), or NULL when out of memory. */
struct fid_nic *dfi_nic_create(const struct dfi_port *port);

#endif /* _DFI_NIC_H_ */
