/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Dedicated queue pairs for endpoints, on PMDs that can steer packets with
 * rte_flow (a UDP destination port to a queue). Elsewhere (memif, af_packet,
 * ring, null, tap without TC flower) every endpoint shares queue 0 and the
 * software demultiplexer sorts the packets.
 */

#ifndef _DFI_STEER_H_
#define _DFI_STEER_H_

#include <stdint.h>

#include <rte_ethdev.h>

struct dfi_port;
struct dfi_sink;

/**
 * @return how many queue pairs to configure beyond the shared one: 0 when
 *   the PMD has no rte_flow, else FI_DPDK_STEER_QUEUES bounded by the PMD
 *   (and by what its start can take: tap.h).
 */
uint16_t dfi_steer_queues(struct dfi_port *port, const struct rte_eth_dev_info *info,
			  uint16_t wanted);

/**
 * Gives the sink a dedicated queue pair and steers its UDP port there, when
 * the port has one free and the PMD accepts the rule; otherwise the sink
 * stays on the shared queue (sink->queue 0).
 */
void dfi_steer_attach(struct dfi_port *port, struct dfi_sink *sink);

/** Removes the sink's rule and frees its queue. */
void dfi_steer_detach(struct dfi_port *port, struct dfi_sink *sink);

#endif /* _DFI_STEER_H_ */
