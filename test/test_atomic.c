/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Atomics in one process: two RDM endpoints on one net_ring port, which run
 * the whole protocol. Every operation of fi_atomic(3) on every datatype,
 * through every call of its family, against a reference computed here
 * (values chosen so that floating point results are exact); every refusal:
 * combinations not offered, keys, rights, bounds, counts. The target's
 * region sits between canaries, checked after every operation.
 *
 * "chaos N": two initiators each do N fetch-and-adds on one 64-bit counter
 * through a port that drops 20 % of the frames it sends and duplicates and
 * reorders others (FI_DPDK_FAULT); the counter must end at exactly 2 N and
 * the values fetched must be 0 .. 2 N - 1, each once.
 */

#include <complex.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>

#include <rte_common.h>

#include "ep_stats.h"
#include "test_util.h"

#define TIMEOUT_MS	3000
#define REGION		4096
#define GUARD		256
#define CANARY		0x5a
#define NELEM		4		/* elements per operation of the table */
#define MAX_BYTES	256		/* what fi_atomicvalid() reports, in bytes */
#define NTYPES		(FI_UINT128 + 1)
#define ELEM_MAX	32		/* long double complex */

static struct test_domain td;
static struct fid_av *av;
static struct test_node a, b;
static bool virt;
static uint8_t tgt_mem[REGION + 2 * GUARD] __rte_aligned(64);
static uint64_t next_key = 300;

enum kind { BASE, FETCH, COMPARE, NKINDS };

static const char *const kind_names[NKINDS] = { "atomic", "fetch", "compare" };

/* -- the reference: what fi_atomic(3) says each operation does -- */

enum cls { INT, FLT, CPLX };

static const struct {
	const char *name;
	size_t size;
	enum cls cls;
	bool sign;
} types[NTYPES] = {
	[FI_INT8] = { "int8", 1, INT, true },
	[FI_UINT8] = { "uint8", 1, INT, false },
	[FI_INT16] = { "int16", 2, INT, true },
	[FI_UINT16] = { "uint16", 2, INT, false },
	[FI_INT32] = { "int32", 4, INT, true },
	[FI_UINT32] = { "uint32", 4, INT, false },
	[FI_INT64] = { "int64", 8, INT, true },
	[FI_UINT64] = { "uint64", 8, INT, false },
	[FI_FLOAT] = { "float", sizeof(float), FLT, true },
	[FI_DOUBLE] = { "double", sizeof(double), FLT, true },
	[FI_FLOAT_COMPLEX] = { "float complex", sizeof(float complex), CPLX, true },
	[FI_DOUBLE_COMPLEX] = { "double complex", sizeof(double complex), CPLX, true },
	[FI_LONG_DOUBLE] = { "long double", sizeof(long double), FLT, true },
	[FI_LONG_DOUBLE_COMPLEX] = { "long double complex", sizeof(long double complex), CPLX,
				     true },
	[FI_INT128] = { "int128", 16, INT, true },
	[FI_UINT128] = { "uint128", 16, INT, false },
};

static const char *const op_names[FI_ATOMIC_OP_LAST] = {
	"MIN", "MAX", "SUM", "PROD", "LOR", "LAND", "BOR", "BAND", "LXOR", "BXOR",
	"ATOMIC_READ", "ATOMIC_WRITE", "CSWAP", "CSWAP_NE", "CSWAP_LE", "CSWAP_LT",
	"CSWAP_GE", "CSWAP_GT", "MSWAP",
};

/* fi_atomic(3)'s lists of operations per family, and where each is meaningful. */
static bool
offered(enum kind k, enum fi_datatype dt, enum fi_op op)
{
	enum cls c = types[dt].cls;

	switch (op) {
	case FI_MIN:
	case FI_MAX:
		return k != COMPARE && c != CPLX;
	case FI_BOR:
	case FI_BAND:
	case FI_BXOR:
		return k != COMPARE && c == INT;
	case FI_SUM:
	case FI_PROD:
	case FI_LOR:
	case FI_LAND:
	case FI_LXOR:
	case FI_ATOMIC_WRITE:
		return k != COMPARE;
	case FI_ATOMIC_READ:
		return k == FETCH;
	case FI_CSWAP:
	case FI_CSWAP_NE:
		return k == COMPARE;
	case FI_MSWAP:
		return k == COMPARE && c == INT;
	default:	/* the ordered compare-and-swaps */
		return k == COMPARE && c != CPLX;
	}
}

/* An element's value: integers as 128 bits, the rest as a long double complex. */
struct val {
	__int128 i;
	long double complex f;
};

static void
store(enum fi_datatype dt, uint8_t *p, struct val v)
{
	union {
		int8_t i8; int16_t i16; int32_t i32; int64_t i64; __int128 i128;
		float f; double d; long double ld; float complex fc; double complex dc;
		long double complex ldc;
	} u;

	memset(&u, 0, sizeof(u));
	switch (dt) {
	case FI_INT8: case FI_UINT8: u.i8 = (int8_t)v.i; break;
	case FI_INT16: case FI_UINT16: u.i16 = (int16_t)v.i; break;
	case FI_INT32: case FI_UINT32: u.i32 = (int32_t)v.i; break;
	case FI_INT64: case FI_UINT64: u.i64 = (int64_t)v.i; break;
	case FI_INT128: case FI_UINT128: u.i128 = v.i; break;
	case FI_FLOAT: u.f = (float)creall(v.f); break;
	case FI_DOUBLE: u.d = (double)creall(v.f); break;
	case FI_LONG_DOUBLE: u.ld = creall(v.f); break;
	case FI_FLOAT_COMPLEX: u.fc = (float complex)v.f; break;
	case FI_DOUBLE_COMPLEX: u.dc = (double complex)v.f; break;
	default: u.ldc = v.f; break;
	}
	memcpy(p, &u, types[dt].size);
}

static struct val
load(enum fi_datatype dt, const uint8_t *p)
{
	union {
		int8_t i8; uint8_t u8; int16_t i16; uint16_t u16; int32_t i32; uint32_t u32;
		int64_t i64; uint64_t u64; __int128 i128;
		float f; double d; long double ld; float complex fc; double complex dc;
		long double complex ldc;
	} u;
	struct val v = { 0, 0 };

	memcpy(&u, p, types[dt].size);
	switch (dt) {
	case FI_INT8: v.i = u.i8; break;
	case FI_UINT8: v.i = u.u8; break;
	case FI_INT16: v.i = u.i16; break;
	case FI_UINT16: v.i = u.u16; break;
	case FI_INT32: v.i = u.i32; break;
	case FI_UINT32: v.i = u.u32; break;
	case FI_INT64: v.i = u.i64; break;
	case FI_UINT64: v.i = u.u64; break;
	case FI_INT128: case FI_UINT128: v.i = u.i128; break;
	case FI_FLOAT: v.f = u.f; break;
	case FI_DOUBLE: v.f = u.d; break;
	case FI_LONG_DOUBLE: v.f = u.ld; break;
	case FI_FLOAT_COMPLEX: v.f = u.fc; break;
	case FI_DOUBLE_COMPLEX: v.f = u.dc; break;
	default: v.f = u.ldc; break;
	}
	return v;
}

/* x < y in dt's own order (unsigned 128 bits compared as such). */
static bool
less(enum fi_datatype dt, struct val x, struct val y)
{
	if (types[dt].cls != INT)
		return creall(x.f) < creall(y.f);
	if (!types[dt].sign)
		return (unsigned __int128)x.i < (unsigned __int128)y.i;
	return x.i < y.i;
}

static bool
equal(enum fi_datatype dt, struct val x, struct val y)
{
	return types[dt].cls == INT ? x.i == y.i : x.f == y.f;
}

static bool
truth(enum fi_datatype dt, struct val x)
{
	return types[dt].cls == INT ? x.i != 0 : x.f != 0;
}

static struct val
boolean(bool t)
{
	struct val v = { t, t };

	return v;
}

/* The element's new value; false when it stays. */
static bool
reference(enum fi_datatype dt, enum fi_op op, struct val o, struct val x, struct val c,
	  struct val *n)
{
	bool integer = types[dt].cls == INT;

	*n = x;
	switch (op) {
	case FI_MIN: return less(dt, x, o);
	case FI_MAX: return less(dt, o, x);
	case FI_SUM:
		n->i = (__int128)((unsigned __int128)o.i + (unsigned __int128)x.i);
		n->f = o.f + x.f;
		return true;
	case FI_PROD:
		n->i = (__int128)((unsigned __int128)o.i * (unsigned __int128)x.i);
		n->f = o.f * x.f;
		return true;
	case FI_LOR: *n = boolean(truth(dt, o) || truth(dt, x)); return true;
	case FI_LAND: *n = boolean(truth(dt, o) && truth(dt, x)); return true;
	case FI_LXOR: *n = boolean(truth(dt, o) != truth(dt, x)); return true;
	case FI_BOR: n->i = o.i | x.i; return true;
	case FI_BAND: n->i = o.i & x.i; return true;
	case FI_BXOR: n->i = o.i ^ x.i; return true;
	case FI_ATOMIC_READ: return false;
	case FI_ATOMIC_WRITE: return true;
	case FI_CSWAP: return equal(dt, c, o);
	case FI_CSWAP_NE: return !equal(dt, c, o);
	case FI_CSWAP_LE: return !less(dt, o, c);
	case FI_CSWAP_LT: return less(dt, c, o);
	case FI_CSWAP_GE: return !less(dt, c, o);
	case FI_CSWAP_GT: return less(dt, o, c);
	default:	/* FI_MSWAP */
		n->i = (x.i & c.i) | (o.i & ~c.i);
		return integer;
	}
}

/* Element e's target, operand and compare values: both branches of every
 * condition, zeros for the logical operations, a wrap for the integers. */
static struct val
sample(enum fi_datatype dt, int which, int e)
{
	static const int vals[3][NELEM] = {
		{ 5, -2, 0, 100 },	/* target */
		{ 3, 7, 0, 100 },	/* operand */
		{ 5, 0, 9, -1 },	/* compare */
	};
	int v = vals[which][e];
	struct val x = { v, v };

	if (types[dt].cls == CPLX)
		x.f = v + (v / 2.0L) * I;
	return x;
}

/* -- the endpoints -- */

static int
suite_open(int mr_mode)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_DATA, .size = 256 };

	virt = mr_mode != 0;
	return test_pair_open(&td, &av, &a, &b, FI_MSG | FI_RMA | FI_ATOMIC | FI_RMA_EVENT,
			      mr_mode, &cq_attr);
}

static int
suite_init_offset(void)
{
	return suite_open(0);
}

static int
suite_init_virt(void)
{
	return suite_open(FI_MR_VIRT_ADDR | FI_MR_PROV_KEY);
}

static int
suite_clean(void)
{
	test_pair_close(&td, &av, &a, &b);
	return 0;
}

static uint8_t *
region(void)
{
	return tgt_mem + GUARD;
}

static uint64_t
raddr(int64_t off)
{
	return (virt ? (uint64_t)(uintptr_t)region() : 0) + (uint64_t)off;
}

static void
canaries_set(void)
{
	memset(tgt_mem, CANARY, GUARD);
	memset(region() + REGION, CANARY, GUARD);
}

static bool
canaries_intact(void)
{
	size_t i;

	for (i = 0; i < GUARD; i++) {
		if (tgt_mem[i] != CANARY || region()[REGION + i] != CANARY)
			return false;
	}
	return true;
}

static int
reg(uint64_t access, struct fid_mr **mr)
{
	return fi_mr_reg(td.domain, region(), REGION, access, 0, next_key++, 0, mr, NULL);
}

/* Reads one completion of n's CQ, progressing both; -FI_EAVAIL fills err. */
static ssize_t
wait_one(struct test_node *n, struct fi_cq_data_entry *e, struct fi_cq_err_entry *err)
{
	struct test_node *other = n == &a ? &b : &a;

	return test_cq_wait(n->cq, e, err, &other->cq, 1, TIMEOUT_MS);
}

/* Waits for an inject's outcome on a's write counter: 0 done, 1 failed, -1 neither. */
static int
wait_inject(uint64_t ok, uint64_t err)
{
	int i;

	for (i = 0; i < TIMEOUT_MS * 100; i++) {
		if (fi_cntr_read(a.tx_cntr) != ok)
			return 0;
		if (fi_cntr_readerr(a.tx_cntr) != err)
			return 1;
		fi_cq_read(a.cq, NULL, 0);
		fi_cq_read(b.cq, NULL, 0);
	}
	return -1;
}

/* -- one operation, through one of its calls -- */

/* The calls of each family: plain, vector (two buffers each), message, inject. */
enum call { PLAIN, VEC, MSG, INJECT, NCALLS };

static const char *const call_names[NCALLS] = { "", "v", "msg", "inject" };

struct atomic_args {
	enum kind kind;
	enum call call;
	enum fi_datatype dt;
	enum fi_op op;
	size_t count;
	const void *buf;
	const void *cmp;
	void *res;
	uint64_t addr;
	uint64_t key;
	uint64_t flags;		/* MSG */
	void *ctx;
};

static ssize_t
post(const struct atomic_args *x)
{
	size_t sz = types[x->dt].size, h = x->count / 2;
	struct fi_ioc iov[2] = {
		{ (void *)(uintptr_t)x->buf, h },
		{ x->buf != NULL ? (uint8_t *)(uintptr_t)x->buf + h * sz : NULL, x->count - h },
	};
	struct fi_ioc cmpv[2] = {
		{ (void *)(uintptr_t)x->cmp, h },
		{ (uint8_t *)(uintptr_t)x->cmp + h * sz, x->count - h },
	};
	struct fi_ioc resv[2] = { { x->res, h }, { (uint8_t *)x->res + h * sz, x->count - h } };
	struct fi_rma_ioc rma = { .addr = x->addr, .count = x->count, .key = x->key };
	struct fi_msg_atomic msg = {
		.msg_iov = iov, .iov_count = 2, .addr = b.addr, .rma_iov = &rma,
		.rma_iov_count = 1, .datatype = x->dt, .op = x->op, .context = x->ctx,
		.data = 0xa70,
	};

	switch (x->kind * NCALLS + x->call) {
	case BASE * NCALLS + PLAIN:
		return fi_atomic(a.ep, x->buf, x->count, NULL, b.addr, x->addr, x->key, x->dt,
				 x->op, x->ctx);
	case BASE * NCALLS + VEC:
		return fi_atomicv(a.ep, iov, NULL, 2, b.addr, x->addr, x->key, x->dt, x->op,
				  x->ctx);
	case BASE * NCALLS + MSG:
		return fi_atomicmsg(a.ep, &msg, x->flags);
	case BASE * NCALLS + INJECT:
		return fi_inject_atomic(a.ep, x->buf, x->count, b.addr, x->addr, x->key, x->dt,
					x->op);
	case FETCH * NCALLS + PLAIN:
		return fi_fetch_atomic(a.ep, x->buf, x->count, NULL, x->res, NULL, b.addr,
				       x->addr, x->key, x->dt, x->op, x->ctx);
	case FETCH * NCALLS + VEC:
		return fi_fetch_atomicv(a.ep, iov, NULL, 2, resv, NULL, 2, b.addr, x->addr,
					x->key, x->dt, x->op, x->ctx);
	case FETCH * NCALLS + MSG:
		return fi_fetch_atomicmsg(a.ep, &msg, resv, NULL, 2, x->flags);
	case COMPARE * NCALLS + PLAIN:
		return fi_compare_atomic(a.ep, x->buf, x->count, NULL, x->cmp, NULL, x->res, NULL,
					 b.addr, x->addr, x->key, x->dt, x->op, x->ctx);
	case COMPARE * NCALLS + VEC:
		return fi_compare_atomicv(a.ep, iov, NULL, 2, cmpv, NULL, 2, resv, NULL, 2,
					  b.addr, x->addr, x->key, x->dt, x->op, x->ctx);
	default:
		return fi_compare_atomicmsg(a.ep, &msg, cmpv, NULL, 2, resv, NULL, 2, x->flags);
	}
}

/* Posts x and waits for its outcome: 0, or the error it completed with. */
static int
run(struct atomic_args *x)
{
	uint64_t ok = fi_cntr_read(a.tx_cntr), err = fi_cntr_readerr(a.tx_cntr);
	struct fi_cq_data_entry e;
	struct fi_cq_err_entry ee = { 0 };
	int ctx;
	ssize_t ret;

	x->ctx = &ctx;
	ret = post(x);
	CU_ASSERT_EQUAL_FATAL(ret, 0);
	if (x->call == INJECT) {
		ret = wait_inject(ok, err);
		CU_ASSERT_NOT_EQUAL(ret, -1);
		if (ret == 1) {
			/* fi_cq(3): an inject's failure is reported without a context */
			CU_ASSERT_EQUAL(wait_one(&a, &e, &ee), -FI_EAVAIL);
			CU_ASSERT_PTR_NULL(ee.op_context);
			return ee.err;
		}
		CU_ASSERT_EQUAL(fi_cq_read(a.cq, &e, 1), -FI_EAGAIN);
		return 0;
	}
	ret = wait_one(&a, &e, &ee);
	if (ret == -FI_EAVAIL) {
		CU_ASSERT_PTR_EQUAL(ee.op_context, &ctx);
		CU_ASSERT_EQUAL(fi_cntr_readerr(a.tx_cntr), err + 1);
		return ee.err;
	}
	CU_ASSERT_EQUAL_FATAL(ret, 1);
	CU_ASSERT_PTR_EQUAL(e.op_context, &ctx);
	CU_ASSERT_EQUAL(e.flags, FI_ATOMIC | (x->kind == BASE ? FI_WRITE : FI_READ));
	CU_ASSERT_EQUAL(fi_cntr_read(a.tx_cntr), ok + 1);
	return 0;
}

/* -- tests -- */

/* fi_atomicvalid() and its kin (and fi_query_atomic()) against fi_atomic(3),
 * and the calls refusing exactly what they refuse. */
static void
test_valid(void)
{
	uint8_t buf[ELEM_MAX] = { 0 }, res[ELEM_MAX];
	static const uint64_t query_flags[NKINDS] = { 0, FI_FETCH_ATOMIC, FI_COMPARE_ATOMIC };
	struct atomic_args x = { .count = 1, .buf = buf, .cmp = buf, .res = res, .key = 1 };
	struct fi_atomic_attr attr;
	int k, dt, op, call, offers = 0;
	size_t count;
	int ret;

	for (k = 0; k < NKINDS; k++) {
		for (dt = 0; dt < NTYPES; dt++) {
			for (op = 0; op < FI_ATOMIC_OP_LAST; op++) {
				count = 0;
				ret = k == BASE ? fi_atomicvalid(a.ep, dt, op, &count) :
				      k == FETCH ? fi_fetch_atomicvalid(a.ep, dt, op, &count) :
				      fi_compare_atomicvalid(a.ep, dt, op, &count);
				memset(&attr, 0, sizeof(attr));
				CU_ASSERT_EQUAL(fi_query_atomic(td.domain, dt, op, &attr,
								query_flags[k]), ret);
				if (offered(k, dt, op)) {
					CU_ASSERT_EQUAL(ret, 0);
					CU_ASSERT_EQUAL(count, MAX_BYTES / types[dt].size);
					CU_ASSERT(attr.count == count &&
						  attr.size == types[dt].size);
					offers++;
					continue;
				}
				CU_ASSERT_EQUAL(ret, -FI_EOPNOTSUPP);
				x.kind = k;
				x.dt = dt;
				x.op = op;
				for (call = 0; call < (k == BASE ? NCALLS : INJECT); call++) {
					x.call = call;
					CU_ASSERT_EQUAL(post(&x), -FI_EOPNOTSUPP);
				}
			}
		}
		/* no such datatype or operation */
		CU_ASSERT_EQUAL(fi_atomicvalid(a.ep, FI_VOID, FI_SUM, &count), -FI_EOPNOTSUPP);
		CU_ASSERT_EQUAL(fi_atomicvalid(a.ep, FI_INT32, FI_NOOP, &count), -FI_EOPNOTSUPP);
		CU_ASSERT_EQUAL(fi_fetch_atomicvalid(a.ep, NTYPES, FI_SUM, &count),
				-FI_EOPNOTSUPP);
	}
	/* fi_query_atomic()'s own refusals: no atomics on tagged buffers */
	CU_ASSERT_EQUAL(fi_query_atomic(td.domain, FI_INT32, FI_SUM, &attr, FI_TAGGED),
			-FI_EOPNOTSUPP);
	CU_ASSERT_EQUAL(fi_query_atomic(td.domain, FI_INT32, FI_CSWAP, &attr,
					FI_FETCH_ATOMIC | FI_COMPARE_ATOMIC), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_query_atomic(td.domain, FI_INT32, FI_SUM, NULL, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_query_atomic(td.domain, FI_INT32, FI_SUM, &attr, FI_MORE),
			-FI_EBADFLAGS);
	/* 16 types: 10 ints, 3 reals, 3 complex */
	CU_ASSERT_EQUAL(offers, (10 * 11 + 3 * 8 + 3 * 6) + (10 * 12 + 3 * 9 + 3 * 7) +
				(10 * 7 + 3 * 6 + 3 * 2));
	printf("\n    %d combinations offered", offers);
}

/* Runs one combination through one call and checks memory and results. */
static void
check_combo(struct fid_mr *mr, enum kind k, enum fi_datatype dt, enum fi_op op,
	    enum call call)
{
	size_t sz = types[dt].size, i;
	uint8_t buf[NELEM * ELEM_MAX], cmp[NELEM * ELEM_MAX], res[NELEM * ELEM_MAX];
	uint8_t expect[NELEM * ELEM_MAX], orig[NELEM * ELEM_MAX];
	struct atomic_args x = {
		.kind = k, .call = call, .dt = dt, .op = op, .count = NELEM, .buf = buf,
		.cmp = cmp, .res = res, .addr = raddr(64), .key = fi_mr_key(mr),
		.flags = FI_COMPLETION | FI_DELIVERY_COMPLETE,
	};
	struct val o, n;
	bool bad = false;
	int err;

	canaries_set();
	memset(region(), 0x77, REGION);
	memset(res, 0xee, sizeof(res));
	for (i = 0; i < NELEM; i++) {
		store(dt, orig + i * sz, sample(dt, 0, (int)i));
		store(dt, buf + i * sz, sample(dt, 1, (int)i));
		store(dt, cmp + i * sz, sample(dt, 2, (int)i));
		o = load(dt, orig + i * sz);
		if (!reference(dt, op, o, load(dt, buf + i * sz), load(dt, cmp + i * sz), &n))
			n = o;
		store(dt, expect + i * sz, n);
	}
	memcpy(region() + 64, orig, NELEM * sz);
	/* FI_ATOMIC_READ ignores the operand: it may be NULL */
	if (op == FI_ATOMIC_READ && call == PLAIN)
		x.buf = NULL;
	err = run(&x);
	CU_ASSERT_EQUAL(err, 0);
	for (i = 0; i < NELEM; i++) {
		bad |= !equal(dt, load(dt, region() + 64 + i * sz), load(dt, expect + i * sz));
		/* the values found, before the operation */
		bad |= k != BASE && !equal(dt, load(dt, res + i * sz), load(dt, orig + i * sz));
	}
	CU_ASSERT(!bad);
	CU_ASSERT(canaries_intact());
	/* and not a byte after the elements */
	CU_ASSERT_EQUAL(region()[64 + NELEM * sz], 0x77);
	CU_ASSERT_EQUAL(region()[63], 0x77);
	if (bad || err != 0)
		fprintf(stderr, "\n    fi_%s%s %s on %s: wrong (err %d)", kind_names[k],
			call_names[call], op_names[op], types[dt].name, err);
}

/* Every operation x datatype x family x call against the reference. */
static void
test_table(void)
{
	struct fid_mr *mr;
	int k, dt, op, call, done = 0;

	CU_ASSERT_EQUAL_FATAL(reg(FI_REMOTE_READ | FI_REMOTE_WRITE, &mr), 0);
	for (k = 0; k < NKINDS; k++) {
		for (dt = 0; dt < NTYPES; dt++) {
			for (op = 0; op < FI_ATOMIC_OP_LAST; op++) {
				if (!offered(k, dt, op))
					continue;
				for (call = 0; call < (k == BASE ? NCALLS : INJECT); call++) {
					check_combo(mr, k, dt, op, call);
					done++;
				}
			}
		}
	}
	printf("\n    %d operations checked", done);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
}

/* One fetch-and-add of a uint64 at off: its outcome, with the region checked
 * unchanged when refused and the result buffer untouched. */
static int
faa(enum kind k, enum fi_op op, int64_t off, size_t count, uint64_t key)
{
	uint64_t ones[4] = { 1, 1, 1, 1 }, res[4] = { 0 }, cmp[4] = { 0 };
	uint8_t before[REGION];
	struct atomic_args x = {
		.kind = k, .call = PLAIN, .dt = FI_UINT64, .op = op, .count = count,
		.buf = ones, .cmp = cmp, .res = res, .addr = raddr(off), .key = key,
	};
	int err, i;

	canaries_set();
	for (i = 0; i < REGION; i++)
		region()[i] = (uint8_t)i;
	memcpy(before, region(), REGION);
	err = run(&x);
	CU_ASSERT(canaries_intact());
	if (err != 0) {
		CU_ASSERT(memcmp(before, region(), REGION) == 0);
		CU_ASSERT(res[0] == 0 && res[1] == 0);
	}
	return err;
}

/* The region's rights: fetching needs read, changing write, a compare both. */
static void
test_access(void)
{
	static const uint64_t accesses[] = {
		FI_REMOTE_READ, FI_REMOTE_WRITE, FI_REMOTE_READ | FI_REMOTE_WRITE,
		FI_SEND | FI_RECV | FI_READ | FI_WRITE,
	};
	struct fid_mr *mr;
	uint64_t acc;
	size_t i;

	for (i = 0; i < RTE_DIM(accesses); i++) {
		acc = accesses[i];
		CU_ASSERT_EQUAL_FATAL(reg(acc, &mr), 0);
		CU_ASSERT_EQUAL(faa(BASE, FI_SUM, 8, 1, fi_mr_key(mr)),
				(acc & FI_REMOTE_WRITE) ? 0 : FI_EACCES);
		CU_ASSERT_EQUAL(faa(FETCH, FI_SUM, 8, 1, fi_mr_key(mr)),
				(acc & FI_REMOTE_WRITE) && (acc & FI_REMOTE_READ) ? 0 : FI_EACCES);
		CU_ASSERT_EQUAL(faa(FETCH, FI_ATOMIC_READ, 8, 1, fi_mr_key(mr)),
				(acc & FI_REMOTE_READ) ? 0 : FI_EACCES);
		CU_ASSERT_EQUAL(faa(COMPARE, FI_CSWAP, 8, 1, fi_mr_key(mr)),
				(acc & FI_REMOTE_WRITE) && (acc & FI_REMOTE_READ) ? 0 : FI_EACCES);
		CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	}
}

/* One uint64 atomic on a region of the key registered, and its outcome. */
struct faa_case {
	enum kind kind;
	enum fi_op op;
	int64_t off;
	size_t count;
	uint64_t key_xor;	/* a forged key: the region's with these bits flipped */
	int err;
};

static void
faa_cases(const struct faa_case *c, size_t n, uint64_t key)
{
	size_t i;

	for (i = 0; i < n; i++)
		CU_ASSERT_EQUAL(faa(c[i].kind, c[i].op, c[i].off, c[i].count, key ^ c[i].key_xor),
				c[i].err);
}

/* An element out at either end, and the exact fits. */
static void
test_bounds(void)
{
	static const struct faa_case cases[] = {
		{ FETCH, FI_SUM, 0, 4, 0, 0 },
		{ FETCH, FI_SUM, REGION - 32, 4, 0, 0 },
		{ FETCH, FI_SUM, REGION - 24, 4, 0, FI_EACCES },
		{ BASE, FI_SUM, REGION - 1, 1, 0, FI_EACCES },
		{ COMPARE, FI_CSWAP, -8, 2, 0, FI_EACCES },
		{ BASE, FI_SUM, REGION, 1, 0, FI_EACCES },
		{ FETCH, FI_SUM, (int64_t)(UINT64_MAX - 7), 2, 0, FI_EACCES },
	};
	struct fid_mr *mr;

	CU_ASSERT_EQUAL_FATAL(reg(FI_REMOTE_READ | FI_REMOTE_WRITE, &mr), 0);
	faa_cases(cases, RTE_DIM(cases), fi_mr_key(mr));
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
}

/* The target endpoint's own rights: one opened without FI_REMOTE_READ takes
 * base atomics and refuses those that fetch. */
static void
test_endpoint_rights(void)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_DATA, .size = 64 };
	struct test_domain wo = td;
	struct fi_cq_data_entry e;
	struct fi_cq_err_entry ee = { 0 };
	struct test_node c;
	struct fid_cq *others[2];
	struct fid_mr *mr;
	uint64_t one = 1, res = 0;

	wo.info = fi_dupinfo(td.info);
	CU_ASSERT_FATAL(wo.info != NULL);
	wo.info->caps &= ~FI_REMOTE_READ;
	wo.info->rx_attr->caps &= ~FI_REMOTE_READ;
	memset(&c, 0, sizeof(c));
	CU_ASSERT_EQUAL_FATAL(test_node_open(&c, &wo, av, &cq_attr, FI_WAIT_UNSPEC), 0);
	others[0] = b.cq;
	others[1] = c.cq;
	CU_ASSERT_EQUAL_FATAL(reg(FI_REMOTE_READ | FI_REMOTE_WRITE, &mr), 0);
	memset(region(), 0, REGION);
	CU_ASSERT_EQUAL(fi_atomic(a.ep, &one, 1, NULL, c.addr, raddr(0), fi_mr_key(mr),
				  FI_UINT64, FI_SUM, NULL), 0);
	CU_ASSERT_EQUAL(test_cq_wait(a.cq, &e, &ee, others, 2, TIMEOUT_MS), 1);
	CU_ASSERT_EQUAL(fi_fetch_atomic(a.ep, &one, 1, NULL, &res, NULL, c.addr, raddr(0),
					fi_mr_key(mr), FI_UINT64, FI_SUM, NULL), 0);
	CU_ASSERT_EQUAL(test_cq_wait(a.cq, &e, &ee, others, 2, TIMEOUT_MS), -FI_EAVAIL);
	CU_ASSERT_EQUAL(ee.err, FI_EACCES);
	CU_ASSERT_EQUAL(fi_fetch_atomic(a.ep, &one, 1, NULL, &res, NULL, c.addr, raddr(0),
					fi_mr_key(mr), FI_UINT64, FI_ATOMIC_READ, NULL), 0);
	CU_ASSERT_EQUAL(test_cq_wait(a.cq, &e, &ee, others, 2, TIMEOUT_MS), -FI_EAVAIL);
	CU_ASSERT_EQUAL(ee.err, FI_EACCES);
	CU_ASSERT_EQUAL(res, 0);
	CU_ASSERT_EQUAL(*(uint64_t *)(void *)region(), 1);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	test_node_close(&c);
	fi_freeinfo(wo.info);
}

/* Forged and stale keys change nothing. */
static void
test_keys(void)
{
	static const struct faa_case live[] = {
		{ FETCH, FI_SUM, 0, 1, 0, 0 },
		{ BASE, FI_SUM, 0, 1, 1, FI_EACCES },
		{ FETCH, FI_SUM, 0, 1, 1ULL << 40, FI_EACCES },
		{ COMPARE, FI_MSWAP, 0, 1, UINT64_MAX, FI_EACCES },
	};
	static const struct faa_case stale[] = {
		{ BASE, FI_SUM, 0, 1, 0, FI_EACCES },
		{ FETCH, FI_ATOMIC_READ, 0, 1, 0, FI_EACCES },
		{ COMPARE, FI_CSWAP, 0, 1, 0, FI_EACCES },
	};
	struct fid_mr *mr;
	uint64_t key;

	CU_ASSERT_EQUAL_FATAL(reg(FI_REMOTE_READ | FI_REMOTE_WRITE, &mr), 0);
	key = fi_mr_key(mr);
	faa_cases(live, RTE_DIM(live), key);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	faa_cases(stale, RTE_DIM(stale), key);
}

/* Calls refused at once: counts, buffers, flags. */
static void
test_bad_calls(void)
{
	uint64_t buf[64] = { 0 }, res[64], cmp[64] = { 0 };
	struct fi_ioc iov = { buf, 2 }, resv = { res, 1 }, cmpv = { cmp, 3 };
	struct fi_ioc wrap[2] = { { buf, SIZE_MAX }, { buf, 2 } };
	struct fi_rma_ioc rma = { .addr = 0, .count = 2, .key = 1 };
	struct fi_msg_atomic msg = {
		.msg_iov = &iov, .iov_count = 1, .addr = b.addr, .rma_iov = &rma,
		.rma_iov_count = 1, .datatype = FI_UINT64, .op = FI_SUM,
	};
	size_t max;

	CU_ASSERT_EQUAL(fi_atomicvalid(a.ep, FI_UINT64, FI_SUM, &max), 0);
	CU_ASSERT_EQUAL(fi_atomic(a.ep, buf, max + 1, NULL, b.addr, 0, 1, FI_UINT64, FI_SUM,
				  NULL), -FI_EMSGSIZE);
	CU_ASSERT_EQUAL(fi_fetch_atomic(a.ep, buf, max + 1, NULL, res, NULL, b.addr, 0, 1,
					FI_UINT64, FI_SUM, NULL), -FI_EMSGSIZE);
	CU_ASSERT_EQUAL(fi_inject_atomic(a.ep, buf, 0, b.addr, 0, 1, FI_UINT64, FI_SUM),
			-FI_EINVAL);
	CU_ASSERT_EQUAL(fi_atomic(a.ep, NULL, 1, NULL, b.addr, 0, 1, FI_UINT64, FI_SUM, NULL),
			-FI_EINVAL);
	CU_ASSERT_EQUAL(fi_fetch_atomic(a.ep, buf, 1, NULL, NULL, NULL, b.addr, 0, 1, FI_UINT64,
					FI_SUM, NULL), -FI_EINVAL);
	/* results, compare values and target elements as many as the operands */
	CU_ASSERT_EQUAL(fi_fetch_atomicv(a.ep, &iov, NULL, 1, &resv, NULL, 1, b.addr, 0, 1,
					 FI_UINT64, FI_SUM, NULL), -FI_EINVAL);
	resv.count = 2;
	CU_ASSERT_EQUAL(fi_compare_atomicv(a.ep, &iov, NULL, 1, &cmpv, NULL, 1, &resv, NULL, 1,
					   b.addr, 0, 1, FI_UINT64, FI_CSWAP, NULL), -FI_EINVAL);
	rma.count = 3;
	CU_ASSERT_EQUAL(fi_atomicmsg(a.ep, &msg, 0), -FI_EINVAL);
	rma.count = 2;
	msg.rma_iov_count = 2;
	CU_ASSERT_EQUAL(fi_atomicmsg(a.ep, &msg, 0), -FI_EINVAL);
	msg.rma_iov_count = 1;
	CU_ASSERT_EQUAL(fi_atomicmsg(a.ep, &msg, FI_TRIGGER), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_atomicmsg(a.ep, NULL, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_fetch_atomicmsg(a.ep, &msg, &resv, NULL, 1, FI_FENCE), -FI_EBADFLAGS);
	/* counts that would wrap around in a sum */
	CU_ASSERT_EQUAL(fi_atomicv(a.ep, wrap, NULL, 2, b.addr, 0, 1, FI_UINT64, FI_SUM, NULL),
			-FI_EMSGSIZE);
	CU_ASSERT_EQUAL(fi_fetch_atomicv(a.ep, wrap, NULL, 2, wrap, NULL, 2, b.addr, 0, 1,
					 FI_UINT64, FI_SUM, NULL), -FI_EMSGSIZE);
	/* more buffers than iov_limit */
	CU_ASSERT_EQUAL(fi_atomicv(a.ep, &iov, NULL, 1000, b.addr, 0, 1, FI_UINT64, FI_SUM, NULL),
			-FI_EINVAL);
	/* not in the AV */
	CU_ASSERT_EQUAL(fi_atomic(a.ep, buf, 1, NULL, 0x7777, 0, 1, FI_UINT64, FI_SUM, NULL),
			-FI_EINVAL);
}

/* Counters at both ends, the region's events, remote CQ data. */
static void
test_events_and_data(void)
{
	struct fi_cntr_attr attr = { .events = FI_CNTR_EVENTS_COMP };
	uint64_t one = 1, res = 0, rx = fi_cntr_read(b.rx_cntr);
	struct fi_ioc iov = { &one, 1 };
	struct fi_rma_ioc rma = { .addr = raddr(16), .count = 1 };
	struct fi_msg_atomic msg = {
		.msg_iov = &iov, .iov_count = 1, .addr = b.addr, .rma_iov = &rma,
		.rma_iov_count = 1, .datatype = FI_UINT64, .op = FI_SUM, .data = 0xda7a,
	};
	struct fi_cq_data_entry e;
	struct fi_cq_err_entry ee = { 0 };
	struct fid_cntr *wc, *rc;
	struct fid_mr *mr;

	CU_ASSERT_EQUAL_FATAL(fi_cntr_open(td.domain, &attr, &wc, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_cntr_open(td.domain, &attr, &rc, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_mr_reg(td.domain, region(), REGION,
					FI_REMOTE_READ | FI_REMOTE_WRITE, 0, next_key++,
					FI_RMA_EVENT, &mr, NULL), 0);
	CU_ASSERT_EQUAL(fi_mr_bind(mr, &wc->fid, FI_REMOTE_WRITE), 0);
	CU_ASSERT_EQUAL(fi_mr_bind(mr, &rc->fid, FI_REMOTE_READ), 0);
	CU_ASSERT_EQUAL(fi_mr_enable(mr), 0);
	rma.key = fi_mr_key(mr);
	memset(region(), 0, REGION);
	CU_ASSERT_EQUAL(faa(BASE, FI_SUM, 8, 1, fi_mr_key(mr)), 0);
	CU_ASSERT_EQUAL(faa(FETCH, FI_SUM, 8, 1, fi_mr_key(mr)), 0);
	CU_ASSERT_EQUAL(faa(COMPARE, FI_CSWAP, 8, 1, fi_mr_key(mr)), 0);
	CU_ASSERT_EQUAL(faa(BASE, FI_SUM, REGION, 1, fi_mr_key(mr)), FI_EACCES);	/* no event */
	CU_ASSERT_EQUAL(fi_cntr_read(wc), 1);
	CU_ASSERT_EQUAL(fi_cntr_read(rc), 2);
	CU_ASSERT_EQUAL(fi_cntr_read(b.rx_cntr), rx + 3);
	/* remote CQ data: the target hears of that one, and of no other */
	CU_ASSERT_EQUAL(fi_cq_read(b.cq, &e, 1), -FI_EAGAIN);
	memset(region(), 0, REGION);
	CU_ASSERT_EQUAL(fi_atomicmsg(a.ep, &msg, FI_REMOTE_CQ_DATA | FI_COMPLETION), 0);
	CU_ASSERT_EQUAL(wait_one(&a, &e, &ee), 1);
	CU_ASSERT_EQUAL(wait_one(&b, &e, &ee), 1);
	CU_ASSERT(e.flags == (FI_ATOMIC | FI_REMOTE_WRITE | FI_REMOTE_CQ_DATA) &&
		  e.data == 0xda7a);
	CU_ASSERT_EQUAL(fi_fetch_atomicmsg(a.ep, &msg, &(struct fi_ioc){ &res, 1 }, NULL, 1,
					   FI_REMOTE_CQ_DATA), 0);
	CU_ASSERT_EQUAL(wait_one(&a, &e, &ee), 1);
	CU_ASSERT_EQUAL(res, 1);
	CU_ASSERT_EQUAL(wait_one(&b, &e, &ee), 1);
	CU_ASSERT(e.flags == (FI_ATOMIC | FI_REMOTE_READ | FI_REMOTE_CQ_DATA));
	CU_ASSERT_EQUAL(*(uint64_t *)(void *)(region() + 16), 2);
	/* the other completion levels are accepted (an atomic completes when
	 * carried out, whatever is asked), and FI_INJECT: the operand is the
	 * application's again when the call returns */
	one = 40;
	CU_ASSERT_EQUAL(fi_atomicmsg(a.ep, &msg, FI_INJECT | FI_INJECT_COMPLETE |
				     FI_COMPLETION), 0);
	one = 1000;
	CU_ASSERT_EQUAL(wait_one(&a, &e, &ee), 1);
	CU_ASSERT_EQUAL(fi_atomicmsg(a.ep, &msg, FI_TRANSMIT_COMPLETE | FI_COMPLETION), 0);
	CU_ASSERT_EQUAL(wait_one(&a, &e, &ee), 1);
	CU_ASSERT_EQUAL(*(uint64_t *)(void *)(region() + 16), 1042);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&wc->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&rc->fid), 0);
}

/* Many in flight at once, in order: each fetch sees all those before it. */
static void
test_pipelined(void)
{
	uint64_t one = 1, res[200];
	struct fi_cq_data_entry e;
	struct fi_cq_err_entry ee = { 0 };
	struct fid_mr *mr;
	int i, got = 0;

	CU_ASSERT_EQUAL_FATAL(reg(FI_REMOTE_READ | FI_REMOTE_WRITE, &mr), 0);
	memset(region(), 0, REGION);
	for (i = 0; i < 200; i++)
		CU_ASSERT_EQUAL_FATAL(fi_fetch_atomic(a.ep, &one, 1, NULL, &res[i], NULL, b.addr,
						      raddr(0), fi_mr_key(mr), FI_UINT64, FI_SUM,
						      &res[i]), 0);
	while (got < 200 && wait_one(&a, &e, &ee) == 1)
		got++;
	CU_ASSERT_EQUAL(got, 200);
	for (i = 0; i < 200; i++)
		CU_ASSERT_EQUAL(res[i], (uint64_t)i);
	CU_ASSERT_EQUAL(*(uint64_t *)(void *)region(), 200);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
}

#define CPU_ADDS	200000
#define REMOTE_ADDS	4000

static void *
cpu_adder(void *counter)
{
	int i;

	for (i = 0; i < CPU_ADDS; i++)
		__atomic_fetch_add((uint64_t *)counter, 1, __ATOMIC_RELAXED);
	return NULL;
}

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a1 = *(const uint64_t *)x, b1 = *(const uint64_t *)y;

	return a1 < b1 ? -1 : a1 > b1;
}

/* fi_dpdk(7): an aligned 8-byte element is atomic against the target CPU's own
 * atomic instructions. A thread adds to the counter while remote
 * fetch-and-adds do: no update of either side is lost, no value fetched twice. */
static void
test_target_cpu_atomics(void)
{
	uint64_t *counter = (uint64_t *)(void *)region(), one = 1;
	uint64_t *res = calloc(REMOTE_ADDS, sizeof(*res));
	struct fi_cq_data_entry e;
	struct fi_cq_err_entry ee = { 0 };
	struct fid_mr *mr;
	pthread_t th;
	int i, posted = 0, got = 0;

	CU_ASSERT_FATAL(res != NULL);
	CU_ASSERT_EQUAL_FATAL(reg(FI_REMOTE_READ | FI_REMOTE_WRITE, &mr), 0);
	*counter = 0;
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, cpu_adder, counter), 0);
	while (got < REMOTE_ADDS) {
		while (posted < REMOTE_ADDS && posted - got < 32 &&
		       fi_fetch_atomic(a.ep, &one, 1, NULL, &res[posted], NULL, b.addr, raddr(0),
				       fi_mr_key(mr), FI_UINT64, FI_SUM, NULL) == 0)
			posted++;
		if (wait_one(&a, &e, &ee) != 1)
			break;
		got++;
	}
	pthread_join(th, NULL);
	CU_ASSERT_EQUAL(got, REMOTE_ADDS);
	CU_ASSERT_EQUAL(*counter, (uint64_t)CPU_ADDS + REMOTE_ADDS);
	qsort(res, REMOTE_ADDS, sizeof(*res), cmp_u64);
	for (i = 1; i < REMOTE_ADDS; i++)
		CU_ASSERT_FATAL(res[i] > res[i - 1]);
	free(res);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
}

/*
 * The calls without flags of their own take the endpoint's default
 * op_flags (fi_endpoint(3)): on an endpoint whose transmit completions are
 * selective, fi_atomic() and fi_fetch_atomic() complete when FI_COMPLETION
 * is among them and only then, and FI_INJECT among them leaves a fetch
 * alone; the target changes either way.
 */
static void
test_default_op_flags(void)
{
	struct fid_cq *const others[] = { b.cq };
	struct fi_cq_err_entry err = { 0 };
	struct fi_cq_data_entry e;
	uint64_t flags, one = 1, res = 0;
	struct fi_context ctx;
	struct test_node s = { 0 };
	struct fid_mr *mr;
	int comp;

	CU_ASSERT_EQUAL_FATAL(test_selective_node_open(&s, &td, av), 0);
	CU_ASSERT_EQUAL_FATAL(reg(FI_REMOTE_READ | FI_REMOTE_WRITE, &mr), 0);
	memset(region(), 0, 8);
	for (comp = 0; comp < 2; comp++) {
		flags = FI_TRANSMIT | (comp ? FI_COMPLETION : 0);
		CU_ASSERT_EQUAL(fi_control(&s.ep->fid, FI_SETOPSFLAG, &flags), 0);
		CU_ASSERT_EQUAL(fi_atomic(s.ep, &one, 1, NULL, b.addr, raddr(0), fi_mr_key(mr),
					  FI_UINT64, FI_SUM, &ctx), 0);
		CU_ASSERT_EQUAL(test_cq_wait(s.cq, &e, &err, others, 1, comp ? TIMEOUT_MS : 100),
				comp ? 1 : -FI_EAGAIN);
		CU_ASSERT(!comp || (e.op_context == &ctx && (e.flags & FI_ATOMIC)));
		CU_ASSERT_EQUAL(*(uint64_t *)(void *)region(), (uint64_t)comp + 1);
	}
	flags = FI_TRANSMIT | FI_COMPLETION | FI_INJECT;
	CU_ASSERT_EQUAL(fi_control(&s.ep->fid, FI_SETOPSFLAG, &flags), 0);
	CU_ASSERT_EQUAL(fi_fetch_atomic(s.ep, &one, 1, NULL, &res, NULL, b.addr, raddr(0),
					fi_mr_key(mr), FI_UINT64, FI_SUM, &ctx), 0);
	CU_ASSERT_EQUAL(test_cq_wait(s.cq, &e, &err, others, 1, TIMEOUT_MS), 1);
	CU_ASSERT(e.op_context == &ctx && res == 2);
	CU_ASSERT_EQUAL(*(uint64_t *)(void *)region(), 3);
	CU_ASSERT(canaries_intact());
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	test_node_close(&s);
}

static CU_TestInfo atomic_tests[] = {
	{ "valid counts against fi_atomic(3); the rest refused", test_valid },
	{ "every op x datatype x family x call against the reference", test_table },
	{ "region rights: fetch read, change write, compare both", test_access },
	{ "one element out at either end", test_bounds },
	{ "forged and stale keys: FI_EACCES, nothing changed", test_keys },
	{ "a target endpoint without FI_REMOTE_READ", test_endpoint_rights },
	{ "bad calls", test_bad_calls },
	{ "counters, RMA events and remote CQ data", test_events_and_data },
	{ "200 fetch-and-adds in flight, in order", test_pipelined },
	{ "against the target CPU's own atomic adds", test_target_cpu_atomics },
	{ "calls without flags take the endpoint's defaults (FI_SELECTIVE_COMPLETION)",
	  test_default_op_flags },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "atomic offset, user keys", suite_init_offset, suite_clean, NULL, NULL, atomic_tests },
	{ "atomic virt_addr, provider keys", suite_init_virt, suite_clean, NULL, NULL,
	  atomic_tests },
	CU_SUITE_INFO_NULL,
};

/* -- chaos: two initiators, one counter, a lossy port -- */

#define CHAOS_WINDOW	32	/* fetch-and-adds in flight per initiator */

struct chaos_node {
	struct test_node n;
	uint64_t *fetched;	/* one per operation, by post order */
	uint64_t posted;
	uint64_t done;
};

static int
chaos_progress(struct chaos_node *c, struct test_node *t)
{
	struct fi_cq_data_entry e[16];
	struct fi_cq_err_entry ee = { 0 };
	ssize_t ret;

	fi_cq_read(t->cq, NULL, 0);
	ret = fi_cq_read(c->n.cq, e, 16);
	if (ret == -FI_EAVAIL) {
		fi_cq_readerr(c->n.cq, &ee, 0);
		fprintf(stderr, "a fetch-and-add failed: %s\n", fi_strerror(ee.err));
		return -1;
	}
	if (ret > 0)
		c->done += (uint64_t)ret;
	return 0;
}

/* The target's domain on one end of a memif wire, the initiators' on the other:
 * every frame crosses the faulty port (local traffic would loop back). */
static int
chaos_open(struct test_domain *tt, struct test_domain *ti, struct fid_av **avt,
	   struct fid_av **avi, struct test_node *t, struct chaos_node *c, fi_addr_t *taddr)
{
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_DATA, .size = 256 };
	char name[64];
	size_t len = sizeof(name);

	return test_domain_open_attr(tt, FI_EP_RDM, FI_SOCKADDR_IN, FI_MSG | FI_ATOMIC, 0,
				     FI_THREAD_DOMAIN, "net_memif0") != 0 ||
	       test_domain_open_attr(ti, FI_EP_RDM, FI_SOCKADDR_IN, FI_MSG | FI_ATOMIC, 0,
				     FI_THREAD_DOMAIN, "net_memif1") != 0 ||
	       fi_av_open(tt->domain, &av_attr, avt, NULL) != 0 ||
	       fi_av_open(ti->domain, &av_attr, avi, NULL) != 0 ||
	       test_node_open(t, tt, *avt, &cq_attr, FI_WAIT_UNSPEC) != 0 ||
	       test_node_open(&c[0].n, ti, *avi, &cq_attr, FI_WAIT_UNSPEC) != 0 ||
	       test_node_open(&c[1].n, ti, *avi, &cq_attr, FI_WAIT_UNSPEC) != 0 ||
	       fi_getname(&t->ep->fid, name, &len) != 0 ||
	       fi_av_insert(*avi, name, 1, taddr, 0, NULL) != 1;
}

static int
chaos(uint64_t n)
{
	struct test_domain tt = { 0 }, ti = { 0 };
	struct fid_av *avt = NULL, *avi = NULL;
	struct fi_dpdk_ep_stats si, st;
	struct chaos_node c[2];
	struct test_node t;
	struct timespec t0;
	struct fid_mr *mr = NULL;
	uint64_t counter = 0, one = 1, i, dups = 0, out = 0;
	fi_addr_t taddr;
	uint8_t *seen;
	int k, ret = 1;

	memset(c, 0, sizeof(c));
	memset(&t, 0, sizeof(t));
	seen = calloc(2 * n, 1);
	c[0].fetched = calloc(n, sizeof(uint64_t));
	c[1].fetched = calloc(n, sizeof(uint64_t));
	if (seen == NULL || c[0].fetched == NULL || c[1].fetched == NULL ||
	    chaos_open(&tt, &ti, &avt, &avi, &t, c, &taddr) != 0 ||
	    fi_mr_reg(tt.domain, &counter, sizeof(counter), FI_REMOTE_READ | FI_REMOTE_WRITE, 0,
		      1, 0, &mr, NULL) != 0) {
		fprintf(stderr, "chaos: set-up failed\n");
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((c[0].done < n || c[1].done < n) && test_ms_since(&t0) < 240000) {
		for (k = 0; k < 2; k++) {
			while (c[k].posted < n && c[k].posted - c[k].done < CHAOS_WINDOW &&
			       fi_fetch_atomic(c[k].n.ep, &one, 1, NULL,
					       &c[k].fetched[c[k].posted], NULL, taddr, 0,
					       fi_mr_key(mr), FI_UINT64, FI_SUM, NULL) == 0)
				c[k].posted++;
			if (chaos_progress(&c[k], &t) != 0)
				goto out;
		}
	}
	printf("chaos: %" PRIu64 " + %" PRIu64 " fetch-and-adds in %.0f ms, counter %" PRIu64
	       "\n", c[0].done, c[1].done, test_ms_since(&t0), counter);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < c[k].done; i++) {
			if (c[k].fetched[i] >= 2 * n)
				out++;
			else if (seen[c[k].fetched[i]]++)
				dups++;
		}
	}
	printf("chaos: fetched values out of 0..%" PRIu64 ": %" PRIu64 ", repeated: %" PRIu64
	       "\n", 2 * n - 1, out, dups);
	ret = !(c[0].done == n && c[1].done == n && counter == 2 * n && out == 0 && dups == 0);
	/* the faults were there: requests and answers lost, duplicated,
	 * reordered, resent; the target saw requests again and dropped them */
	if (test_ep_stats(c[0].n.ep, &si) != 0 || test_ep_stats(t.ep, &st) != 0) {
		ret = 1;
	} else {
		printf("chaos: initiators' port: %" PRIu64 " frames sent, %" PRIu64 " dropped, %"
		       PRIu64 " duplicated, %" PRIu64 " reordered; target's: %" PRIu64 " frames, %"
		       PRIu64 " dropped\n", si.fault_frames[0], si.fault_dropped[0],
		       si.fault_duplicated[0], si.fault_reordered[0], st.fault_frames[0],
		       st.fault_dropped[0]);
		printf("chaos: target: %" PRIu64 " packets in, %" PRIu64 " duplicates dropped, %"
		       PRIu64 " resent; initiator 0: %" PRIu64 " resent\n", st.rx_pkts,
		       st.rx_duplicates, st.tx_retransmits, si.tx_retransmits);
		ret |= si.fault_dropped[0] * 6 < si.fault_frames[0] || st.rx_duplicates == 0 ||
		       st.tx_retransmits == 0;
	}
	printf("chaos: %s\n", ret == 0 ? "exactly once" : "FAILED");
out:
	if (mr != NULL)
		fi_close(&mr->fid);
	test_node_close(&c[0].n);
	test_node_close(&c[1].n);
	test_node_close(&t);
	if (avi != NULL)
		fi_close(&avi->fid);
	if (avt != NULL)
		fi_close(&avt->fid);
	test_domain_close(&ti);
	test_domain_close(&tt);
	free(seen);
	free(c[0].fetched);
	free(c[1].fetched);
	return ret;
}

int
main(int argc, char **argv)
{
	char sock[64];
	int ret;

	if (argc == 3 && strcmp(argv[1], "chaos") == 0) {
		test_env_memif_pair("atomic", sock, sizeof(sock));
		/* 20 % of the frames each port sends lost, others duplicated or
		 * held back behind the next */
		setenv("FI_DPDK_FAULT", "seed=13,tx_drop=0.2,dup=0.05,reorder=0.1", 0);
		ret = chaos(strtoull(argv[2], NULL, 0));
		unlink(sock);
		return ret;
	}
	test_env_setup(TEST_EAL_BASE " --vdev=net_ring0");
	return test_run(suites);
}
