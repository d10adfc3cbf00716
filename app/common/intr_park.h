/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The EAL interrupt thread held in a callback of the program's while it
 * stops and closes memif ports of its own. DPDK 22.11's memif handles its
 * control channel in that thread: a peer that leaves as the program closes
 * the port makes the thread's handler call memif_disconnect() on a device
 * the close has released (a crash seen in CI), or free the shared regions
 * as the stop frees them. Parked, the thread runs no handler meanwhile.
 * The provider has its own gate for its ports (drivers/net_pmd/intr_gate.h).
 */

#ifndef _APP_INTR_PARK_H_
#define _APP_INTR_PARK_H_

#include <stdbool.h>
#include <stdint.h>

/**
 * Stops the ports, and closes them when close is set, with the interrupt
 * thread parked in an EAL alarm's callback.
 *
 * @param timeout_ms how long to wait for the thread to come to it (it may be
 *   in a handler of memif's, or behind other alarms)
 * @return 0, or a negative errno (-ETIMEDOUT, or the alarm's error) when the
 *   thread did not park: the ports are then left as they were, since a stop
 *   or close beside memif's handler is what this is for.
 */
int app_ports_end(const uint16_t *ports, unsigned int nb, bool close,
		  unsigned int timeout_ms);

#endif /* _APP_INTR_PARK_H_ */
