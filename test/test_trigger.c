/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Triggered operations (fi_trigger(3), FI_TRIGGER_THRESHOLD) between two
 * RDM endpoints of one process (FI_LOCAL_COMM). The rules checked, in the
 * man page's words where it has them: an operation posted with FI_TRIGGER
 * "is deferred until an event counter crosses an application specified
 * threshold value"; "threshold operations are triggered in the order of
 * the threshold values. This is true even if the counter increments by a
 * value greater than 1. If two triggered operations have the same
 * threshold, they will be triggered in the order in which they were
 * submitted"; "if the condition is met when the request is made, then the
 * data transfer may be initiated immediately"; the context is the struct
 * fi_triggered_context, and the completion reports it. fi_cntr(3): a
 * counter with resources still associated refuses fi_close with -FI_EBUSY.
 * The suite runs twice: FI_THREAD_SAFE (the domain lock, atomic counters, a
 * watchdog thread that progresses idle endpoints) and FI_THREAD_DOMAIN (no
 * lock, plain counters, no watchdog: what the application's calls issue
 * alone).
 */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>
#include <rdma/fi_trigger.h>

#include <rte_common.h>

#include "ep_stats.h"
#include "test_util.h"

#define TIMEOUT_MS	3000
#define QUIET_MS	50		/* progress during which nothing may happen */
#define ANY_TAG		(~0ULL)

static struct test_domain td;
static struct fid_av *av;
static struct test_node a, b;
static struct test_node *const nodes[] = { &a, &b };
static struct fid_cntr *trig;		/* the application's, bound to nothing */

static int
node_open(struct test_node *n, const struct test_domain *dom)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 256 };

	return test_node_open(n, dom, av, &cq_attr, FI_WAIT_UNSPEC);
}

/* The suite's runs, in order (main() registers one suite each): each opens the next. */
static const struct {
	const char *name;
	enum fi_threading threading;
	const char *port;
} runs[] = {
	{ "trigger, FI_THREAD_SAFE", FI_THREAD_SAFE, "net_ring0" },
	{ "trigger, FI_THREAD_DOMAIN", FI_THREAD_DOMAIN, "net_ring1" },
};
static unsigned int run;

/* An RDM domain of the run's threading on its port, with FI_TRIGGER, and endpoints a and b. */
static int
suite_init(void)
{
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	unsigned int r = run++ % RTE_DIM(runs);
	size_t i;
	int ret;

	ret = test_domain_open_attr(&td, FI_EP_RDM, FI_SOCKADDR_IN,
				    FI_MSG | FI_TAGGED | FI_RMA | FI_TRIGGER, 0,
				    runs[r].threading, runs[r].port);
	if (ret != 0 || (td.info->caps & FI_TRIGGER) == 0 ||
	    fi_av_open(td.domain, &av_attr, &av, NULL) != 0)
		return 1;
	for (i = 0; i < RTE_DIM(nodes) && ret == 0; i++)
		ret = node_open(nodes[i], &td);
	return ret != 0;
}

static int
suite_clean(void)
{
	size_t i;
	int ret;

	for (i = 0; i < RTE_DIM(nodes); i++)
		test_node_close(nodes[i]);
	ret = fi_close(&av->fid);	/* the endpoints gone, nothing holds it */
	test_domain_close(&td);
	return ret != 0;
}

/* Each test: a fresh counter to trigger on, closed at the end (nothing may wait on it). */
static void
case_setup(void)
{
	struct fi_cntr_attr attr = { .events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE };

	CU_ASSERT_EQUAL_FATAL(fi_cntr_open(td.domain, &attr, &trig, NULL), 0);
}

static void
case_teardown(void)
{
	CU_ASSERT_EQUAL(fi_close(&trig->fid), 0);
	trig = NULL;
}

/*
 * The next completion of n's CQ within ms milliseconds, both endpoints
 * progressed meanwhile (CQ reads only: no counter is touched). -FI_EAVAIL
 * fills err; -FI_EAGAIN: none came.
 */
static ssize_t
next_comp(struct test_node *n, struct fi_cq_tagged_entry *e, struct fi_cq_err_entry *err,
	  int ms)
{
	struct test_node *other = n == &a ? &b : &a;
	struct timespec t0;
	ssize_t ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		ret = fi_cq_read(n->cq, e, 1);
		if (ret == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			CU_ASSERT_EQUAL(fi_cq_readerr(n->cq, err, 0), 1);
			return -FI_EAVAIL;
		}
		if (ret != -FI_EAGAIN)
			return ret;
		fi_cq_read(other->cq, NULL, 0);
	} while (test_ms_since(&t0) < ms);
	return -FI_EAGAIN;
}

/* Nothing completes on n for QUIET_MS of progress. */
static void
assert_quiet(struct test_node *n)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };

	CU_ASSERT_EQUAL(next_comp(n, &e, &err, QUIET_MS), -FI_EAGAIN);
}

/* The next completion on n is a success of context ctx; its tag comes back. */
static uint64_t
expect_comp(struct test_node *n, void *ctx)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };

	memset(&e, 0, sizeof(e));
	CU_ASSERT_EQUAL_FATAL(next_comp(n, &e, &err, TIMEOUT_MS), 1);
	CU_ASSERT_PTR_EQUAL(e.op_context, ctx);
	return e.tag;
}

static struct fi_triggered_context *
threshold_ctx(struct fi_triggered_context *tc, struct fid_cntr *cntr, size_t threshold)
{
	memset(tc, 0, sizeof(*tc));
	tc->event_type = FI_TRIGGER_THRESHOLD;
	tc->trigger.threshold.cntr = cntr;
	tc->trigger.threshold.threshold = threshold;
	return tc;
}

/*
 * fi_tsendmsg() of len bytes at buf with tag, flags and context ctx. The
 * message and its I/O vector are static and scribbled over once posted: a
 * triggered post must have copied them (fi_trigger(3) keeps only the data
 * buffer the application's).
 */
static ssize_t
tsendmsg(struct test_node *from, fi_addr_t to, const void *buf, size_t len, uint64_t tag,
	 void *ctx, uint64_t flags)
{
	static struct iovec iov;
	static struct fi_msg_tagged m;
	ssize_t ret;

	iov.iov_base = (void *)(uintptr_t)buf;
	iov.iov_len = len;
	m = (struct fi_msg_tagged) {
		.msg_iov = &iov, .iov_count = 1, .addr = to, .tag = tag, .context = ctx,
	};
	ret = fi_tsendmsg(from->ep, &m, flags);
	memset(&iov, 0xa5, sizeof(iov));
	memset(&m, 0xa5, sizeof(m));
	return ret;
}

/* The same for fi_trecvmsg(), any tag of any source. */
static ssize_t
trecvmsg(struct test_node *n, void *buf, size_t len, void *ctx, uint64_t flags)
{
	static struct iovec iov;
	static struct fi_msg_tagged m;
	ssize_t ret;

	iov.iov_base = buf;
	iov.iov_len = len;
	m = (struct fi_msg_tagged) {
		.msg_iov = &iov, .iov_count = 1, .addr = FI_ADDR_UNSPEC, .ignore = ANY_TAG,
		.context = ctx,
	};
	ret = fi_trecvmsg(n->ep, &m, flags);
	memset(&iov, 0xa5, sizeof(iov));
	memset(&m, 0xa5, sizeof(m));
	return ret;
}

/* -- the tests -- */

static void
test_send_waits_for_threshold(void)
{
	static const char msg[] = "held until the counter reaches 2";
	struct fi_triggered_context tc;
	struct fi_context rctx;
	char in[64] = { 0 };

	CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, in, sizeof(in), NULL, FI_ADDR_UNSPEC, 0, ANY_TAG,
				       &rctx), 0);
	CU_ASSERT_EQUAL_FATAL(tsendmsg(&a, b.addr, msg, sizeof(msg), 7,
				       threshold_ctx(&tc, trig, 2), FI_TRIGGER), 0);
	/* deferred: progressed for a while, neither side sees anything */
	assert_quiet(&b);
	assert_quiet(&a);
	CU_ASSERT_EQUAL(fi_cntr_add(trig, 1), 0);
	assert_quiet(&b);
	/* the threshold reached: it goes, as it was posted */
	CU_ASSERT_EQUAL(fi_cntr_add(trig, 1), 0);
	CU_ASSERT_EQUAL(expect_comp(&b, &rctx), 7);
	CU_ASSERT_STRING_EQUAL(in, msg);
	/* and completes with the application's context: the triggered context */
	expect_comp(&a, &tc);
}

/*
 * n receives on b (contexts rctx, into in), then n triggered sends from a,
 * the i-th carrying tags[i] as tag and payload and waiting for
 * thresholds[i] (contexts tc).
 */
static void
post_round(size_t n, const uint64_t *tags, const uint64_t *thresholds, uint64_t *in,
	   struct fi_context *rctx, struct fi_triggered_context *tc)
{
	size_t i;

	for (i = 0; i < n; i++)
		CU_ASSERT_EQUAL_FATAL(trecvmsg(&b, &in[i], sizeof(in[i]), &rctx[i], 0), 0);
	for (i = 0; i < n; i++)
		CU_ASSERT_EQUAL_FATAL(tsendmsg(&a, b.addr, &tags[i], sizeof(tags[i]), tags[i],
					       threshold_ctx(&tc[i], trig, thresholds[i]),
					       FI_TRIGGER), 0);
}

static void
test_thresholds_fire_in_order(void)
{
	/* posted out of order; 2 twice: posting order among them */
	static const uint64_t thresholds[] = { 3, 1, 2, 2 };
	static const uint64_t tags[] = { 30, 10, 20, 21 };
	static const uint64_t jump[] = { 6, 5, 4 };
	struct fi_triggered_context tc[4];
	struct fi_context rctx[4];
	uint64_t in[4];
	size_t i;

	post_round(4, tags, thresholds, in, rctx, tc);
	/* the receives take the messages in their order of arrival */
	CU_ASSERT_EQUAL(fi_cntr_add(trig, 1), 0);
	CU_ASSERT_EQUAL(expect_comp(&b, &rctx[0]), 10);
	assert_quiet(&b);
	CU_ASSERT_EQUAL(fi_cntr_add(trig, 1), 0);
	CU_ASSERT_EQUAL(expect_comp(&b, &rctx[1]), 20);
	CU_ASSERT_EQUAL(expect_comp(&b, &rctx[2]), 21);
	assert_quiet(&b);
	CU_ASSERT_EQUAL(fi_cntr_add(trig, 1), 0);
	CU_ASSERT_EQUAL(expect_comp(&b, &rctx[3]), 30);
	CU_ASSERT_EQUAL(in[3], 30);
	/* the sends complete, one per triggered context */
	expect_comp(&a, &tc[1]);
	expect_comp(&a, &tc[2]);
	expect_comp(&a, &tc[3]);
	expect_comp(&a, &tc[0]);

	/* one step over several thresholds still issues them in threshold order */
	post_round(3, jump, jump, in, rctx, tc);
	assert_quiet(&b);
	CU_ASSERT_EQUAL(fi_cntr_add(trig, 3), 0);
	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(expect_comp(&b, &rctx[i]), 4 + i);
	for (i = 3; i > 0; i--)
		expect_comp(&a, &tc[i - 1]);
}

/*
 * A triggered fi_writemsg() from local, or fi_readmsg() into it, of len
 * bytes of the region of key at threshold: watch holds expect only once
 * fi_cntr_set() brought the counter there.
 */
static void
rma_after_threshold(bool read, uint8_t *local, size_t len, uint64_t key, size_t threshold,
		    const uint8_t *watch, const uint8_t *expect)
{
	struct fi_triggered_context tc;
	struct fi_rma_iov rma = { .addr = 0, .len = len, .key = key };
	struct iovec iov = { .iov_base = local, .iov_len = len };
	struct fi_msg_rma m = {
		.msg_iov = &iov, .iov_count = 1, .addr = b.addr, .rma_iov = &rma,
		.rma_iov_count = 1, .context = threshold_ctx(&tc, trig, threshold),
	};

	CU_ASSERT_EQUAL_FATAL(read ? fi_readmsg(a.ep, &m, FI_TRIGGER) :
			      fi_writemsg(a.ep, &m, FI_TRIGGER), 0);
	assert_quiet(&a);
	CU_ASSERT(memcmp(watch, expect, len) != 0);
	CU_ASSERT_EQUAL(fi_cntr_set(trig, threshold), 0);
	expect_comp(&a, &tc);
	CU_ASSERT(memcmp(watch, expect, len) == 0);
}

static void
test_rma_after_threshold(void)
{
	const uint64_t key = 0x7419;
	uint8_t tgt[512] = { 0 }, src[512], back[512] = { 0 };
	struct fid_mr *mr;

	test_fill(src, sizeof(src), 5);
	CU_ASSERT_EQUAL_FATAL(fi_mr_reg(td.domain, tgt, sizeof(tgt),
					FI_REMOTE_WRITE | FI_REMOTE_READ, 0, key, 0, &mr, NULL),
			      0);
	rma_after_threshold(false, src, sizeof(src), key, 1, tgt, src);
	rma_after_threshold(true, back, sizeof(back), key, 2, back, src);
	/* the target's side is over too (its answer acknowledged), and it heard of nothing */
	assert_quiet(&b);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
}

/*
 * "A typical use is to send a message only after receiving all input data":
 * b's answer waits on its own receive counter, and goes when the request
 * arrives, while the application only reads CQs.
 */
static void
test_chained_on_completion_counter(void)
{
	static const char request[] = "request", answer[] = "answer";
	struct fi_triggered_context tc;
	struct fi_context rq, ra, sq;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	char in_b[16] = { 0 }, in_a[16] = { 0 };
	uint64_t received = fi_cntr_read(b.rx_cntr);
	int i, seen = 0;

	CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, in_b, sizeof(in_b), NULL, FI_ADDR_UNSPEC, 0,
				       ANY_TAG, &rq), 0);
	CU_ASSERT_EQUAL_FATAL(fi_trecv(a.ep, in_a, sizeof(in_a), NULL, FI_ADDR_UNSPEC, 0,
				       ANY_TAG, &ra), 0);
	CU_ASSERT_EQUAL_FATAL(tsendmsg(&b, a.addr, answer, sizeof(answer), 2,
				       threshold_ctx(&tc, b.rx_cntr, received + 1), FI_TRIGGER),
			      0);
	assert_quiet(&a);
	CU_ASSERT_EQUAL_FATAL(fi_tsend(a.ep, request, sizeof(request), NULL, b.addr, 1, &sq), 0);
	/* a's CQ sees its send and the answer the request triggered, in either order */
	for (i = 0; i < 2; i++) {
		memset(&e, 0, sizeof(e));
		CU_ASSERT_EQUAL_FATAL(next_comp(&a, &e, &err, TIMEOUT_MS), 1);
		CU_ASSERT(e.op_context == &sq || (e.op_context == &ra && e.tag == 2));
		seen |= e.op_context == &sq ? 1 : 2;
	}
	CU_ASSERT_EQUAL(seen, 3);
	CU_ASSERT_STRING_EQUAL(in_a, answer);
	CU_ASSERT_EQUAL(expect_comp(&b, &rq), 1);
	CU_ASSERT_STRING_EQUAL(in_b, request);
	expect_comp(&b, &tc);
	CU_ASSERT_EQUAL(fi_cntr_read(b.rx_cntr), received + 1);
}

static void
test_met_at_post_goes_at_once(void)
{
	struct fi_dpdk_ep_stats before, after;
	struct fi_triggered_context tc;
	struct fi_context rctx;
	uint64_t v = 0x1234, in = 0;

	CU_ASSERT_EQUAL_FATAL(fi_trecv(b.ep, &in, sizeof(in), NULL, FI_ADDR_UNSPEC, 0, ANY_TAG,
				       &rctx), 0);
	CU_ASSERT_EQUAL(fi_cntr_set(trig, 5), 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &before), 0);
	CU_ASSERT_EQUAL_FATAL(tsendmsg(&a, b.addr, &v, sizeof(v), 3,
				       threshold_ctx(&tc, trig, 3), FI_TRIGGER), 0);
	/* sent by the post itself, before any progress */
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(a.ep, &after), 0);
	CU_ASSERT_EQUAL(after.msgs_sent, before.msgs_sent + 1);
	CU_ASSERT_EQUAL(expect_comp(&b, &rctx), 3);
	CU_ASSERT_EQUAL(in, v);
	expect_comp(&a, &tc);
}

static void
test_triggered_receive_and_cancel(void)
{
	struct fi_triggered_context tc, tc2;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fi_context sctx;
	uint64_t v = 0x5151, in = 0;

	/* the receive is posted at the threshold only: the message waits unexpected */
	CU_ASSERT_EQUAL_FATAL(trecvmsg(&b, &in, sizeof(in), threshold_ctx(&tc, trig, 1),
				       FI_TRIGGER), 0);
	CU_ASSERT_EQUAL_FATAL(fi_tsend(a.ep, &v, sizeof(v), NULL, b.addr, 9, &sctx), 0);
	expect_comp(&a, &sctx);
	assert_quiet(&b);
	CU_ASSERT_EQUAL(in, 0);
	CU_ASSERT_EQUAL(fi_cntr_add(trig, 1), 0);
	CU_ASSERT_EQUAL(expect_comp(&b, &tc), 9);
	CU_ASSERT_EQUAL(in, v);

	/* one still waiting is cancelled: FI_ECANCELED with its context */
	CU_ASSERT_EQUAL_FATAL(trecvmsg(&b, &in, sizeof(in), threshold_ctx(&tc2, trig, 10),
				       FI_TRIGGER), 0);
	CU_ASSERT_EQUAL(fi_cancel(&b.ep->fid, &tc2), 0);
	CU_ASSERT_EQUAL(next_comp(&b, &e, &err, TIMEOUT_MS), -FI_EAVAIL);
	CU_ASSERT_EQUAL(err.err, FI_ECANCELED);
	CU_ASSERT_PTR_EQUAL(err.op_context, &tc2);
	CU_ASSERT_EQUAL(fi_cancel(&b.ep->fid, &tc2), -FI_ENOENT);
}

static void
test_close_with_waiting(void)
{
	static const char msg[] = "never sent";
	struct fi_triggered_context tc[4];
	struct test_node c = { 0 };
	char in[16];
	size_t i;

	CU_ASSERT_EQUAL_FATAL(node_open(&c, &td), 0);
	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL_FATAL(tsendmsg(&c, b.addr, msg, sizeof(msg), i,
					       threshold_ctx(&tc[i], trig, 100 + i), FI_TRIGGER),
				      0);
	CU_ASSERT_EQUAL_FATAL(trecvmsg(&c, in, sizeof(in), threshold_ctx(&tc[3], trig, 100),
				       FI_TRIGGER), 0);
	/* fi_cntr(3): resources still associated with the counter */
	CU_ASSERT_EQUAL(fi_close(&trig->fid), -FI_EBUSY);
	test_node_close(&c);
	/* what waited is gone with the endpoint: reaching the thresholds issues nothing */
	CU_ASSERT_EQUAL(fi_cntr_add(trig, 200), 0);
	assert_quiet(&b);
}

static void
test_bad_input(void)
{
	struct fi_triggered_context tc;
	struct fi_info *no_trig = fi_dupinfo(td.info);
	struct test_domain other = td;
	struct test_node d = { 0 };
	uint64_t v = 1;

	/* no triggered context, a trigger of another kind, no counter, not a counter */
	CU_ASSERT_EQUAL(tsendmsg(&a, b.addr, &v, sizeof(v), 0, NULL, FI_TRIGGER), -FI_EINVAL);
	threshold_ctx(&tc, trig, 1)->event_type = FI_TRIGGER_XPU;
	CU_ASSERT_EQUAL(tsendmsg(&a, b.addr, &v, sizeof(v), 0, &tc, FI_TRIGGER), -FI_EINVAL);
	CU_ASSERT_EQUAL(tsendmsg(&a, b.addr, &v, sizeof(v), 0, threshold_ctx(&tc, NULL, 1),
				 FI_TRIGGER), -FI_EINVAL);
	CU_ASSERT_EQUAL(tsendmsg(&a, b.addr, &v, sizeof(v), 0,
				 threshold_ctx(&tc, (struct fid_cntr *)a.cq, 1), FI_TRIGGER),
			-FI_EINVAL);
	/* an inject's buffer would be the application's before the data went */
	CU_ASSERT_EQUAL(tsendmsg(&a, b.addr, &v, sizeof(v), 0, threshold_ctx(&tc, trig, 1),
				 FI_TRIGGER | FI_INJECT), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(trecvmsg(&b, &v, sizeof(v), &tc, FI_TRIGGER | FI_PEEK), -FI_EBADFLAGS);
	/* fi_trigger(3): only an endpoint created with FI_TRIGGER takes them */
	CU_ASSERT_PTR_NOT_NULL_FATAL(no_trig);
	no_trig->caps &= ~FI_TRIGGER;
	no_trig->tx_attr->caps &= ~FI_TRIGGER;
	no_trig->rx_attr->caps &= ~FI_TRIGGER;
	other.info = no_trig;
	CU_ASSERT_EQUAL_FATAL(node_open(&d, &other), 0);
	CU_ASSERT_EQUAL(tsendmsg(&d, b.addr, &v, sizeof(v), 0, &tc, FI_TRIGGER), -FI_EOPNOTSUPP);
	test_node_close(&d);
	fi_freeinfo(no_trig);
	/* nothing was queued: the counter closes (case_teardown) and a step issues nothing */
	CU_ASSERT_EQUAL(fi_cntr_add(trig, 1), 0);
	assert_quiet(&b);
}

static CU_TestInfo trigger_tests[] = {
	{ "a triggered send waits for its threshold", test_send_waits_for_threshold },
	{ "thresholds fire in order, equal ones in posting order", test_thresholds_fire_in_order },
	{ "triggered RMA write and read", test_rma_after_threshold },
	{ "chained on a completion counter, it fires by itself",
	  test_chained_on_completion_counter },
	{ "a threshold met at post time goes at once", test_met_at_post_goes_at_once },
	{ "a triggered receive; cancel of one waiting", test_triggered_receive_and_cancel },
	{ "closing the endpoint drops what waits; the counter is busy meanwhile",
	  test_close_with_waiting },
	{ "bad triggers refused", test_bad_input },
	CU_TEST_INFO_NULL,
};

int
main(void)
{
	CU_SuiteInfo suites[RTE_DIM(runs) + 1];
	size_t i;

	memset(suites, 0, sizeof(suites));	/* the last: CU_SUITE_INFO_NULL */
	for (i = 0; i < RTE_DIM(runs); i++)
		suites[i] = (CU_SuiteInfo) {
			runs[i].name, suite_init, suite_clean, case_setup, case_teardown,
			trigger_tests,
		};
	/* a port for each run, on networks of their own */
	setenv("FI_DPDK_IPV4", "net_ring0=10.0.0.1/24,net_ring1=10.0.1.1/24", 1);
	test_env_setup(TEST_EAL_BASE " --vdev=net_ring0 --vdev=net_ring1");
	return test_run(suites);
}
