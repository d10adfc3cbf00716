/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * FI_EP_RDM in one process: two endpoints on one port talk through the
 * provider's loopback (FI_LOCAL_COMM), which runs the whole protocol (the
 * connection, sequence numbers, acknowledgements, segmentation) without
 * the PMD. Losses and the wire are tested by the two-process tests.
 */

#include <inttypes.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_tagged.h>

#include <rte_common.h>

#include "ep_stats.h"
#include "test_util.h"

#define TIMEOUT_MS	3000
#define BIG		(3 << 20)	/* a few thousand segments */
#define ACKS_LATER_ROUNDS	200

static struct test_domain td;
static struct fid_av *av;

static struct test_node a, b, c;
static struct test_node *const nodes[] = { &a, &b, &c };
static uint8_t *out, *in;

static int
node_open(struct test_node *n)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 256 };

	return test_node_open(n, &td, av, &cq_attr, FI_WAIT_UNSPEC);
}

static int
suite_init(void)
{
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };

	/* room for one byte past the largest message: checked untouched */
	out = malloc(BIG + 64);
	in = malloc(BIG + 64);
	if (out == NULL || in == NULL ||
	    test_domain_open(&td, FI_EP_RDM, FI_SOCKADDR_IN,
			     FI_MSG | FI_TAGGED | FI_SOURCE | FI_DIRECTED_RECV) != 0 ||
	    fi_av_open(td.domain, &av_attr, &av, NULL) != 0)
		return 1;
	return node_open(&a) != 0 || node_open(&b) != 0 || node_open(&c) != 0;
}

static int
suite_clean(void)
{
	test_node_close(&a);
	test_node_close(&b);
	test_node_close(&c);
	fi_close(&av->fid);
	test_domain_close(&td);
	free(out);
	free(in);
	return 0;
}

/* Progresses every node for ms milliseconds. */
static void
spin(int ms)
{
	size_t k;
	int i;

	for (i = 0; i < ms * 10; i++) {
		for (k = 0; k < RTE_DIM(nodes); k++)
			fi_cq_read(nodes[k]->cq, NULL, 0);
		usleep(100);
	}
}

/* Reads one completion of n's CQ while progressing all; -FI_EAGAIN at the timeout. */
static ssize_t
wait_one_for(struct test_node *n, struct fi_cq_tagged_entry *e, fi_addr_t *src,
	     struct fi_cq_err_entry *err, int timeout_ms)
{
	fi_addr_t dummy;
	size_t k;
	int i;
	ssize_t ret;

	for (i = 0; i < timeout_ms * 100; i++) {
		ret = fi_cq_readfrom(n->cq, e, 1, src != NULL ? src : &dummy);
		if (ret == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			fi_cq_readerr(n->cq, err, 0);
			return -FI_EAVAIL;
		}
		if (ret != -FI_EAGAIN)
			return ret;
		for (k = 0; k < RTE_DIM(nodes); k++) {
			if (nodes[k] != n)
				fi_cq_read(nodes[k]->cq, NULL, 0);
		}
		if (i % 64 == 63)
			usleep(10);
	}
	return -FI_EAGAIN;
}

static ssize_t
wait_one(struct test_node *n, struct fi_cq_tagged_entry *e, fi_addr_t *src,
	 struct fi_cq_err_entry *err)
{
	return wait_one_for(n, e, src, err, TIMEOUT_MS);
}

/* Waits for the completion of context ctx on n (others read on the way are lost). */
static ssize_t
wait_ctx(struct test_node *n, void *ctx, struct fi_cq_tagged_entry *e, fi_addr_t *src)
{
	struct fi_cq_err_entry err = { 0 };
	ssize_t ret;

	do {
		ret = wait_one(n, e, src, &err);
	} while (ret == 1 && e->op_context != ctx);
	return ret;
}


static void
test_sizes_up_to_big(void)
{
	static const size_t sizes[] = { 0, 1, 63, 1400, 1401, 4096, 65536, 1 << 20, BIG };
	struct fi_context rctx, sctx;
	struct fi_cq_tagged_entry e;
	fi_addr_t src;
	size_t s;

	for (s = 0; s < RTE_DIM(sizes); s++) {
		test_fill(out, sizes[s], (unsigned int)s);
		memset(in, 0, sizes[s] + 1);
		CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, BIG, NULL, FI_ADDR_UNSPEC, &rctx), 0);
		CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, out, sizes[s], NULL, b.addr, &sctx), 0);
		CU_ASSERT_EQUAL(wait_ctx(&b, &rctx, &e, &src), 1);
		CU_ASSERT_EQUAL(e.len, sizes[s]);
		CU_ASSERT((e.flags & (FI_RECV | FI_MSG)) == (FI_RECV | FI_MSG));
		CU_ASSERT_EQUAL(src, a.addr);
		CU_ASSERT(memcmp(in, out, sizes[s]) == 0);
		CU_ASSERT_EQUAL(wait_ctx(&a, &sctx, &e, NULL), 1);
		CU_ASSERT((e.flags & (FI_SEND | FI_MSG)) == (FI_SEND | FI_MSG));
	}
}

static void
test_tagged_matching(void)
{
	struct fi_context r1, r2, s1, s2;
	struct fi_cq_tagged_entry e;
	uint8_t in1[64], in2[64];

	/* the first receive takes any tag 0x1XX, the second exactly 0x200 */
	CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, in1, sizeof(in1), NULL, FI_ADDR_UNSPEC, 0x100, 0xff,
				       &r1), 0);
	CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, in2, sizeof(in2), NULL, FI_ADDR_UNSPEC, 0x200, 0,
				       &r2), 0);
	test_fill(out, 64, 1);
	CU_ASSERT_EQUAL(fi_tsend(a.ep, out, 10, NULL, b.addr, 0x200, &s2), 0);
	CU_ASSERT_EQUAL(fi_tsend(a.ep, out + 10, 20, NULL, b.addr, 0x1ab, &s1), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r2, &e, NULL), 1);
	CU_ASSERT(e.tag == 0x200 && e.len == 10 && (e.flags & FI_TAGGED));
	CU_ASSERT(memcmp(in2, out, 10) == 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r1, &e, NULL), 1);
	CU_ASSERT(e.tag == 0x1ab && e.len == 20);
	CU_ASSERT(memcmp(in1, out + 10, 20) == 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s2, &e, NULL), 1);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s1, &e, NULL), 1);
	/* a message reaches an untagged receive only untagged, and the other way round */
	CU_ASSERT_EQUAL(fi_recv(b.ep, in1, sizeof(in1), NULL, FI_ADDR_UNSPEC, &r1), 0);
	CU_ASSERT_EQUAL(fi_tsend(a.ep, out, 5, NULL, b.addr, 0x77, &s1), 0);
	CU_ASSERT_EQUAL(fi_send(a.ep, out, 6, NULL, b.addr, &s2), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r1, &e, NULL), 1);
	CU_ASSERT(e.len == 6 && (e.flags & FI_MSG) && !(e.flags & FI_TAGGED));
	CU_ASSERT_EQUAL(fi_trecv(b.ep, in2, sizeof(in2), NULL, FI_ADDR_UNSPEC, 0x77, 0, &r2), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r2, &e, NULL), 1);
	CU_ASSERT(e.len == 5 && e.tag == 0x77);
	wait_ctx(&a, &s1, &e, NULL);
	wait_ctx(&a, &s2, &e, NULL);
}

static void
test_unexpected_keep_order(void)
{
	static const size_t sizes[] = { 100, 3000, 1, 70000, 0, 9 };
	struct fi_context s[RTE_DIM(sizes)], r;
	struct fi_cq_tagged_entry e;
	size_t i, off = 0;

	/* all sent before any receive is posted: buffered, then taken in order */
	for (i = 0; i < RTE_DIM(sizes); i++) {
		test_fill(out + off, sizes[i], (unsigned int)i + 40);
		CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, out + off, sizes[i], NULL, b.addr, &s[i]), 0);
		off += sizes[i];
	}
	for (i = 0; i < RTE_DIM(sizes); i++)
		CU_ASSERT_EQUAL(wait_ctx(&a, &s[i], &e, NULL), 1);	/* transmit complete */
	for (i = 0, off = 0; i < RTE_DIM(sizes); i++) {
		memset(in, 0xee, sizes[i] + 1);
		CU_ASSERT_EQUAL(fi_recv(b.ep, in, BIG, NULL, FI_ADDR_UNSPEC, &r), 0);
		CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
		CU_ASSERT_EQUAL(e.len, sizes[i]);
		CU_ASSERT(memcmp(in, out + off, sizes[i]) == 0);
		off += sizes[i];
	}
}

static void
test_peek_claim_discard(void)
{
	struct fi_msg_tagged m = { 0 };
	struct fi_context s1, s2, s3, peek, claim, r, r2;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct iovec iov = { .iov_base = in, .iov_len = 4096 };
	uint8_t small[8];

	test_fill(out, 300, 7);
	CU_ASSERT_EQUAL_FATAL(fi_tsend(a.ep, out, 300, NULL, b.addr, 0x10, &s1), 0);
	CU_ASSERT_EQUAL_FATAL(fi_tsend(a.ep, out, 200, NULL, b.addr, 0x20, &s2), 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s1, &e, NULL), 1);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s2, &e, NULL), 1);
	m.msg_iov = &iov;
	m.iov_count = 1;
	m.addr = FI_ADDR_UNSPEC;
	/* nothing with tag 0x30: FI_ENOMSG */
	m.tag = 0x30;
	m.context = &peek;
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_PEEK), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), -FI_EAVAIL);
	CU_ASSERT(err.err == FI_ENOMSG && err.op_context == &peek);
	/* a peek sees the message and leaves it there */
	m.tag = 0x10;
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_PEEK), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), 1);
	CU_ASSERT(e.op_context == &peek && e.len == 300 && e.tag == 0x10);
	/* claimed, it is no longer anyone's but the claimer's */
	m.context = &claim;
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_PEEK | FI_CLAIM), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), 1);
	CU_ASSERT(e.op_context == &claim && e.len == 300);
	CU_ASSERT_EQUAL(fi_trecv(b.ep, small, sizeof(small), NULL, FI_ADDR_UNSPEC, 0x10, 0, &r), 0);
	spin(20);
	CU_ASSERT_EQUAL(fi_cq_read(b.cq, &e, 1), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_cancel(&b.ep->fid, &r), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), -FI_EAVAIL);
	CU_ASSERT(err.err == FI_ECANCELED && err.op_context == &r);
	memset(in, 0, 300);
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_CLAIM), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &claim, &e, NULL), 1);
	CU_ASSERT(e.len == 300 && memcmp(in, out, 300) == 0);
	/* discarded at the peek: the message is gone */
	m.tag = 0x20;
	m.context = &peek;
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_PEEK | FI_DISCARD), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), 1);
	CU_ASSERT(e.op_context == &peek && e.len == 200);
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_PEEK), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), -FI_EAVAIL);
	CU_ASSERT_EQUAL(err.err, FI_ENOMSG);
	/* a claim with a context nothing was claimed with */
	m.context = &r2;
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_CLAIM), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_DISCARD), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_tsend(a.ep, out, 1, NULL, b.addr, 0x40, &s3), 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s3, &e, NULL), 1);
	/* claim then discard */
	m.tag = 0x40;
	m.context = &claim;
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_PEEK | FI_CLAIM), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), 1);
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_CLAIM | FI_DISCARD), 0);
	/* the discard completes, without data, as every receive request does
	 * (fi_tagged(3)): a program waits for it */
	e.op_context = NULL;
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), 1);
	CU_ASSERT(e.op_context == &claim && e.len == 0 && e.tag == 0x40 &&
		  (e.flags & (FI_RECV | FI_TAGGED)) == (FI_RECV | FI_TAGGED));
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_CLAIM), -FI_EINVAL);	/* gone */
	m.context = &peek;
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_PEEK), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), -FI_EAVAIL);
	CU_ASSERT_EQUAL(err.err, FI_ENOMSG);
}

static void
test_directed_recv_and_source(void)
{
	struct fi_context rc, ra, sa, sc;
	struct fi_cq_tagged_entry e;
	uint8_t from_a[16], from_c[16];
	fi_addr_t src;

	/* a's message arrives first, but the receive wants c's */
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, "aaaa", 4, NULL, b.addr, &sa), 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &sa, &e, NULL), 1);
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, from_c, sizeof(from_c), NULL, c.addr, &rc), 0);
	spin(10);
	CU_ASSERT_EQUAL(fi_cq_read(b.cq, &e, 1), -FI_EAGAIN);
	CU_ASSERT_EQUAL_FATAL(fi_send(c.ep, "cccccc", 6, NULL, b.addr, &sc), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &rc, &e, &src), 1);
	CU_ASSERT(e.len == 6 && memcmp(from_c, "cccccc", 6) == 0);
	CU_ASSERT_EQUAL(src, c.addr);
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, from_a, sizeof(from_a), NULL, a.addr, &ra), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &ra, &e, &src), 1);
	CU_ASSERT(e.len == 4 && memcmp(from_a, "aaaa", 4) == 0);
	CU_ASSERT_EQUAL(src, a.addr);
	wait_ctx(&c, &sc, &e, NULL);
}

static void
test_data_and_inject(void)
{
	struct fi_context r, s;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	uint64_t sent = fi_cntr_read(a.tx_cntr);
	size_t inject = td.info->tx_attr->inject_size;

	CU_ASSERT(inject >= 64);
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, BIG, NULL, FI_ADDR_UNSPEC, &r), 0);
	test_fill(out, 32, 3);
	CU_ASSERT_EQUAL(fi_senddata(a.ep, out, 32, NULL, 0xabcdef0123456789ULL, b.addr, &s), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	CU_ASSERT((e.flags & FI_REMOTE_CQ_DATA) && e.data == 0xabcdef0123456789ULL);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
	/* inject: the buffer is free at once, no completion, but the counter counts */
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, BIG, NULL, FI_ADDR_UNSPEC, &r), 0);
	test_fill(out, inject, 4);
	CU_ASSERT_EQUAL(fi_inject(a.ep, out, inject, b.addr), 0);
	memset(out, 0, inject);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	test_fill(out, inject, 4);
	CU_ASSERT(e.len == inject && memcmp(in, out, inject) == 0);
	spin(10);
	CU_ASSERT_EQUAL(fi_cq_read(a.cq, &e, 1), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_cntr_read(a.tx_cntr), sent + 2);
	CU_ASSERT_EQUAL(fi_inject(a.ep, out, inject + 1, b.addr), -FI_EMSGSIZE);
	CU_ASSERT_EQUAL(fi_injectdata(a.ep, out, 8, 7, b.addr), 0);
	CU_ASSERT_EQUAL(fi_tinjectdata(a.ep, out, 8, 7, b.addr, 0x99), 0);
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, BIG, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	CU_ASSERT(e.data == 7 && e.len == 8);
	CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, in, BIG, NULL, FI_ADDR_UNSPEC, 0x99, 0, &r), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	CU_ASSERT(e.data == 7 && e.tag == 0x99);
	/* bad sends */
	CU_ASSERT_EQUAL(fi_send(a.ep, out, 8, NULL, 12345, &s), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_send(a.ep, out, td.info->ep_attr->max_msg_size + 1, NULL, b.addr, &s),
			-FI_EMSGSIZE);
	RTE_SET_USED(err);
}

static void
test_completion_semantics(void)
{
	struct fi_msg m = { 0 };
	struct iovec iov = { .iov_base = out, .iov_len = 500 };
	struct fi_context s, r;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };

	m.msg_iov = &iov;
	m.iov_count = 1;
	m.addr = b.addr;
	m.context = &s;
	/* delivery complete: nothing until the receive is there and filled */
	CU_ASSERT_EQUAL_FATAL(fi_sendmsg(a.ep, &m, FI_DELIVERY_COMPLETE), 0);
	CU_ASSERT_EQUAL(wait_one_for(&a, &e, NULL, &err, 100), -FI_EAGAIN);
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, BIG, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	/* transmit complete (the default): the receiver has it, buffered */
	CU_ASSERT_EQUAL_FATAL(fi_sendmsg(a.ep, &m, FI_TRANSMIT_COMPLETE), 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
	/* inject complete, with FI_INJECT: the buffer is ours again */
	CU_ASSERT_EQUAL_FATAL(fi_sendmsg(a.ep, &m, FI_INJECT | FI_INJECT_COMPLETE), 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, BIG, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, BIG, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	CU_ASSERT_EQUAL(fi_sendmsg(a.ep, &m, FI_FENCE), -FI_EBADFLAGS);
}

static void
test_multi_recv(void)
{
	size_t min = 128, len = sizeof(min);
	struct fi_msg m = { 0 };
	struct iovec iov = { .iov_base = in, .iov_len = 1024 };
	struct fi_context mr, r, s[4];
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	int i, got = 0, released = 0;

	CU_ASSERT_EQUAL(fi_setopt(&b.ep->fid, FI_OPT_ENDPOINT, FI_OPT_MIN_MULTI_RECV, &min,
				  sizeof(min)), 0);
	min = 0;
	CU_ASSERT_EQUAL(fi_getopt(&b.ep->fid, FI_OPT_ENDPOINT, FI_OPT_MIN_MULTI_RECV, &min, &len),
			0);
	CU_ASSERT_EQUAL(min, 128);
	m.msg_iov = &iov;
	m.iov_count = 1;
	m.addr = FI_ADDR_UNSPEC;
	m.context = &mr;
	CU_ASSERT_EQUAL_FATAL(fi_recvmsg(b.ep, &m, FI_MULTI_RECV), 0);
	/* three of 300 bytes fit, then less than 128 is left: released */
	for (i = 0; i < 4; i++) {
		test_fill(out + 300 * i, 300, (unsigned int)i + 60);
		CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, out + 300 * i, 300, NULL, b.addr, &s[i]), 0);
	}
	for (i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL_FATAL(wait_one(&b, &e, NULL, &err), 1);
		CU_ASSERT(e.op_context == &mr && e.len == 300);
		CU_ASSERT(e.buf == in + 300 * i);
		CU_ASSERT(memcmp(in + 300 * i, out + 300 * i, 300) == 0);
		got++;
		released += (e.flags & FI_MULTI_RECV) != 0;
	}
	CU_ASSERT_EQUAL(got, 3);
	CU_ASSERT_EQUAL(released, 1);
	CU_ASSERT((e.flags & FI_MULTI_RECV) != 0);	/* on the last one */
	/* the fourth waits for another receive */
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in + 2048, 1024, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	CU_ASSERT(memcmp(in + 2048, out + 900, 300) == 0);
	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(wait_ctx(&a, &s[i], &e, NULL), 1);
}

static void
test_cancel_and_truncation(void)
{
	struct fi_context r, s, nothing;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };

	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, 64, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL(fi_cancel(&b.ep->fid, &r), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), -FI_EAVAIL);
	CU_ASSERT(err.err == FI_ECANCELED && err.op_context == &r);
	CU_ASSERT_EQUAL(fi_cancel(&b.ep->fid, &nothing), -FI_ENOENT);
	/* 100 bytes into 16 */
	memset(in, 0, 100);
	test_fill(out, 100, 9);
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, 16, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, out, 100, NULL, b.addr, &s), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), -FI_EAVAIL);
	CU_ASSERT(err.err == FI_ETRUNC && err.len == 16 && err.olen == 84 &&
		  err.op_context == &r);
	CU_ASSERT(memcmp(in, out, 16) == 0 && in[16] == 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
	/* the same, buffered before its receive, into two iovecs of 10 and 6 */
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, out, 100, NULL, b.addr, &s), 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
	spin(5);
	CU_ASSERT_EQUAL(fi_cq_read(b.cq, &e, 1), -FI_EAGAIN);	/* taken in, unexpected */
	memset(in, 0, 200);
	CU_ASSERT_EQUAL_FATAL(fi_recvv(b.ep, (struct iovec[]){ { in, 10 }, { in + 100, 6 } },
				       NULL, 2, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), -FI_EAVAIL);
	CU_ASSERT(err.err == FI_ETRUNC && err.len == 16 && err.olen == 84 &&
		  err.op_context == &r);
	CU_ASSERT(memcmp(in, out, 10) == 0 && in[10] == 0);
	CU_ASSERT(memcmp(in + 100, out + 10, 6) == 0 && in[106] == 0);
}

/*
 * Receives leave the posted list from anywhere (a cancel, a tagged match of
 * the middle one), and the rest still match in posting order.
 */
static void
test_posted_order(void)
{
	struct fi_context r[5], s[3];
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	uint8_t bufs[5][16];
	int i;

	memset(bufs, 0, sizeof(bufs));
	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, bufs[i], 16, NULL, FI_ADDR_UNSPEC, &r[i]), 0);
	CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, bufs[4], 16, NULL, FI_ADDR_UNSPEC, 7, 0, &r[4]), 0);
	CU_ASSERT_EQUAL(fi_cancel(&b.ep->fid, &r[1]), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), -FI_EAVAIL);
	CU_ASSERT(err.err == FI_ECANCELED && err.op_context == &r[1]);
	CU_ASSERT_EQUAL(fi_cancel(&b.ep->fid, &r[3]), 0);	/* the last one */
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), -FI_EAVAIL);
	CU_ASSERT(err.err == FI_ECANCELED && err.op_context == &r[3]);
	CU_ASSERT_EQUAL(fi_cancel(&b.ep->fid, &r[1]), -FI_ENOENT);
	/* a receive posted after the cancels goes behind the ones left */
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, bufs[3], 16, NULL, FI_ADDR_UNSPEC, &r[3]), 0);
	for (i = 0; i < 3; i++) {
		out[i] = (uint8_t)(0xa0 + i);
		CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, &out[i], 1, NULL, b.addr, &s[i]), 0);
		CU_ASSERT_EQUAL(wait_ctx(&a, &s[i], &e, NULL), 1);
	}
	CU_ASSERT_EQUAL(wait_ctx(&b, &r[0], &e, NULL), 1);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r[2], &e, NULL), 1);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r[3], &e, NULL), 1);
	CU_ASSERT(bufs[0][0] == 0xa0 && bufs[2][0] == 0xa1 && bufs[3][0] == 0xa2 &&
		  bufs[1][0] == 0);
	/* the tagged list was untouched: its receive takes a tagged message */
	out[3] = 0xb7;
	CU_ASSERT_EQUAL_FATAL(fi_tsend(a.ep, &out[3], 1, NULL, b.addr, 7, &s[0]), 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s[0], &e, NULL), 1);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r[4], &e, NULL), 1);
	CU_ASSERT(bufs[4][0] == 0xb7);
}

static void
test_zero_length(void)
{
	struct fi_msg m = { 0 };
	struct fi_msg_tagged t = { 0 };
	struct fi_context r, s;
	struct fi_cq_tagged_entry e;

	m.addr = b.addr;
	m.context = &s;
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, NULL, 0, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL(fi_sendmsg(a.ep, &m, 0), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	CU_ASSERT_EQUAL(e.len, 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
	t.addr = b.addr;
	t.tag = 0x5;
	t.context = &s;
	CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, NULL, 0, NULL, FI_ADDR_UNSPEC, 0x5, 0, &r), 0);
	CU_ASSERT_EQUAL(fi_tsendmsg(a.ep, &t, 0), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	CU_ASSERT(e.len == 0 && e.tag == 0x5);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
}

static void
test_large_unexpected(void)
{
	struct fi_msg_tagged m = { 0 };
	struct iovec iov = { .iov_base = in, .iov_len = BIG };
	struct fi_context s, peek, r;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	size_t len = 2 << 20;

	/* too large to buffer: its sender is held back (RNR) until a receive comes,
	 * yet a peek sees it */
	test_fill(out, len, 12);
	CU_ASSERT_EQUAL_FATAL(fi_tsend(a.ep, out, len, NULL, b.addr, 0xbb, &s), 0);
	CU_ASSERT_EQUAL(wait_one_for(&a, &e, NULL, &err, 50), -FI_EAGAIN);
	m.msg_iov = &iov;
	m.iov_count = 1;
	m.addr = FI_ADDR_UNSPEC;
	m.tag = 0xbb;
	m.context = &peek;
	CU_ASSERT_EQUAL(fi_trecvmsg(b.ep, &m, FI_PEEK), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), 1);
	CU_ASSERT(e.len == len && e.tag == 0xbb);
	memset(in, 0, len);
	CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, in, BIG, NULL, FI_ADDR_UNSPEC, 0xbb, 0, &r), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	CU_ASSERT(e.len == len && memcmp(in, out, len) == 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
}

static uint64_t
peers_closed(struct test_node *n)
{
	struct fi_dpdk_ep_stats st;

	return test_ep_stats(n->ep, &st) == 0 ? st.peers_closed : UINT64_MAX;
}

#define KEPT_FAILING	4	/* injects in flight when their peer goes */

/* Message i of the bundle test: its size and tag; even ones carry CQ data. */
#define BUNDLED		1100	/* more than the receiver's slots for unexpected
				 * messages (rx_size, 1024) */
#define BUNDLE_EVERY	16	/* FI_MORE on all but every 16th */

static size_t
bundled_size(unsigned int i)
{
	return (i * 7) % 201;
}

/* Reads n's completions for a millisecond while progressing all; @return how many. */
static unsigned int
drain(struct test_node *n)
{
	struct fi_cq_tagged_entry e[16];
	ssize_t ret;
	unsigned int got = 0;

	spin(1);
	while ((ret = fi_cq_read(n->cq, e, RTE_DIM(e))) > 0)
		got += (unsigned int)ret;
	return got;
}

/*
 * Sends the bundle tests' messages 0 to n - 1 from a to b: message i of
 * bundled_size(i) bytes, tag i, data data0 + i on the even ones, FI_MORE on
 * all but every BUNDLE_EVERY-th. @return the sends completed on the way (a's
 * CQ is smaller than the run: its completions are read when it is full).
 */
static unsigned int
send_bundled(unsigned int n, uint64_t data0)
{
	static struct fi_context s[BUNDLE_EVERY];
	struct iovec iov;
	struct fi_msg_tagged m = { .msg_iov = &iov, .iov_count = 1, .addr = b.addr };
	unsigned int i, off = 0, sent = 0;
	uint64_t flags;
	ssize_t ret;

	for (i = 0; i < n; i++) {
		test_fill(out + off, bundled_size(i), i);
		iov.iov_base = out + off;
		iov.iov_len = bundled_size(i);
		m.tag = i;
		m.data = data0 + i;
		m.context = &s[i % BUNDLE_EVERY];
		flags = FI_INJECT | (i % 2 == 0 ? FI_REMOTE_CQ_DATA : 0) |
			(i % BUNDLE_EVERY != BUNDLE_EVERY - 1 ? FI_MORE : 0);
		while ((ret = fi_tsendmsg(a.ep, &m, flags)) == -FI_EAGAIN)
			sent += drain(&a);
		CU_ASSERT_EQUAL_FATAL(ret, 0);
		off += (unsigned int)bundled_size(i);
	}
	return sent;
}

/*
 * The statistics' extension from a caller built with an older header (a
 * smaller structure) or a newer one (a larger): the provider writes exactly
 * the size given, its fields and zeros past them; a bad endpoint is refused.
 */
static void
test_stats_sized(void)
{
	const size_t own = sizeof(struct fi_dpdk_ep_stats), older = own - sizeof(uint64_t);
	unsigned char buf[sizeof(struct fi_dpdk_ep_stats) + 16];
	struct fi_dpdk_ep_stats whole;
	struct fi_dpdk_ep_ops *ops;
	size_t k, kept = 0, zeros = 0;

	CU_ASSERT_EQUAL_FATAL(fi_open_ops(&a.ep->fid, FI_DPDK_EP_OPS_1, 0, (void **)&ops, NULL), 0);
	CU_ASSERT_FATAL(ops->size >= offsetof(struct fi_dpdk_ep_ops, stats_sized) +
				     sizeof(ops->stats_sized));
	CU_ASSERT_EQUAL_FATAL(fi_dpdk_ep_stats(ops, a.ep, &whole), 0);
	CU_ASSERT(whole.msgs_sent > 0);
	memset(buf, 0xa5, sizeof(buf));
	CU_ASSERT_EQUAL(ops->stats_sized(a.ep, (struct fi_dpdk_ep_stats *)buf, older), 0);
	CU_ASSERT(((struct fi_dpdk_ep_stats *)buf)->msgs_sent >= whole.msgs_sent);
	for (k = older; k < sizeof(buf); k++)
		kept += buf[k] == 0xa5;
	CU_ASSERT_EQUAL(kept, sizeof(buf) - older);
	memset(buf, 0xa5, sizeof(buf));
	CU_ASSERT_EQUAL(ops->stats_sized(a.ep, (struct fi_dpdk_ep_stats *)buf, own + 8), 0);
	for (k = own; k < own + 8; k++)
		zeros += buf[k] == 0;
	CU_ASSERT_EQUAL(zeros, 8);
	CU_ASSERT(buf[own + 8] == 0xa5);
	CU_ASSERT_EQUAL(ops->stats_sized(NULL, &whole, own), -FI_EINVAL);
	CU_ASSERT_EQUAL(ops->stats_sized(a.ep, NULL, own), -FI_EINVAL);
}

/*
 * Small messages posted with FI_MORE go several to a packet, and each is
 * delivered on its own, in order, with its tag, data and bytes; no receive
 * is posted until all are sent, so they are buffered as unexpected until the
 * receiver runs out of room for them. An untagged message sent first takes
 * one slot, so that the first refused, message 1023, is the last of its
 * group of 16 and not the first of its packet (it was the second of two
 * when written): the one before it is not delivered twice when the packet
 * comes again.
 */
static void
test_bundles(void)
{
	struct fi_dpdk_ep_stats before, after;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fi_context r;
	unsigned int i, bad = 0, off = 0, sent;
	ssize_t ret;

	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &before), 0);
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, "first", 6, NULL, b.addr, &r), 0);
	CU_ASSERT_EQUAL_FATAL(wait_ctx(&a, &r, &e, NULL), 1);
	sent = send_bundled(BUNDLED, 0);
	spin(50);
	for (i = 0, off = 0; i < BUNDLED; i++) {
		memset(in, 0xee, 256);
		CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, in, 256, NULL, FI_ADDR_UNSPEC, i, 0, &r), 0);
		ret = wait_ctx(&b, &r, &e, NULL);
		bad += ret != 1 || e.len != bundled_size(i) || e.tag != i ||
		       memcmp(in, out + off, bundled_size(i)) != 0 || in[bundled_size(i)] != 0xee ||
		       (i % 2 == 0 && ((e.flags & FI_REMOTE_CQ_DATA) == 0 || e.data != i)) ||
		       (i % 2 == 1 && (e.flags & FI_REMOTE_CQ_DATA) != 0);
		off += (unsigned int)bundled_size(i);
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* every send completed once, none in error */
	for (i = 0; i < 100 && sent < BUNDLED; i++)
		sent += drain(&a);
	CU_ASSERT_EQUAL(sent, BUNDLED);
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, 256, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, &e, NULL), 1);
	CU_ASSERT(e.len == 6 && memcmp(in, "first", 6) == 0);
	/* nothing else arrived: no message twice */
	CU_ASSERT_EQUAL(fi_trecv(b.ep, in, 256, NULL, FI_ADDR_UNSPEC, 0, ~0ULL, &r), 0);
	CU_ASSERT_EQUAL(wait_one_for(&b, &e, NULL, &err, 50), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_cancel(&b.ep->fid, &r), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), -FI_EAVAIL);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &after), 0);
	printf("\n    %u messages in %" PRIu64 " packets; refused %" PRIu64 " times\n", BUNDLED,
	       after.tx_pkts - before.tx_pkts, after.rnr_received - before.rnr_received);
	/* several to a packet, and a bundle was refused midway at least once */
	CU_ASSERT(after.tx_pkts - before.tx_pkts < BUNDLED / 4);
	CU_ASSERT(after.rnr_received > before.rnr_received);
}

#define BUNDLED_POSTED	64	/* messages, four groups of BUNDLE_EVERY */
#define POSTED_FIRST	40	/* receives posted before they come */

/*
 * Bundled messages that posted receives wait for go straight into them,
 * each with its tag, data and bytes, in order, a receive of a tag none
 * carries passed over; where the receives run out, in the middle of a
 * packet, the rest is taken as unexpected and matched by the receives
 * posted later.
 */
static void
test_bundles_posted(void)
{
	struct fi_dpdk_ep_stats before, after;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fi_context r[BUNDLED_POSTED], none;
	unsigned int i, j, bad = 0, off, sent, got = 0, order = 0;
	ssize_t ret;

	memset(in, 0xee, BUNDLED_POSTED * 256);
	CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, in + BIG, 1, NULL, FI_ADDR_UNSPEC, 1ULL << 40, 0,
				       &none), 0);
	for (i = 0; i < POSTED_FIRST; i++)
		CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, in + i * 256, 256, NULL, FI_ADDR_UNSPEC, i, 0,
					       &r[i]), 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &before), 0);
	sent = send_bundled(BUNDLED_POSTED, 1000);	/* data not its tag */
	/* the posted ones complete in order; then the rest is matched late */
	for (i = 0; i < BUNDLED_POSTED; i++) {
		if (i == POSTED_FIRST)	/* the rest's receives, posted late */
			for (j = i; j < BUNDLED_POSTED; j++)
				CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, in + j * 256, 256, NULL,
							       FI_ADDR_UNSPEC, j, 0, &r[j]), 0);
		ret = wait_one(&b, &e, NULL, &err);
		if (ret != 1)
			break;
		got++;
		order += e.op_context != &r[i];
		bad += e.len != bundled_size(i) || e.tag != i || !(e.flags & FI_TAGGED) ||
		       (i % 2 == 0 && ((e.flags & FI_REMOTE_CQ_DATA) == 0 || e.data != 1000 + i)) ||
		       (i % 2 == 1 && (e.flags & FI_REMOTE_CQ_DATA) != 0);
	}
	CU_ASSERT_EQUAL(got, BUNDLED_POSTED);
	CU_ASSERT_EQUAL(order, 0);
	CU_ASSERT_EQUAL(bad, 0);	/* each completion's length, tag and data */
	for (i = 0, off = 0; i < BUNDLED_POSTED; i++) {
		bad += memcmp(in + i * 256, out + off, bundled_size(i)) != 0 ||
		       in[i * 256 + bundled_size(i)] != 0xee;
		off += (unsigned int)bundled_size(i);
	}
	CU_ASSERT_EQUAL(bad, 0);
	for (i = 0; i < 100 && sent < BUNDLED_POSTED; i++)
		sent += drain(&a);
	CU_ASSERT_EQUAL(sent, BUNDLED_POSTED);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &after), 0);
	printf("\n    %u messages in %" PRIu64 " packets\n", BUNDLED_POSTED,
	       after.tx_pkts - before.tx_pkts);
	CU_ASSERT(after.tx_pkts - before.tx_pkts < BUNDLED_POSTED / 4);
	/* the receive no message took is still there */
	CU_ASSERT_EQUAL(fi_cancel(&b.ep->fid, &none), 0);
	CU_ASSERT_EQUAL(wait_one(&b, &e, NULL, &err), -FI_EAVAIL);
	CU_ASSERT(err.err == FI_ECANCELED && err.op_context == &none);
}

static void
test_peer_close(void)
{
	struct fi_msg m = { 0 };
	struct iovec iov = { .iov_base = out, .iov_len = 100 };
	struct fi_context s, r;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fi_dpdk_ep_stats before, after;
	uint64_t closed = peers_closed(&a);

	/* connected, then a message that waits on c's receive, which never comes */
	CU_ASSERT_EQUAL_FATAL(fi_recv(c.ep, in, BIG, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, out, 100, NULL, c.addr, &s), 0);
	CU_ASSERT_EQUAL(wait_ctx(&c, &r, &e, NULL), 1);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
	m.msg_iov = &iov;
	m.iov_count = 1;
	m.addr = c.addr;
	m.context = &s;
	CU_ASSERT_EQUAL_FATAL(fi_sendmsg(a.ep, &m, FI_DELIVERY_COMPLETE), 0);
	CU_ASSERT_EQUAL(wait_one_for(&a, &e, NULL, &err, 50), -FI_EAGAIN);
	/* c goes: a's operation fails at once, not at the deadline, as a reset.
	 * a is an endpoint of c's port, so c's CLOSE is in a's inbox when c's
	 * fi_close() returns, which does not wait for an answer a cannot give
	 * while not polled: one CLOSE, none sent again */
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &before), 0);
	test_node_close(&c);
	CU_ASSERT_EQUAL_FATAL(node_open(&c), 0);
	CU_ASSERT_EQUAL(wait_one_for(&a, &e, NULL, &err, 1000), -FI_EAVAIL);
	CU_ASSERT_EQUAL(err.err, FI_ECONNRESET);
	CU_ASSERT_PTR_EQUAL(err.op_context, &s);
	CU_ASSERT_EQUAL(peers_closed(&a), closed + 1);
	wait_one_for(&a, &e, NULL, &err, 20);	/* what else c sent, taken in */
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &after), 0);
	CU_ASSERT_EQUAL(after.rx_pkts - before.rx_pkts, 1);
	/* and the new endpoint is reached like any other */
	CU_ASSERT_EQUAL_FATAL(fi_recv(c.ep, in, BIG, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, out, 100, NULL, c.addr, &s), 0);
	CU_ASSERT_EQUAL(wait_ctx(&c, &r, &e, NULL), 1);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
}

/*
 * Injects that went at once (rdm_conn_inject()), their packets kept, fail
 * with their peer as injects posted as operations do: an error completion
 * each (fi_cq(3)), without context, and the send counter's error count.
 */
static void
test_kept_injects_fail(void)
{
	struct fi_dpdk_ep_stats before, after;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	uint64_t errs = fi_cntr_readerr(a.tx_cntr), done = fi_cntr_read(a.tx_cntr);
	struct fi_context r;
	unsigned int i, failed = 0;

	/* connected, the first inject acknowledged */
	CU_ASSERT_EQUAL_FATAL(fi_recv(c.ep, in, BIG, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL_FATAL(fi_inject(a.ep, out, 64, c.addr), 0);
	CU_ASSERT_EQUAL(wait_ctx(&c, &r, &e, NULL), 1);
	for (i = 0; i < 100 && fi_cntr_read(a.tx_cntr) == done; i++)
		wait_one_for(&a, &e, NULL, &err, 1);
	CU_ASSERT_EQUAL_FATAL(fi_cntr_read(a.tx_cntr), done + 1);
	/* KEPT_FAILING injects go at once; c, never polled again, acknowledges
	 * none, and goes (a new one opens in its place) */
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &before), 0);
	for (i = 0; i < KEPT_FAILING; i++)
		CU_ASSERT_EQUAL(fi_inject(a.ep, out, 64, c.addr), 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &after), 0);
	CU_ASSERT_EQUAL(after.injects_kept - before.injects_kept, KEPT_FAILING);
	test_node_close(&c);
	CU_ASSERT_EQUAL_FATAL(node_open(&c), 0);
	/* a hears of the close: each fails, as a reset */
	while (wait_one_for(&a, &e, NULL, &err, 200) == -FI_EAVAIL) {
		failed++;
		CU_ASSERT_EQUAL(err.err, FI_ECONNRESET);
		CU_ASSERT_PTR_NULL(err.op_context);
		CU_ASSERT_EQUAL(err.flags, FI_SEND | FI_MSG);
	}
	CU_ASSERT_EQUAL(failed, KEPT_FAILING);
	CU_ASSERT_EQUAL(fi_cntr_readerr(a.tx_cntr), errs + KEPT_FAILING);
	CU_ASSERT_EQUAL(fi_cntr_read(a.tx_cntr), done + 1);
}

/*
 * A peer whose endpoint opens late (processes started together): the first
 * send's CONN finds no endpoint, and is tried again at most a millisecond
 * apart while the peer is absent, so that the peer is reached within that
 * of its opening. Left to the probe backoff (0.2, 0.6, 1.4, 3.0, 6.2, 12.6,
 * 25.4 ms...), 30 ms saw 8 CONNs, and a peer that opened 13 ms late would be
 * reached 25 ms after the first.
 */
static void
test_late_peer(void)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 256 };
	struct test_domain late = td;
	struct test_node d = { 0 };
	struct fi_dpdk_ep_stats before, after;
	struct fi_cq_tagged_entry e;
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	struct fi_context s, r;
	struct timespec t0;
	fi_addr_t to = FI_ADDR_NOTAVAIL;
	uint64_t conns;

	/* where the late endpoint will be: an address of the port, free again */
	CU_ASSERT_EQUAL_FATAL(node_open(&d), 0);
	CU_ASSERT_EQUAL_FATAL(fi_getname(&d.ep->fid, &sin, &len), 0);
	test_node_close(&d);
	CU_ASSERT_EQUAL_FATAL(fi_av_insert(av, &sin, 1, &to, 0, NULL), 1);
	late.info = fi_dupinfo(td.info);
	CU_ASSERT_FATAL(late.info != NULL);
	free(late.info->src_addr);
	late.info->src_addr = malloc(sizeof(sin));
	CU_ASSERT_FATAL(late.info->src_addr != NULL);
	memcpy(late.info->src_addr, &sin, sizeof(sin));
	late.info->src_addrlen = sizeof(sin);

	test_fill(out, 64, 29);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &before), 0);
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, out, 64, NULL, to, &s), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (test_ms_since(&t0) < 30)
		fi_cq_read(a.cq, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &after), 0);
	conns = after.tx_pkts - before.tx_pkts;
	CU_ASSERT(conns >= 15 && conns <= 100);
	if (conns < 15 || conns > 100)
		fprintf(stderr, "\n    %" PRIu64 " CONNs in 30 ms\n", conns);

	/* the endpoint opens at that address, and is reached */
	CU_ASSERT_EQUAL_FATAL(test_node_open(&d, &late, av, &cq_attr, FI_WAIT_UNSPEC), 0);
	memset(in, 0, 64);
	CU_ASSERT_EQUAL_FATAL(fi_recv(d.ep, in, 64, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL(test_cq_wait(d.cq, &e, NULL, &a.cq, 1, TIMEOUT_MS), 1);
	CU_ASSERT(e.op_context == &r && e.len == 64 && memcmp(in, out, 64) == 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
	test_node_close(&d);
	fi_freeinfo(late.info);
}

/* A parameter the endpoint refuses: -FI_EINVAL from fi_endpoint, with what
 * it had set up freed (the ASan run's leak check), and the next one opens. */
static void
test_bad_window(void)
{
	struct fid_ep *ep = NULL;

	setenv("FI_DPDK_RDM_WINDOW", "100", 1);
	CU_ASSERT_EQUAL(fi_endpoint(td.domain, td.info, &ep, NULL), -FI_EINVAL);
	CU_ASSERT_PTR_NULL(ep);
	unsetenv("FI_DPDK_RDM_WINDOW");
	CU_ASSERT_EQUAL_FATAL(fi_endpoint(td.domain, td.info, &ep, NULL), 0);
	CU_ASSERT_EQUAL(fi_close(&ep->fid), 0);
}

/*
 * A send to an address removed from the AV is refused, even right after a
 * send to it (the endpoint remembers its last destination while the AV
 * entry keeps its generation); inserted again, the address is reached.
 */
static void
test_removed_destination(void)
{
	struct fi_context s, r;
	struct fi_cq_tagged_entry e;
	char name[64];
	size_t len = sizeof(name);
	fi_addr_t again;

	CU_ASSERT_EQUAL_FATAL(fi_getname(&c.ep->fid, name, &len), 0);
	CU_ASSERT_EQUAL_FATAL(fi_recv(c.ep, in, 64, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, out, 8, NULL, c.addr, &s), 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
	CU_ASSERT_EQUAL(wait_ctx(&c, &r, &e, NULL), 1);
	CU_ASSERT_EQUAL_FATAL(fi_av_remove(av, &c.addr, 1, 0), 0);
	CU_ASSERT_EQUAL(fi_send(a.ep, out, 8, NULL, c.addr, &s), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_inject(a.ep, out, 8, c.addr), -FI_EINVAL);
	CU_ASSERT_EQUAL_FATAL(fi_av_insert(av, name, 1, &again, 0, NULL), 1);
	c.addr = again;
	test_fill(out, 8, 5);
	CU_ASSERT_EQUAL_FATAL(fi_recv(c.ep, in, 64, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, out, 8, NULL, c.addr, &s), 0);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, &e, NULL), 1);
	CU_ASSERT_EQUAL(wait_ctx(&c, &r, &e, NULL), 1);
	CU_ASSERT(e.len == 8 && memcmp(in, out, 8) == 0);
}

#define CORK		8	/* FI_DPDK_RDM_AUTOCORK's default */
#define CORK_MSG	8	/* bytes of each message of the autocork runs */

/* Receives n messages of CORK_MSG bytes at b, in order, as from out. */
static void
cork_receive(unsigned int n)
{
	struct fi_cq_tagged_entry e;
	struct fi_context r;
	unsigned int i, bad = 0;

	for (i = 0; i < n; i++) {
		memset(in, 0, CORK_MSG);
		CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, CORK_MSG, NULL, FI_ADDR_UNSPEC, &r), 0);
		bad += wait_ctx(&b, &r, &e, NULL) != 1 || e.len != CORK_MSG ||
		       memcmp(in, out + i * CORK_MSG, CORK_MSG) != 0;
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* One message from n to b and its answer: the two know each other. */
static void
meet_b(struct test_node *n)
{
	struct fi_cq_tagged_entry e;
	struct fi_context s, r;

	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, 64, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL_FATAL(fi_send(n->ep, "hello", 6, NULL, b.addr, &s), 0);
	CU_ASSERT_EQUAL_FATAL(wait_ctx(n, &s, &e, NULL), 1);
	CU_ASSERT_EQUAL_FATAL(wait_ctx(&b, &r, &e, NULL), 1);
}

/*
 * Sends nb messages of CORK_MSG bytes from n to b, which does not progress
 * meanwhile, and n's progress call after them: *posted is how many packets
 * went while they were posted, *progressed after the call. @return false
 * when the domain's watchdog progressed n or b in between (a run to repeat).
 */
static bool
cork_run(struct test_node *n, unsigned int nb, uint64_t *posted, uint64_t *progressed)
{
	struct fi_dpdk_ep_stats n0, n1, n2, b0, b1;
	unsigned int i;

	spin(2);	/* the last run's packets are acknowledged: none in flight */
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(n->ep, &n0), 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(b.ep, &b0), 0);
	for (i = 0; i < nb; i++) {
		test_fill(out + i * CORK_MSG, CORK_MSG, i + 3);
		CU_ASSERT_EQUAL_FATAL(fi_inject(n->ep, out + i * CORK_MSG, CORK_MSG, b.addr), 0);
	}
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(n->ep, &n1), 0);
	fi_cq_read(n->cq, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(n->ep, &n2), 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(b.ep, &b1), 0);
	*posted = n1.tx_pkts - n0.tx_pkts;
	*progressed = n2.tx_pkts - n0.tx_pkts;
	cork_receive(nb);
	return n2.progress_rescues == n0.progress_rescues &&
	       b1.progress_rescues == b0.progress_rescues;
}

/*
 * Autocorking: with CORK packets in flight to b, unacknowledged since b
 * does not progress, the small messages posted after them wait for the
 * sender's next progress call and leave with it in one packet; posted
 * in numbers, they leave a bundle at a time without it. With
 * FI_DPDK_RDM_AUTOCORK=0 every message leaves at once in a packet of its
 * own; a value out of range is refused. Every message arrives, in order.
 */
static void
test_autocork(void)
{
	struct test_node d = { 0 };
	struct fid_ep *ep = NULL;
	uint64_t posted = 0, progressed = 0;
	int tries;

	meet_b(&a);
	for (tries = 0; tries < 5 && !cork_run(&a, CORK + 5, &posted, &progressed); tries++)
		;
	CU_ASSERT_EQUAL(posted, CORK);
	CU_ASSERT_EQUAL(progressed, CORK + 1);
	/* a bundle's worth goes at once: 200 messages in far fewer packets */
	for (tries = 0; tries < 5 && !cork_run(&a, CORK + 200, &posted, &progressed); tries++)
		;
	printf("\n    %u messages: %" PRIu64 " packets while posted, %" PRIu64 " after a "
	       "progress call\n", CORK + 200, posted, progressed);
	CU_ASSERT(posted > CORK && posted <= CORK + 200 / 8);
	CU_ASSERT(progressed > posted && progressed <= posted + 1);

	setenv("FI_DPDK_RDM_AUTOCORK", "4097", 1);
	CU_ASSERT_EQUAL(fi_endpoint(td.domain, td.info, &ep, NULL), -FI_EINVAL);
	CU_ASSERT_PTR_NULL(ep);
	setenv("FI_DPDK_RDM_AUTOCORK", "0", 1);
	CU_ASSERT_EQUAL_FATAL(node_open(&d), 0);
	unsetenv("FI_DPDK_RDM_AUTOCORK");
	meet_b(&d);
	for (tries = 0; tries < 5 && !cork_run(&d, CORK + 5, &posted, &progressed); tries++)
		;
	CU_ASSERT_EQUAL(posted, CORK + 5);
	CU_ASSERT_EQUAL(progressed, CORK + 5);
	test_node_close(&d);
}

/*
 * b's one progress call on 8 waiting packets of a message each, with k
 * receives posted: @return the packets it took in, the completions in *done.
 * false in *clean when the domain's watchdog progressed b in between.
 */
static uint64_t
burst_run(unsigned int k, struct fi_context *r, unsigned int *done, bool *clean)
{
	struct fi_dpdk_ep_stats b0, b1;
	struct fi_cq_tagged_entry e[8];
	unsigned int i;
	ssize_t ret;

	spin(2);	/* none in flight: the 8 leave at once (autocorking) */
	for (i = 0; i < 8; i++) {
		test_fill(out + i * CORK_MSG, CORK_MSG, i + 11);
		CU_ASSERT_EQUAL_FATAL(fi_inject(a.ep, out + i * CORK_MSG, CORK_MSG, b.addr), 0);
	}
	for (i = 0; i < k; i++)
		CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in + i * CORK_MSG, CORK_MSG, NULL,
					      FI_ADDR_UNSPEC, &r[i]), 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(b.ep, &b0), 0);
	ret = fi_cq_read(b.cq, e, RTE_DIM(e));
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(b.ep, &b1), 0);
	*done = ret > 0 ? (unsigned int)ret : 0;
	*clean = b1.progress_rescues == b0.progress_rescues;
	return b1.rx_pkts - b0.rx_pkts;
}

/* The rest of burst_run()'s messages, received at b: all of them in order. */
static void
burst_rest(unsigned int k, struct fi_context *r, unsigned int done)
{
	struct fi_cq_tagged_entry e;
	unsigned int i, bad = 0;

	for (i = done; i < k; i++)
		bad += wait_ctx(&b, &r[i], &e, NULL) != 1;
	for (i = k; i < 8; i++) {
		CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in + i * CORK_MSG, CORK_MSG, NULL,
					      FI_ADDR_UNSPEC, &r[i]), 0);
		bad += wait_ctx(&b, &r[i], &e, NULL) != 1;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(memcmp(in, out, 8 * CORK_MSG) == 0);
}

/*
 * b's one progress call on a message of three packets (4000 bytes over the
 * loopback's 1384-byte segments) and one of one packet after it, with one
 * receive posted: @return the packets it took in, its completions in
 * *done; the rest is received, every byte checked. false in *clean when
 * the domain's watchdog progressed b in between.
 */
static uint64_t
burst_midway(unsigned int *done, bool *clean)
{
	struct fi_dpdk_ep_stats b0, b1;
	struct fi_cq_tagged_entry e[4];
	struct fi_context s, r;
	ssize_t ret;

	spin(2);
	test_fill(out, 4000 + CORK_MSG, 17);
	memset(in, 0, 4000 + CORK_MSG);
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, out, 4000, NULL, b.addr, &s), 0);
	CU_ASSERT_EQUAL_FATAL(fi_inject(a.ep, out + 4000, CORK_MSG, b.addr), 0);
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in, 4000, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(b.ep, &b0), 0);
	ret = fi_cq_read(b.cq, e, RTE_DIM(e));
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(b.ep, &b1), 0);
	*done = ret > 0 ? (unsigned int)ret : 0;
	*clean = b1.progress_rescues == b0.progress_rescues;
	if (*done == 0)
		CU_ASSERT_EQUAL(wait_ctx(&b, &r, e, NULL), 1);
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, in + 4000, CORK_MSG, NULL, FI_ADDR_UNSPEC, &r), 0);
	CU_ASSERT_EQUAL(wait_ctx(&b, &r, e, NULL), 1);
	CU_ASSERT_EQUAL(wait_ctx(&a, &s, e, NULL), 1);
	CU_ASSERT(memcmp(in, out, 4000 + CORK_MSG) == 0);
	return b1.rx_pkts - b0.rx_pkts;
}

/*
 * A burst that uses up the posted receives stops there: with 4 receives
 * posted and 8 messages waiting, one progress call takes in 4 packets and
 * completes the 4 receives; the other 4 wait, neither buffered as
 * unexpected nor refused, until the next receives are posted. A burst that
 * finds no receive posted is taken in whole, as unexpected messages, and
 * so is the rest of a message whose receive was the last.
 */
static void
test_burst_stops(void)
{
	struct fi_dpdk_ep_stats b0, b1;
	struct fi_context r[8];
	unsigned int done = 0;
	uint64_t took = 0;
	bool clean = false;
	int tries;

	meet_b(&a);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(b.ep, &b0), 0);
	for (tries = 0; tries < 5 && !clean; tries++) {
		took = burst_run(4, r, &done, &clean);
		burst_rest(4, r, done);
	}
	CU_ASSERT_EQUAL(took, 4);
	CU_ASSERT_EQUAL(done, 4);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(b.ep, &b1), 0);
	CU_ASSERT_EQUAL(b1.rnr_sent, b0.rnr_sent);
	clean = false;
	for (tries = 0; tries < 5 && !clean; tries++) {
		took = burst_run(0, r, &done, &clean);
		burst_rest(0, r, done);
	}
	CU_ASSERT_EQUAL(took, 8);
	CU_ASSERT_EQUAL(done, 0);
	clean = false;
	for (tries = 0; tries < 5 && !clean; tries++)
		took = burst_midway(&done, &clean);
	CU_ASSERT_EQUAL(took, 3);
	CU_ASSERT_EQUAL(done, 1);
}

/* One hop of an inject ping-pong: from sends 64 bytes to, which takes them
 * into the receive it had posted and posts the next; 1 when all went well. */
static int
inject_hop(struct test_node *from, struct test_node *to, struct fi_context *rx, uint32_t seed,
	   unsigned int *refused)
{
	struct fi_cq_err_entry err = { 0 };
	struct fi_cq_tagged_entry e;
	ssize_t ret;

	test_fill(out, 64, seed);
	ret = fi_inject(from->ep, out, 64, to->addr);
	*refused += ret == -FI_EAGAIN;
	if (ret != 0 || wait_one(to, &e, NULL, &err) != 1 || e.op_context != rx || e.len != 64 ||
	    memcmp(in, out, 64) != 0)
		return 0;
	return fi_recv(to->ep, in, 64, NULL, FI_ADDR_UNSPEC, rx) == 0;
}

/*
 * Endpoints without a send counter, whose injects nobody waits on: the ack
 * an answer carries waits for the next progress call (rdm_conn.c,
 * ack_settle()). An fi_inject() ping-pong with a transmit queue of one
 * operation still posts every message at once: the one send the queue
 * holds, acknowledged by the answer just taken, is released when the next
 * post needs its place. One packet a message each way, every message intact,
 * every one sent at once with its packet kept (rdm_conn_inject()).
 */
static void
test_acks_later(void)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 64 };
	struct test_domain small = { fi_dupinfo(td.info), td.fabric, td.domain };
	struct fi_dpdk_ep_stats xs[2], ys[2];
	struct test_node x = { 0 }, y = { 0 };
	struct fi_context rx, ry;
	unsigned int i, good = 0, refused = 0;

	CU_ASSERT_FATAL(small.info != NULL);
	small.info->tx_attr->size = 1;
	/* no counter: nothing waits on an inject; a probe timeout far above
	 * the round trip, so that a thread put off the CPU between a send and
	 * its answer (ASan, tests beside it) sends nothing again */
	setenv("FI_DPDK_RDM_PTO_MIN_US", "200000", 1);
	CU_ASSERT_EQUAL_FATAL(test_node_open_attr(&x, &small, av, &cq_attr, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(test_node_open_attr(&y, &small, av, &cq_attr, NULL), 0);
	unsetenv("FI_DPDK_RDM_PTO_MIN_US");
	fi_freeinfo(small.info);
	CU_ASSERT_EQUAL_FATAL(fi_recv(x.ep, in, 64, NULL, FI_ADDR_UNSPEC, &rx), 0);
	CU_ASSERT_EQUAL_FATAL(fi_recv(y.ep, in, 64, NULL, FI_ADDR_UNSPEC, &ry), 0);
	/* the first round trip connects the two */
	CU_ASSERT_FATAL(inject_hop(&x, &y, &ry, 0, &refused) && inject_hop(&y, &x, &rx, 1, &refused));
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(x.ep, &xs[0]), 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(y.ep, &ys[0]), 0);
	for (i = 0; i < ACKS_LATER_ROUNDS; i++)
		good += inject_hop(&x, &y, &ry, 2 * i + 2, &refused) &&
			inject_hop(&y, &x, &rx, 2 * i + 3, &refused);
	CU_ASSERT_EQUAL(good, ACKS_LATER_ROUNDS);
	CU_ASSERT_EQUAL(refused, 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(x.ep, &xs[1]), 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(y.ep, &ys[1]), 0);
	CU_ASSERT_EQUAL(xs[1].tx_pkts - xs[0].tx_pkts, ACKS_LATER_ROUNDS);
	CU_ASSERT_EQUAL(ys[1].tx_pkts - ys[0].tx_pkts, ACKS_LATER_ROUNDS);
	CU_ASSERT_EQUAL(xs[1].tx_retransmits + ys[1].tx_retransmits, 0);
	/* each went at once, its packet kept until the answer acknowledged it */
	CU_ASSERT_EQUAL(xs[1].injects_kept - xs[0].injects_kept, ACKS_LATER_ROUNDS);
	CU_ASSERT_EQUAL(ys[1].injects_kept - ys[0].injects_kept, ACKS_LATER_ROUNDS);
	test_node_close(&x);
	test_node_close(&y);
}

static CU_TestInfo rdm_tests[] = {
	{ "every size to 3 MiB, data and source checked", test_sizes_up_to_big },
	{ "tag and ignore matching, tagged and untagged apart", test_tagged_matching },
	{ "unexpected messages keep their order", test_unexpected_keep_order },
	{ "FI_PEEK, FI_CLAIM, FI_DISCARD", test_peek_claim_discard },
	{ "FI_DIRECTED_RECV and FI_SOURCE", test_directed_recv_and_source },
	{ "remote CQ data, inject, bad sends", test_data_and_inject },
	{ "delivery, transmit and inject complete", test_completion_semantics },
	{ "FI_MULTI_RECV", test_multi_recv },
	{ "cancel and truncation", test_cancel_and_truncation },
	{ "posted receives keep their order", test_posted_order },
	{ "zero-length messages, NULL iov", test_zero_length },
	{ "too large to buffer: refused until received, seen by FI_PEEK", test_large_unexpected },
	{ "a peer's fi_close fails what waits on it, at once", test_peer_close },
	{ "injects sent at once fail with their peer: error completions, counted",
	  test_kept_injects_fail },
	{ "FI_MORE bundles small messages; a bundle refused midway", test_bundles },
	{ "statistics for callers built with a smaller or larger structure", test_stats_sized },
	{ "bundled messages into posted receives, the rest unexpected", test_bundles_posted },
	{ "a destination removed from the AV is refused, inserted again reached",
	  test_removed_destination },
	{ "a window not a power of 2 is refused, and nothing kept", test_bad_window },
	{ "a peer that opens late is tried every millisecond, then reached", test_late_peer },
	{ "autocorking: small messages behind a full pipe share packets", test_autocork },
	{ "a burst stops where the posted receives run out", test_burst_stops },
	{ "an answer's ack waits for the next call; a queue of one still takes every inject",
	  test_acks_later },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "rdm", suite_init, suite_clean, NULL, NULL, rdm_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	test_env_setup(TEST_EAL_BASE " --vdev=net_ring0");
	return test_run(suites);
}
