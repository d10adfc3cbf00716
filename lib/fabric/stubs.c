/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Shared ops slots: -FI_ENOSYS for what the provider does not offer, strerror,
 * wait-object controls; the argument checks of calls with reserved flags. */

#include <inttypes.h>
#include <stdio.h>

#include <rdma/fi_collective.h>

#include <rte_common.h>

#include "dfi.h"
#include "stubs.h"

int
dfi_no_bind(struct fid *fid __rte_unused, struct fid *bfid __rte_unused,
	    uint64_t flags __rte_unused)
{
	return -FI_ENOSYS;
}

int
dfi_no_control(struct fid *fid __rte_unused, int command __rte_unused, void *arg __rte_unused)
{
	return -FI_ENOSYS;
}

int
dfi_no_ops_open(struct fid *fid __rte_unused, const char *name __rte_unused,
		uint64_t flags __rte_unused, void **ops __rte_unused,
		void *context __rte_unused)
{
	return -FI_ENOSYS;
}

int
dfi_no_tostr(const struct fid *fid __rte_unused, char *buf __rte_unused,
	     size_t len __rte_unused)
{
	return -FI_ENOSYS;
}

int
dfi_no_ops_set(struct fid *fid __rte_unused, const char *name __rte_unused,
	       uint64_t flags __rte_unused, void *ops __rte_unused, void *context __rte_unused)
{
	return -FI_ENOSYS;
}

int
dfi_no_query_collective(struct fid_domain *domain __rte_unused,
			enum fi_collective_op coll __rte_unused,
			struct fi_collective_attr *attr __rte_unused,
			uint64_t flags __rte_unused)
{
	return -FI_ENOSYS;
}




const char *
dfi_strerror(int prov_errno, char *buf, size_t len)
{
	const char *s = fi_strerror(prov_errno);

	if (buf != NULL && len > 0) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	return s;
}

int
dfi_wait_control(int command, void *arg, int fd, enum fi_wait_obj wait_obj)
{
	if (arg == NULL)
		return -FI_EINVAL;
	switch (command) {
	case FI_GETWAIT:
		if (fd < 0)
			return -FI_ENODATA;
		*(int *)arg = fd;
		return 0;
	case FI_GETWAITOBJ:
		*(enum fi_wait_obj *)arg = wait_obj;
		return 0;
	default:
		return -FI_ENOSYS;
	}
}

int
dfi_args_check(enum fi_log_subsys subsys, const char *call, bool given, uint64_t flags)
{
	if (!given) {
		FI_WARN(&dfi_prov, subsys, "%s: an argument is NULL\n", call);
		return -FI_EINVAL;
	}
	if (flags != 0) {
		FI_WARN(&dfi_prov, subsys, "%s: flags 0x%" PRIx64 " not supported\n", call, flags);
		return -FI_EBADFLAGS;
	}
	return 0;
}
