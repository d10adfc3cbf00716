/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Memory registration and RMA in one process: two RDM endpoints on one port
 * (FI_LOCAL_COMM), which run the whole protocol. Every region sits between
 * canaries, checked after every operation: no byte outside a granted window
 * ever changes. The suite runs twice: offset addressing with the
 * application's keys, and FI_MR_VIRT_ADDR with the provider's keys.
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_rma.h>

#include <rte_common.h>

#include "test_util.h"

#define TIMEOUT_MS	3000
#define REGION		(64 * 1024)
#define GUARD		4096		/* canary bytes on each side */
#define BIG		(3 << 20)	/* a few thousand segments */
#define CANARY		0x5a

static struct test_domain td;
static struct fid_av *av;
static struct test_node a, b;
static bool virt;		/* FI_MR_VIRT_ADDR and FI_MR_PROV_KEY */
static uint8_t *tgt_mem;	/* b's memory: GUARD | region | GUARD */
static uint8_t *loc_mem;	/* a's buffers */
static uint64_t next_key = 100;

static int
suite_open(int mr_mode)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_DATA, .size = 256 };

	virt = mr_mode != 0;
	tgt_mem = malloc(BIG + 2 * GUARD);
	loc_mem = malloc(BIG + 2 * GUARD);
	if (tgt_mem == NULL || loc_mem == NULL)
		return 1;
	return test_pair_open(&td, &av, &a, &b, FI_MSG | FI_RMA | FI_RMA_EVENT, mr_mode, &cq_attr);
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
	free(tgt_mem);
	free(loc_mem);
	return 0;
}

/* -- helpers -- */

static uint8_t *
region(void)
{
	return tgt_mem + GUARD;
}

/* The address a peer names byte off of a region at base with. */
static uint64_t
raddr(const uint8_t *base, int64_t off)
{
	return (virt ? (uint64_t)(uintptr_t)base : 0) + (uint64_t)off;
}


/* Target memory: canaries, and the region filled with seed. */
static void
target_reset(size_t len, unsigned int seed)
{
	memset(tgt_mem, CANARY, GUARD);
	test_fill(region(), len, seed);
	memset(region() + len, CANARY, GUARD);
}

static bool
canaries_intact(size_t len)
{
	size_t i;

	for (i = 0; i < GUARD; i++) {
		if (tgt_mem[i] != CANARY || region()[len + i] != CANARY)
			return false;
	}
	return true;
}

static int
reg(size_t len, uint64_t access, struct fid_mr **mr)
{
	return fi_mr_reg(td.domain, region(), len, access, 0, next_key++, 0, mr, NULL);
}

/* Reads one completion of n's CQ, progressing both; -FI_EAVAIL fills err. */
static ssize_t
wait_one(struct test_node *n, struct fi_cq_data_entry *e, struct fi_cq_err_entry *err)
{
	struct test_node *other = n == &a ? &b : &a;

	return test_cq_wait(n->cq, e, err, &other->cq, 1, TIMEOUT_MS);
}

/* Progresses both for a while (inject operations report nothing). */
static void
spin(int rounds)
{
	int i;

	for (i = 0; i < rounds; i++) {
		fi_cq_read(a.cq, NULL, 0);
		fi_cq_read(b.cq, NULL, 0);
	}
}

enum op {
	OP_WRITE, OP_WRITEV, OP_WRITEMSG, OP_INJECT_WRITE, OP_WRITEDATA, OP_INJECT_WRITEDATA,
	OP_READ, OP_READV, OP_READMSG, OP_NB
};

static const char *const op_names[OP_NB] = {
	"fi_write", "fi_writev", "fi_writemsg", "fi_inject_write", "fi_writedata",
	"fi_inject_writedata", "fi_read", "fi_readv", "fi_readmsg",
};

static bool
op_reads(enum op op)
{
	return op >= OP_READ;
}

static bool
op_injects(enum op op)
{
	return op == OP_INJECT_WRITE || op == OP_INJECT_WRITEDATA;
}

/* Posts op of len bytes from/to a's loc_mem at the target's addr. */
static ssize_t
post(enum op op, size_t len, uint64_t addr, uint64_t key, void *ctx)
{
	struct iovec iov[2] = {
		{ .iov_base = loc_mem, .iov_len = len / 2 },
		{ .iov_base = loc_mem + len / 2, .iov_len = len - len / 2 },
	};
	struct fi_rma_iov rma = { .addr = addr, .len = len, .key = key };
	struct fi_msg_rma msg = {
		.msg_iov = iov, .iov_count = 2, .addr = b.addr, .rma_iov = &rma,
		.rma_iov_count = 1, .context = ctx,
	};

	switch (op) {
	case OP_WRITE:
		return fi_write(a.ep, loc_mem, len, NULL, b.addr, addr, key, ctx);
	case OP_WRITEV:
		return fi_writev(a.ep, iov, NULL, 2, b.addr, addr, key, ctx);
	case OP_WRITEMSG:
		return fi_writemsg(a.ep, &msg, FI_COMPLETION);
	case OP_INJECT_WRITE:
		return fi_inject_write(a.ep, loc_mem, len, b.addr, addr, key);
	case OP_WRITEDATA:
		return fi_writedata(a.ep, loc_mem, len, NULL, 0xda7a, b.addr, addr, key, ctx);
	case OP_INJECT_WRITEDATA:
		return fi_inject_writedata(a.ep, loc_mem, len, 0xda7a, b.addr, addr, key);
	case OP_READ:
		return fi_read(a.ep, loc_mem, len, NULL, b.addr, addr, key, ctx);
	case OP_READV:
		return fi_readv(a.ep, iov, NULL, 2, b.addr, addr, key, ctx);
	default:
		return fi_readmsg(a.ep, &msg, FI_COMPLETION);
	}
}

/*
 * Runs op over [off, off + len) of a region of region_len bytes and checks
 * the outcome: when allowed, the bytes moved exactly; when not, -FI_EACCES
 * at the initiator (an error completion, for an inject too, and the
 * counter's error) and no byte changed on either side. Canaries always
 * intact.
 */
static void
check_op(enum op op, size_t region_len, int64_t off, size_t len, uint64_t key, bool allowed)
{
	uint64_t werr = fi_cntr_readerr(a.tx_cntr), wok = fi_cntr_read(a.tx_cntr);
	struct fi_cq_data_entry e;
	struct fi_cq_err_entry err = { 0 };
	uint8_t *expect = malloc(region_len + 1);
	int ctx;
	ssize_t ret;

	CU_ASSERT_FATAL(expect != NULL);
	target_reset(region_len, 7);
	memcpy(expect, region(), region_len);
	test_fill(loc_mem, len, 91);
	ret = post(op, len, raddr(region(), off), key, &ctx);
	CU_ASSERT_EQUAL_FATAL(ret, 0);
	if (op_injects(op)) {
		for (int i = 0; i < 100000 && fi_cntr_read(a.tx_cntr) == wok &&
				fi_cntr_readerr(a.tx_cntr) == werr; i++)
			spin(1);
		CU_ASSERT_EQUAL(fi_cntr_readerr(a.tx_cntr), werr + !allowed);
		CU_ASSERT_EQUAL(fi_cntr_read(a.tx_cntr), wok + allowed);
		/* fi_cq(3): an inject reports its failure too, without a context;
		 * its success, not at all */
		ret = fi_cq_read(a.cq, &e, 1);
		if (allowed) {
			CU_ASSERT_EQUAL(ret, -FI_EAGAIN);
		} else {
			CU_ASSERT_EQUAL(ret, -FI_EAVAIL);
			memset(&err, 0, sizeof(err));
			CU_ASSERT_EQUAL(fi_cq_readerr(a.cq, &err, 0), 1);
			CU_ASSERT_EQUAL(err.err, FI_EACCES);
			CU_ASSERT_PTR_NULL(err.op_context);
		}
	} else {
		ret = wait_one(&a, &e, &err);
		if (allowed) {
			CU_ASSERT_EQUAL(ret, 1);
			CU_ASSERT(ret == 1 && e.op_context == &ctx &&
				  e.flags == (FI_RMA | (op_reads(op) ? FI_READ : FI_WRITE)));
		} else {
			CU_ASSERT_EQUAL(ret, -FI_EAVAIL);
			CU_ASSERT_EQUAL(err.err, FI_EACCES);
			CU_ASSERT_PTR_EQUAL(err.op_context, &ctx);
		}
	}
	if (allowed && !op_reads(op))
		memcpy(expect + off, loc_mem, len);
	spin(100);	/* the target's side is over too */
	CU_ASSERT(memcmp(region(), expect, region_len) == 0);
	if (allowed && op_reads(op)) {
		CU_ASSERT(memcmp(loc_mem, region() + off, len) == 0);
	} else if (op_reads(op)) {
		test_fill(expect, len, 91);
		CU_ASSERT(memcmp(loc_mem, expect, len) == 0);	/* untouched */
	}
	CU_ASSERT(canaries_intact(region_len));
	if (!canaries_intact(region_len) || (!op_injects(op) && (ret == 1) != allowed))
		fprintf(stderr, "\n    %s of %zu at %lld: wrong (ret %zd, err %d)\n", op_names[op],
			len, (long long)off, ret, ret == -FI_EAVAIL ? err.err : 0);
	/* the target hears of a write with data, and of nothing else */
	ret = fi_cq_read(b.cq, &e, 1);
	if (allowed && (op == OP_WRITEDATA || op == OP_INJECT_WRITEDATA)) {
		CU_ASSERT(ret == 1 && e.flags == (FI_RMA | FI_REMOTE_WRITE | FI_REMOTE_CQ_DATA) &&
			  e.data == 0xda7a && e.len == 0);
	} else {
		CU_ASSERT_EQUAL(ret, -FI_EAGAIN);
	}
	free(expect);
}

/* -- tests -- */

static void
test_registration(void)
{
	struct fid_mr *m1, *m2, *r2;
	struct iovec iov[2] = { { region(), 64 }, { region() + 64, 64 } };
	uint64_t k1;

	CU_ASSERT_EQUAL_FATAL(reg(REGION, FI_REMOTE_WRITE, &m1), 0);
	CU_ASSERT_PTR_NOT_NULL(fi_mr_desc(m1));
	k1 = fi_mr_key(m1);
	if (!virt) {
		/* the application's key, and a duplicate refused */
		CU_ASSERT_EQUAL(k1, next_key - 1);
		CU_ASSERT_EQUAL(fi_mr_reg(td.domain, region(), 64, FI_REMOTE_READ, 0, k1, 0, &m2,
					  NULL), -FI_ENOKEY);
	}
	CU_ASSERT_EQUAL_FATAL(reg(REGION, FI_REMOTE_READ, &r2), 0);
	CU_ASSERT_NOT_EQUAL(fi_mr_key(r2), k1);
	/* bad requests */
	CU_ASSERT_EQUAL(fi_mr_regv(td.domain, iov, 2, FI_REMOTE_READ, 0, next_key++, 0, &m2,
				   NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_mr_reg(td.domain, region(), 64, FI_REMOTE_READ, 8, next_key++, 0,
				  &m2, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_mr_reg(td.domain, region(), 64, FI_REMOTE_READ, 0, next_key++,
				  FI_MORE, &m2, NULL), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_mr_reg(td.domain, region(), 64, 1ULL << 62, 0, next_key++, 0, &m2,
				  NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_mr_bind(m1, &a.cq->fid, FI_REMOTE_WRITE), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_mr_bind(m1, &b.rx_cntr->fid, FI_SEND), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_mr_enable(m1), 0);
	/* the domain holds on while regions are open */
	CU_ASSERT_EQUAL(fi_close(&td.domain->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&m1->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&r2->fid), 0);
}

/* Every access combination against every operation. */
static void
test_access_matrix(void)
{
	static const uint64_t accesses[] = {
		FI_REMOTE_READ, FI_REMOTE_WRITE, FI_REMOTE_READ | FI_REMOTE_WRITE,
		FI_SEND | FI_RECV | FI_READ | FI_WRITE,
	};
	struct fid_mr *mr;
	size_t i;
	int op;

	for (i = 0; i < RTE_DIM(accesses); i++) {
		CU_ASSERT_EQUAL_FATAL(reg(REGION, accesses[i], &mr), 0);
		for (op = 0; op < OP_NB; op++) {
			bool allowed = (accesses[i] & (op_reads(op) ? FI_REMOTE_READ :
								     FI_REMOTE_WRITE)) != 0;

			check_op(op, REGION, 100, 1000, fi_mr_key(mr), allowed);
		}
		CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	}
}

/* One byte out at either end, and the exact fits. */
static void
test_bounds(void)
{
	struct fid_mr *mr;
	int op;

	CU_ASSERT_EQUAL_FATAL(reg(REGION, FI_REMOTE_READ | FI_REMOTE_WRITE, &mr), 0);
	for (op = 0; op < OP_NB; op++) {
		if (op_injects(op))
			continue;	/* inject_size is smaller than the region */
		check_op(op, REGION, 0, REGION, fi_mr_key(mr), true);
		check_op(op, REGION, -1, 100, fi_mr_key(mr), false);
		check_op(op, REGION, -1, REGION, fi_mr_key(mr), false);
		check_op(op, REGION, 1, REGION, fi_mr_key(mr), false);
		check_op(op, REGION, 0, REGION + 1, fi_mr_key(mr), false);
		check_op(op, REGION, REGION - 100, 101, fi_mr_key(mr), false);
		check_op(op, REGION, REGION - 100, 100, fi_mr_key(mr), true);
		check_op(op, REGION, REGION, 0, fi_mr_key(mr), true);
		check_op(op, REGION, REGION + 1, 0, fi_mr_key(mr), false);
	}
	/* an address that wraps around */
	check_op(OP_WRITE, REGION, (int64_t)(UINT64_MAX - 10), 100, fi_mr_key(mr), false);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
}

/* A closed region's key opens nothing, not even a later region. */
static void
test_stale_key(void)
{
	struct fid_mr *mr, *later[64];
	uint64_t key;
	int i, op;

	CU_ASSERT_EQUAL_FATAL(reg(REGION, FI_REMOTE_READ | FI_REMOTE_WRITE, &mr), 0);
	key = fi_mr_key(mr);
	check_op(OP_WRITE, REGION, 0, 64, key, true);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	for (op = 0; op < OP_NB; op++)
		check_op(op, REGION, 0, 64, key, false);
	for (i = 0; i < 64; i++) {
		CU_ASSERT_EQUAL_FATAL(reg(REGION, FI_REMOTE_READ | FI_REMOTE_WRITE, &later[i]), 0);
		CU_ASSERT_NOT_EQUAL(fi_mr_key(later[i]), key);
	}
	check_op(OP_WRITE, REGION, 0, 64, key, false);
	check_op(OP_READ, REGION, 0, 64, key, false);
	for (i = 0; i < 64; i++)
		CU_ASSERT_EQUAL(fi_close(&later[i]->fid), 0);
	/* and keys nobody ever registered */
	check_op(OP_WRITE, REGION, 0, 64, key ^ 0x10000000ULL, false);
	check_op(OP_READ, REGION, 0, 64, 0, false);
}

/* RMA events: the region's counter and the target's, remote CQ data. */
static void
test_events_and_data(void)
{
	struct fi_cntr_attr attr = { .events = FI_CNTR_EVENTS_COMP };
	struct fid_cntr *wc, *rc;
	struct fid_mr *mr;
	uint64_t rx = fi_cntr_read(b.rx_cntr);

	CU_ASSERT_EQUAL_FATAL(fi_cntr_open(td.domain, &attr, &wc, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_cntr_open(td.domain, &attr, &rc, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_mr_reg(td.domain, region(), REGION,
					FI_REMOTE_READ | FI_REMOTE_WRITE, 0, next_key++,
					FI_RMA_EVENT, &mr, NULL), 0);
	CU_ASSERT_EQUAL(fi_mr_bind(mr, &wc->fid, FI_REMOTE_WRITE), 0);
	CU_ASSERT_EQUAL(fi_mr_bind(mr, &rc->fid, FI_REMOTE_READ), 0);
	CU_ASSERT_EQUAL(fi_mr_bind(mr, &rc->fid, FI_REMOTE_READ), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_mr_enable(mr), 0);
	CU_ASSERT_EQUAL(fi_close(&wc->fid), -FI_EBUSY);
	check_op(OP_WRITEDATA, REGION, 8, 200, fi_mr_key(mr), true);
	check_op(OP_WRITE, REGION, 8, 200, fi_mr_key(mr), true);
	check_op(OP_READ, REGION, 8, 200, fi_mr_key(mr), true);
	check_op(OP_READ, REGION, 8, 200, fi_mr_key(mr), true);
	check_op(OP_WRITE, REGION, REGION, 200, fi_mr_key(mr), false);	/* no event */
	CU_ASSERT_EQUAL(fi_cntr_read(wc), 2);
	CU_ASSERT_EQUAL(fi_cntr_read(rc), 2);
	CU_ASSERT_EQUAL(fi_cntr_read(b.rx_cntr), rx + 4);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&wc->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&rc->fid), 0);
}

/* Segmented both ways: thousands of packets, bit-exact. */
static void
test_large(void)
{
	struct fid_mr *mr;

	CU_ASSERT_EQUAL_FATAL(fi_mr_reg(td.domain, region(), BIG,
					FI_REMOTE_READ | FI_REMOTE_WRITE, 0, next_key++, 0, &mr,
					NULL), 0);
	check_op(OP_WRITE, BIG, 0, BIG, fi_mr_key(mr), true);
	check_op(OP_READV, BIG, 0, BIG, fi_mr_key(mr), true);
	check_op(OP_WRITEV, BIG, 12345, BIG - 12345, fi_mr_key(mr), true);
	check_op(OP_WRITE, BIG, 12345, BIG - 12344, fi_mr_key(mr), false);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
}

/*
 * A region cannot close while a peer's write of several segments is under
 * way into it: the segments still to come would go to memory the
 * application may have freed. It closes once the write is over.
 */
static void
test_close_under_write(void)
{
	struct fi_cq_data_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fid_mr *mr;
	int ctx, i;

	target_reset(BIG, 3);
	test_fill(loc_mem, BIG, 17);
	CU_ASSERT_EQUAL_FATAL(reg(BIG, FI_REMOTE_WRITE, &mr), 0);
	CU_ASSERT_EQUAL_FATAL(fi_write(a.ep, loc_mem, BIG, NULL, b.addr, raddr(region(), 0),
				       fi_mr_key(mr), &ctx), 0);
	/* the target takes the first packets; the initiator, not progressed,
	 * has sent no more than its window: the write is under way */
	for (i = 0; i < 4; i++)
		fi_cq_read(b.cq, NULL, 0);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(wait_one(&a, &e, &err), 1);
	CU_ASSERT_PTR_EQUAL(e.op_context, &ctx);
	spin(100);
	CU_ASSERT(memcmp(region(), loc_mem, BIG) == 0);
	CU_ASSERT(canaries_intact(BIG));
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
}

/* Bad calls at the initiator. */
static void
test_bad_calls(void)
{
	struct fi_rma_iov rma = { .addr = 0, .len = 10, .key = 1 };
	struct iovec iov = { .iov_base = loc_mem, .iov_len = 100 };
	struct fi_msg_rma msg = {
		.msg_iov = &iov, .iov_count = 1, .addr = b.addr, .rma_iov = &rma,
		.rma_iov_count = 1,
	};

	/* the local buffer is larger than the remote one */
	CU_ASSERT_EQUAL(fi_writemsg(a.ep, &msg, 0), -FI_EINVAL);
	rma.len = 100;
	CU_ASSERT_EQUAL(fi_writemsg(a.ep, &msg, FI_FENCE), -FI_EBADFLAGS);
	msg.rma_iov_count = 2;
	CU_ASSERT_EQUAL(fi_readmsg(a.ep, &msg, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_readmsg(a.ep, NULL, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_inject_write(a.ep, loc_mem, 1 << 20, b.addr, 0, 1), -FI_EMSGSIZE);
	CU_ASSERT_EQUAL(fi_write(a.ep, loc_mem, 10, NULL, 0x7777, 0, 1, NULL), -FI_EINVAL);
}

/*
 * The calls without flags of their own take the endpoint's default
 * op_flags (fi_endpoint(3)): on an endpoint whose transmit completions are
 * selective, fi_write(), fi_read() and fi_writedata() complete when
 * FI_COMPLETION is among them (FI_SETOPSFLAG) and only then; an inject never
 * does, and FI_INJECT among them leaves a read alone. The bytes move either
 * way.
 */
static void
test_default_op_flags(void)
{
	struct fid_cq *const others[] = { b.cq };
	struct fi_cq_err_entry err = { 0 };
	struct fi_cq_data_entry e;
	struct fi_context ctx;
	struct test_node s = { 0 };
	struct fid_mr *mr;
	uint64_t flags, key, at;
	int comp;

	CU_ASSERT_EQUAL_FATAL(test_selective_node_open(&s, &td, av), 0);
	CU_ASSERT_EQUAL_FATAL(reg(REGION, FI_REMOTE_READ | FI_REMOTE_WRITE, &mr), 0);
	key = fi_mr_key(mr);
	at = raddr(region(), 0);
	for (comp = 0; comp < 2; comp++) {
		flags = FI_TRANSMIT | (comp ? FI_COMPLETION : 0);
		CU_ASSERT_EQUAL(fi_control(&s.ep->fid, FI_SETOPSFLAG, &flags), 0);
		target_reset(REGION, 7);
		test_fill(loc_mem, 256, 10 + comp);
		CU_ASSERT_EQUAL(fi_write(s.ep, loc_mem, 256, NULL, b.addr, at, key, &ctx), 0);
		CU_ASSERT_EQUAL(test_cq_wait(s.cq, &e, &err, others, 1, comp ? TIMEOUT_MS : 100),
				comp ? 1 : -FI_EAGAIN);
		CU_ASSERT(!comp || (e.op_context == &ctx && (e.flags & FI_WRITE)));
		CU_ASSERT(memcmp(region(), loc_mem, 256) == 0);
		memset(loc_mem + 4096, 0, 256);
		CU_ASSERT_EQUAL(fi_read(s.ep, loc_mem + 4096, 256, NULL, b.addr, at, key, &ctx), 0);
		CU_ASSERT_EQUAL(test_cq_wait(s.cq, &e, &err, others, 1, comp ? TIMEOUT_MS : 100),
				comp ? 1 : -FI_EAGAIN);
		CU_ASSERT(!comp || (e.op_context == &ctx && (e.flags & FI_READ)));
		CU_ASSERT(memcmp(loc_mem + 4096, loc_mem, 256) == 0);
		CU_ASSERT_EQUAL(fi_inject_write(s.ep, loc_mem, 64, b.addr, at + 512, key), 0);
		CU_ASSERT_EQUAL(test_cq_wait(s.cq, &e, &err, others, 1, 100), -FI_EAGAIN);
		CU_ASSERT(memcmp(region() + 512, loc_mem, 64) == 0);
	}
	/* FI_INJECT among the defaults does not apply to a read (fi_rma(3)) */
	flags = FI_TRANSMIT | FI_COMPLETION | FI_INJECT;
	CU_ASSERT_EQUAL(fi_control(&s.ep->fid, FI_SETOPSFLAG, &flags), 0);
	CU_ASSERT_EQUAL(fi_read(s.ep, loc_mem + 4096, 256, NULL, b.addr, at, key, &ctx), 0);
	CU_ASSERT_EQUAL(test_cq_wait(s.cq, &e, &err, others, 1, TIMEOUT_MS), 1);
	CU_ASSERT(e.op_context == &ctx && (e.flags & FI_READ));
	flags = FI_TRANSMIT | FI_COMPLETION;
	CU_ASSERT_EQUAL(fi_control(&s.ep->fid, FI_SETOPSFLAG, &flags), 0);
	/* fi_writedata too; b takes its data as a completion of its own */
	CU_ASSERT_EQUAL(fi_writedata(s.ep, loc_mem, 64, NULL, 0xda7a, b.addr, at, key, &ctx), 0);
	CU_ASSERT_EQUAL(test_cq_wait(s.cq, &e, &err, others, 1, TIMEOUT_MS), 1);
	CU_ASSERT(e.op_context == &ctx && (e.flags & FI_WRITE));
	CU_ASSERT_EQUAL(test_cq_wait(b.cq, &e, &err, NULL, 0, TIMEOUT_MS), 1);
	CU_ASSERT((e.flags & FI_REMOTE_CQ_DATA) && e.data == 0xda7a);
	CU_ASSERT(canaries_intact(REGION));
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	test_node_close(&s);
}

static CU_TestInfo rma_tests[] = {
	{ "registration: keys, modes, bad requests", test_registration },
	{ "every access combination x every operation", test_access_matrix },
	{ "one byte out at either end", test_bounds },
	{ "a stale key after fi_close", test_stale_key },
	{ "RMA event counters and remote CQ data", test_events_and_data },
	{ "3 MiB each way, segmented", test_large },
	{ "no close under a write's later segments", test_close_under_write },
	{ "bad calls", test_bad_calls },
	{ "calls without flags take the endpoint's defaults (FI_SELECTIVE_COMPLETION)",
	  test_default_op_flags },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "rma offset, user keys", suite_init_offset, suite_clean, NULL, NULL, rma_tests },
	{ "rma virt_addr, provider keys", suite_init_virt, suite_clean, NULL, NULL, rma_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	test_env_setup(TEST_EAL_BASE " --vdev=net_ring0");
	return test_run(suites);
}
