/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Forged RMA packets against a target, from a raw packet injector: a peer
 * that speaks the wire protocol by hand (tests/wire.h's header, CRC32C
 * sealed) and feeds its packets to the endpoint's receive path, where a real
 * peer's would arrive. It connects properly, then sends writes and reads with
 * forged keys, addresses, lengths, segments and incarnations. The target's
 * region sits between canaries: no forged packet may change a byte, each
 * forged operation must be answered with a refusal (a DONE carrying
 * FI_EACCES, or FI_EIO for a broken segment sequence), and a well-formed
 * write through the same injector must land exactly, which shows that the
 * refusals come from the forged fields and nothing else. Atomic requests
 * likewise: forged keys, addresses, operations and lengths are refused and
 * change nothing, and a request sent twice under one PSN is carried out
 * once, its one answer holding the value found the first time.
 *
 * The provider is linked in (not loaded by libfabric) to reach the receive
 * path and the peer's queue.
 */

#include <stdlib.h>
#include <string.h>

#include <rdma/fi_atomic.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>

#include "bench.h"
#include "crc32c.h"
#include "ep.h"
#include "mr.h"
#include "rdm.h"
#include "rxtx.h"
#include "test_util.h"

#define REGION		4096
#define GUARD		1024
#define CANARY		0xa5
#define KEY		0x1234
#define FAKE_IP		RTE_BE32(0x0a090909)	/* 10.9.9.9 */
#define FAKE_PORT	RTE_BE16(4242)
#define FAKE_INC	0x0badcafe

static struct bench b;
static struct fid_ep *ep_fid;
static struct fid_cq *cq;
static struct fid_av *av;
static struct fid_mr *mr;
static struct dfi_ep *ep;
static uint8_t mem[REGION + 2 * GUARD];
static uint8_t image[REGION];
static uint32_t psn = 7000;	/* the injector's next PSN */
static uint32_t rma_seq = 1;

/* -- the injector -- */

/* Builds a packet from the fake peer; its CRCs sealed unless bad_crc. */
static struct rte_mbuf *
forge(uint8_t type, uint32_t src_inc, uint32_t dst_inc, const void *payload, uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(ep->sink.port->rt->pool);
	struct dfi_rdm_hdr *h;
	struct dfi_rx_meta *meta;

	if (m == NULL || rte_pktmbuf_append(m, (uint16_t)(sizeof(*h) + len)) == NULL) {
		fprintf(stderr, "no mbuf for the injector\n");
		abort();
	}
	h = rte_pktmbuf_mtod(m, struct dfi_rdm_hdr *);
	memset(h, 0, sizeof(*h));
	h->version = DFI_WIRE_VERSION;
	h->type = type;
	h->flags = rte_cpu_to_be_16(DFI_RDM_F_CRC);
	h->src_inc = rte_cpu_to_be_32(src_inc);
	h->dst_inc = rte_cpu_to_be_32(dst_inc);
	h->window = rte_cpu_to_be_16(256);
	h->hdr_len = rte_cpu_to_be_16(sizeof(*h));
	if (len > 0)
		memcpy(h + 1, payload, len);
	meta = dfi_rx_meta(m);
	memset(meta, 0, sizeof(*meta));
	meta->src_ip = FAKE_IP;
	meta->src_port = FAKE_PORT;
	return m;
}

static void
seal(struct rte_mbuf *m)
{
	struct dfi_rdm_hdr *h = rte_pktmbuf_mtod(m, struct dfi_rdm_hdr *);
	uint32_t len = rte_pktmbuf_data_len(m) - (uint32_t)sizeof(*h);

	h->pcrc = rte_cpu_to_be_32(dfi_crc32c(h + 1, len, UINT32_MAX));
	h->hcrc = 0;
	h->hcrc = rte_cpu_to_be_32(dfi_crc32c(h, sizeof(*h), UINT32_MAX));
}

static void
inject(struct rte_mbuf *m)
{
	seal(m);
	rdm_conn_rx(ep, rdm_of(ep), &m, 1);
}

static struct rdm_peer *
fake_peer(void)
{
	struct dfi_addr a = { .kind = DFI_ADDR_IPV4, .ipv4 = FAKE_IP, .port = FAKE_PORT };

	return rdm_peer_get(rdm_of(ep), &a, false);
}

/* A sequenced packet in the connection, every field as given, flags added. */
static void
inject_seq(uint8_t type, uint16_t flags, uint32_t seq, uint64_t key, uint64_t addr,
	   uint32_t msg_len, uint32_t offset, const void *payload, uint32_t len,
	   uint32_t src_inc)
{
	struct rte_mbuf *m = forge(type, src_inc, rdm_of(ep)->inc, payload, len);
	struct dfi_rdm_hdr *h = rte_pktmbuf_mtod(m, struct dfi_rdm_hdr *);
	struct rdm_peer *p = fake_peer();

	h->flags |= rte_cpu_to_be_16(flags);
	h->psn = rte_cpu_to_be_32(psn++);
	h->ack = rte_cpu_to_be_32(p != NULL ? p->snd_una : 0);
	h->msg_seq = rte_cpu_to_be_32(seq);
	h->key = rte_cpu_to_be_64(key);
	h->tag = rte_cpu_to_be_64(addr);
	h->msg_len = rte_cpu_to_be_32(msg_len);
	h->offset = rte_cpu_to_be_32(offset);
	inject(m);
}

/* A sequenced RMA packet in the connection, every field as given. */
static void
inject_rma(uint8_t type, uint32_t seq, uint64_t key, uint64_t addr, uint32_t msg_len,
	   uint32_t offset, const void *payload, uint32_t len, uint32_t src_inc)
{
	inject_seq(type, 0, seq, key, addr, msg_len, offset, payload, len, src_inc);
}

/* The DONE the target queued for RMA operation seq: its error, or -1 if none. */
static int
done_error(uint32_t seq)
{
	struct rdm_peer *p = fake_peer();
	struct rdm_op *op;

	for (op = p != NULL ? p->ops_head : NULL; op != NULL; op = op->next) {
		if (op->type == DFI_PKT_RDM_DONE && op->msg_seq == seq &&
		    (op->pkt_flags & DFI_RDM_F_RMA))
			return (op->pkt_flags & DFI_RDM_F_ERROR) ? (int)op->data : 0;
	}
	return -1;
}

static bool
memory_as_expected(void)
{
	size_t i;

	for (i = 0; i < GUARD; i++) {
		if (mem[i] != CANARY || mem[GUARD + REGION + i] != CANARY)
			return false;
	}
	return memcmp(mem + GUARD, image, REGION) == 0;
}

/* -- set-up -- */

static int
suite_init(void)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_DATA, .size = 64 };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct rte_mbuf *m;
	struct dfi_rdm_hdr *h;

	memset(mem, CANARY, sizeof(mem));
	memset(mem + GUARD, 0, REGION);
	memset(image, 0, REGION);
	if (bench_open(&b, FI_EP_RDM, FI_MSG | FI_RMA | FI_ATOMIC) != 0 ||
	    fi_av_open(b.domain, &av_attr, &av, NULL) != 0 ||
	    fi_cq_open(b.domain, &cq_attr, &cq, NULL) != 0 ||
	    fi_endpoint(b.domain, b.info, &ep_fid, NULL) != 0 ||
	    fi_ep_bind(ep_fid, &av->fid, 0) != 0 ||
	    fi_ep_bind(ep_fid, &cq->fid, FI_TRANSMIT | FI_RECV) != 0 || fi_enable(ep_fid) != 0 ||
	    fi_mr_reg(b.domain, mem + GUARD, REGION, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, KEY, 0,
		      &mr, NULL) != 0)
		return 1;
	ep = container_of(ep_fid, struct dfi_ep, ep_fid);
	/* the injector connects like any peer: CONN with its first PSN */
	m = forge(DFI_PKT_RDM_CONN, FAKE_INC, 0, NULL, 0);
	h = rte_pktmbuf_mtod(m, struct dfi_rdm_hdr *);
	h->psn = rte_cpu_to_be_32(psn);
	inject(m);
	return fake_peer() == NULL || fake_peer()->state != RDM_PEER_UP;
}

static int
suite_clean(void)
{
	fi_close(&ep_fid->fid);
	fi_close(&mr->fid);
	fi_close(&cq->fid);
	fi_close(&av->fid);
	bench_close(&b);
	return 0;
}

/* -- tests -- */

static void
test_well_formed_write_lands(void)
{
	uint8_t data[100];
	uint32_t seq = rma_seq++;

	memset(data, 0x42, sizeof(data));
	inject_rma(DFI_PKT_RDM_WRITE, seq, KEY, 200, sizeof(data), 0, data, sizeof(data), FAKE_INC);
	memcpy(image + 200, data, sizeof(data));
	CU_ASSERT(memory_as_expected());
	CU_ASSERT_EQUAL(done_error(seq), 0);
}

static void
test_forged_keys(void)
{
	static const uint64_t keys[] = { KEY + 1, 0, UINT64_MAX, KEY ^ (1ULL << 40) };
	uint8_t data[64];
	uint32_t seq;
	size_t i;

	memset(data, 0xee, sizeof(data));
	for (i = 0; i < RTE_DIM(keys); i++) {
		seq = rma_seq++;
		inject_rma(DFI_PKT_RDM_WRITE, seq, keys[i], 0, sizeof(data), 0, data, sizeof(data),
			   FAKE_INC);
		CU_ASSERT_EQUAL(done_error(seq), FI_EACCES);
		seq = rma_seq++;
		inject_rma(DFI_PKT_RDM_READ_REQ, seq, keys[i], 0, 64, 0, NULL, 0, FAKE_INC);
		CU_ASSERT_EQUAL(done_error(seq), FI_EACCES);
	}
	CU_ASSERT(memory_as_expected());
}

static void
test_forged_addresses(void)
{
	static const struct { uint64_t addr; uint32_t len; } bad[] = {
		{ REGION - 63, 64 }, { REGION, 1 }, { UINT64_MAX - 10, 64 },
		{ (uint64_t)-1 - REGION + 1, REGION }, { 0, REGION + 1 }, { 1ULL << 63, 64 },
	};
	uint8_t data[64];
	uint32_t seq, off;
	size_t i;

	memset(data, 0xdd, sizeof(data));
	for (i = 0; i < RTE_DIM(bad); i++) {
		/* every segment of it: the refusal is answered when the write ends */
		seq = rma_seq++;
		for (off = 0; off == 0 || off < bad[i].len; off += sizeof(data))
			inject_rma(DFI_PKT_RDM_WRITE, seq, KEY, bad[i].addr, bad[i].len, off, data,
				   RTE_MIN(bad[i].len - off, (uint32_t)sizeof(data)), FAKE_INC);
		CU_ASSERT_EQUAL(done_error(seq), FI_EACCES);
		seq = rma_seq++;
		inject_rma(DFI_PKT_RDM_READ_REQ, seq, KEY, bad[i].addr, bad[i].len, 0, NULL, 0,
			   FAKE_INC);
		CU_ASSERT_EQUAL(done_error(seq), FI_EACCES);
	}
	CU_ASSERT(memory_as_expected());
}

/* Segments that do not follow what the first one announced. */
static void
test_forged_segments(void)
{
	uint8_t data[200];
	uint32_t seq;

	memset(data, 0xcc, sizeof(data));
	/* longer than the write it belongs to */
	seq = rma_seq++;
	inject_rma(DFI_PKT_RDM_WRITE, seq, KEY, 0, 100, 0, data, 200, FAKE_INC);
	CU_ASSERT_EQUAL(done_error(seq), FI_EIO);
	/* a later segment that jumps ahead, past the granted window */
	seq = rma_seq++;
	inject_rma(DFI_PKT_RDM_WRITE, seq, KEY, REGION - 100, 100, 0, data, 50, FAKE_INC);
	inject_rma(DFI_PKT_RDM_WRITE, seq, KEY, REGION - 100, 100, 150, data, 50, FAKE_INC);
	CU_ASSERT_EQUAL(done_error(seq), FI_EIO);
	memset(image + REGION - 100, 0xcc, 50);	/* the first half was granted, and landed */
	/* a first segment that does not start at 0 */
	seq = rma_seq++;
	inject_rma(DFI_PKT_RDM_WRITE, seq, KEY, 0, 100, 50, data, 50, FAKE_INC);
	CU_ASSERT_EQUAL(done_error(seq), -1);	/* not a write at all: dropped */
	CU_ASSERT(memory_as_expected());
}

/* Packets from another incarnation at the same address, with the right key. */
static void
test_forged_incarnation(void)
{
	uint64_t stale = rdm_of(ep)->stats.rx_stale;
	uint8_t data[64];
	uint32_t seq = rma_seq++;

	memset(data, 0xbb, sizeof(data));
	inject_rma(DFI_PKT_RDM_WRITE, seq, KEY, 0, sizeof(data), 0, data, sizeof(data),
		   FAKE_INC + 1);
	CU_ASSERT_EQUAL(rdm_of(ep)->stats.rx_stale, stale + 1);
	CU_ASSERT_EQUAL(done_error(seq), -1);
	psn--;	/* it took no place in the sequence */
	CU_ASSERT(memory_as_expected());
	/* and the connection still works */
	test_well_formed_write_lands();
}

/* An ATOMIC request of count elements of datatype, operands (and compare
 * values) from vals; fetch sets DFI_RDM_F_FETCH. */
static void
inject_atomic(uint32_t seq, uint64_t key, uint64_t addr, uint8_t op, uint8_t datatype,
	      uint16_t count, const void *vals, uint32_t vals_len, bool fetch)
{
	uint8_t payload[sizeof(struct dfi_rdm_atomic) + 540];
	struct dfi_rdm_atomic *a = (struct dfi_rdm_atomic *)payload;
	uint32_t len = (uint32_t)sizeof(*a) + vals_len;

	a->op = op;
	a->datatype = datatype;
	a->count = rte_cpu_to_be_16(count);
	a->reserved = 0;
	memcpy(a + 1, vals, vals_len);
	inject_seq(DFI_PKT_RDM_ATOMIC, fetch ? DFI_RDM_F_FETCH : 0, seq, key, addr, len, 0,
		   payload, len, FAKE_INC);
}

/* The answers (ATOMIC_RESP) the target queued for operation seq, the first in *first. */
static int
atomic_answers(uint32_t seq, uint64_t *first)
{
	struct rdm_peer *p = fake_peer();
	struct rdm_op *op;
	int n = 0;

	for (op = p != NULL ? p->ops_head : NULL; op != NULL; op = op->next) {
		if (op->type == DFI_PKT_RDM_ATOMIC_RESP && op->msg_seq == seq) {
			if (n++ == 0)
				memcpy(first, op->iov[0].iov_base, sizeof(*first));
		}
	}
	return n;
}

/* A fetch-and-add sent twice under one PSN (a resend): carried out once,
 * answered once with the value found the first time. */
static void
test_atomic_exactly_once(void)
{
	uint64_t add = 5, found = 0, now;
	uint32_t seq = rma_seq++;
	uint64_t dups = rdm_of(ep)->stats.rx_dup;

	memcpy(image + 512, &(uint64_t){ 40 }, sizeof(uint64_t));
	memcpy(mem + GUARD + 512, &(uint64_t){ 40 }, sizeof(uint64_t));
	inject_atomic(seq, KEY, 512, FI_SUM, FI_UINT64, 1, &add, sizeof(add), true);
	psn--;
	inject_atomic(seq, KEY, 512, FI_SUM, FI_UINT64, 1, &add, sizeof(add), true);
	CU_ASSERT_EQUAL(rdm_of(ep)->stats.rx_dup, dups + 1);
	CU_ASSERT_EQUAL(atomic_answers(seq, &found), 1);
	CU_ASSERT_EQUAL(found, 40);
	memcpy(&now, mem + GUARD + 512, sizeof(now));
	CU_ASSERT_EQUAL(now, 45);
	memcpy(image + 512, &now, sizeof(now));
	/* a base one: a DONE, no answer of values */
	seq = rma_seq++;
	inject_atomic(seq, KEY, 512, FI_SUM, FI_UINT64, 1, &add, sizeof(add), false);
	psn--;
	inject_atomic(seq, KEY, 512, FI_SUM, FI_UINT64, 1, &add, sizeof(add), false);
	CU_ASSERT_EQUAL(done_error(seq), 0);
	CU_ASSERT_EQUAL(atomic_answers(seq, &found), 0);
	now += 5;
	memcpy(image + 512, &now, sizeof(now));
	CU_ASSERT(memory_as_expected());
}

/* Forged atomic requests: refused with the right error, not a byte changed. */
static void
test_forged_atomics(void)
{
	static const uint64_t keys[] = { KEY + 1, 0, UINT64_MAX, KEY ^ (1ULL << 40) };
	static const uint64_t addrs[] = { REGION - 7, REGION, UINT64_MAX - 3, 1ULL << 63 };
	static const struct {
		uint8_t op;
		uint8_t datatype;
		uint16_t count;
		uint32_t len;	/* of operands and compare values */
		bool fetch;
		int err;
	} bad[] = {
		/* combinations not offered, or a compare that asks for no answer */
		{ FI_BOR, FI_DOUBLE, 1, 8, false, FI_EOPNOTSUPP },
		{ FI_ATOMIC_OP_LAST, FI_UINT64, 1, 8, false, FI_EOPNOTSUPP },
		{ FI_CSWAP, FI_UINT64, 1, 16, false, FI_EOPNOTSUPP },
		/* lengths that do not match the count: malformed */
		{ FI_SUM, FI_UINT64, 2, 8, false, FI_EIO },
		{ FI_SUM, FI_UINT64, 0, 0, false, FI_EIO },
		{ FI_SUM, FI_UINT8, 300, 0, false, FI_EIO },
		{ FI_SUM, FI_UINT8, 1, 540, false, FI_EIO },	/* more than any request */
	};
	uint64_t vals[68] = { 0xeeeeeeeeeeeeeeeeULL, 1, 2, 3 }, found;
	uint32_t seq;
	size_t i;

	for (i = 0; i < RTE_DIM(keys); i++) {
		seq = rma_seq++;
		inject_atomic(seq, keys[i], 0, FI_ATOMIC_WRITE, FI_UINT64, 1, vals, 8, false);
		CU_ASSERT_EQUAL(done_error(seq), FI_EACCES);
		seq = rma_seq++;
		inject_atomic(seq, keys[i], 0, FI_CSWAP, FI_UINT64, 1, vals, 16, true);
		CU_ASSERT_EQUAL(done_error(seq), FI_EACCES);
		CU_ASSERT_EQUAL(atomic_answers(seq, &found), 0);
	}
	for (i = 0; i < RTE_DIM(addrs); i++) {
		seq = rma_seq++;
		inject_atomic(seq, KEY, addrs[i], FI_SUM, FI_UINT64, 1, vals, 8, true);
		CU_ASSERT_EQUAL(done_error(seq), FI_EACCES);
	}
	for (i = 0; i < RTE_DIM(bad); i++) {
		seq = rma_seq++;
		inject_atomic(seq, KEY, 0, bad[i].op, bad[i].datatype, bad[i].count, vals,
			      bad[i].len, bad[i].fetch);
		CU_ASSERT_EQUAL(done_error(seq), bad[i].err);
	}
	CU_ASSERT(memory_as_expected());
}

static CU_TestInfo forge_tests[] = {
	{ "a well-formed write from the injector lands", test_well_formed_write_lands },
	{ "forged keys: refused, FI_EACCES", test_forged_keys },
	{ "forged addresses and lengths: refused", test_forged_addresses },
	{ "forged segment sequences: the write fails", test_forged_segments },
	{ "another incarnation's packets: rejected", test_forged_incarnation },
	{ "an atomic sent twice is carried out once", test_atomic_exactly_once },
	{ "forged atomics: refused, nothing changed", test_forged_atomics },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "forged RMA packets", suite_init, suite_clean, NULL, NULL, forge_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	return test_run(suites);
}
