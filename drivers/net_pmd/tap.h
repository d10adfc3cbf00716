/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * What the provider must know of net_tap ports that ethdev does not say.
 * The kernel, not the PMD, picks the queue of each frame it hands a tap:
 * tun spreads them over the queues by their flow hash, whatever the
 * port's RSS configuration. An rte_flow rule moves the frames it matches
 * (where the kernel has tc's flower and multiq: this VM's has not, and the
 * rules are refused), but the others still land on any queue, and a
 * steered queue that no endpoint holds is never polled: a tap port of
 * several queue pairs lost ARP and data frames, and its round trips
 * stalled on retries. So a tap port has one queue pair.
 * One is also what DPDK 22.11's start leaves whole: it hands the
 * descriptors of all the queues to secondary processes in one message of
 * RTE_MP_MAX_FD_NUM (8) without a bound (tap_mp_req_on_rxtx()), and more
 * than four pairs overran the starting thread's stack ("stack smashing
 * detected"). A net_bonding port configures its members with its own
 * number of queues, so a bond with a tap among its members is bound as a
 * tap is.
 */

#ifndef _DFI_TAP_H_
#define _DFI_TAP_H_

#include <stdint.h>

/**
 * @return the queue pairs the port may be configured with as far as its
 *   driver goes: 1 for a net_tap port and a bond with one among its
 *   members, UINT16_MAX for the others.
 */
uint16_t dfi_tap_queue_pairs_max(uint16_t port_id);

#endif /* _DFI_TAP_H_ */
