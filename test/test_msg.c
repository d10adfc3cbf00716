/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * FI_EP_MSG in one process over one net_ring port: passive endpoints,
 * connect / accept / reject / shutdown with CM data, the EQ's events and
 * its fd, every refusal of fi_cm(3), and RDM's data path to the connected
 * peer (messages, tagged, remote CQ data, inject, multi-receive, counters,
 * cancel, RMA).
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include <netinet/in.h>

#include <rte_common.h>

#include "test_util.h"

#define TIMEOUT_MS	5000
#define CM_TIMEOUT_MS	300	/* FI_DPDK_CM_TIMEOUT_MS of this test */
#define BACKLOG		4	/* FI_DPDK_CM_BACKLOG of this test */
#define CM_MAX		256	/* the CM data limit fi_dpdk(7) states */

static struct test_domain td;
/* the accepting endpoints' domain: a closing endpoint lingers for its peer's
 * answer holding its domain's lock, so the peer's watchdog must be another's */
static struct fid_domain *srv_domain;
static struct fid_eq *eq;

/* One side of a connection. */
struct side {
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_cntr *tx_cntr;
	struct fid_cntr *rx_cntr;
};

static struct side *live[8];	/* progressed while a test waits */
/* shared contexts the accepting sides use, when one test sets them */
static struct fid_ep *srv_srx;
static struct fid_stx *srv_stx;
/* how connecting sides bind their CQ (FI_SELECTIVE_COMPLETION for one test) */
static uint64_t cli_cq_flags = FI_TRANSMIT | FI_RECV;

/* An EQ event with its CM data. */
struct cm_event {
	struct fi_eq_cm_entry entry;
	uint8_t data[CM_MAX];
};

static int
suite_init(void)
{
	struct fi_eq_attr eq_attr = { .wait_obj = FI_WAIT_FD };

	return test_domain_open(&td, FI_EP_MSG, FI_SOCKADDR_IN,
				FI_MSG | FI_TAGGED | FI_RMA | FI_ATOMIC) != 0 ||
	       fi_domain(td.fabric, td.info, &srv_domain, NULL) != 0 ||
	       fi_eq_open(td.fabric, &eq_attr, &eq, NULL) != 0;
}

static int
suite_clean(void)
{
	if (eq != NULL)
		fi_close(&eq->fid);
	if (srv_domain != NULL)
		fi_close(&srv_domain->fid);
	test_domain_close(&td);
	return 0;
}

static void
live_add(struct side *s)
{
	size_t i;

	for (i = 0; i < RTE_DIM(live) && live[i] != NULL; i++)
		;
	if (i < RTE_DIM(live))
		live[i] = s;
}

static void
live_del(struct side *s)
{
	size_t i;

	for (i = 0; i < RTE_DIM(live); i++)
		if (live[i] == s)
			live[i] = NULL;
}

static void
progress_all(void)
{
	size_t i;

	for (i = 0; i < RTE_DIM(live); i++)
		if (live[i] != NULL)
			fi_cq_read(live[i]->cq, NULL, 0);
}

/*
 * An endpoint of info (NULL: the domain's) with its CQ, counters and the EQ,
 * enabled; in srv_domain when opened on a request.
 */
static int
side_open(struct side *s, struct fi_info *info, bool with_eq)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 64 };
	struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP };
	struct fid_domain *dom = info != NULL && info->handle != NULL ? srv_domain : td.domain;
	int ret;

	memset(s, 0, sizeof(*s));
	if (info != NULL && srv_srx != NULL) {
		info->ep_attr->tx_ctx_cnt = FI_SHARED_CONTEXT;
		info->ep_attr->rx_ctx_cnt = FI_SHARED_CONTEXT;
	}
	ret = fi_endpoint(dom, info != NULL ? info : td.info, &s->ep, NULL);
	if (info != NULL && srv_srx != NULL) {
		ret = ret ? ret : fi_ep_bind(s->ep, &srv_srx->fid, 0);
		ret = ret ? ret : fi_ep_bind(s->ep, &srv_stx->fid, 0);
	}
	ret = ret ? ret : fi_cq_open(dom, &cq_attr, &s->cq, NULL);
	ret = ret ? ret : fi_cntr_open(dom, &cntr_attr, &s->tx_cntr, NULL);
	ret = ret ? ret : fi_cntr_open(dom, &cntr_attr, &s->rx_cntr, NULL);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->cq->fid,
				     info == NULL ? cli_cq_flags : FI_TRANSMIT | FI_RECV);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->tx_cntr->fid, FI_SEND | FI_WRITE | FI_READ);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->rx_cntr->fid, FI_RECV);
	if (with_eq)
		ret = ret ? ret : fi_ep_bind(s->ep, &eq->fid, 0);
	ret = ret ? ret : fi_enable(s->ep);
	if (ret == 0)
		live_add(s);
	return ret;
}

static void
side_close(struct side *s)
{
	live_del(s);
	if (s->ep != NULL)
		CU_ASSERT_EQUAL(fi_close(&s->ep->fid), 0);
	if (s->cq != NULL)
		fi_close(&s->cq->fid);
	if (s->tx_cntr != NULL)
		fi_close(&s->tx_cntr->fid);
	if (s->rx_cntr != NULL)
		fi_close(&s->rx_cntr->fid);
	memset(s, 0, sizeof(*s));
}

/* A listener on service port (0: any), bound to the EQ. */
static int
pep_open(struct fid_pep **pep, uint16_t port)
{
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	int ret;

	ret = fi_passive_ep(td.fabric, td.info, pep, NULL);
	ret = ret ? ret : fi_pep_bind(*pep, &eq->fid, 0);
	if (ret == 0 && port != 0) {
		ret = fi_getname(&(*pep)->fid, &sin, &len);
		sin.sin_port = htons(port);
		ret = ret ? ret : fi_setname(&(*pep)->fid, &sin, sizeof(sin));
	}
	return ret ? ret : fi_listen(*pep);
}

static uint16_t
port_of(fid_t fid)
{
	struct sockaddr_in sin;
	size_t len = sizeof(sin);

	if (fi_getname(fid, &sin, &len) != 0)
		return 0;
	return ntohs(sin.sin_port);
}

/* The next EQ event (progressing the data path too); its length, or the error. */
static ssize_t
eq_next(uint32_t *event, struct cm_event *ev, struct fi_eq_err_entry *err, int timeout_ms)
{
	struct timespec t0;
	ssize_t ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		ret = fi_eq_read(eq, event, ev, sizeof(*ev), 0);
		if (ret == -FI_EAVAIL && err != NULL) {
			memset(err, 0, sizeof(*err));
			return fi_eq_readerr(eq, err, 0) > 0 ? -FI_EAVAIL : -FI_EOTHER;
		}
		if (ret != -FI_EAGAIN)
			return ret;
		progress_all();
	} while (test_ms_since(&t0) < timeout_ms);
	return -FI_EAGAIN;
}

/* Expects event on fid next, with data of len bytes (NULL: any). */
static void
expect_event(uint32_t want, fid_t fid, const void *data, size_t len, struct cm_event *ev)
{
	uint32_t event = 0;
	ssize_t ret = eq_next(&event, ev, NULL, TIMEOUT_MS);

	CU_ASSERT_EQUAL_FATAL(ret, (ssize_t)(sizeof(ev->entry) + (data != NULL ? len : 0)));
	CU_ASSERT_EQUAL(event, want);
	CU_ASSERT_PTR_EQUAL(ev->entry.fid, fid);
	if (data != NULL)
		CU_ASSERT_EQUAL(memcmp(ev->data, data, len), 0);
}

/* Connects cli to the listener and accepts on srv, CM data both ways. */
static void
connect_pair(struct fid_pep *pep, struct side *cli, struct side *srv)
{
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	struct cm_event ev, ev2;
	uint32_t event;

	CU_ASSERT_EQUAL_FATAL(side_open(cli, NULL, true), 0);
	CU_ASSERT_EQUAL_FATAL(fi_getname(&pep->fid, &sin, &len), 0);
	CU_ASSERT_EQUAL_FATAL(fi_connect(cli->ep, &sin, "hello", 5), 0);
	expect_event(FI_CONNREQ, &pep->fid, "hello", 5, &ev);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev.entry.info);
	CU_ASSERT_PTR_NOT_NULL(ev.entry.info->handle);
	CU_ASSERT_EQUAL(ev.entry.info->ep_attr->type, FI_EP_MSG);
	CU_ASSERT_PTR_NOT_NULL(ev.entry.info->dest_addr);
	CU_ASSERT_EQUAL(((struct sockaddr_in *)ev.entry.info->dest_addr)->sin_port,
			htons(port_of(&cli->ep->fid)));
	CU_ASSERT_EQUAL_FATAL(side_open(srv, ev.entry.info, true), 0);
	fi_freeinfo(ev.entry.info);
	CU_ASSERT_EQUAL_FATAL(fi_accept(srv->ep, "welcome", 7), 0);
	/* both sides connect; the connecting side gets the accept's data */
	CU_ASSERT_EQUAL_FATAL(eq_next(&event, &ev, NULL, TIMEOUT_MS) > 0, 1);
	CU_ASSERT_EQUAL_FATAL(eq_next(&event, &ev2, NULL, TIMEOUT_MS) > 0, 1);
	if (ev.entry.fid != &cli->ep->fid)
		ev = ev2;
	CU_ASSERT_PTR_EQUAL(ev.entry.fid, &cli->ep->fid);
	CU_ASSERT_EQUAL(memcmp(ev.data, "welcome", 7), 0);
}

/*
 * cli connects, without data, to the listener (opened first when *pep is
 * NULL): @return the FI_CONNREQ's info, or NULL.
 */
static struct fi_info *
request(struct fid_pep **pep, struct side *cli)
{
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	struct cm_event ev;

	if ((*pep == NULL && pep_open(pep, 0) != 0) ||
	    fi_getname(&(*pep)->fid, &sin, &len) != 0 || side_open(cli, NULL, true) != 0 ||
	    fi_connect(cli->ep, &sin, NULL, 0) != 0)
		return NULL;
	expect_event(FI_CONNREQ, &(*pep)->fid, NULL, 0, &ev);
	return ev.entry.info;
}

/* Waits for the completion of context ctx on s; 1, or the error. */
static ssize_t
wait_ctx(struct side *s, void *ctx, struct fi_cq_tagged_entry *e, struct fi_cq_err_entry *err)
{
	struct timespec t0;
	ssize_t ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		ret = fi_cq_read(s->cq, e, 1);
		if (ret == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			fi_cq_readerr(s->cq, err, 0);
			return -FI_EAVAIL;
		}
		if (ret == 1 && e->op_context == ctx)
			return 1;
		progress_all();
	} while (test_ms_since(&t0) < TIMEOUT_MS);
	return -FI_EAGAIN;
}

/* -- passive endpoints -- */

static void
test_pep(void)
{
	struct fid_pep *p1, *p2, *p3, *p4;
	struct fi_info *rdm, *hints;
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	uint16_t port;

	/* service 0: fi_listen picks one, fi_getname tells it */
	CU_ASSERT_EQUAL_FATAL(fi_passive_ep(td.fabric, td.info, &p1, NULL), 0);
	CU_ASSERT_EQUAL(port_of(&p1->fid), 0);
	CU_ASSERT_EQUAL(fi_listen(p1), -FI_ENOEQ);
	CU_ASSERT_EQUAL(fi_pep_bind(p1, &eq->fid, 1), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_pep_bind(p1, &eq->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_pep_bind(p1, &eq->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL_FATAL(fi_listen(p1), 0);
	port = port_of(&p1->fid);
	CU_ASSERT_NOT_EQUAL(port, 0);
	CU_ASSERT_EQUAL(fi_listen(p1), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_getname(&p1->fid, &sin, &len), 0);
	CU_ASSERT_EQUAL(fi_setname(&p1->fid, &sin, sizeof(sin)), -FI_EOPBADSTATE);
	len = 1;
	CU_ASSERT_EQUAL(fi_getname(&p1->fid, &sin, &len), -FI_ETOOSMALL);
	CU_ASSERT_EQUAL(len, sizeof(sin));
	/* a second listener on the same address is refused, another port is not */
	CU_ASSERT_EQUAL(pep_open(&p2, port), -FI_EADDRINUSE);
	CU_ASSERT_EQUAL(fi_close(&p2->fid), 0);
	CU_ASSERT_EQUAL_FATAL(pep_open(&p3, 47001), 0);
	CU_ASSERT_EQUAL(port_of(&p3->fid), 47001);
	CU_ASSERT_EQUAL_FATAL(pep_open(&p4, 0), 0);
	CU_ASSERT_NOT_EQUAL(port_of(&p4->fid), port);
	/* fi_setname: an address of the port only */
	CU_ASSERT_EQUAL_FATAL(fi_passive_ep(td.fabric, td.info, &p2, NULL), 0);
	sin.sin_addr.s_addr = htonl(0x01020304);
	CU_ASSERT_EQUAL(fi_setname(&p2->fid, &sin, sizeof(sin)), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_close(&p2->fid), 0);
	/* fi_getinfo(NULL, service, FI_SOURCE): its src_addr names the service */
	CU_ASSERT_EQUAL_FATAL(fi_close(&p3->fid), 0);
	hints = fi_allocinfo();
	CU_ASSERT_PTR_NOT_NULL_FATAL(hints);
	hints->ep_attr->type = FI_EP_MSG;
	hints->domain_attr->name = strdup(td.info->domain_attr->name);
	CU_ASSERT_EQUAL_FATAL(test_getinfo(FI_VERSION(1, 17), NULL, "47001", FI_SOURCE, hints,
					   &rdm), 0);
	fi_freeinfo(hints);
	CU_ASSERT_EQUAL(rdm->ep_attr->type, FI_EP_MSG);
	CU_ASSERT_EQUAL_FATAL(fi_passive_ep(td.fabric, rdm, &p3, NULL), 0);
	CU_ASSERT_EQUAL(fi_pep_bind(p3, &eq->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_listen(p3), 0);
	CU_ASSERT_EQUAL(port_of(&p3->fid), 47001);
	/* only a connected endpoint's info makes a listener */
	rdm->ep_attr->type = FI_EP_RDM;
	CU_ASSERT_EQUAL(fi_passive_ep(td.fabric, rdm, &p2, NULL), -FI_EINVAL);
	fi_freeinfo(rdm);
	CU_ASSERT_EQUAL(fi_close(&p1->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&p3->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&p4->fid), 0);
	/* the port is free again */
	CU_ASSERT_EQUAL_FATAL(pep_open(&p1, port), 0);
	CU_ASSERT_EQUAL(fi_close(&p1->fid), 0);
}

/* -- connections -- */

static void
test_connect_accept(void)
{
	struct sockaddr_in a, b;
	size_t len = sizeof(a);
	struct fid_pep *pep;
	struct side cli, srv;

	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	connect_pair(pep, &cli, &srv);
	/* each side's peer is the other's own address */
	CU_ASSERT_EQUAL(fi_getpeer(cli.ep, &a, &len), 0);
	CU_ASSERT_EQUAL(ntohs(a.sin_port), port_of(&srv.ep->fid));
	len = sizeof(b);
	CU_ASSERT_EQUAL(fi_getpeer(srv.ep, &b, &len), 0);
	CU_ASSERT_EQUAL(ntohs(b.sin_port), port_of(&cli.ep->fid));
	len = 2;
	CU_ASSERT_EQUAL(fi_getpeer(srv.ep, &b, &len), -FI_ETOOSMALL);
	CU_ASSERT_EQUAL(len, sizeof(b));
	/* once only */
	CU_ASSERT_EQUAL(fi_connect(cli.ep, &a, NULL, 0), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_accept(srv.ep, NULL, 0), -FI_EOPBADSTATE);
	side_close(&cli);
	side_close(&srv);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

static void
test_refusals(void)
{
	uint8_t big[CM_MAX + 1] = { 0 };
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	struct fid_pep *pep;
	struct side s, noeq;
	char buf[8];

	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	CU_ASSERT_EQUAL_FATAL(fi_getname(&pep->fid, &sin, &len), 0);
	CU_ASSERT_EQUAL_FATAL(side_open(&s, NULL, true), 0);
	/* nothing is sent before FI_CONNECTED; receives may wait for it */
	CU_ASSERT_EQUAL(fi_send(s.ep, buf, 1, NULL, 0, NULL), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_inject(s.ep, buf, 1, 0), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_tsend(s.ep, buf, 1, NULL, 0, 7, NULL), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_write(s.ep, buf, 1, NULL, 0, 0, 0, NULL), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_recv(s.ep, buf, sizeof(buf), NULL, 0, buf), 0);
	CU_ASSERT_EQUAL(fi_cancel(&s.ep->fid, buf), 0);
	len = sizeof(sin);
	CU_ASSERT_EQUAL(fi_getpeer(s.ep, &sin, &len), -FI_EOPBADSTATE);
	/* no request to accept, no flags to shut down with, nothing to shut down */
	CU_ASSERT_EQUAL(fi_accept(s.ep, NULL, 0), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_shutdown(s.ep, 1), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_shutdown(s.ep, 0), -FI_EOPBADSTATE);
	/* CM data within the limit, an address of ours */
	CU_ASSERT_EQUAL(fi_connect(s.ep, &sin, big, sizeof(big)), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_connect(s.ep, &sin, NULL, 4), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_connect(s.ep, NULL, NULL, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_listen((struct fid_pep *)s.ep), -FI_ENOSYS);
	/* an endpoint without an EQ cannot connect */
	CU_ASSERT_EQUAL_FATAL(side_open(&noeq, NULL, false), 0);
	CU_ASSERT_EQUAL(fi_connect(noeq.ep, &sin, NULL, 0), -FI_ENOEQ);
	side_close(&noeq);
	/* not a request: fi_reject and fi_endpoint refuse the handle */
	CU_ASSERT_EQUAL(fi_reject(pep, &s.ep->fid, NULL, 0), -FI_EINVAL);
	td.info->handle = &s.ep->fid;
	CU_ASSERT_EQUAL(fi_endpoint(td.domain, td.info, &noeq.ep, NULL), -FI_EINVAL);
	td.info->handle = NULL;
	side_close(&s);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

/* The passive side's refusals, and those of an endpoint opened to accept. */
static void
test_accept_refusals(void)
{
	uint8_t big[CM_MAX + 1] = { 0 };
	struct fid_pep *pep = NULL, *other;
	struct fid_ep *other_ep;
	struct fi_info *info, *bad;
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	struct side cli, srv;

	/* fi_passive_ep: a port of ours, an address on it */
	bad = fi_dupinfo(td.info);
	CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
	free(bad->domain_attr->name);
	bad->domain_attr->name = strdup("net_none9");
	CU_ASSERT_EQUAL(fi_passive_ep(td.fabric, bad, &other, NULL), -FI_ENODEV);
	free(bad->domain_attr->name);
	bad->domain_attr->name = NULL;
	CU_ASSERT_EQUAL(fi_passive_ep(td.fabric, bad, &other, NULL), -FI_EINVAL);
	fi_freeinfo(bad);
	bad = fi_dupinfo(td.info);
	((struct sockaddr_in *)bad->src_addr)->sin_addr.s_addr = htonl(0x01020304);
	CU_ASSERT_EQUAL(fi_passive_ep(td.fabric, bad, &other, NULL), -FI_EINVAL);
	fi_freeinfo(bad);
	/* names and bindings */
	CU_ASSERT_EQUAL_FATAL(fi_passive_ep(td.fabric, td.info, &other, NULL), 0);
	CU_ASSERT_EQUAL(fi_getname(&other->fid, &sin, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_setname(&other->fid, &sin, 2), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_pep_bind(other, &td.domain->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_pep_bind(other, &eq->fid, 0), 0);
	CU_ASSERT_EQUAL_FATAL(fi_listen(other), 0);
	/* a request: another listener's to reject, and not twice to take */
	info = request(&pep, &cli);
	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	CU_ASSERT_EQUAL(fi_reject(other, info->handle, NULL, 0), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_reject(pep, info->handle, NULL, 4), -FI_EINVAL);
	CU_ASSERT_EQUAL_FATAL(side_open(&srv, info, true), 0);
	CU_ASSERT_EQUAL(fi_endpoint(srv_domain, info, &other_ep, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_close(info->handle), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_reject(pep, info->handle, NULL, 0), -FI_EOPBADSTATE);
	/* the accepting endpoint does not connect, nor accept with too much data */
	len = sizeof(sin);
	CU_ASSERT_EQUAL(fi_getname(&pep->fid, &sin, &len), 0);
	CU_ASSERT_EQUAL(fi_connect(srv.ep, &sin, NULL, 0), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_accept(srv.ep, big, sizeof(big)), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_getpeer(srv.ep, &sin, NULL), -FI_EINVAL);
	fi_freeinfo(info);
	side_close(&srv);
	side_close(&cli);
	/* an address with no service is no one to connect to */
	sin.sin_port = 0;
	CU_ASSERT_EQUAL_FATAL(side_open(&cli, NULL, true), 0);
	CU_ASSERT_EQUAL(fi_connect(cli.ep, &sin, NULL, 0), -FI_EINVAL);
	side_close(&cli);
	CU_ASSERT_EQUAL(fi_close(&other->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

static void
test_reject(void)
{
	struct fi_eq_err_entry err = { 0 };
	uint8_t big[CM_MAX + 1] = { 0 };
	char data[16];
	struct fid_pep *pep = NULL;
	struct fi_info *info;
	struct cm_event ev;
	struct fid_ep *ep;
	struct side cli;
	uint32_t event;

	/* with a buffer for the error data */
	info = request(&pep, &cli);
	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	CU_ASSERT_EQUAL(fi_reject(pep, info->handle, big, sizeof(big)), -FI_EINVAL);
	CU_ASSERT_EQUAL_FATAL(fi_reject(pep, info->handle, "go away", 8), 0);
	CU_ASSERT_EQUAL(fi_reject(pep, info->handle, NULL, 0), -FI_EOPBADSTATE);
	/* a rejected request opens no endpoint */
	CU_ASSERT_EQUAL(fi_endpoint(srv_domain, info, &ep, NULL), -FI_EINVAL);
	fi_freeinfo(info);
	memset(&err, 0, sizeof(err));
	err.err_data = data;
	err.err_data_size = sizeof(data);
	while (fi_eq_read(eq, &event, &ev, sizeof(ev), 0) == -FI_EAGAIN)
		progress_all();
	CU_ASSERT_EQUAL_FATAL(fi_eq_readerr(eq, &err, 0), sizeof(err));
	CU_ASSERT_EQUAL(err.err, FI_ECONNREFUSED);
	CU_ASSERT_PTR_EQUAL(err.fid, &cli.ep->fid);
	CU_ASSERT_EQUAL(err.err_data_size, 8);
	CU_ASSERT_STRING_EQUAL(data, "go away");
	/* the refused endpoint stays refused */
	CU_ASSERT_EQUAL(fi_send(cli.ep, data, 1, NULL, 0, NULL), -FI_EOPBADSTATE);
	side_close(&cli);
	/* without one: the EQ's copy */
	info = request(&pep, &cli);
	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	CU_ASSERT_EQUAL_FATAL(fi_reject(pep, info->handle, "no", 3), 0);
	fi_freeinfo(info);
	CU_ASSERT_EQUAL(eq_next(&event, &ev, &err, TIMEOUT_MS), -FI_EAVAIL);
	CU_ASSERT_EQUAL(err.err, FI_ECONNREFUSED);
	CU_ASSERT_EQUAL_FATAL(err.err_data_size, 3);
	CU_ASSERT_STRING_EQUAL(err.err_data, "no");
	side_close(&cli);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

/* Nobody listens: an endpoint there refuses, an empty port times out. */
static void
test_nobody_listens(void)
{
	struct fi_eq_err_entry err = { 0 };
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	struct side cli, idle;
	struct cm_event ev;
	uint32_t event;

	CU_ASSERT_EQUAL_FATAL(side_open(&idle, NULL, true), 0);
	CU_ASSERT_EQUAL_FATAL(side_open(&cli, NULL, true), 0);
	CU_ASSERT_EQUAL_FATAL(fi_getname(&idle.ep->fid, &sin, &len), 0);
	CU_ASSERT_EQUAL_FATAL(fi_connect(cli.ep, &sin, NULL, 0), 0);
	CU_ASSERT_EQUAL(eq_next(&event, &ev, &err, TIMEOUT_MS), -FI_EAVAIL);
	CU_ASSERT_EQUAL(err.err, FI_ECONNREFUSED);
	CU_ASSERT_PTR_EQUAL(err.fid, &cli.ep->fid);
	side_close(&cli);
	/* a UDP port nobody has: the CM timeout, never a hang */
	CU_ASSERT_EQUAL_FATAL(side_open(&cli, NULL, true), 0);
	sin.sin_port = htons(47999);
	CU_ASSERT_EQUAL_FATAL(fi_connect(cli.ep, &sin, NULL, 0), 0);
	CU_ASSERT_EQUAL(eq_next(&event, &ev, &err, CM_TIMEOUT_MS * 10), -FI_EAVAIL);
	CU_ASSERT_EQUAL(err.err, FI_ETIMEDOUT);
	side_close(&cli);
	side_close(&idle);
}

/* More requests than the backlog: the rest are refused, and none is kept. */
static void
test_backlog(void)
{
	struct side cli[BACKLOG + 2];
	struct fi_info *reqs[BACKLOG + 2];
	struct fi_eq_err_entry err = { 0 };
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	int i, n_req = 0, n_refused = 0, n_timed_out = 0;
	struct fid_pep *pep;
	struct cm_event ev;
	uint32_t event;
	ssize_t ret;

	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	CU_ASSERT_EQUAL_FATAL(fi_getname(&pep->fid, &sin, &len), 0);
	for (i = 0; i < BACKLOG + 2; i++) {
		CU_ASSERT_EQUAL_FATAL(side_open(&cli[i], NULL, true), 0);
		CU_ASSERT_EQUAL_FATAL(fi_connect(cli[i].ep, &sin, NULL, 0), 0);
	}
	while ((ret = eq_next(&event, &ev, &err, 500)) != -FI_EAGAIN) {
		if (ret == -FI_EAVAIL) {
			/* those waiting in the backlog give up at the CM timeout */
			n_refused += err.err == FI_ECONNREFUSED;
			n_timed_out += err.err == FI_ETIMEDOUT;
		} else if (ret > 0 && event == FI_CONNREQ && n_req < BACKLOG + 2) {
			reqs[n_req++] = ev.entry.info;
		}
	}
	CU_ASSERT_EQUAL(n_req, BACKLOG);
	CU_ASSERT_EQUAL(n_refused, 2);
	CU_ASSERT(n_timed_out <= BACKLOG);
	/* answered ones make room */
	for (i = 0; i < n_req; i++) {
		CU_ASSERT_EQUAL(fi_reject(pep, reqs[i]->handle, NULL, 0), 0);
		fi_freeinfo(reqs[i]);
	}
	for (i = 0; i < BACKLOG + 2; i++)
		side_close(&cli[i]);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

/* A listener that closes takes its unread requests, their infos and handles along. */
static void
test_close_unread(void)
{
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	struct fid_pep *pep;
	struct cm_event ev;
	struct timespec t0;
	struct side cli;
	uint32_t event;
	ssize_t ret;

	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	CU_ASSERT_EQUAL_FATAL(fi_getname(&pep->fid, &sin, &len), 0);
	CU_ASSERT_EQUAL_FATAL(side_open(&cli, NULL, true), 0);
	CU_ASSERT_EQUAL_FATAL(fi_connect(cli.ep, &sin, NULL, 0), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((ret = fi_eq_read(eq, &event, &ev, sizeof(ev), FI_PEEK)) == -FI_EAGAIN &&
	       test_ms_since(&t0) < TIMEOUT_MS)
		;
	CU_ASSERT_EQUAL(event, FI_CONNREQ);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
	side_close(&cli);
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &ev, sizeof(ev), 0), -FI_EAGAIN);
}

/* A request is its sender's incarnation's: accepted after its sender died
 * and another took its address, the accept is refused. */
static void
test_stale_request(void)
{
	struct fi_eq_err_entry err = { 0 };
	struct sockaddr_in cli_sin;
	size_t len = sizeof(cli_sin);
	struct fid_pep *pep = NULL;
	struct fi_info *info, *req;
	struct side cli, srv;
	struct cm_event ev;
	uint32_t event;

	req = request(&pep, &cli);
	CU_ASSERT_PTR_NOT_NULL_FATAL(req);
	CU_ASSERT_EQUAL_FATAL(fi_getname(&cli.ep->fid, &cli_sin, &len), 0);
	side_close(&cli);
	/* a new endpoint at the dead one's address */
	info = fi_dupinfo(td.info);
	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	memcpy(info->src_addr, &cli_sin, sizeof(cli_sin));
	CU_ASSERT_EQUAL_FATAL(side_open(&cli, info, true), 0);
	fi_freeinfo(info);
	CU_ASSERT_EQUAL(port_of(&cli.ep->fid), ntohs(cli_sin.sin_port));
	CU_ASSERT_EQUAL_FATAL(side_open(&srv, req, true), 0);
	fi_freeinfo(req);
	CU_ASSERT_EQUAL_FATAL(fi_accept(srv.ep, NULL, 0), 0);
	CU_ASSERT_EQUAL(eq_next(&event, &ev, &err, TIMEOUT_MS), -FI_EAVAIL);
	CU_ASSERT_EQUAL(err.err, FI_ECONNABORTED);
	CU_ASSERT_PTR_EQUAL(err.fid, &srv.ep->fid);
	side_close(&cli);
	side_close(&srv);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

static void
test_shutdown(void)
{
	struct fid_pep *pep;
	struct side cli, srv;
	struct cm_event ev;
	char buf[4];

	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	/* fi_shutdown: the peer sees FI_SHUTDOWN, nothing more is posted */
	connect_pair(pep, &cli, &srv);
	CU_ASSERT_EQUAL(fi_shutdown(cli.ep, 0), 0);
	expect_event(FI_SHUTDOWN, &srv.ep->fid, NULL, 0, &ev);
	CU_ASSERT_EQUAL(fi_send(cli.ep, buf, 1, NULL, 0, NULL), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_send(srv.ep, buf, 1, NULL, 0, NULL), -FI_EOPBADSTATE);
	CU_ASSERT_EQUAL(fi_shutdown(cli.ep, 0), 0);
	side_close(&cli);
	side_close(&srv);
	/* fi_close without fi_shutdown: the same for the peer */
	connect_pair(pep, &cli, &srv);
	side_close(&srv);
	expect_event(FI_SHUTDOWN, &cli.ep->fid, NULL, 0, &ev);
	side_close(&cli);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

/* -- data -- */

static void
test_data(void)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fid_pep *pep;
	struct side cli, srv;
	char out[2048], in[2048];
	int ctx_s, ctx_r;
	size_t i;

	for (i = 0; i < sizeof(out); i++)
		out[i] = (char)(i * 7 + 1);
	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	connect_pair(pep, &cli, &srv);
	/* a message each way, whatever fi_addr_t is passed */
	CU_ASSERT_EQUAL(fi_recv(srv.ep, in, sizeof(in), NULL, FI_ADDR_UNSPEC, &ctx_r), 0);
	CU_ASSERT_EQUAL(fi_send(cli.ep, out, 1500, NULL, 12345, &ctx_s), 0);
	CU_ASSERT_EQUAL(wait_ctx(&srv, &ctx_r, &e, &err), 1);
	CU_ASSERT_EQUAL(e.len, 1500);
	CU_ASSERT_EQUAL(memcmp(in, out, 1500), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli, &ctx_s, &e, &err), 1);
	/* tagged, with remote CQ data, back */
	memset(in, 0, sizeof(in));
	CU_ASSERT_EQUAL(fi_trecv(cli.ep, in, sizeof(in), NULL, 0, 0x42, 0, &ctx_r), 0);
	CU_ASSERT_EQUAL(fi_tsenddata(srv.ep, out, 100, NULL, 0xdead, 0, 0x42, &ctx_s), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli, &ctx_r, &e, &err), 1);
	CU_ASSERT_EQUAL(e.tag, 0x42);
	CU_ASSERT_EQUAL(e.data, 0xdead);
	CU_ASSERT((e.flags & (FI_TAGGED | FI_REMOTE_CQ_DATA)) == (FI_TAGGED | FI_REMOTE_CQ_DATA));
	CU_ASSERT_EQUAL(memcmp(in, out, 100), 0);
	CU_ASSERT_EQUAL(wait_ctx(&srv, &ctx_s, &e, &err), 1);
	/* inject: no completion, the counters count */
	CU_ASSERT_EQUAL(fi_recv(srv.ep, in, sizeof(in), NULL, 0, &ctx_r), 0);
	CU_ASSERT_EQUAL(fi_inject(cli.ep, out + 1, 10, 0), 0);
	CU_ASSERT_EQUAL(wait_ctx(&srv, &ctx_r, &e, &err), 1);
	CU_ASSERT_EQUAL(memcmp(in, out + 1, 10), 0);
	CU_ASSERT(fi_cntr_read(cli.tx_cntr) >= 2);
	CU_ASSERT_EQUAL(fi_cntr_read(srv.rx_cntr), 2);
	/* FI_MULTI_RECV: two messages in one buffer, then its release */
	{
		struct iovec iov = { .iov_base = in, .iov_len = 256 };
		struct fi_msg msg = { .msg_iov = &iov, .iov_count = 1, .context = &ctx_r };
		size_t min = 150;	/* released after two 64-byte messages */

		CU_ASSERT_EQUAL(fi_setopt(&srv.ep->fid, FI_OPT_ENDPOINT, FI_OPT_MIN_MULTI_RECV,
					  &min, sizeof(min)), 0);
		CU_ASSERT_EQUAL(fi_recvmsg(srv.ep, &msg, FI_MULTI_RECV), 0);
		CU_ASSERT_EQUAL(fi_send(cli.ep, out, 64, NULL, 0, &ctx_s), 0);
		CU_ASSERT_EQUAL(fi_send(cli.ep, out + 64, 64, NULL, 0, &ctx_s), 0);
		CU_ASSERT_EQUAL(wait_ctx(&srv, &ctx_r, &e, &err), 1);
		CU_ASSERT_PTR_EQUAL(e.buf, in);
		CU_ASSERT_EQUAL(wait_ctx(&srv, &ctx_r, &e, &err), 1);
		CU_ASSERT_PTR_EQUAL(e.buf, in + 64);
		CU_ASSERT((e.flags & FI_MULTI_RECV) != 0);
		CU_ASSERT_EQUAL(memcmp(in, out, 128), 0);
	}
	/* fi_cancel of a posted receive */
	CU_ASSERT_EQUAL(fi_recv(cli.ep, in, sizeof(in), NULL, 0, &ctx_r), 0);
	CU_ASSERT_EQUAL(fi_cancel(&cli.ep->fid, &ctx_r), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli, &ctx_r, &e, &err), -FI_EAVAIL);
	CU_ASSERT_EQUAL(err.err, FI_ECANCELED);
	CU_ASSERT_PTR_EQUAL(err.op_context, &ctx_r);
	side_close(&cli);
	side_close(&srv);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

/* Selective completion, and a send that completes once delivered. */
/*
 * Two connections accepted onto endpoints of one shared receive context and
 * one shared transmit context: the receive context's receives take the
 * messages of both, each completing on the CQ of the connection it came
 * over; the endpoints take no receives of their own, and send through the
 * transmit context.
 */
static void
test_shared_rx(void)
{
	struct side cli[2], srv[2];
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	char out[2][100], in[2][100];
	struct fid_pep *pep;
	int ctx_s;

	memset(out[0], 'a', sizeof(out[0]));
	memset(out[1], 'b', sizeof(out[1]));
	CU_ASSERT_EQUAL_FATAL(fi_stx_context(srv_domain, NULL, &srv_stx, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_srx_context(srv_domain, NULL, &srv_srx, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	connect_pair(pep, &cli[0], &srv[0]);
	connect_pair(pep, &cli[1], &srv[1]);
	CU_ASSERT_EQUAL(fi_recv(srv_srx, in[0], sizeof(in[0]), NULL, 0, in[0]), 0);
	CU_ASSERT_EQUAL(fi_recv(srv_srx, in[1], sizeof(in[1]), NULL, 0, in[1]), 0);
	CU_ASSERT_EQUAL(fi_recv(srv[0].ep, in[1], sizeof(in[1]), NULL, 0, in[1]), -FI_EOPNOTSUPP);
	CU_ASSERT_EQUAL(fi_send(cli[1].ep, out[1], sizeof(out[1]), NULL, 0, &ctx_s), 0);
	CU_ASSERT_EQUAL(wait_ctx(&srv[1], in[0], &e, &err), 1);
	CU_ASSERT_EQUAL(memcmp(in[0], out[1], sizeof(out[1])), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli[1], &ctx_s, &e, &err), 1);
	CU_ASSERT_EQUAL(fi_send(cli[0].ep, out[0], sizeof(out[0]), NULL, 0, &ctx_s), 0);
	CU_ASSERT_EQUAL(wait_ctx(&srv[0], in[1], &e, &err), 1);
	CU_ASSERT_EQUAL(memcmp(in[1], out[0], sizeof(out[0])), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli[0], &ctx_s, &e, &err), 1);
	/* and back, through the transmit context */
	CU_ASSERT_EQUAL(fi_recv(cli[0].ep, in[0], sizeof(in[0]), NULL, 0, in[0]), 0);
	CU_ASSERT_EQUAL(fi_send(srv[0].ep, out[1], sizeof(out[1]), NULL, 0, &ctx_s), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli[0], in[0], &e, &err), 1);
	CU_ASSERT_EQUAL(memcmp(in[0], out[1], sizeof(out[1])), 0);
	CU_ASSERT_EQUAL(wait_ctx(&srv[0], &ctx_s, &e, &err), 1);
	CU_ASSERT_EQUAL(fi_close(&srv_srx->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&srv_stx->fid), -FI_EBUSY);
	side_close(&cli[0]);
	side_close(&cli[1]);
	side_close(&srv[0]);
	side_close(&srv[1]);
	CU_ASSERT_EQUAL(fi_close(&srv_srx->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&srv_stx->fid), 0);
	srv_srx = NULL;
	srv_stx = NULL;
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

static void
test_completions(void)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct iovec iov;
	struct fi_msg msg = { .msg_iov = &iov, .iov_count = 1 };
	struct fid_pep *pep;
	struct side cli, srv;
	char out[64] = "selective", in[64];
	int ctx_s, ctx_r, ctx_quiet;
	struct timespec t0;

	cli_cq_flags = FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION;
	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	connect_pair(pep, &cli, &srv);
	cli_cq_flags = FI_TRANSMIT | FI_RECV;
	/* without FI_COMPLETION: received, counted, not reported */
	CU_ASSERT_EQUAL(fi_recv(srv.ep, in, sizeof(in), NULL, 0, &ctx_r), 0);
	CU_ASSERT_EQUAL(fi_send(cli.ep, out, 10, NULL, 0, &ctx_quiet), 0);
	CU_ASSERT_EQUAL(wait_ctx(&srv, &ctx_r, &e, &err), 1);
	CU_ASSERT_EQUAL(memcmp(in, out, 10), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (fi_cntr_read(cli.tx_cntr) == 0 && test_ms_since(&t0) < TIMEOUT_MS)
		progress_all();
	CU_ASSERT_EQUAL(fi_cntr_read(cli.tx_cntr), 1);
	CU_ASSERT_EQUAL(fi_cq_read(cli.cq, &e, 1), -FI_EAGAIN);
	/* with it, and FI_DELIVERY_COMPLETE: reported once the peer has it */
	iov.iov_base = out;
	iov.iov_len = 20;
	msg.context = &ctx_s;
	CU_ASSERT_EQUAL(fi_recv(srv.ep, in, sizeof(in), NULL, 0, &ctx_r), 0);
	CU_ASSERT_EQUAL(fi_sendmsg(cli.ep, &msg, FI_COMPLETION | FI_DELIVERY_COMPLETE), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli, &ctx_s, &e, &err), 1);
	CU_ASSERT_PTR_EQUAL(e.op_context, &ctx_s);
	CU_ASSERT_EQUAL(fi_cntr_read(cli.tx_cntr), 2);
	CU_ASSERT_EQUAL(wait_ctx(&srv, &ctx_r, &e, &err), 1);
	CU_ASSERT_EQUAL(e.len, 20);
	side_close(&cli);
	side_close(&srv);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

static void
test_rma(void)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	static uint8_t region[4096], src[512], dst[512];
	struct fid_mr *mr;
	struct fid_pep *pep;
	struct side cli, srv;
	uint64_t key, base;
	int ctx;
	size_t i;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i ^ 0x5a);
	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	connect_pair(pep, &cli, &srv);
	CU_ASSERT_EQUAL_FATAL(fi_mr_reg(srv_domain, region, sizeof(region),
					FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 77, 0, &mr, NULL), 0);
	key = fi_mr_key(mr);
	base = (td.info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) ? (uintptr_t)region : 0;
	CU_ASSERT_EQUAL(fi_write(cli.ep, src, sizeof(src), NULL, 0, base + 100, key, &ctx), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli, &ctx, &e, &err), 1);
	CU_ASSERT_EQUAL(memcmp(region + 100, src, sizeof(src)), 0);
	CU_ASSERT_EQUAL(fi_read(cli.ep, dst, sizeof(dst), NULL, 0, base + 100, key, &ctx), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli, &ctx, &e, &err), 1);
	CU_ASSERT_EQUAL(memcmp(dst, src, sizeof(src)), 0);
	/* a wrong key is refused at the target */
	CU_ASSERT_EQUAL(fi_write(cli.ep, src, 8, NULL, 0, base, key + 1, &ctx), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli, &ctx, &e, &err), -FI_EAVAIL);
	CU_ASSERT_EQUAL(err.err, FI_EACCES);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	side_close(&cli);
	side_close(&srv);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

/*
 * Atomics to the connected peer (the dest_addr argument is ignored): every
 * kind once, the write and read counters, and a forged key that changes
 * nothing. test_atomic.c checks every op and datatype over RDM, which shares
 * this data path.
 */
static void
test_atomic(void)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	static uint64_t region[8];
	uint64_t add = 3, bits = 0x100, old = 0, cmp = 11, swap = 100, key, base, before;
	struct fid_mr *mr;
	struct fid_pep *pep;
	struct side cli, srv;
	size_t count = 0;
	int ctx;

	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	connect_pair(pep, &cli, &srv);
	CU_ASSERT_EQUAL(fi_atomicvalid(cli.ep, FI_UINT64, FI_SUM, &count), 0);
	CU_ASSERT(count >= 1);
	CU_ASSERT_EQUAL(fi_fetch_atomicvalid(cli.ep, FI_UINT64, FI_SUM, &count), 0);
	CU_ASSERT_EQUAL(fi_compare_atomicvalid(cli.ep, FI_UINT64, FI_CSWAP, &count), 0);
	CU_ASSERT_EQUAL(fi_compare_atomicvalid(cli.ep, FI_UINT64, FI_SUM, &count),
			-FI_EOPNOTSUPP);
	region[2] = 5;
	CU_ASSERT_EQUAL_FATAL(fi_mr_reg(srv_domain, region, sizeof(region),
					FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 78, 0, &mr, NULL), 0);
	key = fi_mr_key(mr);
	base = (td.info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) ? (uintptr_t)region : 0;
	base += 2 * sizeof(uint64_t);
	before = fi_cntr_read(cli.tx_cntr);
	CU_ASSERT_EQUAL(fi_fetch_atomic(cli.ep, &add, 1, NULL, &old, NULL, 0, base, key,
					FI_UINT64, FI_SUM, &ctx), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli, &ctx, &e, &err), 1);
	CU_ASSERT_EQUAL(e.flags, FI_ATOMIC | FI_READ);
	CU_ASSERT_EQUAL(old, 5);
	CU_ASSERT_EQUAL(region[2], 8);
	CU_ASSERT_EQUAL(fi_atomic(cli.ep, &add, 1, NULL, 0, base, key, FI_UINT64, FI_SUM, &ctx), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli, &ctx, &e, &err), 1);
	CU_ASSERT_EQUAL(e.flags, FI_ATOMIC | FI_WRITE);
	CU_ASSERT_EQUAL(region[2], 11);
	/* an inject, then a compare that sees it (FI_ORDER_ATOMIC_RAW) */
	CU_ASSERT_EQUAL(fi_inject_atomic(cli.ep, &bits, 1, 0, base, key, FI_UINT64, FI_BOR), 0);
	cmp = 11 | bits;
	CU_ASSERT_EQUAL(fi_compare_atomic(cli.ep, &swap, 1, NULL, &cmp, NULL, &old, NULL, 0, base,
					  key, FI_UINT64, FI_CSWAP, &ctx), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli, &ctx, &e, &err), 1);
	CU_ASSERT_EQUAL(old, 11 | bits);
	CU_ASSERT_EQUAL(region[2], 100);
	/* the tx counter: the fetch, the compare, the plain add and the inject */
	CU_ASSERT_EQUAL(fi_cntr_read(cli.tx_cntr) - before, 4);
	/* a forged key: FI_EACCES, and not a byte changed */
	CU_ASSERT_EQUAL(fi_atomic(cli.ep, &add, 1, NULL, 0, base, key ^ 0x40, FI_UINT64, FI_SUM,
				  &ctx), 0);
	CU_ASSERT_EQUAL(wait_ctx(&cli, &ctx, &e, &err), -FI_EAVAIL);
	CU_ASSERT_EQUAL(err.err, FI_EACCES);
	CU_ASSERT_EQUAL(region[2], 100);
	CU_ASSERT(region[0] == 0 && region[1] == 0 && region[3] == 0);
	CU_ASSERT_EQUAL(fi_close(&mr->fid), 0);
	side_close(&cli);
	side_close(&srv);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

/* FI_WAIT_FD: the fd polls readable once fi_trywait() says events wait. */
static void
test_eq_fd(void)
{
	struct epoll_event pe = { .events = EPOLLIN }, out;
	struct fi_eq_err_entry err = { 0 };
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	struct fid *fids[1] = { &eq->fid };
	struct timespec t0;
	struct fid_pep *pep;
	struct cm_event ev;
	struct side cli;
	int fd = -1, efd, n = 0;

	CU_ASSERT_EQUAL_FATAL(fi_control(&eq->fid, FI_GETWAIT, &fd), 0);
	CU_ASSERT(fd >= 0);
	efd = epoll_create1(0);
	CU_ASSERT_EQUAL_FATAL(epoll_ctl(efd, EPOLL_CTL_ADD, fd, &pe), 0);
	CU_ASSERT_EQUAL(epoll_wait(efd, &out, 1, 0), 0);
	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	CU_ASSERT_EQUAL_FATAL(fi_getname(&pep->fid, &sin, &len), 0);
	CU_ASSERT_EQUAL_FATAL(side_open(&cli, NULL, true), 0);
	CU_ASSERT_EQUAL_FATAL(fi_connect(cli.ep, &sin, NULL, 0), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (fi_trywait(td.fabric, fids, 1) == 0 && test_ms_since(&t0) < TIMEOUT_MS)
		n += epoll_wait(efd, &out, 1, 1);
	CU_ASSERT_EQUAL(n, 0);	/* nothing readable while trywait said wait */
	CU_ASSERT_EQUAL(epoll_wait(efd, &out, 1, 0), 1);
	expect_event(FI_CONNREQ, &pep->fid, NULL, 0, &ev);
	CU_ASSERT_EQUAL(fi_reject(pep, ev.entry.info->handle, NULL, 0), 0);
	fi_freeinfo(ev.entry.info);
	CU_ASSERT_EQUAL(fi_eq_sread(eq, NULL, &ev, sizeof(ev), TIMEOUT_MS, 0), -FI_EAVAIL);
	CU_ASSERT_EQUAL(fi_eq_readerr(eq, &err, 0), sizeof(err));
	CU_ASSERT_EQUAL(err.err, FI_ECONNREFUSED);
	close(efd);
	side_close(&cli);
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

/* Connections one after the other: each transfers and shuts down. */
static void
test_cycles(void)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fid_pep *pep;
	struct side cli, srv;
	struct cm_event ev;
	char in[64];
	int i, ctx;

	CU_ASSERT_EQUAL_FATAL(pep_open(&pep, 0), 0);
	for (i = 0; i < 100; i++) {
		connect_pair(pep, &cli, &srv);
		CU_ASSERT_EQUAL(fi_recv(srv.ep, in, sizeof(in), NULL, 0, &ctx), 0);
		CU_ASSERT_EQUAL(fi_send(cli.ep, &i, sizeof(i), NULL, 0, &ctx), 0);
		CU_ASSERT_EQUAL_FATAL(wait_ctx(&srv, &ctx, &e, &err), 1);
		CU_ASSERT_EQUAL(memcmp(in, &i, sizeof(i)), 0);
		CU_ASSERT_EQUAL(fi_shutdown(cli.ep, 0), 0);
		expect_event(FI_SHUTDOWN, &srv.ep->fid, NULL, 0, &ev);
		side_close(&cli);
		side_close(&srv);
	}
	CU_ASSERT_EQUAL(fi_close(&pep->fid), 0);
}

static CU_TestInfo msg_tests[] = {
	{ "passive endpoints: listen, names, EADDRINUSE", test_pep },
	{ "connect and accept, CM data both ways, getpeer", test_connect_accept },
	{ "refusals before and instead of a connection", test_refusals },
	{ "refusals of listeners, requests and accepting endpoints", test_accept_refusals },
	{ "fi_reject with data: FI_ECONNREFUSED with err_data", test_reject },
	{ "nobody listening: refused, or timed out", test_nobody_listens },
	{ "requests beyond the backlog are refused", test_backlog },
	{ "a dead incarnation's request is not accepted", test_stale_request },
	{ "a closing listener drops its unread requests", test_close_unread },
	{ "fi_shutdown and fi_close give the peer FI_SHUTDOWN", test_shutdown },
	{ "messages, tagged, CQ data, inject, multi-recv, counters, cancel", test_data },
	{ "selective completion, delivery complete", test_completions },
	{ "a shared receive context across two connections", test_shared_rx },
	{ "RMA write and read with the MR key", test_rma },
	{ "atomics: fetch, plain, inject, compare, forged key", test_atomic },
	{ "FI_WAIT_FD with epoll and fi_trywait", test_eq_fd },
	{ "100 connect, transfer, shutdown cycles", test_cycles },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "msg", suite_init, suite_clean, NULL, NULL, msg_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	char v[16];

	snprintf(v, sizeof(v), "%d", CM_TIMEOUT_MS);
	setenv("FI_DPDK_CM_TIMEOUT_MS", v, 1);
	snprintf(v, sizeof(v), "%d", BACKLOG);
	setenv("FI_DPDK_CM_BACKLOG", v, 1);
	test_env_setup(TEST_EAL_BASE " --vdev=net_ring0");
	return test_run(suites);
}
