/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Ops slots several objects share: the operations the provider does not
 * offer (libfabric calls ops slots without checking them, so every slot of
 * every ops table points somewhere; these answer -FI_ENOSYS), the strerror
 * of the event and completion queues, the wait-object controls of the
 * objects that have one, and the argument checks of the calls that take
 * reserved flags.
 */

#ifndef _DFI_STUBS_H_
#define _DFI_STUBS_H_

#include <stdbool.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_eq.h>
#include <rdma/providers/fi_log.h>

/** The fi_ops of an object whose own slots are close, bind and control. */
#define DFI_FI_OPS(close_fn, bind_fn, control_fn) {	\
	.size = sizeof(struct fi_ops),			\
	.close = (close_fn),				\
	.bind = (bind_fn),				\
	.control = (control_fn),			\
	.ops_open = dfi_no_ops_open,			\
	.tostr = dfi_no_tostr,				\
	.ops_set = dfi_no_ops_set,			\
}

int dfi_no_bind(struct fid *fid, struct fid *bfid, uint64_t flags);
int dfi_no_control(struct fid *fid, int command, void *arg);
int dfi_no_ops_open(struct fid *fid, const char *name, uint64_t flags, void **ops,
		    void *context);
int dfi_no_tostr(const struct fid *fid, char *buf, size_t len);
int dfi_no_ops_set(struct fid *fid, const char *name, uint64_t flags, void *ops,
		   void *context);

int dfi_no_query_collective(struct fid_domain *domain, enum fi_collective_op coll,
			    struct fi_collective_attr *attr, uint64_t flags);

/**
 * The text of an error entry's prov_errno, which is a fabric errno here:
 * copied into buf when one is given, as fi_cq_strerror(3) and fi_eq_strerror
 * describe.
 */
const char *dfi_strerror(int prov_errno, char *buf, size_t len);

/**
 * fi_control() of an object's wait object: FI_GETWAIT gives fd, or
 * -FI_ENODATA when it has none (fd < 0), FI_GETWAITOBJ wait_obj; other
 * commands -FI_ENOSYS, a NULL arg -FI_EINVAL.
 */
int dfi_wait_control(int command, void *arg, int fd, enum fi_wait_obj wait_obj);

/**
 * The argument checks of a call (named in the log) with reserved flags:
 * given says that the objects and pointers it needs are there.
 *
 * @return 0, -FI_EINVAL or -FI_EBADFLAGS (logged).
 */
int dfi_args_check(enum fi_log_subsys subsys, const char *call, bool given, uint64_t flags);

#endif /* _DFI_STUBS_H_ */
