/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The atomic operations of fi_atomic(3) as a target carries them out: which
 * operation each kind of call (base, fetch, compare) offers on which
 * datatype, and their execution on the target's memory. Independent of the
 * protocol that carries the requests: any reliable endpoint type uses it.
 */

#ifndef _DFI_ATOMIC_OP_H_
#define _DFI_ATOMIC_OP_H_

#include <stddef.h>
#include <stdint.h>

#include <rdma/fi_atomic.h>

/** Bytes of operands (and as many of results) one atomic operation carries at most. */
#define DFI_ATOMIC_MAX_BYTES	256

/** The three families of atomic calls, as fi_atomicvalid() and its kin name them. */
enum dfi_atomic_kind {
	DFI_ATOMIC_BASE,	/* fi_atomic*: the result stays at the target */
	DFI_ATOMIC_FETCH,	/* fi_fetch_atomic*: the initial values come back */
	DFI_ATOMIC_COMPARE,	/* fi_compare_atomic*: the same, with compare values */
};

/** @return the bytes of one element of datatype, 0 for none of fi_atomic(3). */
size_t dfi_atomic_type_size(enum fi_datatype datatype);

/**
 * Whether calls of kind offer op on datatype, and how many elements one
 * call takes (*count, unless NULL).
 *
 * @return 0, or -FI_EOPNOTSUPP for a combination not offered (or no such
 *	   datatype or operation).
 */
int dfi_atomic_valid(enum dfi_atomic_kind kind, enum fi_datatype datatype, enum fi_op op,
		     size_t *count);

/**
 * Carries op out on count elements of datatype at dst: operand and compare
 * (either unused by some operations, then possibly NULL) have count
 * elements each; the values found go to result unless it is NULL. Each
 * element of 1, 2, 4 or 8 bytes at an address aligned to its size is
 * updated by one compare-and-swap; a wider or unaligned one by plain loads
 * and stores. The combination must be valid.
 */
void dfi_atomic_apply(enum fi_op op, enum fi_datatype datatype, uint8_t *dst,
		      const uint8_t *operand, const uint8_t *compare, uint8_t *result,
		      size_t count);

#endif /* _DFI_ATOMIC_OP_H_ */
