/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Hint matching for fi_getinfo(). A non-zero hint is a requirement: what the
 * provider cannot meet yields -FI_ENODATA, with the reason logged at info
 * level (FI_LOG_LEVEL=info). Sizes come back as asked for when the provider
 * can do at least that much; levels and flags come back as the most an
 * application may use.
 */

#include <arpa/inet.h>
#include <inttypes.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_common.h>

#include "dfi.h"
#include "addr.h"
#include "domain.h"
#include "eal.h"
#include "fabric.h"
#include "getinfo.h"
#include "info.h"
#include "wire.h"
#include "nic.h"
#include "params.h"
#include "port.h"

/* Set by utility providers (ofi_rxd, ofi_rxm) when they look for a core
 * provider to layer over; libfabric's internal OFI_CORE_PROV_ONLY. */
#define CORE_PROV_ONLY		(1ULL << 59)

#define MISMATCH(what, fmt, ...) do { \
	DFI_INFO(FI_LOG_CORE, "%s: " fmt, what, ##__VA_ARGS__); \
	return -FI_ENODATA; \
} while (0)

/* Rejects a hint above the provider's limit; returns the value to report. */
#define CHECK_MAX(what, hint, limit) do { \
	if ((hint) > (limit)) \
		MISMATCH(what, "%zu requested, at most %zu", (size_t)(hint), (size_t)(limit)); \
} while (0)

#define CHECK_SUBSET(what, hint, allowed) do { \
	if (((hint) & ~(allowed)) != 0) \
		MISMATCH(what, "unsupported bits 0x%" PRIx64, \
			 (uint64_t)((hint) & ~(allowed))); \
} while (0)

/* Narrows a size attribute to a non-zero hint once it is known to fit. */
#define NARROW(field, hint) do { \
	if ((hint) != 0) \
		(field) = (hint); \
} while (0)

/* Caps asked for, plus the modifiers they imply and the free secondaries. */
static uint64_t
caps_expand(uint64_t req, uint64_t prov)
{
	uint64_t caps;

	if (req == 0)
		return prov;
	caps = req | (prov & DFI_FREE_CAPS);
	if ((caps & (FI_MSG | FI_TAGGED)) != 0 && (caps & DFI_MSG_MODS) == 0)
		caps |= prov & DFI_MSG_MODS;
	if ((caps & (FI_RMA | FI_ATOMIC)) != 0 && (caps & DFI_RMA_MODS) == 0)
		caps |= prov & DFI_RMA_MODS;
	return caps;
}

/*
 * fi_getinfo(3): a primary modifier limits a primary capability the hints
 * name, and a provider enables only the primary capabilities selected, so a
 * modifier without its primary is refused rather than completed:
 * FI_READ, FI_WRITE, FI_REMOTE_READ and FI_REMOTE_WRITE require FI_RMA
 * and/or FI_ATOMIC; FI_SEND and FI_RECV limit FI_MSG or FI_TAGGED (or
 * FI_MULTICAST); FI_RMA_EVENT requires FI_REMOTE_READ and/or FI_REMOTE_WRITE
 * to be enabled, which FI_RMA alone implies.
 */
static int
apply_caps(struct fi_info *info, const struct fi_info *hints)
{
	uint64_t req = hints->caps;
	uint64_t caps;

	if ((req & DFI_RMA_MODS) != 0 && (req & (FI_RMA | FI_ATOMIC)) == 0)
		MISMATCH("caps", "FI_READ/FI_WRITE/FI_REMOTE_READ/FI_REMOTE_WRITE "
			 "require FI_RMA or FI_ATOMIC");
	if ((req & DFI_MSG_MODS) != 0 && (req & (FI_MSG | FI_TAGGED | FI_MULTICAST)) == 0)
		MISMATCH("caps", "FI_SEND/FI_RECV require FI_MSG or FI_TAGGED");
	CHECK_SUBSET("caps", req, info->caps);
	caps = caps_expand(req, info->caps);
	if ((caps & FI_RMA_EVENT) != 0 && (caps & (FI_REMOTE_READ | FI_REMOTE_WRITE)) == 0)
		MISMATCH("caps", "FI_RMA_EVENT requires FI_REMOTE_READ or FI_REMOTE_WRITE");
	info->caps = caps;
	return 0;
}

/* The checks transmit and receive attributes share: capabilities of their
 * own side (bits of the other side are tolerated, not honoured), default
 * operation flags and orderings. */
static int
apply_side(const char *side, uint64_t side_caps, uint64_t *caps, uint64_t hint_caps,
	   uint64_t op_flags, uint64_t hint_op_flags, uint64_t order, uint64_t hint_order,
	   uint64_t comp_order, uint64_t hint_comp_order)
{
	uint64_t req = hint_caps & side_caps;

	if ((req & ~*caps) != 0)
		MISMATCH(side, "unsupported caps 0x%" PRIx64, req & ~*caps);
	if (req != 0)
		*caps = caps_expand(req, *caps) & *caps;
	if ((hint_op_flags & ~op_flags) != 0)
		MISMATCH(side, "unsupported op_flags 0x%" PRIx64, hint_op_flags & ~op_flags);
	if ((hint_order & ~order) != 0)
		MISMATCH(side, "msg_order 0x%" PRIx64 " not offered", hint_order & ~order);
	if ((hint_comp_order & ~comp_order) != 0)
		MISMATCH(side, "comp_order 0x%" PRIx64 " not offered",
			 hint_comp_order & ~comp_order);
	return 0;
}

static int
apply_tx_attr(struct fi_info *info, const struct fi_tx_attr *hint)
{
	struct fi_tx_attr *tx = info->tx_attr;
	int ret;

	tx->caps = info->caps & DFI_TX_CAPS;
	if (hint == NULL)
		return 0;
	ret = apply_side("tx_attr", DFI_TX_CAPS, &tx->caps, hint->caps,
			 info->ep_attr->type == FI_EP_DGRAM ? DFI_DGRAM_TX_OP_FLAGS :
			 DFI_TX_OP_FLAGS, hint->op_flags, tx->msg_order, hint->msg_order,
			 tx->comp_order, hint->comp_order);
	if (ret != 0)
		return ret;
	CHECK_MAX("tx_attr->inject_size", hint->inject_size, tx->inject_size);
	CHECK_MAX("tx_attr->size", hint->size, tx->size);
	CHECK_MAX("tx_attr->iov_limit", hint->iov_limit, tx->iov_limit);
	CHECK_MAX("tx_attr->rma_iov_limit", hint->rma_iov_limit, tx->rma_iov_limit);
	if (dfi_wire_dscp(hint->tclass) < 0)
		MISMATCH("tx_attr->tclass", "0x%x is no traffic class", hint->tclass);
	tx->op_flags = hint->op_flags;
	tx->tclass = hint->tclass;
	NARROW(tx->inject_size, hint->inject_size);
	NARROW(tx->size, hint->size);
	NARROW(tx->iov_limit, hint->iov_limit);
	NARROW(tx->rma_iov_limit, hint->rma_iov_limit);
	return 0;
}

static int
apply_rx_attr(struct fi_info *info, const struct fi_rx_attr *hint)
{
	struct fi_rx_attr *rx = info->rx_attr;
	int ret;

	rx->caps = info->caps & DFI_RX_CAPS;
	if (hint == NULL)
		return 0;
	ret = apply_side("rx_attr", DFI_RX_CAPS, &rx->caps, hint->caps,
			 info->ep_attr->type == FI_EP_DGRAM ? DFI_DGRAM_RX_OP_FLAGS :
			 DFI_RX_OP_FLAGS, hint->op_flags, rx->msg_order, hint->msg_order,
			 rx->comp_order, hint->comp_order);
	if (ret != 0)
		return ret;
	CHECK_MAX("rx_attr->total_buffered_recv", hint->total_buffered_recv,
		  rx->total_buffered_recv);
	CHECK_MAX("rx_attr->size", hint->size, rx->size);
	CHECK_MAX("rx_attr->iov_limit", hint->iov_limit, rx->iov_limit);
	rx->op_flags = hint->op_flags;
	NARROW(rx->total_buffered_recv, hint->total_buffered_recv);
	NARROW(rx->size, hint->size);
	NARROW(rx->iov_limit, hint->iov_limit);
	return 0;
}

static int
apply_ep_attr(struct fi_info *info, const struct fi_ep_attr *hint)
{
	struct fi_ep_attr *ep = info->ep_attr;
	const struct fi_domain_attr *dom = info->domain_attr;

	if (hint == NULL)
		return 0;
	if (hint->type != FI_EP_UNSPEC && hint->type != ep->type)
		MISMATCH("ep_attr->type", "%s not offered here",
			 fi_tostr(&hint->type, FI_TYPE_EP_TYPE));
	if (hint->protocol != FI_PROTO_UNSPEC && hint->protocol != ep->protocol)
		MISMATCH("ep_attr->protocol", "protocol 0x%x not offered", hint->protocol);
	CHECK_MAX("ep_attr->protocol_version", hint->protocol_version, ep->protocol_version);
	CHECK_MAX("ep_attr->max_msg_size", hint->max_msg_size, ep->max_msg_size);
	/*
	 * RMA data ordering, against the capabilities granted (apply_caps() ran
	 * first). Without FI_RMA or FI_ATOMIC there is no operation to order:
	 * the sizes asked for hold trivially and come back as asked.
	 */
	if ((info->caps & (FI_RMA | FI_ATOMIC)) != 0) {
		CHECK_MAX("ep_attr->max_order_raw_size", hint->max_order_raw_size,
			  ep->max_order_raw_size);
		CHECK_MAX("ep_attr->max_order_war_size", hint->max_order_war_size,
			  ep->max_order_war_size);
		CHECK_MAX("ep_attr->max_order_waw_size", hint->max_order_waw_size,
			  ep->max_order_waw_size);
	}
	NARROW(ep->max_order_raw_size, hint->max_order_raw_size);
	NARROW(ep->max_order_war_size, hint->max_order_war_size);
	NARROW(ep->max_order_waw_size, hint->max_order_waw_size);
	/* FI_SHARED_CONTEXT: fi_stx_context() and fi_srx_context() */
	if (hint->tx_ctx_cnt != FI_SHARED_CONTEXT)
		CHECK_MAX("ep_attr->tx_ctx_cnt", hint->tx_ctx_cnt, dom->max_ep_tx_ctx);
	if (hint->rx_ctx_cnt != FI_SHARED_CONTEXT)
		CHECK_MAX("ep_attr->rx_ctx_cnt", hint->rx_ctx_cnt, dom->max_ep_rx_ctx);
	/* the counts fi_scalable_ep() opens, or FI_SHARED_CONTEXT */
	if (hint->tx_ctx_cnt != 0)
		ep->tx_ctx_cnt = hint->tx_ctx_cnt;
	if (hint->rx_ctx_cnt != 0)
		ep->rx_ctx_cnt = hint->rx_ctx_cnt;
	if (hint->auth_key_size != 0 || hint->auth_key != NULL)
		MISMATCH("ep_attr->auth_key", "authorization keys are not offered");
	/* Tags are 64 opaque bits: any layout of fields fits (fi_endpoint(3)),
	 * and without FI_TAGGED there is no tag to lay out. */
	NARROW(ep->mem_tag_format, hint->mem_tag_format);
	return 0;
}

/* fi_mr(3): the application's mr_mode bits say what it can do; we keep the
 * addressing and key choices it offers and need nothing else. */
static int
apply_mr_mode(struct fi_info *info, int hint, uint32_t version)
{
	struct fi_domain_attr *dom = info->domain_attr;
	bool rma = (info->caps & (FI_RMA | FI_ATOMIC)) != 0;

	if (version < FI_VERSION(1, 5)) {
		if (hint != FI_MR_UNSPEC && hint != FI_MR_BASIC && hint != FI_MR_SCALABLE)
			MISMATCH("domain_attr->mr_mode", "0x%x is no pre-1.5 mode", hint);
		dom->mr_mode = hint == FI_MR_UNSPEC ? FI_MR_SCALABLE : hint;
		return 0;
	}
	if (hint == FI_MR_BASIC || hint == FI_MR_SCALABLE) {
		dom->mr_mode = hint;
		return 0;
	}
	if ((hint & (FI_MR_BASIC | FI_MR_SCALABLE)) != 0)
		MISMATCH("domain_attr->mr_mode", "FI_MR_BASIC/FI_MR_SCALABLE must be alone");
	dom->mr_mode = rma ? hint & (FI_MR_VIRT_ADDR | FI_MR_PROV_KEY) : 0;
	return 0;
}

static int
apply_domain_attr(struct fi_info *info, const struct fi_domain_attr *hint, uint32_t version)
{
	struct fi_domain_attr *dom = info->domain_attr;

	dom->caps = info->caps & DFI_DOMAIN_CAPS;
	if (hint == NULL)
		return apply_mr_mode(info, 0, version);

	if (hint->threading > FI_THREAD_ENDPOINT)
		MISMATCH("domain_attr->threading", "unknown model %d", hint->threading);
	if (hint->threading != FI_THREAD_UNSPEC)
		dom->threading = hint->threading;
	if (hint->control_progress == FI_PROGRESS_AUTO || hint->data_progress == FI_PROGRESS_AUTO)
		MISMATCH("domain_attr", "only FI_PROGRESS_MANUAL is offered");
	if (hint->control_progress > FI_PROGRESS_MANUAL ||
	    hint->data_progress > FI_PROGRESS_MANUAL)
		MISMATCH("domain_attr", "unknown progress model");
	if (hint->resource_mgmt > FI_RM_ENABLED)
		MISMATCH("domain_attr->resource_mgmt", "unknown value %d", hint->resource_mgmt);
	if (hint->resource_mgmt != FI_RM_UNSPEC)
		dom->resource_mgmt = hint->resource_mgmt;
	if (hint->av_type > FI_AV_TABLE)
		MISMATCH("domain_attr->av_type", "unknown type %d", hint->av_type);
	if (hint->av_type != FI_AV_UNSPEC)
		dom->av_type = hint->av_type;

	CHECK_MAX("domain_attr->mr_key_size", hint->mr_key_size, dom->mr_key_size);
	CHECK_MAX("domain_attr->cq_data_size", hint->cq_data_size, dom->cq_data_size);
	CHECK_MAX("domain_attr->cq_cnt", hint->cq_cnt, dom->cq_cnt);
	CHECK_MAX("domain_attr->ep_cnt", hint->ep_cnt, dom->ep_cnt);
	CHECK_MAX("domain_attr->tx_ctx_cnt", hint->tx_ctx_cnt, dom->tx_ctx_cnt);
	CHECK_MAX("domain_attr->rx_ctx_cnt", hint->rx_ctx_cnt, dom->rx_ctx_cnt);
	CHECK_MAX("domain_attr->max_ep_tx_ctx", hint->max_ep_tx_ctx, dom->max_ep_tx_ctx);
	CHECK_MAX("domain_attr->max_ep_rx_ctx", hint->max_ep_rx_ctx, dom->max_ep_rx_ctx);
	CHECK_MAX("domain_attr->max_ep_stx_ctx", hint->max_ep_stx_ctx, dom->max_ep_stx_ctx);
	CHECK_MAX("domain_attr->max_ep_srx_ctx", hint->max_ep_srx_ctx, dom->max_ep_srx_ctx);
	CHECK_MAX("domain_attr->cntr_cnt", hint->cntr_cnt, dom->cntr_cnt);
	CHECK_MAX("domain_attr->mr_iov_limit", hint->mr_iov_limit, dom->mr_iov_limit);
	CHECK_MAX("domain_attr->max_err_data", hint->max_err_data, dom->max_err_data);
	CHECK_MAX("domain_attr->mr_cnt", hint->mr_cnt, dom->mr_cnt);
	CHECK_SUBSET("domain_attr->caps", hint->caps & DFI_DOMAIN_CAPS, dom->caps);
	if (hint->auth_key_size != 0 || hint->auth_key != NULL)
		MISMATCH("domain_attr->auth_key", "authorization keys are not offered");
	if (dfi_wire_dscp(hint->tclass) < 0)
		MISMATCH("domain_attr->tclass", "0x%x is no traffic class", hint->tclass);
	dom->tclass = hint->tclass;
	return apply_mr_mode(info, hint->mr_mode, version);
}

static int
apply_fabric_attr(struct fi_info *info, const struct fi_fabric_attr *hint)
{
	if (hint == NULL)
		return 0;
	if (hint->name != NULL && strcmp(hint->name, info->fabric_attr->name) != 0)
		MISMATCH("fabric_attr->name", "%s is not %s", hint->name, info->fabric_attr->name);
	CHECK_MAX("fabric_attr->prov_version", hint->prov_version,
		  info->fabric_attr->prov_version);
	return 0;
}

int
dfi_info_apply_hints(struct fi_info *info, const struct fi_info *hints, uint32_t version)
{
	int ret;

	info->mode = 0;
	if (hints == NULL) {
		info->tx_attr->caps = info->caps & DFI_TX_CAPS;
		info->rx_attr->caps = info->caps & DFI_RX_CAPS;
		info->domain_attr->caps = info->caps & DFI_DOMAIN_CAPS;
		return apply_mr_mode(info, 0, version);
	}
	/* The provider requires no mode bit, so any hints->mode fits. The
	 * capabilities come first: the other checks depend on those granted. */
	ret = apply_caps(info, hints);
	if (ret == 0)
		ret = apply_ep_attr(info, hints->ep_attr);
	if (ret == 0)
		ret = apply_tx_attr(info, hints->tx_attr);
	if (ret == 0)
		ret = apply_rx_attr(info, hints->rx_attr);
	if (ret == 0)
		ret = apply_domain_attr(info, hints->domain_attr, version);
	if (ret == 0)
		ret = apply_fabric_attr(info, hints->fabric_attr);
	if (ret == 0 && hints->domain_attr != NULL && hints->domain_attr->name != NULL &&
	    strcmp(hints->domain_attr->name, info->domain_attr->name) != 0)
		MISMATCH("domain_attr->name", "%s is not %s", hints->domain_attr->name,
			 info->domain_attr->name);
	if (ret == 0) {
		info->handle = hints->handle;
		if (hints->fabric_attr != NULL)
			info->fabric_attr->fabric = hints->fabric_attr->fabric;
		if (hints->domain_attr != NULL)
			info->domain_attr->domain = hints->domain_attr->domain;
	}
	return ret;
}

/* Source and destination derived from node, service, flags and hints. */
struct addr_req {
	uint32_t format;	/* of the returned infos */
	bool have_src;
	bool have_dest;
	struct dfi_addr src;	/* a zero IPv4 address or MAC: any port */
	struct dfi_addr dest;
};

static int
resolve_node(const char *node, const char *service, uint64_t flags, struct dfi_addr *out)
{
	const struct sockaddr_in *sin;
	struct addrinfo ai_hints, *res = NULL;
	int ret;

	if (node != NULL && strstr(node, "://") != NULL) {
		if (service != NULL) {
			DFI_INFO(FI_LOG_CORE, "an FI_ADDR_STR node takes no service");
			return -FI_EINVAL;
		}
		if (dfi_addr_from_uri(node, out) != 0) {
			DFI_INFO(FI_LOG_CORE, "%s is not an address of this provider", node);
			return -FI_ENODATA;
		}
		return 0;
	}
	memset(&ai_hints, 0, sizeof(ai_hints));
	ai_hints.ai_family = AF_INET;
	ai_hints.ai_socktype = SOCK_DGRAM;
	if ((flags & FI_NUMERICHOST) != 0)
		ai_hints.ai_flags |= AI_NUMERICHOST;
	if ((flags & FI_SOURCE) != 0 && node == NULL)
		ai_hints.ai_flags |= AI_PASSIVE;
	ret = getaddrinfo(node, service, &ai_hints, &res);
	if (ret != 0) {
		DFI_INFO(FI_LOG_CORE, "cannot resolve %s:%s: %s", node != NULL ? node : "",
			 service != NULL ? service : "", gai_strerror(ret));
		return -FI_ENODATA;
	}
	sin = (const struct sockaddr_in *)(const void *)res->ai_addr;
	memset(out, 0, sizeof(*out));
	out->kind = DFI_ADDR_IPV4;
	out->ipv4 = sin->sin_addr.s_addr;
	out->port = sin->sin_port;
	freeaddrinfo(res);
	return 0;
}

static int
hint_addr(const struct fi_info *hints, const void *addr, size_t len, struct dfi_addr *out,
	  const char *what)
{
	if (dfi_addr_decode(hints->addr_format, addr, len, out) != 0) {
		DFI_INFO(FI_LOG_CORE, "hints->%s is no address of this provider", what);
		return -FI_ENODATA;
	}
	return 0;
}

static int
resolve_addrs(const char *node, const char *service, uint64_t flags,
	      const struct fi_info *hints, struct addr_req *req)
{
	uint32_t format = hints != NULL ? hints->addr_format : FI_FORMAT_UNSPEC;
	int ret = 0;

	memset(req, 0, sizeof(*req));
	if (!dfi_addr_format_normalize(format, &req->format)) {
		DFI_INFO(FI_LOG_CORE, "address format %s not offered",
			 fi_tostr(&format, FI_TYPE_ADDR_FORMAT));
		return -FI_ENODATA;
	}

	if ((flags & FI_SOURCE) != 0) {
		if (node == NULL && service == NULL) {
			DFI_WARN(FI_LOG_CORE, "FI_SOURCE needs a node or a service");
			return -FI_EINVAL;
		}
		ret = resolve_node(node, service, flags, &req->src);
		req->have_src = ret == 0;
		if (ret == 0 && hints != NULL && hints->dest_addr != NULL) {
			ret = hint_addr(hints, hints->dest_addr, hints->dest_addrlen, &req->dest,
					"dest_addr");
			req->have_dest = ret == 0;
		}
		return ret;
	}
	if (node != NULL || service != NULL) {
		ret = resolve_node(node, service, flags, &req->dest);
		req->have_dest = ret == 0;
	} else if (hints != NULL && hints->dest_addr != NULL) {
		ret = hint_addr(hints, hints->dest_addr, hints->dest_addrlen, &req->dest,
				"dest_addr");
		req->have_dest = ret == 0;
	}
	if (ret == 0 && hints != NULL && hints->src_addr != NULL) {
		ret = hint_addr(hints, hints->src_addr, hints->src_addrlen, &req->src, "src_addr");
		req->have_src = ret == 0;
	}
	return ret;
}

static int
info_set_addrs(struct fi_info *info, const struct dfi_port *port, const struct addr_req *req)
{
	struct dfi_addr src;

	memset(&src, 0, sizeof(src));
	/* Raw-Ethernet addresses when asked for: by format, or by a MAC source or
	 * destination. */
	if (req->format == FI_ADDR_DPDK || (req->have_src && req->src.kind == DFI_ADDR_ETH) ||
	    (req->have_dest && req->dest.kind == DFI_ADDR_ETH)) {
		src.kind = DFI_ADDR_ETH;
		memcpy(src.mac, port->mac, sizeof(src.mac));
	} else {
		src.kind = DFI_ADDR_IPV4;
		src.ipv4 = port->ipv4;
	}
	src.port = req->have_src ? req->src.port : 0;
	info->addr_format = req->format;
	info->src_addr = dfi_addr_encode(req->format, &src, &info->src_addrlen);
	if (info->src_addr == NULL)
		return info->src_addrlen == 0 ? -FI_ENODATA : -FI_ENOMEM;
	if (req->have_dest) {
		info->dest_addr = dfi_addr_encode(req->format, &req->dest, &info->dest_addrlen);
		if (info->dest_addr == NULL) {
			if (info->dest_addrlen != 0)
				return -FI_ENOMEM;
			MISMATCH("dest_addr", "no %s form", fi_tostr(&req->format,
								      FI_TYPE_ADDR_FORMAT));
		}
	}
	return 0;
}

static bool
src_matches(const struct dfi_port *port, const struct dfi_addr *src)
{
	static const uint8_t any_mac[6];

	if (src->kind == DFI_ADDR_ETH)
		return memcmp(src->mac, any_mac, sizeof(any_mac)) == 0 ||
		       memcmp(src->mac, port->mac, sizeof(src->mac)) == 0;
	return src->ipv4 == htonl(INADDR_ANY) || src->ipv4 == port->ipv4;
}

/* Port filters that do not depend on the endpoint type. */
static bool
port_wanted(const struct dfi_port *port, const struct fi_info *hints,
	    const struct addr_req *req)
{
	const char *name;

	if (req->have_src && !src_matches(port, &req->src))
		return false;
	if (hints == NULL)
		return true;
	if (hints->domain_attr != NULL && hints->domain_attr->domain != NULL) {
		name = dfi_domain_port_name(hints->domain_attr->domain);
		if (name == NULL || strcmp(name, port->name) != 0)
			return false;
	}
	if (hints->fabric_attr != NULL && hints->fabric_attr->fabric != NULL) {
		name = dfi_fabric_name(hints->fabric_attr->fabric);
		if (name == NULL || strcmp(name, port->fabric_name) != 0)
			return false;
	}
	return true;
}

static int
port_infos(const struct dfi_port *port, uint32_t version, const struct fi_info *hints,
	   const struct addr_req *req, struct fi_info ***tail)
{
	struct fid_nic *nic = NULL;
	struct fi_info *info;
	unsigned int i;
	int ret;

	for (i = 0; i < dfi_ep_type_count; i++) {
		info = dfi_info_template(dfi_ep_types[i], port);
		if (info == NULL)
			return -FI_ENOMEM;
		ret = dfi_info_apply_hints(info, hints, version);
		if (ret == 0)
			ret = info_set_addrs(info, port, req);
		if (ret == -FI_ENODATA) {
			fi_freeinfo(info);
			continue;
		}
		if (ret == 0)
			ret = dfi_nic_create(port, &nic);
		if (ret != 0) {
			fi_freeinfo(info);
			return ret;
		}
		info->nic = nic;
		/* fi_getinfo(3): report the first opened instance unless one was named. */
		if (info->fabric_attr->fabric == NULL)
			info->fabric_attr->fabric = dfi_fabric_find(port->fabric_name);
		if (info->domain_attr->domain == NULL)
			info->domain_attr->domain = dfi_fabric_find_domain(port->name);
		**tail = info;
		*tail = &info->next;
	}
	return 0;
}

/*
 * Whether a list of provider names has dpdk among them: ';' separates the
 * layers of a name (fi_getinfo(3), "dpdk;ofi_rxd"), ',' the names of
 * FI_PROVIDER (fabric(7)). A "^dpdk" that excludes it does not count.
 */
static bool
names_dpdk(const char *list)
{
	size_t len;

	if (list == NULL)
		return false;
	while (*list != '\0') {
		len = strcspn(list, ";,");
		if (len == strlen(DFI_PROV_NAME) && strncasecmp(list, DFI_PROV_NAME, len) == 0)
			return true;
		list += len;
		if (*list != '\0')
			list++;
	}
	return false;
}

/* The application named dpdk in its hints; rxd and rxm may only layer over
 * us then. */
static bool
hints_name_dpdk(const struct fi_info *hints)
{
	return hints != NULL && hints->fabric_attr != NULL &&
	       names_dpdk(hints->fabric_attr->prov_name);
}

/*
 * Whether the process asked for DPDK, which fi_getinfo() starts: libfabric
 * calls the getinfo of every provider it loaded when the hints name none, so
 * an EAL started for a program that never asked for dpdk would take memory,
 * threads and devices from every libfabric program of the host (see
 * doc/design.md, "When DPDK starts"). Asking is naming dpdk in the hints or
 * in FI_PROVIDER, setting FI_DPDK_EAL_ARGS, or starting the EAL.
 */
static bool
dpdk_asked_for(const struct fi_info *hints)
{
	const char *filter;

	if (hints_name_dpdk(hints))
		return true;
	/*
	 * The core hides the providers FI_PROVIDER leaves out, but passes no
	 * name to the ones it keeps: a list that names dpdk is read here. A
	 * negated one ("^tcp") only excludes others.
	 */
	filter = getenv("FI_PROVIDER");
	if (filter != NULL && filter[0] != '^' && names_dpdk(filter))
		return true;
	return dfi_param_str(DFI_PARAM_EAL_ARGS) != NULL || dfi_eal_started();
}

static struct fi_info *
prov_attr_info(void)
{
	struct fi_info *info = fi_allocinfo();

	if (info != NULL)
		info->fabric_attr->prov_version = DFI_PROV_VERSION;
	return info;
}

int
dfi_getinfo(uint32_t version, const char *node, const char *service, uint64_t flags,
	    const struct fi_info *hints, struct fi_info **info)
{
	struct dfi_port ports[RTE_MAX_ETHPORTS];
	struct fi_info *head = NULL, **tail = &head;
	struct addr_req req;
	int i, n, pass, ret;

	*info = NULL;
	if ((flags & FI_PROV_ATTR_ONLY) != 0) {
		*info = prov_attr_info();
		return *info != NULL ? 0 : -FI_ENOMEM;
	}
	if ((flags & CORE_PROV_ONLY) != 0 && !hints_name_dpdk(hints))
		return -FI_ENODATA;
	if (!dpdk_asked_for(hints)) {
		DFI_INFO(FI_LOG_CORE, "DPDK not started: neither the hints nor FI_PROVIDER "
			 "name dpdk, FI_DPDK_EAL_ARGS is unset and no EAL runs");
		return -FI_ENODATA;
	}
	if (hints != NULL && hints->ep_attr != NULL && hints->ep_attr->type != FI_EP_UNSPEC &&
	    hints->ep_attr->type != FI_EP_RDM && hints->ep_attr->type != FI_EP_MSG &&
	    hints->ep_attr->type != FI_EP_DGRAM)
		return -FI_ENODATA;

	ret = resolve_addrs(node, service, flags, hints, &req);
	if (ret != 0)
		return ret;
	ret = dfi_eal_ensure();
	if (ret != 0)
		return ret;
	/* A scan error (a bad FI_DPDK_IPV4, no memory) is not "no match". */
	n = dfi_ports_scan(dfi_param_str(DFI_PARAM_IPV4), ports, RTE_DIM(ports));
	if (n < 0)
		return n;

	/* With a destination, ports on its network come first. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			if (req.have_dest && req.dest.kind == DFI_ADDR_IPV4 &&
			    dfi_port_on_link(&ports[i], req.dest.ipv4) != (pass == 0))
				continue;
			if ((!req.have_dest || req.dest.kind != DFI_ADDR_IPV4) && pass == 1)
				continue;
			if (!port_wanted(&ports[i], hints, &req))
				continue;
			ret = port_infos(&ports[i], version, hints, &req, &tail);
			if (ret != 0) {
				fi_freeinfo(head);
				return ret;
			}
		}
	}
	if (head == NULL)
		return -FI_ENODATA;
	*info = head;
	return 0;
}
