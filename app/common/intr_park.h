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

/**
 * Parks the interrupt thread in an EAL alarm's callback.
 *
 * @param timeout_ms how long to wait for the thread to come to it (it may be
 *   in a handler of memif's, or behind other alarms)
 * @return 0 when the thread is parked (app_intr_unpark() after), or a
 *   negative errno: -ETIMEDOUT, or the alarm's error; the thread is then
 *   not held and never will be by this call.
 */
int app_intr_park(unsigned int timeout_ms);

/** Lets the parked thread go. */
void app_intr_unpark(void);

#endif /* _APP_INTR_PARK_H_ */
