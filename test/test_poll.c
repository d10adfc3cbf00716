/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Poll sets and wait sets against fi_poll(3), under manual progress. Two
 * FI_EP_DGRAM endpoints on one port talk through the provider's loopback:
 * a datagram waits in the receiver's sink until someone progresses the
 * receiver, which nobody does but a read, fi_poll(), fi_wait(), fi_trywait()
 * or the wait set's helper thread. The receiver b's CQ is in wait set ws,
 * its counters in wait set cws; the sender a has none.
 *
 * The acceptance check: "a DGRAM program that blocks on a wait set
 * must wake when its datagram arrives", blocked in fi_wait() and asleep in
 * poll() on the FI_GETWAIT fd after fi_trywait() returned 0, while a thread
 * sends the datagram DELAY_MS later. The wake-up latency is printed.
 */

#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>

#include "test_util.h"

#define TIMEOUT_MS	2000
#define DELAY_MS	100	/* before the thread sends */
#define SHORT_MS	50	/* a wait that must run out */
#define LATE_MS		90	/* how late a timeout or a wake-up may be, on a loaded machine */

static struct test_domain td;
static struct fid_av *av;
static struct fid_wait *ws, *cws;
static struct test_node a, b;
static const char payload[] = "wake up";

static struct fid_wait *
wait_open(enum fi_wait_obj obj)
{
	struct fi_wait_attr attr = { .wait_obj = obj };
	struct fid_wait *set = NULL;

	return fi_wait_open(td.fabric, &attr, &set) == 0 ? set : NULL;
}

static int
suite_init(void)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_DATA, .wait_obj = FI_WAIT_UNSPEC,
				      .size = 64 };
	struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP,
					  .wait_obj = FI_WAIT_SET };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };

	if (test_domain_open(&td, FI_EP_DGRAM, FI_SOCKADDR_IN, FI_MSG) != 0 ||
	    fi_av_open(td.domain, &av_attr, &av, NULL) != 0 ||
	    test_node_open(&a, &td, av, &cq_attr, FI_WAIT_UNSPEC) != 0)
		return 1;
	ws = wait_open(FI_WAIT_FD);
	cws = wait_open(FI_WAIT_UNSPEC);
	if (ws == NULL || cws == NULL)
		return 1;
	cq_attr.wait_obj = FI_WAIT_SET;
	cq_attr.wait_set = ws;
	cntr_attr.wait_set = cws;
	return test_node_open_attr(&b, &td, av, &cq_attr, &cntr_attr) != 0;
}

static int
suite_clean(void)
{
	struct fid *fids[] = {
		ws != NULL ? &ws->fid : NULL, cws != NULL ? &cws->fid : NULL,
		av != NULL ? &av->fid : NULL,
	};
	size_t i;

	/* the nodes first: the sets are busy while their CQ and counters are open */
	test_node_close(&a);
	test_node_close(&b);
	for (i = 0; i < sizeof(fids) / sizeof(fids[0]); i++) {
		if (fids[i] != NULL)
			fi_close(fids[i]);
	}
	test_domain_close(&td);
	return 0;
}

static int
set_fd(struct fid_wait *set)
{
	int fd = -1;

	CU_ASSERT_EQUAL(fi_control(&set->fid, FI_GETWAIT, &fd), 0);
	return fd;
}

/* Whether fd is readable after up to ms. */
static bool
readable(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN) != 0;
}

static int
trywait(struct fid *fid)
{
	return fi_trywait(td.fabric, &fid, 1);
}

/* Takes a's send completion. */
static void
a_sent(void)
{
	struct fi_cq_data_entry e;

	CU_ASSERT_EQUAL(fi_cq_sread(a.cq, &e, 1, NULL, TIMEOUT_MS), 1);
	CU_ASSERT_PTR_EQUAL(e.op_context, &a);
}

/* Reads b's receive completion into rbuf, which is already there. */
static void
b_received(const char *rbuf)
{
	struct fi_cq_data_entry e;

	CU_ASSERT_EQUAL(fi_cq_read(b.cq, &e, 1), 1);
	CU_ASSERT_PTR_EQUAL(e.op_context, rbuf);
	CU_ASSERT_EQUAL(e.len, sizeof(payload));
	CU_ASSERT_STRING_EQUAL(rbuf, payload);
}

static double
ms_between(const struct timespec *t0, const struct timespec *t1)
{
	return (double)(t1->tv_sec - t0->tv_sec) * 1e3 + (double)(t1->tv_nsec - t0->tv_nsec) / 1e6;
}

/* Sends payload from a to b: after DELAY_MS from a thread, or at once. */
struct sender {
	pthread_t thread;
	struct timespec start;		/* the receiver's wait begins */
	struct timespec sent;
	ssize_t ret;
};

static void *
send_later(void *arg)
{
	struct sender *s = arg;
	struct timespec delay = { .tv_nsec = DELAY_MS * 1000000L };

	nanosleep(&delay, NULL);
	clock_gettime(CLOCK_MONOTONIC, &s->sent);
	s->ret = fi_send(a.ep, payload, sizeof(payload), NULL, b.addr, &a);
	return NULL;
}

static void
sender_start(struct sender *s)
{
	s->ret = -1;
	clock_gettime(CLOCK_MONOTONIC, &s->start);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&s->thread, NULL, send_later, s), 0);
}

/* The receiver is awake: it must have slept until the datagram was sent,
 * and woken soon after. */
static void
sender_check(struct sender *s)
{
	struct timespec woke;
	double late;

	clock_gettime(CLOCK_MONOTONIC, &woke);
	pthread_join(s->thread, NULL);
	CU_ASSERT_EQUAL_FATAL(s->ret, 0);
	CU_ASSERT(ms_between(&s->start, &woke) >= DELAY_MS);
	late = ms_between(&s->sent, &woke);
	CU_ASSERT(late < LATE_MS);
	printf("(woken %.3f ms after the send) ", late);
}

static void
send_now(char *rbuf, size_t len)
{
	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, rbuf, len, NULL, FI_ADDR_UNSPEC, rbuf), 0);
	CU_ASSERT_EQUAL_FATAL(fi_send(a.ep, payload, sizeof(payload), NULL, b.addr, &a), 0);
}

/* -- wait sets -- */

static void
test_wait_open(void)
{
	struct fi_wait_attr attr = { .wait_obj = FI_WAIT_FD };
	static const enum fi_wait_obj nosys[] = {
		FI_WAIT_MUTEX_COND, FI_WAIT_YIELD, FI_WAIT_POLLFD,
	};
	struct fid_wait *set;
	enum fi_wait_obj obj;
	size_t i;
	int fd;

	/* FD and UNSPEC: an fd, not readable while nothing happened */
	set = wait_open(FI_WAIT_UNSPEC);
	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	fd = set_fd(set);
	CU_ASSERT(fd >= 0);
	CU_ASSERT_FALSE(readable(fd, 0));
	CU_ASSERT_EQUAL(fi_control(&set->fid, FI_GETWAITOBJ, &obj), 0);
	CU_ASSERT_EQUAL(obj, FI_WAIT_FD);
	CU_ASSERT_EQUAL(fi_control(&set->fid, FI_GETWAIT, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_control(&set->fid, FI_GETOPSFLAG, &obj), -FI_ENOSYS);
	CU_ASSERT_EQUAL(fi_close(&set->fid), 0);
	CU_ASSERT(set_fd(ws) >= 0);
	/* the other wait objects of fi_poll(3) are not offered */
	for (i = 0; i < sizeof(nosys) / sizeof(nosys[0]); i++) {
		attr.wait_obj = nosys[i];
		CU_ASSERT_EQUAL(fi_wait_open(td.fabric, &attr, &set), -FI_ENOSYS);
	}
	/* and these make no wait set */
	attr.wait_obj = FI_WAIT_NONE;
	CU_ASSERT_EQUAL(fi_wait_open(td.fabric, &attr, &set), -FI_EINVAL);
	attr.wait_obj = FI_WAIT_SET;
	CU_ASSERT_EQUAL(fi_wait_open(td.fabric, &attr, &set), -FI_EINVAL);
	/* flags are reserved */
	attr.wait_obj = FI_WAIT_FD;
	attr.flags = 1;
	CU_ASSERT_EQUAL(fi_wait_open(td.fabric, &attr, &set), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_wait_open(td.fabric, NULL, &set), -FI_EINVAL);
}

static void
test_wait_join(void)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_SET };
	struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_SET };
	struct fi_eq_attr eq_attr = { .wait_obj = FI_WAIT_SET };
	struct fid_wait *set = wait_open(FI_WAIT_FD);
	struct fid_cntr *cntr;
	enum fi_wait_obj obj;
	struct fid_cq *cq;
	struct fid *members[3];
	struct fid_eq *eq;
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	/* FI_WAIT_SET names the set: no set, or something else, is invalid */
	CU_ASSERT_EQUAL(fi_cq_open(td.domain, &cq_attr, &cq, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_cntr_open(td.domain, &cntr_attr, &cntr, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_eq_open(td.fabric, &eq_attr, &eq, NULL), -FI_EINVAL);
	cq_attr.wait_set = (struct fid_wait *)a.cq;
	CU_ASSERT_EQUAL(fi_cq_open(td.domain, &cq_attr, &cq, NULL), -FI_EINVAL);
	cq_attr.wait_set = set;
	cntr_attr.wait_set = set;
	eq_attr.wait_set = set;
	CU_ASSERT_EQUAL_FATAL(fi_cq_open(td.domain, &cq_attr, &cq, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_cntr_open(td.domain, &cntr_attr, &cntr, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_eq_open(td.fabric, &eq_attr, &eq, NULL), 0);
	CU_ASSERT_EQUAL(fi_control(&cq->fid, FI_GETWAITOBJ, &obj), 0);
	CU_ASSERT_EQUAL(obj, FI_WAIT_SET);
	/* fi_poll(3): the set must not be bound to any opened resource to close;
	 * its members leave it as they close */
	members[0] = &cq->fid;
	members[1] = &cntr->fid;
	members[2] = &eq->fid;
	for (i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(fi_close(&set->fid), -FI_EBUSY);
		CU_ASSERT_EQUAL(fi_close(members[i]), 0);
	}
	CU_ASSERT_EQUAL(fi_close(&set->fid), 0);
}

static void
test_wait_timeout(void)
{
	struct timespec t0;
	double ms;

	/* nothing happens: -FI_ETIMEDOUT, after the whole timeout */
	CU_ASSERT_EQUAL(fi_wait(ws, 0), -FI_ETIMEDOUT);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(fi_wait(ws, SHORT_MS), -FI_ETIMEDOUT);
	ms = test_ms_since(&t0);
	CU_ASSERT(ms >= SHORT_MS);
	CU_ASSERT(ms < SHORT_MS + LATE_MS);
	CU_ASSERT_EQUAL(fi_wait(cws, 0), -FI_ETIMEDOUT);
}

/* An EQ event signals the set's fd at once, and fi_wait() returns. */
static void
test_wait_eq(void)
{
	struct fi_eq_attr eq_attr = { .wait_obj = FI_WAIT_SET, .flags = FI_WRITE };
	struct fid_wait *set = wait_open(FI_WAIT_FD);
	struct fi_eq_entry e = { .data = 7 };
	struct timespec t0;
	struct fid_eq *eq;
	uint32_t event;
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	eq_attr.wait_set = set;
	CU_ASSERT_EQUAL_FATAL(fi_eq_open(td.fabric, &eq_attr, &eq, NULL), 0);
	fd = set_fd(set);
	CU_ASSERT_EQUAL(trywait(&set->fid), 0);
	CU_ASSERT_FALSE(readable(fd, 0));
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), sizeof(e));
	CU_ASSERT(readable(fd, 0));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(fi_wait(set, TIMEOUT_MS), 0);
	CU_ASSERT(test_ms_since(&t0) < LATE_MS);
	/* the event waits: not safe to block, for the set and for the EQ in it */
	CU_ASSERT_EQUAL(trywait(&set->fid), -FI_EAGAIN);
	CU_ASSERT_EQUAL(trywait(&eq->fid), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &e, sizeof(e), 0), sizeof(e));
	CU_ASSERT_EQUAL(e.data, 7);
	CU_ASSERT_EQUAL(trywait(&eq->fid), 0);
	CU_ASSERT_FALSE(readable(fd, 0));
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&set->fid), 0);
}

/*
 * The acceptance check, first case: blocked in fi_wait() on the set its CQ
 * is in, the receiver wakes when the datagram arrives, with its completion
 * (fi_wait() progresses the endpoint: no helper is armed, nothing else
 * polls the port).
 */
static void
test_fi_wait_wakes(void)
{
	struct sender s;
	char rbuf[64] = "";

	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, rbuf, sizeof(rbuf), NULL, FI_ADDR_UNSPEC, rbuf), 0);
	sender_start(&s);
	CU_ASSERT_EQUAL(fi_wait(ws, TIMEOUT_MS), 0);
	sender_check(&s);
	b_received(rbuf);
	a_sent();
	CU_ASSERT_EQUAL(fi_wait(ws, 0), -FI_ETIMEDOUT);
}

/* fi_trywait(3) progresses: a datagram still in the receiver's sink is
 * found, and blocking is not safe until its completion was read. */
static void
test_trywait_progresses(void)
{
	struct fid *fids[2] = { &ws->fid, &b.cq->fid };
	char rbuf[64] = "";

	send_now(rbuf, sizeof(rbuf));
	a_sent();
	CU_ASSERT_EQUAL(fi_trywait(td.fabric, fids, 2), -FI_EAGAIN);
	/* a CQ in a set answers for its set */
	CU_ASSERT_EQUAL(trywait(&b.cq->fid), -FI_EAGAIN);
	b_received(rbuf);
	CU_ASSERT_EQUAL(fi_trywait(td.fabric, fids, 2), 0);
	/* what has no wait object of ours, and bad arguments */
	CU_ASSERT_EQUAL(trywait(&a.cq->fid), -FI_EINVAL);
	CU_ASSERT_EQUAL(trywait(&td.domain->fid), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_trywait(td.fabric, NULL, 1), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_trywait(td.fabric, fids, -1), -FI_EINVAL);
}

/*
 * The acceptance check, second case: asleep in poll() on the FI_GETWAIT fd
 * after fi_trywait() returned 0, the receiver wakes when the datagram
 * arrives (the set's helper progresses the endpoint), its completion ready.
 */
static void
test_poll_fd_wakes(void)
{
	int fd = set_fd(ws);
	char rbuf[64] = "";
	struct sender s;

	CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, rbuf, sizeof(rbuf), NULL, FI_ADDR_UNSPEC, rbuf), 0);
	CU_ASSERT_EQUAL_FATAL(trywait(&ws->fid), 0);
	CU_ASSERT_FALSE(readable(fd, 0));
	sender_start(&s);
	CU_ASSERT(readable(fd, TIMEOUT_MS));
	sender_check(&s);
	CU_ASSERT_EQUAL(trywait(&ws->fid), -FI_EAGAIN);
	b_received(rbuf);
	a_sent();
	CU_ASSERT_EQUAL(trywait(&ws->fid), 0);
	CU_ASSERT_FALSE(readable(fd, 0));
}

/* fi_cq_sread still works on a CQ in a wait set. */
static void
test_sread_in_set(void)
{
	struct fi_cq_data_entry e;
	char rbuf[64] = "";

	send_now(rbuf, sizeof(rbuf));
	CU_ASSERT_EQUAL(fi_cq_sread(b.cq, &e, 1, NULL, TIMEOUT_MS), 1);
	CU_ASSERT_PTR_EQUAL(e.op_context, rbuf);
	a_sent();
}

/* A counter wakes its set when a completion changes it, not when the
 * application writes it, and once per change. */
static void
test_cntr_in_set(void)
{
	char rbuf[64] = "";
	uint64_t rx;

	/* the receives of the tests before: seen once */
	CU_ASSERT_EQUAL(fi_wait(cws, 0), 0);
	CU_ASSERT_EQUAL(fi_wait(cws, 0), -FI_ETIMEDOUT);
	CU_ASSERT_EQUAL(fi_cntr_add(b.rx_cntr, 5), 0);
	CU_ASSERT_EQUAL(fi_cntr_set(b.tx_cntr, 3), 0);
	CU_ASSERT_EQUAL(fi_wait(cws, 0), -FI_ETIMEDOUT);
	CU_ASSERT_EQUAL(trywait(&cws->fid), 0);
	rx = fi_cntr_read(b.rx_cntr);
	send_now(rbuf, sizeof(rbuf));
	CU_ASSERT_EQUAL(fi_wait(cws, TIMEOUT_MS), 0);
	CU_ASSERT_EQUAL(fi_cntr_read(b.rx_cntr), rx + 1);
	CU_ASSERT_EQUAL(fi_wait(cws, 0), -FI_ETIMEDOUT);
	CU_ASSERT_EQUAL(trywait(&b.rx_cntr->fid), 0);
	/* a failure changes the error count */
	CU_ASSERT_EQUAL(fi_cntr_adderr(b.rx_cntr, 1), 0);
	CU_ASSERT_EQUAL(fi_wait(cws, 0), -FI_ETIMEDOUT);
	b_received(rbuf);
	a_sent();
}

/* -- poll sets -- */

/* Whether ctx holds p among its n entries. */
static bool
has(void **ctx, int n, const void *p)
{
	int i;

	for (i = 0; i < n; i++) {
		if (ctx[i] == p)
			return true;
	}
	return false;
}

static void
test_poll_contexts(void)
{
	struct fi_poll_attr attr = { 0 };
	struct fid_poll *ps;
	char rbuf[64] = "";
	void *ctx[4];
	int n;

	CU_ASSERT_EQUAL_FATAL(fi_poll_open(td.domain, &attr, &ps), 0);
	CU_ASSERT_EQUAL(fi_poll_add(ps, &b.cq->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_poll_add(ps, &b.rx_cntr->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_poll_add(ps, &b.tx_cntr->fid, 0), 0);
	/* the counters' earlier changes are reported once, then nothing */
	fi_poll(ps, ctx, 4);
	CU_ASSERT_EQUAL(fi_poll(ps, ctx, 4), 0);
	/* fi_poll progresses: the datagram is found in b's sink */
	send_now(rbuf, sizeof(rbuf));
	a_sent();
	n = fi_poll(ps, ctx, 4);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT(has(ctx, n, &b.cq) && has(ctx, n, &b.rx_cntr));
	/* the CQ until read, the counter once */
	CU_ASSERT_EQUAL(fi_poll(ps, ctx, 4), 1);
	CU_ASSERT_PTR_EQUAL(ctx[0], &b.cq);
	b_received(rbuf);
	CU_ASSERT_EQUAL(fi_poll(ps, ctx, 4), 0);
	/* the wait set sees the counter's change for itself */
	CU_ASSERT_EQUAL(fi_wait(cws, 0), 0);
	/* the application's own writes are no event */
	CU_ASSERT_EQUAL(fi_cntr_add(b.rx_cntr, 1), 0);
	CU_ASSERT_EQUAL(fi_cntr_set(b.tx_cntr, 9), 0);
	CU_ASSERT_EQUAL(fi_poll(ps, ctx, 4), 0);
	/* one context at a time: each member gets its turn */
	send_now(rbuf, sizeof(rbuf));
	a_sent();
	CU_ASSERT_EQUAL(fi_poll(ps, &ctx[0], 1), 1);
	CU_ASSERT_EQUAL(fi_poll(ps, &ctx[1], 1), 1);
	CU_ASSERT(has(ctx, 2, &b.cq) && has(ctx, 2, &b.rx_cntr));
	b_received(rbuf);
	CU_ASSERT_EQUAL(fi_wait(cws, 0), 0);
	/* bad arguments */
	CU_ASSERT_EQUAL(fi_poll(ps, NULL, 4), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_poll(ps, ctx, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_poll_del(ps, &b.cq->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_poll_del(ps, &b.rx_cntr->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_poll_del(ps, &b.tx_cntr->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_close(&ps->fid), 0);
}

static void
test_poll_add_del(void)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT };
	struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP };
	struct fi_poll_attr attr = { .flags = 1 };
	struct fid_cntr *cntr;
	struct fid_poll *ps;
	struct fid_cq *cq;

	CU_ASSERT_EQUAL(fi_poll_open(td.domain, &attr, &ps), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_poll_open(td.domain, NULL, &ps), -FI_EINVAL);
	attr.flags = 0;
	CU_ASSERT_EQUAL_FATAL(fi_poll_open(td.domain, &attr, &ps), 0);
	CU_ASSERT_EQUAL_FATAL(fi_cq_open(td.domain, &cq_attr, &cq, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_cntr_open(td.domain, &cntr_attr, &cntr, NULL), 0);
	/* CQs and counters only, once each, no flags */
	CU_ASSERT_EQUAL(fi_poll_add(ps, &ws->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_poll_add(ps, &td.domain->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_poll_add(ps, &cq->fid, 1), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_poll_add(ps, &cq->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_poll_add(ps, &cq->fid, 0), -FI_EALREADY);
	CU_ASSERT_EQUAL(fi_poll_add(ps, &cntr->fid, 0), 0);
	/* neither a member nor the set closes while it holds one */
	CU_ASSERT_EQUAL(fi_close(&cq->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&cntr->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&ps->fid), -FI_EBUSY);
	/* removing what is not in the set */
	CU_ASSERT_EQUAL(fi_poll_del(ps, &a.cq->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_poll_del(ps, &cq->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_poll_del(ps, &cq->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_close(&cq->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&ps->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_poll_del(ps, &cntr->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_close(&cntr->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&ps->fid), 0);
}

/* In an FI_THREAD_DOMAIN domain no provider thread may progress: fi_wait()
 * works, but blocking on the fd is never safe. */
static void
test_thread_domain(void)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_SET };
	struct fi_info *hints = fi_allocinfo();
	struct test_domain d = { 0 };
	struct fid_wait *set;
	struct fid_cq *cq;
	struct fid *fid;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hints);
	hints->ep_attr->type = FI_EP_DGRAM;
	hints->caps = FI_MSG;
	hints->domain_attr->threading = FI_THREAD_DOMAIN;
	hints->domain_attr->name = strdup("net_ring1");
	CU_ASSERT_EQUAL_FATAL(test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &d.info), 0);
	fi_freeinfo(hints);
	CU_ASSERT_EQUAL_FATAL(fi_fabric(d.info->fabric_attr, &d.fabric, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_domain(d.fabric, d.info, &d.domain, NULL), 0);
	/* a set of another fabric (instance) is not this CQ's */
	cq_attr.wait_set = ws;
	CU_ASSERT_EQUAL(fi_cq_open(d.domain, &cq_attr, &cq, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_wait_open(d.fabric, &(struct fi_wait_attr){ .wait_obj = FI_WAIT_FD },
				     &set), 0);
	cq_attr.wait_set = set;
	CU_ASSERT_EQUAL_FATAL(fi_cq_open(d.domain, &cq_attr, &cq, NULL), 0);
	fid = &set->fid;
	CU_ASSERT_EQUAL(fi_wait(set, 0), -FI_ETIMEDOUT);
	CU_ASSERT_EQUAL(fi_trywait(d.fabric, &fid, 1), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_close(&cq->fid), 0);
	/* without it, the set may block again */
	CU_ASSERT_EQUAL(fi_trywait(d.fabric, &fid, 1), 0);
	CU_ASSERT_EQUAL(fi_close(&set->fid), 0);
	test_domain_close(&d);
}

static CU_TestInfo poll_tests[] = {
	{ "fi_wait_open: FD and UNSPEC give an fd, other wait objects refused",
	  test_wait_open },
	{ "FI_WAIT_SET joins CQs, counters, EQs; a set with members is busy", test_wait_join },
	{ "fi_wait times out with -FI_ETIMEDOUT", test_wait_timeout },
	{ "an EQ event signals the fd and ends fi_wait", test_wait_eq },
	/* before any fi_trywait() arms ws's helper, which would progress b too */
	{ "a receiver blocked in fi_wait wakes with its datagram", test_fi_wait_wakes },
	{ "fi_poll returns the contexts of CQs and counters with events", test_poll_contexts },
	{ "fi_poll_add, fi_poll_del, busy members and sets", test_poll_add_del },
	{ "fi_trywait progresses; -FI_EAGAIN until read", test_trywait_progresses },
	{ "a receiver in poll() after fi_trywait wakes with its datagram", test_poll_fd_wakes },
	{ "fi_cq_sread on a CQ in a wait set", test_sread_in_set },
	{ "a counter wakes its set when a completion changes it", test_cntr_in_set },
	{ "FI_THREAD_DOMAIN: fi_wait, and fi_trywait never 0", test_thread_domain },
	CU_TEST_INFO_NULL,
};

int
main(void)
{
	CU_SuiteInfo suites[] = {
		{ "poll and wait sets", suite_init, suite_clean, NULL, NULL, poll_tests },
		CU_SUITE_INFO_NULL,
	};

	/* net_ring1 for the FI_THREAD_DOMAIN domain */
	test_env_setup(TEST_EAL_BASE " --vdev=net_ring0 --vdev=net_ring1");
	return test_run(suites);
}
