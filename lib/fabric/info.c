/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Attribute templates. The numbers are the provider's limits; getinfo lowers
 * the sizes an application asks for and checks the rest against them.
 */

#include <stdlib.h>
#include <string.h>

#include "dfi.h"
#include <rte_common.h>

#include "domain.h"
#include "info.h"
#include "wire.h"

#define DFI_QUEUE_SIZE		1024
#define DFI_IOV_LIMIT		4
/* a page and more: a send up to 8 KiB may be injected, and so completes at
 * once, rather than on the receiver's ack, which the receiver then sends
 * alone, before the application's answer could carry it (fi_pingpong's 4 KiB
 * rounds: 0.82 against 0.95 us/xfer) */
#define DFI_RDM_INJECT		8192
#define DFI_RDM_MAX_MSG		(1ULL << 30)
#define DFI_RDM_BUFFERED	(8ULL << 20)
#define DFI_MR_KEY_SIZE		8
#define DFI_CQ_DATA_SIZE	8
#define DFI_DOMAIN_EP_CNT	256
#define DFI_DOMAIN_CQ_CNT	1024
#define DFI_DOMAIN_CNTR_CNT	1024
#define DFI_DOMAIN_MR_CNT	65536
/* Contexts of a scalable endpoint, each way: each is a UDP port of the
 * endpoint's range, and a queue pair of its own where the PMD steers. */
#define DFI_EP_CTX_MAX		64

const enum fi_ep_type dfi_ep_types[] = { FI_EP_RDM, FI_EP_DGRAM, FI_EP_MSG };
const unsigned int dfi_ep_type_count = RTE_DIM(dfi_ep_types);

static void
template_domain(struct fi_domain_attr *d)
{
	d->threading = FI_THREAD_SAFE;
	d->control_progress = FI_PROGRESS_MANUAL;
	d->data_progress = FI_PROGRESS_MANUAL;
	d->resource_mgmt = FI_RM_ENABLED;
	d->av_type = FI_AV_UNSPEC;
	d->mr_mode = 0;
	d->mr_key_size = DFI_MR_KEY_SIZE;
	d->cq_data_size = DFI_CQ_DATA_SIZE;
	d->cq_cnt = DFI_DOMAIN_CQ_CNT;
	d->ep_cnt = DFI_DOMAIN_EP_CNT;
	d->tx_ctx_cnt = DFI_DOMAIN_EP_CNT;
	d->rx_ctx_cnt = DFI_DOMAIN_EP_CNT;
	d->max_ep_tx_ctx = 1;
	d->max_ep_rx_ctx = 1;
	/* endpoints per shared context: any of the domain's */
	d->max_ep_stx_ctx = DFI_DOMAIN_EP_CNT;
	d->max_ep_srx_ctx = DFI_DOMAIN_EP_CNT;
	d->cntr_cnt = DFI_DOMAIN_CNTR_CNT;
	d->mr_iov_limit = 1;
	d->caps = FI_LOCAL_COMM | FI_REMOTE_COMM | FI_SHARED_AV;
	d->mode = 0;
	d->max_err_data = 0;
	d->mr_cnt = DFI_DOMAIN_MR_CNT;
	d->tclass = FI_TC_UNSPEC;
}

struct fi_info *
dfi_info_template(enum fi_ep_type type, const struct dfi_port *port)
{
	enum dfi_encap encap;
	struct fi_info *info;
	size_t dgram_max;

	info = fi_allocinfo();
	if (info == NULL)
		return NULL;
	info->domain_attr->name = strdup(port->name);
	info->fabric_attr->name = strdup(port->fabric_name);
	if (info->domain_attr->name == NULL || info->fabric_attr->name == NULL)
		goto err_free;

	info->mode = 0;
	info->addr_format = FI_SOCKADDR_IN;
	template_domain(info->domain_attr);
	info->fabric_attr->prov_version = DFI_PROV_VERSION;
	info->ep_attr->type = type;
	info->ep_attr->tx_ctx_cnt = 1;
	info->ep_attr->rx_ctx_cnt = 1;
	info->tx_attr->size = DFI_QUEUE_SIZE;
	info->tx_attr->iov_limit = DFI_IOV_LIMIT;
	info->tx_attr->comp_order = FI_ORDER_NONE;
	info->rx_attr->size = DFI_QUEUE_SIZE;
	info->rx_attr->iov_limit = DFI_IOV_LIMIT;
	info->rx_attr->comp_order = FI_ORDER_NONE;

	switch (type) {
	case FI_EP_RDM:
	case FI_EP_MSG:
		info->caps = type == FI_EP_RDM ? DFI_RDM_CAPS : DFI_MSG_CAPS;
		info->ep_attr->protocol = type == FI_EP_RDM ? DFI_PROTO_RDM : DFI_PROTO_MSG;
		info->ep_attr->protocol_version = DFI_PROTO_VERSION;
		info->ep_attr->max_msg_size = DFI_RDM_MAX_MSG;
		info->ep_attr->mem_tag_format = DFI_TAG_FORMAT;
		info->tx_attr->op_flags = 0;
		info->tx_attr->msg_order = DFI_RDM_MSG_ORDER;
		info->tx_attr->inject_size = DFI_RDM_INJECT;
		info->tx_attr->rma_iov_limit = 1;
		info->rx_attr->msg_order = DFI_RDM_MSG_ORDER;
		/* a read request is served after every write before it landed,
		 * and writes land in order; a read's answer is read from the
		 * region as it is sent, so a later write may overtake it */
		info->ep_attr->max_order_raw_size = SIZE_MAX;
		info->ep_attr->max_order_waw_size = SIZE_MAX;
		info->ep_attr->max_order_war_size = 0;
		info->rx_attr->total_buffered_recv = DFI_RDM_BUFFERED;
		break;
	case FI_EP_DGRAM:
		if (dfi_encap_param(FI_SOCKADDR_IN, &encap) != 0)
			goto err_free;
		dgram_max = dfi_wire_max_payload(port->mtu, encap);
		info->caps = DFI_DGRAM_CAPS;
		info->ep_attr->protocol = encap == DFI_ENCAP_UDP ? FI_PROTO_UDP : DFI_PROTO_DGRAM_ETH;
		info->ep_attr->protocol_version = DFI_PROTO_VERSION;
		info->ep_attr->max_msg_size = dgram_max;
		info->tx_attr->msg_order = FI_ORDER_NONE;
		info->tx_attr->inject_size = dgram_max;
		info->tx_attr->rma_iov_limit = 0;
		info->rx_attr->msg_order = FI_ORDER_NONE;
		info->rx_attr->total_buffered_recv = 0;
		break;
	default:
		goto err_free;
	}
	if (type != FI_EP_MSG) {
		/* no more contexts than the port has queues, as if each had one */
		info->domain_attr->max_ep_tx_ctx = RTE_MIN(port->max_queues, DFI_EP_CTX_MAX);
		info->domain_attr->max_ep_rx_ctx = info->domain_attr->max_ep_tx_ctx;
	}
	info->tx_attr->caps = info->caps & DFI_TX_CAPS;
	info->rx_attr->caps = info->caps & DFI_RX_CAPS;
	return info;

err_free:
	fi_freeinfo(info);
	return NULL;
}
