/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The provider's software checksums (drivers/net_pmd/cksum.h) against
 * DPDK's reference rte_raw_cksum() and rte_ipv4_udptcp_cksum() over flat
 * buffers: every length from 0 to beyond an MTU, every alignment, and mbuf
 * chains whose segments have odd lengths, where the 16-bit lanes of a
 * segment are swapped. (DPDK 22.11's own rte_ipv4_udptcp_cksum_mbuf() is not
 * the reference: it drops carries on such chains.) The CRC32C
 * (drivers/net_pmd/crc32c.h) against a bit-at-a-time reference, at every
 * length and alignment across the switch from the crc32 instruction to
 * ISA-L, on long buffers, and carried from one buffer into the next. The
 * data path's bulk copy (drivers/net_pmd/copy.h) at every distance between
 * source and destination modulo a page that picks its way. The copies
 * between an I/O vector and a flat buffer (lib/ep/iov.h), with and without
 * their CRC, for one buffer (their short way) and several, from every
 * offset, for every length to beyond the vector's end.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "cksum.h"
#include "copy.h"
#include "crc32c.h"
#include "iov.h"
#include "test_util.h"

#define MAX_LEN		2100
#define NB_SEGS_MAX	5
#define LONG_LEN	(200 * 1024)

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

/* CRC32C one bit at a time: the definition, independent of any instruction. */
static uint32_t
crc_ref(const uint8_t *p, size_t len, uint32_t crc)
{
	int b;

	while (len-- > 0) {
		crc ^= *p++;
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (crc & 1 ? 0x82f63b78u : 0);
	}
	return crc;
}

static void
test_crc_check_value(void)
{
	/* the CRC-32C catalogue's check value, with the usual inversions */
	CU_ASSERT_EQUAL(~crc_ref((const uint8_t *)"123456789", 9, UINT32_MAX), 0xe3069283u);
	CU_ASSERT_EQUAL(~dfi_crc32c("123456789", 9, UINT32_MAX), 0xe3069283u);
}

/* Checks crc and copy of len bytes at src+align; returns the mismatches. */
static int
crc_check_one(const uint8_t *src, uint8_t *dst, size_t len, uint32_t seed)
{
	uint32_t want = crc_ref(src, len, seed);
	int bad = 0;

	memset(dst, 0xa5, len + 16);
	if (dfi_crc32c(src, len, seed) != want)
		bad++;
	if (dfi_crc32c_copy(dst + 8, src, len, seed) != want)
		bad++;
	/* the bytes copied, and none on either side of them */
	if (memcmp(dst + 8, src, len) != 0 || dst[7] != 0xa5 || dst[len + 8] != 0xa5)
		bad++;
	return bad;
}

/*
 * Long buffers take the fold where the CPU has it (crc32c.c), ISA-L
 * elsewhere: way 0 is the library, 1 the fold in AVX2's registers, 2 in
 * AVX-512's. @return false (said) when this CPU cannot take the way.
 */
#define CRC_WAYS	3

static bool
crc_way(int way)
{
	static const unsigned int bits[CRC_WAYS] = { 0, 256, 512 };

	if (dfi_crc32c_fold(bits[way]))
		return true;
	printf("\n    this CPU has no VPCLMULQDQ with %s: not its fold ",
	       way == 1 ? "AVX2" : "AVX-512");
	return false;
}

static void
test_crc_every_length_and_alignment(void)
{
	static uint8_t dst[MAX_LEN + 64];
	size_t len, align;
	int way, bad = 0;

	for (way = 0; way < CRC_WAYS; way++)
		for (align = 0; align < 8 && (align > 0 || crc_way(way)); align++)
			for (len = 0; len <= MAX_LEN; len++)
				bad += crc_check_one(data + align, dst + align, len,
						     len % 2 ? UINT32_MAX :
						     (uint32_t)len * 2654435761u);
	CU_ASSERT_EQUAL(bad, 0);
}

static void
crc_long_and_continued(void)
{
	/* lengths around ISA-L's 64-byte blocks and folding strides, and long ones */
	static const size_t lens[] = { 3071, 3072, 3073, 3079, 3080, 3264, 6143, 6144, 6145,
				       9216, 65536, 65543, LONG_LEN - 1 };
	uint8_t *src = malloc(LONG_LEN + 8), *dst = malloc(LONG_LEN + 32);
	uint32_t whole, part;
	size_t i, cut;
	int bad = 0;

	CU_ASSERT_FATAL(src != NULL && dst != NULL);
	for (i = 0; i < LONG_LEN + 8; i++)
		src[i] = (uint8_t)rand();
	for (i = 0; i < RTE_DIM(lens); i++)
		bad += crc_check_one(src + i % 8, dst, lens[i], UINT32_MAX);
	/* a sum carried from one buffer into the next is the sum of both */
	whole = crc_ref(src, 20000, UINT32_MAX);
	for (cut = 0; cut <= 20000; cut += 997) {
		part = dfi_crc32c(src, cut, UINT32_MAX);
		if (dfi_crc32c(src + cut, 20000 - cut, part) != whole)
			bad++;
	}
	/* one flipped bit anywhere is caught */
	for (i = 0; i < 20000; i += 1231) {
		src[i] ^= 0x04;
		if (dfi_crc32c(src, 20000, UINT32_MAX) == whole)
			bad++;
		src[i] ^= 0x04;
	}
	CU_ASSERT_EQUAL(bad, 0);
	free(src);
	free(dst);
}

static void
test_crc_long_and_continued(void)
{
	int way;

	for (way = 0; way < CRC_WAYS; way++)
		if (crc_way(way))
			crc_long_and_continued();
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

/*
 * dfi_copy() takes rte_memcpy() when the destination lies 1 to
 * DFI_COPY_NEAR - 1 bytes past the source modulo a page, memcpy() elsewhere:
 * both ways, around the size where glibc turns to `rep movsb` and up to a
 * jumbo segment, copy every byte and write nothing beside them.
 */
static void
test_copy_every_distance(void)
{
	static const size_t lens[] = { 1, 2047, 2048, 2049, 3000, 4096, 8191, 9000 };
	/* aligned_alloc() takes whole multiples of the alignment */
	const size_t span = RTE_ALIGN_CEIL(2 * DFI_COPY_PAGE + 9000 + 64, DFI_COPY_PAGE);
	uint8_t *src = aligned_alloc(DFI_COPY_PAGE, span);
	uint8_t *dst = aligned_alloc(DFI_COPY_PAGE, span);
	size_t d, l, i, len, bad = 0, near = 0;
	uint8_t *to;

	CU_ASSERT_FATAL(src != NULL && dst != NULL);
	for (i = 0; i < span; i++)
		src[i] = (uint8_t)(i * 7 + 3);
	for (d = 0; d < DFI_COPY_PAGE; d += d < 2 * DFI_COPY_NEAR ? 1 : 61) {
		near += d > 0 && d < DFI_COPY_NEAR;
		for (l = 0; l < RTE_DIM(lens); l++) {
			len = lens[l];
			/* the source 8 bytes into a page, the destination d past it */
			to = dst + 8 + d;
			memset(dst, 0xa5, span);
			dfi_copy(to, src + 8, len);
			if (memcmp(to, src + 8, len) != 0 || to[-1] != 0xa5 || to[len] != 0xa5)
				bad++;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(near, DFI_COPY_NEAR - 1);
	free(src);
	free(dst);
}

/*
 * One copy between vector v (its buffers' lengths in lens, nb of them) and
 * a flat buffer, of len bytes from iov_off on, each of the four ways,
 * against the vector flattened. @return the faults found.
 */
static int
iov_check_one(const size_t *lens, size_t nb, size_t iov_off, size_t len)
{
	static uint8_t bufs[4][64], flat[300], ref[300];
	struct iovec iov[4];
	size_t total = 0, i, n, want;
	uint32_t crc;
	int bad = 0;

	for (i = 0; i < nb; i++) {
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = lens[i];
		total += lens[i];
	}
	want = iov_off >= total ? 0 : RTE_MIN(len, total - iov_off);
	/* gather: the vector's bytes, as far as it reaches */
	for (i = 0; i < nb; i++)
		memcpy(bufs[i], data + 100 * i, lens[i]);
	for (i = 0, n = 0; i < nb; n += lens[i], i++)
		memcpy(ref + n, bufs[i], lens[i]);
	memset(flat, 0xa5, sizeof(flat));
	dfi_iov_gather(flat, iov, nb, iov_off, len);
	bad += memcmp(flat, ref + iov_off, want) != 0 || flat[want] != 0xa5;
	memset(flat, 0xa5, sizeof(flat));
	crc = dfi_iov_gather_crc(flat, iov, nb, iov_off, len, 7);
	bad += memcmp(flat, ref + iov_off, want) != 0 || flat[want] != 0xa5 ||
	       crc != crc_ref(ref + iov_off, want, 7);
	/* scatter: into the vector's bytes from iov_off on, the CRC of all len */
	for (i = 0; i < 2; i++) {
		memset(bufs, 0xa5, sizeof(bufs));
		if (i == 0) {
			n = dfi_iov_scatter(iov, nb, iov_off, data + 7, len);
			bad += n != want;
		} else {
			crc = dfi_iov_scatter_crc(iov, nb, iov_off, data + 7, len, 7);
			bad += crc != crc_ref(data + 7, len, 7);
		}
		memset(ref, 0xa5, total);
		memcpy(ref + RTE_MIN(iov_off, total), data + 7, want);
		for (n = 0, total = 0; n < nb; total += lens[n], n++)
			bad += memcmp(bufs[n], ref + total, lens[n]) != 0 || bufs[n][lens[n]] != 0xa5;
	}
	return bad;
}

static void
test_iov_copies(void)
{
	static const size_t vectors[][4] = { { 60 }, { 7, 0, 50, 1 }, { 0 } };
	static const size_t counts[] = { 1, 4, 1 };
	size_t v, total, off, len, i;
	int bad = 0;

	for (v = 0; v < RTE_DIM(vectors); v++) {
		for (i = 0, total = 0; i < counts[v]; i++)
			total += vectors[v][i];
		for (off = 0; off <= total + 1; off++)
			for (len = 0; len <= total + 5; len++)
				bad += iov_check_one(vectors[v], counts[v], off, len);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static CU_TestInfo tests[] = {
	{ "raw sum: every length 0..2100 at 8 alignments", test_raw_every_length_and_alignment },
	{ "raw sum: all ones, all zeros, carried partial sums", test_raw_extremes },
	{ "IPv4 header checksum", test_ipv4_header },
	{ "UDP checksum over chains with odd segments", test_udp_single_and_chained },
	{ "CRC32C check value", test_crc_check_value },
	{ "CRC32C and copy: every length 0..2100 at 8 alignments", test_crc_every_length_and_alignment },
	{ "CRC32C: long buffers, carried sums, flipped bits", test_crc_long_and_continued },
	{ "bulk copy: every distance modulo a page, to 9000 bytes", test_copy_every_distance },
	{ "I/O vector copies: one buffer and several, every offset and length",
	  test_iov_copies },
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
