/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * What an application sees while its port's link is down (fi_dpdk(7), "Link
 * state"): FI_EP_RDM operations are accepted and held, retried as the link
 * allows, and either complete once it is up or fail, each with an error
 * completion, when FI_DPDK_RDM_TIMEOUT_MS has passed; an FI_EP_DGRAM send
 * is refused at once with -FI_ENETDOWN. Nine memif ports in one process:
 *   - net_memif2 is a client whose server never exists: its endpoint still
 *     enables, and every kind of operation posted on it, injects included,
 *     ends in an FI_ENETDOWN error completion within the deadline, neither
 *     before nor long after it; the endpoint and the process then close
 *     cleanly;
 *   - with the memif0-memif1 link up, a send to an address nobody answers
 *     ARP for waits behind ARP and fails with FI_ETIMEDOUT at the deadline;
 *   - net_memif4 is a client of net_memif3, which no endpoint has started:
 *     memif refuses the client ("ID not found") and never tries again by
 *     itself. Messages posted on net_memif4 meanwhile wait; once an endpoint
 *     starts net_memif3, the client port connects again and every message
 *     arrives, in order and bit-exact, and no send fails;
 *   - net_memif6, refused so by net_memif5, whose port starts right after,
 *     connects again within its restarts' back-off, not a second later;
 *   - net_memif8, a client of net_memif7, that pair's alone: once the link
 *     is up, every page of memif's shared region (rings and buffers) is
 *     mapped at both ends, so that no frame size takes a page fault the
 *     first time it reaches further into a slot.
 *
 * "test_link watchdog" runs alone, with faults on every port: an
 * application that injects messages and then stops calling into libfabric
 * (fi_pingpong after its last fi_inject) must not leave them lost, since
 * only their sender can send them again; the domain's watchdog thread does
 * it. FI_THREAD_DOMAIN domains have no watchdog, and there what the
 * application left lost stays lost until it progresses again. The
 * watchdog's thread runs off the application's lcore (its EAL has lcore 0
 * alone). While the application progresses, the watchdog's looks space
 * out (each wakes a thread that takes a CPU from a poller), unless the
 * CPUs are crowded, and they come back to one a millisecond once it stays
 * away.
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_ethdev.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include "ep_stats.h"
#include "proc_self.h"
#include "queue.h"
#include "test_util.h"

#define DEADLINE_MS	600
#define DEADLINE_STR	"600"
#define LATE_MS		1500	/* how far past the deadline an error may come */
#define SERVER_SERVICE	"7000"
#define NB_MSGS		12
#define MSG_MAX		(64 * 1024)
#define TAG		0x77

/* The threading model of the domains side_open() opens, or as offered. */
static enum fi_threading threading = FI_THREAD_UNSPEC;
/* The traffic class of the endpoints side_open() opens. */
static uint32_t side_tclass = FI_TC_UNSPEC;

/* A domain on one named port, and an RDM (or DGRAM) endpoint on it. */
struct side {
	struct fi_info *info;
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fid_av *av;
	struct fid_cq *cq;
	struct fid_ep *ep;
};

/* The info of port's RDM or DGRAM entry, bound to service when not NULL. */
static int
info_get_type(struct fi_info **info, const char *port, enum fi_ep_type type,
	      const char *service)
{
	struct fi_info *hints = fi_allocinfo();
	int ret;

	if (hints == NULL)
		return -FI_ENOMEM;
	hints->ep_attr->type = type;
	hints->caps = type == FI_EP_RDM ? FI_MSG | FI_TAGGED | FI_RMA : FI_MSG;
	hints->mode = FI_CONTEXT;
	hints->domain_attr->name = strdup(port);
	ret = test_getinfo(FI_VERSION(1, 17), NULL, service, service ? FI_SOURCE : 0, hints,
			   info);
	fi_freeinfo(hints);
	return ret;
}

static int
info_get(struct fi_info **info, const char *port, const char *service)
{
	return info_get_type(info, port, FI_EP_RDM, service);
}

static int
side_open_cq(struct side *s, const char *port, enum fi_ep_type type, const char *service,
	     size_t cq_size)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = cq_size };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	int ret;

	memset(s, 0, sizeof(*s));
	ret = info_get_type(&s->info, port, type, service);
	if (ret == 0 && threading != FI_THREAD_UNSPEC)
		s->info->domain_attr->threading = threading;
	if (ret == 0)
		s->info->tx_attr->tclass = side_tclass;
	ret = ret ? ret : fi_fabric(s->info->fabric_attr, &s->fabric, NULL);
	ret = ret ? ret : fi_domain(s->fabric, s->info, &s->domain, NULL);
	ret = ret ? ret : fi_av_open(s->domain, &av_attr, &s->av, NULL);
	ret = ret ? ret : fi_cq_open(s->domain, &cq_attr, &s->cq, NULL);
	ret = ret ? ret : fi_endpoint(s->domain, s->info, &s->ep, NULL);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->av->fid, 0);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->cq->fid, FI_TRANSMIT | FI_RECV);
	ret = ret ? ret : fi_enable(s->ep);
	return ret;
}

static int
side_open(struct side *s, const char *port, enum fi_ep_type type, const char *service)
{
	return side_open_cq(s, port, type, service, 256);
}

static void
side_close(struct side *s)
{
	struct fid *fids[] = {
		s->ep ? &s->ep->fid : NULL, s->cq ? &s->cq->fid : NULL,
		s->av ? &s->av->fid : NULL, s->domain ? &s->domain->fid : NULL,
		s->fabric ? &s->fabric->fid : NULL,
	};
	size_t i;

	for (i = 0; i < sizeof(fids) / sizeof(fids[0]); i++) {
		if (fids[i] != NULL)
			CU_ASSERT_EQUAL(fi_close(fids[i]), 0);
	}
	fi_freeinfo(s->info);
	memset(s, 0, sizeof(*s));
}

/* -- a link that never comes up -- */

static void
test_never_up(void)
{
	struct fi_context ctx[4];
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct timespec t0;
	struct side s;
	fi_addr_t peer = FI_ADDR_NOTAVAIL;
	char buf[256] = "never sent", rbuf[64];
	int seen[4] = { 0 }, nb_err = 0, nb_null = 0, wrong = 0, i;
	double first_ms = -1, last_ms = 0, ms;
	ssize_t n;

	setenv("FI_DPDK_RDM_TIMEOUT_MS", DEADLINE_STR, 1);
	/* memif2's server never exists: the port starts anyway, link down */
	CU_ASSERT_EQUAL_FATAL(side_open(&s, "net_memif2", FI_EP_RDM, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_insertsvc(s.av, "169.254.7.7", "5000", &peer, 0, NULL), 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* every kind of operation is taken and held: nothing says "down" yet */
	CU_ASSERT_EQUAL(fi_send(s.ep, buf, sizeof(buf), NULL, peer, &ctx[0]), 0);
	CU_ASSERT_EQUAL(fi_inject(s.ep, buf, 16, peer), 0);
	CU_ASSERT_EQUAL(fi_tsend(s.ep, buf, sizeof(buf), NULL, peer, TAG, &ctx[1]), 0);
	CU_ASSERT_EQUAL(fi_tinject(s.ep, buf, 16, peer, TAG), 0);
	CU_ASSERT_EQUAL(fi_write(s.ep, buf, sizeof(buf), NULL, peer, 0, 0x1234, &ctx[2]), 0);
	CU_ASSERT_EQUAL(fi_read(s.ep, rbuf, sizeof(rbuf), NULL, peer, 0, 0x1234, &ctx[3]), 0);
	while (nb_err < 6 && test_ms_since(&t0) < DEADLINE_MS + LATE_MS + 1000) {
		n = fi_cq_read(s.cq, &e, 1);
		if (n == 1) {
			wrong++;	/* nothing can succeed */
			continue;
		}
		if (n != -FI_EAVAIL)
			continue;
		memset(&err, 0, sizeof(err));
		CU_ASSERT_EQUAL_FATAL(fi_cq_readerr(s.cq, &err, 0), 1);
		ms = test_ms_since(&t0);
		first_ms = first_ms < 0 ? ms : first_ms;
		last_ms = ms;
		nb_err++;
		wrong += err.err != FI_ENETDOWN;
		if (err.op_context == NULL) {
			nb_null++;	/* the injects, which had no context */
			continue;
		}
		for (i = 0; i < 4; i++)
			seen[i] += err.op_context == &ctx[i];
	}
	printf("\n    link never up: %d error completions, from %.0f to %.0f ms after the "
	       "posts (deadline %d ms)\n", nb_err, first_ms, last_ms, DEADLINE_MS);
	/* fi_cq(3): injects and unsignaled operations report their errors too */
	CU_ASSERT_EQUAL(nb_err, 6);
	CU_ASSERT_EQUAL(nb_null, 2);
	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(seen[i], 1);
	CU_ASSERT_EQUAL(wrong, 0);
	CU_ASSERT(first_ms >= DEADLINE_MS);
	CU_ASSERT(last_ms <= DEADLINE_MS + LATE_MS);
	CU_ASSERT_EQUAL(fi_cq_read(s.cq, &e, 1), -FI_EAGAIN);
	side_close(&s);
}

/* An inject's error has no slot promised: with the only one taken, it waits. */
static void
test_error_waits_for_room(void)
{
	struct fi_cq_err_entry err[2] = { { 0 } };
	struct fi_cq_tagged_entry e;
	struct fi_context ctx;
	struct timespec t0;
	struct side s;
	fi_addr_t peer = FI_ADDR_NOTAVAIL;
	char buf[16] = "no room";
	int nb = 0;
	ssize_t n;

	setenv("FI_DPDK_RDM_TIMEOUT_MS", DEADLINE_STR, 1);
	CU_ASSERT_EQUAL_FATAL(side_open_cq(&s, "net_memif2", FI_EP_RDM, NULL, 1), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_insertsvc(s.av, "169.254.7.7", "5000", &peer, 0, NULL), 1);
	CU_ASSERT_EQUAL(fi_send(s.ep, buf, sizeof(buf), NULL, peer, &ctx), 0);
	/* the CQ's one slot is promised to that send */
	CU_ASSERT_EQUAL(fi_send(s.ep, buf, sizeof(buf), NULL, peer, &ctx), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_inject(s.ep, buf, sizeof(buf), peer), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (nb < 2 && test_ms_since(&t0) < DEADLINE_MS + LATE_MS) {
		n = fi_cq_read(s.cq, &e, 1);
		if (n != -FI_EAVAIL)
			continue;
		memset(&err[nb], 0, sizeof(err[nb]));
		CU_ASSERT_EQUAL_FATAL(fi_cq_readerr(s.cq, &err[nb], 0), 1);
		nb++;
	}
	/* the send's error in its slot first, then the inject's */
	CU_ASSERT_EQUAL_FATAL(nb, 2);
	CU_ASSERT_PTR_EQUAL(err[0].op_context, &ctx);
	CU_ASSERT_PTR_NULL(err[1].op_context);
	CU_ASSERT(err[0].err == FI_ENETDOWN && err[1].err == FI_ENETDOWN);
	CU_ASSERT_EQUAL(fi_cq_read(s.cq, &e, 1), -FI_EAGAIN);
	side_close(&s);
}

/* Progresses a and b until the links of ports pa and pb are up, at most 5 s
 * (a memif handshake is slow on a loaded machine). @return whether they are. */
static bool
links_up(struct side *a, struct side *b, const char *pa, const char *pb)
{
	struct rte_eth_link la, lb;
	struct timespec t0;
	uint16_t ia, ib;

	if (rte_eth_dev_get_port_by_name(pa, &ia) != 0 ||
	    rte_eth_dev_get_port_by_name(pb, &ib) != 0)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		fi_cq_read(a->cq, NULL, 0);
		fi_cq_read(b->cq, NULL, 0);
		if (rte_eth_link_get_nowait(ia, &la) == 0 && la.link_status == RTE_ETH_LINK_UP &&
		    rte_eth_link_get_nowait(ib, &lb) == 0 && lb.link_status == RTE_ETH_LINK_UP)
			return true;
	} while (test_ms_since(&t0) < 5000);
	return false;
}

/* The link is up, but nobody answers ARP for the peer: its operations wait
 * behind ARP, and fail at the deadline as for a silent peer. */
static void
test_unanswered_arp(void)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fi_context ctx;
	struct timespec t0;
	struct side a, b;
	fi_addr_t nobody = FI_ADDR_NOTAVAIL;
	char buf[64] = "to nobody";
	double ms = -1;
	int succeeded = 0;
	ssize_t n;

	setenv("FI_DPDK_RDM_TIMEOUT_MS", DEADLINE_STR, 1);
	/* memif0 up first, so that memif1 connects at its start */
	CU_ASSERT_EQUAL_FATAL(side_open(&a, "net_memif0", FI_EP_RDM, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(side_open(&b, "net_memif1", FI_EP_RDM, NULL), 0);
	CU_ASSERT_FATAL(links_up(&a, &b, "net_memif0", "net_memif1"));
	CU_ASSERT_EQUAL_FATAL(fi_av_insertsvc(b.av, "169.254.9.9", "5000", &nobody, 0, NULL), 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(fi_send(b.ep, buf, sizeof(buf), NULL, nobody, &ctx), 0);
	while (ms < 0 && test_ms_since(&t0) < DEADLINE_MS + LATE_MS) {
		fi_cq_read(a.cq, NULL, 0);
		n = fi_cq_read(b.cq, &e, 1);
		succeeded += n == 1;
		if (n != -FI_EAVAIL)
			continue;
		memset(&err, 0, sizeof(err));
		CU_ASSERT_EQUAL_FATAL(fi_cq_readerr(b.cq, &err, 0), 1);
		ms = test_ms_since(&t0);
		CU_ASSERT_EQUAL(err.err, FI_ETIMEDOUT);
		CU_ASSERT_PTR_EQUAL(err.op_context, &ctx);
	}
	printf("\n    ARP unanswered: the send failed %.0f ms after its post (deadline %d ms)\n",
	       ms, DEADLINE_MS);
	CU_ASSERT(ms >= DEADLINE_MS && ms <= DEADLINE_MS + LATE_MS);
	CU_ASSERT_EQUAL(succeeded, 0);
	side_close(&b);
	side_close(&a);
}

static void
test_dgram_refused_at_once(void)
{
	struct side s;
	fi_addr_t peer = FI_ADDR_NOTAVAIL;
	char buf[64] = "datagram";

	CU_ASSERT_EQUAL_FATAL(side_open(&s, "net_memif2", FI_EP_DGRAM, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_insertsvc(s.av, "169.254.7.7", "5000", &peer, 0, NULL), 1);
	/* a datagram is not held: the link's state is the answer */
	CU_ASSERT_EQUAL(fi_send(s.ep, buf, sizeof(buf), NULL, peer, NULL), -FI_ENETDOWN);
	CU_ASSERT_EQUAL(fi_inject(s.ep, buf, sizeof(buf), peer), -FI_ENETDOWN);
	side_close(&s);
}

/* -- traffic classes -- */

#define BULK_FRAMES	8

/* Sends one datagram of a single byte what to addr; FI_MORE holds it staged. */
static ssize_t
send_byte(struct fid_ep *ep, char *what, fi_addr_t addr, uint64_t flags)
{
	struct iovec iov = { .iov_base = what, .iov_len = 1 };
	struct fi_msg msg = { .msg_iov = &iov, .iov_count = 1, .addr = addr };

	return fi_sendmsg(ep, &msg, flags);
}

/*
 * tx's DGRAM endpoint sends to rx's: rx posts nb_rx receives, and a first
 * datagram goes through (the link up, the neighbour known) and is taken.
 * @return whether it did within 5 s; *to is rx in tx's AV.
 */
static bool
dgram_through(struct side *rx, struct side *tx, char (*rbuf)[8], struct fi_context *rctx,
	      int nb_rx, fi_addr_t *to)
{
	static char first = 'f';
	struct fi_cq_tagged_entry e;
	char name[64];
	size_t len = sizeof(name);
	struct timespec t0;
	int i;

	if (fi_getname(&rx->ep->fid, name, &len) != 0 ||
	    fi_av_insert(tx->av, name, 1, to, 0, NULL) != 1)
		return false;
	for (i = 0; i < nb_rx; i++) {
		if (fi_recv(rx->ep, rbuf[i], sizeof(rbuf[i]), NULL, FI_ADDR_UNSPEC, &rctx[i]) != 0)
			return false;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (send_byte(tx->ep, &first, *to, 0) != 0 && test_ms_since(&t0) < 5000)
		fi_cq_read(tx->cq, NULL, 0);
	while (fi_cq_read(rx->cq, &e, 1) != 1 && test_ms_since(&t0) < 5000)
		fi_cq_read(tx->cq, NULL, 0);
	return test_ms_since(&t0) < 5000;
}

/*
 * fi_dpdk(7), traffic classes: an endpoint of an urgent class
 * (FI_TC_LOW_LATENCY) is progressed before the other endpoints of its CQ,
 * so the frame it staged leaves the port before the frames a bulk endpoint
 * (FI_TC_BULK_DATA) staged before it, and arrives first.
 */
static void
test_urgent_class_first(void)
{
	static char bulk_byte = 'b', urgent_byte = 'u';
	char rbuf[BULK_FRAMES + 2][8];
	struct fi_context rctx[BULK_FRAMES + 2];
	struct fi_cq_tagged_entry e;
	struct side rx, bulk;
	struct fid_ep *urgent = NULL;
	struct fi_info *info;
	fi_addr_t to = FI_ADDR_NOTAVAIL;
	int i, got = 0, urgent_at = -1;
	struct timespec t0;

	CU_ASSERT_EQUAL_FATAL(side_open(&rx, "net_memif1", FI_EP_DGRAM, NULL), 0);
	side_tclass = FI_TC_BULK_DATA;
	CU_ASSERT_EQUAL_FATAL(side_open(&bulk, "net_memif0", FI_EP_DGRAM, NULL), 0);
	side_tclass = FI_TC_UNSPEC;
	info = fi_dupinfo(bulk.info);
	CU_ASSERT_FATAL(info != NULL);
	info->tx_attr->tclass = FI_TC_LOW_LATENCY;
	CU_ASSERT_EQUAL_FATAL(fi_endpoint(bulk.domain, info, &urgent, NULL), 0);
	fi_freeinfo(info);
	CU_ASSERT_EQUAL_FATAL(fi_ep_bind(urgent, &bulk.av->fid, 0), 0);
	CU_ASSERT_EQUAL_FATAL(fi_ep_bind(urgent, &bulk.cq->fid, FI_TRANSMIT | FI_RECV), 0);
	CU_ASSERT_EQUAL_FATAL(fi_enable(urgent), 0);
	CU_ASSERT_FATAL(dgram_through(&rx, &bulk, rbuf, rctx, BULK_FRAMES + 2, &to));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* staged: bulk's first, then the urgent one's; one progress pass sends them */
	for (i = 0; i < BULK_FRAMES; i++)
		CU_ASSERT_EQUAL(send_byte(bulk.ep, &bulk_byte, to, FI_MORE), 0);
	CU_ASSERT_EQUAL(send_byte(urgent, &urgent_byte, to, FI_MORE), 0);
	fi_cq_read(bulk.cq, NULL, 0);
	while (got < BULK_FRAMES + 1 && test_ms_since(&t0) < 4000) {
		if (fi_cq_read(rx.cq, &e, 1) != 1)
			continue;
		if (*(char *)e.buf == urgent_byte)
			urgent_at = got;
		got++;
	}
	CU_ASSERT_EQUAL(got, BULK_FRAMES + 1);
	CU_ASSERT_EQUAL(urgent_at, 0);
	CU_ASSERT_EQUAL(fi_close(&urgent->fid), 0);
	side_close(&bulk);
	side_close(&rx);
}

/* -- a send while the EAL interrupt thread runs -- */

#define INTR_BUSY_MS	30

/* 1 while an alarm of ours holds the EAL interrupt thread, 2 after */
static volatile int intr_held;

static void
hold_intr_thread(void *arg __rte_unused)
{
	intr_held = 1;
	usleep(INTR_BUSY_MS * 1000);
	intr_held = 2;
}

/*
 * A datagram sent while the EAL interrupt thread runs (an alarm of ours
 * here; memif's control, which the provider keeps off the wire then, in
 * general) has left when the send returns, and arrives with only its
 * receiver progressed after it. When the send only staged its frame for a
 * progress call, a frame sent in such a window waited for the next call: an
 * application that waits for its peer out of band meanwhile (app/pingpong's
 * MSG client after FI_CONNECTED, waiting for a server that waited for its
 * RTU) never made one.
 */
static void
test_send_in_intr_window(void)
{
	static char byte = 'w';
	char rbuf[2][8];
	struct fi_context rctx[2];
	struct fi_cq_tagged_entry e;
	struct side rx, tx;
	fi_addr_t to = FI_ADDR_NOTAVAIL;
	struct timespec t0;
	bool got = false;
	int held;

	CU_ASSERT_EQUAL_FATAL(side_open(&rx, "net_memif1", FI_EP_DGRAM, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(side_open(&tx, "net_memif0", FI_EP_DGRAM, NULL), 0);
	CU_ASSERT_FATAL(dgram_through(&rx, &tx, rbuf, rctx, 2, &to));
	fi_cq_read(tx.cq, NULL, 0);
	/* the interrupt thread busy: the gate let it go, the wire is closed */
	intr_held = 0;
	CU_ASSERT_EQUAL_FATAL(rte_eal_alarm_set(100, hold_intr_thread, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (intr_held == 0 && test_ms_since(&t0) < 2000)
		;
	held = intr_held;
	CU_ASSERT_EQUAL_FATAL(held, 1);
	CU_ASSERT_EQUAL(send_byte(tx.ep, &byte, to, 0), 0);
	/* the sender is not called into again */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!got && test_ms_since(&t0) < 1000)
		got = fi_cq_read(rx.cq, &e, 1) == 1 && *(char *)e.buf == byte;
	CU_ASSERT(got);
	while (intr_held != 2 && test_ms_since(&t0) < 2000)
		;
	side_close(&tx);
	side_close(&rx);
}

/* -- a link that comes up late -- */

static uint8_t msgs[NB_MSGS][MSG_MAX];
static uint8_t rbufs[NB_MSGS][MSG_MAX];

static size_t
msg_len(int i)
{
	static const size_t sizes[] = { 1, 64, 1400, 4096, 65536, 0 };

	return sizes[i % 6];
}

/* Progresses both sides; @return completions read from b's CQ, or -1 on an error. */
static int
poll_both(struct side *a, struct side *b, struct fi_cq_tagged_entry *e)
{
	struct fi_cq_err_entry err = { 0 };
	ssize_t n;

	fi_cq_read(a->cq, NULL, 0);
	n = fi_cq_read(b->cq, e, 1);
	if (n == -FI_EAVAIL) {
		memset(&err, 0, sizeof(err));
		fi_cq_readerr(b->cq, &err, 0);
		fprintf(stderr, "    error completion: %s\n", fi_strerror(err.err));
		return -1;
	}
	return n == 1 ? 1 : 0;
}

static void
test_late_link_loses_nothing(void)
{
	struct fi_context rctx[NB_MSGS], sctx[NB_MSGS];
	struct fi_cq_tagged_entry e;
	struct fi_info *a_info;
	struct timespec t0, t_up;
	struct side a, b;
	fi_addr_t a_addr = FI_ADDR_NOTAVAIL, b_addr = FI_ADDR_NOTAVAIL;
	int i, sent = 0, received = 0, errors = 0, bad = 0, early = 0;
	char name[64];
	size_t len = sizeof(name);

	/* long enough for the wait below and the reconnection after it */
	setenv("FI_DPDK_RDM_TIMEOUT_MS", "10000", 1);
	/* b, memif4, is a client of memif3, whose port nobody has started yet */
	CU_ASSERT_EQUAL_FATAL(side_open(&b, "net_memif4", FI_EP_RDM, NULL), 0);
	/* a's address is known before its port runs: memif3's, service 7000 */
	CU_ASSERT_EQUAL_FATAL(info_get(&a_info, "net_memif3", SERVER_SERVICE), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_insert(b.av, a_info->src_addr, 1, &a_addr, 0, NULL), 1);
	for (i = 0; i < NB_MSGS; i++) {
		test_fill(msgs[i], msg_len(i), (unsigned int)i);
		CU_ASSERT_EQUAL_FATAL(i % 2 ? fi_tsend(b.ep, msgs[i], msg_len(i), NULL, a_addr,
						       TAG, &sctx[i]) :
				      fi_send(b.ep, msgs[i], msg_len(i), NULL, a_addr, &sctx[i]), 0);
	}
	/* a while with nobody there: held, not failed, not lost */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (test_ms_since(&t0) < 300) {
		if (fi_cq_read(b.cq, &e, 1) != -FI_EAGAIN)
			early++;
	}
	CU_ASSERT_EQUAL(early, 0);

	/* memif3 starts: b's port must connect again by itself */
	clock_gettime(CLOCK_MONOTONIC, &t_up);
	CU_ASSERT_EQUAL_FATAL(side_open(&a, "net_memif3", FI_EP_RDM, SERVER_SERVICE), 0);
	CU_ASSERT_EQUAL_FATAL(fi_getname(&b.ep->fid, name, &len), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_insert(a.av, name, 1, &b_addr, 0, NULL), 1);
	for (i = 0; i < NB_MSGS; i++) {
		CU_ASSERT_EQUAL_FATAL(i % 2 ? fi_trecv(a.ep, rbufs[i], MSG_MAX, NULL, b_addr, TAG,
						       0, &rctx[i]) :
				      fi_recv(a.ep, rbufs[i], MSG_MAX, NULL, b_addr, &rctx[i]), 0);
	}
	while ((sent < NB_MSGS || received < NB_MSGS) && errors == 0 &&
	       test_ms_since(&t_up) < 5000) {
		/* a's completions: the messages, in the order they were sent */
		if (fi_cq_read(a.cq, &e, 1) == 1) {
			i = (int)((struct fi_context *)e.op_context - rctx);
			bad += i != received || e.len != msg_len(i) ||
			       memcmp(rbufs[i], msgs[i], msg_len(i)) != 0;
			received++;
		}
		switch (poll_both(&a, &b, &e)) {
		case 1:
			sent++;
			break;
		case -1:
			errors++;
			break;
		default:
			break;
		}
	}
	printf("\n    link up late: %d of %d messages sent before the peer's port started "
	       "arrived, %.0f ms after it started\n", received, NB_MSGS, test_ms_since(&t_up));
	CU_ASSERT_EQUAL(errors, 0);
	CU_ASSERT_EQUAL(sent, NB_MSGS);
	CU_ASSERT_EQUAL(received, NB_MSGS);
	CU_ASSERT_EQUAL(bad, 0);
	fi_freeinfo(a_info);
	side_close(&a);
	side_close(&b);
}

/*
 * A memif client refused at its start by a server whose port starts right
 * after: memif closed the refused start's connection, so no greeting can be
 * under way on it, and the client connects again as its back-off says (10,
 * 20, 40 ms... apart), not a handshake's second after the refused start
 * (DFI_REVIVE_HANDSHAKE_MS). Its open waits 250 ms for the link:
 * the back-off restarts it about four times meanwhile, where the handshake's
 * hold would allow at most one restart a second. Counted, not timed: the
 * waits stretch on a loaded machine, and the restarts with them.
 */
static void
test_refused_client_back_soon(void)
{
	struct fi_dpdk_ep_stats st;
	struct rte_eth_link link;
	struct timespec t0;
	struct side a, b;
	uint16_t client;
	uint64_t restarts;
	double open_ms;

	CU_ASSERT_EQUAL_FATAL(rte_eth_dev_get_port_by_name("net_memif6", &client), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* b, memif6, is a client of memif5, whose port nobody has started yet */
	CU_ASSERT_EQUAL_FATAL(side_open(&b, "net_memif6", FI_EP_RDM, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(test_ep_stats(b.ep, &st), 0);
	open_ms = test_ms_since(&t0);
	restarts = st.port_restarts;
	CU_ASSERT(rte_eth_link_get_nowait(client, &link) == 0 &&
		  link.link_status == RTE_ETH_LINK_DOWN);
	CU_ASSERT_EQUAL_FATAL(side_open(&a, "net_memif5", FI_EP_RDM, NULL), 0);
	CU_ASSERT(links_up(&a, &b, "net_memif5", "net_memif6"));
	printf("\n    refused client: %" PRIu64 " restarts in its open's %.0f ms, links up "
	       "%.0f ms after its start\n", restarts, open_ms, test_ms_since(&t0));
	CU_ASSERT(restarts >= 2 + (uint64_t)(open_ms / DFI_REVIVE_HANDSHAKE_MS));
	side_close(&a);
	side_close(&b);
}

/* -- the watchdog (test_link watchdog) -- */

static uint64_t
rescues(struct side *s)
{
	struct fi_dpdk_ep_stats st;

	return test_ep_stats(s->ep, &st) == 0 ? st.progress_rescues : UINT64_MAX;
}

/*
 * a injects NB_MSGS messages to b and the test stops calling into either for
 * LEFT_MS, as an application waiting on something else; every frame is lost
 * with a third's chance. Then b's CQ alone is read (which progresses b, never
 * a): every message must be there, which only a's resends could make so.
 * @return how many of them b received.
 */
#define LEFT_MS		300

static int
inject_and_leave(uint64_t *a_rescues)
{
	struct fi_cq_tagged_entry e;
	struct timespec t0;
	struct side a, b;
	fi_addr_t b_addr = FI_ADDR_NOTAVAIL;
	char name[64], msg[32] = "left alone";
	size_t len = sizeof(name);
	int i, got = 0;

	CU_ASSERT_EQUAL_FATAL(side_open(&b, "net_memif1", FI_EP_RDM, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(side_open(&a, "net_memif0", FI_EP_RDM, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_getname(&b.ep->fid, name, &len), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_insert(a.av, name, 1, &b_addr, 0, NULL), 1);
	for (i = 0; i < NB_MSGS; i++)
		CU_ASSERT_EQUAL_FATAL(fi_recv(b.ep, rbufs[i], MSG_MAX, NULL, FI_ADDR_UNSPEC,
					      NULL), 0);
	for (i = 0; i < NB_MSGS; i++) {
		msg[0] = (char)i;
		while (fi_inject(a.ep, msg, sizeof(msg), b_addr) == -FI_EAGAIN)
			fi_cq_read(a.cq, NULL, 0);
	}
	usleep(LEFT_MS * 1000);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (got < NB_MSGS && test_ms_since(&t0) < 200) {
		if (fi_cq_read(b.cq, &e, 1) == 1)
			got++;
	}
	*a_rescues = rescues(&a);
	side_close(&a);
	side_close(&b);
	return got;
}

/* Sends NB_MSGS injects under model and stays away; reports what arrived. */
static int
left_alone(enum fi_threading model, uint64_t *progressed)
{
	int got;

	threading = model;
	got = inject_and_leave(progressed);
	printf("\n    %s: %d of %d injects arrived while the application stayed away %d ms; "
	       "the watchdog progressed the sender %" PRIu64 " times\n",
	       fi_tostr(&model, FI_TYPE_THREADING), got, NB_MSGS, LEFT_MS, *progressed);
	return got;
}

static void
test_watchdog_resends(void)
{
	uint64_t n;

	CU_ASSERT_EQUAL(left_alone(FI_THREAD_SAFE, &n), NB_MSGS);
	CU_ASSERT(n > 0 && n != UINT64_MAX);
}

static void
test_no_watchdog_lock_free(void)
{
	uint64_t n;

	/* the application promised to serialise the domain: nothing may enter it */
	CU_ASSERT(left_alone(FI_THREAD_DOMAIN, &n) < NB_MSGS);
	CU_ASSERT_EQUAL(n, 0);
}

/*
 * The value of a field of a thread's status (its directory under
 * /proc/self/task), the first word after "field:", in val. @return whether
 * the field was found.
 */
static bool
task_status_field(const char *task_dir, const char *field, char *val, size_t size)
{
	char path[400], line[128], key[64], word[128];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/status", task_dir);
	f = fopen(path, "r");
	while (f != NULL && !found && fgets(line, sizeof(line), f) != NULL) {
		found = sscanf(line, "%63[^:]: %127s", key, word) == 2 && strcmp(key, field) == 0;
		if (found)
			snprintf(val, size, "%s", word);
	}
	if (f != NULL)
		fclose(f);
	return found;
}

struct thread_cpus {
	const char *name;
	char *cpus;
	size_t size;
};

static int
thread_cpus_read(const char *task_dir, const char *name, void *arg)
{
	struct thread_cpus *want = arg;

	return strcmp(name, want->name) == 0 &&
	       task_status_field(task_dir, "Cpus_allowed_list", want->cpus, want->size);
}

/*
 * The CPUs (Cpus_allowed_list) of the process's first thread named name, in
 * cpus. @return 0, or -1 when there is none.
 */
static int
thread_cpus(const char *name, char *cpus, size_t size)
{
	struct thread_cpus want = { .name = name, .cpus = cpus, .size = size };

	return proc_self_threads(thread_cpus_read, &want) == 1 ? 0 : -1;
}

/*
 * The watchdog runs on the EAL's control cores, where the interrupt thread
 * runs, not on the lcore of the application's poller, whose CPU each wakeup
 * would take (this suite's EAL has lcore 0 alone: on two CPUs or more the
 * two sets differ).
 */
static void
test_watchdog_off_the_lcore(void)
{
	char dog[128] = "", intr[128] = "", app[128] = "";
	struct side a;

	threading = FI_THREAD_SAFE;
	CU_ASSERT_EQUAL_FATAL(side_open(&a, "net_memif0", FI_EP_RDM, NULL), 0);
	CU_ASSERT_EQUAL(thread_cpus("dfi-watchdog", dog, sizeof(dog)), 0);
	CU_ASSERT_EQUAL(thread_cpus("eal-intr-thread", intr, sizeof(intr)), 0);
	CU_ASSERT_EQUAL(thread_cpus(program_invocation_short_name, app, sizeof(app)), 0);
	printf("\n    CPUs: the watchdog's %s, the EAL interrupt thread's %s, the application's "
	       "%s\n", dog, intr, app);
	CU_ASSERT_STRING_EQUAL(dog, intr);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		CU_ASSERT_STRING_NOT_EQUAL(dog, app);
	side_close(&a);
}

#define MAPS_MAX	16

/* The memif regions' mappings in /proc/self/smaps: their inodes, kB and
 * resident kB, up to MAPS_MAX of them. @return how many. */
static int
memif_regions(unsigned long *ino, unsigned long *kb, unsigned long *rss)
{
	char line[4352], perms[5], dev[16];
	unsigned long lo, hi, off, v;
	int nb = 0, in = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx %4s %lx %15s %lu", &lo, &hi, perms, &off, dev, &v) == 6) {
			in = strstr(line, "memif_region_") != NULL && nb < MAPS_MAX ? nb++ : -1;
			if (in >= 0) {
				ino[in] = v;
				kb[in] = rss[in] = 0;
			}
		} else if (in >= 0 && sscanf(line, "Size: %lu kB", &v) == 1) {
			kb[in] = v;
		} else if (in >= 0 && sscanf(line, "Rss: %lu kB", &v) == 1) {
			rss[in] = v;
		}
	}
	if (f != NULL)
		fclose(f);
	return nb;
}

/*
 * A memif pair of its own comes up: its region, new (an inode no mapping had
 * before), is mapped whole at both ends by the provider within a second of
 * the link (seen at the next progress call), where only the pages frames
 * had touched were before.
 */
static void
test_memif_regions_mapped(void)
{
	unsigned long before[MAPS_MAX], ino[MAPS_MAX], kb[MAPS_MAX], rss[MAPS_MAX];
	int nb_before, nb, i, j, fresh = 0, whole = 0;
	struct timespec t0;
	struct side a, b;

	nb_before = memif_regions(before, kb, rss);
	CU_ASSERT_EQUAL_FATAL(side_open(&a, "net_memif7", FI_EP_RDM, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(side_open(&b, "net_memif8", FI_EP_RDM, NULL), 0);
	CU_ASSERT_FATAL(links_up(&a, &b, "net_memif7", "net_memif8"));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		fi_cq_read(a.cq, NULL, 0);
		fi_cq_read(b.cq, NULL, 0);
		nb = memif_regions(ino, kb, rss);
		for (i = 0, fresh = 0, whole = 0; i < nb; i++) {
			for (j = 0; j < nb_before && before[j] != ino[i]; j++)
				;
			fresh += j == nb_before;
			whole += j == nb_before && kb[i] > 0 && rss[i] == kb[i];
		}
	} while ((fresh < 2 || whole < fresh) && test_ms_since(&t0) < 1000);
	printf("\n    the new pair's region: %d mappings, %d of them resident whole\n", fresh,
	       whole);
	CU_ASSERT_EQUAL(fresh, 2);
	CU_ASSERT_EQUAL(whole, fresh);
	side_close(&b);
	side_close(&a);
}

static int
naps_read(const char *task_dir, const char *name, void *arg)
{
	char val[32];
	long *naps = arg;

	if (strcmp(name, "dfi-watchdog") == 0 &&
	    task_status_field(task_dir, "voluntary_ctxt_switches", val, sizeof(val)))
		*naps += strtol(val, NULL, 10);
	return 0;
}

/* The naps of the process's watchdog threads so far: each is a voluntary
 * context switch of a thread named dfi-watchdog. */
static long
watchdog_naps(void)
{
	long naps = 0;

	proc_self_threads(naps_read, &naps);
	return naps;
}

#define BUSY_MS		400
#define ALONE_MS	200
#define SPINNERS	3
/* looks a rescue adds while the application polls (the naps start over) */
#define LOOKS_PER_RESCUE	4

static uint32_t spin_stop;

static void *
spin_run(void *arg __rte_unused)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!__atomic_load_n(&spin_stop, __ATOMIC_RELAXED) && test_ms_since(&t0) < 5000)
		;
	return NULL;
}

/* The watchdog's naps while the application polls its endpoint BUSY_MS,
 * with n threads of its own spinning beside it; *rescued: the looks of
 * those that found the poller away (descheduled), which start the naps
 * over from a millisecond. */
static long
busy_naps(struct side *a, int n, uint64_t *rescued)
{
	pthread_t spinners[SPINNERS];
	struct timespec t0;
	long naps0;
	int k, started = 0;

	__atomic_store_n(&spin_stop, 0, __ATOMIC_RELAXED);
	for (k = 0; k < n; k++)
		started += pthread_create(&spinners[started], NULL, spin_run, NULL) == 0;
	CU_ASSERT_EQUAL(started, n);
	*rescued = rescues(a);
	naps0 = watchdog_naps();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (test_ms_since(&t0) < BUSY_MS)
		fi_cq_read(a->cq, NULL, 0);
	naps0 = watchdog_naps() - naps0;
	*rescued = rescues(a) - *rescued;
	__atomic_store_n(&spin_stop, 1, __ATOMIC_RELAXED);
	for (k = 0; k < started; k++)
		pthread_join(spinners[k], NULL);
	return naps0;
}

/*
 * An application that keeps progressing its endpoint (FI_THREAD_SAFE), the
 * CPUs not crowded (FI_DPDK_WATCHDOG_CPUS far above what runs): the looks
 * space out to one every FI_DPDK_WATCHDOG_MAX_US (8 ms), 50 of them in
 * BUSY_MS and a few on the way, where one a millisecond made 400, each a
 * poller's CPU taken away. A look that finds the poller descheduled (other
 * tests share the CPUs) rescues it and starts over from a millisecond: 1, 2
 * and 4 ms, at most LOOKS_PER_RESCUE more for each such rescue. Then the
 * application stays away: a look finds it gone within two of the longest
 * naps, progresses the endpoint, and the looks come every millisecond
 * again (about 180 in ALONE_MS, 25 had they stayed spaced out). On crowded
 * CPUs (FI_DPDK_WATCHDOG_CPUS=1 and three threads spinning beside the
 * poller) the looks stay every millisecond while it polls: there they stand
 * in for threads off their CPU. A longest nap under the first
 * (FI_DPDK_WATCHDOG_MAX_US=999) fails the domain.
 */
static void
test_watchdog_spaced_out(void)
{
	long busy, alone, crowded;
	uint64_t rescued, busy_rescued, crowded_rescued;
	struct side a;

	threading = FI_THREAD_SAFE;
	/* a nap shorter than the first is refused, with the domain */
	setenv("FI_DPDK_WATCHDOG_MAX_US", "999", 1);
	CU_ASSERT_EQUAL(side_open(&a, "net_memif0", FI_EP_RDM, NULL), -FI_EINVAL);
	side_close(&a);
	unsetenv("FI_DPDK_WATCHDOG_MAX_US");
	setenv("FI_DPDK_WATCHDOG_CPUS", "4096", 1);
	CU_ASSERT_EQUAL_FATAL(side_open(&a, "net_memif0", FI_EP_RDM, NULL), 0);
	busy = busy_naps(&a, 0, &busy_rescued);
	rescued = rescues(&a);
	alone = watchdog_naps();
	usleep(ALONE_MS * 1000);
	alone = watchdog_naps() - alone;
	rescued = rescues(&a) - rescued;
	side_close(&a);
	setenv("FI_DPDK_WATCHDOG_CPUS", "1", 1);
	CU_ASSERT_EQUAL_FATAL(side_open(&a, "net_memif0", FI_EP_RDM, NULL), 0);
	crowded = busy_naps(&a, SPINNERS, &crowded_rescued);
	side_close(&a);
	unsetenv("FI_DPDK_WATCHDOG_CPUS");
	printf("\n    the watchdog napped %ld times in %d ms of an application polling "
	       "(%" PRIu64 " of them rescues), %ld times in %d ms while it stayed away (and "
	       "progressed it %" PRIu64 " times), %ld times in %d ms of polling on crowded CPUs "
	       "(%" PRIu64 " rescues)\n", busy, BUSY_MS, busy_rescued, alone, ALONE_MS, rescued,
	       crowded, BUSY_MS, crowded_rescued);
	CU_ASSERT(busy > 0 && busy <= BUSY_MS / 8 + 20 + LOOKS_PER_RESCUE * (long)busy_rescued);
	CU_ASSERT(alone >= ALONE_MS / 2);
	CU_ASSERT(rescued > 0);
	CU_ASSERT(crowded >= BUSY_MS / 4);
}

static CU_TestInfo watchdog_tests[] = {
	{ "a sender left alone with lost injects: the watchdog sends them again",
	  test_watchdog_resends },
	{ "FI_THREAD_DOMAIN: no watchdog enters the domain", test_no_watchdog_lock_free },
	{ "the watchdog runs on the EAL's control cores, off the application's lcore",
	  test_watchdog_off_the_lcore },
	{ "the watchdog's looks space out while the application polls, unless the CPUs "
	  "are crowded", test_watchdog_spaced_out },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo link_tests[] = {
	{ "a link that never comes up: every operation fails within the deadline",
	  test_never_up },
	{ "an inject's error waits for room in a full CQ", test_error_waits_for_room },
	{ "a peer whose ARP nobody answers: its send fails at the deadline", test_unanswered_arp },
	{ "a link that never comes up: a datagram is refused at once", test_dgram_refused_at_once },
	{ "traffic classes: an urgent endpoint's staged frame leaves before a bulk one's",
	  test_urgent_class_first },
	{ "a memif client refused by a server not started yet: what it posted arrives",
	  test_late_link_loses_nothing },
	{ "a datagram sent while the EAL interrupt thread runs has left when the send returns",
	  test_send_in_intr_window },
	{ "a memif client refused at its start connects again within its back-off",
	  test_refused_client_back_soon },
	{ "memif links up: their shared regions are mapped whole", test_memif_regions_mapped },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "link", NULL, NULL, NULL, NULL, link_tests },
	CU_SUITE_INFO_NULL,
};

static CU_SuiteInfo watchdog_suites[] = {
	{ "watchdog", NULL, NULL, NULL, NULL, watchdog_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	bool watchdog = argc > 1 && strcmp(argv[1], "watchdog") == 0;
	char args[1024];

	/* the watchdog's suite: lcore 0 alone, so that the EAL's control cores
	 * are the others */
	snprintf(args, sizeof(args), "%s" TEST_EAL_BASE
		 " --vdev=net_memif0,role=server,socket=/run/dfi-link-%d-a.sock"
		 " --vdev=net_memif1,role=client,socket=/run/dfi-link-%d-a.sock"
		 " --vdev=net_memif2,role=client,socket=/run/dfi-link-%d-none.sock"
		 " --vdev=net_memif3,role=server,socket=/run/dfi-link-%d-b.sock,mac=02:df:20:00:00:01"
		 " --vdev=net_memif4,role=client,socket=/run/dfi-link-%d-b.sock,mac=02:df:20:00:00:02"
		 " --vdev=net_memif5,role=server,socket=/run/dfi-link-%d-c.sock,mac=02:df:20:00:00:03"
		 " --vdev=net_memif6,role=client,socket=/run/dfi-link-%d-c.sock,mac=02:df:20:00:00:04"
		 " --vdev=net_memif7,role=server,socket=/run/dfi-link-%d-d.sock,mac=02:df:20:00:00:05"
		 " --vdev=net_memif8,role=client,socket=/run/dfi-link-%d-d.sock,mac=02:df:20:00:00:06",
		 watchdog ? "-l 0 " : "", getpid(), getpid(), getpid(), getpid(), getpid(),
		 getpid(), getpid(), getpid(), getpid());
	test_env_setup(args);
	/* nine ports' pools in TEST_EAL_BASE's memory */
	setenv("FI_DPDK_MBUFS", "4095", 1);
	if (!watchdog)
		return test_run(suites);
	/* every frame, each way, lost with a third's chance (seeded: the same
	 * frames every run) */
	setenv("FI_DPDK_FAULT", "seed=5,tx_drop=0.33", 1);
	return test_run(watchdog_suites);
}
