/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Event queues against fi_eq(3): wait objects NONE, UNSPEC, FD and YIELD,
 * read/readerr/write/sread/strerror, FI_PEEK, sizes (0: the default) and
 * provider events that never overrun, timeouts to the tens of milliseconds,
 * the FD an epoll set can wait on, fi_trywait, error entries of API versions
 * before 1.5, and the objects bound to an EQ.
 */

#include <arpa/inet.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fi_domain.h>
#include <rdma/fi_eq.h>

#include "test_util.h"

static struct test_domain td;
static struct fid_fabric *fabric;
static struct fid_domain *domain;

static int
suite_init(void)
{
	int ret = test_domain_open(&td, FI_EP_RDM, FI_FORMAT_UNSPEC, 0);

	fabric = td.fabric;
	domain = td.domain;
	return ret != 0;
}

static int
suite_clean(void)
{
	test_domain_close(&td);
	return 0;
}

static struct fid_eq *
eq_open(enum fi_wait_obj wait_obj, size_t size, uint64_t flags)
{
	struct fi_eq_attr attr = { .size = size, .flags = flags, .wait_obj = wait_obj };
	struct fid_eq *eq = NULL;

	CU_ASSERT_EQUAL(fi_eq_open(fabric, &attr, &eq, NULL), 0);
	return eq;
}

/* The tens of milliseconds the timeouts are accurate to: never early, and
 * late by less than this. */
#define TIMEOUT_MS	50
#define LATE_MS		90

static void
test_open(void)
{
	struct fi_eq_attr attr = { .wait_obj = FI_WAIT_NONE };
	struct fid_eq *eq;
	static const enum fi_wait_obj ok[] = {
		FI_WAIT_NONE, FI_WAIT_UNSPEC, FI_WAIT_FD, FI_WAIT_YIELD,
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		attr.wait_obj = ok[i];
		CU_ASSERT_EQUAL_FATAL(fi_eq_open(fabric, &attr, &eq, NULL), 0);
		CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
	}
	/* a wait set is offered, but must be named (test_poll.c joins one) */
	attr.wait_obj = FI_WAIT_SET;
	CU_ASSERT_EQUAL(fi_eq_open(fabric, &attr, &eq, NULL), -FI_EINVAL);
	attr.wait_obj = FI_WAIT_MUTEX_COND;
	CU_ASSERT_EQUAL(fi_eq_open(fabric, &attr, &eq, NULL), -FI_ENOSYS);
	attr.wait_obj = FI_WAIT_NONE;
	attr.flags = FI_SEND;
	CU_ASSERT_EQUAL(fi_eq_open(fabric, &attr, &eq, NULL), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_eq_open(fabric, NULL, &eq, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_eq_open(fabric, &attr, NULL, NULL), -FI_EINVAL);
	/* the fabric cannot close under an EQ */
	attr.flags = 0;
	CU_ASSERT_EQUAL_FATAL(fi_eq_open(fabric, &attr, &eq, NULL), 0);
	CU_ASSERT_EQUAL(fi_close(&fabric->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
}

static void
test_write_read_peek(void)
{
	struct fid_eq *eq = eq_open(FI_WAIT_NONE, 4, FI_WRITE);
	struct fi_eq_entry in = { .context = &in, .data = 42 }, out;
	uint32_t event = 0;
	char tiny[8];

	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &out, sizeof(out), 0), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &in, sizeof(in), 0), sizeof(in));
	/* FI_PEEK leaves it there */
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &out, sizeof(out), FI_PEEK), sizeof(out));
	CU_ASSERT_EQUAL(event, FI_NOTIFY);
	CU_ASSERT_EQUAL(out.data, 42);
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, tiny, sizeof(tiny), 0), -FI_ETOOSMALL);
	memset(&out, 0, sizeof(out));
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &out, sizeof(out), 0), sizeof(out));
	CU_ASSERT_PTR_EQUAL(out.context, &in);
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &out, sizeof(out), 0), -FI_EAGAIN);
	/* bad input */
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &out, sizeof(out), FI_SEND), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &in, sizeof(in), 1), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, NULL, sizeof(in), 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &in, 0, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &in, 1 << 20, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
	/* writing needs FI_WRITE */
	eq = eq_open(FI_WAIT_NONE, 4, 0);
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &in, sizeof(in), 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
}

static void
test_size(void)
{
	struct fid_eq *eq = eq_open(FI_WAIT_NONE, 8, FI_WRITE);
	struct fi_eq_entry e = { .data = 0 };
	uint32_t event;
	int i;

	for (i = 0; i < 8; i++) {
		e.data = (uint64_t)i;
		CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), sizeof(e));
	}
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), -FI_EAGAIN);
	for (i = 0; i < 8; i++) {
		CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &e, sizeof(e), 0), sizeof(e));
		CU_ASSERT_EQUAL(e.data, (uint64_t)i);	/* in order */
	}
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
}

/* fi_eq(3): size is a minimum; 0 asks for the provider's default (1024). */
static void
test_size_default(void)
{
	struct fid_eq *eq = eq_open(FI_WAIT_NONE, 0, FI_WRITE);
	struct fi_eq_entry e = { .data = 0 };
	uint32_t event;
	int i, written = 0;

	for (i = 0; i < 1024; i++)
		written += fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0) == sizeof(e);
	CU_ASSERT_EQUAL(written, 1024);
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &e, sizeof(e), 0), sizeof(e));
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), sizeof(e));
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
}

static void
test_sread_timeout(void)
{
	static const enum fi_wait_obj objs[] = { FI_WAIT_UNSPEC, FI_WAIT_FD, FI_WAIT_YIELD };
	struct fi_eq_entry e = { .data = 7 };
	struct timespec t0;
	struct fid_eq *eq;
	uint32_t event;
	double ms;
	size_t i;

	for (i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		eq = eq_open(objs[i], 4, FI_WRITE);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		CU_ASSERT_EQUAL(fi_eq_sread(eq, &event, &e, sizeof(e), TIMEOUT_MS, 0), -FI_EAGAIN);
		ms = test_ms_since(&t0);
		CU_ASSERT(ms >= TIMEOUT_MS);
		CU_ASSERT(ms < TIMEOUT_MS + LATE_MS);
		if (ms < TIMEOUT_MS || ms >= TIMEOUT_MS + LATE_MS)
			fprintf(stderr, "wait object %d: a %d ms sread took %.2f ms\n", objs[i],
				TIMEOUT_MS, ms);
		/* a timeout of 0 polls */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		CU_ASSERT_EQUAL(fi_eq_sread(eq, &event, &e, sizeof(e), 0, 0), -FI_EAGAIN);
		CU_ASSERT(test_ms_since(&t0) < LATE_MS);
		/* an event waiting returns at once */
		CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), sizeof(e));
		clock_gettime(CLOCK_MONOTONIC, &t0);
		CU_ASSERT_EQUAL(fi_eq_sread(eq, &event, &e, sizeof(e), 2000, 0), sizeof(e));
		CU_ASSERT(test_ms_since(&t0) < LATE_MS);
		CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
	}
	/* no wait object, no blocking read */
	eq = eq_open(FI_WAIT_NONE, 4, 0);
	CU_ASSERT_EQUAL(fi_eq_sread(eq, &event, &e, sizeof(e), 10, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
}

static void *
late_writer(void *arg)
{
	struct fi_eq_entry e = { .data = 99 };

	usleep(100000);
	fi_eq_write(arg, FI_NOTIFY, &e, sizeof(e), 0);
	return NULL;
}

static void
test_sread_wakes(void)
{
	static const enum fi_wait_obj objs[] = { FI_WAIT_UNSPEC, FI_WAIT_FD, FI_WAIT_YIELD };
	struct fi_eq_entry e;
	pthread_t thread;
	uint32_t event;
	size_t i;
	struct fid_eq *eq;

	for (i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		eq = eq_open(objs[i], 4, FI_WRITE);
		CU_ASSERT_EQUAL_FATAL(pthread_create(&thread, NULL, late_writer, eq), 0);
		/* an infinite wait returns with the event */
		CU_ASSERT_EQUAL(fi_eq_sread(eq, &event, &e, sizeof(e), -1, 0), sizeof(e));
		CU_ASSERT_EQUAL(e.data, 99);
		pthread_join(thread, NULL);
		CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
	}
}

static void
test_wait_fd_epoll(void)
{
	struct fid_eq *eq = eq_open(FI_WAIT_FD, 4, FI_WRITE);
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct fi_eq_entry e = { .data = 1 };
	enum fi_wait_obj obj;
	struct fid *fids[1];
	struct timespec t0;
	uint32_t event;
	int fd = -1, ep;
	double ms;

	CU_ASSERT_EQUAL_FATAL(fi_control(&eq->fid, FI_GETWAIT, &fd), 0);
	CU_ASSERT(fd >= 0);
	CU_ASSERT_EQUAL(fi_control(&eq->fid, FI_GETWAITOBJ, &obj), 0);
	CU_ASSERT_EQUAL(obj, FI_WAIT_FD);
	ep = epoll_create1(0);
	CU_ASSERT_EQUAL_FATAL(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), 0);
	fids[0] = &eq->fid;
	CU_ASSERT_EQUAL(fi_trywait(fabric, fids, 1), 0);
	/* an empty EQ's fd waits out the whole timeout, and no more */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(epoll_wait(ep, &out, 1, TIMEOUT_MS), 0);
	ms = test_ms_since(&t0);
	CU_ASSERT(ms >= TIMEOUT_MS - 1);	/* epoll rounds to its own millisecond */
	CU_ASSERT(ms < TIMEOUT_MS + LATE_MS);
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), sizeof(e));
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), sizeof(e));
	CU_ASSERT_EQUAL(epoll_wait(ep, &out, 1, 1000), 1);
	CU_ASSERT_EQUAL(fi_trywait(fabric, fids, 1), -FI_EAGAIN);
	/* readable while anything waits */
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &e, sizeof(e), 0), sizeof(e));
	CU_ASSERT_EQUAL(epoll_wait(ep, &out, 1, 0), 1);
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &e, sizeof(e), 0), sizeof(e));
	CU_ASSERT_EQUAL(epoll_wait(ep, &out, 1, 50), 0);
	CU_ASSERT_EQUAL(fi_trywait(fabric, fids, 1), 0);
	/* trywait on something that is not an EQ of ours */
	fids[0] = &domain->fid;
	CU_ASSERT_EQUAL(fi_trywait(fabric, fids, 1), -FI_EINVAL);
	close(ep);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
	/* no FD for FI_WAIT_NONE */
	eq = eq_open(FI_WAIT_NONE, 4, 0);
	CU_ASSERT_EQUAL(fi_control(&eq->fid, FI_GETWAIT, &fd), -FI_ENODATA);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
}

/* Bad addresses, for AV inserts that post errors: port 0, address 0. */
static void
bad_addrs(struct sockaddr_in *bad, size_t n)
{
	memset(bad, 0, n * sizeof(*bad));
	while (n-- > 0)
		bad[n].sin_family = AF_INET;
}

/*
 * Provider events through an AV with FI_EVENT, into an EQ of size 2: the
 * provider's own events are never lost, the EQ taking them past its size
 * (fi_eq(3): the size is a minimum); fi_eq_write() is bounded by it.
 */
static void
test_errors_past_size(void)
{
	struct fid_eq *eq = eq_open(FI_WAIT_FD, 2, FI_WRITE);
	struct fi_av_attr attr = { .type = FI_AV_TABLE, .flags = FI_EVENT };
	struct sockaddr_in bad[4];
	struct fi_eq_err_entry err = { 0 };
	struct fi_eq_entry e;
	struct fid_av *av;
	char err_buf[16], str[64];
	uint32_t event;
	int i;

	bad_addrs(bad, 4);
	CU_ASSERT_EQUAL_FATAL(fi_av_open(domain, &attr, &av, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_bind(av, &eq->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), -FI_EBUSY);
	/* 4 errors and a completion, into room for 2 */
	CU_ASSERT_EQUAL(fi_av_insert(av, bad, 4, NULL, 0, NULL), 0);
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), -FI_EAGAIN);
	memset(&err, 0, sizeof(err));
	err.err_data = err_buf;
	err.err_data_size = sizeof(err_buf);
	CU_ASSERT_EQUAL(fi_eq_readerr(eq, &err, FI_PEEK), sizeof(err));
	CU_ASSERT_EQUAL(err.err, FI_EADDRNOTAVAIL);
	CU_ASSERT_EQUAL(err.err_data_size, 0);	/* no provider data */
	CU_ASSERT_PTR_NOT_NULL(fi_eq_strerror(eq, err.prov_errno, err.err_data, str,
					      sizeof(str)));
	CU_ASSERT_STRING_EQUAL(fi_eq_strerror(eq, FI_EINVAL, NULL, NULL, 0),
			       fi_strerror(FI_EINVAL));
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &e, sizeof(e), 0), -FI_EAVAIL);
		CU_ASSERT_EQUAL(fi_eq_readerr(eq, &err, 0), sizeof(err));
		CU_ASSERT_EQUAL(err.err, FI_EADDRNOTAVAIL);
		CU_ASSERT_EQUAL(err.data, (uint64_t)i);
	}
	CU_ASSERT_EQUAL(fi_eq_readerr(eq, &err, 0), -FI_EAGAIN);
	/* the completion fi_eq(3) promises, and no overrun */
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &e, sizeof(e), 0), sizeof(e));
	CU_ASSERT_EQUAL(event, FI_AV_COMPLETE);
	CU_ASSERT_EQUAL(e.data, 0);
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &e, sizeof(e), 0), -FI_EAGAIN);
	/* the EQ is as good as new */
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), sizeof(e));
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), sizeof(e));
	CU_ASSERT_EQUAL(fi_eq_write(eq, FI_NOTIFY, &e, sizeof(e), 0), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_close(&av->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
}

static void
test_readerr_bad_input(void)
{
	struct fid_eq *eq = eq_open(FI_WAIT_NONE, 4, 0);
	struct fi_eq_err_entry err = { 0 };

	CU_ASSERT_EQUAL(fi_eq_readerr(eq, NULL, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_eq_readerr(eq, &err, FI_SEND), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_eq_readerr(eq, &err, 0), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
}

/* Before API 1.5 an error entry ends with err_data: readerr writes and counts
 * no more than that. */
static void
test_readerr_before_1_5(void)
{
	struct fi_av_attr attr = { .type = FI_AV_TABLE, .flags = FI_EVENT };
	struct fi_eq_attr eq_attr = { .size = 4, .wait_obj = FI_WAIT_NONE };
	struct fi_info *hints = fi_allocinfo(), *info = NULL;
	size_t n = offsetof(struct fi_eq_err_entry, err_data_size);
	struct fid_fabric *fab = NULL;
	struct fid_domain *dom = NULL;
	struct fi_eq_err_entry err = { 0 };
	struct sockaddr_in bad;
	struct fid_eq *eq = NULL;
	struct fid_av *av = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hints);
	hints->ep_attr->type = FI_EP_RDM;
	CU_ASSERT_EQUAL_FATAL(test_getinfo(FI_VERSION(1, 4), NULL, NULL, 0, hints, &info), 0);
	fi_freeinfo(hints);
	CU_ASSERT_EQUAL_FATAL(fi_fabric(info->fabric_attr, &fab, NULL), 0);
	CU_ASSERT_EQUAL(fab->api_version, FI_VERSION(1, 4));
	CU_ASSERT_EQUAL_FATAL(fi_domain(fab, info, &dom, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_eq_open(fab, &eq_attr, &eq, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_open(dom, &attr, &av, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_bind(av, &eq->fid, 0), 0);
	bad_addrs(&bad, 1);
	CU_ASSERT_EQUAL(fi_av_insert(av, &bad, 1, NULL, 0, NULL), 0);
	memset(&err, 0xab, sizeof(err));
	CU_ASSERT_EQUAL(fi_eq_readerr(eq, &err, 0), (ssize_t)n);
	CU_ASSERT_EQUAL(err.err, FI_EADDRNOTAVAIL);
	CU_ASSERT_EQUAL(err.err_data_size, (size_t)0xababababababababULL);
	CU_ASSERT_EQUAL(fi_close(&av->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&dom->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&fab->fid), 0);
	fi_freeinfo(info);
}

static void
test_domain_bind(void)
{
	struct fid_eq *eq = eq_open(FI_WAIT_UNSPEC, 4, 0);
	struct fid_domain *d2;

	CU_ASSERT_EQUAL_FATAL(fi_domain(fabric, td.info, &d2, NULL), 0);
	CU_ASSERT_EQUAL(fi_domain_bind(d2, &eq->fid, FI_SEND), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_domain_bind(d2, &eq->fid, FI_REG_MR), 0);
	CU_ASSERT_EQUAL(fi_domain_bind(d2, &eq->fid, 0), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&d2->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&eq->fid), 0);
}

static CU_TestInfo eq_tests[] = {
	{ "open: wait objects, flags", test_open },
	{ "write, read, FI_PEEK", test_write_read_peek },
	{ "size bounds writes", test_size },
	{ "size 0: the default", test_size_default },
	{ "sread timeout", test_sread_timeout },
	{ "sread wakes for an event", test_sread_wakes },
	{ "FI_WAIT_FD with epoll, fi_trywait", test_wait_fd_epoll },
	{ "provider errors past the size, err_data", test_errors_past_size },
	{ "readerr: bad input", test_readerr_bad_input },
	{ "readerr before API 1.5", test_readerr_before_1_5 },
	{ "fi_domain_bind", test_domain_bind },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "eq", suite_init, suite_clean, NULL, NULL, eq_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	test_env_setup(TEST_EAL_BASE " --vdev=net_null0");
	return test_run(suites);
}
