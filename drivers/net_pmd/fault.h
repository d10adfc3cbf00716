/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Fault injection on a port, for testing the reliable protocol where no
 * netem exists: each frame going out (tx) or coming in (rx) may be dropped,
 * duplicated, held back behind the next one (reordered) or have one bit
 * flipped (corrupted), with probabilities set by FI_DPDK_FAULT and decisions
 * drawn from a seeded generator, so that a run can be repeated. Faults cost
 * nothing when off: the datapath tests one pointer.
 *
 * The specification is a comma separated list of key=value:
 *   seed=N                     the generator's seed (default 1)
 *   drop=P dup=P reorder=P corrupt=P        both directions
 *   tx_drop=P ... rx_corrupt=P              one direction
 * where P is a probability in [0, 1].
 */

#ifndef _DFI_FAULT_H_
#define _DFI_FAULT_H_

#include <stdint.h>

#include <rte_mbuf.h>

enum dfi_fault_dir {
	DFI_FAULT_TX,
	DFI_FAULT_RX,
	DFI_FAULT_DIRS
};

enum dfi_fault_kind {
	DFI_FAULT_DROP,
	DFI_FAULT_DUP,
	DFI_FAULT_REORDER,
	DFI_FAULT_CORRUPT,
	DFI_FAULT_KINDS
};

/** What was done, per direction and kind. */
struct dfi_fault_stats {
	uint64_t count[DFI_FAULT_DIRS][DFI_FAULT_KINDS];
	uint64_t frames[DFI_FAULT_DIRS];	/* frames seen */
};

struct dfi_fault;

/**
 * Parses a specification for a port.
 *
 * @return 0 with *fault set, or NULL when every probability is 0;
 *   -FI_EINVAL for a malformed one (logged); -FI_ENOMEM.
 */
int dfi_fault_create(const char *spec, uint16_t port_id, struct rte_mempool *pool,
		     struct dfi_fault **fault);
void dfi_fault_free(struct dfi_fault *fault);

/**
 * Applies the faults of a direction to a burst, in place: out receives what
 * goes on (room for 2 * n + 1: duplicates and a released frame), and the
 * return value is how many. Dropped frames are freed; a frame held back is
 * kept until the next burst of that direction, or dfi_fault_release().
 */
uint16_t dfi_fault_apply(struct dfi_fault *fault, enum dfi_fault_dir dir,
			 struct rte_mbuf **pkts, uint16_t n, struct rte_mbuf **out);

/** @return the frame held back in a direction (for at most one burst), or NULL. */
struct rte_mbuf *dfi_fault_release(struct dfi_fault *fault, enum dfi_fault_dir dir);

void dfi_fault_stats(const struct dfi_fault *fault, struct dfi_fault_stats *stats);

#endif /* _DFI_FAULT_H_ */
