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
 *
 * Until the members of its device arguments joined, a bond is not what it
 * will be: its MAC is all zero (the link-local address drawn from it too),
 * and its queues and offloads are no member's (it offers 8 queue pairs that
 * an af_packet member, with one, then refuses in the bond's configure).
 */

#ifndef _DFI_BOND_H_
#define _DFI_BOND_H_

#include <stdbool.h>
#include <stdint.h>

/**
 * The members of a net_bonding port, into members (RTE_MAX_ETHPORTS of them).
 *
 * @return how many it has: 0 for any other port, and for a bond whose
 *   members have not joined yet (dfi_bond_complete()).
 */
uint16_t dfi_bond_members(uint16_t port_id, uint16_t *members);

/** @return true when the port is a net_bonding port. */
bool dfi_bond_is(uint16_t port_id);

/** @return true when the port is, or is to be, a member of a net_bonding port. */
bool dfi_bond_member(uint16_t port_id);

/**
 * Has a net_bonding port whose MAC is still all zero configured once, with
 * one queue pair and no offloads, so that the members its device arguments
 * name join it: its facts (MAC, queues, offloads, frame size) are then its
 * members'. Any other port, and a bond configured already (by the
 * application, or an earlier call), is left as it is.
 *
 * @return 0, or the negative errno of rte_eth_dev_configure().
 */
int dfi_bond_complete(uint16_t port_id);

/**
 * @return an active-backup bond's primary member, the one dfi_bond_failover()
 *   falls back to when taken at the bond's start; RTE_MAX_ETHPORTS for any
 *   other port.
 */
uint16_t dfi_bond_primary(uint16_t port_id);

/**
 * An active-backup bond's failover where its members' PMDs raise no link
 * event: DPDK 22.11's tap reads its link but calls no LSC callback (the
 * bonding PMD relies on one from a member flagged RTE_ETH_DEV_INTR_LSC), and
 * af_packet reports its link up whatever its interface does. A primary whose
 * link is down, by its PMD or its kernel interface, gives way to a member
 * whose link is up, and the configured primary takes over again once its
 * link is back, as the bonding PMD does when it hears of a change.
 *
 * @param fd
 *   An AF_INET socket to ask the kernel about the members' interfaces, or -1.
 * @param configured
 *   The primary the bond started with (dfi_bond_primary()); RTE_MAX_ETHPORTS:
 *   none.
 * @return 1 when the primary changed, 0 when not (or the port is no
 *   active-backup bond), or the negative errno of rte_eth_bond_primary_set().
 */
int dfi_bond_failover(uint16_t port_id, int fd, uint16_t configured);

#endif /* _DFI_BOND_H_ */
