/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* fi_fabric(), fi_close() of a fabric, and the registry of opened ones. */

#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "dfi.h"
#include "domain.h"
#include "eal.h"
#include "eq.h"
#include "fabric.h"
#include "params.h"
#include "port.h"
#include "ep_layer.h"
#include "stubs.h"
#include "waitset.h"

#include <pthread.h>

/* Guards the list of fabrics, their domain lists and their reference counts. */
static pthread_mutex_t dfi_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static TAILQ_HEAD(, dfi_fabric) dfi_fabrics = TAILQ_HEAD_INITIALIZER(dfi_fabrics);

static int fabric_close(struct fid *fid);
static int fabric_trywait(struct fid_fabric *fabric, struct fid **fids, int count);
static int fabric_domain2(struct fid_fabric *fabric, struct fi_info *info,
			  struct fid_domain **dom, uint64_t flags, void *context);

static struct fi_ops dfi_fabric_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = fabric_close,
	.bind = dfi_no_bind,
	.control = dfi_no_control,
	.ops_open = dfi_no_ops_open,
	.tostr = dfi_no_tostr,
	.ops_set = dfi_no_ops_set,
};

static int
fabric_passive_ep(struct fid_fabric *fabric, struct fi_info *info, struct fid_pep **pep,
		  void *context)
{
	return dfi_ep_layer.passive_ep(fabric, info, pep, context);
}

static struct fi_ops_fabric dfi_fabric_ops = {
	.size = sizeof(struct fi_ops_fabric),
	.domain = dfi_domain_open,
	.passive_ep = fabric_passive_ep,
	.eq_open = dfi_eq_open,
	.wait_open = dfi_wait_open,
	.trywait = fabric_trywait,
	.domain2 = fabric_domain2,
};

struct dfi_fabric *
dfi_fabric_from_fid(struct fid_fabric *fid)
{
	if (fid == NULL || fid->fid.fclass != FI_CLASS_FABRIC || fid->fid.ops != &dfi_fabric_fi_ops)
		return NULL;
	return container_of(fid, struct dfi_fabric, fabric_fid);
}

const char *
dfi_fabric_name(struct fid_fabric *fid)
{
	struct dfi_fabric *fabric = dfi_fabric_from_fid(fid);

	return fabric != NULL ? fabric->name : NULL;
}

struct fid_fabric *
dfi_fabric_find(const char *name)
{
	struct fid_fabric *found = NULL;
	struct dfi_fabric *fabric;

	pthread_mutex_lock(&dfi_registry_lock);
	TAILQ_FOREACH(fabric, &dfi_fabrics, link) {
		if (strcmp(fabric->name, name) == 0) {
			found = &fabric->fabric_fid;
			break;
		}
	}
	pthread_mutex_unlock(&dfi_registry_lock);
	return found;
}

struct fid_domain *
dfi_fabric_find_domain(const char *port_name)
{
	struct fid_domain *found = NULL;
	struct dfi_fabric *fabric;
	struct dfi_domain *domain;

	pthread_mutex_lock(&dfi_registry_lock);
	TAILQ_FOREACH(fabric, &dfi_fabrics, link) {
		TAILQ_FOREACH(domain, &fabric->domains, link) {
			if (strcmp(domain->port->name, port_name) == 0) {
				found = &domain->domain_fid;
				goto out;
			}
		}
	}
out:
	pthread_mutex_unlock(&dfi_registry_lock);
	return found;
}

void
dfi_fabric_hold(struct dfi_fabric *fabric)
{
	pthread_mutex_lock(&dfi_registry_lock);
	DFI_REF_GET(&fabric->refs);
	pthread_mutex_unlock(&dfi_registry_lock);
}

void
dfi_fabric_release(struct dfi_fabric *fabric)
{
	pthread_mutex_lock(&dfi_registry_lock);
	DFI_REF_PUT(&fabric->refs);
	pthread_mutex_unlock(&dfi_registry_lock);
}

void
dfi_fabric_attach_domain(struct dfi_fabric *fabric, struct dfi_domain *domain)
{
	pthread_mutex_lock(&dfi_registry_lock);
	TAILQ_INSERT_TAIL(&fabric->domains, domain, link);
	DFI_REF_GET(&fabric->refs);
	pthread_mutex_unlock(&dfi_registry_lock);
}

void
dfi_fabric_detach_domain(struct dfi_fabric *fabric, struct dfi_domain *domain)
{
	pthread_mutex_lock(&dfi_registry_lock);
	TAILQ_REMOVE(&fabric->domains, domain, link);
	DFI_REF_PUT(&fabric->refs);
	pthread_mutex_unlock(&dfi_registry_lock);
}

static bool
fabric_name_known(const char *name)
{
	struct dfi_port ports[RTE_MAX_ETHPORTS];
	int i, n;

	n = dfi_ports_scan(dfi_param_str(DFI_PARAM_IPV4), ports, RTE_DIM(ports));
	for (i = 0; i < n; i++) {
		if (strcmp(ports[i].fabric_name, name) == 0)
			return true;
	}
	return false;
}

int
dfi_fabric_open(struct fi_fabric_attr *attr, struct fid_fabric **fabric_fid, void *context)
{
	struct dfi_fabric *fabric;
	int ret;

	if (attr == NULL || attr->name == NULL || fabric_fid == NULL)
		return -FI_EINVAL;
	ret = dfi_eal_ensure();
	if (ret != 0)
		return ret;
	if (strlen(attr->name) >= DFI_FABRIC_NAME_LEN || !fabric_name_known(attr->name)) {
		DFI_WARN(FI_LOG_FABRIC, "no DPDK port is on fabric '%s'", attr->name);
		return -FI_ENODATA;
	}
	fabric = calloc(1, sizeof(*fabric));
	if (fabric == NULL)
		return -FI_ENOMEM;
	fabric->fabric_fid.fid.fclass = FI_CLASS_FABRIC;
	fabric->fabric_fid.fid.context = context;
	fabric->fabric_fid.fid.ops = &dfi_fabric_fi_ops;
	fabric->fabric_fid.ops = &dfi_fabric_ops;
	fabric->fabric_fid.api_version = DFI_FI_VERSION;
	strcpy(fabric->name, attr->name);
	DFI_REF_INIT(&fabric->refs);
	TAILQ_INIT(&fabric->domains);

	pthread_mutex_lock(&dfi_registry_lock);
	TAILQ_INSERT_TAIL(&dfi_fabrics, fabric, link);
	pthread_mutex_unlock(&dfi_registry_lock);
	*fabric_fid = &fabric->fabric_fid;
	return 0;
}

static int
fabric_close(struct fid *fid)
{
	struct dfi_fabric *fabric = container_of(fid, struct dfi_fabric, fabric_fid.fid);

	pthread_mutex_lock(&dfi_registry_lock);
	if (DFI_REF_READ(&fabric->refs) != 0) {
		pthread_mutex_unlock(&dfi_registry_lock);
		DFI_WARN(FI_LOG_FABRIC, "fabric %s still has %u open objects", fabric->name,
			 DFI_REF_READ(&fabric->refs));
		return -FI_EBUSY;
	}
	TAILQ_REMOVE(&dfi_fabrics, fabric, link);
	pthread_mutex_unlock(&dfi_registry_lock);
	free(fabric);
	return 0;
}

static int
fabric_domain2(struct fid_fabric *fabric, struct fi_info *info, struct fid_domain **dom,
	       uint64_t flags, void *context)
{
	/* FI_PEER domains (the only flag) need the peer API, not offered. */
	if (flags != 0)
		return -FI_ENOSYS;
	return dfi_domain_open(fabric, info, dom, context);
}

/*
 * fi_trywait(3): 0 when the application may block on the objects' wait
 * objects, -FI_EAGAIN when something is already waiting to be read. A wait
 * set, or an object that joined one, is the set's question: it progresses
 * the set's members, and arms the thread that signals its fd.
 */
static int
fabric_trywait(struct fid_fabric *fabric __rte_unused, struct fid **fids, int count)
{
	struct dfi_wait *wait;
	struct dfi_eq *eq;
	int i, ret;

	if (count < 0 || (count > 0 && fids == NULL))
		return -FI_EINVAL;
	for (i = 0; i < count; i++) {
		wait = dfi_wait_of(fids[i]);
		eq = dfi_eq_from_fid(fids[i]);
		if (wait != NULL) {
			ret = dfi_wait_try(wait);
			if (ret != 0)
				return ret;
		} else if (eq == NULL || eq->fd < 0) {
			DFI_WARN(FI_LOG_FABRIC, "fi_trywait: object %d has no wait object of ours",
				 i);
			return -FI_EINVAL;
		} else {
			dfi_eq_progress(eq);
			if (dfi_eq_pending(eq))
				return -FI_EAGAIN;
		}
	}
	return 0;
}
