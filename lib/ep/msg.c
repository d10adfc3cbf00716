/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * FI_EP_MSG: a reliable-protocol endpoint (rdm.c, rdm_conn.c) with exactly
 * one peer, fixed by fi_connect() or fi_accept(), and the connection
 * calls of fi_cm(3) on the endpoint's EQ. The data path is RDM's: posts go
 * to the connected peer, packets from any other address are refused, and a
 * peer the protocol gives up (deadline, restart, close) ends the
 * connection with FI_SHUTDOWN. doc/rdm-protocol.md has the state machine.
 */

#include <stdlib.h>
#include <string.h>

#include <rdma/fi_cm.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "dfi.h"
#include "cm.h"
#include "domain.h"
#include "ep.h"
#include "ep_stubs.h"
#include "eq.h"
#include "pep.h"
#include "rdm.h"
#include "rdm_atomic.h"

enum msg_state {
	MSG_IDLE,		/* neither connect nor accept yet */
	MSG_CONNECTING,		/* REQ sent, no answer */
	MSG_ACCEPTING,		/* ACCEPT sent, waiting for the RTU */
	MSG_CONNECTED,
	MSG_DISCONNECTING,	/* fi_shutdown(): DISC sent, waiting for its answer */
	MSG_DOWN,		/* shut down, refused, timed out or lost */
};

/* An endpoint's connection. */
struct dfi_msg_cm {
	struct dfi_ep *ep;
	struct dfi_eq_prog prog;	/* EQ reads progress us from connect/accept on */
	bool prog_on;
	uint8_t state;			/* enum msg_state */
	/* opened on a request: kept until we close, so that its listener
	 * knows a late resend of it for what it is */
	struct dfi_connreq *req;
	struct dfi_addr dst;		/* where our CM packets go */
	uint32_t peer_inc;		/* the other side's incarnation, 0 while unknown */
	uint32_t conn_id;		/* the attempt, drawn by the connecting side */
	uint64_t next_tx;		/* the next resend of what is unanswered */
	uint64_t retry;
	uint64_t deadline;
	uint16_t len;			/* the REQ's or ACCEPT's CM data, for resends */
	uint8_t data[DFI_CM_DATA_MAX];
};

static struct dfi_ep *
msg_ep_of(struct fid_ep *ep_fid)
{
	return container_of(ep_fid, struct dfi_ep, ep_fid);
}

/* -- events -- */

static void
msg_event(struct dfi_msg_cm *cm, uint32_t event, const void *data, size_t len)
{
	struct {
		struct fi_eq_cm_entry entry;
		uint8_t data[DFI_CM_DATA_MAX];
	} ev;

	memset(&ev.entry, 0, sizeof(ev.entry));
	ev.entry.fid = &cm->ep->ep_fid.fid;
	if (len != 0)
		memcpy(ev.data, data, len);
	dfi_eq_post(cm->ep->eq, event, &ev, sizeof(ev.entry) + len, NULL);
}

/*
 * The connection's peer takes posts (on) or no longer does; while it does,
 * the reliable protocol watches it even when idle, so that its death ends
 * the connection (FI_SHUTDOWN) within FI_DPDK_RDM_TIMEOUT_MS.
 */
static void
msg_peer_use(struct dfi_msg_cm *cm, bool on)
{
	struct dfi_rdm *r = rdm_of(cm->ep);

	r->peer = on ? r->bound : NULL;
	if (r->bound != NULL)
		rdm_peer_watch(r, r->bound, on);
}

/* The connection failed or ended abnormally: an error entry, err positive. */
static void
msg_error(struct dfi_msg_cm *cm, int err, const void *data, size_t len)
{
	struct fi_eq_err_entry e;

	memset(&e, 0, sizeof(e));
	e.fid = &cm->ep->ep_fid.fid;
	e.context = cm->ep->ep_fid.fid.context;
	e.err = err;
	e.prov_errno = -err;
	e.err_data = (void *)(uintptr_t)data;
	e.err_data_size = len;
	dfi_eq_post(cm->ep->eq, 0, NULL, 0, &e);
	cm->state = MSG_DOWN;
	msg_peer_use(cm, false);
}

/* -- packets -- */

static void
msg_send(struct dfi_msg_cm *cm, uint8_t type, const struct dfi_addr *dst, uint32_t dst_inc,
	 uint32_t conn_id, uint64_t err, const void *data, uint32_t len)
{
	struct dfi_ep *ep = cm->ep;
	struct dfi_cm_pkt c = {
		.type = type,
		.src_inc = rdm_of(ep)->inc,
		.dst_inc = dst_inc,
		.conn_id = conn_id,
		.err = err,
		.data = data,
		.len = len,
	};

	dfi_ep_self(ep, &c.src);
	dfi_cm_send(&ep->sink, ep->encap, dst, &c);
}

/* What the state waits an answer to, sent (again). */
static void
msg_send_pending(struct dfi_msg_cm *cm)
{
	static const uint8_t type_of[] = {
		[MSG_CONNECTING] = DFI_PKT_CM_REQ,
		[MSG_ACCEPTING] = DFI_PKT_CM_ACCEPT,
		[MSG_DISCONNECTING] = DFI_PKT_CM_DISC,
	};
	bool data = cm->state != MSG_DISCONNECTING;

	msg_send(cm, type_of[cm->state], &cm->dst, cm->peer_inc, cm->conn_id, 0,
		 data ? cm->data : NULL, data ? cm->len : 0);
}

/* Starts waiting for an answer: the first send, then resends until the deadline. */
static void
msg_start(struct dfi_msg_cm *cm, uint8_t state)
{
	uint64_t now = rte_rdtsc();

	cm->state = state;
	cm->retry = dfi_cm_backoff(0);
	cm->next_tx = now + cm->retry;
	cm->deadline = now + dfi_cm_timeout();
	msg_send_pending(cm);
}

static void
msg_connected(struct dfi_msg_cm *cm, const void *data, size_t len)
{
	cm->state = MSG_CONNECTED;
	msg_peer_use(cm, true);
	msg_event(cm, FI_CONNECTED, data, len);
}

/* The peer of the connection, in the reliable protocol's table. */
static int
msg_bind_peer(struct dfi_msg_cm *cm, const struct dfi_addr *a)
{
	struct dfi_rdm *r = rdm_of(cm->ep);

	r->bound = rdm_peer_get(r, a, true);
	return r->bound != NULL ? 0 : -FI_ENOMEM;
}

static void
msg_rx_cm(struct dfi_msg_cm *cm, struct rte_mbuf *m)
{
	struct dfi_rdm *r = rdm_of(cm->ep);
	struct dfi_cm_pkt c;
	struct dfi_addr src;
	bool ours;

	dfi_ep_rx_addr(cm->ep, m, &src);
	if (dfi_cm_parse(m, &src, &c) != 0)
		return;
	ours = c.dst_inc == r->inc && c.conn_id == cm->conn_id && cm->conn_id != 0;
	if (!ours) {
		/*
		 * For an earlier process at our address, or an attempt we
		 * gave up: refused, so its sender stops at once (never
		 * answering a refusal, lest two endpoints bounce them).
		 */
		if (c.type != DFI_PKT_CM_REJECT && c.type != DFI_PKT_CM_DISC_ACK)
			msg_send(cm, DFI_PKT_CM_REJECT, &src, c.src_inc, c.conn_id,
				 FI_ECONNRESET, NULL, 0);
		return;
	}
	switch (c.type) {
	case DFI_PKT_CM_ACCEPT:
		if (cm->state == MSG_CONNECTING) {
			/* the accepting endpoint's own address from now on */
			cm->dst = src;
			cm->peer_inc = c.src_inc;
			if (msg_bind_peer(cm, &src) != 0) {
				msg_error(cm, FI_ENOMEM, NULL, 0);
				return;
			}
			msg_send(cm, DFI_PKT_CM_RTU, &src, c.src_inc, cm->conn_id, 0, NULL, 0);
			msg_connected(cm, c.data, c.len);
		} else if (c.src_inc == cm->peer_inc) {
			/* our RTU was lost */
			msg_send(cm, DFI_PKT_CM_RTU, &src, c.src_inc, cm->conn_id, 0, NULL, 0);
		}
		break;
	case DFI_PKT_CM_REJECT:
		/* from our request's listener, or from the address we accepted,
		 * whose endpoint may be a later incarnation than the requester */
		if (cm->state == MSG_CONNECTING || (cm->state == MSG_ACCEPTING &&
						    dfi_addr_equal(&src, &cm->dst))) {
			DFI_INFO(FI_LOG_EP_CTRL, "connection %u refused (%s)", cm->conn_id,
				 fi_strerror((int)c.err));
			msg_error(cm, cm->state == MSG_CONNECTING ? FI_ECONNREFUSED :
				  FI_ECONNABORTED, c.data, c.len);
		}
		break;
	case DFI_PKT_CM_RTU:
		if (cm->state == MSG_ACCEPTING && c.src_inc == cm->peer_inc)
			msg_connected(cm, NULL, 0);
		break;
	case DFI_PKT_CM_DISC:
		if (c.src_inc != cm->peer_inc)
			break;
		msg_send(cm, DFI_PKT_CM_DISC_ACK, &src, c.src_inc, cm->conn_id, 0, NULL, 0);
		if (cm->state == MSG_CONNECTED || cm->state == MSG_ACCEPTING) {
			cm->state = MSG_DOWN;
			msg_peer_use(cm, false);
			msg_event(cm, FI_SHUTDOWN, NULL, 0);
		}
		break;
	case DFI_PKT_CM_DISC_ACK:
		if (cm->state == MSG_DISCONNECTING && c.src_inc == cm->peer_inc)
			cm->state = MSG_DOWN;
		break;
	default:
		break;
	}
}

/* Resends and deadlines of what waits for an answer. */
static void
msg_timers(struct dfi_msg_cm *cm)
{
	uint64_t now;

	if (cm->state != MSG_CONNECTING && cm->state != MSG_ACCEPTING &&
	    cm->state != MSG_DISCONNECTING)
		return;
	now = rte_rdtsc();
	if (now >= cm->deadline) {
		if (cm->state == MSG_DISCONNECTING) {
			cm->state = MSG_DOWN;	/* the peer is gone: nobody to tell */
			return;
		}
		DFI_INFO(FI_LOG_EP_CTRL, "connection %u: no answer, timed out", cm->conn_id);
		msg_error(cm, FI_ETIMEDOUT, NULL, 0);
		return;
	}
	if (now >= cm->next_tx) {
		cm->retry = dfi_cm_backoff(cm->retry);
		cm->next_tx = now + cm->retry;
		msg_send_pending(cm);
	}
}

/* -- the endpoint type -- */

/* The CM packets to us are ours, the rest the reliable protocol's. */
static void
msg_progress(struct dfi_ep *ep)
{
	struct dfi_rdm *r = rdm_of(ep);
	struct rte_mbuf *pkts[DFI_RX_BURST];
	uint16_t i, n, k = 0;

	n = rdm_conn_recv(ep, r, pkts);
	for (i = 0; i < n; i++) {
		if (unlikely(dfi_cm_is_cm(pkts[i]))) {
			msg_rx_cm(ep->cm, pkts[i]);
			rte_pktmbuf_free(pkts[i]);
		} else {
			pkts[k++] = pkts[i];
		}
	}
	if (k > 0)
		rdm_conn_rx(ep, r, pkts, k);
	rdm_conn_progress(ep, r);
	msg_timers(ep->cm);
}

/* An EQ read: the connection's progress, under its guard. */
static void
msg_eq_progress(void *arg)
{
	struct dfi_guard *held;
	struct dfi_msg_cm *cm = arg;
	struct dfi_ep *ep = cm->ep;

	held = dfi_guard_lock(ep->guard);
	if (ep->enabled)
		msg_progress(ep);
	dfi_guard_unlock(held);
}

/* The reliable protocol gave the peer up: the connection is over. */
static void
msg_peer_lost(struct dfi_ep *ep, struct rdm_peer *peer, int err)
{
	struct dfi_msg_cm *cm = ep->cm;
	struct dfi_rdm *r = rdm_of(ep);

	if (peer != r->bound || (cm->state != MSG_CONNECTED && cm->state != MSG_ACCEPTING))
		return;
	DFI_INFO(FI_LOG_EP_CTRL, "connection %u lost: %s", cm->conn_id, fi_strerror(err));
	cm->state = MSG_DOWN;
	msg_peer_use(cm, false);
	msg_event(cm, FI_SHUTDOWN, NULL, 0);
}

static void msg_fini(struct dfi_ep *ep);

static int
msg_init(struct dfi_ep *ep, const struct fi_info *info)
{
	struct dfi_msg_cm *cm;
	struct dfi_rdm *r;
	int ret;

	cm = calloc(1, sizeof(*cm));
	if (cm == NULL)
		return -FI_ENOMEM;
	cm->ep = ep;
	cm->prog.fn = msg_eq_progress;
	cm->prog.arg = cm;
	ep->cm = cm;
	ret = dfi_rdm_ops.init(ep, info);
	if (ret != 0) {
		/* what RDM set up is left as an RDM endpoint's would be */
		free(cm);
		ep->cm = NULL;
		return ret;
	}
	r = rdm_of(ep);
	r->connected_only = true;
	r->peer_lost = msg_peer_lost;
	if (info->handle != NULL) {
		cm->req = dfi_connreq_take(info->handle);
		if (cm->req == NULL) {
			ret = -FI_EINVAL;
			goto err_fini;
		}
		cm->dst = cm->req->src;
		cm->peer_inc = cm->req->src_inc;
		cm->conn_id = cm->req->conn_id;
	}
	return 0;

err_fini:
	msg_fini(ep);
	return ret;
}

static void
msg_shutdown(struct dfi_ep *ep)
{
	struct dfi_msg_cm *cm = ep->cm;

	/* a peer that never saw our data still hears that we go */
	if (cm != NULL && (cm->state == MSG_CONNECTED || cm->state == MSG_ACCEPTING))
		msg_send(cm, DFI_PKT_CM_DISC, &cm->dst, cm->peer_inc, cm->conn_id, 0, NULL, 0);
	dfi_rdm_ops.shutdown(ep);
}

static void
msg_fini(struct dfi_ep *ep)
{
	struct dfi_msg_cm *cm = ep->cm;

	if (cm != NULL) {
		if (cm->prog_on)
			dfi_eq_prog_del(ep->eq, &cm->prog);
		if (ep->eq != NULL)
			dfi_eq_purge(ep->eq, &ep->ep_fid.fid);
		if (cm->req != NULL)
			dfi_connreq_release(cm->req);
		free(cm);
		ep->cm = NULL;
	}
	dfi_rdm_ops.fini(ep);
}

static int
msg_enable(struct dfi_ep *ep)
{
	return dfi_rdm_ops.enable(ep);
}

static ssize_t
msg_cancel(struct dfi_ep *ep, void *context)
{
	return dfi_rdm_ops.cancel(ep, context);
}

static bool
msg_rescue(struct dfi_ep *ep)
{
	return dfi_rdm_ops.rescue(ep);
}

static void
msg_stats(struct dfi_ep *ep, struct fi_dpdk_ep_stats *stats)
{
	dfi_rdm_ops.stats(ep, stats);
}

/* -- fi_cm(3) -- */

/* What connect and accept check first; the endpoint is enabled on return. */
static int
msg_cm_ready(struct dfi_ep *ep, size_t paramlen, const void *param)
{
	int ret;

	if (paramlen > DFI_CM_DATA_MAX || (paramlen != 0 && param == NULL)) {
		DFI_WARN(FI_LOG_EP_CTRL, "CM data of %zu bytes: %u at most", paramlen,
			 DFI_CM_DATA_MAX);
		return -FI_EINVAL;
	}
	if (ep->eq == NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "a connection needs an EQ bound to the endpoint");
		return -FI_ENOEQ;
	}
	if (ep->cm->state != MSG_IDLE || ep->cm->prog_on)
		return -FI_EOPBADSTATE;
	ret = fi_enable(&ep->ep_fid);
	if (ret != 0)
		return ret;
	dfi_eq_prog_add(ep->eq, &ep->cm->prog);
	ep->cm->prog_on = true;
	return 0;
}

static int
msg_connect(struct fid_ep *ep_fid, const void *addr, const void *param, size_t paramlen)
{
	struct dfi_guard *held;
	struct dfi_ep *ep = msg_ep_of(ep_fid);
	struct dfi_msg_cm *cm = ep->cm;
	struct dfi_addr a;
	int ret;

	if (addr == NULL || dfi_addr_decode(ep->addr_format, addr, SIZE_MAX, &a) != 0 ||
	    a.port == 0) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_connect: no address of this provider");
		return -FI_EINVAL;
	}
	if (cm->req != NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_connect on an endpoint opened to accept");
		return -FI_EOPBADSTATE;
	}
	ret = msg_cm_ready(ep, paramlen, param);
	if (ret != 0)
		return ret;
	held = dfi_guard_lock(ep->guard);
	cm->dst = a;
	cm->conn_id = rdm_random32();
	cm->len = (uint16_t)paramlen;
	if (paramlen != 0)
		memcpy(cm->data, param, paramlen);
	msg_start(cm, MSG_CONNECTING);
	dfi_guard_unlock(held);
	return 0;
}

static int
msg_accept(struct fid_ep *ep_fid, const void *param, size_t paramlen)
{
	struct dfi_guard *held;
	struct dfi_ep *ep = msg_ep_of(ep_fid);
	struct dfi_msg_cm *cm = ep->cm;
	int ret;

	if (cm->req == NULL) {
		DFI_WARN(FI_LOG_EP_CTRL, "fi_accept: the endpoint was not opened on a request");
		return -FI_EOPBADSTATE;
	}
	ret = msg_cm_ready(ep, paramlen, param);
	if (ret != 0)
		return ret;
	held = dfi_guard_lock(ep->guard);
	ret = msg_bind_peer(cm, &cm->dst);
	if (ret == 0) {
		/* data may come before the RTU: the peer is ours from now on */
		cm->len = (uint16_t)paramlen;
		if (paramlen != 0)
			memcpy(cm->data, param, paramlen);
		msg_start(cm, MSG_ACCEPTING);
	}
	dfi_guard_unlock(held);
	return ret;
}

static int
msg_shutdown_cm(struct fid_ep *ep_fid, uint64_t flags)
{
	struct dfi_guard *held;
	struct dfi_ep *ep = msg_ep_of(ep_fid);
	struct dfi_msg_cm *cm = ep->cm;
	int ret = 0;

	if (flags != 0)
		return -FI_EBADFLAGS;
	held = dfi_guard_lock(ep->guard);
	switch (cm->state) {
	case MSG_CONNECTED:
	case MSG_ACCEPTING:
		/* nothing more may be posted; what is under way goes on */
		msg_peer_use(cm, false);
		msg_start(cm, MSG_DISCONNECTING);
		break;
	case MSG_CONNECTING:
		cm->state = MSG_DOWN;
		break;
	case MSG_IDLE:
		ret = -FI_EOPBADSTATE;
		break;
	default:
		break;	/* down already */
	}
	dfi_guard_unlock(held);
	return ret;
}

static int
msg_getpeer(struct fid_ep *ep_fid, void *addr, size_t *addrlen)
{
	struct dfi_guard *held;
	struct dfi_ep *ep = msg_ep_of(ep_fid);
	struct dfi_addr a;
	int ret = 0;

	if (addrlen == NULL || (addr == NULL && *addrlen != 0))
		return -FI_EINVAL;
	held = dfi_guard_lock(ep->guard);
	if (rdm_of(ep)->bound == NULL || ep->cm->state == MSG_ACCEPTING)
		ret = -FI_EOPBADSTATE;	/* fi_cm(3): valid from FI_CONNECTED on */
	else
		a = ep->cm->dst;
	dfi_guard_unlock(held);
	if (ret != 0)
		return ret;
	return dfi_addr_name(ep->addr_format, &a, addr, addrlen);
}

static struct fi_ops_cm msg_cm_ops = {
	.size = sizeof(struct fi_ops_cm),
	.setname = dfi_ep_setname,
	.getname = dfi_ep_getname,
	.getpeer = msg_getpeer,
	.connect = msg_connect,
	.listen = dfi_no_listen,
	.accept = msg_accept,
	.reject = dfi_no_reject,
	.shutdown = msg_shutdown_cm,
	.join = dfi_no_join,
};

const struct dfi_ep_type_ops dfi_msg_ops = {
	.init = msg_init,
	.enable = msg_enable,
	.progress = msg_progress,
	.cancel = msg_cancel,
	.shutdown = msg_shutdown,
	.fini = msg_fini,
	.rescue = msg_rescue,
	.stats = msg_stats,
	.cntr_flags = FI_SEND | FI_RECV | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE,
	.msg = &rdm_msg_ops,
	.tagged = &rdm_tagged_ops,
	.rma = &rdm_rma_ops,
	.atomic = &rdm_atomic_ops,
	.cm = &msg_cm_ops,
};
