/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The provider's software checksums (drivers/net_pmd/cksum.h) against
 * DPDK's reference rte_raw_cksum() and rte_ipv4_udptcp_cksum() over flat
 * buffers: every length from 0 to beyond an MTU, every alignment, and mbuf
 * chains whose segments have odd lengths, where the 16-bit lanes of a
 * segment are swapped. (DPDK 22.11's own rte_ipv4_udptcp_cksum_mbuf() is not
 * the reference: it drops carries on such chains.)
 */

#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "cksum.h"
#include "test_util.h"

#define MAX_LEN		2100
#define NB_SEGS_MAX	5

static struct rte_mempool *pool;
static uint8_t data[MAX_LEN + 64];

static void
test_raw_every_length_and_alignment(void)
{
	size_t len, align;
	int bad = 0;

	for (align = 0; align < 8; align++) {
		for (len = 0; len <= MAX_LEN; len++) {
			if (dfi_cksum_fold(dfi_cksum_add(data + align, len, 0)) !=
			    rte_raw_cksum(data + align, len))
				bad++;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static void
test_raw_extremes(void)
{
	uint8_t ones[MAX_LEN], zeros[MAX_LEN];

	/* all ones sums to 0xffff whatever the length; nothing sums to 0 */
	memset(ones, 0xff, sizeof(ones));
	memset(zeros, 0, sizeof(zeros));
	CU_ASSERT_EQUAL(dfi_cksum_fold(dfi_cksum_add(ones, sizeof(ones), 0)), 0xffff);
	CU_ASSERT_EQUAL(dfi_cksum_fold(dfi_cksum_add(zeros, sizeof(zeros), 0)), 0);
	CU_ASSERT_EQUAL(dfi_cksum_fold(dfi_cksum_add(ones, 1, 0)), rte_raw_cksum(ones, 1));
	/* a partial sum carried in adds as a 16-bit value would */
	CU_ASSERT_EQUAL(dfi_cksum_fold(dfi_cksum_add(data, 100, 0x1234)),
			dfi_cksum_fold(dfi_cksum_add(data, 100, 0) + 0x1234));
}

static void
test_ipv4_header(void)
{
	struct rte_ipv4_hdr ip;
	int i, bad = 0;

	for (i = 0; i < 1000; i++) {
		memcpy(&ip, data + i, sizeof(ip));
		ip.version_ihl = 0x45;
		ip.hdr_checksum = 0;
		if (dfi_ipv4_cksum(&ip) != rte_ipv4_cksum(&ip))
			bad++;
		ip.hdr_checksum = dfi_ipv4_cksum(&ip);
		/* a header with its checksum in place sums to all ones */
		if (dfi_ipv4_cksum(&ip) != 0)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/*
 * A UDP datagram of len payload bytes behind Ethernet and IPv4 headers, cut
 * into segments of the given sizes (the last takes the rest); *ref receives
 * its checksum as computed by DPDK over the flat frame.
 */
static struct rte_mbuf *
build_chain(size_t len, const uint16_t *cuts, int nb_cuts, uint16_t *ref)
{
	size_t total = sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr) +
		       sizeof(struct rte_udp_hdr) + len, off = 0, n;
	uint8_t frame[MAX_LEN + 64];
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(frame + sizeof(struct rte_ether_hdr));
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	struct rte_mbuf *head = NULL, *m;
	int i;

	memcpy(frame, data, total);
	ip->version_ihl = 0x45;
	ip->next_proto_id = IPPROTO_UDP;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(total - sizeof(struct rte_ether_hdr)));
	udp->dgram_len = rte_cpu_to_be_16((uint16_t)(len + sizeof(*udp)));
	udp->dgram_cksum = 0;
	*ref = rte_ipv4_udptcp_cksum(ip, udp);
	for (i = 0; off < total; i++) {
		n = i < nb_cuts ? RTE_MIN((size_t)cuts[i], total - off) : total - off;
		m = rte_pktmbuf_alloc(pool);
		if (m == NULL || rte_pktmbuf_append(m, (uint16_t)n) == NULL)
			return NULL;
		memcpy(rte_pktmbuf_mtod(m, uint8_t *), frame + off, n);
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0)
			return NULL;
		off += n;
	}
	return head;
}

static void
test_udp_single_and_chained(void)
{
	/* segment cuts: the headers alone, odd lengths, one byte */
	static const uint16_t cuts[][NB_SEGS_MAX] = {
		{ 0 }, { 42 }, { 43, 1, 7 }, { 50, 33, 1, 2 }, { 45, 100, 3, 9, 11 },
	};
	static const int nb_cuts[] = { 0, 1, 3, 4, 5 };
	const size_t udp_off = sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr);
	size_t len, c;
	int bad = 0, built = 0;

	for (c = 0; c < RTE_DIM(cuts); c++) {
		for (len = 0; len <= 1500; len += len < 80 ? 1 : 37) {
			uint16_t sum, field, ref = 0;
			struct rte_mbuf *m = build_chain(len, cuts[c], nb_cuts[c], &ref);
			struct rte_ipv4_hdr *ip;
			struct rte_udp_hdr *udp;

			if (m == NULL)
				continue;
			built++;
			ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *,
						     sizeof(struct rte_ether_hdr));
			udp = rte_pktmbuf_mtod_offset(m, struct rte_udp_hdr *, udp_off);
			sum = dfi_udp_sum(m, ip, (uint32_t)udp_off);
			field = (uint16_t)~sum;
			/* the field's value is the sum inverted, 0 sent as 0xffff */
			if (field != ref && !(field == 0 && ref == 0xffff))
				bad++;
			/* with the checksum written, the receiver's sum is all ones */
			udp->dgram_cksum = (uint16_t)~sum;
			if (dfi_udp_sum(m, ip, (uint32_t)udp_off) != 0xffff)
				bad++;
			/* one flipped bit in the last payload byte is caught */
			if (len > 0) {
				struct rte_mbuf *last = rte_pktmbuf_lastseg(m);

				*rte_pktmbuf_mtod_offset(last, uint8_t *,
							 rte_pktmbuf_data_len(last) - 1) ^= 0x10;
				if (dfi_udp_sum(m, ip, (uint32_t)udp_off) == 0xffff)
					bad++;
			}
			rte_pktmbuf_free(m);
		}
	}
	CU_ASSERT(built > 200);
	CU_ASSERT_EQUAL(bad, 0);
}

static int
suite_init(void)
{
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)rand();
	if (test_eal_init("test_cksum", TEST_EAL_BASE " --vdev=net_null0") < 0)
		return 1;
	pool = rte_pktmbuf_pool_create("cksum", 511, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	return pool == NULL;
}

static int
suite_clean(void)
{
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return 0;
}

static CU_TestInfo tests[] = {
	{ "raw sum: every length 0..2100 at 8 alignments", test_raw_every_length_and_alignment },
	{ "raw sum: all ones, all zeros, carried partial sums", test_raw_extremes },
	{ "IPv4 header checksum", test_ipv4_header },
	{ "UDP checksum over chains with odd segments", test_udp_single_and_chained },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "cksum", suite_init, suite_clean, NULL, NULL, tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	return test_run(suites);
}
