/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Fabric objects: one per fi_fabric() call, named after the IPv4 network of
 * the ports it reaches. Open fabrics and their domains are kept in a registry
 * so that fi_getinfo() can report opened instances.
 */

#ifndef _DFI_FABRIC_H_
#define _DFI_FABRIC_H_

#include <stdint.h>
#include <sys/queue.h>

#include <rdma/fabric.h>

#include "dfi.h"

struct dfi_domain;

struct dfi_fabric {
	struct fid_fabric fabric_fid;
	uint32_t refs;			/* domains and EQs opened on it */
	char name[DFI_FABRIC_NAME_LEN];
	TAILQ_ENTRY(dfi_fabric) link;	/* in the registry */
	TAILQ_HEAD(, dfi_domain) domains;	/* under the registry lock */
};

/** The provider's fabric entry (struct fi_provider::fabric). */
int dfi_fabric_open(struct fi_fabric_attr *attr, struct fid_fabric **fabric, void *context);

/** @return the fabric behind fid, or NULL when fid is not a fabric of ours. */
struct dfi_fabric *dfi_fabric_from_fid(struct fid_fabric *fid);

/** @return the name of one of our fabrics, or NULL when fid is not ours. */
const char *dfi_fabric_name(struct fid_fabric *fid);

/** @return the first opened fabric with this name, or NULL. */
struct fid_fabric *dfi_fabric_find(const char *name);

/** @return the first opened domain on the port with this name, or NULL. */
struct fid_domain *dfi_fabric_find_domain(const char *port_name);

/** Counts an object opened on the fabric (EQ); fi_close() is refused meanwhile. */
void dfi_fabric_hold(struct dfi_fabric *fabric);
void dfi_fabric_release(struct dfi_fabric *fabric);

/** Adds an opened domain to its fabric (counted against fabric close). */
void dfi_fabric_attach_domain(struct dfi_fabric *fabric, struct dfi_domain *domain);
void dfi_fabric_detach_domain(struct dfi_fabric *fabric, struct dfi_domain *domain);

#endif /* _DFI_FABRIC_H_ */
