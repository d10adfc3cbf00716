/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The members of net_bonding ports. The bonding PMD configures, starts and
 * polls its members itself, and DPDK 22.11 does not make them owned (which
 * would hide them from RTE_ETH_FOREACH_DEV): a domain of its own on a member
 * would configure it again under the bond. A member is one either by the
 * bond's device arguments (slave=..., added as the bond is configured) or by
 * rte_eth_bond_slave_add(), which flags it RTE_ETH_DEV_BONDED_SLAVE.
 */

#ifndef _DFI_BOND_H_
#define _DFI_BOND_H_

#include <stdbool.h>
#include <stdint.h>

/** @return true when the port is, or is to be, a member of a net_bonding port. */
bool dfi_bond_member(uint16_t port_id);

#endif /* _DFI_BOND_H_ */
