/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* fi_domain(), fi_domain_bind() and fi_close() of a domain. */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "dfi.h"
#include "addr.h"
#include "atomic_op.h"
#include "av.h"
#include "cntr.h"
#include "cq.h"
#include "domain.h"
#include "eal.h"
#include "ep_layer.h"
#include "params.h"
#include "pollset.h"
#include "queue.h"
#include "eq.h"
#include "getinfo.h"
#include "info.h"
#include "stubs.h"

int
dfi_encap_param(uint32_t addr_format, enum dfi_encap *encap)
{
	const char *s = dfi_param_str(DFI_PARAM_ENCAP);

	if (s == NULL || strcmp(s, "udp") == 0) {
		*encap = DFI_ENCAP_UDP;
	} else if (strcmp(s, "eth") == 0) {
		*encap = DFI_ENCAP_ETH;
	} else {
		DFI_WARN(FI_LOG_DOMAIN, "FI_DPDK_ENCAP='%s': udp or eth", s);
		return -FI_EINVAL;
	}
	/* raw-Ethernet addresses have no IPv4 header to fill */
	if (addr_format == FI_ADDR_DPDK)
		*encap = DFI_ENCAP_ETH;
	return 0;
}

/* The port set-up parameters, read when a domain opens. */
static int
domain_queue_params(void)
{
	long mbufs = dfi_param_int(DFI_PARAM_MBUFS, 16383, 1023, 1 << 24);
	long steer = dfi_param_int(DFI_PARAM_STEER_QUEUES, 8, 0, 255);
	long lcores = dfi_param_int(DFI_PARAM_LCORE_THREADS, dfi_eal_owned() ? 1 : 0, 0, 1);

	const char *fault = dfi_param_str(DFI_PARAM_FAULT);

	if (mbufs < 0 || steer < 0 || lcores < 0)
		return -FI_EINVAL;
	/* read by polling threads of domains already open (rxtx.c) */
	__atomic_store_n(&dfi_queue_conf.lcore_threads, lcores != 0, __ATOMIC_RELAXED);
	dfi_queue_conf.nb_mbufs = (uint32_t)mbufs;
	dfi_queue_conf.steer_queues = (uint16_t)steer;
	snprintf(dfi_queue_conf.fault, sizeof(dfi_queue_conf.fault), "%s",
		 fault != NULL ? fault : "");
	return 0;
}

static int domain_close(struct fid *fid);
static int domain_bind(struct fid *fid, struct fid *bfid, uint64_t flags);

static struct fi_ops dfi_domain_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = domain_close,
	.bind = domain_bind,
	.control = dfi_no_control,
	.ops_open = dfi_no_ops_open,
	.tostr = dfi_no_tostr,
	.ops_set = dfi_no_ops_set,
};

static int
domain_endpoint(struct fid_domain *domain, struct fi_info *info, struct fid_ep **ep,
		void *context)
{
	return dfi_ep_layer.endpoint(domain, info, ep, context);
}

static int
domain_scalable_ep(struct fid_domain *domain, struct fi_info *info, struct fid_ep **sep,
		   void *context)
{
	return dfi_ep_layer.scalable_ep(domain, info, sep, context);
}

static int
domain_stx_ctx(struct fid_domain *domain, struct fi_tx_attr *attr, struct fid_stx **stx,
	       void *context)
{
	return dfi_ep_layer.stx_ctx(domain, attr, stx, context);
}

static int
domain_srx_ctx(struct fid_domain *domain, struct fi_rx_attr *attr, struct fid_ep **srx,
	       void *context)
{
	return dfi_ep_layer.srx_ctx(domain, attr, srx, context);
}

/* fi_endpoint2(): without flags, fi_endpoint(); FI_PEER endpoints are not offered. */
static int
domain_endpoint2(struct fid_domain *domain, struct fi_info *info, struct fid_ep **ep,
		 uint64_t flags, void *context)
{
	if (flags != 0)
		return -FI_ENOSYS;
	return domain_endpoint(domain, info, ep, context);
}

/*
 * fi_query_atomic(): what fi_atomicvalid() and its kin answer on an endpoint
 * opened with FI_ATOMIC. No atomic targets a tagged receive buffer.
 */
static int
domain_query_atomic(struct fid_domain *domain __rte_unused, enum fi_datatype datatype,
		    enum fi_op op, struct fi_atomic_attr *attr, uint64_t flags)
{
	enum dfi_atomic_kind kind = (flags & FI_FETCH_ATOMIC) ? DFI_ATOMIC_FETCH :
				    (flags & FI_COMPARE_ATOMIC) ? DFI_ATOMIC_COMPARE :
				    DFI_ATOMIC_BASE;
	int ret;

	if (flags & ~(uint64_t)(FI_FETCH_ATOMIC | FI_COMPARE_ATOMIC | FI_TAGGED)) {
		DFI_WARN(FI_LOG_DOMAIN, "fi_query_atomic: flags 0x%" PRIx64 " not supported",
			 flags);
		return -FI_EBADFLAGS;
	}
	if (attr == NULL || ((flags & FI_FETCH_ATOMIC) && (flags & FI_COMPARE_ATOMIC))) {
		DFI_WARN(FI_LOG_DOMAIN, "fi_query_atomic: %s", attr == NULL ? "no attr" :
			 "FI_FETCH_ATOMIC and FI_COMPARE_ATOMIC together");
		return -FI_EINVAL;
	}
	if (flags & FI_TAGGED)
		return -FI_EOPNOTSUPP;
	ret = dfi_atomic_valid(kind, datatype, op, &attr->count);
	if (ret == 0)
		attr->size = dfi_atomic_type_size(datatype);
	return ret;
}

static struct fi_ops_domain dfi_domain_ops = {
	.size = sizeof(struct fi_ops_domain),
	.av_open = dfi_av_open,
	.cq_open = dfi_cq_open,
	.endpoint = domain_endpoint,
	.scalable_ep = domain_scalable_ep,
	.cntr_open = dfi_cntr_open,
	.poll_open = dfi_poll_open,
	.stx_ctx = domain_stx_ctx,
	.srx_ctx = domain_srx_ctx,
	.query_atomic = domain_query_atomic,
	.query_collective = dfi_no_query_collective,
	.endpoint2 = domain_endpoint2,
};

struct dfi_domain *
dfi_domain_from_fid(struct fid_domain *fid)
{
	if (fid == NULL || fid->fid.fclass != FI_CLASS_DOMAIN || fid->fid.ops != &dfi_domain_fi_ops)
		return NULL;
	return container_of(fid, struct dfi_domain, domain_fid);
}

const char *
dfi_domain_port_name(struct fid_domain *fid)
{
	struct dfi_domain *domain = dfi_domain_from_fid(fid);

	return domain != NULL ? domain->port->name : NULL;
}

/* The info may have been edited since fi_getinfo(): check it again. */
static int
domain_check_info(const struct fi_info *info, const struct dfi_port *port, uint32_t version)
{
	enum fi_ep_type type = FI_EP_RDM;
	struct fi_info *prov;
	int ret;

	if (info->ep_attr != NULL && info->ep_attr->type != FI_EP_UNSPEC)
		type = info->ep_attr->type;
	prov = dfi_info_template(type, port);
	if (prov == NULL)
		return -FI_ENOMEM;
	ret = dfi_info_apply_hints(prov, info, version);
	fi_freeinfo(prov);
	if (ret == -FI_ENODATA) {
		DFI_WARN(FI_LOG_DOMAIN, "the info asks for more than %s offers "
			 "(FI_LOG_LEVEL=info tells what)", port->name);
		return -FI_EINVAL;
	}
	return ret;
}

int
dfi_domain_open(struct fid_fabric *fabric_fid, struct fi_info *info,
		struct fid_domain **domain_fid, void *context)
{
	struct dfi_fabric *fabric = dfi_fabric_from_fid(fabric_fid);
	const struct fi_domain_attr *attr;
	struct dfi_domain *domain;
	struct dfi_port *port;
	enum dfi_encap encap;
	uint32_t version;
	int ret;

	if (fabric == NULL || info == NULL || info->domain_attr == NULL ||
	    info->domain_attr->name == NULL || domain_fid == NULL)
		return -FI_EINVAL;
	attr = info->domain_attr;
	port = dfi_port_acquire(attr->name, attr->threading == FI_THREAD_DOMAIN);
	if (port == NULL) {
		DFI_WARN(FI_LOG_DOMAIN, "no DPDK port named '%s' can be a domain (fi_getinfo "
			 "lists those that can)", attr->name);
		return -FI_ENODEV;
	}
	if (strcmp(port->fabric_name, fabric->name) != 0) {
		DFI_WARN(FI_LOG_DOMAIN, "port %s is on %s, not on fabric %s", port->name,
			 port->fabric_name, fabric->name);
		ret = -FI_EINVAL;
		goto err_release;
	}
	version = fabric_fid->api_version != 0 ? fabric_fid->api_version : DFI_FI_VERSION;
	ret = domain_check_info(info, port, version);
	if (ret != 0)
		goto err_release;

	domain = calloc(1, sizeof(*domain));
	if (domain == NULL) {
		ret = -FI_ENOMEM;
		goto err_release;
	}
	domain->domain_fid.fid.fclass = FI_CLASS_DOMAIN;
	domain->domain_fid.fid.context = context;
	domain->domain_fid.fid.ops = &dfi_domain_fi_ops;
	domain->domain_fid.ops = &dfi_domain_ops;
	domain->domain_fid.mr = &dfi_mr_ops;
	domain->fabric = fabric;
	domain->port = port;
	domain->threading = attr->threading != FI_THREAD_UNSPEC ? attr->threading :
			    FI_THREAD_SAFE;
	domain->av_type = attr->av_type;
	domain->mr_mode = attr->mr_mode;
	dfi_mr_map_init(&domain->mrs, attr->mr_mode);
	if (!dfi_addr_format_normalize(info->addr_format, &domain->addr_format)) {
		ret = -FI_EINVAL;
		goto err_free;
	}
	ret = dfi_encap_param(domain->addr_format, &encap);
	if (ret == 0)
		ret = domain_queue_params();
	if (ret != 0)
		goto err_free;
	domain->encap = (uint8_t)encap;
	domain->tclass = attr->tclass;
	/*
	 * FI_THREAD_COMPLETION: the application serializes each endpoint (or
	 * context) with its CQs and counters, so threads that each drive their
	 * own take no lock; what they share, the port's queue 0, has its own.
	 * FI_THREAD_FID and FI_THREAD_ENDPOINT: the provider serialises each
	 * such group with a lock of its own (guard.h).
	 */
	domain->own_guards = domain->threading == FI_THREAD_FID ||
			     domain->threading == FI_THREAD_ENDPOINT;
	ret = dfi_guard_new(domain->threading != FI_THREAD_DOMAIN &&
			    domain->threading != FI_THREAD_COMPLETION, true, &domain->guard);
	if (ret != 0)
		goto err_free;
	ret = dfi_watchdog_init(domain);
	if (ret != 0)
		goto err_guard;
	domain->caps = info->caps;
	DFI_REF_INIT(&domain->refs);
	dfi_fabric_attach_domain(fabric, domain);
	*domain_fid = &domain->domain_fid;
	return 0;

err_guard:
	dfi_guard_put(domain->guard);
err_free:
	free(domain);
err_release:
	dfi_port_release(port, attr->threading == FI_THREAD_DOMAIN);
	return ret;
}

int
dfi_domain_guard(struct dfi_domain *domain, struct dfi_guard **guard)
{
	if (domain->own_guards)
		return dfi_guard_new(true, false, guard);
	dfi_guard_get(domain->guard);
	*guard = domain->guard;
	return 0;
}

void
dfi_domain_hold(struct dfi_domain *domain)
{
	DFI_REF_GET(&domain->refs);
}

void
dfi_domain_release(struct dfi_domain *domain)
{
	DFI_REF_PUT(&domain->refs);
}

static int
domain_close(struct fid *fid)
{
	struct dfi_domain *domain = container_of(fid, struct dfi_domain, domain_fid.fid);

	if (DFI_REF_READ(&domain->refs) != 0) {
		DFI_WARN(FI_LOG_DOMAIN, "domain %s still has %u open objects",
			 domain->port->name, DFI_REF_READ(&domain->refs));
		return -FI_EBUSY;
	}
	dfi_watchdog_fini(domain);
	if (domain->eq != NULL)
		dfi_eq_release(domain->eq);
	dfi_mr_map_fini(&domain->mrs);
	dfi_fabric_detach_domain(domain->fabric, domain);
	dfi_port_release(domain->port, domain->threading == FI_THREAD_DOMAIN);
	dfi_guard_put(domain->guard);
	free(domain);
	return 0;
}

/* fi_domain_bind(): an EQ for asynchronous events; with FI_REG_MR, memory
 * registrations complete through it too. */
static int
domain_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct dfi_domain *domain = container_of(fid, struct dfi_domain, domain_fid.fid);
	struct dfi_eq *eq = dfi_eq_from_fid(bfid);

	if ((flags & ~FI_REG_MR) != 0)
		return -FI_EBADFLAGS;
	if (eq == NULL) {
		DFI_WARN(FI_LOG_DOMAIN, "only an event queue of this provider binds to a domain");
		return -FI_EINVAL;
	}
	if (eq->fabric != domain->fabric) {
		DFI_WARN(FI_LOG_DOMAIN, "the event queue belongs to another fabric");
		return -FI_EINVAL;
	}
	if (domain->eq != NULL)
		return -FI_EBUSY;
	dfi_eq_hold(eq);
	domain->eq = eq;
	domain->eq_flags = flags;
	return 0;
}
