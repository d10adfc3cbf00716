/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* net_tap ports: the queues their start can take (tap.h). */

#include <rte_eal.h>

#include "devargs.h"
#include "tap.h"

/* drivers/net/tap/rte_eth_tap.c */
#define TAP_DRIVER	"net_tap"

uint16_t
dfi_tap_queue_pairs_max(uint16_t port_id)
{
	/* each pair is two descriptors, its receive queue's and its transmit queue's */
	return dfi_driver_is(port_id, TAP_DRIVER) ? RTE_MP_MAX_FD_NUM / 2 : UINT16_MAX;
}
