/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Shared contexts in one process, on one net_ring port: two endpoints, a
 * and b, bound to one shared transmit and one shared receive context, and
 * two plain senders. Receives posted to the shared context take messages
 * that arrive on either endpoint, expected or not, and complete on the CQ
 * of the endpoint each arrived on; FI_DIRECTED_RECV and tags choose among
 * them; fi_cancel() reports to the context's CQ; the transmit context's size
 * bounds the operations in flight on both endpoints together. Every refusal:
 * attributes beyond the port's or the context's, a context bound twice, to
 * an endpoint that did not ask, after fi_enable(), an endpoint enabled
 * without its context or with another AV, a context closed before its
 * endpoints, receives posted to an endpoint instead of its context. An
 * endpoint closed with unexpected messages in the shared queue takes them
 * with it. RDM, then DGRAM.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_tagged.h>

#include "test_util.h"

#define TIMEOUT_MS	2000
#define MSG_LEN		64
#define STX_SIZE	4
#define RTE_DIM(a)	(sizeof(a) / sizeof((a)[0]))

static struct test_domain td;
static struct fid_av *av;
static struct test_node s1, s2;		/* plain senders */
static struct fid_stx *stx;
static struct fid_ep *srx;
static struct fid_cq *srx_cq;		/* fi_cancel()'s reports */

/* An endpoint on the shared contexts, with a CQ of its own. */
struct shared_ep {
	struct fid_ep *ep;
	struct fid_cq *cq;
	fi_addr_t addr;
};

static struct shared_ep a, b;

/* td's info for an endpoint on shared contexts (tx, rx: which), tx_size deep. */
static struct fi_info *
shared_info(bool tx, bool rx, size_t tx_size)
{
	struct fi_info *info = fi_dupinfo(td.info);

	if (info == NULL)
		return NULL;
	if (tx)
		info->ep_attr->tx_ctx_cnt = FI_SHARED_CONTEXT;
	if (rx)
		info->ep_attr->rx_ctx_cnt = FI_SHARED_CONTEXT;
	info->tx_attr->size = tx_size;
	return info;
}

/* Opens e bound to the AV, its CQ and both shared contexts, unless NULL; enabled if asked. */
static int
shared_ep_open(struct shared_ep *e, struct fid_av *with_av, bool enable)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 64 };
	struct fi_info *info = shared_info(true, true, STX_SIZE);
	char name[64];
	size_t len = sizeof(name);
	int ret;

	memset(e, 0, sizeof(*e));
	ret = info != NULL ? fi_endpoint(td.domain, info, &e->ep, NULL) : -FI_ENOMEM;
	fi_freeinfo(info);
	ret = ret ? ret : fi_cq_open(td.domain, &cq_attr, &e->cq, NULL);
	ret = ret ? ret : fi_ep_bind(e->ep, &with_av->fid, 0);
	ret = ret ? ret : fi_ep_bind(e->ep, &e->cq->fid, FI_TRANSMIT | FI_RECV);
	ret = ret ? ret : fi_ep_bind(e->ep, &stx->fid, 0);
	ret = ret ? ret : fi_ep_bind(e->ep, &srx->fid, 0);
	if (ret != 0 || !enable)
		return ret;
	ret = fi_enable(e->ep);
	ret = ret ? ret : fi_getname(&e->ep->fid, name, &len);
	return ret ? ret : (fi_av_insert(with_av, name, 1, &e->addr, 0, NULL) == 1 ? 0 : -1);
}

/* @return fi_close()'s result on the endpoint. */
static int
shared_ep_close(struct shared_ep *e)
{
	int ret = e->ep != NULL ? fi_close(&e->ep->fid) : 0;

	if (e->cq != NULL)
		fi_close(&e->cq->fid);
	memset(e, 0, sizeof(*e));
	return ret;
}

static int
suite_open(enum fi_ep_type type, uint64_t caps)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 64 };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct fi_tx_attr tx_attr;

	if (test_domain_open(&td, type, FI_SOCKADDR_IN, caps | FI_SOURCE) != 0 ||
	    fi_av_open(td.domain, &av_attr, &av, NULL) != 0 ||
	    test_node_open(&s1, &td, av, &cq_attr, FI_WAIT_UNSPEC) != 0 ||
	    test_node_open(&s2, &td, av, &cq_attr, FI_WAIT_UNSPEC) != 0)
		return 1;
	tx_attr = *td.info->tx_attr;
	tx_attr.size = STX_SIZE;	/* a's and b's in flight, together */
	if (fi_stx_context(td.domain, &tx_attr, &stx, NULL) != 0 ||
	    fi_srx_context(td.domain, NULL, &srx, NULL) != 0 ||
	    fi_cq_open(td.domain, &cq_attr, &srx_cq, NULL) != 0 ||
	    fi_ep_bind(srx, &srx_cq->fid, FI_RECV) != 0)
		return 1;
	return shared_ep_open(&a, av, true) != 0 || shared_ep_open(&b, av, true) != 0;
}

static int
suite_rdm(void)
{
	return suite_open(FI_EP_RDM, FI_MSG | FI_TAGGED | FI_DIRECTED_RECV);
}

static int
suite_dgram(void)
{
	return suite_open(FI_EP_DGRAM, FI_MSG);
}

static int
suite_clean(void)
{
	shared_ep_close(&a);
	shared_ep_close(&b);
	if (srx != NULL)
		fi_close(&srx->fid);
	if (srx_cq != NULL)
		fi_close(&srx_cq->fid);
	if (stx != NULL)
		fi_close(&stx->fid);
	srx = NULL;
	srx_cq = NULL;
	stx = NULL;
	test_node_close(&s1);
	test_node_close(&s2);
	if (av != NULL)
		fi_close(&av->fid);
	av = NULL;
	test_domain_close(&td);
	return 0;
}

/* Progresses everything once: the senders' acknowledgements, a's and b's packets. */
static void
progress_all(void)
{
	struct fid_cq *cqs[] = { s1.cq, s2.cq, a.cq, b.cq };
	size_t i;

	for (i = 0; i < RTE_DIM(cqs); i++) {
		if (cqs[i] != NULL)	/* a is closed for a while */
			fi_cq_read(cqs[i], NULL, 0);
	}
}

/* One completion of cq, progressing everything meanwhile. */
static ssize_t
wait_one(struct fid_cq *cq, struct fi_cq_tagged_entry *e, fi_addr_t *src)
{
	struct fid_cq *others[] = { s1.cq, s2.cq, a.cq, b.cq };	/* a is closed for a while */
	struct fi_cq_err_entry err = { 0 };
	fi_addr_t ignored;

	return test_cq_wait_from(cq, e, src != NULL ? src : &ignored, &err, others,
				 RTE_DIM(others), TIMEOUT_MS);
}

/* The send completions of a plain sender, n of them. */
static void
wait_sent(struct test_node *n, int count)
{
	struct fi_cq_tagged_entry e;
	int i;

	for (i = 0; i < count; i++)
		CU_ASSERT_EQUAL(wait_one(n->cq, &e, NULL), 1);
}

/* Spins progress for ms milliseconds: what is on its way arrives. */
static void
settle(int ms)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (test_ms_since(&t0) < ms)
		progress_all();
}

static ssize_t
send_to(struct test_node *from, fi_addr_t to, uint8_t *buf, unsigned int seed, bool tagged,
	uint64_t tag)
{
	test_fill(buf, MSG_LEN, seed);
	return tagged ? fi_tsend(from->ep, buf, MSG_LEN, NULL, to, tag, buf) :
			fi_send(from->ep, buf, MSG_LEN, NULL, to, buf);
}

/* A receive completion on cq: of context ctx, from src, with seed's bytes in buf. */
static void
expect_recv(struct fid_cq *cq, void *ctx, fi_addr_t src, const uint8_t *buf, unsigned int seed)
{
	struct fi_cq_tagged_entry e;
	uint8_t want[MSG_LEN];
	fi_addr_t from = FI_ADDR_NOTAVAIL;

	CU_ASSERT_EQUAL_FATAL(wait_one(cq, &e, &from), 1);
	CU_ASSERT_PTR_EQUAL(e.op_context, ctx);
	CU_ASSERT((e.flags & FI_RECV) != 0);
	CU_ASSERT_EQUAL(e.len, MSG_LEN);
	CU_ASSERT_EQUAL(from, src);
	test_fill(want, MSG_LEN, seed);
	CU_ASSERT_EQUAL(memcmp(buf, want, MSG_LEN), 0);
}

/* -- attributes -- */

static void
test_attributes(void)
{
	struct fi_info *hints = fi_dupinfo(td.info), *info = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hints);
	CU_ASSERT(td.info->domain_attr->max_ep_stx_ctx >= 2);
	CU_ASSERT(td.info->domain_attr->max_ep_srx_ctx >= 2);
	hints->ep_attr->tx_ctx_cnt = FI_SHARED_CONTEXT;
	hints->ep_attr->rx_ctx_cnt = FI_SHARED_CONTEXT;
	CU_ASSERT_EQUAL(test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info), 0);
	CU_ASSERT(info != NULL && info->ep_attr->tx_ctx_cnt == FI_SHARED_CONTEXT &&
		  info->ep_attr->rx_ctx_cnt == FI_SHARED_CONTEXT);
	fi_freeinfo(info);
	info = NULL;
	hints->domain_attr->max_ep_srx_ctx = td.info->domain_attr->max_ep_srx_ctx + 1;
	CU_ASSERT_EQUAL(test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info),
			-FI_ENODATA);
	fi_freeinfo(info);
	fi_freeinfo(hints);
	CU_ASSERT_EQUAL(stx->fid.fclass, FI_CLASS_STX_CTX);
	CU_ASSERT_EQUAL(srx->fid.fclass, FI_CLASS_SRX_CTX);
}

/* -- refusals -- */

static void
test_context_attr_refused(void)
{
	struct fi_tx_attr ta = *td.info->tx_attr;
	struct fi_rx_attr ra = *td.info->rx_attr;
	struct fid_stx *s = NULL;
	struct fid_ep *r = NULL;

	ta.size = td.info->tx_attr->size + 1;
	CU_ASSERT_EQUAL(fi_stx_context(td.domain, &ta, &s, NULL), -FI_EINVAL);
	ta = *td.info->tx_attr;
	ta.inject_size = td.info->tx_attr->inject_size + 1;
	CU_ASSERT_EQUAL(fi_stx_context(td.domain, &ta, &s, NULL), -FI_EINVAL);
	ra.size = td.info->rx_attr->size + 1;
	CU_ASSERT_EQUAL(fi_srx_context(td.domain, &ra, &r, NULL), -FI_EINVAL);
	ra = *td.info->rx_attr;
	ra.caps = FI_RMA | FI_REMOTE_WRITE;	/* nothing of a receive queue */
	CU_ASSERT_EQUAL(fi_srx_context(td.domain, &ra, &r, NULL), -FI_EINVAL);
	CU_ASSERT_PTR_NULL(s);
	CU_ASSERT_PTR_NULL(r);
	CU_ASSERT_EQUAL(fi_stx_context(td.domain, NULL, NULL, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_srx_context(td.domain, NULL, NULL, NULL), -FI_EINVAL);
}

static void
test_bind_refused(void)
{
	struct fi_info *info = shared_info(false, false, STX_SIZE);
	struct fid_ep *plain = NULL;
	struct fi_tx_attr ta = *td.info->tx_attr;
	struct fid_stx *small = NULL;
	struct shared_ep e;

	/* an endpoint that did not ask for shared contexts takes none */
	CU_ASSERT_EQUAL_FATAL(fi_endpoint(td.domain, info, &plain, NULL), 0);
	CU_ASSERT_EQUAL(fi_ep_bind(plain, &srx->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_ep_bind(plain, &stx->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_close(&plain->fid), 0);
	fi_freeinfo(info);
	/* bound once, without flags, before fi_enable() */
	CU_ASSERT_EQUAL_FATAL(shared_ep_open(&e, av, false), 0);
	CU_ASSERT_EQUAL(fi_ep_bind(e.ep, &srx->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_ep_bind(e.ep, &stx->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(shared_ep_close(&e), 0);
	info = shared_info(true, true, STX_SIZE);
	CU_ASSERT_EQUAL_FATAL(fi_endpoint(td.domain, info, &plain, NULL), 0);
	CU_ASSERT_EQUAL(fi_ep_bind(plain, &srx->fid, FI_RECV), -FI_EBADFLAGS);
	/* an endpoint deeper than its transmit context */
	ta.size = STX_SIZE - 1;
	CU_ASSERT_EQUAL_FATAL(fi_stx_context(td.domain, &ta, &small, NULL), 0);
	CU_ASSERT_EQUAL(fi_ep_bind(plain, &small->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_close(&small->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&plain->fid), 0);
	fi_freeinfo(info);
	/* after fi_enable() */
	CU_ASSERT_EQUAL(fi_ep_bind(a.ep, &srx->fid, 0), -FI_EOPBADSTATE);
	/* a shared receive context takes a CQ, once, and nothing else */
	CU_ASSERT_EQUAL(fi_ep_bind(srx, &srx_cq->fid, FI_RECV), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_ep_bind(srx, &av->fid, 0), -FI_EINVAL);
}

static void
test_enable_refused(void)
{
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 8 };
	struct fi_info *info = shared_info(false, true, STX_SIZE);
	struct fid_av *other = NULL;
	struct fid_ep *ep = NULL;
	struct fid_cq *cq = NULL;
	struct shared_ep e;

	/* FI_SHARED_CONTEXT, and no context bound */
	CU_ASSERT_EQUAL_FATAL(fi_endpoint(td.domain, info, &ep, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_cq_open(td.domain, &cq_attr, &cq, NULL), 0);
	CU_ASSERT_EQUAL(fi_ep_bind(ep, &av->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV), 0);
	CU_ASSERT_EQUAL(fi_enable(ep), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_send(ep, "x", 1, NULL, s1.addr, NULL), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_close(&ep->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&cq->fid), 0);
	fi_freeinfo(info);
	/* the endpoints of a shared receive context share their AV */
	CU_ASSERT_EQUAL_FATAL(fi_av_open(td.domain, &av_attr, &other, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(shared_ep_open(&e, other, false), 0);
	CU_ASSERT_EQUAL(fi_enable(e.ep), -FI_EINVAL);
	CU_ASSERT_EQUAL(shared_ep_close(&e), 0);
	CU_ASSERT_EQUAL(fi_close(&other->fid), 0);
}

static void
test_misuse_refused(void)
{
	uint8_t buf[MSG_LEN];
	struct fid_ep *r = NULL;

	/* a context outlives its endpoints */
	CU_ASSERT_EQUAL(fi_close(&srx->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&stx->fid), -FI_EBUSY);
	/* receives are the context's; sends the endpoints' */
	CU_ASSERT_EQUAL(fi_recv(a.ep, buf, sizeof(buf), NULL, FI_ADDR_UNSPEC, NULL),
			-FI_EOPNOTSUPP);
	CU_ASSERT_EQUAL(fi_send(srx, buf, sizeof(buf), NULL, s1.addr, NULL), -FI_ENOSYS);
	CU_ASSERT_EQUAL(fi_cancel(&srx->fid, &r), -FI_ENOENT);
	/* fi_cancel() on a context without a CQ has nowhere to report */
	CU_ASSERT_EQUAL_FATAL(fi_srx_context(td.domain, NULL, &r, NULL), 0);
	CU_ASSERT_EQUAL(fi_recv(r, buf, sizeof(buf), NULL, FI_ADDR_UNSPEC, buf), 0);
	CU_ASSERT_EQUAL(fi_cancel(&r->fid, buf), -FI_ENOCQ);
	CU_ASSERT_EQUAL(fi_close(&r->fid), 0);	/* its receive goes with it */
}

static void
test_peek_refused(void)
{
	struct fi_msg_tagged msg = { .tag = 1, .context = &msg };

	CU_ASSERT_EQUAL(fi_trecvmsg(srx, &msg, FI_PEEK), -FI_EOPNOTSUPP);
	CU_ASSERT_EQUAL(fi_trecvmsg(srx, &msg, FI_CLAIM), -FI_EOPNOTSUPP);
	CU_ASSERT_EQUAL(fi_trecvmsg(srx, &msg, 1ULL << 55), -FI_EBADFLAGS);
}

/* -- receives -- */

/* Messages to a and to b fill the context's receives in posting order. */
static void
test_expected(void)
{
	uint8_t rx[2][MSG_LEN], tx[2][MSG_LEN];

	CU_ASSERT_EQUAL(fi_recv(srx, rx[0], MSG_LEN, NULL, FI_ADDR_UNSPEC, rx[0]), 0);
	CU_ASSERT_EQUAL(fi_recv(srx, rx[1], MSG_LEN, NULL, FI_ADDR_UNSPEC, rx[1]), 0);
	CU_ASSERT_EQUAL(send_to(&s1, a.addr, tx[0], 1, false, 0), 0);
	expect_recv(a.cq, rx[0], s1.addr, rx[0], 1);
	CU_ASSERT_EQUAL(send_to(&s2, b.addr, tx[1], 2, false, 0), 0);
	expect_recv(b.cq, rx[1], s2.addr, rx[1], 2);
	wait_sent(&s1, 1);
	wait_sent(&s2, 1);
}

/* Messages waiting on a and b are taken by receives posted to the context later. */
static void
test_unexpected(void)
{
	uint8_t rx[2][MSG_LEN], tx[2][MSG_LEN];

	CU_ASSERT_EQUAL(send_to(&s1, b.addr, tx[0], 3, false, 0), 0);
	settle(10);
	CU_ASSERT_EQUAL(send_to(&s2, a.addr, tx[1], 4, false, 0), 0);
	settle(10);
	CU_ASSERT_EQUAL(fi_recv(srx, rx[0], MSG_LEN, NULL, FI_ADDR_UNSPEC, rx[0]), 0);
	CU_ASSERT_EQUAL(fi_recv(srx, rx[1], MSG_LEN, NULL, FI_ADDR_UNSPEC, rx[1]), 0);
	/* arrival order: s1's to b first */
	expect_recv(b.cq, rx[0], s1.addr, rx[0], 3);
	expect_recv(a.cq, rx[1], s2.addr, rx[1], 4);
	wait_sent(&s1, 1);
	wait_sent(&s2, 1);
}

/* A receive for s2 alone is passed over by s1's message, posted or waiting. */
static void
test_directed(void)
{
	uint8_t rx[4][MSG_LEN], tx[4][MSG_LEN];

	CU_ASSERT_EQUAL(fi_recv(srx, rx[0], MSG_LEN, NULL, s2.addr, rx[0]), 0);
	CU_ASSERT_EQUAL(fi_recv(srx, rx[1], MSG_LEN, NULL, FI_ADDR_UNSPEC, rx[1]), 0);
	CU_ASSERT_EQUAL(send_to(&s1, a.addr, tx[0], 5, false, 0), 0);
	expect_recv(a.cq, rx[1], s1.addr, rx[1], 5);
	CU_ASSERT_EQUAL(send_to(&s2, b.addr, tx[1], 6, false, 0), 0);
	expect_recv(b.cq, rx[0], s2.addr, rx[0], 6);
	/* waiting: s1's then s2's, and a receive for s2 takes s2's */
	CU_ASSERT_EQUAL(send_to(&s1, b.addr, tx[2], 7, false, 0), 0);
	settle(10);
	CU_ASSERT_EQUAL(send_to(&s2, a.addr, tx[3], 8, false, 0), 0);
	settle(10);
	CU_ASSERT_EQUAL(fi_recv(srx, rx[2], MSG_LEN, NULL, s2.addr, rx[2]), 0);
	expect_recv(a.cq, rx[2], s2.addr, rx[2], 8);
	CU_ASSERT_EQUAL(fi_recv(srx, rx[3], MSG_LEN, NULL, FI_ADDR_UNSPEC, rx[3]), 0);
	expect_recv(b.cq, rx[3], s1.addr, rx[3], 7);
	wait_sent(&s1, 2);
	wait_sent(&s2, 2);
}

/* Tags choose as on an endpoint's own queue, and an untagged receive takes no tagged message. */
static void
test_tagged(void)
{
	uint8_t rx[3][MSG_LEN], tx[2][MSG_LEN];
	struct fi_cq_tagged_entry e;

	CU_ASSERT_EQUAL(fi_recv(srx, rx[2], MSG_LEN, NULL, FI_ADDR_UNSPEC, rx[2]), 0);
	CU_ASSERT_EQUAL(fi_trecv(srx, rx[0], MSG_LEN, NULL, FI_ADDR_UNSPEC, 0x10, 0, rx[0]), 0);
	CU_ASSERT_EQUAL(fi_trecv(srx, rx[1], MSG_LEN, NULL, FI_ADDR_UNSPEC, 0x20, 0xf, rx[1]),
			0);
	CU_ASSERT_EQUAL(send_to(&s1, b.addr, tx[0], 9, true, 0x27), 0);
	expect_recv(b.cq, rx[1], s1.addr, rx[1], 9);
	CU_ASSERT_EQUAL(send_to(&s2, a.addr, tx[1], 10, true, 0x10), 0);
	expect_recv(a.cq, rx[0], s2.addr, rx[0], 10);
	wait_sent(&s1, 1);
	wait_sent(&s2, 1);
	/* the untagged receive is still there: cancelled, to the context's CQ */
	CU_ASSERT_EQUAL(fi_cancel(&srx->fid, rx[2]), 0);
	CU_ASSERT_EQUAL(fi_cq_read(srx_cq, &e, 1), -FI_EAVAIL);
	{
		struct fi_cq_err_entry err = { 0 };

		CU_ASSERT_EQUAL(fi_cq_readerr(srx_cq, &err, 0), 1);
		CU_ASSERT_EQUAL(err.err, FI_ECANCELED);
		CU_ASSERT_PTR_EQUAL(err.op_context, rx[2]);
	}
	CU_ASSERT_EQUAL(fi_cancel(&srx->fid, rx[2]), -FI_ENOENT);
}

/*
 * The transmit context's size bounds a's and b's sends together: STX_SIZE in
 * flight while the receivers are not progressed, then none until one
 * completes.
 */
static void
test_stx_size(void)
{
	uint8_t tx[STX_SIZE + 1][MSG_LEN] = { { 0 } }, rx[MSG_LEN];
	struct fi_cq_tagged_entry e;
	int i, done;

	for (i = 0; i < STX_SIZE; i++)
		CU_ASSERT_EQUAL(fi_send(i % 2 ? b.ep : a.ep, tx[i], MSG_LEN, NULL, s1.addr, tx[i]),
				0);
	CU_ASSERT_EQUAL(fi_send(a.ep, tx[i], MSG_LEN, NULL, s1.addr, tx[i]), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_send(b.ep, tx[i], MSG_LEN, NULL, s2.addr, tx[i]), -FI_EAGAIN);
	/* s1 takes them in (posting one receive, then the rest unexpected) */
	CU_ASSERT_EQUAL(fi_recv(s1.ep, rx, MSG_LEN, NULL, FI_ADDR_UNSPEC, rx), 0);
	for (done = 0; done < STX_SIZE / 2; done++)
		CU_ASSERT_EQUAL(wait_one(a.cq, &e, NULL), 1);
	for (done = 0; done < STX_SIZE / 2; done++)
		CU_ASSERT_EQUAL(wait_one(b.cq, &e, NULL), 1);
	CU_ASSERT_EQUAL(fi_send(b.ep, tx[i], MSG_LEN, NULL, s1.addr, tx[i]), 0);
	CU_ASSERT_EQUAL(wait_one(b.cq, &e, NULL), 1);
	/* s1's receive and the rest, unexpected there */
	CU_ASSERT_EQUAL(wait_one(s1.cq, &e, NULL), 1);
	for (i = 0; i < STX_SIZE; i++) {
		CU_ASSERT_EQUAL(fi_recv(s1.ep, rx, MSG_LEN, NULL, FI_ADDR_UNSPEC, rx), 0);
		CU_ASSERT_EQUAL(wait_one(s1.cq, &e, NULL), 1);
	}
}

/*
 * a closes with a message waiting for it in the shared queue: the message
 * goes with it, and b's, which came later, is the next receive's. a is
 * opened again for the suites after.
 */
static void
test_close_with_unexpected(void)
{
	uint8_t rx[MSG_LEN], tx[2][MSG_LEN];

	CU_ASSERT_EQUAL(send_to(&s1, a.addr, tx[0], 11, false, 0), 0);
	settle(10);
	CU_ASSERT_EQUAL(send_to(&s2, b.addr, tx[1], 12, false, 0), 0);
	settle(10);
	wait_sent(&s1, 1);
	CU_ASSERT_EQUAL(shared_ep_close(&a), 0);
	CU_ASSERT_EQUAL(fi_recv(srx, rx, MSG_LEN, NULL, FI_ADDR_UNSPEC, rx), 0);
	expect_recv(b.cq, rx, s2.addr, rx, 12);
	wait_sent(&s2, 1);
	CU_ASSERT_EQUAL(shared_ep_open(&a, av, true), 0);
}

/* -- DGRAM -- */

/* Datagrams fill the oldest receives, passing over a multi-receive buffer (RDM's). */
static void
test_dgram(void)
{
	uint8_t rx[3][MSG_LEN], tx[2][MSG_LEN], multi[4 * MSG_LEN];
	struct iovec iov = { .iov_base = multi, .iov_len = sizeof(multi) };
	struct fi_msg msg = { .msg_iov = &iov, .iov_count = 1, .context = multi };

	CU_ASSERT_EQUAL(fi_recvmsg(srx, &msg, FI_MULTI_RECV), 0);
	CU_ASSERT_EQUAL(fi_recv(srx, rx[0], MSG_LEN, NULL, FI_ADDR_UNSPEC, rx[0]), 0);
	CU_ASSERT_EQUAL(fi_recv(srx, rx[1], MSG_LEN, NULL, FI_ADDR_UNSPEC, rx[1]), 0);
	CU_ASSERT_EQUAL(fi_recv(srx, rx[2], MSG_LEN, NULL, FI_ADDR_UNSPEC, rx[2]), 0);
	CU_ASSERT_EQUAL(send_to(&s1, b.addr, tx[0], 13, false, 0), 0);
	expect_recv(b.cq, rx[0], s1.addr, rx[0], 13);
	CU_ASSERT_EQUAL(send_to(&s2, a.addr, tx[1], 14, false, 0), 0);
	expect_recv(a.cq, rx[1], s2.addr, rx[1], 14);
	wait_sent(&s1, 1);
	wait_sent(&s2, 1);
	CU_ASSERT_EQUAL(fi_cancel(&srx->fid, rx[2]), 0);
	CU_ASSERT_EQUAL(fi_cancel(&srx->fid, multi), 0);
	CU_ASSERT_EQUAL(fi_recv(a.ep, rx[2], MSG_LEN, NULL, FI_ADDR_UNSPEC, rx[2]),
			-FI_EOPNOTSUPP);
}

static CU_TestInfo rdm_tests[] = {
	{ "attributes", test_attributes },
	{ "context attributes refused", test_context_attr_refused },
	{ "binds refused", test_bind_refused },
	{ "fi_enable refused", test_enable_refused },
	{ "misuse refused", test_misuse_refused },
	{ "FI_PEEK and FI_CLAIM refused", test_peek_refused },
	{ "expected, on either endpoint", test_expected },
	{ "unexpected, on either endpoint", test_unexpected },
	{ "FI_DIRECTED_RECV", test_directed },
	{ "tagged, and fi_cancel", test_tagged },
	{ "the transmit context's size", test_stx_size },
	{ "closed with an unexpected message", test_close_with_unexpected },
	{ "expected again, a reopened", test_expected },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo dgram_tests[] = {
	{ "attributes", test_attributes },
	{ "binds refused", test_bind_refused },
	{ "misuse refused", test_misuse_refused },
	{ "datagrams on either endpoint", test_dgram },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "shared contexts, RDM", suite_rdm, suite_clean, NULL, NULL, rdm_tests },
	{ "shared contexts, DGRAM", suite_dgram, suite_clean, NULL, NULL, dgram_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	test_env_setup(TEST_EAL_BASE " --vdev=net_ring0");
	return test_run(suites);
}
