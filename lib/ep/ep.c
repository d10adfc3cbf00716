/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The endpoint object: fi_endpoint(), fi_ep_bind(), fi_enable(), names,
 * options, cancel and close. Data transfers belong to the endpoint types.
 */

#include <stdlib.h>
#include <string.h>

#include <rdma/fi_cm.h>

#include <rte_common.h>
#include <rte_ethdev.h>

#include "dfi.h"
#include "av.h"
#include "cntr.h"
#include "cq.h"
#include "domain.h"
#include "ep.h"
#include "ep_layer.h"
#include "ep_stubs.h"
#include "pep.h"
#include "sep.h"
#include "srx.h"
#include "stx.h"
#include "eq.h"
#include "getinfo.h"
#include "info.h"
#include "stubs.h"
#include "wire.h"

static int ep_close(struct fid *fid);
static int ep_bind(struct fid *fid, struct fid *bfid, uint64_t flags);
static int ep_control(struct fid *fid, int command, void *arg);
static ssize_t ep_cancel(fid_t fid, void *context);
static int ep_getopt(fid_t fid, int level, int optname, void *optval, size_t *optlen);
static int ep_setopt(fid_t fid, int level, int optname, const void *optval, size_t optlen);
static ssize_t ep_rx_size_left(struct fid_ep *ep);
static ssize_t ep_tx_size_left(struct fid_ep *ep);

static int ep_ops_open(struct fid *fid, const char *name, uint64_t flags, void **ops,
		       void *context);

static struct fi_ops dfi_ep_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = ep_close,
	.bind = ep_bind,
	.control = ep_control,
	.ops_open = ep_ops_open,
	.tostr = dfi_no_tostr,
	.ops_set = dfi_no_ops_set,
};

static struct fi_ops_ep dfi_ep_ops = {
	.size = sizeof(struct fi_ops_ep),
	.cancel = ep_cancel,
	.getopt = ep_getopt,
	.setopt = ep_setopt,
	.tx_ctx = dfi_no_tx_ctx,	/* contexts are a scalable endpoint's */
	.rx_ctx = dfi_no_rx_ctx,
	.rx_size_left = ep_rx_size_left,
	.tx_size_left = ep_tx_size_left,
};

static struct fi_ops_cm dfi_ep_cm_ops = DFI_CM_OPS_NAMES(dfi_ep_setname, dfi_ep_getname);

static struct dfi_ep *
ep_of_fid(fid_t fid)
{
	return container_of(fid, struct dfi_ep, ep_fid.fid);
}

/* -- addresses -- */

void
dfi_port_addr(const struct dfi_port *port, uint32_t format, rte_be16_t udp_port,
	      struct dfi_addr *a)
{
	memset(a, 0, sizeof(*a));
	a->port = udp_port;
	if (format == FI_ADDR_DPDK) {
		a->kind = DFI_ADDR_ETH;
		memcpy(a->mac, port->mac, sizeof(a->mac));
	} else {
		a->kind = DFI_ADDR_IPV4;
		a->ipv4 = port->ipv4;
	}
}

void
dfi_ep_self(const struct dfi_ep *ep, struct dfi_addr *a)
{
	dfi_port_addr(ep->sink.port, ep->addr_format, ep->sink.udp_port, a);
}

void
dfi_rx_addr(uint32_t format, struct rte_mbuf *m, struct dfi_addr *a)
{
	const struct dfi_rx_meta *meta = dfi_rx_meta(m);

	memset(a, 0, sizeof(*a));
	a->port = meta->src_port;
	if (format == FI_ADDR_DPDK || meta->src_ip == 0) {
		a->kind = DFI_ADDR_ETH;
		memcpy(a->mac, meta->src_mac, sizeof(a->mac));
	} else {
		a->kind = DFI_ADDR_IPV4;
		a->ipv4 = meta->src_ip;
	}
}

fi_addr_t
dfi_ep_source(const struct dfi_ep *ep, struct rte_mbuf *m)
{
	const struct dfi_hdr *hdr = rte_pktmbuf_mtod(m, const struct dfi_hdr *);
	struct dfi_addr a;

	if (ep->av == NULL || (ep->caps & FI_SOURCE) == 0)
		return FI_ADDR_NOTAVAIL;
	dfi_ep_rx_addr(ep, m, &a);
	/* a scalable endpoint's context sends from its own port: the AV has the name */
	a.port = dfi_port_sub(a.port, rte_be_to_cpu_16(hdr->name_off));
	return dfi_av_reverse(ep->av, &a);
}

int
dfi_ep_getname(fid_t fid, void *addr, size_t *addrlen)
{
	struct dfi_ep *ep = ep_of_fid(fid);
	struct dfi_addr a;

	if (addrlen == NULL || (addr == NULL && *addrlen != 0))
		return -FI_EINVAL;
	dfi_ep_self(ep, &a);
	/* a context has its scalable endpoint's name */
	a.port = dfi_port_sub(a.port, ep->name_off);
	return dfi_addr_name(ep->addr_format, &a, addr, addrlen);
}

/* Another port number, before the endpoint is enabled. */
int
dfi_ep_setname(fid_t fid, void *addr, size_t addrlen)
{
	struct dfi_ep *ep = ep_of_fid(fid);
	struct dfi_sink sink;
	struct dfi_addr a, self;
	int ret;

	if (ep->enabled || ep->sep != NULL)
		return -FI_EOPBADSTATE;	/* a context's name is its scalable endpoint's */
	if (dfi_addr_decode(ep->addr_format, addr, addrlen, &a) != 0)
		return -FI_EINVAL;
	dfi_ep_self(ep, &self);
	if (a.kind != self.kind || (a.kind == DFI_ADDR_IPV4 && a.ipv4 != 0 &&
				    a.ipv4 != self.ipv4) ||
	    (a.kind == DFI_ADDR_ETH && memcmp(a.mac, self.mac, sizeof(a.mac)) != 0)) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_setname: not an address of port %s",
			 ep->sink.port->name);
		return -FI_EINVAL;
	}
	if (a.port == ep->sink.udp_port)
		return 0;
	ret = dfi_sink_attach(ep->sink.port, &sink, &a.port, ep);
	if (ret != 0)
		return ret;
	sink.encap = (uint8_t)ep->encap;
	sink.tos = ep->sink.tos;
	sink.no_sw_udp_cksum = ep->sink.no_sw_udp_cksum;
	dfi_sink_detach(&ep->sink);
	dfi_sink_move(&ep->sink, &sink, ep);
	return 0;
}

/* -- binding -- */

static int
bind_cq(struct dfi_ep *ep, struct dfi_cq *cq, uint64_t flags)
{
	int ret;

	if ((flags & ~(FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION)) != 0)
		return -FI_EBADFLAGS;
	if ((flags & (FI_TRANSMIT | FI_RECV)) == 0 ||
	    ((flags & FI_TRANSMIT) && ep->tx_cq != NULL) ||
	    ((flags & FI_RECV) && ep->rx_cq != NULL)) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_ep_bind: a CQ needs FI_TRANSMIT or FI_RECV, once");
		return -FI_EINVAL;
	}
	dfi_guard_join(cq->guard, ep->guard);
	ret = dfi_cq_attach_ep(cq, ep);
	if (ret != 0)
		return ret;
	if (flags & FI_TRANSMIT) {
		ep->tx_cq = cq;
		ep->tx_selective = (flags & FI_SELECTIVE_COMPLETION) != 0;
	}
	if (flags & FI_RECV) {
		ep->rx_cq = cq;
		ep->rx_selective = (flags & FI_SELECTIVE_COMPLETION) != 0;
	}
	return 0;
}

static int
bind_cntr(struct dfi_ep *ep, struct dfi_cntr *cntr, uint64_t flags)
{
	static const uint64_t slot_flags[DFI_CNTR_NB] = {
		FI_SEND, FI_RECV, FI_READ, FI_WRITE, FI_REMOTE_READ, FI_REMOTE_WRITE,
	};
	int i, ret;

	if (flags == 0 || (flags & ~ep->type_ops->cntr_flags) != 0)
		return (flags & ~(FI_SEND | FI_RECV | FI_READ | FI_WRITE | FI_REMOTE_READ |
				  FI_REMOTE_WRITE)) != 0 ? -FI_EBADFLAGS : -FI_EINVAL;
	for (i = 0; i < DFI_CNTR_NB; i++) {
		if ((flags & slot_flags[i]) && ep->cntrs[i] != NULL)
			return -FI_EINVAL;
	}
	/* a counter is in the domain's group (guard.h) */
	dfi_guard_join(cntr->domain->guard, ep->guard);
	ret = dfi_cntr_attach(cntr, ep);
	if (ret != 0)
		return ret;
	for (i = 0; i < DFI_CNTR_NB; i++) {
		if (flags & slot_flags[i])
			ep->cntrs[i] = cntr;
	}
	return 0;
}

/* A shared context binds once, to an endpoint that asked for one (the
 * context checks its domain and attributes). */
static int
bind_shared_check(const struct dfi_ep *ep, uint64_t flags, bool tx)
{
	if (flags != 0)
		return -FI_EBADFLAGS;
	if (!(tx ? ep->tx_shared : ep->rx_shared) ||
	    (tx ? (void *)ep->stx : (void *)ep->srx) != NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_ep_bind: a shared %s context binds once, to an "
			 "endpoint whose %s is FI_SHARED_CONTEXT", tx ? "transmit" : "receive",
			 tx ? "tx_ctx_cnt" : "rx_ctx_cnt");
		return -FI_EINVAL;
	}
	return 0;
}

static int
ep_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct dfi_ep *ep = ep_of_fid(fid);
	struct dfi_stx *stx;
	struct dfi_srx *srx;
	struct dfi_av *av;
	struct dfi_cq *cq;
	struct dfi_cntr *cntr;
	struct dfi_eq *eq;
	int ret;

	if (ep->enabled)
		return -FI_EOPBADSTATE;
	if (bfid == NULL)
		return -FI_EINVAL;
	if ((av = dfi_av_from_fid(bfid)) != NULL) {
		if (flags != 0)
			return -FI_EBADFLAGS;
		if (ep->sep != NULL) {
			DFI_WARN(FI_LOG_EP_CTRL, "fi_ep_bind: a context has its scalable "
				 "endpoint's AV (fi_scalable_ep_bind)");
			return -FI_EINVAL;
		}
		if (ep->av != NULL || av->domain != ep->domain)
			return -FI_EINVAL;
		dfi_av_hold(av);
		ep->av = av;
		return 0;
	}
	if ((cq = dfi_cq_from_fid(bfid)) != NULL)
		return cq->domain == ep->domain ? bind_cq(ep, cq, flags) : -FI_EINVAL;
	if ((cntr = dfi_cntr_from_fid(bfid)) != NULL)
		return cntr->domain == ep->domain ? bind_cntr(ep, cntr, flags) : -FI_EINVAL;
	if ((stx = dfi_stx_from_fid(bfid)) != NULL) {
		ret = bind_shared_check(ep, flags, true);
		ret = ret != 0 ? ret : dfi_stx_attach(stx, ep);
		if (ret == 0)
			ep->stx = stx;
		return ret;
	}
	if ((srx = dfi_srx_from_fid(bfid)) != NULL) {
		ret = bind_shared_check(ep, flags, false);
		ret = ret != 0 ? ret : dfi_srx_attach(srx, ep);
		if (ret == 0)
			ep->srx = srx;
		return ret;
	}
	if ((eq = dfi_eq_from_fid(bfid)) != NULL) {
		/* a connection's events go there; a connectionless endpoint has none */
		if (flags != 0)
			return -FI_EBADFLAGS;
		if (ep->eq != NULL || eq->fabric != ep->domain->fabric)
			return -FI_EINVAL;
		dfi_eq_hold(eq);
		ep->eq = eq;
		return 0;
	}
	DFI_WARN(FI_LOG_EP_CTRL, "fi_ep_bind: class %zu cannot bind to an endpoint",
		 bfid->fclass);
	return -FI_EINVAL;
}

/* -- enable, control, options -- */

static int
ep_enable(struct dfi_ep *ep)
{
	struct dfi_guard *held;
	int ret;

	if (ep->enabled)
		return 0;
	if (ep->av == NULL && ep->type != FI_EP_MSG) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_enable: no AV bound");
		return -FI_ENOAV;
	}
	if (ep->tx_cq == NULL && ep->rx_cq == NULL && ep->cntrs[DFI_CNTR_SEND] == NULL &&
	    ep->cntrs[DFI_CNTR_RECV] == NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_enable: no CQ or counter bound");
		return -FI_ENOCQ;
	}
	if ((ep->tx_shared && ep->stx == NULL) || (ep->rx_shared && ep->srx == NULL)) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_enable: FI_SHARED_CONTEXT, and no shared %s context "
			 "bound", ep->stx == NULL && ep->tx_shared ? "transmit" : "receive");
		return -FI_EINVAL;
	}
	if (ep->srx != NULL) {
		ret = dfi_srx_enable(ep->srx, ep);
		if (ret != 0)
			return ret;
	}
	ret = dfi_sink_activate(&ep->sink);
	if (ret != 0)
		return ret;
	ret = ep->type_ops->enable(ep);
	if (ret == 0 && ep->type_ops->rescue != NULL)
		ret = dfi_watchdog_add(ep->domain, ep);
	if (ret != 0) {
		dfi_port_stop(ep->sink.port);
		ep->sink.active = 0;
		return ret;
	}
	held = dfi_guard_lock(ep->guard);
	ep->enabled = true;
	dfi_guard_unlock(held);
	return 0;
}

static int
ep_control(struct fid *fid, int command, void *arg)
{
	struct dfi_ep *ep = ep_of_fid(fid);
	uint64_t *flags = arg;

	switch (command) {
	case FI_ENABLE:
		return ep_enable(ep);
	case FI_GETOPSFLAG:
		if (flags == NULL)
			return -FI_EINVAL;
		if ((*flags & (FI_TRANSMIT | FI_RECV)) == FI_TRANSMIT)
			*flags = ep->tx_op_flags;
		else if ((*flags & (FI_TRANSMIT | FI_RECV)) == FI_RECV)
			*flags = ep->rx_op_flags;
		else
			return -FI_EINVAL;
		return 0;
	case FI_SETOPSFLAG:
		if (flags == NULL)
			return -FI_EINVAL;
		if ((*flags & (FI_TRANSMIT | FI_RECV)) == FI_TRANSMIT)
			ep->tx_op_flags = *flags & ~FI_TRANSMIT;
		else if ((*flags & (FI_TRANSMIT | FI_RECV)) == FI_RECV)
			ep->rx_op_flags = *flags & ~FI_RECV;
		else
			return -FI_EINVAL;
		return 0;
	default:
		return -FI_ENOSYS;
	}
}

/* No option of FI_OPT_ENDPOINT applies to these endpoints. */
/* FI_OPT_MIN_MULTI_RECV, the one option: for types with FI_MULTI_RECV. */
static bool
ep_has_opt(const struct dfi_ep *ep, int level, int optname)
{
	return level == FI_OPT_ENDPOINT && optname == FI_OPT_MIN_MULTI_RECV &&
	       (ep->type == FI_EP_RDM || ep->type == FI_EP_MSG);
}

static int
ep_getopt(fid_t fid, int level, int optname, void *optval, size_t *optlen)
{
	struct dfi_ep *ep = ep_of_fid(fid);

	if (!ep_has_opt(ep, level, optname))
		return -FI_ENOPROTOOPT;
	if (optval == NULL || optlen == NULL || *optlen < sizeof(size_t))
		return -FI_EINVAL;
	*(size_t *)optval = ep->min_multi_recv;
	*optlen = sizeof(size_t);
	return 0;
}

static int
ep_setopt(fid_t fid, int level, int optname, const void *optval, size_t optlen)
{
	struct dfi_ep *ep = ep_of_fid(fid);
	struct dfi_guard *held;

	if (!ep_has_opt(ep, level, optname))
		return -FI_ENOPROTOOPT;
	if (optval == NULL || optlen != sizeof(size_t))
		return -FI_EINVAL;
	held = dfi_guard_lock(ep->guard);
	ep->min_multi_recv = *(const size_t *)optval;
	dfi_guard_unlock(held);
	return 0;
}

static ssize_t
ep_rx_size_left(struct fid_ep *ep_fid)
{
	return (ssize_t)ep_of_fid(&ep_fid->fid)->rx_size;
}

static ssize_t
ep_tx_size_left(struct fid_ep *ep_fid)
{
	return (ssize_t)ep_of_fid(&ep_fid->fid)->tx_size;
}

static ssize_t
ep_cancel(fid_t fid, void *context)
{
	struct dfi_ep *ep = ep_of_fid(fid);
	struct dfi_guard *held;
	ssize_t ret;

	held = dfi_guard_lock(ep->guard);
	ret = ep->type_ops->cancel(ep, context);
	dfi_guard_unlock(held);
	return ret;
}

void
dfi_ep_count_bound(struct dfi_ep *ep, enum dfi_cntr_slot slot, bool error)
{
	struct dfi_cntr *cntr = ep->cntrs[slot];

	if (error)
		dfi_cntr_inc_err(cntr);
	else
		dfi_cntr_inc(cntr);
}

/* -- the provider's extension (fi_ext_dpdk.h) -- */

static int
ep_stats(struct fid_ep *ep_fid, struct fi_dpdk_ep_stats *stats)
{
	struct rte_eth_stats eth;
	struct dfi_port_stats ps;
	struct dfi_ep *ep;
	struct dfi_fault_stats f;
	struct dfi_guard *held;
	int d;

	/* an endpoint or a scalable endpoint's context */
	if (ep_fid == NULL || stats == NULL || ep_fid->fid.ops != &dfi_ep_fi_ops)
		return -FI_EINVAL;
	ep = ep_of_fid(&ep_fid->fid);
	memset(stats, 0, sizeof(*stats));
	held = dfi_guard_lock(ep->guard);
	if (ep->type_ops->stats != NULL)
		ep->type_ops->stats(ep, stats);
	dfi_port_fault_stats(ep->sink.port, &f);
	for (d = 0; d < DFI_FAULT_DIRS; d++) {
		stats->fault_frames[d] = f.frames[d];
		stats->fault_dropped[d] = f.count[d][DFI_FAULT_DROP];
		stats->fault_duplicated[d] = f.count[d][DFI_FAULT_DUP];
		stats->fault_reordered[d] = f.count[d][DFI_FAULT_REORDER];
		stats->fault_corrupted[d] = f.count[d][DFI_FAULT_CORRUPT];
	}
	if (ep->sink.port->rt != NULL) {
		dfi_port_stats_read(ep->sink.port, &ps);
		stats->port_rx_bad = ps.rx_bad;
		stats->port_restarts = dfi_port_restarts(ep->sink.port);
	}
	if (rte_eth_stats_get(ep->sink.port->port_id, &eth) == 0)
		stats->port_rx_dropped = eth.imissed + eth.rx_nombuf + eth.ierrors;
	dfi_guard_unlock(held);
	return 0;
}

/* A caller built with another version of the header passes its structure's
 * size: the provider writes no byte past it. */
static int
ep_stats_sized(struct fid_ep *ep_fid, struct fi_dpdk_ep_stats *stats, size_t size)
{
	struct fi_dpdk_ep_stats own;
	int ret;

	if (stats == NULL)
		return -FI_EINVAL;
	ret = ep_stats(ep_fid, &own);
	if (ret != 0)
		return ret;
	memcpy(stats, &own, RTE_MIN(size, sizeof(own)));
	if (size > sizeof(own))
		memset((char *)stats + sizeof(own), 0, size - sizeof(own));
	return 0;
}

static struct fi_dpdk_ep_ops dfi_ep_ext_ops = {
	.size = sizeof(struct fi_dpdk_ep_ops),
	.stats = ep_stats,
	.stats_sized = ep_stats_sized,
};

static int
ep_ops_open(struct fid *fid __rte_unused, const char *name, uint64_t flags, void **ops,
	    void *context __rte_unused)
{
	if (name == NULL || ops == NULL || flags != 0)
		return -FI_EINVAL;
	if (strcmp(name, FI_DPDK_EP_OPS_1) != 0)
		return -FI_ENOSYS;
	*ops = &dfi_ep_ext_ops;
	return 0;
}

/* -- open, close -- */

static int
ep_close(struct fid *fid)
{
	struct dfi_ep *ep = ep_of_fid(fid);
	struct dfi_cntr *done[DFI_CNTR_NB] = { NULL };
	struct dfi_guard *held;
	int i, j;

	dfi_watchdog_del(ep->domain, ep);
	held = dfi_guard_lock(ep->guard);
	ep->enabled = false;
	if (ep->type_ops->shutdown != NULL)
		ep->type_ops->shutdown(ep);
	dfi_guard_unlock(held);
	if (ep->tx_cq != NULL)
		dfi_cq_detach_ep(ep->tx_cq, ep);
	if (ep->rx_cq != NULL && ep->rx_cq != ep->tx_cq)
		dfi_cq_detach_ep(ep->rx_cq, ep);
	for (i = 0; i < DFI_CNTR_NB; i++) {
		for (j = 0; j < i && done[j] != ep->cntrs[i]; j++)
			;
		if (ep->cntrs[i] != NULL && j == i) {
			dfi_cntr_detach(ep->cntrs[i], ep);
			done[i] = ep->cntrs[i];
		}
	}
	dfi_sink_detach(&ep->sink);
	ep->type_ops->fini(ep);
	if (ep->stx != NULL)
		dfi_stx_detach(ep->stx);
	if (ep->srx != NULL)
		dfi_srx_detach(ep->srx);
	if (ep->sep != NULL)
		dfi_sep_ctx_closed(ep->sep, ep);
	if (ep->av != NULL)
		dfi_av_release(ep->av);
	if (ep->eq != NULL)
		dfi_eq_release(ep->eq);
	dfi_guard_put(ep->guard);
	dfi_domain_release(ep->domain);
	free(ep);
	return 0;
}

/* The info may have been edited since fi_getinfo(): check it like fi_domain() does. */
static int
ep_check_info(const struct dfi_domain *domain, const struct fi_info *info)
{
	struct fi_info *prov;
	int ret;

	prov = dfi_info_template(info->ep_attr->type, domain->port);
	if (prov == NULL)
		return -FI_ENOMEM;
	ret = dfi_info_apply_hints(prov, info, domain->fabric->fabric_fid.api_version != 0 ?
				   domain->fabric->fabric_fid.api_version : DFI_FI_VERSION);
	fi_freeinfo(prov);
	if (ret == -FI_ENODATA) {
		DFI_WARN(FI_LOG_EP_CTRL, "the info asks for more than %s offers "
			 "(FI_LOG_LEVEL=info tells what)", domain->port->name);
		return -FI_EINVAL;
	}
	return ret;
}

int
dfi_ep_src_port(const struct dfi_domain *domain, const struct fi_info *info, rte_be16_t *port)
{
	struct dfi_addr a;

	*port = 0;
	if (info->src_addr == NULL)
		return 0;
	if (dfi_addr_decode(info->addr_format, info->src_addr, info->src_addrlen, &a) != 0 ||
	    (a.kind == DFI_ADDR_IPV4 && a.ipv4 != 0 && a.ipv4 != domain->port->ipv4)) {
		DFI_WARN(FI_LOG_EP_CTRL, "info->src_addr is not on port %s", domain->port->name);
		return -FI_EINVAL;
	}
	*port = a.port;
	return 0;
}

/*
 * The traffic class goes in the DSCP field of each IPv4 header the endpoint
 * sends (raw Ethernet has no field for it); an urgent one (EF and above)
 * is progressed, and so flushed, before the other endpoints of its CQs.
 */
static void
ep_tclass(struct dfi_ep *ep, uint32_t tclass)
{
	int dscp = dfi_wire_dscp(tclass);

	/* ep_check_info() refused any other */
	ep->sink.tos = (uint8_t)(RTE_MAX(dscp, 0) << 2);
	ep->urgent = dscp >= DFI_DSCP_CS5;
}

static const struct dfi_ep_type_ops *
type_ops_of(enum fi_ep_type type)
{
	switch (type) {
	case FI_EP_DGRAM:
		return &dfi_dgram_ops;
	case FI_EP_RDM:
		return &dfi_rdm_ops;
	case FI_EP_MSG:
		return &dfi_msg_ops;
	default:
		return NULL;
	}
}

int
dfi_ep_check(struct dfi_domain *domain, const struct fi_info *info)
{
	if (domain == NULL || info == NULL || info->ep_attr == NULL || info->tx_attr == NULL ||
	    info->rx_attr == NULL)
		return -FI_EINVAL;
	if (type_ops_of(info->ep_attr->type) == NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "endpoint type %s not implemented",
			 fi_tostr(&info->ep_attr->type, FI_TYPE_EP_TYPE));
		return -FI_ENOSYS;
	}
	return ep_check_info(domain, info);
}

int
dfi_endpoint(struct fid_domain *domain_fid, struct fi_info *info, struct fid_ep **ep_fid,
	     void *context)
{
	struct dfi_domain *domain = dfi_domain_from_fid(domain_fid);
	struct dfi_ep *ep;
	int ret;

	if (ep_fid == NULL)
		return -FI_EINVAL;
	ret = dfi_ep_check(domain, info);
	if (ret != 0)
		return ret;
	if ((info->ep_attr->tx_ctx_cnt > 1 && info->ep_attr->tx_ctx_cnt != FI_SHARED_CONTEXT) ||
	    (info->ep_attr->rx_ctx_cnt > 1 && info->ep_attr->rx_ctx_cnt != FI_SHARED_CONTEXT)) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_endpoint: %zu transmit and %zu receive contexts: "
			 "those are fi_scalable_ep()'s", info->ep_attr->tx_ctx_cnt,
			 info->ep_attr->rx_ctx_cnt);
		return -FI_EINVAL;
	}
	ret = dfi_ep_open(domain, info, NULL, 0, context, &ep);
	if (ret == 0)
		*ep_fid = &ep->ep_fid;
	return ret;
}

int
dfi_ep_open(struct dfi_domain *domain, const struct fi_info *info, struct dfi_sink *sink,
	    uint16_t name_off, void *context, struct dfi_ep **out)
{
	const struct dfi_ep_type_ops *ops = type_ops_of(info->ep_attr->type);
	void *sink_owner = sink != NULL ? sink->owner : NULL;
	rte_be16_t port = 0;
	struct dfi_ep *ep;
	int ret;

	if (sink == NULL) {
		ret = dfi_ep_src_port(domain, info, &port);
		if (ret != 0)
			return ret;
	}
	ep = dfi_ep_zalloc(sizeof(*ep));
	if (ep == NULL)
		return -FI_ENOMEM;
	ret = dfi_domain_guard(domain, &ep->guard);
	if (ret != 0)
		goto err_free;
	ep->domain = domain;
	ep->name_off = name_off;
	ep->type = info->ep_attr->type;
	ep->type_ops = ops;
	ep->caps = info->caps;
	ep->addr_format = domain->addr_format;
	ep->encap = domain->encap;
	ep->tx_op_flags = info->tx_attr->op_flags;
	ep->rx_op_flags = info->rx_attr->op_flags;
	ep->max_msg_size = info->ep_attr->max_msg_size;
	ep->inject_size = info->tx_attr->inject_size;
	ep->iov_limit = RTE_MIN(info->tx_attr->iov_limit, info->rx_attr->iov_limit);
	ep->tx_size = info->tx_attr->size;
	ep->rx_size = info->rx_attr->size;
	ep->tx_shared = info->ep_attr->tx_ctx_cnt == FI_SHARED_CONTEXT;
	ep->rx_shared = info->ep_attr->rx_ctx_cnt == FI_SHARED_CONTEXT;
	if (sink != NULL) {
		dfi_sink_move(&ep->sink, sink, ep);
	} else {
		ret = dfi_sink_attach(domain->port, &ep->sink, &port, ep);
		if (ret != 0)
			goto err_guard;
	}
	/* known before fi_enable: a raw-Ethernet endpoint never asks for a steered queue */
	ep->sink.encap = (uint8_t)ep->encap;
	ep_tclass(ep, info->tx_attr->tclass != FI_TC_UNSPEC ? info->tx_attr->tclass :
		      domain->tclass);
	ret = ops->init(ep, info);
	if (ret != 0)
		goto err_detach;
	dfi_ep_fid_init(&ep->ep_fid, FI_CLASS_EP, context, &dfi_ep_fi_ops, &dfi_ep_ops,
			ops->cm != NULL ? ops->cm : &dfi_ep_cm_ops, ops->msg, ops->tagged);
	ep->ep_fid.rma = ops->rma;
	if (ops->atomic != NULL)
		ep->ep_fid.atomic = ops->atomic;
	dfi_domain_hold(domain);
	*out = ep;
	return 0;

err_detach:
	if (sink != NULL)
		dfi_sink_move(sink, &ep->sink, sink_owner);
	else
		dfi_sink_detach(&ep->sink);
err_guard:
	dfi_guard_put(ep->guard);
err_free:
	free(ep);
	return ret;
}

/* -- what lib/fabric calls up into (ep_layer.h) -- */

static void
layer_progress(struct dfi_ep *ep)
{
	dfi_ep_progress(ep);
}

/* The watchdog never waits: a guard held is an application progressing. */
static bool
layer_rescue(struct dfi_ep *ep)
{
	struct dfi_guard *held = dfi_guard_trylock(ep->guard);
	bool alone = false;

	if (held == NULL)
		return false;
	if (ep->enabled && ep->type_ops->rescue != NULL) {
		alone = ep->type_ops->rescue(ep);
		dfi_ep_trig(ep);
	}
	dfi_guard_unlock(held);
	return alone;
}

static bool
layer_urgent(const struct dfi_ep *ep)
{
	return ep->urgent;
}

RTE_INIT(dfi_ep_layer_register)
{
	dfi_ep_layer.endpoint = dfi_endpoint;
	dfi_ep_layer.passive_ep = dfi_passive_ep;
	dfi_ep_layer.scalable_ep = dfi_scalable_ep;
	dfi_ep_layer.stx_ctx = dfi_stx_context;
	dfi_ep_layer.srx_ctx = dfi_srx_context;
	dfi_ep_layer.progress = layer_progress;
	dfi_ep_layer.rescue = layer_rescue;
	dfi_ep_layer.urgent = layer_urgent;
}
