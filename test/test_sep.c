/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Scalable endpoints in one process, on one net_ring port: the attributes,
 * every refusal (counts past the port's queues, a context used before it is
 * enabled, opened twice, the endpoint closed before its contexts), named
 * receive contexts reached with fi_rx_addr(), FI_SOURCE naming the scalable
 * endpoint whichever context sent, RMA from a transmit context, and a
 * context closed and opened again; for RDM and DGRAM. An RDM endpoint's
 * close reaches the peer as one CLOSE per connection its contexts had.
 *
 * "threads MODEL N": two threads, each driving its own transmit context on
 * one side of a memif wire and its own receive context on the other (one
 * process, two ports), N messages each, every one checked in order, while
 * the ports drop, duplicate, reorder and corrupt frames (FI_DPDK_FAULT);
 * MODEL is the domain's threading, "completion", "fid" (each context its
 * own lock, guard.h) or "safe".
 */

#include <arpa/inet.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include "ep_stats.h"
#include "test_util.h"

#define TIMEOUT_MS	2000
#define RX_CTX_BITS	2

static struct test_domain td;
static struct fid_av *av;
static struct test_node peer;		/* a plain endpoint */
static enum fi_ep_type ep_type;

/* The scalable endpoint's name in the AV. */
static fi_addr_t
side_addr(struct fid_av *a, const struct test_sep *s)
{
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	fi_addr_t addr = FI_ADDR_NOTAVAIL;

	CU_ASSERT_EQUAL_FATAL(fi_getname(&s->sep->fid, &sin, &len), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_insert(a, &sin, 1, &addr, 0, NULL), 1);
	return addr;
}

static int
suite_open(enum fi_ep_type type, uint64_t caps)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 256 };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE, .rx_ctx_bits = RX_CTX_BITS };

	ep_type = type;
	if (test_domain_open(&td, type, FI_SOCKADDR_IN, caps | FI_SOURCE | FI_NAMED_RX_CTX) != 0 ||
	    fi_av_open(td.domain, &av_attr, &av, NULL) != 0)
		return 1;
	return test_node_open(&peer, &td, av, &cq_attr, FI_WAIT_UNSPEC) != 0;
}

static int
suite_rdm(void)
{
	return suite_open(FI_EP_RDM, FI_MSG | FI_TAGGED | FI_RMA | FI_DIRECTED_RECV);
}

static int
suite_dgram(void)
{
	return suite_open(FI_EP_DGRAM, FI_MSG);
}

static int
suite_clean(void)
{
	test_node_close(&peer);
	if (av != NULL)
		fi_close(&av->fid);
	av = NULL;
	test_domain_close(&td);
	return 0;
}

/* One completion of cq, progressing the peer as well; its source in *src. */
static ssize_t
wait_one(struct fid_cq *cq, struct fi_cq_tagged_entry *e, fi_addr_t *src)
{
	struct fi_cq_err_entry err = { 0 };
	struct fi_dpdk_ep_stats st;
	fi_addr_t ignored;
	ssize_t ret;

	/* the peer answers and acknowledges */
	ret = test_cq_wait_from(cq, e, src != NULL ? src : &ignored, &err, &peer.cq, 1,
				TIMEOUT_MS);
	if (ret == -FI_EAGAIN && ep_type == FI_EP_RDM && test_ep_stats(peer.ep, &st) == 0)
		fprintf(stderr, "wait_one: timed out; the peer sent %" PRIu64 " packets (%" PRIu64
			" again), took %" PRIu64 ", dropped %" PRIu64 " stale and %" PRIu64
			" unknown; connections reset %" PRIu64 ", closed %" PRIu64 "\n",
			st.tx_pkts, st.tx_retransmits, st.rx_pkts, st.rx_stale, st.rx_unknown,
			st.peers_reset, st.peers_closed);
	return ret;
}

/* -- attributes -- */

static void
test_attributes(void)
{
	const struct fi_domain_attr *d = td.info->domain_attr;
	struct fi_info *hints = fi_dupinfo(td.info), *info = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hints);
	/* net_ring offers 16 queue pairs: as many contexts each way */
	CU_ASSERT(d->max_ep_tx_ctx >= TEST_SEP_MAX_CTX && d->max_ep_tx_ctx == d->max_ep_rx_ctx);
	CU_ASSERT((td.info->caps & FI_NAMED_RX_CTX) != 0);
	hints->ep_attr->tx_ctx_cnt = d->max_ep_tx_ctx;
	hints->ep_attr->rx_ctx_cnt = 3;
	CU_ASSERT_EQUAL(test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info), 0);
	CU_ASSERT(info != NULL && info->ep_attr->tx_ctx_cnt == d->max_ep_tx_ctx &&
		  info->ep_attr->rx_ctx_cnt == 3);
	fi_freeinfo(info);
	info = NULL;
	hints->ep_attr->tx_ctx_cnt = d->max_ep_tx_ctx + 1;
	CU_ASSERT_EQUAL(test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info),
			-FI_ENODATA);
	fi_freeinfo(info);
	fi_freeinfo(hints);
}

/* -- refusals -- */

static void
test_refusals(void)
{
	struct fi_info *info = fi_dupinfo(td.info);
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED };
	struct fid_ep *sep, *tx, *rx, *other;
	struct fid_cq *cq;
	char buf[8] = "refused";

	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	/* more contexts than the port has queues */
	info->ep_attr->tx_ctx_cnt = td.info->domain_attr->max_ep_tx_ctx + 1;
	CU_ASSERT_EQUAL(fi_scalable_ep(td.domain, info, &sep, NULL), -FI_EINVAL);
	info->ep_attr->tx_ctx_cnt = 2;
	info->ep_attr->rx_ctx_cnt = td.info->domain_attr->max_ep_rx_ctx + 1;
	CU_ASSERT_EQUAL(fi_scalable_ep(td.domain, info, &sep, NULL), -FI_EINVAL);
	info->ep_attr->rx_ctx_cnt = 2;
	/* contexts are fi_scalable_ep()'s */
	CU_ASSERT_EQUAL(fi_endpoint(td.domain, info, &other, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_tx_context(peer.ep, 0, NULL, &other, NULL), -FI_ENOSYS);
	CU_ASSERT_EQUAL(fi_rx_context(peer.ep, 0, NULL, &other, NULL), -FI_ENOSYS);
	CU_ASSERT_EQUAL_FATAL(fi_scalable_ep(td.domain, info, &sep, NULL), 0);
	CU_ASSERT_EQUAL(sep->fid.fclass, FI_CLASS_SEP);
	/* no data through the endpoint itself, no AV yet, an AV only */
	CU_ASSERT_EQUAL(fi_send(sep, buf, 1, NULL, peer.addr, NULL), -FI_ENOSYS);
	CU_ASSERT_EQUAL(fi_enable(sep), -FI_ENOAV);
	CU_ASSERT_EQUAL_FATAL(fi_cq_open(td.domain, &cq_attr, &cq, NULL), 0);
	CU_ASSERT_EQUAL(fi_scalable_ep_bind(sep, &cq->fid, FI_TRANSMIT), -FI_EINVAL);
	/* indices past the counts */
	CU_ASSERT_EQUAL(fi_tx_context(sep, 2, NULL, &tx, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_rx_context(sep, -1, NULL, &rx, NULL), -FI_EINVAL);
	/* a context opened before the AV is bound gets it with the endpoint */
	CU_ASSERT_EQUAL_FATAL(fi_tx_context(sep, 1, NULL, &tx, NULL), 0);
	CU_ASSERT_EQUAL(tx->fid.fclass, FI_CLASS_TX_CTX);
	CU_ASSERT_EQUAL(fi_tx_context(sep, 1, NULL, &other, NULL), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_scalable_ep_bind(sep, &av->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_scalable_ep_bind(sep, &av->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_ep_bind(tx, &av->fid, 0), -FI_EINVAL);
	/* used before it is enabled */
	CU_ASSERT_EQUAL(fi_send(tx, buf, 1, NULL, peer.addr, NULL), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_ep_bind(tx, &cq->fid, FI_TRANSMIT), 0);
	CU_ASSERT_EQUAL(fi_enable(tx), 0);
	/* a transmit context does not receive */
	CU_ASSERT_EQUAL(fi_recv(tx, buf, sizeof(buf), NULL, FI_ADDR_UNSPEC, NULL), -FI_ENOSYS);
	CU_ASSERT_EQUAL_FATAL(fi_rx_context(sep, 0, NULL, &rx, NULL), 0);
	CU_ASSERT_EQUAL(rx->fid.fclass, FI_CLASS_RX_CTX);
	/* a receive context does not send */
	CU_ASSERT_EQUAL(fi_send(rx, buf, 1, NULL, peer.addr, NULL), -FI_ENOSYS);
	CU_ASSERT_EQUAL(fi_inject(rx, buf, 1, peer.addr), -FI_ENOSYS);
	if (ep_type == FI_EP_RDM)
		CU_ASSERT_EQUAL(fi_write(rx, buf, 1, NULL, peer.addr, 0, 0, NULL), -FI_ENOSYS);
	/* closed in the wrong order */
	CU_ASSERT_EQUAL(fi_close(&sep->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&rx->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&sep->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&tx->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&sep->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&cq->fid), 0);
	/* FI_EP_MSG has no scalable endpoints */
	info->ep_attr->type = FI_EP_MSG;
	CU_ASSERT_NOT_EQUAL(fi_scalable_ep(td.domain, info, &sep, NULL), 0);
	fi_freeinfo(info);
}

/* -- data -- */

static void
check_msg(struct fid_cq *cq, const char *buf, const char *want, fi_addr_t from, uint64_t flags)
{
	struct fi_cq_tagged_entry e;
	fi_addr_t src = FI_ADDR_NOTAVAIL;

	CU_ASSERT_EQUAL_FATAL(wait_one(cq, &e, &src), 1);
	CU_ASSERT(e.len == strlen(want) + 1 && strcmp(buf, want) == 0);
	CU_ASSERT_EQUAL(src, from);
	CU_ASSERT_EQUAL(e.flags & (FI_RECV | FI_TAGGED), flags);
}

/*
 * Closes the scalable endpoint, whose contexts had conns connections with
 * the peer: each says goodbye (a CLOSE), and the peer has taken them all in
 * before the next test opens contexts on the same ports, whose first
 * message would otherwise go out on a connection about to end (and fail
 * with FI_ECONNRESET, which the test would not read).
 */
static void
sep_close(struct test_sep *s, uint64_t conns)
{
	struct fi_dpdk_ep_stats st;
	struct timespec t0;
	uint64_t closed;

	if (ep_type != FI_EP_RDM) {
		CU_ASSERT_EQUAL(test_sep_close(s), 0);
		return;
	}
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(peer.ep, &st), 0);
	closed = st.peers_closed;
	CU_ASSERT_EQUAL(test_sep_close(s), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		fi_cq_read(peer.cq, NULL, 0);
	} while (test_ep_stats(peer.ep, &st) == 0 && st.peers_closed < closed + conns &&
		 test_ms_since(&t0) < TIMEOUT_MS);
	CU_ASSERT_EQUAL(st.peers_closed, closed + conns);
}

/* Each named receive context gets what was sent to it, and nothing else. */
static void
test_named_rx(void)
{
	struct test_sep s;
	char in[TEST_SEP_MAX_CTX][16], want[24];
	fi_addr_t sa;
	int i;

	CU_ASSERT_EQUAL_FATAL(test_sep_open(&td, av, 2, 3, &s), 0);
	sa = side_addr(av, &s);
	for (i = 2; i >= 0; i--)
		CU_ASSERT_EQUAL(fi_recv(s.rx[i], in[i], sizeof(in[i]), NULL, FI_ADDR_UNSPEC, NULL),
				0);
	for (i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "to rx %d", i);
		CU_ASSERT_EQUAL(fi_inject(peer.ep, want, strlen(want) + 1,
					  fi_rx_addr(sa, i, RX_CTX_BITS)), 0);
	}
	for (i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "to rx %d", i);
		check_msg(s.rx_cq[i], in[i], want, peer.addr, FI_RECV);
	}
	/* the name alone is receive context 0 */
	CU_ASSERT_EQUAL(fi_recv(s.rx[0], in[0], sizeof(in[0]), NULL, FI_ADDR_UNSPEC, NULL), 0);
	CU_ASSERT_EQUAL(fi_inject(peer.ep, "name", 5, sa), 0);
	check_msg(s.rx_cq[0], in[0], "name", peer.addr, FI_RECV);
	sep_close(&s, 3);
	CU_ASSERT_EQUAL(fi_av_remove(av, &sa, 1, 0), 0);
}

/* A transmit context's messages come from the scalable endpoint's name. */
static void
test_tx_source(void)
{
	struct fi_cq_tagged_entry e;
	struct test_sep s;
	char in[16], want[24];
	fi_addr_t sa;
	int j;

	CU_ASSERT_EQUAL_FATAL(test_sep_open(&td, av, 2, 1, &s), 0);
	sa = side_addr(av, &s);
	for (j = 0; j < 2; j++) {
		snprintf(want, sizeof(want), "from tx %d", j);
		CU_ASSERT_EQUAL(fi_recv(peer.ep, in, sizeof(in), NULL, FI_ADDR_UNSPEC, NULL), 0);
		CU_ASSERT_EQUAL(fi_send(s.tx[j], want, strlen(want) + 1, NULL, peer.addr, want),
				0);
		check_msg(peer.cq, in, want, sa, FI_RECV);
		/* the send completes on the context's own CQ */
		CU_ASSERT_EQUAL(wait_one(s.tx_cq[j], &e, NULL), 1);
		CU_ASSERT_PTR_EQUAL(e.op_context, want);
		/* an answer to the source lands on receive context 0 */
		CU_ASSERT_EQUAL(fi_recv(s.rx[0], in, sizeof(in), NULL, FI_ADDR_UNSPEC, NULL), 0);
		CU_ASSERT_EQUAL(fi_inject(peer.ep, "answer", 7, sa), 0);
		check_msg(s.rx_cq[0], in, "answer", peer.addr, FI_RECV);
	}
	sep_close(&s, 3);
	CU_ASSERT_EQUAL(fi_av_remove(av, &sa, 1, 0), 0);
}

/* Tagged messages, a directed receive and an RMA write, context to context. */
static void
test_rdm_ops(void)
{
	struct fi_cq_tagged_entry e;
	struct test_sep s;
	struct fid_mr *mr;
	char in[16], target[16] = { 0 };
	fi_addr_t sa;

	CU_ASSERT_EQUAL_FATAL(test_sep_open(&td, av, 2, 2, &s), 0);
	sa = side_addr(av, &s);
	/* a directed receive on context 1 takes the peer's message only */
	CU_ASSERT_EQUAL(fi_trecv(s.rx[1], in, sizeof(in), NULL, peer.addr, 7, 0, NULL), 0);
	CU_ASSERT_EQUAL(fi_tinject(peer.ep, "tagged", 7, fi_rx_addr(sa, 1, RX_CTX_BITS), 7), 0);
	check_msg(s.rx_cq[1], in, "tagged", peer.addr, FI_RECV | FI_TAGGED);
	/* from transmit context 1 into the peer's memory */
	CU_ASSERT_EQUAL_FATAL(fi_mr_reg(td.domain, target, sizeof(target), FI_REMOTE_WRITE, 0, 42,
					0, &mr, NULL), 0);
	CU_ASSERT_EQUAL(fi_write(s.tx[1], "written", 8, NULL, peer.addr, 0, fi_mr_key(mr), in),
			0);
	CU_ASSERT_EQUAL(wait_one(s.tx_cq[1], &e, NULL), 1);
	CU_ASSERT(e.op_context == in && (e.flags & FI_WRITE) && strcmp(target, "written") == 0);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	sep_close(&s, 2);
	CU_ASSERT_EQUAL(fi_av_remove(av, &sa, 1, 0), 0);
}

/* A context closed gives its port back; opened again, it takes it again. */
static void
test_reopen(void)
{
	struct fi_info *info = fi_dupinfo(td.info);
	struct sockaddr_in sin, again;
	size_t len = sizeof(sin);
	struct fid_ep *ep;
	struct test_sep s;
	char in[16];
	fi_addr_t sa;

	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	CU_ASSERT_EQUAL_FATAL(test_sep_open(&td, av, 2, 2, &s), 0);
	sa = side_addr(av, &s);
	CU_ASSERT_EQUAL(fi_getname(&s.sep->fid, &sin, &len), 0);
	/* the range is the endpoint's: receive context 1's port, transmit context 1's */
	len = sizeof(again);
	CU_ASSERT_EQUAL(fi_getname(&s.rx[1]->fid, &again, &len), 0);
	CU_ASSERT_EQUAL(again.sin_port, sin.sin_port);
	again.sin_port = htons((uint16_t)(ntohs(sin.sin_port) + 1));
	free(info->src_addr);
	info->src_addr = &again;
	info->src_addrlen = sizeof(again);
	CU_ASSERT_EQUAL(fi_endpoint(td.domain, info, &ep, NULL), -FI_EADDRINUSE);
	again.sin_port = htons((uint16_t)(ntohs(sin.sin_port) + 3));
	CU_ASSERT_EQUAL(fi_endpoint(td.domain, info, &ep, NULL), -FI_EADDRINUSE);
	/* receive context 1 again */
	CU_ASSERT_EQUAL(fi_close(&s.rx[1]->fid), 0);
	s.rx[1] = NULL;
	CU_ASSERT_EQUAL_FATAL(fi_rx_context(s.sep, 1, NULL, &s.rx[1], NULL), 0);
	CU_ASSERT_EQUAL(fi_ep_bind(s.rx[1], &s.rx_cq[1]->fid, FI_RECV), 0);
	CU_ASSERT_EQUAL(fi_enable(s.rx[1]), 0);
	CU_ASSERT_EQUAL(fi_recv(s.rx[1], in, sizeof(in), NULL, FI_ADDR_UNSPEC, NULL), 0);
	CU_ASSERT_EQUAL(fi_inject(peer.ep, "again", 6, fi_rx_addr(sa, 1, RX_CTX_BITS)), 0);
	check_msg(s.rx_cq[1], in, "again", peer.addr, FI_RECV);
	sep_close(&s, 1);
	/* and the range is free once the endpoint is closed */
	again.sin_port = htons((uint16_t)(ntohs(sin.sin_port) + 1));
	CU_ASSERT_EQUAL(fi_endpoint(td.domain, info, &ep, NULL), 0);
	CU_ASSERT_EQUAL(fi_close(&ep->fid), 0);
	info->src_addr = NULL;
	info->src_addrlen = 0;
	fi_freeinfo(info);
	CU_ASSERT_EQUAL(fi_av_remove(av, &sa, 1, 0), 0);
}

static CU_TestInfo rdm_tests[] = {
	{ "attributes", test_attributes },
	{ "refusals", test_refusals },
	{ "named receive contexts", test_named_rx },
	{ "FI_SOURCE of a transmit context", test_tx_source },
	{ "tagged, directed, RMA", test_rdm_ops },
	{ "a context opened again", test_reopen },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo dgram_tests[] = {
	{ "refusals", test_refusals },
	{ "named receive contexts", test_named_rx },
	{ "FI_SOURCE of a transmit context", test_tx_source },
	{ "a context opened again", test_reopen },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "scalable RDM endpoints", suite_rdm, suite_clean, NULL, NULL, rdm_tests },
	{ "scalable DGRAM endpoints", suite_dgram, suite_clean, NULL, NULL, dgram_tests },
	CU_SUITE_INFO_NULL,
};

/* -- threads: a context pair per thread, across a faulty memif wire -- */

#define THR_WINDOW	64	/* receives posted, sends in flight */
#define THR_LEN		64

struct thr {
	pthread_t tid;
	struct fid_ep *tx, *rx;
	struct fid_cq *tx_cq, *rx_cq;
	fi_addr_t dst;
	uint64_t n;
	uint64_t sent, recvd, bad;
	int index;
	int failed;
	bool rx_only;				/* receives alone ("split") */
	uint8_t buf[THR_WINDOW][THR_LEN];	/* receives */
	uint8_t out[THR_WINDOW][THR_LEN];	/* sends, each kept until its completion */
	bool busy[THR_WINDOW];
};

static void
thr_fill(uint8_t *p, int index, uint64_t seq)
{
	int i;

	memcpy(p, &seq, sizeof(seq));
	for (i = (int)sizeof(seq); i < THR_LEN; i++)
		p[i] = (uint8_t)(seq * 13 + (uint64_t)i * 7 + (uint64_t)index * 101);
}

/* Set when a pthread_create() failed: the threads already started stop. */
static uint32_t thr_abort;
static uint32_t split_stop;	/* split()'s senders stop */

/* The threads started before a pthread_create() failed: stopped and joined,
 * so that nothing they use is closed under them. */
static void
thr_abandon(const char *who, pthread_t *started, int nb)
{
	fprintf(stderr, "%s: pthread_create failed\n", who);
	__atomic_store_n(&thr_abort, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&split_stop, 1, __ATOMIC_RELEASE);
	while (nb-- > 0)
		pthread_join(started[nb], NULL);
}

static void *
thr_run(void *arg)
{
	struct thr *t = arg;
	struct fi_cq_tagged_entry e[16];
	struct fi_cq_err_entry err = { 0 };
	uint8_t want[THR_LEN];
	uint64_t posted = 0, done = t->rx_only ? t->n : 0, slot, seq, next = 0;
	struct timespec t0;
	ssize_t k, i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (; posted < THR_WINDOW && posted < t->n; posted++)
		if (fi_recv(t->rx, t->buf[posted], THR_LEN, NULL, FI_ADDR_UNSPEC,
			    (void *)(uintptr_t)posted) != 0)
			t->failed = 1;
	while ((t->recvd < t->n || done < t->n) && !t->failed && test_ms_since(&t0) < 240000 &&
	       !__atomic_load_n(&thr_abort, __ATOMIC_ACQUIRE)) {
		if (t->sent < t->n && !t->busy[next]) {
			thr_fill(t->out[next], t->index, t->sent);
			if (fi_send(t->tx, t->out[next], THR_LEN, NULL, t->dst,
				    (void *)(uintptr_t)next) == 0) {
				t->busy[next] = true;
				next = (next + 1) % THR_WINDOW;
				t->sent++;
			}
		}
		k = t->rx_only ? 0 : fi_cq_read(t->tx_cq, e, 16);
		if (k == -FI_EAVAIL && fi_cq_readerr(t->tx_cq, &err, 0) == 1)
			t->failed = 1;
		for (i = 0; i < k; i++)
			t->busy[(uintptr_t)e[i].op_context] = false;
		if (k > 0)
			done += (uint64_t)k;
		k = fi_cq_read(t->rx_cq, e, 16);
		if (k == -FI_EAVAIL && fi_cq_readerr(t->rx_cq, &err, 0) == 1)
			t->failed = 1;
		for (i = 0; i < k; i++) {
			/* in order: message number recvd, in the slot of the receive it took */
			slot = (uint64_t)(uintptr_t)e[i].op_context;
			memcpy(&seq, t->buf[slot], sizeof(seq));
			thr_fill(want, t->index, t->recvd);
			if (e[i].len != THR_LEN || seq != t->recvd ||
			    memcmp(t->buf[slot], want, THR_LEN) != 0)
				t->bad++;
			t->recvd++;
			if (posted < t->n && fi_recv(t->rx, t->buf[slot], THR_LEN, NULL,
						     FI_ADDR_UNSPEC, e[i].op_context) == 0)
				posted++;
		}
	}
	return NULL;
}

/* The two sides of the memif wire, and their AVs. */
static void
sides_close(struct fid_av *avi, struct fid_av *avt, struct test_domain *ti,
	    struct test_domain *tt)
{
	if (avi != NULL)
		fi_close(&avi->fid);
	if (avt != NULL)
		fi_close(&avt->fid);
	test_domain_close(ti);
	test_domain_close(tt);
}

static int
threads(const char *model, uint64_t n)
{
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE, .rx_ctx_bits = RX_CTX_BITS };
	enum fi_threading thr_model = strcmp(model, "safe") == 0 ? FI_THREAD_SAFE :
				      strcmp(model, "fid") == 0 ? FI_THREAD_FID :
				      FI_THREAD_COMPLETION;
	struct test_domain ti = { 0 }, tt = { 0 };
	struct fid_av *avi = NULL, *avt = NULL;
	struct test_sep si, st;
	struct fi_dpdk_ep_stats sti, stt;
	struct thr t[2];
	struct timespec t0;
	fi_addr_t ta = FI_ADDR_NOTAVAIL;
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	double ms;
	int k, ret = 1;

	memset(t, 0, sizeof(t));
	memset(&si, 0, sizeof(si));
	memset(&st, 0, sizeof(st));
	if (test_domain_open_attr(&ti, FI_EP_RDM, FI_SOCKADDR_IN, FI_MSG | FI_NAMED_RX_CTX, 0,
				  thr_model, "net_memif1") != 0 ||
	    test_domain_open_attr(&tt, FI_EP_RDM, FI_SOCKADDR_IN, FI_MSG | FI_NAMED_RX_CTX, 0,
				  thr_model, "net_memif0") != 0 ||
	    fi_av_open(ti.domain, &av_attr, &avi, NULL) != 0 ||
	    fi_av_open(tt.domain, &av_attr, &avt, NULL) != 0 ||
	    test_sep_open(&ti, avi, 2, 1, &si) != 0 || test_sep_open(&tt, avt, 1, 2, &st) != 0 ||
	    fi_getname(&st.sep->fid, &sin, &len) != 0 ||
	    fi_av_insert(avi, &sin, 1, &ta, 0, NULL) != 1) {
		fprintf(stderr, "threads: set-up failed\n");
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	__atomic_store_n(&thr_abort, 0, __ATOMIC_RELAXED);
	for (k = 0; k < 2; k++) {
		t[k].tx = si.tx[k];
		t[k].tx_cq = si.tx_cq[k];
		t[k].rx = st.rx[k];
		t[k].rx_cq = st.rx_cq[k];
		t[k].dst = fi_rx_addr(ta, k, RX_CTX_BITS);
		t[k].n = n;
		t[k].index = k;
		if (pthread_create(&t[k].tid, NULL, thr_run, &t[k]) != 0) {
			pthread_t started[2];
			int i;

			for (i = 0; i < k; i++)
				started[i] = t[i].tid;
			thr_abandon("threads", started, k);
			goto out;
		}
	}
	for (k = 0; k < 2; k++)
		pthread_join(t[k].tid, NULL);
	ms = test_ms_since(&t0);
	ret = 0;
	for (k = 0; k < 2; k++) {
		printf("threads (%s): context pair %d: %" PRIu64 " sent, %" PRIu64
		       " received, %" PRIu64 " wrong or out of order%s\n", model, k, t[k].sent,
		       t[k].recvd, t[k].bad, t[k].failed ? ", an operation failed" : "");
		ret |= t[k].failed || t[k].bad != 0 || t[k].recvd != n || t[k].sent != n;
	}
	/* the faults were there, on both directions' frames */
	if (test_ep_stats(si.tx[0], &sti) != 0 || test_ep_stats(st.rx[1], &stt) != 0) {
		ret = 1;
	} else {
		printf("threads: %.0f ms; wire: %" PRIu64 " frames, %" PRIu64 " dropped, %" PRIu64
		       " duplicated, %" PRIu64 " reordered, %" PRIu64 " corrupted; tx context 0 "
		       "resent %" PRIu64 ", rx context 1 dropped %" PRIu64 " duplicates and %"
		       PRIu64 " bad\n", ms, sti.fault_frames[0], sti.fault_dropped[0],
		       sti.fault_duplicated[0], sti.fault_reordered[0], sti.fault_corrupted[0],
		       sti.tx_retransmits, stt.rx_duplicates, stt.rx_bad);
		ret |= sti.fault_dropped[0] == 0 || sti.fault_duplicated[0] == 0 ||
		       sti.fault_reordered[0] == 0 || sti.fault_corrupted[0] == 0 ||
		       sti.tx_retransmits == 0;
	}
	printf("threads (%s): %s\n", model, ret == 0 ? "every message, in order" : "FAILED");
out:
	if (test_sep_close(&si) != 0 || test_sep_close(&st) != 0)
		ret = 1;
	sides_close(avi, avt, &ti, &tt);
	return ret;
}

/*
 * "split N", FI_THREAD_ENDPOINT: what that model lets threads do that
 * FI_THREAD_COMPLETION does not. Two senders share one transmit CQ, each
 * posted to by its own thread while a third reads the CQ (whose reads
 * progress both); two receivers each have a thread. Every message is
 * checked, in order, under the same faults as "threads".
 */
#define SPLIT_SENDERS	2

struct split_tx {
	pthread_t tid;
	struct fid_ep *ep;
	fi_addr_t dst;
	uint64_t n, sent;
	int index;
	uint32_t busy[THR_WINDOW];	/* cleared by the CQ's reader */
	uint8_t out[THR_WINDOW][THR_LEN];
};

struct split_cq {
	pthread_t tid;
	struct fid_cq *cq;
	uint64_t want, done;
	int failed;
	struct split_tx *tx;
};

static void *
split_send(void *arg)
{
	struct split_tx *t = arg;
	uint64_t next = 0;

	while (t->sent < t->n && !__atomic_load_n(&split_stop, __ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&t->busy[next], __ATOMIC_ACQUIRE)) {
			sched_yield();
			continue;
		}
		thr_fill(t->out[next], t->index, t->sent);
		__atomic_store_n(&t->busy[next], 1, __ATOMIC_RELAXED);
		/* the context names the sender and the slot */
		if (fi_send(t->ep, t->out[next], THR_LEN, NULL, t->dst,
			    (void *)(uintptr_t)((uint64_t)t->index << 16 | next)) == 0) {
			next = (next + 1) % THR_WINDOW;
			t->sent++;
		} else {
			__atomic_store_n(&t->busy[next], 0, __ATOMIC_RELAXED);
		}
	}
	return NULL;
}

static void *
split_reap(void *arg)
{
	struct split_cq *c = arg;
	struct fi_cq_tagged_entry e[16];
	struct fi_cq_err_entry err = { 0 };
	struct timespec t0;
	uint64_t ctx;
	ssize_t k, i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (c->done < c->want && !c->failed && test_ms_since(&t0) < 240000) {
		k = fi_cq_read(c->cq, e, 16);
		if (k == -FI_EAVAIL && fi_cq_readerr(c->cq, &err, 0) == 1)
			c->failed = 1;
		for (i = 0; i < k; i++) {
			ctx = (uint64_t)(uintptr_t)e[i].op_context;
			__atomic_store_n(&c->tx[ctx >> 16].busy[ctx & 0xffff], 0,
					 __ATOMIC_RELEASE);
		}
		if (k > 0)
			c->done += (uint64_t)k;
	}
	if (c->done < c->want)
		__atomic_store_n(&split_stop, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A plain endpoint bound to av and, with flags, to cq. */
static int
split_ep(const struct test_domain *d, struct fid_av *a, struct fid_cq *cq, uint64_t flags,
	 struct fid_ep **ep)
{
	int ret = fi_endpoint(d->domain, d->info, ep, NULL);

	ret = ret ? ret : fi_ep_bind(*ep, &a->fid, 0);
	ret = ret ? ret : fi_ep_bind(*ep, &cq->fid, flags);
	return ret ? ret : fi_enable(*ep);
}

static int
split(uint64_t n)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 1024 };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct test_domain ti = { 0 }, tt = { 0 };
	struct fid_av *avi = NULL, *avt = NULL;
	struct fid_cq *tx_cq = NULL;
	struct fid_ep *tx_ep[SPLIT_SENDERS] = { NULL };
	struct split_tx *tx;
	struct split_cq reaper = { 0 };
	struct thr rx[SPLIT_SENDERS];
	pthread_t started[2 * SPLIT_SENDERS];
	char name[64];
	size_t len;
	int k, nb, ret = 1;

	tx = calloc(SPLIT_SENDERS, sizeof(*tx));
	memset(rx, 0, sizeof(rx));
	if (tx == NULL ||
	    test_domain_open_attr(&ti, FI_EP_RDM, FI_SOCKADDR_IN, FI_MSG, 0,
				  FI_THREAD_ENDPOINT, "net_memif1") != 0 ||
	    test_domain_open_attr(&tt, FI_EP_RDM, FI_SOCKADDR_IN, FI_MSG, 0,
				  FI_THREAD_ENDPOINT, "net_memif0") != 0 ||
	    ti.info->domain_attr->threading != FI_THREAD_ENDPOINT ||
	    fi_av_open(ti.domain, &av_attr, &avi, NULL) != 0 ||
	    fi_av_open(tt.domain, &av_attr, &avt, NULL) != 0 ||
	    fi_cq_open(ti.domain, &cq_attr, &tx_cq, NULL) != 0) {
		fprintf(stderr, "split: set-up failed\n");
		goto out;
	}
	for (k = 0; k < SPLIT_SENDERS; k++) {
		len = sizeof(name);
		if (split_ep(&ti, avi, tx_cq, FI_TRANSMIT, &tx_ep[k]) != 0 ||
		    fi_cq_open(tt.domain, &cq_attr, &rx[k].rx_cq, NULL) != 0 ||
		    split_ep(&tt, avt, rx[k].rx_cq, FI_RECV, &rx[k].rx) != 0 ||
		    fi_getname(&rx[k].rx->fid, name, &len) != 0 ||
		    fi_av_insert(avi, name, 1, &tx[k].dst, 0, NULL) != 1) {
			fprintf(stderr, "split: endpoint %d failed\n", k);
			goto out;
		}
		tx[k].ep = tx_ep[k];
		tx[k].n = n;
		tx[k].index = k;
		/* the receiving side of thr_run() alone */
		rx[k].n = n;
		rx[k].index = k;
		rx[k].sent = n;
		rx[k].rx_only = true;
	}
	reaper.cq = tx_cq;
	reaper.want = n * SPLIT_SENDERS;
	reaper.tx = tx;
	__atomic_store_n(&split_stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&thr_abort, 0, __ATOMIC_RELAXED);
	for (k = 0, nb = 0; k < SPLIT_SENDERS; k++) {
		if (pthread_create(&rx[k].tid, NULL, thr_run, &rx[k]) != 0)
			break;
		started[nb++] = rx[k].tid;
		if (pthread_create(&tx[k].tid, NULL, split_send, &tx[k]) != 0)
			break;
		started[nb++] = tx[k].tid;
	}
	if (k < SPLIT_SENDERS || pthread_create(&reaper.tid, NULL, split_reap, &reaper) != 0) {
		thr_abandon("split", started, nb);
		goto out;
	}
	pthread_join(reaper.tid, NULL);
	ret = reaper.failed || reaper.done != reaper.want;
	for (k = 0; k < SPLIT_SENDERS; k++) {
		pthread_join(tx[k].tid, NULL);
		pthread_join(rx[k].tid, NULL);
		printf("split: sender %d: %" PRIu64 " sent; receiver %d: %" PRIu64 " received, %"
		       PRIu64 " wrong or out of order%s\n", k, tx[k].sent, k, rx[k].recvd,
		       rx[k].bad, rx[k].failed ? ", an operation failed" : "");
		ret |= rx[k].failed || rx[k].bad != 0 || rx[k].recvd != n || tx[k].sent != n;
	}
	printf("split: the shared transmit CQ's reader took %" PRIu64 " of %" PRIu64
	       " completions%s\nsplit (FI_THREAD_ENDPOINT): %s\n", reaper.done, reaper.want,
	       reaper.failed ? ", and an error" : "", ret == 0 ? "every message, in order" :
	       "FAILED");
out:
	for (k = 0; k < SPLIT_SENDERS; k++) {
		if (tx_ep[k] != NULL)
			fi_close(&tx_ep[k]->fid);
		if (rx[k].rx != NULL)
			fi_close(&rx[k].rx->fid);
		if (rx[k].rx_cq != NULL)
			fi_close(&rx[k].rx_cq->fid);
	}
	if (tx_cq != NULL)
		fi_close(&tx_cq->fid);
	sides_close(avi, avt, &ti, &tt);
	free(tx);
	return ret;
}

int
main(int argc, char **argv)
{
	char sock[64];
	int ret;

	if ((argc == 4 && strcmp(argv[1], "threads") == 0) ||
	    (argc == 3 && strcmp(argv[1], "split") == 0)) {
		test_env_memif_pair("sep", sock, sizeof(sock));
		setenv("FI_DPDK_FAULT", "seed=7,tx_drop=0.05,dup=0.03,reorder=0.05,corrupt=0.02",
		       0);
		ret = argc == 3 ? split(strtoull(argv[2], NULL, 0)) :
		      threads(argv[2], strtoull(argv[3], NULL, 0));
		unlink(sock);
		return ret;
	}
	test_env_setup(TEST_EAL_BASE " --vdev=net_ring0");
	return test_run(suites);
}
