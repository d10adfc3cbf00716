/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The provider's side of the pingpong: one endpoint per process, a CQ polled
 * with fi_cq_read (manual progress), fi_inject below the inject size, and
 * FI_THREAD_DOMAIN so that the provider takes no lock. Sends complete
 * selectively (FI_COMPLETION in the endpoint's default flags), so that a
 * stream's batches below the inject size go as injects do, with FI_MORE and
 * no completion. Two receives are posted at all times, so that the next
 * message always finds one while the last is handled. The server echoes
 * what it receives, at the size it received.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include <rte_cycles.h>

#include "ctrl.h"
#include "fi_ext_dpdk.h"
#include "pingpong.h"

#define FAB_NAME_MAX	64
/* A datagram may be lost: the client sends again after this. */
#define DGRAM_RETRY_MS	200
#define NB_RX		2
/* Polls between looks at the clock. */
#define CLOCK_POLLS	256

struct fab {
	struct fi_info *info;
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fid_av *av;		/* FI_EP_DGRAM, FI_EP_RDM */
	struct fid_eq *eq;		/* FI_EP_MSG: the connection's events */
	struct fid_pep *pep;		/* FI_EP_MSG server: until the client connects */
	struct fid_cq *cq;
	struct fid_ep *ep;
	const char *mode;		/* the results' name of it */
	fi_addr_t peer;
	bool exchanged;			/* peer known (connected), both sides */
	uint8_t *tx_buf;
	uint8_t *rx_buf[NB_RX];
	size_t buf_size;
	uint64_t tx_pending;		/* sends whose completion is not read yet */
	uint64_t retries;		/* datagrams sent again */
	struct fi_context rx_ctx[NB_RX];
	struct fi_context tx_ctx;
	bool reliable;
	struct fid_mr *mr;		/* the server's region for -o */
	struct fi_dpdk_ep_ops *ext;	/* the provider's counters (rdm, msg), or NULL */
};

/* The server's region, under a key both sides know (offset addressing). */
#define FAB_RMA_KEY	0x7070

static struct fab fab;

#define FAB_CHECK(call) do { \
	int _ret = (int)(call); \
	if (_ret < 0) { \
		fprintf(stderr, "fi_dpdk_pingpong: %s: %s\n", #call, fi_strerror(-_ret)); \
		return -1; \
	} \
} while (0)

/* The endpoint of info, bound to the AV or (connected) the EQ, and the CQ; enabled. */
static int
fab_ep_open(struct fi_info *info)
{
	/* sends, writes and reads complete as without FI_SELECTIVE_COMPLETION,
	 * unless posted with flags that leave FI_COMPLETION out */
	info->tx_attr->op_flags |= FI_COMPLETION;
	FAB_CHECK(fi_endpoint(fab.domain, info, &fab.ep, NULL));
	if (fab.av != NULL)
		FAB_CHECK(fi_ep_bind(fab.ep, &fab.av->fid, 0));
	else
		FAB_CHECK(fi_ep_bind(fab.ep, &fab.eq->fid, 0));
	FAB_CHECK(fi_ep_bind(fab.ep, &fab.cq->fid, FI_TRANSMIT | FI_SELECTIVE_COMPLETION));
	FAB_CHECK(fi_ep_bind(fab.ep, &fab.cq->fid, FI_RECV));
	FAB_CHECK(fi_enable(fab.ep));
	/* the reliable protocol's counters, which a stream reports */
	if (fab.reliable && fi_open_ops(&fab.ep->fid, FI_DPDK_EP_OPS_1, 0, (void **)&fab.ext,
					NULL) != 0)
		fab.ext = NULL;
	return 0;
}

/*
 * Connected endpoints: the server listens (its endpoint comes with the
 * client's request), the client's endpoint waits to connect.
 */
static int
fab_msg_setup(const struct pp_opts *o)
{
	struct fi_eq_attr eq_attr = { .wait_obj = FI_WAIT_UNSPEC };

	FAB_CHECK(fi_eq_open(fab.fabric, &eq_attr, &fab.eq, NULL));
	if (!o->server)
		return fab_ep_open(fab.info);
	FAB_CHECK(fi_passive_ep(fab.fabric, fab.info, &fab.pep, NULL));
	FAB_CHECK(fi_pep_bind(fab.pep, &fab.eq->fid, 0));
	FAB_CHECK(fi_listen(fab.pep));
	return 0;
}

static int
fab_setup(const struct pp_opts *o, enum fi_ep_type type)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_MSG, .wait_obj = FI_WAIT_NONE };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE, .count = 4 };
	struct fi_info *hints = fi_allocinfo();
	size_t max = 0;
	unsigned int s;

	if (hints == NULL)
		return -1;
	hints->ep_attr->type = type;
	hints->caps = FI_MSG | (o->rma != PP_RMA_NONE ? FI_RMA : 0);
	hints->mode = FI_CONTEXT;
	hints->domain_attr->threading = FI_THREAD_DOMAIN;
	hints->tx_attr->tclass = o->tclass;
	hints->fabric_attr->prov_name = strdup("dpdk");
	if (o->domain != NULL)
		hints->domain_attr->name = strdup(o->domain);
	FAB_CHECK(fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &fab.info));
	fi_freeinfo(hints);
	fab.reliable = type != FI_EP_DGRAM;
	fab.mode = type == FI_EP_MSG ? "msg" : fab.reliable ? "rdm" : "dgram";
	for (s = 0; s < o->nb_sizes; s++)
		max = RTE_MAX(max, o->sizes[s]);
	fab.buf_size = RTE_MIN(max, fab.info->ep_attr->max_msg_size);
	fab.tx_buf = calloc(1, fab.buf_size + 1);
	fab.rx_buf[0] = calloc(1, fab.buf_size + 1);
	fab.rx_buf[1] = calloc(1, fab.buf_size + 1);
	if (fab.tx_buf == NULL || fab.rx_buf[0] == NULL || fab.rx_buf[1] == NULL)
		return -1;
	cq_attr.size = 1024;
	FAB_CHECK(fi_fabric(fab.info->fabric_attr, &fab.fabric, NULL));
	FAB_CHECK(fi_domain(fab.fabric, fab.info, &fab.domain, NULL));
	FAB_CHECK(fi_cq_open(fab.domain, &cq_attr, &fab.cq, NULL));
	if (type == FI_EP_MSG) {
		if (fab_msg_setup(o) != 0)
			return -1;
	} else {
		FAB_CHECK(fi_av_open(fab.domain, &av_attr, &fab.av, NULL));
		if (fab_ep_open(fab.info) != 0)
			return -1;
	}
	if (o->rma != PP_RMA_NONE && o->server)
		FAB_CHECK(fi_mr_reg(fab.domain, fab.rx_buf[0], fab.buf_size,
				    FI_REMOTE_READ | FI_REMOTE_WRITE, 0, FAB_RMA_KEY, 0, &fab.mr, NULL));
	return 0;
}

static int
fab_dgram_setup(const struct pp_opts *o)
{
	return fab_setup(o, FI_EP_DGRAM);
}

static int
fab_rdm_setup(const struct pp_opts *o)
{
	return fab_setup(o, FI_EP_RDM);
}

static int
fab_msg_setup_ep(const struct pp_opts *o)
{
	return fab_setup(o, FI_EP_MSG);
}

static int
fab_post_rx(int slot)
{
	ssize_t ret;

	do {
		ret = fi_recv(fab.ep, fab.rx_buf[slot], fab.buf_size, NULL, FI_ADDR_UNSPEC,
			      &fab.rx_ctx[slot]);
		if (ret == -FI_EAGAIN)
			fi_cq_read(fab.cq, NULL, 0);
	} while (ret == -FI_EAGAIN);
	return ret == 0 ? 0 : -1;
}

/* Sends size bytes of buf: any buffer below the inject size, else tx_buf. */
static int
fab_send(const uint8_t *buf, size_t size)
{
	ssize_t ret;

	do {
		if (size <= fab.info->tx_attr->inject_size) {
			ret = fi_inject(fab.ep, buf, size, fab.peer);
		} else {
			ret = fi_send(fab.ep, fab.tx_buf, size, NULL, fab.peer, &fab.tx_ctx);
			fab.tx_pending += ret == 0;
		}
		if (ret == -FI_EAGAIN)
			fi_cq_read(fab.cq, NULL, 0);
	} while (ret == -FI_EAGAIN);
	if (ret != 0)
		fprintf(stderr, "fi_dpdk_pingpong: send: %s\n", fi_strerror((int)-ret));
	return ret == 0 ? 0 : -1;
}

/* Reads the error a completion queue holds and says it. @return -its code. */
static int
fab_report_error(const char *what)
{
	struct fi_cq_err_entry err = { 0 };

	memset(&err, 0, sizeof(err));
	fi_cq_readerr(fab.cq, &err, 0);
	fprintf(stderr, "fi_dpdk_pingpong: %s: %s\n", what, fi_strerror(err.err));
	return -err.err;
}

/*
 * Waits for the next receive completion (send completions are counted on
 * the way). @return the received length with its receive's slot, -FI_EAGAIN
 * after timeout cycles (0: none), or another negative error.
 */
static ssize_t
fab_wait_rx(uint64_t timeout, int *slot)
{
	struct fi_cq_msg_entry e[8];
	uint64_t t0 = timeout != 0 ? rte_rdtsc() : 0;
	ssize_t n, i, len = -FI_EAGAIN;
	uint32_t polls = 0;

	for (;;) {
		n = fi_cq_read(fab.cq, e, 8);
		if (n == -FI_EAVAIL)
			return fab_report_error("completion error");
		for (i = 0; i < n; i++) {
			if (e[i].flags & FI_RECV) {
				len = (ssize_t)e[i].len;
				*slot = e[i].op_context == &fab.rx_ctx[1];
			} else {
				fab.tx_pending--;
			}
		}
		if (len >= 0)
			return len;
		if (timeout != 0 && ++polls % CLOCK_POLLS == 0 && rte_rdtsc() - t0 > timeout)
			return -FI_EAGAIN;
	}
}

/* The next EQ event, which must be want. */
static int
fab_cm_wait(uint32_t want, struct fi_eq_cm_entry *entry, int timeout_s)
{
	struct fi_eq_err_entry err = { 0 };
	uint32_t event = 0;
	ssize_t ret;

	ret = fi_eq_sread(fab.eq, &event, entry, sizeof(*entry), timeout_s * 1000, 0);
	if (ret == -FI_EAVAIL) {
		memset(&err, 0, sizeof(err));
		fi_eq_readerr(fab.eq, &err, 0);
		fprintf(stderr, "fi_dpdk_pingpong: connection: %s\n", fi_strerror(err.err));
		return -1;
	}
	if (ret != (ssize_t)sizeof(*entry) || event != want) {
		fprintf(stderr, "fi_dpdk_pingpong: connection: event %u (%zd), not %u\n", event,
			ret, want);
		return -1;
	}
	return 0;
}

/* Connected endpoints: the server's name over the control connection, then
 * connect and accept (once the link is up: nothing is lost meanwhile). */
static int
fab_connect(const struct pp_opts *o, int ctrl)
{
	struct fi_eq_cm_entry entry;
	char name[FAB_NAME_MAX];
	size_t len = sizeof(name);
	int ret;

	if (pp_wait_link(fab.info->domain_attr->name, o->timeout_s) != 0)
		return -1;
	if (!o->server) {
		if (pp_ctrl_recv(ctrl, name, sizeof(name)) <= 0)
			return -1;
		FAB_CHECK(fi_connect(fab.ep, name, NULL, 0));
		return fab_cm_wait(FI_CONNECTED, &entry, o->timeout_s);
	}
	FAB_CHECK(fi_getname(&fab.pep->fid, name, &len));
	if (pp_ctrl_send(ctrl, name, (uint32_t)len) != 0 ||
	    fab_cm_wait(FI_CONNREQ, &entry, o->timeout_s) != 0)
		return -1;
	ret = fab_ep_open(entry.info);
	fi_freeinfo(entry.info);
	if (ret != 0)
		return -1;
	FAB_CHECK(fi_accept(fab.ep, NULL, 0));
	return fab_cm_wait(FI_CONNECTED, &entry, o->timeout_s);
}

/* The two sides learn each other's address (connect, for connected endpoints). */
static int
fab_exchange(const struct pp_opts *o, int ctrl)
{
	char name[FAB_NAME_MAX], peer[FAB_NAME_MAX];
	size_t len = sizeof(name);
	int n;

	/* streams in turns with the floor's come back here: both sides know */
	if (fab.exchanged)
		return 0;
	if (fab.eq != NULL) {
		n = fab_connect(o, ctrl);
		fab.exchanged = n == 0;
		return n;
	}
	FAB_CHECK(fi_getname(&fab.ep->fid, name, &len));
	if (pp_ctrl_send(ctrl, name, (uint32_t)len) != 0)
		return -1;
	n = pp_ctrl_recv(ctrl, peer, sizeof(peer));
	if (n <= 0 || fi_av_insert(fab.av, peer, 1, &fab.peer, 0, NULL) != 1)
		return -1;
	fab.exchanged = true;
	return 0;
}

/* Echoes what comes, at its size; the control connection is looked at
 * after each millisecond without a message. */
static int
fab_echo(int ctrl)
{
	uint64_t poll_ctrl = rte_get_tsc_hz() / 1000;
	ssize_t len;
	int slot = 0;

	for (;;) {
		len = fab_wait_rx(poll_ctrl, &slot);
		if (len == -FI_EAGAIN) {
			if (pp_ctrl_pending(ctrl))
				return 0;	/* the client is done, or takes a turn */
			continue;
		}
		if (len < 0)
			return -1;
		if ((size_t)len > fab.info->tx_attr->inject_size)
			memcpy(fab.tx_buf, fab.rx_buf[slot], (size_t)len);
		if (fab_send(fab.rx_buf[slot], (size_t)len) != 0 || fab_post_rx(slot) != 0)
			return -1;
	}
}

/*
 * One round trip; returns its cycles, or 0 on error. The payload is filled
 * with seq and the reply checked against it when verify is set.
 */
static uint64_t
fab_rtt(size_t size, bool verify, uint32_t seq)
{
	uint64_t retry = rte_get_tsc_hz() * DGRAM_RETRY_MS / 1000, t0, t1;
	ssize_t len;
	int slot = 0;

	if (verify)
		pp_fill(fab.tx_buf, size, seq);
	t0 = pp_stamp();
	if (fab_send(fab.tx_buf, size) != 0)
		return 0;
	for (;;) {
		len = fab_wait_rx(fab.reliable ? 0 : retry, &slot);
		if (len >= 0)
			break;
		if (len != -FI_EAGAIN)
			return 0;
		/* a lost datagram: send it again */
		fab.retries++;
		if (fab_send(fab.tx_buf, size) != 0)
			return 0;
	}
	t1 = pp_stamp();
	if ((size_t)len != size || (verify && !pp_check(fab.rx_buf[slot], size, seq)) ||
	    fab_post_rx(slot) != 0)
		return 0;
	return t1 - t0;
}

/* Both ports started: the link comes up (a memif client connects). */
static int
fab_rtt_prepare(const struct pp_opts *o, int ctrl)
{
	if (fab_exchange(o, ctrl) != 0 || fab_post_rx(0) != 0 || fab_post_rx(1) != 0 ||
	    pp_wait_link(fab.info->domain_attr->name, o->timeout_s) != 0)
		return -1;
	return 0;
}

static size_t
fab_rtt_max(void)
{
	return fab.info->ep_attr->max_msg_size;
}

/* -- streams -- */

#define STREAM_RX	256	/* receives posted */
#define STREAM_RX_BYTES	((size_t)8 << 20)
#define STREAM_TX	64	/* sends in flight, when not injected */
#define STREAM_BATCH	64

static uint8_t **stream_bufs;
static struct fi_context stream_ctx[STREAM_RX];

static uint64_t
fab_count(void *arg, uint64_t *bytes)
{
	size_t size = *(const size_t *)arg;
	struct fi_cq_msg_entry e[STREAM_BATCH];
	uint64_t got = 0;
	ssize_t n, i;
	int k;

	n = fi_cq_read(fab.cq, e, STREAM_BATCH);
	for (i = 0; i < n; i++) {
		if (!(e[i].flags & FI_RECV))
			continue;
		got++;
		*bytes += e[i].len;
		k = (int)((struct fi_context *)e[i].op_context - stream_ctx);
		fi_recv(fab.ep, stream_bufs[k], size, NULL, FI_ADDR_UNSPEC, &stream_ctx[k]);
	}
	return got;
}

/*
 * Message sent-th of a stream: an inject (no completion) where it fits, a
 * send otherwise; with --batch posted with FI_MORE on all but every
 * batch-th, an inject then as FI_INJECT without FI_COMPLETION, so that the
 * batched stream differs from the other by FI_MORE alone.
 * @return as fi_send(); *comp: a completion will come.
 */
static ssize_t
fab_post(size_t size, uint64_t sent, uint32_t batch, bool inject, bool *comp)
{
	struct iovec iov = { .iov_base = fab.tx_buf, .iov_len = size };
	struct fi_msg msg = {
		.msg_iov = &iov, .iov_count = 1, .addr = fab.peer, .context = &fab.tx_ctx,
	};
	uint64_t flags = (inject ? FI_INJECT : FI_COMPLETION) |
			 (sent % batch != batch - 1 ? FI_MORE : 0);

	*comp = !inject;
	if (batch > 1)
		return fi_sendmsg(fab.ep, &msg, flags);
	return inject ? fi_inject(fab.ep, fab.tx_buf, size, fab.peer) :
			fi_send(fab.ep, fab.tx_buf, size, NULL, fab.peer, &fab.tx_ctx);
}

/* Sends iters messages of size, keeping many in flight. @return those sent. */
static uint64_t
fab_blast(size_t size, uint64_t iters, uint32_t batch)
{
	struct fi_cq_msg_entry e[STREAM_BATCH];
	bool inject = size <= fab.info->tx_attr->inject_size, comp;
	/* injects are posted until the endpoint refuses one; batched sends
	 * complete by the packet: as many in flight as the endpoint takes */
	uint64_t sent = 0, in_flight = 0, max = batch > 1 ? fab.info->tx_attr->size : STREAM_TX;
	ssize_t ret, n, i;

	while (sent < iters || in_flight > 0) {
		ret = -FI_EAGAIN;
		if (sent < iters && (inject || in_flight < max)) {
			ret = fab_post(size, sent, batch, inject, &comp);
			if (ret == 0) {
				sent++;
				in_flight += comp;
				continue;
			}
			if (ret != -FI_EAGAIN)
				break;
		}
		n = fi_cq_read(fab.cq, e, STREAM_BATCH);
		for (i = 0; i < n; i++)
			in_flight -= (e[i].flags & FI_SEND) != 0;
		if (n == -FI_EAVAIL) {
			fab_report_error("stream send");
			return 0;	/* fewer than asked for: the stream failed */
		}
	}
	return sent;
}

/* Reads what the CQ holds, errors (cancelled receives) included. */
static void
fab_drain(void)
{
	struct fi_cq_msg_entry e[8];
	struct fi_cq_err_entry err = { 0 };
	ssize_t n;

	do {
		n = fi_cq_read(fab.cq, e, 8);
		if (n == -FI_EAVAIL)
			fi_cq_readerr(fab.cq, &err, 0);
	} while (n != -FI_EAGAIN);
}

/* RMA one way: the client writes or reads iters times, many in flight, and
 * measures; the target only progresses. */
static int
fab_rma_stream(const struct pp_opts *o, int ctrl, size_t size, struct pp_result *res)
{
	bool read = o->rma == PP_RMA_READ;
	struct fi_cq_msg_entry e[STREAM_BATCH];
	uint64_t iters = pp_iters(o, size), sent = 0, in_flight = 0, t0, t1;
	uint32_t polls = 0;
	ssize_t ret, n, i;

	if (pp_ctrl_sync(ctrl) != 0)
		return -1;
	if (o->server) {
		while (++polls % 1024 != 0 || !pp_ctrl_pending(ctrl))
			fi_cq_read(fab.cq, e, STREAM_BATCH);
		return pp_ctrl_recv(ctrl, &sent, sizeof(sent)) == sizeof(sent) ? 0 : -1;
	}
	t0 = rte_rdtsc();
	while (sent < iters || in_flight > 0) {
		if (sent < iters && in_flight < STREAM_TX) {
			ret = read ? fi_read(fab.ep, fab.tx_buf, size, NULL, fab.peer, 0,
					     FAB_RMA_KEY, &fab.tx_ctx) :
				     fi_write(fab.ep, fab.tx_buf, size, NULL, fab.peer, 0,
					      FAB_RMA_KEY, &fab.tx_ctx);
			if (ret == 0) {
				sent++;
				in_flight++;
				continue;
			}
			if (ret != -FI_EAGAIN)
				break;
		}
		n = fi_cq_read(fab.cq, e, STREAM_BATCH);
		for (i = 0; i < n; i++)
			in_flight--;
		if (n == -FI_EAVAIL) {
			fab_report_error(read ? "RMA read" : "RMA write");
			break;
		}
	}
	t1 = rte_rdtsc();
	if (pp_ctrl_send(ctrl, &sent, sizeof(sent)) != 0 || in_flight > 0 || sent < iters)
		return -1;
	memset(res, 0, sizeof(*res));
	res->mode = read ? "read" : "write";
	res->stream = true;
	res->size = size;
	res->iters = (uint32_t)sent;
	res->mmsg_s = (double)sent * (double)rte_get_tsc_hz() / (double)(t1 - t0) / 1e6;
	res->mbyte_s = res->mmsg_s * (double)size;
	return 0;
}

/* One way: the client sends, the server counts. */
static int
fab_stream(const struct pp_opts *o, int ctrl, struct pp_result *res)
{
	const char *mode = fab.mode;
	struct fi_dpdk_ep_stats before, after;
	unsigned int s, n = 0;
	uint64_t sent;
	size_t size;
	int k, nb_rx = 0;
	bool counted;

	if (fab_exchange(o, ctrl) != 0 ||
	    pp_wait_link(fab.info->domain_attr->name, o->timeout_s) != 0)
		return -1;
	/* a stream process runs no round trip: the server posts the stream's
	 * own receives below, and none of the latency loop's */
	for (s = 0; s < o->nb_sizes; s++) {
		size = RTE_MIN(o->sizes[s], fab.buf_size);
		if (o->server) {
			/*
			 * Receives for the stream: enough to cover what is in
			 * flight, in at most STREAM_RX_BYTES, reused as osu_bw
			 * and fi_bw reuse theirs (the raw floor's mbufs stay in
			 * cache too).
			 */
			nb_rx = (int)RTE_MIN((size_t)STREAM_RX, STREAM_RX_BYTES /
					     RTE_MAX(size, (size_t)1));
			nb_rx = RTE_MAX(nb_rx, 2);
			stream_bufs = calloc((size_t)nb_rx, sizeof(*stream_bufs));
			for (k = 0; stream_bufs != NULL && k < nb_rx; k++) {
				stream_bufs[k] = malloc(RTE_MAX(size, (size_t)1));
				if (stream_bufs[k] == NULL ||
				    fi_recv(fab.ep, stream_bufs[k], size, NULL, FI_ADDR_UNSPEC,
					    &stream_ctx[k]) != 0)
					return -1;
			}
		}
		if (pp_ctrl_sync(ctrl) != 0)
			return -1;
		if (o->server) {
			if (pp_stream_serve(ctrl, pp_iters(o, size), fab_count, &size) != 0)
				return -1;
			for (k = 0; k < nb_rx; k++) {
				fi_cancel(&fab.ep->fid, &stream_ctx[k]);
				free(stream_bufs[k]);
			}
			fab_drain();
			free(stream_bufs);
			stream_bufs = NULL;
			continue;
		}
		counted = fab.ext != NULL && fi_dpdk_ep_stats(fab.ext, fab.ep, &before) == 0;
		sent = fab_blast(size, pp_iters(o, size), RTE_MAX(o->batch, 1u));
		if (pp_stream_result(ctrl, sent, fab_drain, mode, size, &res[n]) != 0 ||
		    sent < pp_iters(o, size))
			return -1;
		/* after the report: the stream's last acknowledgements came in */
		if (counted && fi_dpdk_ep_stats(fab.ext, fab.ep, &after) == 0) {
			res[n].counted = true;
			res[n].pkts_per_msg = (double)(after.tx_pkts - before.tx_pkts) /
					      (double)sent;
			res[n].resent = after.tx_retransmits - before.tx_retransmits;
			res[n].refused = after.rnr_received - before.rnr_received;
		}
		n++;
	}
	/* then the same sizes as RMA, in the same run */
	for (s = 0; o->rma != PP_RMA_NONE && s < o->nb_sizes && n < PP_MAX_SIZES; s++) {
		if (fab_rma_stream(o, ctrl, RTE_MIN(o->sizes[s], fab.buf_size), &res[n]) != 0)
			return -1;
		n += !o->server;
	}
	return (int)n;
}

/* The endpoint goes, and its CLOSE with it; the port stays until teardown. */
static void
fab_leave(void)
{
	if (fab.ep != NULL)
		fi_close(&fab.ep->fid);
	fab.ep = NULL;
}

static void
fab_teardown(void)
{
	if (fab.retries != 0)
		fprintf(stderr, "fi_dpdk_pingpong: %" PRIu64 " datagrams sent again\n",
			fab.retries);
	fab_leave();
	/* after the endpoint: it gives up the answers to reads in flight */
	if (fab.mr != NULL)
		fi_close(&fab.mr->fid);
	if (fab.cq != NULL)
		fi_close(&fab.cq->fid);
	if (fab.av != NULL)
		fi_close(&fab.av->fid);
	if (fab.pep != NULL)
		fi_close(&fab.pep->fid);
	if (fab.eq != NULL)
		fi_close(&fab.eq->fid);
	if (fab.domain != NULL)
		fi_close(&fab.domain->fid);
	if (fab.fabric != NULL)
		fi_close(&fab.fabric->fid);
	fi_freeinfo(fab.info);
	free(fab.tx_buf);
	free(fab.rx_buf[0]);
	free(fab.rx_buf[1]);
	memset(&fab, 0, sizeof(fab));
}

const struct pp_mode_ops pp_fab_dgram_ops = {
	.name = "dgram",
	.setup = fab_dgram_setup,
	.rtt_prepare = fab_rtt_prepare,
	.rtt_max = fab_rtt_max,
	.rtt = fab_rtt,
	.echo = fab_echo,
	.stream = fab_stream,
	.leave = fab_leave,
	.teardown = fab_teardown,
};

const struct pp_mode_ops pp_fab_rdm_ops = {
	.name = "rdm",
	.setup = fab_rdm_setup,
	.rtt_prepare = fab_rtt_prepare,
	.rtt_max = fab_rtt_max,
	.rtt = fab_rtt,
	.echo = fab_echo,
	.stream = fab_stream,
	.leave = fab_leave,
	.teardown = fab_teardown,
};

const struct pp_mode_ops pp_fab_msg_ops = {
	.name = "msg",
	.setup = fab_msg_setup_ep,
	.rtt_prepare = fab_rtt_prepare,
	.rtt_max = fab_rtt_max,
	.rtt = fab_rtt,
	.echo = fab_echo,
	.stream = fab_stream,
	.leave = fab_leave,
	.teardown = fab_teardown,
};
