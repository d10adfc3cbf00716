/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The EAL interrupt thread kept off the wire of ports whose PMD tears its
 * rings down there. DPDK 22.11's memif runs its control channel in that
 * thread, and a peer that goes away makes it unmap the shared rings
 * (memif_disconnect()) whatever a poller is doing with them: a receive or
 * send burst under way then reads unmapped memory. Such ports are gated: the
 * interrupt thread waits in a callback of ours, and is let go in short
 * windows (every DFI_GATE_UP_MS while the links are up, DFI_GATE_DOWN_MS
 * while one connects) during which no burst runs on a gated port.
 */

#ifndef _DFI_INTR_GATE_H_
#define _DFI_INTR_GATE_H_

#include <stdbool.h>

struct dfi_port_rt;

#define DFI_GATE_UP_MS		10
#define DFI_GATE_DOWN_MS	1

/**
 * Gates a port, before its first start: from now on its bursts run only
 * while the interrupt thread is parked (dfi_wire_enter() in queue.h).
 *
 * @return 0, or -FI_ENOMEM / -FI_EIO when the gate cannot be set up (logged).
 */
int dfi_intr_gate_add(struct dfi_port_rt *rt);

/** Ungates a port, after its close; the last one lets the thread go for good. */
void dfi_intr_gate_remove(struct dfi_port_rt *rt);

/**
 * Keeps the interrupt thread parked, so that the caller may stop, start or
 * close a gated port (memif does the same to its rings there).
 *
 * @return true when the thread is parked, false when it did not come back
 *   within 100 ms or the gate is not set up; dfi_intr_gate_release() after true.
 */
bool dfi_intr_gate_hold(void);

void dfi_intr_gate_release(void);

/**
 * Waits, spinning, for the window that keeps a gated port's wire closed to
 * end: a send must not stay staged because of it, since the application may
 * stop calling into the provider right after a post or an FI_CONNECTED (to
 * wait for its peer out of band), and the frames it takes for sent would
 * never leave. Call it holding none of the port's locks: the interrupt
 * thread may take them in the window (a link change).
 *
 * @return true when the window is over and the port still started (the
 *   caller tries again), false when the port is not gated or stopped, the
 *   caller is the interrupt thread, or the window outlasted 100 ms.
 */
bool dfi_intr_gate_wait(struct dfi_port_rt *rt);

/**
 * @return whether a gated port may run lock-free: its one thread then marks
 *   its bursts with plain stores, which the gate orders with membarrier(2).
 *   Without that system call a gated port takes its queue locks.
 */
bool dfi_intr_gate_lockfree(void);

#endif /* _DFI_INTR_GATE_H_ */
