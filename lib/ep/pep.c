/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Passive endpoints: a sink on a port that takes connection requests (CM
 * REQ) and turns each into an FI_CONNREQ event on the bound EQ. A request is
 * known by its sender's address, incarnation and attempt number, so a
 * resent request is not a second one, and one from a later incarnation at
 * the same address is a new request. At most FI_DPDK_CM_BACKLOG requests
 * wait for an answer; more are refused at once, keeping nothing. A taken
 * request is remembered until its endpoint closes, a rejected one for a CM
 * timeout, so that late resends are known for what they are.
 *
 * Control progress runs from reads of the bound EQ. One lock (cm_lock)
 * guards every listener and request: the control path, never the data path.
 */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_endpoint.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "dfi.h"
#include "cm.h"
#include "domain.h"
#include "ep.h"
#include "ep_stubs.h"
#include "eq.h"
#include "fabric.h"
#include "params.h"
#include "pep.h"
#include "rdm.h"
#include "stubs.h"

enum connreq_state {
	CR_PENDING,		/* FI_CONNREQ posted, no answer yet */
	CR_TAKEN,		/* an endpoint was opened on it: that endpoint answers */
	CR_REJECTED,		/* fi_reject(): its resends get the refusal again */
	CR_CLOSED,		/* its endpoint closed: late resends are ignored */
};

struct dfi_pep {
	struct fid_pep pep_fid;
	struct dfi_fabric *fabric;
	struct fi_info *info;		/* a copy, the CONNREQ infos' model */
	struct dfi_port *port;
	struct dfi_sink sink;
	bool listening;
	uint8_t encap;			/* enum dfi_encap */
	uint32_t format;		/* address format */
	rte_be16_t udp_port;		/* fi_setname()'s or src_addr's, 0: any */
	struct dfi_eq *eq;
	struct dfi_eq_prog prog;
	uint32_t inc;			/* our incarnation, in our refusals */
	uint32_t backlog;
	uint32_t pending;
	uint64_t timeout;		/* a rejected or closed request is remembered this long */
	TAILQ_HEAD(, dfi_connreq) reqs;
};

static pthread_mutex_t cm_lock = PTHREAD_MUTEX_INITIALIZER;

static struct dfi_pep *
pep_of(fid_t fid)
{
	return container_of(fid, struct dfi_pep, pep_fid.fid);
}

/* -- requests -- */

static int connreq_close(struct fid *fid);

static struct fi_ops connreq_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = connreq_close,
	.bind = dfi_no_bind,
	.control = dfi_no_control,
	.ops_open = dfi_no_ops_open,
	.tostr = dfi_no_tostr,
	.ops_set = dfi_no_ops_set,
};

/* Under cm_lock. */
static void
connreq_free(struct dfi_connreq *req)
{
	if (req->pep != NULL) {
		if (req->state == CR_PENDING)
			req->pep->pending--;
		TAILQ_REMOVE(&req->pep->reqs, req, link);
	}
	free(req);
}

/* fi_close() on a handle: the application drops a request it will not answer. */
static int
connreq_close(struct fid *fid)
{
	struct dfi_connreq *req = container_of(fid, struct dfi_connreq, fid);

	pthread_mutex_lock(&cm_lock);
	if (req->state == CR_TAKEN) {
		pthread_mutex_unlock(&cm_lock);
		return -FI_EBUSY;
	}
	connreq_free(req);
	pthread_mutex_unlock(&cm_lock);
	return 0;
}

static struct dfi_connreq *
connreq_of(struct fid *handle)
{
	if (handle == NULL || handle->fclass != FI_CLASS_CONNREQ || handle->ops != &connreq_fi_ops)
		return NULL;
	return container_of(handle, struct dfi_connreq, fid);
}

struct dfi_connreq *
dfi_connreq_take(struct fid *handle)
{
	struct dfi_connreq *req = connreq_of(handle);

	pthread_mutex_lock(&cm_lock);
	if (req != NULL && req->state == CR_PENDING && req->pep != NULL) {
		req->state = CR_TAKEN;
		if (req->pep != NULL)
			req->pep->pending--;
	} else {
		req = NULL;
	}
	pthread_mutex_unlock(&cm_lock);
	if (req == NULL)
		DFI_WARN(FI_LOG_EP_CTRL, "info->handle is no connection request waiting");
	return req;
}

/* A request's answer is final (rejected, or its endpoint closed): it is
 * remembered for as long as its sender may resend it (the CM timeout), so that
 * a late or duplicated REQ is not taken for a new request. Under cm_lock. */
static void
connreq_linger(struct dfi_connreq *req, enum connreq_state state)
{
	req->state = state;
	req->expire = rte_rdtsc() + req->pep->timeout;
}

void
dfi_connreq_release(struct dfi_connreq *req)
{
	pthread_mutex_lock(&cm_lock);
	if (req->pep != NULL)
		connreq_linger(req, CR_CLOSED);
	else
		connreq_free(req);
	pthread_mutex_unlock(&cm_lock);
}

/* -- packets -- */

/* Under cm_lock. */
static void
pep_refuse(struct dfi_pep *pep, const struct dfi_addr *dst, uint32_t dst_inc, uint32_t conn_id,
	   const void *data, uint16_t len)
{
	struct dfi_cm_pkt c = {
		.type = DFI_PKT_CM_REJECT,
		.src_inc = pep->inc,
		.dst_inc = dst_inc,
		.conn_id = conn_id,
		.err = FI_ECONNREFUSED,
		.data = data,
		.len = len,
	};

	dfi_port_addr(pep->port, pep->format, pep->udp_port, &c.src);
	dfi_cm_send(&pep->sink, pep->encap, dst, &c);
}

/* The FI_CONNREQ event of a new request; under cm_lock. */
static int
pep_connreq(struct dfi_pep *pep, struct dfi_connreq *req, const struct dfi_cm_pkt *c)
{
	struct {
		struct fi_eq_cm_entry entry;
		uint8_t data[DFI_CM_DATA_MAX];
	} ev;
	struct fi_info *info = fi_dupinfo(pep->info);
	struct dfi_addr self;

	if (info == NULL)
		return -FI_ENOMEM;
	/* the accepting endpoint takes a port of its own */
	free(info->src_addr);
	free(info->dest_addr);
	dfi_port_addr(pep->port, pep->format, 0, &self);
	info->src_addr = dfi_addr_encode(pep->format, &self, &info->src_addrlen);
	info->dest_addr = dfi_addr_encode(pep->format, &req->src, &info->dest_addrlen);
	if (info->src_addr == NULL || info->dest_addr == NULL) {
		fi_freeinfo(info);
		return -FI_ENOMEM;
	}
	info->handle = &req->fid;
	memset(&ev.entry, 0, sizeof(ev.entry));
	ev.entry.fid = &pep->pep_fid.fid;
	ev.entry.info = info;
	memcpy(ev.data, c->data, c->len);
	dfi_eq_post(pep->eq, FI_CONNREQ, &ev, sizeof(ev.entry) + c->len, NULL);
	return 0;
}

/* A REQ: a new request, a resend, or one too many; under cm_lock. */
static void
pep_rx_req(struct dfi_pep *pep, const struct dfi_addr *src, const struct dfi_cm_pkt *c)
{
	struct dfi_connreq *req;

	TAILQ_FOREACH(req, &pep->reqs, link) {
		if (req->src_inc == c->src_inc && req->conn_id == c->conn_id &&
		    dfi_addr_equal(&req->src, src)) {
			/* a resend: a pending or taken request's answer is on its way */
			if (req->state == CR_REJECTED)
				pep_refuse(pep, src, c->src_inc, c->conn_id, req->data, req->len);
			return;
		}
	}
	if (pep->pending >= pep->backlog) {
		DFI_INFO(FI_LOG_EP_CTRL, "connection request refused: %u waiting already",
			 pep->pending);
		pep_refuse(pep, src, c->src_inc, c->conn_id, NULL, 0);
		return;
	}
	req = calloc(1, sizeof(*req));
	if (req == NULL) {
		pep_refuse(pep, src, c->src_inc, c->conn_id, NULL, 0);
		return;
	}
	req->fid.fclass = FI_CLASS_CONNREQ;
	req->fid.ops = &connreq_fi_ops;
	req->pep = pep;
	req->src = *src;
	req->src_inc = c->src_inc;
	req->conn_id = c->conn_id;
	req->state = CR_PENDING;
	if (pep_connreq(pep, req, c) != 0) {
		free(req);
		pep_refuse(pep, src, c->src_inc, c->conn_id, NULL, 0);
		return;
	}
	TAILQ_INSERT_TAIL(&pep->reqs, req, link);
	pep->pending++;
}

/* An EQ read: requests in, rejected ones forgotten in time. */
static void
pep_progress(void *arg)
{
	struct dfi_pep *pep = arg;
	struct rte_mbuf *pkts[DFI_RX_BURST];
	struct dfi_connreq *req, *next;
	struct dfi_cm_pkt c;
	struct dfi_addr src;
	uint64_t now = rte_rdtsc();
	uint16_t i, n;

	pthread_mutex_lock(&cm_lock);
	n = dfi_sink_recv(&pep->sink, pkts, DFI_RX_BURST);
	for (i = 0; i < n; i++) {
		dfi_rx_addr(pep->format, pkts[i], &src);
		if (dfi_cm_is_cm(pkts[i]) && dfi_cm_parse(pkts[i], &src, &c) == 0) {
			if (c.type == DFI_PKT_CM_REQ)
				pep_rx_req(pep, &src, &c);
			/* anything else is for an endpoint, not a listener */
		}
		rte_pktmbuf_free(pkts[i]);
	}
	for (req = TAILQ_FIRST(&pep->reqs); req != NULL; req = next) {
		next = TAILQ_NEXT(req, link);
		if ((req->state == CR_REJECTED || req->state == CR_CLOSED) && now >= req->expire)
			connreq_free(req);
	}
	pthread_mutex_unlock(&cm_lock);
}

/* -- fi_cm(3) -- */

static int
pep_listen(struct fid_pep *pep_fid)
{
	struct dfi_pep *pep = pep_of(&pep_fid->fid);
	int ret;

	if (pep->eq == NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_listen: no EQ bound");
		return -FI_ENOEQ;
	}
	pthread_mutex_lock(&cm_lock);
	if (pep->listening) {
		pthread_mutex_unlock(&cm_lock);
		return -FI_EOPBADSTATE;
	}
	ret = dfi_sink_attach(pep->port, &pep->sink, &pep->udp_port, pep);
	if (ret == 0) {
		pep->sink.encap = pep->encap;
		ret = dfi_sink_activate(&pep->sink);
		if (ret != 0)
			dfi_sink_detach(&pep->sink);
	}
	if (ret == 0)
		pep->listening = true;
	pthread_mutex_unlock(&cm_lock);
	if (ret != 0) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_listen on UDP port %u: %s",
			 rte_be_to_cpu_16(pep->udp_port), fi_strerror(-ret));
		return ret;
	}
	dfi_eq_prog_add(pep->eq, &pep->prog);
	return 0;
}

static int
pep_reject(struct fid_pep *pep_fid, fid_t handle, const void *param, size_t paramlen)
{
	struct dfi_pep *pep = pep_of(&pep_fid->fid);
	struct dfi_connreq *req = connreq_of(handle);
	int ret = 0;

	if (req == NULL || paramlen > DFI_CM_DATA_MAX || (paramlen != 0 && param == NULL)) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_reject: no request, or CM data over %u bytes",
			 DFI_CM_DATA_MAX);
		return -FI_EINVAL;
	}
	pthread_mutex_lock(&cm_lock);
	if (req->pep != pep || req->state != CR_PENDING) {
		ret = -FI_EOPBADSTATE;
	} else {
		connreq_linger(req, CR_REJECTED);
		pep->pending--;
		req->len = (uint16_t)paramlen;
		if (paramlen != 0)
			memcpy(req->data, param, paramlen);
		pep_refuse(pep, &req->src, req->src_inc, req->conn_id, req->data, req->len);
	}
	pthread_mutex_unlock(&cm_lock);
	return ret;
}

static int
pep_getname(fid_t fid, void *addr, size_t *addrlen)
{
	struct dfi_pep *pep = pep_of(fid);
	struct dfi_addr a;

	if (addrlen == NULL || (addr == NULL && *addrlen != 0))
		return -FI_EINVAL;
	pthread_mutex_lock(&cm_lock);
	dfi_port_addr(pep->port, pep->format, pep->udp_port, &a);
	pthread_mutex_unlock(&cm_lock);
	return dfi_addr_name(pep->format, &a, addr, addrlen);
}

/* An address of the port: its service is where fi_listen() will listen. */
static int
pep_setname(fid_t fid, void *addr, size_t addrlen)
{
	struct dfi_pep *pep = pep_of(fid);
	struct dfi_addr a, self;
	int ret = 0;

	if (dfi_addr_decode(pep->format, addr, addrlen, &a) != 0)
		return -FI_EINVAL;
	dfi_port_addr(pep->port, pep->format, a.port, &self);
	if (a.kind != self.kind || (a.kind == DFI_ADDR_IPV4 && a.ipv4 != 0 &&
				    a.ipv4 != self.ipv4) ||
	    (a.kind == DFI_ADDR_ETH && memcmp(a.mac, self.mac, sizeof(a.mac)) != 0)) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_setname: not an address of port %s",
			 pep->port->name);
		return -FI_EINVAL;
	}
	pthread_mutex_lock(&cm_lock);
	if (pep->listening)
		ret = -FI_EOPBADSTATE;
	else
		pep->udp_port = a.port;
	pthread_mutex_unlock(&cm_lock);
	return ret;
}

static struct fi_ops_cm pep_cm_ops = {
	.size = sizeof(struct fi_ops_cm),
	.setname = pep_setname,
	.getname = pep_getname,
	.getpeer = dfi_no_getpeer,
	.connect = dfi_no_connect,
	.listen = pep_listen,
	.accept = dfi_no_accept,
	.reject = pep_reject,
	.shutdown = dfi_no_shutdown,
	.join = dfi_no_join,
};

/* -- the object -- */

static int
pep_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct dfi_pep *pep = pep_of(fid);
	struct dfi_eq *eq = bfid != NULL ? dfi_eq_from_fid(bfid) : NULL;

	if (flags != 0)
		return -FI_EBADFLAGS;
	if (eq == NULL || eq->fabric != pep->fabric || pep->eq != NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_pep_bind: one EQ of the same fabric");
		return -FI_EINVAL;
	}
	dfi_eq_hold(eq);
	pep->eq = eq;
	return 0;
}

static int
pep_close(struct fid *fid)
{
	struct dfi_pep *pep = pep_of(fid);
	struct dfi_connreq *req;

	if (pep->listening)
		dfi_eq_prog_del(pep->eq, &pep->prog);
	if (pep->eq != NULL)
		dfi_eq_purge(pep->eq, &pep->pep_fid.fid);
	pthread_mutex_lock(&cm_lock);
	while ((req = TAILQ_FIRST(&pep->reqs)) != NULL) {
		TAILQ_REMOVE(&pep->reqs, req, link);
		req->pep = NULL;
		/* a taken one is its endpoint's; a pending one stays the
		 * application's handle (fi_endpoint() refuses it now) until
		 * fi_close() on it */
		if (req->state == CR_REJECTED || req->state == CR_CLOSED)
			free(req);
	}
	pthread_mutex_unlock(&cm_lock);
	if (pep->listening)
		dfi_sink_detach(&pep->sink);
	if (pep->eq != NULL)
		dfi_eq_release(pep->eq);
	dfi_port_release(pep->port, false);
	dfi_fabric_release(pep->fabric);
	fi_freeinfo(pep->info);
	free(pep);
	return 0;
}

static struct fi_ops pep_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = pep_close,
	.bind = pep_bind,
	.control = dfi_no_control,
	.ops_open = dfi_no_ops_open,
	.tostr = dfi_no_tostr,
	.ops_set = dfi_no_ops_set,
};

/* The listening address: the port of src_addr, if any, else one fi_listen() picks. */
static int
pep_src_port(struct dfi_pep *pep, const struct fi_info *info)
{
	struct dfi_addr a;

	if (info->src_addr == NULL)
		return 0;
	if (dfi_addr_decode(pep->format, info->src_addr, info->src_addrlen, &a) != 0 ||
	    (a.kind == DFI_ADDR_IPV4 && a.ipv4 != 0 && a.ipv4 != pep->port->ipv4)) {
		DFI_WARN(FI_LOG_EP_CTRL, "info->src_addr is not on port %s", pep->port->name);
		return -FI_EINVAL;
	}
	pep->udp_port = a.port;
	return 0;
}

int
dfi_passive_ep(struct fid_fabric *fabric_fid, struct fi_info *info, struct fid_pep **pep_fid,
	       void *context)
{
	struct dfi_fabric *fabric = dfi_fabric_from_fid(fabric_fid);
	long backlog = dfi_param_int(DFI_PARAM_CM_BACKLOG, 128, 1, 65536);
	struct dfi_pep *pep;
	enum dfi_encap encap;
	int ret;

	if (fabric == NULL || info == NULL || pep_fid == NULL || info->ep_attr == NULL ||
	    info->ep_attr->type != FI_EP_MSG || info->domain_attr == NULL ||
	    info->domain_attr->name == NULL || backlog < 0) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_passive_ep: an FI_EP_MSG info of fi_getinfo() needed");
		return -FI_EINVAL;
	}
	pep = dfi_ep_zalloc(sizeof(*pep));
	if (pep == NULL)
		return -FI_ENOMEM;
	TAILQ_INIT(&pep->reqs);
	if (!dfi_addr_format_normalize(info->addr_format, &pep->format) ||
	    dfi_encap_param(pep->format, &encap) != 0) {
		ret = -FI_EINVAL;
		goto err_free;
	}
	pep->encap = (uint8_t)encap;
	pep->port = dfi_port_acquire(info->domain_attr->name, false);
	if (pep->port == NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "no DPDK port is named '%s'", info->domain_attr->name);
		ret = -FI_ENODEV;
		goto err_free;
	}
	ret = pep_src_port(pep, info);
	if (ret != 0)
		goto err_port;
	pep->info = fi_dupinfo(info);
	if (pep->info == NULL) {
		ret = -FI_ENOMEM;
		goto err_port;
	}
	pep->info->handle = NULL;
	pep->fabric = fabric;
	pep->inc = rdm_random32();
	pep->backlog = (uint32_t)backlog;
	pep->timeout = dfi_cm_timeout();
	pep->prog.fn = pep_progress;
	pep->prog.arg = pep;
	pep->pep_fid.fid.fclass = FI_CLASS_PEP;
	pep->pep_fid.fid.context = context;
	pep->pep_fid.fid.ops = &pep_fi_ops;
	pep->pep_fid.ops = &dfi_no_ep_ops;
	pep->pep_fid.cm = &pep_cm_ops;
	dfi_fabric_hold(fabric);
	*pep_fid = &pep->pep_fid;
	return 0;

err_port:
	dfi_port_release(pep->port, false);
err_free:
	free(pep);
	return ret;
}
