/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * What the provider costs per message, on one core: two memif ports of one
 * process are joined to each other, and a frame goes round trip between them
 * as a bare Ethernet frame (the floor: allocate, copy in, transmit, receive,
 * copy out, free), as an FI_EP_DGRAM message and as an FI_EP_RDM message
 * between two domains (fi_inject, fi_cq_read). Each has a memif pair of its
 * own, with the same rings, and the three take turns (TURNS of them, a
 * fraction of a second each), so that all three see the same regime of this
 * VM's vCPUs, which changes from one second to the next: each turn gives
 * the ratio of RDM's work to DGRAM's, both against the floor of the same
 * turn. One thread does both sides, so what the run shows is CPU work, not
 * the wait for another core; the difference is the provider's own work,
 * twice per round trip (two sends, two receives).
 *
 * Then one-way streams, the same thread driving both ends: bare MTU frames
 * (allocate, copy in, transmit, receive, copy out, free) against FI_EP_RDM
 * messages of 64 B (one per post, then posted with FI_MORE), 64 KiB and
 * 1 MiB: bytes per second of CPU, the provider's whole cost per byte without
 * the wait for another core, which on this VM changes speed from minute to
 * minute. Completions are read up to STREAM_SLOTS at a time, as a streaming
 * application reads them. The large ones go over three memif pairs whose ring buffers take
 * 9000-, 2034- (memif's default bsize) and 1500-byte packets, in the same
 * run, so that the packet size's share is seen apart. The 9000-byte pair's
 * rings have 128 slots (rsize=7): memif copies every frame through its ring
 * slot, and 1024 slots of 9 KiB (the default rsize) walk 9 MiB per ring,
 * out of the cache; that pair's streams ran 1.5-1.7 times slower so.
 *
 * Atomics on the RDM endpoints of the same run: a fetch-and-add's round trip
 * (request, execution, answer) next to an 8-byte message's (a send and its
 * echo, two packets too), then the rate of non-fetching atomics
 * (fi_atomic FI_SUM on one 64-bit counter, STREAM_SLOTS in flight) next to
 * that of 8-byte messages streamed the same way.
 *
 * Figures are printed, never asserted; what is asserted is that every
 * payload arrives intact, and every atomic lands (the counter's final value,
 * every value fetched).
 *
 * usage: bench_ep [iterations [size...]]
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "bench.h"
#include "intr_park.h"
#include "test_util.h"

#define RAW_ETHER_TYPE	0x88b6
#define BURST		32
#define LINK_WAIT_S	10
#define MAX_SIZES	8
#define MAX_HDRS	64	/* what a datagram's headers may take of the MTU */
#define HOP_TIMEOUT_S	2	/* the first one waits for ARP, retried every 100 ms */
#define STREAM_BYTES	(512u << 20)	/* moved by each stream */
#define STREAM_SLOTS	64		/* messages in flight */
#define STREAM_BATCH	16		/* FI_MORE on all but every 16th */
#define PAIRS		3	/* the streams' */
/* after the streams' pairs, with the rings of pair 0, where RDM runs: */
#define FLOOR_PAIR	PAIRS		/* the bare frames' */
#define DGRAM_PAIR	(PAIRS + 1)	/* DGRAM's (a port takes one domain at a time) */
#define ALL_PAIRS	(PAIRS + 2)
#define CQ_SIZE		256
#define STREAM_MAX	(1u << 20)
#define TURNS		15	/* raw, DGRAM and RDM round trips take turns */

static size_t sizes[MAX_SIZES] = { 64, 256, 1024 };
static int nb_sizes = 3;
static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of n round trips, in ns. */
static double
median_ns(uint64_t *cycles, uint32_t n)
{
	qsort(cycles, n, sizeof(*cycles), cmp_u64);
	return (double)cycles[n / 2] * 1e9 / (double)rte_get_tsc_hz();
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the turns' figures; *lo and *hi their range. */
static double
turns_median(const double *v, double *lo, double *hi)
{
	double s[TURNS];

	memcpy(s, v, sizeof(s));
	qsort(s, TURNS, sizeof(s[0]), cmp_double);
	*lo = s[0];
	*hi = s[TURNS - 1];
	return s[TURNS / 2];
}

static void
fill(uint8_t *p, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 13);
}

static bool
links_up(const uint16_t *ports)
{
	struct rte_eth_link l0, l1;
	int i;

	for (i = 0; i < LINK_WAIT_S * 100; i++) {
		if (rte_eth_link_get_nowait(ports[0], &l0) == 0 &&
		    rte_eth_link_get_nowait(ports[1], &l1) == 0 &&
		    l0.link_status == RTE_ETH_LINK_UP && l1.link_status == RTE_ETH_LINK_UP)
			return true;
		usleep(10000);
	}
	return false;
}

/* -- the floor -- */

static struct rte_mempool *raw_pool;

static int
raw_start(uint16_t port)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	ret = ret ? ret : rte_eth_rx_queue_setup(port, 0, 1024, SOCKET_ID_ANY, NULL, raw_pool);
	ret = ret ? ret : rte_eth_tx_queue_setup(port, 0, 1024, SOCKET_ID_ANY, NULL);
	return ret ? ret : rte_eth_dev_start(port);
}

/* A memif receiver hands its ring's buffers to the sender when it polls. */
static void
raw_prime(const uint16_t *ports)
{
	struct rte_mbuf *in[BURST];
	uint16_t n;
	int i;

	for (i = 0; i < 2; i++) {
		n = rte_eth_rx_burst(ports[i], 0, in, BURST);
		rte_pktmbuf_free_bulk(in, n);
	}
}

/* Sends one frame of len bytes from port a to port b; returns it received. */
static struct rte_mbuf *
raw_hop(uint16_t a, uint16_t b, const struct rte_ether_addr *dst, const uint8_t *data,
	size_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(raw_pool), *in[BURST];
	struct rte_ether_hdr *eth;
	uint16_t n = 0;
	uint32_t spins;

	if (m == NULL)
		return NULL;
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, (uint16_t)(sizeof(*eth) + len));
	rte_eth_macaddr_get(a, &eth->src_addr);
	rte_ether_addr_copy(dst, &eth->dst_addr);
	eth->ether_type = rte_cpu_to_be_16(RAW_ETHER_TYPE);
	memcpy(eth + 1, data, len);
	if (rte_eth_tx_burst(a, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	for (spins = 0; n == 0 && spins < 1000000; spins++)
		n = rte_eth_rx_burst(b, 0, in, 1);
	return n == 1 ? in[0] : NULL;
}

static double
raw_run(const uint16_t *ports, size_t len, uint32_t iters, uint64_t *rtt)
{
	struct rte_ether_addr mac[2];
	uint8_t out[RTE_ETHER_MTU], back[RTE_ETHER_MTU];
	struct rte_mbuf *m;
	uint64_t t0;
	uint32_t i;

	rte_eth_macaddr_get(ports[0], &mac[0]);
	rte_eth_macaddr_get(ports[1], &mac[1]);
	for (i = 0; i < iters; i++) {
		fill(out, len, i);
		t0 = rte_rdtsc();
		/* there, and back through the other port as an echo would */
		m = raw_hop(ports[0], ports[1], &mac[1], out, len);
		if (m != NULL) {
			memcpy(back, rte_pktmbuf_mtod_offset(m, uint8_t *,
							     sizeof(struct rte_ether_hdr)), len);
			rte_pktmbuf_free(m);
			m = raw_hop(ports[1], ports[0], &mac[0], back, len);
		}
		if (m != NULL) {
			memcpy(back, rte_pktmbuf_mtod_offset(m, uint8_t *,
							     sizeof(struct rte_ether_hdr)), len);
			rte_pktmbuf_free(m);
		}
		rtt[i] = rte_rdtsc() - t0;
		if (m == NULL || memcmp(out, back, len) != 0) {
			CHECK(false, "raw frame of %zu bytes lost or damaged", len);
			return 0;
		}
	}
	return median_ns(rtt, iters);
}

/* Bare MTU frames from port a to port b, bursts of BURST: bytes per second. */
static double
raw_stream(const uint16_t *ports, uint64_t bytes)
{
	struct rte_mbuf *out[BURST], *in[BURST];
	struct rte_ether_addr dst;
	struct rte_ether_hdr *eth;
	static uint8_t data[RTE_ETHER_MTU], sink[RTE_ETHER_MTU];
	uint64_t moved = 0, t0, spins = 0;
	uint16_t n, i, sent;

	rte_eth_macaddr_get(ports[1], &dst);
	fill(data, sizeof(data), 7);
	t0 = rte_rdtsc();
	while (moved < bytes && spins++ < 100000000) {
		n = 0;
		while (n < BURST && (out[n] = rte_pktmbuf_alloc(raw_pool)) != NULL) {
			eth = (struct rte_ether_hdr *)rte_pktmbuf_append(out[n],
				(uint16_t)(sizeof(*eth) + sizeof(data)));
			rte_ether_addr_copy(&dst, &eth->dst_addr);
			eth->ether_type = rte_cpu_to_be_16(RAW_ETHER_TYPE);
			memcpy(eth + 1, data, sizeof(data));
			n++;
		}
		sent = rte_eth_tx_burst(ports[0], 0, out, n);
		if (sent < n)
			rte_pktmbuf_free_bulk(out + sent, n - sent);
		n = rte_eth_rx_burst(ports[1], 0, in, BURST);
		for (i = 0; i < n; i++) {
			memcpy(sink, rte_pktmbuf_mtod_offset(in[i], uint8_t *, sizeof(*eth)),
			       rte_pktmbuf_data_len(in[i]) - sizeof(*eth));
			moved += rte_pktmbuf_data_len(in[i]) - sizeof(*eth);
		}
		rte_pktmbuf_free_bulk(in, n);
	}
	return (double)moved * (double)rte_get_tsc_hz() / (double)(rte_rdtsc() - t0);
}

/* -- the provider -- */

struct side {
	struct test_domain td;
	struct fid_av *av;
	struct fid_cq *cq;
	struct fid_ep *ep;
	fi_addr_t peer;
	size_t inject_size;
	uint32_t tx_pending;		/* sends not completed yet */
	uint8_t buf[RTE_ETHER_MTU];	/* the posted receive */
	uint8_t tx[RTE_ETHER_MTU];	/* what a send beyond inject_size sends */
	struct fi_context ctx;
	struct fi_context tx_ctx;
};

static int
side_open(struct side *s, const char *port, enum fi_ep_type type)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_MSG, .size = CQ_SIZE };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct fi_info *hints = fi_allocinfo();
	int ret;

	if (hints == NULL)
		return -FI_ENOMEM;
	hints->ep_attr->type = type;
	hints->caps = FI_MSG | (type == FI_EP_RDM ? FI_ATOMIC : 0);
	hints->mode = FI_CONTEXT;
	hints->domain_attr->threading = FI_THREAD_DOMAIN;
	hints->domain_attr->name = strdup(port);
	memset(s, 0, sizeof(*s));
	ret = test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &s->td.info);
	fi_freeinfo(hints);
	s->inject_size = ret ? 0 : s->td.info->tx_attr->inject_size;
	ret = ret ? ret : fi_fabric(s->td.info->fabric_attr, &s->td.fabric, NULL);
	ret = ret ? ret : fi_domain(s->td.fabric, s->td.info, &s->td.domain, NULL);
	ret = ret ? ret : fi_av_open(s->td.domain, &av_attr, &s->av, NULL);
	ret = ret ? ret : fi_cq_open(s->td.domain, &cq_attr, &s->cq, NULL);
	ret = ret ? ret : fi_endpoint(s->td.domain, s->td.info, &s->ep, NULL);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->av->fid, 0);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->cq->fid, FI_TRANSMIT | FI_RECV);
	ret = ret ? ret : fi_enable(s->ep);
	ret = ret ? ret : (int)fi_recv(s->ep, s->buf, sizeof(s->buf), NULL, FI_ADDR_UNSPEC,
				       &s->ctx);
	return ret;
}

static int
side_meet(struct side *a, struct side *b)
{
	char name[64];
	size_t len = sizeof(name);
	int ret;

	ret = fi_getname(&b->ep->fid, name, &len);
	return ret ? ret : fi_av_insert(a->av, name, 1, &a->peer, 0, NULL) == 1 ? 0 : -FI_EINVAL;
}

static void
side_close(struct side *s)
{
	if (s->ep != NULL)
		fi_close(&s->ep->fid);
	if (s->cq != NULL)
		fi_close(&s->cq->fid);
	if (s->av != NULL)
		fi_close(&s->av->fid);
	test_domain_close(&s->td);
}

/* Cancels s's posted receive: 0 once its completion is read. */
static int
side_cancel(struct side *s)
{
	struct fi_cq_err_entry err = { 0 };
	struct fi_cq_msg_entry e;
	int i, ret = fi_cancel(&s->ep->fid, &s->ctx);

	for (i = 0; ret == 0 && i < 1000000 && fi_cq_read(s->cq, &e, 1) == -FI_EAGAIN; i++)
		;
	return ret ? ret : fi_cq_readerr(s->cq, &err, 0) == 1 && err.err == FI_ECANCELED ?
			   0 : -FI_EOTHER;
}

/* Reads one completion of s: true for a receive, send completions counted. */
static bool
side_poll(struct side *s)
{
	struct fi_cq_msg_entry e;

	if (fi_cq_read(s->cq, &e, 1) != 1)
		return false;
	if (e.flags & FI_SEND)
		s->tx_pending--;
	return (e.flags & FI_RECV) != 0;
}

/*
 * Sends len bytes of data from a to b; true once b has them in its buffer.
 * Until both know each other's MAC (ARP), a is progressed too, and so it is
 * while it waits for a send's completion (beyond inject_size: the receiver
 * acknowledges such a message at once on a reliable endpoint).
 */
static bool
fab_hop(struct side *a, struct side *b, const uint8_t *data, size_t len, bool warm)
{
	uint64_t deadline = 0, now;
	uint32_t spins;
	bool got = false;
	ssize_t ret;

	if (len <= a->inject_size) {
		ret = fi_inject(a->ep, data, len, a->peer);
	} else {
		memcpy(a->tx, data, len);
		ret = fi_send(a->ep, a->tx, len, NULL, a->peer, &a->tx_ctx);
		a->tx_pending += ret == 0;
	}
	if (ret != 0)
		return false;
	for (spins = 1; !got; spins++) {
		/* a frame the port could not take at once (a full ring, or memif's
		 * control running: intr_gate.h) goes at a's next progress */
		if (!warm || a->tx_pending > 0 || spins % 64 == 0)
			side_poll(a);
		got = side_poll(b);
		/* the clock only for a hop that takes long: read at every hop, it
		 * was a cost of DGRAM's and RDM's round trips the raw floor's had not */
		if (spins % 1024 == 0) {
			now = rte_rdtsc();
			if (deadline == 0)
				deadline = now + rte_get_tsc_hz() * HOP_TIMEOUT_S;
			else if (now > deadline)
				break;
		}
	}
	return got && fi_recv(b->ep, b->buf, sizeof(b->buf), NULL, FI_ADDR_UNSPEC,
			      &b->ctx) == 0;
}

static double
fab_run(struct side *s, size_t len, uint32_t iters, uint64_t *rtt)
{
	uint8_t out[RTE_ETHER_MTU];
	uint64_t t0;
	uint32_t i;
	bool ok;

	for (i = 0; i < iters; i++) {
		fill(out, len, i);
		t0 = rte_rdtsc();
		ok = fab_hop(&s[0], &s[1], out, len, i > 0) &&
		     fab_hop(&s[1], &s[0], s[1].buf, len, i > 0);
		rtt[i] = rte_rdtsc() - t0;
		if (!ok || memcmp(out, s[0].buf, len) != 0) {
			CHECK(false, "datagram of %zu bytes lost or damaged", len);
			return 0;
		}
	}
	return median_ns(rtt, iters);
}

/* Waits for one completion of a, progressing b: true when it is a success. */
static bool
atomic_wait(struct side *a, struct side *b)
{
	uint64_t deadline = rte_rdtsc() + rte_get_tsc_hz() * HOP_TIMEOUT_S;
	struct fi_cq_msg_entry e;
	ssize_t ret;

	while ((ret = fi_cq_read(a->cq, &e, 1)) == -FI_EAGAIN && rte_rdtsc() < deadline)
		fi_cq_read(b->cq, NULL, 0);
	return ret == 1;
}

/* Fetch-and-adds from s[0] on s[1]'s counter, one at a time: the median round trip. */
static double
atomic_faa_run(struct side *s, struct fid_mr *mr, volatile uint64_t *counter, uint32_t iters,
	       uint64_t *rtt)
{
	uint64_t one = 1, found, t0, base = *counter;
	uint32_t i;

	for (i = 0; i < iters; i++) {
		t0 = rte_rdtsc();
		if (fi_fetch_atomic(s[0].ep, &one, 1, NULL, &found, NULL, s[0].peer, 0,
				    fi_mr_key(mr), FI_UINT64, FI_SUM, &s[0].tx_ctx) != 0 ||
		    !atomic_wait(&s[0], &s[1]) || found != base + i) {
			CHECK(false, "fetch-and-add %u: failed or found %" PRIu64, i, found);
			return 0;
		}
		rtt[i] = rte_rdtsc() - t0;
	}
	CHECK(*counter == base + iters, "counter %" PRIu64 " after %u fetch-and-adds",
	      *counter, iters);
	return median_ns(rtt, iters);
}

/* Non-fetching atomics from s[0] on s[1]'s counter, STREAM_SLOTS in flight: per second. */
static double
atomic_rate(struct side *s, struct fid_mr *mr, volatile uint64_t *counter, uint64_t n)
{
	struct fi_cq_msg_entry e[STREAM_SLOTS];
	uint64_t one = 1, posted = 0, done = 0, base = *counter;
	uint64_t t0 = rte_rdtsc(), deadline = t0 + rte_get_tsc_hz() * 60;
	ssize_t ret;
	double rate;

	while (done < n && rte_rdtsc() < deadline) {
		while (posted < n && posted - done < STREAM_SLOTS &&
		       (ret = fi_atomic(s[0].ep, &one, 1, NULL, s[0].peer, 0, fi_mr_key(mr),
					FI_UINT64, FI_SUM, &s[0].tx_ctx)) == 0)
			posted++;
		while ((ret = fi_cq_read(s[0].cq, e, STREAM_SLOTS)) > 0)
			done += (uint64_t)ret;
		fi_cq_read(s[1].cq, NULL, 0);
	}
	rate = (double)done * (double)rte_get_tsc_hz() / (double)(rte_rdtsc() - t0);
	CHECK(done == n && *counter == base + n, "%" PRIu64 " of %" PRIu64 " atomics, counter %"
	      PRIu64, done, n, *counter - base);
	return rate;
}

/* Posts message number k of a stream; batched: with FI_MORE but every STREAM_BATCH-th. */
static ssize_t
stream_post(struct side *a, const uint8_t *tx, size_t len, bool batched, uint64_t k,
	    struct fi_context *ctx)
{
	struct iovec iov = { .iov_base = (void *)(uintptr_t)tx, .iov_len = len };
	struct fi_msg m = { .msg_iov = &iov, .iov_count = 1, .addr = a->peer, .context = ctx };

	if (batched)
		return fi_sendmsg(a->ep, &m, FI_INJECT |
				  (k % STREAM_BATCH != STREAM_BATCH - 1 ? FI_MORE : 0));
	return len <= a->inject_size ? fi_inject(a->ep, tx, len, a->peer) :
	       fi_send(a->ep, tx, len, NULL, a->peer, ctx);
}

/*
 * Messages of len bytes from a to b, STREAM_SLOTS in flight, b's receives
 * reposted as they complete: bytes per second; every message checked by its
 * first and last bytes.
 */
static double
fab_stream(struct side *a, struct side *b, size_t len, bool batched, uint64_t bytes,
	   uint8_t *tx, uint8_t *rx)
{
	struct fi_context rx_ctx[STREAM_SLOTS], tx_ctx[STREAM_SLOTS];
	struct fi_cq_err_entry err = { 0 };
	struct fi_cq_msg_entry e[STREAM_SLOTS];
	double bps;
	uint64_t sent = 0, got = 0, want = RTE_MAX(bytes / len, (uint64_t)STREAM_SLOTS);
	uint64_t t0 = rte_rdtsc(), deadline = t0 + rte_get_tsc_hz() * 60;
	uint32_t i, pending = 0;
	uint8_t *buf;
	ssize_t ret, n, k;

	for (i = 0; i < STREAM_SLOTS; i++) {
		if (fi_recv(b->ep, rx + (size_t)i * len, len, NULL, FI_ADDR_UNSPEC,
			    &rx_ctx[i]) != 0)
			return 0;
	}
	fill(tx, len, 3);
	while (got < want && rte_rdtsc() < deadline) {
		while (sent < want && pending < STREAM_SLOTS) {
			ret = stream_post(a, tx, len, batched, sent, &tx_ctx[sent % STREAM_SLOTS]);
			if (ret == -FI_EAGAIN)
				break;
			if (ret != 0)
				return 0;
			sent++;
			pending += batched || len > a->inject_size;
		}
		/* completions in batches, as a streaming application reads them */
		while ((n = fi_cq_read(a->cq, e, STREAM_SLOTS)) > 0)
			pending -= (uint32_t)n;
		while ((n = fi_cq_read(b->cq, e, STREAM_SLOTS)) > 0) {
			for (k = 0; k < n; k++) {
				i = (uint32_t)((struct fi_context *)e[k].op_context - rx_ctx);
				buf = i < STREAM_SLOTS ? rx + (size_t)i * len : NULL;
				CHECK(buf != NULL && e[k].len == len && buf[0] == tx[0] &&
				      buf[len - 1] == tx[len - 1], "stream message %" PRIu64
				      " wrong", got);
				got++;
				if (buf != NULL && fi_recv(b->ep, buf, len, NULL, FI_ADDR_UNSPEC,
							   e[k].op_context) != 0)
					return 0;
			}
		}
	}
	CHECK(got == want, "stream of %zu B: %" PRIu64 " of %" PRIu64 " messages", len, got,
	      want);
	bps = (double)(got * len) * (double)rte_get_tsc_hz() / (double)(rte_rdtsc() - t0);
	/* the sender's last completions may come after the receiver has it all
	 * (the acknowledgement of a batch's last bundle): read here, they would
	 * be counted against the next stream's sends */
	while (pending > 0 && rte_rdtsc() < deadline) {
		while ((n = fi_cq_read(a->cq, e, STREAM_SLOTS)) > 0)
			pending -= (uint32_t)n;
		fi_cq_read(b->cq, NULL, 0);
	}
	CHECK(pending == 0, "stream of %zu B: %" PRIu32 " sends never completed", len, pending);
	/* the receives still posted would take the next stream's messages */
	for (i = 0; i < STREAM_SLOTS; i++)
		fi_cancel(&b->ep->fid, &rx_ctx[i]);
	for (i = 0; i < STREAM_SLOTS; i++) {
		memset(&err, 0, sizeof(err));
		while (fi_cq_read(b->cq, e, 1) == -FI_EAGAIN)
			;
		fi_cq_readerr(b->cq, &err, 0);
	}
	return bps;
}

/* The streams: over which memif pair (of pair_bsize), how large, batched. */
static const char *const pair_bsize[PAIRS] = { ",bsize=9216,rsize=7", "", ",bsize=1514" };
static const char *const pair_packet[PAIRS] = { "9000", "2034", "1500" };
static const struct {
	int pair;
	size_t len;
	bool batched;
} streams[] = {
	{ 0, 64, false }, { 0, 64, true },
	{ 0, 64 * 1024, false }, { 1, 64 * 1024, false }, { 2, 64 * 1024, false },
	{ 0, STREAM_MAX, false }, { 1, STREAM_MAX, false }, { 2, STREAM_MAX, false },
};

/* The EAL's arguments: one process owns both ends of each pair's wire. */
static void
eal_args(char *eal, size_t size)
{
	int n, i;

	n = snprintf(eal, size, "-l 0 --no-huge -m 1024 --no-pci --no-telemetry "
		     "--log-level=warning --no-shconf");
	for (i = 0; i < ALL_PAIRS && n > 0 && (size_t)n < size; i++)
		n += snprintf(eal + n, size - (size_t)n,
			      " --vdev=net_memif%d,role=server,socket=/run/dfi-bench-%d-%d.sock%s"
			      " --vdev=net_memif%d,role=client,socket=/run/dfi-bench-%d-%d.sock%s",
			      2 * i, (int)getpid(), i, pair_bsize[i < PAIRS ? i : 0], 2 * i + 1,
			      (int)getpid(), i, pair_bsize[i < PAIRS ? i : 0]);
}

/* Opens an endpoint of type on each port of a memif pair and makes them known
 * to each other. */
static int
sides_open(struct side *sides, int pair, enum fi_ep_type type)
{
	char names[2][RTE_ETH_NAME_MAX_LEN];
	int i, ret;

	for (i = 0; i < 2; i++)
		snprintf(names[i], sizeof(names[i]), "net_memif%d", 2 * pair + i);
	ret = side_open(&sides[0], names[0], type);
	ret = ret ? ret : side_open(&sides[1], names[1], type);
	ret = ret ? ret : side_meet(&sides[0], &sides[1]);
	return ret ? ret : side_meet(&sides[1], &sides[0]);
}

/* The streams of one pair, on RDM endpoints opened on it. */
static void
pair_streams(int pair, const uint16_t *ports, uint8_t *stx, uint8_t *srx, uint64_t *rtt,
	     double *bps)
{
	struct side *sides = calloc(2, sizeof(*sides));
	size_t i;
	int ret;

	if (sides == NULL)
		return;
	ret = sides_open(sides, pair, FI_EP_RDM);
	CHECK(ret == 0 && links_up(ports), "rdm endpoints on pair %d: %s", pair,
	      fi_strerror(-ret));
	/* the round trip makes both sides know each other (ARP); its receive
	 * would take a stream's first message */
	CHECK(ret == 0 && fab_run(sides, 64, 1000, rtt) > 0, "pair %d: no round trip", pair);
	CHECK(failures > 0 || side_cancel(&sides[1]) == 0, "pair %d: receive not canceled",
	      pair);
	/* unmeasured: the first stream of STREAM_SLOTS whole megabytes in flight
	 * was the first to touch that much of the buffers and of the mbuf pool
	 * (with --no-huge, pages faulted in on first use), and ran at a quarter
	 * of the speed of the same stream after it */
	if (failures == 0)
		fab_stream(&sides[0], &sides[1], STREAM_MAX, false, 0, stx, srx);
	for (i = 0; i < RTE_DIM(streams) && failures == 0; i++) {
		if (streams[i].pair == pair)
			bps[i] = fab_stream(&sides[0], &sides[1], streams[i].len,
					    streams[i].batched, streams[i].len == 64 ?
					    STREAM_BYTES / 64 : STREAM_BYTES, stx, srx);
	}
	side_close(&sides[0]);
	side_close(&sides[1]);
	free(sides);
}

int
main(int argc, char **argv)
{
	uint32_t iters = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 200000;
	/* DGRAM and RDM, each on a pair of its own */
	static const enum fi_ep_type types[2] = { FI_EP_DGRAM, FI_EP_RDM };
	static const int pair_of[2] = { DGRAM_PAIR, 0 };
	static const char *const type_names[2] = { "dgram", "rdm" };
	double raw_r[MAX_SIZES][TURNS], fab_r[2][MAX_SIZES][TURNS], work_r[MAX_SIZES][TURNS];
	double raw_ns[MAX_SIZES], fab_ns[2][MAX_SIZES], work[MAX_SIZES][3], lo, hi;
	double raw_bps = 0, bps[RTE_DIM(streams)] = { 0 };
	uint32_t turn_iters = RTE_MAX(iters / TURNS, 1000u);
	int turn;
	double msg8_ns = 0, faa_ns = 0, atomic_rate_s = 0, msg8_rate_s = 0;
	static volatile uint64_t counter;
	struct fid_mr *mr;
	uint8_t *stx = malloc(STREAM_MAX), *srx = malloc((size_t)STREAM_MAX * STREAM_SLOTS);
	struct side *sides = calloc(4, sizeof(*sides)), *fab[2] = { sides, sides + 2 };
	uint64_t *rtt = malloc(sizeof(*rtt) * RTE_MAX(iters, 1000u));
	uint16_t ports[2 * ALL_PAIRS], *floor = &ports[2 * FLOOR_PAIR];
	char eal[1024], name[RTE_ETH_NAME_MAX_LEN];
	size_t k;
	int i, t, ret;

	if (sides == NULL || rtt == NULL || iters == 0 || stx == NULL || srx == NULL)
		return 1;
	for (i = 2; i < argc && i - 2 < MAX_SIZES; i++) {
		sizes[i - 2] = RTE_MIN(strtoul(argv[i], NULL, 0), (unsigned long)RTE_ETHER_MTU -
				       MAX_HDRS);
		nb_sizes = i - 1;
	}
	eal_args(eal, sizeof(eal));
	test_env_setup(NULL);
	ret = test_eal_init(argv[0], eal) < 0;
	for (i = 0; i < 2 * ALL_PAIRS && ret == 0; i++) {
		snprintf(name, sizeof(name), "net_memif%d", i);
		ret = rte_eth_dev_get_port_by_name(name, &ports[i]);
	}
	if (ret != 0) {
		fprintf(stderr, "bench_ep: no EAL or no memif pairs\n");
		return 1;
	}

	raw_pool = rte_pktmbuf_pool_create("bench_raw", 4095, 256, 0,
					   RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	ret = raw_pool == NULL ? -ENOMEM : raw_start(floor[0]);
	ret = ret ? ret : raw_start(floor[1]);
	CHECK(ret == 0 && links_up(floor), "raw ports: %s", rte_strerror(-ret));
	raw_prime(floor);
	raw_bps = raw_stream(floor, STREAM_BYTES);

	for (t = 0; t < 2 && failures == 0; t++) {
		ret = sides_open(fab[t], pair_of[t], types[t]);
		CHECK(ret == 0 && links_up(&ports[2 * pair_of[t]]), "%s endpoints: %s",
		      type_names[t], fi_strerror(-ret));
	}
	for (i = 0; i < nb_sizes && failures == 0; i++) {
		for (turn = 0; turn < TURNS && failures == 0; turn++) {
			raw_r[i][turn] = raw_run(floor, sizes[i], turn_iters, rtt);
			for (t = 0; t < 2 && failures == 0; t++)
				fab_r[t][i][turn] = fab_run(fab[t], sizes[i], turn_iters, rtt);
			work_r[i][turn] = (fab_r[1][i][turn] - raw_r[i][turn]) /
					  (fab_r[0][i][turn] - raw_r[i][turn]);
		}
		raw_ns[i] = turns_median(raw_r[i], &lo, &hi);
		for (t = 0; t < 2; t++)
			fab_ns[t][i] = turns_median(fab_r[t][i], &lo, &hi);
		work[i][0] = turns_median(work_r[i], &work[i][1], &work[i][2]);
	}
	/* the side that stops first sends its peer a disconnect, which memif
	 * handles in the interrupt thread as the peer stops too (intr_park.h) */
	ret = app_ports_end(floor, 2, false, 1000);
	CHECK(ret == 0, "raw ports not stopped: %s", strerror(-ret));
	if (failures == 0) {
		ret = fi_mr_reg(fab[1][1].td.domain, (void *)(uintptr_t)&counter, sizeof(counter),
				FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 1, 0, &mr, NULL);
		CHECK(ret == 0, "counter's region: %s", fi_strerror(-ret));
		/* interleaved halves: the two figures see the same regimes */
		for (k = 0; k < 2 && ret == 0 && failures == 0; k++) {
			msg8_ns += fab_run(fab[1], 8, iters / 2, rtt) / 2;
			faa_ns += atomic_faa_run(fab[1], mr, &counter, iters / 2, rtt) / 2;
		}
		if (ret == 0 && failures == 0) {
			atomic_rate_s = atomic_rate(fab[1], mr, &counter, 10 * (uint64_t)iters);
			/* the stream posts its own receives */
			CHECK(side_cancel(&fab[1][1]) == 0, "receive not cancelled");
			msg8_rate_s = fab_stream(&fab[1][0], &fab[1][1], 8, false,
						 80 * (uint64_t)iters, stx, srx) / 8;
		}
		if (ret == 0)
			fi_close(&mr->fid);
	}
	for (k = 0; k < 4; k++)
		side_close(&sides[k]);
	for (i = 0; i < PAIRS && failures == 0; i++)
		pair_streams(i, &ports[2 * i], stx, srx, rtt, bps);

	if (failures == 0) {
		printf("one core, memif to memif in one process, %u round trips per size in %d "
		       "turns of raw frames (a memif pair of their own), dgram and rdm;\nthe "
		       "provider's work per message is (rtt - raw rtt) / 2; medians of the turns, "
		       "and the ratio of rdm's work to dgram's in each turn (range)\n",
		       turn_iters * TURNS, TURNS);
		printf("%7s %12s %12s %12s %8s %8s %10s %10s %18s\n", "bytes", "raw rtt ns",
		       "dgram rtt ns", "rdm rtt ns", "dgram", "rdm", "dgram ns", "rdm ns",
		       "rdm/dgram work");
		for (i = 0; i < nb_sizes; i++)
			printf("%7zu %12.0f %12.0f %12.0f %7.2fx %7.2fx %10.0f %10.0f %6.2fx "
			       "(%.2f-%.2f)\n", sizes[i], raw_ns[i], fab_ns[0][i], fab_ns[1][i],
			       fab_ns[0][i] / raw_ns[i], fab_ns[1][i] / raw_ns[i],
			       (fab_ns[0][i] - raw_ns[i]) / 2, (fab_ns[1][i] - raw_ns[i]) / 2,
			       work[i][0], work[i][1], work[i][2]);
		printf("rdm atomics, same endpoints: 8-byte message rtt %.0f ns, fetch-and-add "
		       "rtt %.0f ns (%.2fx the message)\n", msg8_ns, faa_ns, faa_ns / msg8_ns);
		printf("rdm atomics, %d in flight: non-fetching FI_SUM %.3f M/s, 8-byte "
		       "messages %.3f M/s (%.2fx the atomics)\n", STREAM_SLOTS,
		       atomic_rate_s / 1e6, msg8_rate_s / 1e6, msg8_rate_s / atomic_rate_s);
		printf("one-way streams, one thread driving both ends: raw %u-byte frames "
		       "%.0f MB/s\n", RTE_ETHER_MTU, raw_bps / 1e6);
		printf("%9s %8s %8s %10s %10s %8s\n", "rdm bytes", "posts", "packets", "MB/s",
		       "Mmsg/s", "vs raw");
		for (k = 0; k < RTE_DIM(streams); k++)
			printf("%9zu %8s %8s %10.0f %10.3f %7.0f%%\n", streams[k].len,
			       streams[k].batched ? "FI_MORE" : "one",
			       pair_packet[streams[k].pair], bps[k] / 1e6,
			       bps[k] / (double)streams[k].len / 1e6, 100 * bps[k] / raw_bps);
	}
	free(rtt);
	free(sides);
	free(stx);
	free(srx);
	/* the provider leaves the ports of an application's EAL running */
	ret = app_ports_end(ports, 2 * ALL_PAIRS, true, 1000);
	CHECK(ret == 0, "ports not closed: %s", strerror(-ret));
	rte_mempool_free(raw_pool);
	/* no rte_eal_cleanup(): see app/pingpong/main.c (memif close is pending
	 * in the interrupt thread, which cleanup would pull memory from under) */
	printf("%s\n", failures == 0 ? "ok" : "FAILED");
	return failures == 0 ? 0 : 1;
}
