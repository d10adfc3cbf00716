/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The atomic operations of fi_atomic(3) at the target: the table of what is
 * offered (the answer of fi_atomicvalid() and its kin, and what the calls
 * and the target refuse), and the execution, one element at a time. An
 * element that the CPU can swap in one instruction is updated by a
 * compare-and-swap loop, so that the update is atomic with respect to
 * every other atomic access to it, the target CPU's own included.
 */

#include <complex.h>
#include <stdbool.h>
#include <string.h>

#include <rte_common.h>

#include "atomic_op.h"

/* The classes of datatypes fi_atomic(3) operations apply to. */
#define CLS_INT		0x1	/* integers: every operation */
#define CLS_FLT		0x2	/* real floating point: no bitwise operation */
#define CLS_CPLX	0x4	/* complex: no ordering, no bitwise operation */
#define CLS_ALL		(CLS_INT | CLS_FLT | CLS_CPLX)

#define KIND_BASE	(1u << DFI_ATOMIC_BASE)
#define KIND_FETCH	(1u << DFI_ATOMIC_FETCH)
#define KIND_COMPARE	(1u << DFI_ATOMIC_COMPARE)

/*
 * Computes the new value of one element from the one found (old), the
 * operand and the compare value; false when the element stays as it is.
 */
typedef bool (*atomic_calc_fn)(enum fi_op op, void *nv, const void *ov, const void *av,
			       const void *cv);

/* The operations every datatype has. Integer ones compute in a wide
 * unsigned type: wrapping, as the hardware's, never undefined. */
#define CALC_FN(name, T, BODY)							\
static bool									\
calc_##name(enum fi_op op, void *nv, const void *ov, const void *av, const void *cv) \
{										\
	T o, a, c, n;								\
										\
	memcpy(&o, ov, sizeof(T));						\
	memcpy(&a, av, sizeof(T));						\
	memcpy(&c, cv, sizeof(T));						\
	switch (op) {								\
	BODY									\
	case FI_LOR:								\
		n = (T)(o || a);						\
		break;								\
	case FI_LAND:								\
		n = (T)(o && a);						\
		break;								\
	case FI_LXOR:								\
		n = (T)((o && !a) || (!o && a));				\
		break;								\
	case FI_ATOMIC_WRITE:							\
		n = a;								\
		break;								\
	case FI_CSWAP:								\
		if (!(c == o))							\
			return false;						\
		n = a;								\
		break;								\
	case FI_CSWAP_NE:							\
		if (!(c != o))							\
			return false;						\
		n = a;								\
		break;								\
	default:	/* FI_ATOMIC_READ */					\
		return false;							\
	}									\
	memcpy(nv, &n, sizeof(T));						\
	return true;								\
}

/* A conditional store: the element takes the operand when cond holds. */
#define STORE_IF(cond)								\
	if (!(cond))								\
		return false;							\
	n = a;									\
	break;

/* What ordered (real) datatypes add. */
#define ORDERED									\
	case FI_MIN:								\
		STORE_IF(a < o)							\
	case FI_MAX:								\
		STORE_IF(a > o)							\
	case FI_CSWAP_LE:							\
		STORE_IF(c <= o)						\
	case FI_CSWAP_LT:							\
		STORE_IF(c < o)							\
	case FI_CSWAP_GE:							\
		STORE_IF(c >= o)						\
	case FI_CSWAP_GT:							\
		STORE_IF(c > o)

#define INTEGER(T, W)								\
	ORDERED									\
	case FI_SUM:								\
		n = (T)((W)o + (W)a);						\
		break;								\
	case FI_PROD:								\
		n = (T)((W)o * (W)a);						\
		break;								\
	case FI_BOR:								\
		n = o | a;							\
		break;								\
	case FI_BAND:								\
		n = o & a;							\
		break;								\
	case FI_BXOR:								\
		n = o ^ a;							\
		break;								\
	case FI_MSWAP:								\
		n = (a & c) | (o & ~c);						\
		break;

#define ARITH									\
	case FI_SUM:								\
		n = o + a;							\
		break;								\
	case FI_PROD:								\
		n = o * a;							\
		break;

CALC_FN(int8, int8_t, INTEGER(int8_t, uint64_t))
CALC_FN(uint8, uint8_t, INTEGER(uint8_t, uint64_t))
CALC_FN(int16, int16_t, INTEGER(int16_t, uint64_t))
CALC_FN(uint16, uint16_t, INTEGER(uint16_t, uint64_t))
CALC_FN(int32, int32_t, INTEGER(int32_t, uint64_t))
CALC_FN(uint32, uint32_t, INTEGER(uint32_t, uint64_t))
CALC_FN(int64, int64_t, INTEGER(int64_t, uint64_t))
CALC_FN(uint64, uint64_t, INTEGER(uint64_t, uint64_t))
CALC_FN(int128, __int128, INTEGER(__int128, unsigned __int128))
CALC_FN(uint128, unsigned __int128, INTEGER(unsigned __int128, unsigned __int128))
CALC_FN(float, float, ORDERED ARITH)
CALC_FN(double, double, ORDERED ARITH)
CALC_FN(long_double, long double, ORDERED ARITH)
CALC_FN(float_complex, float complex, ARITH)
CALC_FN(double_complex, double complex, ARITH)
CALC_FN(long_double_complex, long double complex, ARITH)

struct atomic_type {
	atomic_calc_fn calc;
	uint8_t size;
	uint8_t cls;		/* CLS_* */
};

static const struct atomic_type types[] = {
	[FI_INT8] = { calc_int8, sizeof(int8_t), CLS_INT },
	[FI_UINT8] = { calc_uint8, sizeof(uint8_t), CLS_INT },
	[FI_INT16] = { calc_int16, sizeof(int16_t), CLS_INT },
	[FI_UINT16] = { calc_uint16, sizeof(uint16_t), CLS_INT },
	[FI_INT32] = { calc_int32, sizeof(int32_t), CLS_INT },
	[FI_UINT32] = { calc_uint32, sizeof(uint32_t), CLS_INT },
	[FI_INT64] = { calc_int64, sizeof(int64_t), CLS_INT },
	[FI_UINT64] = { calc_uint64, sizeof(uint64_t), CLS_INT },
	[FI_FLOAT] = { calc_float, sizeof(float), CLS_FLT },
	[FI_DOUBLE] = { calc_double, sizeof(double), CLS_FLT },
	[FI_FLOAT_COMPLEX] = { calc_float_complex, sizeof(float complex), CLS_CPLX },
	[FI_DOUBLE_COMPLEX] = { calc_double_complex, sizeof(double complex), CLS_CPLX },
	[FI_LONG_DOUBLE] = { calc_long_double, sizeof(long double), CLS_FLT },
	[FI_LONG_DOUBLE_COMPLEX] = { calc_long_double_complex, sizeof(long double complex),
				     CLS_CPLX },
	[FI_INT128] = { calc_int128, sizeof(__int128), CLS_INT },
	[FI_UINT128] = { calc_uint128, sizeof(unsigned __int128), CLS_INT },
};

/* Which calls offer each operation, on which classes of datatypes (fi_atomic(3)). */
static const struct {
	uint8_t kinds;
	uint8_t cls;
} ops[FI_ATOMIC_OP_LAST] = {
	[FI_MIN] = { KIND_BASE | KIND_FETCH, CLS_INT | CLS_FLT },
	[FI_MAX] = { KIND_BASE | KIND_FETCH, CLS_INT | CLS_FLT },
	[FI_SUM] = { KIND_BASE | KIND_FETCH, CLS_ALL },
	[FI_PROD] = { KIND_BASE | KIND_FETCH, CLS_ALL },
	[FI_LOR] = { KIND_BASE | KIND_FETCH, CLS_ALL },
	[FI_LAND] = { KIND_BASE | KIND_FETCH, CLS_ALL },
	[FI_BOR] = { KIND_BASE | KIND_FETCH, CLS_INT },
	[FI_BAND] = { KIND_BASE | KIND_FETCH, CLS_INT },
	[FI_LXOR] = { KIND_BASE | KIND_FETCH, CLS_ALL },
	[FI_BXOR] = { KIND_BASE | KIND_FETCH, CLS_INT },
	[FI_ATOMIC_READ] = { KIND_FETCH, CLS_ALL },
	[FI_ATOMIC_WRITE] = { KIND_BASE | KIND_FETCH, CLS_ALL },
	[FI_CSWAP] = { KIND_COMPARE, CLS_ALL },
	[FI_CSWAP_NE] = { KIND_COMPARE, CLS_ALL },
	[FI_CSWAP_LE] = { KIND_COMPARE, CLS_INT | CLS_FLT },
	[FI_CSWAP_LT] = { KIND_COMPARE, CLS_INT | CLS_FLT },
	[FI_CSWAP_GE] = { KIND_COMPARE, CLS_INT | CLS_FLT },
	[FI_CSWAP_GT] = { KIND_COMPARE, CLS_INT | CLS_FLT },
	[FI_MSWAP] = { KIND_COMPARE, CLS_INT },
};

size_t
dfi_atomic_type_size(enum fi_datatype datatype)
{
	return (unsigned int)datatype < RTE_DIM(types) ? types[datatype].size : 0;
}

int
dfi_atomic_valid(enum dfi_atomic_kind kind, enum fi_datatype datatype, enum fi_op op,
		 size_t *count)
{
	if ((unsigned int)datatype >= RTE_DIM(types) || (unsigned int)op >= RTE_DIM(ops) ||
	    (ops[op].kinds & (1u << kind)) == 0 || (ops[op].cls & types[datatype].cls) == 0)
		return -FI_EOPNOTSUPP;
	if (count != NULL)
		*count = DFI_ATOMIC_MAX_BYTES / types[datatype].size;
	return 0;
}

/* One element of U's size, aligned: a compare-and-swap loop. */
#define CAS_ELEM(U)								\
	do {									\
		U *p = (U *)(void *)dst, o = __atomic_load_n(p, __ATOMIC_ACQUIRE), n; \
										\
		while (t->calc(op, &n, &o, operand, compare) &&			\
		       !__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_ACQ_REL, \
						    __ATOMIC_ACQUIRE))		\
			;							\
		memcpy(found, &o, sizeof(U));					\
	} while (0)

void
dfi_atomic_apply(enum fi_op op, enum fi_datatype datatype, uint8_t *dst,
		 const uint8_t *operand, const uint8_t *compare, uint8_t *result,
		 size_t count)
{
	static const uint8_t zero[sizeof(long double complex)];
	const struct atomic_type *t = &types[datatype];
	uint8_t found[sizeof(long double complex)], nv[sizeof(long double complex)];
	size_t i, sz = t->size;

	for (i = 0; i < count; i++, dst += sz) {
		/* what an operation does not use reads as zeros */
		if (operand == NULL)
			operand = zero;
		if (compare == NULL)
			compare = zero;
		switch (((uintptr_t)dst & (sz - 1)) == 0 ? sz : 0) {
		case 1:
			CAS_ELEM(uint8_t);
			break;
		case 2:
			CAS_ELEM(uint16_t);
			break;
		case 4:
			CAS_ELEM(uint32_t);
			break;
		case 8:
			CAS_ELEM(uint64_t);
			break;
		default:
			memcpy(found, dst, sz);
			if (t->calc(op, nv, found, operand, compare))
				memcpy(dst, nv, sz);
			break;
		}
		if (result != NULL) {
			memcpy(result, found, sz);
			result += sz;
		}
		if (operand != zero)
			operand += sz;
		if (compare != zero)
			compare += sz;
	}
}
