/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * What the provider costs per message, on one core: two memif ports of one
 * process are joined to each other, and a frame goes round trip between them
 * first as a bare Ethernet frame (the floor: allocate, copy in, transmit,
 * receive, copy out, free), then as an FI_EP_DGRAM message and as an
 * FI_EP_RDM message between two domains (fi_inject, fi_cq_read). One thread
 * does both sides, so what the run shows is CPU work, not the wait for
 * another core; the difference is the provider's own work, twice per round
 * trip (two sends, two receives).
 *
 * Figures are printed, never asserted; what is asserted is that every
 * payload arrives intact.
 *
 * usage: bench_ep [iterations [size...]]
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "bench.h"
#include "test_util.h"

#define RAW_ETHER_TYPE	0x88b6
#define BURST		32
#define LINK_WAIT_S	10
#define MAX_SIZES	8
#define MAX_HDRS	64	/* what a datagram's headers may take of the MTU */
#define HOP_TIMEOUT_S	2	/* the first one waits for ARP, retried every 100 ms */

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
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_MSG, .size = 64 };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct fi_info *hints = fi_allocinfo();
	int ret;

	if (hints == NULL)
		return -FI_ENOMEM;
	hints->ep_attr->type = type;
	hints->caps = FI_MSG;
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
	uint64_t deadline = rte_rdtsc() + rte_get_tsc_hz() * HOP_TIMEOUT_S;
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
		if (!warm || a->tx_pending > 0)
			side_poll(a);
		got = side_poll(b);
		if (spins % 1024 == 0 && rte_rdtsc() > deadline)
			break;
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

int
main(int argc, char **argv)
{
	uint32_t iters = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 200000;
	const char *names[2] = { "net_memif0", "net_memif1" };
	static const enum fi_ep_type types[2] = { FI_EP_DGRAM, FI_EP_RDM };
	static const char *const type_names[2] = { "dgram", "rdm" };
	double raw_ns[MAX_SIZES], fab_ns[2][MAX_SIZES];
	struct side *sides = calloc(2, sizeof(*sides));
	uint64_t *rtt = malloc(sizeof(*rtt) * iters);
	uint16_t ports[2];
	char eal[512];
	int i, t, ret;

	if (sides == NULL || rtt == NULL || iters == 0)
		return 1;
	for (i = 2; i < argc && i - 2 < MAX_SIZES; i++) {
		sizes[i - 2] = RTE_MIN(strtoul(argv[i], NULL, 0), (unsigned long)RTE_ETHER_MTU -
				       MAX_HDRS);
		nb_sizes = i - 1;
	}
	/* one process owns both ends of the wire */
	snprintf(eal, sizeof(eal), "-l 0 --no-huge -m 512 --no-pci --no-telemetry "
		 "--log-level=warning --no-shconf --vdev=net_memif0,role=server,socket="
		 "/run/dfi-bench-%d.sock --vdev=net_memif1,role=client,socket="
		 "/run/dfi-bench-%d.sock", (int)getpid(), (int)getpid());
	test_env_setup(NULL);
	if (test_eal_init(argv[0], eal) < 0 ||
	    rte_eth_dev_get_port_by_name(names[0], &ports[0]) != 0 ||
	    rte_eth_dev_get_port_by_name(names[1], &ports[1]) != 0) {
		fprintf(stderr, "bench_ep: no EAL or no memif pair\n");
		return 1;
	}

	raw_pool = rte_pktmbuf_pool_create("bench_raw", 4095, 256, 0,
					   RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	ret = raw_pool == NULL ? -ENOMEM : raw_start(ports[0]);
	ret = ret ? ret : raw_start(ports[1]);
	CHECK(ret == 0 && links_up(ports), "raw ports: %s", rte_strerror(-ret));
	raw_prime(ports);
	for (i = 0; i < nb_sizes && failures == 0; i++)
		raw_ns[i] = raw_run(ports, sizes[i], iters, rtt);
	/* the provider configures the ports afresh */
	rte_eth_dev_stop(ports[0]);
	rte_eth_dev_stop(ports[1]);

	for (t = 0; t < 2; t++) {
		ret = side_open(&sides[0], names[0], types[t]);
		ret = ret ? ret : side_open(&sides[1], names[1], types[t]);
		ret = ret ? ret : side_meet(&sides[0], &sides[1]);
		ret = ret ? ret : side_meet(&sides[1], &sides[0]);
		CHECK(ret == 0 && links_up(ports), "%s endpoints: %s", type_names[t],
		      fi_strerror(-ret));
		for (i = 0; i < nb_sizes && failures == 0; i++)
			fab_ns[t][i] = fab_run(sides, sizes[i], iters, rtt);
		side_close(&sides[0]);
		side_close(&sides[1]);
	}

	if (failures == 0) {
		printf("one core, memif to memif in one process, %u round trips per size;\n"
		       "the provider's work per message is (rtt - raw rtt) / 2\n", iters);
		printf("%7s %12s %12s %12s %8s %8s %10s %10s\n", "bytes", "raw rtt ns",
		       "dgram rtt ns", "rdm rtt ns", "dgram", "rdm", "dgram ns", "rdm ns");
		for (i = 0; i < nb_sizes; i++)
			printf("%7zu %12.0f %12.0f %12.0f %7.2fx %7.2fx %10.0f %10.0f\n",
			       sizes[i], raw_ns[i], fab_ns[0][i], fab_ns[1][i],
			       fab_ns[0][i] / raw_ns[i], fab_ns[1][i] / raw_ns[i],
			       (fab_ns[0][i] - raw_ns[i]) / 2, (fab_ns[1][i] - raw_ns[i]) / 2);
	}
	free(rtt);
	free(sides);
	rte_eth_dev_close(ports[0]);
	rte_eth_dev_close(ports[1]);
	rte_mempool_free(raw_pool);
	/* no rte_eal_cleanup(): see app/pingpong/main.c (memif close is pending
	 * in the interrupt thread, which cleanup would pull memory from under) */
	printf("%s\n", failures == 0 ? "ok" : "FAILED");
	return failures == 0 ? 0 : 1;
}
