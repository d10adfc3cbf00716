/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * One side of the two-process FI_EP_MSG tests (test/msg_wire.sh): the
 * server listens on a passive endpoint and sends its name over the control
 * connection; the client connects to it.
 *
 *   -m exchange  a request rejected with CM data, one accepted with CM data
 *                both ways, a message each way, fi_shutdown; then -n
 *                connect / transfer / shutdown cycles, the port's mbufs in
 *                use counted before and after. In each cycle the two sides
 *                meet over the control connection as soon as they are
 *                connected, neither calling into libfabric meanwhile (as
 *                fabtests' ft_sync does): the client's last handshake packet
 *                must have left with the call that reported FI_CONNECTED
 *   -m kill      a stream from the client until the script kills the server:
 *                the client must see FI_SHUTDOWN or error completions
 *                (within FI_DPDK_RDM_TIMEOUT_MS), and says "dead" then
 *   -m idle      the same with nothing sent: the connection is idle when the
 *                server dies, and must end with FI_SHUTDOWN all the same
 *
 * usage: msg_peer server -P PORT -m MODE [-n CYCLES]
 *        msg_peer client HOST -P PORT -m MODE [-n CYCLES]
 */

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>

#include <rte_mempool.h>

#include "ctrl.h"
#include "peer_util.h"

#define MSG_LEN		4096
#define NAME_MAX_LEN	64
#define WAIT_MS		10000

struct side {
	struct fi_info *info;
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fid_eq *eq;
	struct fid_pep *pep;
	struct fid_ep *ep;
	struct fid_cq *cq;
	int ctrl;
	bool server;
	uint8_t tx[MSG_LEN];
	uint8_t rx[MSG_LEN];
};

struct cm_event {
	struct fi_eq_cm_entry entry;
	uint8_t data[256];
};

/* The next EQ event, progressing the connection's CQ too; its length or error. */
static ssize_t
eq_wait(struct side *s, uint32_t *event, struct cm_event *ev, struct fi_eq_err_entry *err,
	int timeout_ms)
{
	uint64_t end = peer_now_ms() + (uint64_t)timeout_ms;
	ssize_t ret;

	do {
		ret = fi_eq_read(s->eq, event, ev, sizeof(*ev), 0);
		if (ret == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			return fi_eq_readerr(s->eq, err, 0) > 0 ? -FI_EAVAIL : -FI_EOTHER;
		}
		if (ret != -FI_EAGAIN)
			return ret;
		if (s->cq != NULL)
			fi_cq_read(s->cq, NULL, 0);
	} while (peer_now_ms() < end);
	return -FI_ETIMEDOUT;
}

/* The completion of ctx, 1, or the error (err filled). */
static ssize_t
cq_wait(struct side *s, void *ctx, struct fi_cq_err_entry *err)
{
	uint64_t end = peer_now_ms() + WAIT_MS;
	struct fi_cq_entry e;
	ssize_t ret;

	do {
		ret = fi_cq_read(s->cq, &e, 1);
		if (ret == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			fi_cq_readerr(s->cq, err, 0);
			return -FI_EAVAIL;
		}
		if (ret == 1 && e.op_context == ctx)
			return 1;
	} while (peer_now_ms() < end);
	return -FI_ETIMEDOUT;
}

static int
open_common(struct side *s)
{
	struct fi_info *hints = fi_allocinfo();
	struct fi_eq_attr eq_attr = { .wait_obj = FI_WAIT_UNSPEC };
	int ret;

	if (hints == NULL)
		return -FI_ENOMEM;
	hints->ep_attr->type = FI_EP_MSG;
	hints->caps = FI_MSG;
	hints->fabric_attr->prov_name = strdup("dpdk");
	ret = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &s->info);
	fi_freeinfo(hints);
	ret = ret ? ret : fi_fabric(s->info->fabric_attr, &s->fabric, NULL);
	ret = ret ? ret : fi_domain(s->fabric, s->info, &s->domain, NULL);
	ret = ret ? ret : fi_eq_open(s->fabric, &eq_attr, &s->eq, NULL);
	return ret;
}

/* An endpoint of info with its CQ, bound to the EQ. */
static int
ep_open(struct side *s, struct fi_info *info)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT, .size = 128 };
	int ret;

	ret = fi_endpoint(s->domain, info, &s->ep, NULL);
	ret = ret ? ret : fi_cq_open(s->domain, &cq_attr, &s->cq, NULL);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->cq->fid, FI_TRANSMIT | FI_RECV);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->eq->fid, 0);
	return ret ? ret : fi_enable(s->ep);
}

static void
ep_close(struct side *s)
{
	if (s->ep != NULL)
		fi_close(&s->ep->fid);
	if (s->cq != NULL)
		fi_close(&s->cq->fid);
	s->ep = NULL;
	s->cq = NULL;
}

/* Server: the next request, with its data checked; its info, or NULL. */
static struct fi_info *
next_request(struct side *s, const char *data)
{
	struct fi_eq_err_entry err = { 0 };
	struct cm_event ev;
	uint32_t event = 0;
	ssize_t ret;

	ret = eq_wait(s, &event, &ev, &err, WAIT_MS);
	if (!peer_check(ret > 0 && event == FI_CONNREQ && ev.entry.fid == &s->pep->fid,
			"server: FI_CONNREQ on the listener (%zd, event %u)", ret, event))
		return NULL;
	if (data != NULL)
		peer_check((size_t)ret == sizeof(ev.entry) + strlen(data) + 1 &&
			   strcmp((char *)ev.data, data) == 0, "server: the request's CM data");
	return ev.entry.info;
}

/* Both sides: FI_CONNECTED on our endpoint, with the peer's data checked. */
static bool
connected(struct side *s, const char *data)
{
	struct fi_eq_err_entry err = { 0 };
	struct cm_event ev;
	uint32_t event = 0;
	ssize_t ret = eq_wait(s, &event, &ev, &err, WAIT_MS);

	if (ret <= 0 || event != FI_CONNECTED || ev.entry.fid != &s->ep->fid) {
		peer_check(false, "%s: FI_CONNECTED (%zd, event %u, error %d)",
			   s->server ? "server" : "client", ret, event, ret == -FI_EAVAIL ? err.err : 0);
		return false;
	}
	return data == NULL || ((size_t)ret == sizeof(ev.entry) + strlen(data) + 1 &&
				strcmp((char *)ev.data, data) == 0);
}

/* One message each way, client first; 0 or the failure. */
static int
transfer(struct side *s, size_t len, uint32_t seed)
{
	struct fi_cq_err_entry err = { 0 };
	struct fi_context rctx, sctx;
	int ret;

	ret = (int)fi_recv(s->ep, s->rx, len, NULL, 0, &rctx);
	if (ret != 0)
		return ret;
	peer_fill(s->tx, len, seed + s->server);
	if (!s->server) {
		ret = (int)fi_send(s->ep, s->tx, len, NULL, 0, &sctx);
		ret = ret ? ret : (cq_wait(s, &sctx, &err) == 1 ? 0 : -FI_EIO);
	}
	ret = ret ? ret : (cq_wait(s, &rctx, &err) == 1 ? 0 : -FI_EIO);
	if (ret == 0 && !peer_verify(s->rx, len, seed + !s->server))
		ret = -FI_EIO;
	if (ret == 0 && s->server) {
		ret = (int)fi_send(s->ep, s->tx, len, NULL, 0, &sctx);
		ret = ret ? ret : (cq_wait(s, &sctx, &err) == 1 ? 0 : -FI_EIO);
	}
	return ret;
}

/* Client: the endpoint connects with data; 0, or the connect's failure. */
static int
client_connect(struct side *s, const char *name, const char *data)
{
	int ret = ep_open(s, s->info);

	return ret ? ret : fi_connect(s->ep, name, data, data != NULL ? strlen(data) + 1 : 0);
}

/* Server: accept the next request with data. */
static bool
server_accept(struct side *s, const char *req_data, const char *data)
{
	struct fi_info *info = next_request(s, req_data);
	int ret;

	if (info == NULL)
		return false;
	ret = ep_open(s, info);
	fi_freeinfo(info);
	ret = ret ? ret : fi_accept(s->ep, data, data != NULL ? strlen(data) + 1 : 0);
	return peer_check(ret == 0, "server: endpoint opened on the request, fi_accept (%d)", ret) &&
	       connected(s, NULL);
}

/* Server: FI_SHUTDOWN, then the endpoint closed. */
static bool
server_shutdown(struct side *s)
{
	struct fi_eq_err_entry err = { 0 };
	struct cm_event ev;
	uint32_t event = 0;
	ssize_t ret = eq_wait(s, &event, &ev, &err, WAIT_MS);
	bool ok = ret > 0 && event == FI_SHUTDOWN && ev.entry.fid == &s->ep->fid;

	ep_close(s);
	return ok;
}

/* The mbufs of every pool (the ports'), and those in use, summed. */
struct pool_sum {
	uint64_t size;
	uint64_t in_use;
};

static void
pool_count(struct rte_mempool *mp, void *arg)
{
	struct pool_sum *sum = arg;

	sum->size += mp->size;
	sum->in_use += rte_mempool_in_use_count(mp);
}

/* The mbufs in use; checked to come from pools that exist. */
static uint64_t
mbufs_in_use(void)
{
	struct pool_sum sum = { 0, 0 };

	rte_mempool_walk(pool_count, &sum);
	peer_check(sum.size > 0, "the port's pool is seen (%" PRIu64 " mbufs, %" PRIu64
		   " in use)", sum.size, sum.in_use);
	return sum.in_use;
}

static int
exchange_server(struct side *s, int cycles)
{
	struct fi_info *info;
	int i, ok = 0;

	/* 1: rejected with data */
	info = next_request(s, "client-hello-1");
	if (info != NULL) {
		peer_check(fi_reject(s->pep, info->handle, "server-no", 10) == 0,
			   "server: fi_reject with CM data");
		fi_freeinfo(info);
	}
	/* 2: accepted, a message each way, shut down by the client */
	if (server_accept(s, "client-hello-2", "server-welcome")) {
		peer_check(transfer(s, MSG_LEN, 2) == 0, "server: a message each way, checked");
		peer_check(server_shutdown(s), "server: FI_SHUTDOWN when the client shuts down");
	}
	pp_ctrl_sync(s->ctrl);
	/* the cycles */
	for (i = 0; i < cycles; i++) {
		if (!server_accept(s, NULL, NULL) || pp_ctrl_sync(s->ctrl) != 0 ||
		    transfer(s, 64, (uint32_t)i) != 0 || !server_shutdown(s))
			break;
		ok++;
	}
	ep_close(s);
	pp_ctrl_sync(s->ctrl);
	peer_check(ok == cycles, "server: %d of %d connect / transfer / shutdown cycles", ok,
		   cycles);
	return 0;
}

static int
exchange_client(struct side *s, const char *name, int cycles)
{
	struct fi_eq_err_entry err = { 0 };
	struct cm_event ev;
	char data[32] = { 0 };
	uint64_t t0;
	uint32_t event;
	int i, ok = 0;
	ssize_t ret;

	/* 1: rejected: the server's data comes with the error */
	if (peer_check(client_connect(s, name, "client-hello-1") == 0, "client: fi_connect")) {
		memset(&err, 0, sizeof(err));
		ret = eq_wait(s, &event, &ev, &err, WAIT_MS);
		if (ret == -FI_EAVAIL)
			memcpy(data, err.err_data, RTE_MIN(err.err_data_size, sizeof(data) - 1));
		peer_check(ret == -FI_EAVAIL && err.err == FI_ECONNREFUSED &&
			   err.fid == &s->ep->fid && strcmp(data, "server-no") == 0,
			   "client: refused, FI_ECONNREFUSED with the reject's data");
	}
	ep_close(s);
	/* 2: accepted with data */
	if (peer_check(client_connect(s, name, "client-hello-2") == 0, "client: fi_connect") &&
	    peer_check(connected(s, "server-welcome"), "client: FI_CONNECTED with the accept's data")) {
		peer_check(transfer(s, MSG_LEN, 2) == 0, "client: a message each way, checked");
		peer_check(fi_shutdown(s->ep, 0) == 0, "client: fi_shutdown");
	}
	/* the server saw our DISC before closing: our endpoint may go */
	pp_ctrl_sync(s->ctrl);
	ep_close(s);
	t0 = peer_now_ms();
	for (i = 0; i < cycles; i++) {
		if (client_connect(s, name, NULL) != 0 || !connected(s, NULL) ||
		    pp_ctrl_sync(s->ctrl) != 0 || transfer(s, 64, (uint32_t)i) != 0 ||
		    fi_shutdown(s->ep, 0) != 0)
			break;
		/* our DISC is answered before the next connection */
		while (eq_wait(s, &event, &ev, &err, 1) != -FI_ETIMEDOUT)
			;
		ep_close(s);
		ok++;
	}
	ep_close(s);
	pp_ctrl_sync(s->ctrl);
	printf("# %d cycles in %" PRIu64 " ms\n", ok, peer_now_ms() - t0);
	peer_check(ok == cycles, "client: %d of %d connect / transfer / shutdown cycles", ok,
		   cycles);
	return 0;
}

/* Server of -m kill: takes what comes until killed. */
static int
kill_server(struct side *s)
{
	struct fi_context ctx[32];
	struct fi_cq_entry e;
	int i;

	if (!server_accept(s, NULL, NULL))
		return 1;
	for (i = 0; i < 32; i++)
		fi_recv(s->ep, s->rx + (i % 4) * 1024, 1024, NULL, 0, &ctx[i]);
	printf("serving\n");
	fflush(stdout);
	for (;;) {
		if (fi_cq_read(s->cq, &e, 1) == 1)
			fi_recv(s->ep, s->rx, 1024, NULL, 0, e.op_context);
	}
	return 0;
}

/* Client of -m kill (a stream) and -m idle (nothing sent): its peer's death
 * must end the connection. */
static int
kill_client(struct side *s, const char *name, bool idle)
{
	struct fi_eq_err_entry err = { 0 };
	struct fi_cq_err_entry cerr = { 0 };
	struct fi_cq_entry e;
	struct cm_event ev;
	uint64_t sent = 0, t0 = 0;
	uint32_t event;
	ssize_t ret;
	bool shutdown = false, failed = false;

	if (!peer_check(client_connect(s, name, NULL) == 0 && connected(s, NULL),
			"client: connected"))
		return 1;
	printf("%s\n", idle ? "idling" : "streaming");
	fflush(stdout);
	if (idle)
		t0 = peer_now_ms();
	for (;;) {
		ret = idle ? -FI_EAGAIN : fi_send(s->ep, s->tx, 1024, NULL, 0, NULL);
		if (ret == 0)
			sent++;
		if (ret != 0 && ret != -FI_EAGAIN && t0 == 0)
			t0 = peer_now_ms();	/* refused: the connection is over */
		ret = fi_cq_read(s->cq, &e, 1);
		if (ret == -FI_EAVAIL) {
			fi_cq_readerr(s->cq, &cerr, 0);
			failed = true;
		}
		ret = fi_eq_read(s->eq, &event, &ev, sizeof(ev), 0);
		if (ret > 0 && event == FI_SHUTDOWN && ev.entry.fid == &s->ep->fid)
			shutdown = true;
		else if (ret == -FI_EAVAIL)
			fi_eq_readerr(s->eq, &err, 0);
		if (shutdown)
			break;
		if (t0 != 0 && peer_now_ms() - t0 > WAIT_MS * 3)
			break;
	}
	printf("dead: %" PRIu64 " messages sent\n", sent);
	peer_check(shutdown, "client: FI_SHUTDOWN after the server's death");
	peer_check(failed || shutdown, "client: what was under way failed, or nothing was");
	fflush(stdout);
	ep_close(s);
	return 0;
}

int
main(int argc, char **argv)
{
	static struct side s;
	const char *mode = "exchange", *host = NULL;
	char name[NAME_MAX_LEN];
	size_t len = sizeof(name);
	uint16_t port = 0;
	int opt, cycles = 1000;

	if (argc < 2)
		return 2;
	s.server = strcmp(argv[1], "server") == 0;
	if (!s.server && argc > 2)
		host = argv[2];
	optind = s.server ? 2 : 3;
	while ((opt = getopt(argc, argv, "P:m:n:")) != -1) {
		switch (opt) {
		case 'P':
			port = (uint16_t)atoi(optarg);
			break;
		case 'm':
			mode = optarg;
			break;
		case 'n':
			cycles = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (port == 0 || (!s.server && host == NULL))
		return 2;
	if (!peer_check(open_common(&s) == 0, "%s: fabric, domain and EQ",
			s.server ? "server" : "client"))
		return 1;
	if (s.server) {
		if (!peer_check(fi_passive_ep(s.fabric, s.info, &s.pep, NULL) == 0 &&
				fi_pep_bind(s.pep, &s.eq->fid, 0) == 0 && fi_listen(s.pep) == 0 &&
				fi_getname(&s.pep->fid, name, &len) == 0, "server: listening"))
			return 1;
		s.ctrl = pp_ctrl_accept(port, 30);
		if (s.ctrl < 0 || pp_ctrl_send(s.ctrl, name, (uint32_t)len) != 0)
			return 1;
		if (strcmp(mode, "kill") == 0 || strcmp(mode, "idle") == 0)
			return kill_server(&s);
		exchange_server(&s, cycles);
		fi_close(&s.pep->fid);
	} else {
		s.ctrl = pp_ctrl_connect(host, port, 30);
		if (s.ctrl < 0 || pp_ctrl_recv(s.ctrl, name, sizeof(name)) <= 0)
			return 1;
		if (strcmp(mode, "kill") == 0 || strcmp(mode, "idle") == 0)
			kill_client(&s, name, strcmp(mode, "idle") == 0);
		else
			exchange_client(&s, name, cycles);
	}
	fi_close(&s.eq->fid);
	fi_close(&s.domain->fid);
	/* every endpoint closed: every mbuf back in its pool */
	peer_check(mbufs_in_use() == 0, "%s: no mbuf in use at the end",
		   s.server ? "server" : "client");
	fi_close(&s.fabric->fid);
	fi_freeinfo(s.info);
	printf("# %d failures\n", peer_failures());
	return peer_failures() == 0 ? 0 : 1;
}
