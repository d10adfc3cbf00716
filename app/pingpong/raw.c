/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The floor: bare Ethernet frames through the same DPDK port, with no
 * provider. The client copies the payload into a fresh mbuf and sends it;
 * the server swaps the MAC addresses and sends the frame back; the client
 * copies the payload out. What the provider adds to this is its cost.
 * Frames are sent on queue 0 and taken from every receive queue the port
 * came with: af_packet's qpairs=N are N sockets of one fanout group, and
 * the kernel hands a frame to any of them.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "ctrl.h"
#include "intr_park.h"
#include "pingpong.h"

#define RAW_ETHER_TYPE	0x88b6	/* local experimental, not the provider's */
#define RAW_BURST	32
#define RAW_TIMEOUT_MS	1000
#define RAW_JUMBO_ROOM	16384	/* a buffer's data room where the default is too small */

static uint16_t raw_port;
static uint16_t raw_nb_queues;	/* the port's, as probed: af_packet's qpairs */
static struct rte_mempool *raw_pool;
static struct rte_ether_addr raw_mac;
/* round trips: the peer, what goes, what comes back */
static struct rte_ether_addr raw_peer;
static uint8_t raw_out[RTE_ETHER_MAX_LEN], raw_in[RTE_ETHER_MAX_LEN];

/* Sets up the port's receive queues from pool. @return 0 or a negative errno. */
static int
raw_rx_setup(uint16_t nb_rxd, struct rte_mempool *pool)
{
	uint16_t q;
	int ret = 0;

	for (q = 0; q < raw_nb_queues && ret == 0; q++)
		ret = rte_eth_rx_queue_setup(raw_port, q, nb_rxd, SOCKET_ID_ANY, NULL, pool);
	return ret;
}

static int
raw_setup(const struct pp_opts *o)
{
	/* the floor beside a provider's mode (--floor) takes a port of its own */
	const char *name = o->floor != NULL ? o->floor : o->domain;
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	uint16_t nb_rxd = 1024, nb_txd = 1024, q;
	int ret;

	if (name != NULL) {
		if (rte_eth_dev_get_port_by_name(name, &raw_port) != 0)
			return -1;
	} else if (rte_eth_dev_count_avail() == 0) {
		fprintf(stderr, "fi_dpdk_pingpong: no DPDK port\n");
		return -1;
	} else {
		raw_port = (uint16_t)rte_eth_find_next(0);
	}
	ret = rte_eth_dev_info_get(raw_port, &info);
	if (ret != 0) {
		fprintf(stderr, "fi_dpdk_pingpong: raw port info: %s\n", rte_strerror(-ret));
		return -1;
	}
	raw_nb_queues = RTE_MAX(info.nb_rx_queues, 1);
	raw_pool = rte_pktmbuf_pool_create("pp_raw", 8191, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
					   SOCKET_ID_ANY);
	if (raw_pool == NULL)
		return -1;
	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(raw_port, raw_nb_queues, raw_nb_queues, &conf);
	ret = ret ? ret : rte_eth_dev_adjust_nb_rx_tx_desc(raw_port, &nb_rxd, &nb_txd);
	ret = ret ? ret : raw_rx_setup(nb_rxd, raw_pool);
	if (ret == -ENOMEM) {
		/* af_packet with ring slots for jumbo frames copies whole slots */
		fprintf(stderr, "fi_dpdk_pingpong: raw: the port wants buffers of more than "
			"%u bytes; %u then\n", RTE_MBUF_DEFAULT_DATAROOM, RAW_JUMBO_ROOM);
		rte_mempool_free(raw_pool);
		raw_pool = rte_pktmbuf_pool_create("pp_raw_jumbo", 8191, 256, 0,
						   RTE_PKTMBUF_HEADROOM + RAW_JUMBO_ROOM,
						   SOCKET_ID_ANY);
		ret = raw_pool == NULL ? -ENOMEM : raw_rx_setup(nb_rxd, raw_pool);
	}
	for (q = 0; q < raw_nb_queues && ret == 0; q++)
		ret = rte_eth_tx_queue_setup(raw_port, q, nb_txd, SOCKET_ID_ANY, NULL);
	ret = ret ? ret : rte_eth_dev_start(raw_port);
	ret = ret ? ret : rte_eth_macaddr_get(raw_port, &raw_mac);
	if (ret != 0) {
		fprintf(stderr, "fi_dpdk_pingpong: raw port setup: %s\n", rte_strerror(-ret));
		return -1;
	}
	return 0;
}

/* A burst from the first receive queue that has one. */
static inline uint16_t
raw_rx(struct rte_mbuf **pkts)
{
	uint16_t q, n = 0;

	for (q = 0; n == 0 && q < raw_nb_queues; q++)
		n = rte_eth_rx_burst(raw_port, q, pkts, RAW_BURST);
	return n;
}

static bool
is_ours(struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

	return rte_pktmbuf_data_len(m) >= sizeof(*eth) &&
	       eth->ether_type == rte_cpu_to_be_16(RAW_ETHER_TYPE);
}

static int
raw_echo(int ctrl)
{
	struct rte_mbuf *pkts[RAW_BURST], *back[RAW_BURST];
	struct rte_ether_hdr *eth;
	uint16_t n, i, nb_back, sent;
	uint32_t polls = 0;

	for (;;) {
		n = raw_rx(pkts);
		for (i = 0, nb_back = 0; i < n; i++) {
			if (!is_ours(pkts[i])) {
				rte_pktmbuf_free(pkts[i]);
				continue;
			}
			eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
			rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
			rte_ether_addr_copy(&raw_mac, &eth->src_addr);
			back[nb_back++] = pkts[i];
		}
		for (sent = 0; sent < nb_back;)
			sent = (uint16_t)(sent + rte_eth_tx_burst(raw_port, 0, back + sent,
								   nb_back - sent));
		if (n == 0 && ++polls % 4096 == 0 && pp_ctrl_pending(ctrl))
			return 0;	/* the client is done */
	}
}

/* One round trip of size bytes; returns its cycles, 0 when it timed out. */
static uint64_t
raw_round_trip(size_t size, uint64_t timeout)
{
	struct rte_mbuf *m, *pkts[RAW_BURST];
	struct rte_ether_hdr *eth;
	uint64_t t0 = pp_stamp(), t1;
	uint16_t n, i;
	bool got = false;

	m = rte_pktmbuf_alloc(raw_pool);
	if (m == NULL)
		return 0;
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, (uint16_t)RTE_MAX(
		sizeof(*eth) + size, (size_t)RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN));
	rte_ether_addr_copy(&raw_peer, &eth->dst_addr);
	rte_ether_addr_copy(&raw_mac, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RAW_ETHER_TYPE);
	memcpy(eth + 1, raw_out, size);
	while (rte_eth_tx_burst(raw_port, 0, &m, 1) == 0)
		;
	while (!got) {
		n = raw_rx(pkts);
		for (i = 0; i < n; i++) {
			if (!got && is_ours(pkts[i])) {
				memcpy(raw_in, rte_pktmbuf_mtod_offset(pkts[i], uint8_t *,
								       sizeof(*eth)), size);
				got = true;
			}
			rte_pktmbuf_free(pkts[i]);
		}
		if (!got && rte_rdtsc() - t0 > timeout)
			return 0;
	}
	t1 = pp_stamp();
	return t1 - t0;
}

static uint64_t
raw_rtt(size_t size, bool verify, uint32_t seq)
{
	uint64_t cycles;

	if (verify)
		pp_fill(raw_out, size, seq);
	cycles = raw_round_trip(size, rte_get_tsc_hz() * RAW_TIMEOUT_MS / 1000);
	if (cycles == 0 || (verify && !pp_check(raw_in, size, seq))) {
		fprintf(stderr, "fi_dpdk_pingpong: raw frame %s\n", cycles == 0 ? "lost" :
			"corrupted");
		return 0;
	}
	return cycles;
}

/* Once the link is up, the MACs swapped over the control connection: no
 * broadcast, no learning. Round trips and streams alike. */
static int
raw_exchange(const struct pp_opts *o, int ctrl)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	rte_eth_dev_get_name_by_port(raw_port, name);
	if (pp_wait_link(name, o->timeout_s) != 0 ||
	    pp_ctrl_send(ctrl, &raw_mac, sizeof(raw_mac)) != 0 ||
	    pp_ctrl_recv(ctrl, &raw_peer, sizeof(raw_peer)) != sizeof(raw_peer))
		return -1;
	return 0;
}

/* One frame per message. */
static size_t
raw_rtt_max(void)
{
	return RTE_ETHER_MTU;
}

/* -- streams -- */

static uint64_t
raw_count(void *arg __rte_unused, uint64_t *bytes)
{
	struct rte_mbuf *pkts[RAW_BURST];
	uint16_t n, i, ours = 0;

	n = raw_rx(pkts);
	for (i = 0; i < n; i++) {
		if (is_ours(pkts[i])) {
			ours++;
			*bytes += rte_pktmbuf_data_len(pkts[i]) - sizeof(struct rte_ether_hdr);
		}
	}
	rte_pktmbuf_free_bulk(pkts, n);
	return ours;
}

/*
 * Sends bytes of payload to peer as frames of at most an MTU, built as the
 * provider builds its own: a fresh mbuf each, the payload copied in.
 * @return the frames sent.
 */
static uint64_t
raw_blast(const struct rte_ether_addr *peer, const uint8_t *data, size_t frame_payload,
	  uint64_t frames)
{
	struct rte_mbuf *pkts[RAW_BURST];
	struct rte_ether_hdr *eth;
	uint64_t sent = 0;
	uint16_t n, i, done;

	while (sent < frames) {
		n = (uint16_t)RTE_MIN((uint64_t)RAW_BURST, frames - sent);
		if (rte_pktmbuf_alloc_bulk(raw_pool, pkts, n) != 0)
			continue;
		for (i = 0; i < n; i++) {
			eth = (struct rte_ether_hdr *)rte_pktmbuf_append(pkts[i],
				(uint16_t)(sizeof(*eth) + RTE_MAX(frame_payload, (size_t)46)));
			rte_ether_addr_copy(peer, &eth->dst_addr);
			rte_ether_addr_copy(&raw_mac, &eth->src_addr);
			eth->ether_type = rte_cpu_to_be_16(RAW_ETHER_TYPE);
			memcpy(eth + 1, data, frame_payload);
		}
		for (done = 0; done < n;)
			done = (uint16_t)(done + rte_eth_tx_burst(raw_port, 0, pkts + done, n - done));
		sent += n;
	}
	return sent;
}

/* One way: iters * size bytes of payload in frames of at most an MTU. */
static int
raw_stream(const struct pp_opts *o, int ctrl, struct pp_result *res)
{
	size_t frame_payload;
	uint64_t frames, sent;
	unsigned int s, n = 0;
	uint8_t *data;

	if (raw_exchange(o, ctrl) != 0)
		return -1;
	data = calloc(1, RTE_ETHER_MTU);
	if (data == NULL)
		return -1;
	for (s = 0; s < o->nb_sizes; s++) {
		frame_payload = RTE_MIN(o->sizes[s], (size_t)RTE_ETHER_MTU);
		frames = ((uint64_t)pp_iters(o, o->sizes[s]) * RTE_MAX(o->sizes[s], (size_t)1) +
			  frame_payload - 1) / RTE_MAX(frame_payload, (size_t)1);
		if (pp_ctrl_sync(ctrl) != 0)
			break;
		if (o->server) {
			if (pp_stream_serve(ctrl, frames, raw_count, NULL) != 0)
				break;
			continue;
		}
		sent = raw_blast(&raw_peer, data, frame_payload, frames);
		if (pp_stream_result(ctrl, sent, NULL, "raw", o->sizes[s], &res[n]) != 0)
			break;
		n++;
	}
	free(data);
	return s == o->nb_sizes ? (int)n : -1;
}

static void
raw_teardown(void)
{
	int ret;

	if (raw_pool == NULL)
		return;
	/* the peer may be leaving too: its memif disconnect must not run in
	 * the interrupt thread while the port stops and closes */
	ret = app_ports_end(&raw_port, 1, true, RAW_TIMEOUT_MS);
	if (ret != 0) {
		fprintf(stderr, "fi_dpdk_pingpong: interrupt thread not parked (%s): port %u "
			"left open to the exit\n", strerror(-ret), raw_port);
		return;
	}
	rte_mempool_free(raw_pool);
	raw_pool = NULL;
}

const struct pp_mode_ops pp_raw_ops = {
	.name = "raw",
	.setup = raw_setup,
	.rtt_prepare = raw_exchange,
	.rtt_max = raw_rtt_max,
	.rtt = raw_rtt,
	.echo = raw_echo,
	.stream = raw_stream,
	.teardown = raw_teardown,
};
