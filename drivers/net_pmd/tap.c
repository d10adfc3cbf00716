/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* net_tap ports: the queue pairs they can be given (tap.h). */

#include <rte_common.h>
#include <rte_ethdev.h>

#include "bond.h"
#include "devargs.h"
#include "tap.h"

/* drivers/net/tap/rte_eth_tap.c */
#define TAP_DRIVER	"net_tap"

uint16_t
dfi_tap_queue_pairs_max(uint16_t port_id)
{
	uint16_t members[RTE_MAX_ETHPORTS], n, i, max = UINT16_MAX;

	if (dfi_driver_is(port_id, TAP_DRIVER))
		return 1;
	/* a bond of bonds is bound by the members of its members */
	n = dfi_bond_members(port_id, members);
	for (i = 0; i < n; i++)
		max = RTE_MIN(max, dfi_tap_queue_pairs_max(members[i]));
	return max;
}
