/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * What the provider must know of net_af_packet ports that ethdev does not
 * say. The PMD reports Ethernet's 1518-byte frame whatever its kernel
 * interface takes (a veth or a NIC set to a 9000-byte MTU), and copies each
 * frame through a slot of its PACKET_MMAP rings ("framesz", 2048 bytes by
 * default), which bounds the frame as well: the kernel cuts what does not
 * fit a receive slot.
 */

#ifndef _DFI_AF_PACKET_H_
#define _DFI_AF_PACKET_H_

#include <stdbool.h>
#include <stdint.h>

struct rte_eth_dev_info;

/** @return true when the port is a net_af_packet port. */
bool dfi_af_packet_is(uint16_t port_id);

/**
 * @return the largest IPv4 packet the port carries both ways: its kernel
 *   interface's MTU, as far as a slot of its rings holds the frame, at most
 *   DFI_JUMBO_MTU (wire.h); 0 when the interface's MTU cannot be read.
 */
uint16_t dfi_af_packet_mtu(uint16_t port_id, const char *ifname);

/**
 * @return true when the port's ring slots lie where DPDK 22.11's af_packet
 *   looks for them: it takes slot i at i * framesz, where the kernel puts it
 *   only when a block ("blocksz", the page size by default) holds whole slots
 *   with nothing left over. A port whose slots do not so line up sends a few
 *   frames and then nothing; said at WARNING.
 */
bool dfi_af_packet_rings_ok(uint16_t port_id);

/**
 * @return the bytes the PMD may copy into one mbuf: a ring slot less the
 *   kernel's header. Its queue setup refuses a pool whose buffers are
 *   smaller.
 */
uint32_t dfi_af_packet_frame_room(uint16_t port_id);

/**
 * @return the queue pairs on which the port takes frames whether they are
 *   configured or not: an af_packet port opens a socket per queue pair
 *   ("qpairs") as it is probed, all in one fanout group, and the kernel
 *   spreads the frames over them by flow hash (rolling over to another only
 *   when one's ring is full). For a bond, its members' most; 1 for any
 *   other port. -EINVAL for a bond that configures fewer queues than a
 *   member has sockets (its smallest member's), which would lose frames.
 */
int dfi_af_packet_spread(uint16_t port_id, const struct rte_eth_dev_info *info);

#endif /* _DFI_AF_PACKET_H_ */
