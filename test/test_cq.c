/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Completion queues and counters against fi_cq(3) and fi_cntr(3): every
 * operation, the waits and their timeouts, fi_cq_signal(), thresholds, the
 * progress that reads drive, and fi_cancel() on a full CQ. Two FI_EP_DGRAM
 * endpoints on one port feed them through the provider's loopback; the
 * counter tests run again in an FI_THREAD_DOMAIN domain, where counters are
 * bumped without atomics.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>

#include "test_util.h"

#define TIMEOUT_MS	2000
/* A wait that must run out. */
#define SHORT_MS	50
/* Whether a wait of SHORT_MS from t0 ran its course (deadlines are whole
 * milliseconds: up to one less). */
#define RAN_OUT(t0)	(test_ms_since(t0) >= SHORT_MS - 1)

static struct test_domain td;
static struct fid_av *av;
static struct test_node a, b;

/* A DGRAM domain of this threading on port, with endpoints a and b. */
static int
suite_open(enum fi_threading threading, const char *port)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_DATA, .wait_obj = FI_WAIT_UNSPEC,
				      .size = 64 };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct fi_info *hints = fi_allocinfo();
	int ret;

	if (hints == NULL)
		return 1;
	hints->ep_attr->type = FI_EP_DGRAM;
	hints->addr_format = FI_SOCKADDR_IN;
	hints->caps = FI_MSG | FI_SOURCE;
	hints->domain_attr->threading = threading;
	hints->domain_attr->name = strdup(port);
	ret = test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &td.info);
	fi_freeinfo(hints);
	ret = ret ? ret : fi_fabric(td.info->fabric_attr, &td.fabric, NULL);
	ret = ret ? ret : fi_domain(td.fabric, td.info, &td.domain, NULL);
	ret = ret ? ret : fi_av_open(td.domain, &av_attr, &av, NULL);
	ret = ret ? ret : test_node_open(&a, &td, av, &cq_attr, FI_WAIT_UNSPEC);
	ret = ret ? ret : test_node_open(&b, &td, av, &cq_attr, FI_WAIT_UNSPEC);
	return ret != 0;
}

static int
init_thread_safe(void)
{
	return suite_open(FI_THREAD_SAFE, "net_ring0");
}

static int
init_thread_domain(void)
{
	return suite_open(FI_THREAD_DOMAIN, "net_ring1");
}

static int
suite_clean(void)
{
	test_pair_close(&td, &av, &a, &b);
	return 0;
}

/* Sends len bytes from a to b into a receive of room bytes posted first,
 * and takes a's send completion; b's receive stays in b's port. */
static void
a_to_b(size_t len, void *rbuf, size_t room, void *rctx)
{
	static const char payload[64] = "0123456789abcdefghijklmnopqrstuvwxyz";
	struct fi_cq_data_entry e;
	fi_addr_t src = 0;

	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, rbuf, room, NULL, 0, rctx), 0);
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, payload, len, NULL, b.addr, &a), 0);
	CU_ASSERT_EQUAL(fi_cq_readfrom(a.cq, &e, 1, &src), 1);
	CU_ASSERT_PTR_EQUAL(e.op_context, &a);
	CU_ASSERT_EQUAL(e.flags, FI_SEND | FI_MSG);
	/* a send has no source */
	CU_ASSERT_EQUAL(src, FI_ADDR_NOTAVAIL);
}

/* -- counters -- */

static void
test_cntr_ops(void)
{
	struct fi_cntr_attr attr = { .events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_UNSPEC };
	struct fid_cntr *c;
	struct timespec t0;

	CU_ASSERT_EQUAL_FATAL(fi_cntr_open(td.domain, &attr, &c, NULL), 0);
	CU_ASSERT_EQUAL(fi_cntr_read(c), 0);
	CU_ASSERT_EQUAL(fi_cntr_readerr(c), 0);
	CU_ASSERT_EQUAL(fi_cntr_add(c, 5), 0);
	CU_ASSERT_EQUAL(fi_cntr_add(c, 2), 0);
	CU_ASSERT_EQUAL(fi_cntr_read(c), 7);
	CU_ASSERT_EQUAL(fi_cntr_set(c, 3), 0);
	CU_ASSERT_EQUAL(fi_cntr_read(c), 3);
	CU_ASSERT_EQUAL(fi_cntr_adderr(c, 4), 0);
	CU_ASSERT_EQUAL(fi_cntr_adderr(c, 1), 0);
	CU_ASSERT_EQUAL(fi_cntr_readerr(c), 5);
	CU_ASSERT_EQUAL(fi_cntr_seterr(c, 2), 0);
	CU_ASSERT_EQUAL(fi_cntr_readerr(c), 2);
	/* the two values are apart */
	CU_ASSERT_EQUAL(fi_cntr_read(c), 3);
	/* reached already, below, equal: at once, even with no time to wait */
	CU_ASSERT_EQUAL(fi_cntr_wait(c, 2, 0), 0);
	CU_ASSERT_EQUAL(fi_cntr_wait(c, 3, 0), 0);
	CU_ASSERT_EQUAL(fi_cntr_wait(c, 3, -1), 0);
	/* not reached: the timeout, error value unchanged */
	CU_ASSERT_EQUAL(fi_cntr_wait(c, 4, 0), -FI_ETIMEDOUT);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(fi_cntr_wait(c, 4, SHORT_MS), -FI_ETIMEDOUT);
	CU_ASSERT(RAN_OUT(&t0));
	CU_ASSERT_EQUAL(fi_cntr_readerr(c), 2);
	CU_ASSERT_EQUAL(fi_cntr_read(c), 3);
	CU_ASSERT_EQUAL(fi_cntr_add(c, 1), 0);
	CU_ASSERT_EQUAL(fi_cntr_wait(c, 4, SHORT_MS), 0);
	CU_ASSERT_EQUAL(fi_close(&c->fid), 0);

	/* no wait object: fi_cntr_wait() is invalid (fi_cntr(3)) */
	attr.wait_obj = FI_WAIT_NONE;
	CU_ASSERT_EQUAL_FATAL(fi_cntr_open(td.domain, &attr, &c, NULL), 0);
	CU_ASSERT_EQUAL(fi_cntr_add(c, 1), 0);
	CU_ASSERT_EQUAL(fi_cntr_wait(c, 1, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_cntr_read(c), 1);
	CU_ASSERT_EQUAL(fi_close(&c->fid), 0);
}

static void
test_cntr_wait_progress(void)
{
	uint64_t sent = fi_cntr_read(a.tx_cntr);
	uint64_t got = fi_cntr_read(b.rx_cntr), errs = fi_cntr_readerr(b.rx_cntr);
	struct fi_cq_data_entry e;
	struct fi_cq_err_entry err = { 0 };
	char buf[64], small[2];

	/* the wait itself progresses b: nothing else reads b meanwhile */
	a_to_b(8, buf, sizeof(buf), buf);
	CU_ASSERT_EQUAL(fi_cntr_read(a.tx_cntr), sent + 1);
	CU_ASSERT_EQUAL(fi_cntr_wait(b.rx_cntr, got + 1, TIMEOUT_MS), 0);
	CU_ASSERT_EQUAL(fi_cntr_read(b.rx_cntr), got + 1);
	CU_ASSERT_EQUAL(fi_cq_read(b.cq, &e, 1), 1);
	CU_ASSERT_EQUAL(memcmp(buf, "01234567", 8), 0);

	/* an operation completing in error ends the wait with -FI_EAVAIL */
	a_to_b(8, small, sizeof(small), small);
	CU_ASSERT_EQUAL(fi_cntr_wait(b.rx_cntr, got + 2, TIMEOUT_MS), -FI_EAVAIL);
	CU_ASSERT_EQUAL(fi_cntr_readerr(b.rx_cntr), errs + 1);
	CU_ASSERT_EQUAL(fi_cntr_read(b.rx_cntr), got + 1);
	memset(&err, 0, sizeof(err));
	CU_ASSERT_EQUAL(fi_cq_readerr(b.cq, &err, 0), 1);
	CU_ASSERT_EQUAL(err.err, FI_ETRUNC);
	/* errors from before the wait do not end it */
	CU_ASSERT_EQUAL(fi_cntr_wait(b.rx_cntr, got + 2, SHORT_MS), -FI_ETIMEDOUT);
	CU_ASSERT_EQUAL(fi_cntr_readerr(b.rx_cntr), errs + 1);
}

/* -- completion queues -- */

/* Opens a CQ or, with cntr, a counter waiting on wait: refused. */
static int
open_refused(bool cntr, enum fi_wait_obj wait)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT, .wait_obj = wait };
	struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP, .wait_obj = wait };
	struct fid_cntr *c = NULL;
	struct fid_cq *cq = NULL;
	int ret = cntr ? fi_cntr_open(td.domain, &cntr_attr, &c, NULL) :
			 fi_cq_open(td.domain, &cq_attr, &cq, NULL);

	CU_ASSERT(c == NULL && cq == NULL);
	return ret;
}

/* open_refused() with stderr in a file. @return whether what was logged. */
static bool
refused_logged(bool cntr, enum fi_wait_obj wait, const char *what)
{
	char text[4096] = "";
	FILE *log = tmpfile();
	int saved, ret;
	size_t n;

	if (log == NULL)
		return false;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fileno(log), STDERR_FILENO);
	ret = open_refused(cntr, wait);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(log);
	n = fread(text, 1, sizeof(text) - 1, log);
	text[n] = '\0';
	fclose(log);
	CU_ASSERT_EQUAL(ret, -FI_ENOSYS);
	return strstr(text, what) != NULL;
}

static void
test_wait_fd_refused(void)
{
	static const enum fi_wait_obj refused[] = { FI_WAIT_FD, FI_WAIT_MUTEX_COND };
	size_t i;

	/* nothing would make an fd readable without a thread of the provider */
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		CU_ASSERT(refused_logged(false, refused[i], "CQ wait object"));
		CU_ASSERT(refused_logged(true, refused[i], "counter wait object"));
	}
}

struct sread_arg {
	struct fid_cq *cq;
	ssize_t ret;
	int64_t ms;
};

static void *
sread_thread(void *p)
{
	struct sread_arg *arg = p;
	struct fi_cq_data_entry e;
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);

	arg->ret = fi_cq_sread(arg->cq, &e, 1, NULL, 10 * TIMEOUT_MS);
	arg->ms = (int64_t)test_ms_since(&t0);
	return NULL;
}

static void
test_signal_wakes_sread(void)
{
	struct sread_arg arg = { .cq = a.cq };
	struct fi_cq_data_entry e;
	pthread_t t;

	CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, sread_thread, &arg), 0);
	usleep(SHORT_MS * 1000);
	CU_ASSERT_EQUAL(fi_cq_signal(a.cq), 0);
	pthread_join(t, NULL);
	CU_ASSERT_EQUAL(arg.ret, -FI_EAGAIN);
	CU_ASSERT(arg.ms < TIMEOUT_MS);
	/* the signal woke that one read only */
	CU_ASSERT_EQUAL(fi_cq_sread(a.cq, NULL, 0, NULL, 0), 0);
	CU_ASSERT_EQUAL(fi_cq_sread(a.cq, &e, 1, NULL, 0), -FI_EAGAIN);
}

static void
test_signal_keeps_data(void)
{
	struct fi_cq_data_entry e;
	char buf[16];
	struct timespec t0;

	a_to_b(4, buf, sizeof(buf), buf);
	/* signaled with a completion ready: the completion (fi_cq(3)) */
	CU_ASSERT_EQUAL(fi_cq_signal(b.cq), 0);
	CU_ASSERT_EQUAL(fi_cq_sread(b.cq, &e, 1, NULL, TIMEOUT_MS), 1);
	CU_ASSERT_PTR_EQUAL(e.op_context, buf);
	CU_ASSERT_EQUAL(e.len, 4);
	/* the signal is still pending: the next empty read returns at once */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(fi_cq_sread(b.cq, &e, 1, NULL, TIMEOUT_MS), -FI_EAGAIN);
	CU_ASSERT(test_ms_since(&t0) < TIMEOUT_MS / 2);
	/* and is spent */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(fi_cq_sread(b.cq, &e, 1, NULL, SHORT_MS), -FI_EAGAIN);
	CU_ASSERT(RAN_OUT(&t0));
}

static void
test_readerr_progresses(void)
{
	struct fi_cq_err_entry err = { 0 };
	char small[4];

	/* the truncated datagram waits in b's port: no read of b happened */
	a_to_b(10, small, sizeof(small), small);
	memset(&err, 0, sizeof(err));
	CU_ASSERT_EQUAL(fi_cq_readerr(b.cq, &err, 0), 1);
	CU_ASSERT_EQUAL(err.err, FI_ETRUNC);
	CU_ASSERT_PTR_EQUAL(err.op_context, small);
	CU_ASSERT_EQUAL(err.flags, FI_RECV | FI_MSG);
	CU_ASSERT_EQUAL(err.len, sizeof(small));
	CU_ASSERT_EQUAL(err.olen, 10 - sizeof(small));
	CU_ASSERT_EQUAL(memcmp(small, "0123", 4), 0);
	CU_ASSERT_EQUAL(fi_cq_readerr(b.cq, &err, 0), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_cq_readerr(b.cq, &err, FI_PEEK), -FI_EBADFLAGS);
}

static void
test_error_entry_and_strerror(void)
{
	char small[2], data[8], text[64];
	struct fi_cq_err_entry err = { 0 };
	const char *s;

	a_to_b(5, small, sizeof(small), small);
	/* an application buffer for error data: none given, size 0 */
	memset(&err, 0, sizeof(err));
	err.err_data = data;
	err.err_data_size = sizeof(data);
	CU_ASSERT_EQUAL(fi_cq_readerr(b.cq, &err, 0), 1);
	CU_ASSERT_EQUAL(err.err, FI_ETRUNC);
	CU_ASSERT_EQUAL(err.olen, 3);
	CU_ASSERT_EQUAL(err.err_data_size, 0);
	/* prov_errno names the error, for fi_cq_strerror() */
	CU_ASSERT_EQUAL(err.prov_errno, FI_ETRUNC);
	memset(text, 'x', sizeof(text));
	s = fi_cq_strerror(b.cq, err.prov_errno, err.err_data, text, sizeof(text));
	CU_ASSERT_PTR_EQUAL(s, text);
	CU_ASSERT_STRING_EQUAL(text, fi_strerror(FI_ETRUNC));
	/* a short buffer holds what fits, terminated */
	s = fi_cq_strerror(b.cq, err.prov_errno, NULL, text, 4);
	CU_ASSERT_EQUAL(strlen(s), 3);
	CU_ASSERT_EQUAL(strncmp(s, fi_strerror(FI_ETRUNC), 3), 0);
	/* no buffer: the provider's string */
	s = fi_cq_strerror(b.cq, FI_ECANCELED, NULL, NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s, fi_strerror(FI_ECANCELED));
}

/* One more endpoint on a CQ of its own, sending to b. */
struct side {
	struct fid_cq *cq;
	struct fid_ep *ep;
};

static int
side_open(struct side *s, struct fi_cq_attr *attr)
{
	int ret = fi_cq_open(td.domain, attr, &s->cq, NULL);

	ret = ret ? ret : fi_endpoint(td.domain, td.info, &s->ep, NULL);
	ret = ret ? ret : fi_ep_bind(s->ep, &av->fid, 0);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->cq->fid, FI_TRANSMIT | FI_RECV);
	return ret ? ret : fi_enable(s->ep);
}

static void
side_close(struct side *s)
{
	CU_ASSERT_EQUAL(fi_close(&s->ep->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&s->cq->fid), 0);
}

/* n sends from s to b, received there. */
static void
side_send(struct side *s, int n)
{
	struct fi_cq_data_entry e;
	char buf[8];
	int i;

	for (i = 0; i < n; i++) {
		CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, buf, sizeof(buf), NULL, 0, buf), 0);
		CU_ASSERT_EQUAL_FATAL(fi_send(s->ep, "t", 1, NULL, b.addr, s), 0);
		CU_ASSERT_EQUAL(fi_cq_sread(b.cq, &e, 1, NULL, TIMEOUT_MS), 1);
	}
}

static void
test_threshold(void)
{
	struct fi_cq_attr attr = { .format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_UNSPEC,
				   .wait_cond = FI_CQ_COND_THRESHOLD, .size = 4 };
	struct fi_cq_entry e[8];
	size_t three = 3, many = 100;
	struct side s;
	struct timespec t0;

	CU_ASSERT_EQUAL_FATAL(side_open(&s, &attr), 0);
	/* below the threshold when the time is up: what there is */
	side_send(&s, 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(fi_cq_sread(s.cq, e, 8, &three, SHORT_MS), 1);
	CU_ASSERT(RAN_OUT(&t0));
	CU_ASSERT_PTR_EQUAL(e[0].op_context, &s);
	/* reached: all of them at once */
	side_send(&s, 3);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(fi_cq_sread(s.cq, e, 8, &three, TIMEOUT_MS), 3);
	CU_ASSERT(test_ms_since(&t0) < TIMEOUT_MS / 2);
	/* a threshold beyond the CQ's size or beyond count is reachable */
	side_send(&s, 4);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(fi_cq_sread(s.cq, e, 8, &many, TIMEOUT_MS), 4);
	side_send(&s, 2);
	CU_ASSERT_EQUAL(fi_cq_sread(s.cq, e, 2, &three, TIMEOUT_MS), 2);
	CU_ASSERT(test_ms_since(&t0) < TIMEOUT_MS / 2);
	/* a signal ends the wait with what there is */
	side_send(&s, 1);
	CU_ASSERT_EQUAL(fi_cq_signal(s.cq), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(fi_cq_sread(s.cq, e, 8, &three, TIMEOUT_MS), 1);
	CU_ASSERT(test_ms_since(&t0) < TIMEOUT_MS / 2);
	/* timeout 0: one look */
	CU_ASSERT_EQUAL(fi_cq_sread(s.cq, e, 8, &three, 0), -FI_EAGAIN);
	side_close(&s);
}

/* -- fi_cancel() on a CQ of 4 entries -- */

static void
cancel_check(enum fi_ep_type type)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT, .size = 4 };
	struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct fi_cq_err_entry err = { 0 };
	struct fi_cq_entry e;
	struct test_domain d;
	struct fid_av *lav;
	struct fid_cq *cq;
	struct fid_cntr *c;
	struct fid_ep *ep;
	char buf[8];
	int ctx[8], i;

	CU_ASSERT_EQUAL_FATAL(test_domain_open(&d, type, FI_SOCKADDR_IN, FI_MSG), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_open(d.domain, &av_attr, &lav, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_cq_open(d.domain, &cq_attr, &cq, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_cntr_open(d.domain, &cntr_attr, &c, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_endpoint(d.domain, d.info, &ep, NULL), 0);
	CU_ASSERT_EQUAL(fi_ep_bind(ep, &lav->fid, 0), 0);
	/* selective: no receive is promised a slot, as none asks for a completion */
	CU_ASSERT_EQUAL(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV |
				   FI_SELECTIVE_COMPLETION), 0);
	CU_ASSERT_EQUAL(fi_ep_bind(ep, &c->fid, FI_RECV), 0);
	CU_ASSERT_EQUAL_FATAL(fi_enable(ep), 0);
	for (i = 0; i < 8; i++)
		CU_ASSERT_EQUAL_FATAL(fi_recv(ep, buf, sizeof(buf), NULL, 0, &ctx[i]), 0);
	/* a receive without a context cannot be cancelled (fi_endpoint(3)) */
	CU_ASSERT_EQUAL_FATAL(fi_recv(ep, buf, sizeof(buf), NULL, 0, NULL), 0);
	CU_ASSERT_EQUAL(fi_cancel(&ep->fid, NULL), -FI_ENOENT);
	CU_ASSERT_EQUAL(fi_cq_read(cq, &e, 1), -FI_EAGAIN);
	/* four fit in the CQ; the fifth waits for room, still posted */
	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(fi_cancel(&ep->fid, &ctx[i]), 0);
	CU_ASSERT_EQUAL(fi_cancel(&ep->fid, &ctx[4]), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_cntr_readerr(c), 4);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(fi_cq_read(cq, &e, 1), -FI_EAVAIL);
		memset(&err, 0, sizeof(err));
		CU_ASSERT_EQUAL(fi_cq_readerr(cq, &err, 0), 1);
		CU_ASSERT_EQUAL(err.err, FI_ECANCELED);
		CU_ASSERT_PTR_EQUAL(err.op_context, &ctx[i]);
		CU_ASSERT((err.flags & FI_RECV) != 0);
	}
	for (i = 4; i < 8; i++)
		CU_ASSERT_EQUAL(fi_cancel(&ep->fid, &ctx[i]), 0);
	for (i = 4; i < 8; i++) {
		CU_ASSERT_EQUAL(fi_cq_readerr(cq, &err, 0), 1);
		CU_ASSERT_EQUAL(err.err, FI_ECANCELED);
		CU_ASSERT_PTR_EQUAL(err.op_context, &ctx[i]);
	}
	/* never overrun, and each cancelled receive counted as an error */
	CU_ASSERT_EQUAL(fi_cq_read(cq, &e, 1), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_cq_readerr(cq, &err, 0), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_cntr_readerr(c), 8);
	CU_ASSERT_EQUAL(fi_cntr_read(c), 0);
	CU_ASSERT_EQUAL(fi_cancel(&ep->fid, &ctx[0]), -FI_ENOENT);
	CU_ASSERT_EQUAL(fi_close(&ep->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&c->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&cq->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&lav->fid), 0);
	test_domain_close(&d);
}

static void
test_cancel_dgram(void)
{
	cancel_check(FI_EP_DGRAM);
}

static void
test_cancel_rdm(void)
{
	cancel_check(FI_EP_RDM);
}

static CU_TestInfo cq_tests[] = {
	{ "counter add, set, adderr, seterr, wait and its timeout", test_cntr_ops },
	{ "counter wait progresses; an error ends it", test_cntr_wait_progress },
	{ "FI_WAIT_FD refused, and logged", test_wait_fd_refused },
	{ "fi_cq_signal wakes an sread", test_signal_wakes_sread },
	{ "a pending signal hides no completion", test_signal_keeps_data },
	{ "fi_cq_readerr progresses", test_readerr_progresses },
	{ "error entry fields, fi_cq_strerror", test_error_entry_and_strerror },
	{ "FI_CQ_COND_THRESHOLD, timeouts", test_threshold },
	{ "cancel on a full CQ (DGRAM)", test_cancel_dgram },
	{ "cancel on a full CQ (RDM)", test_cancel_rdm },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo cntr_domain_tests[] = {
	{ "counter add, set, adderr, seterr, wait and its timeout", test_cntr_ops },
	{ "counter wait progresses; an error ends it", test_cntr_wait_progress },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "cq and counters, FI_THREAD_SAFE", init_thread_safe, suite_clean, NULL, NULL,
	  cq_tests },
	{ "counters, FI_THREAD_DOMAIN", init_thread_domain, suite_clean, NULL, NULL,
	  cntr_domain_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	/* warnings on stderr, where test_wait_fd_refused looks for them */
	setenv("FI_LOG_LEVEL", "warn", 0);
	test_env_setup(TEST_EAL_BASE " --vdev=net_ring0 --vdev=net_ring1");
	return test_run(suites);
}
