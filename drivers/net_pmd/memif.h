/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * What the provider must know of net_memif ports that ethdev does not say:
 * which end of the wire a port is. DPDK 22.11's memif client connects to its
 * server once, in rte_eth_dev_start(), and never again after a refusal or a
 * disconnect; queue.c restarts such a port while its link is down.
 */

#ifndef _DFI_MEMIF_H_
#define _DFI_MEMIF_H_

#include <stdbool.h>
#include <stdint.h>

/** @return true when the port is a net_memif port. */
bool dfi_memif_is(uint16_t port_id);

/**
 * @return the largest IPv4 packet the port carries in one of its ring
 *   buffers (its "bsize" less an Ethernet header: 2034 bytes by memif's
 *   default), at most DFI_JUMBO_MTU (wire.h). A longer frame would take a chain
 *   of buffers, which DPDK 22.11's memif breaks: a chain that finds the ring
 *   full leaves its first buffer flagged as continued, and the next frame
 *   written there is glued to the one after it.
 */
uint16_t dfi_memif_mtu(uint16_t port_id);

/** @return true when the port is a net_memif port in the client role (memif's default). */
bool dfi_memif_is_client(uint16_t port_id);

/* memif client ports of one process connected to one socket whose control
 * channels a start tells apart (memif allows 256 per socket) */
#define DFI_MEMIF_CC_MAX	256

/**
 * The control channel a memif client's start connected: memif's socket to
 * its server, where the handshake runs. memif closes it when the server
 * refuses the client or disconnects it; until then, the handshake may still
 * be under way.
 */
struct dfi_memif_cc {
	int fd;		/* -1: none known */
	uint64_t ino;	/* the socket's inode, which a reused descriptor does not have */
};

/**
 * Starts a memif client port whose server may not listen yet, with memif's
 * own log of a refused connect (ERR, once per attempt) held back: the caller
 * retries and says so itself. Finds the socket the start connected among the
 * process's descriptors: the one connected to the port's memif socket that
 * was not before the start.
 *
 * @param cc
 *   Set to that socket, or to none (fd -1) when the start failed or no such
 *   socket was found.
 * @return rte_eth_dev_start()'s result.
 */
int dfi_memif_client_start(uint16_t port_id, struct dfi_memif_cc *cc);

/**
 * @return true once memif has closed the control channel cc: the server
 *   answered (refusing or disconnecting the client) or hung up, so no
 *   handshake is under way on it. False while it is open, and when none is
 *   known.
 */
bool dfi_memif_cc_closed(const struct dfi_memif_cc *cc);

/**
 * Maps every page of the process's memif regions (rings and buffers) now,
 * as a link comes up, rather than at each page's first frame; with touch,
 * reads a byte of each page too. Touch only where memif cannot unmap a
 * region meanwhile: on the wire (dfi_wire_enter()).
 *
 * @return the number of regions mapped, or a negative errno (logged).
 */
int dfi_memif_prefault(const char *port_name, bool touch);

#endif /* _DFI_MEMIF_H_ */
