/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * What the provider must know of net_tap ports that ethdev does not say.
 * As a primary process starts a tap port, the PMD sends the file
 * descriptors of all its queues to the secondary processes in one IPC
 * message, which holds RTE_MP_MAX_FD_NUM of them (8 in DPDK 22.11). 22.11
 * writes them without a bound (tap_mp_req_on_rxtx()): a port of more than
 * four queue pairs overruns the starting thread's stack, and the process
 * dies of "stack smashing detected". DPDK 23.11.3 and later bound the
 * queues themselves.
 */

#ifndef _DFI_TAP_H_
#define _DFI_TAP_H_

#include <stdint.h>

/**
 * @return the queue pairs the port may be configured with as far as its
 *   driver's bugs go: RTE_MP_MAX_FD_NUM / 2 for a net_tap port, UINT16_MAX
 *   for the others.
 */
uint16_t dfi_tap_queue_pairs_max(uint16_t port_id);

#endif /* _DFI_TAP_H_ */
