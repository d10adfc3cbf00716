/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* rte_flow rules: IPv4 to the port's address, UDP to an endpoint's port. */

#include <string.h>

#include <rte_flow.h>

#include "dfi.h"
#include "net_log.h"
#include "queue.h"
#include "rxtx.h"
#include "steer.h"
#include "tap.h"

struct steer_rule {
	struct rte_flow_attr attr;
	struct rte_flow_item pattern[4];
	struct rte_flow_action actions[2];
	struct rte_flow_item_ipv4 ip_spec, ip_mask;
	struct rte_flow_item_udp udp_spec, udp_mask;
	struct rte_flow_action_queue queue;
};

static void
rule_init(struct steer_rule *r, uint32_t ip, rte_be16_t udp_port, uint16_t queue)
{
	memset(r, 0, sizeof(*r));
	r->attr.ingress = 1;
	r->ip_spec.hdr.dst_addr = ip;
	r->ip_mask.hdr.dst_addr = UINT32_MAX;
	r->udp_spec.hdr.dst_port = udp_port;
	r->udp_mask.hdr.dst_port = UINT16_MAX;
	r->pattern[0].type = RTE_FLOW_ITEM_TYPE_ETH;
	r->pattern[1].type = RTE_FLOW_ITEM_TYPE_IPV4;
	r->pattern[1].spec = &r->ip_spec;
	r->pattern[1].mask = &r->ip_mask;
	r->pattern[2].type = RTE_FLOW_ITEM_TYPE_UDP;
	r->pattern[2].spec = &r->udp_spec;
	r->pattern[2].mask = &r->udp_mask;
	r->pattern[3].type = RTE_FLOW_ITEM_TYPE_END;
	r->queue.index = queue;
	r->actions[0].type = RTE_FLOW_ACTION_TYPE_QUEUE;
	r->actions[0].conf = &r->queue;
	r->actions[1].type = RTE_FLOW_ACTION_TYPE_END;
}

uint16_t
dfi_steer_queues(struct dfi_port *port, const struct rte_eth_dev_info *info, uint16_t wanted)
{
	struct rte_flow_error err;
	struct steer_rule r;
	uint16_t max;

	if (wanted == 0)
		return 0;
	/* A PMD without rte_flow answers -ENOSYS before looking at the rule. */
	rule_init(&r, port->ipv4, rte_cpu_to_be_16(UINT16_MAX), 0);
	memset(&err, 0, sizeof(err));
	if (rte_flow_validate(port->port_id, &r.attr, r.pattern, r.actions, &err) == -ENOSYS)
		return 0;
	max = (uint16_t)RTE_MIN(RTE_MIN(info->max_rx_queues, info->max_tx_queues),
				dfi_tap_queue_pairs_max(port->port_id));
	if (max <= 1)
		return 0;
	return (uint16_t)RTE_MIN(wanted, max - 1);
}

void
dfi_steer_attach(struct dfi_port *port, struct dfi_sink *sink)
{
	struct dfi_port_rt *rt = port->rt;
	struct rte_flow_error err;
	struct steer_rule r;
	uint16_t q;

	pthread_mutex_lock(&rt->ctl);
	for (q = 1; q <= rt->nb_steered; q++) {
		if ((rt->steer_used[q / 64] & (1ULL << (q % 64))) == 0)
			break;
	}
	if (q > rt->nb_steered) {
		pthread_mutex_unlock(&rt->ctl);
		return;
	}
	rule_init(&r, port->ipv4, sink->udp_port, q);
	memset(&err, 0, sizeof(err));
	sink->flow = rte_flow_create(port->port_id, &r.attr, r.pattern, r.actions, &err);
	if (sink->flow == NULL) {
		/* This PMD cannot steer after all: share queue 0 from now on. */
		NET_LOG(NOTICE, "%s: rte_flow rule refused (%s): endpoints share queue 0",
			port->name, err.message != NULL ? err.message : "no reason given");
		rt->nb_steered = 0;
	} else {
		rt->steer_used[q / 64] |= 1ULL << (q % 64);
		sink->queue = q;
		NET_LOG(INFO, "%s: UDP port %u steered to queue %u", port->name,
			rte_be_to_cpu_16(sink->udp_port), q);
	}
	pthread_mutex_unlock(&rt->ctl);
}

void
dfi_steer_detach(struct dfi_port *port, struct dfi_sink *sink)
{
	struct dfi_port_rt *rt = port->rt;
	struct rte_mbuf *left[DFI_RX_BURST];
	struct rte_flow_error err;
	uint16_t n;

	if (sink->flow == NULL)
		return;
	pthread_mutex_lock(&rt->ctl);
	if (rte_flow_destroy(port->port_id, sink->flow, &err) != 0)
		NET_LOG(WARNING, "%s: rte_flow_destroy: %s", port->name,
			err.message != NULL ? err.message : "failed");
	/* what reached the queue before the rule went goes back to the pool */
	while ((n = rte_eth_rx_burst(port->port_id, sink->queue, left, DFI_RX_BURST)) > 0)
		rte_pktmbuf_free_bulk(left, n);
	rt->steer_used[sink->queue / 64] &= ~(1ULL << (sink->queue % 64));
	sink->flow = NULL;
	sink->queue = 0;
	pthread_mutex_unlock(&rt->ctl);
}
