/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Ops slots several objects share: the operations the provider does not
 * offer (libfabric calls ops slots without checking them, so every slot of
 * every ops table points somewhere; these answer -FI_ENOSYS), and the
 * strerror of the event and completion queues.
 */

#ifndef _DFI_STUBS_H_
#define _DFI_STUBS_H_

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_eq.h>

int dfi_no_bind(struct fid *fid, struct fid *bfid, uint64_t flags);
int dfi_no_control(struct fid *fid, int command, void *arg);
int dfi_no_ops_open(struct fid *fid, const char *name, uint64_t flags, void **ops,
		    void *context);
int dfi_no_tostr(const struct fid *fid, char *buf, size_t len);
int dfi_no_ops_set(struct fid *fid, const char *name, uint64_t flags, void *ops,
		   void *context);

int dfi_no_passive_ep(struct fid_fabric *fabric, struct fi_info *info, struct fid_pep **pep,
		      void *context);
int dfi_no_wait_open(struct fid_fabric *fabric, struct fi_wait_attr *attr,
		     struct fid_wait **waitset);

int dfi_no_scalable_ep(struct fid_domain *domain, struct fi_info *info, struct fid_ep **sep,
		       void *context);
int dfi_no_poll_open(struct fid_domain *domain, struct fi_poll_attr *attr,
		     struct fid_poll **pollset);
int dfi_no_stx_ctx(struct fid_domain *domain, struct fi_tx_attr *attr, struct fid_stx **stx,
		   void *context);
int dfi_no_srx_ctx(struct fid_domain *domain, struct fi_rx_attr *attr, struct fid_ep **rx_ep,
		   void *context);
int dfi_no_query_atomic(struct fid_domain *domain, enum fi_datatype datatype, enum fi_op op,
			struct fi_atomic_attr *attr, uint64_t flags);
int dfi_no_query_collective(struct fid_domain *domain, enum fi_collective_op coll,
			    struct fi_collective_attr *attr, uint64_t flags);

/**
 * The text of an error entry's prov_errno, which is a fabric errno here:
 * copied into buf when one is given, as fi_cq_strerror(3) and fi_eq_strerror
 * describe.
 */
const char *dfi_strerror(int prov_errno, char *buf, size_t len);

#endif /* _DFI_STUBS_H_ */
