/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Address vectors against fi_av(3): open attributes (count, ep_per_node,
 * FI_SYMMETRIC), synchronous and FI_EVENT inserts with partial failures,
 * FI_SYNC_ERR, insertsvc and the insertsym example, entries that fail alone
 * (bad services, nodes and ranges), remove and reuse, lookup and straddr
 * truncation, fi_rx_addr, the three address formats, named AVs in one
 * process and their opener race, the close refused while an endpoint is
 * bound, and bad input. One net_null port is enough: an AV puts nothing on
 * the wire.
 */

#include <arpa/inet.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>

#include "av.h"
#include "fi_ext_dpdk.h"
#include "test_util.h"

#define VER	FI_VERSION(1, 17)

struct env {
	struct test_domain td;
	struct fid_domain *domain;
	struct fid_fabric *fabric;
	struct fid_eq *eq;
};

static struct env sock;		/* FI_SOCKADDR_IN, FI_SHARED_AV */
static struct env str;		/* FI_ADDR_STR */
static struct env eth;		/* FI_ADDR_DPDK */

static int
env_open(struct env *e, uint32_t addr_format, uint64_t caps)
{
	struct fi_eq_attr eq_attr = { .size = 64, .wait_obj = FI_WAIT_UNSPEC };
	int ret;

	ret = test_domain_open(&e->td, FI_EP_RDM, addr_format, caps);
	e->domain = e->td.domain;
	e->fabric = e->td.fabric;
	if (ret == 0)
		ret = fi_eq_open(e->fabric, &eq_attr, &e->eq, NULL);
	return ret;
}

static void
env_close(struct env *e)
{
	if (e->eq != NULL)
		fi_close(&e->eq->fid);
	test_domain_close(&e->td);
	memset(e, 0, sizeof(*e));
}

static int
suite_init(void)
{
	return env_open(&sock, FI_SOCKADDR_IN, FI_MSG | FI_SHARED_AV) != 0 ||
	       env_open(&str, FI_ADDR_STR, FI_MSG) != 0 ||
	       env_open(&eth, FI_ADDR_DPDK, FI_MSG) != 0;
}

static int
suite_clean(void)
{
	env_close(&sock);
	env_close(&str);
	env_close(&eth);
	return 0;
}

static struct sockaddr_in
mksin(const char *ip, uint16_t port)
{
	struct sockaddr_in s = { .sin_family = AF_INET, .sin_port = htons(port) };

	inet_pton(AF_INET, ip, &s.sin_addr);
	return s;
}

static struct fid_av *
av_open(struct env *e, enum fi_av_type type, uint64_t flags)
{
	struct fi_av_attr attr = { .type = type, .flags = flags };
	struct fid_av *av = NULL;

	CU_ASSERT_EQUAL(fi_av_open(e->domain, &attr, &av, NULL), 0);
	return av;
}

static void
av_close(struct fid_av *av)
{
	CU_ASSERT_EQUAL(fi_close(&av->fid), 0);
}

static void
expect_lookup(struct fid_av *av, fi_addr_t a, const char *ip, uint16_t port)
{
	struct sockaddr_in got, want = mksin(ip, port);
	size_t len = sizeof(got);

	CU_ASSERT_EQUAL_FATAL(fi_av_lookup(av, a, &got, &len), 0);
	CU_ASSERT_EQUAL(len, sizeof(got));
	CU_ASSERT_EQUAL(got.sin_addr.s_addr, want.sin_addr.s_addr);
	CU_ASSERT_EQUAL(got.sin_port, want.sin_port);
}

/*
 * Reads what an FI_EVENT insert posted: one error per failed address, its
 * index in idx[i] and its code in errs[i], then one FI_AV_COMPLETE counting
 * the addresses inserted; and nothing more.
 */
static void
expect_av_events(struct fid_eq *eq, struct fid_av *av, void *ctx, const uint64_t *idx,
		 const int *errs, size_t nerr, uint64_t inserted)
{
	struct fi_eq_err_entry err = { 0 };
	struct fi_eq_entry entry;
	uint32_t event;
	size_t i;

	for (i = 0; i < nerr; i++) {
		memset(&err, 0, sizeof(err));
		CU_ASSERT_EQUAL_FATAL(fi_eq_readerr(eq, &err, 0), sizeof(err));
		CU_ASSERT_EQUAL(err.data, idx[i]);
		CU_ASSERT_EQUAL(err.err, errs[i]);
		CU_ASSERT_PTR_EQUAL(err.context, ctx);
		CU_ASSERT_PTR_EQUAL(err.fid, &av->fid);
	}
	CU_ASSERT_EQUAL(fi_eq_readerr(eq, &err, 0), -FI_EAGAIN);
	CU_ASSERT_EQUAL_FATAL(fi_eq_read(eq, &event, &entry, sizeof(entry), 0), sizeof(entry));
	CU_ASSERT_EQUAL(event, FI_AV_COMPLETE);
	CU_ASSERT_EQUAL(entry.data, inserted);
	CU_ASSERT_PTR_EQUAL(entry.context, ctx);
	CU_ASSERT_PTR_EQUAL(entry.fid, &av->fid);
	CU_ASSERT_EQUAL(fi_eq_read(eq, &event, &entry, sizeof(entry), 0), -FI_EAGAIN);
}

static void
av_stats(struct fid_av *av, struct dfi_avs_stats *st)
{
	memset(st, 0, sizeof(*st));
	CU_ASSERT_EQUAL_FATAL(fi_control(&av->fid, DFI_AV_GETSTATS, st), 0);
}

/* Inserts n distinct addresses (10.2.x.y, ports from 1000) in one call. */
static int
insert_many(struct fid_av *av, uint32_t n, fi_addr_t *fa)
{
	struct sockaddr_in *a = calloc(n, sizeof(*a));
	uint32_t i;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	for (i = 0; i < n; i++) {
		a[i] = mksin("10.2.0.0", (uint16_t)(1000 + i % 50000));
		a[i].sin_addr.s_addr = htonl(0x0a020000u | (i / 50000 + 1));
	}
	ret = fi_av_insert(av, a, n, fa, 0, NULL);
	free(a);
	return ret;
}

/* -- open -- */

static void
test_open_types(void)
{
	struct fi_av_attr attr = { .type = FI_AV_UNSPEC };
	struct fid_av *av;

	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av, NULL), 0);
	CU_ASSERT_EQUAL(attr.type, FI_AV_MAP);	/* the chosen type is returned */
	av_close(av);
	attr.type = FI_AV_TABLE;
	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av, NULL), 0);
	CU_ASSERT_EQUAL(attr.type, FI_AV_TABLE);
	av_close(av);
	attr.type = (enum fi_av_type)9;
	CU_ASSERT_EQUAL(fi_av_open(sock.domain, &attr, &av, NULL), -FI_EINVAL);
}

static void
test_open_bad_attr(void)
{
	struct fi_av_attr attr = { .type = FI_AV_MAP };
	struct fid_av *av;

	CU_ASSERT_EQUAL(fi_av_open(sock.domain, NULL, &av, NULL), -FI_EINVAL);
	attr.flags = 1ULL << 40;
	CU_ASSERT_EQUAL(fi_av_open(sock.domain, &attr, &av, NULL), -FI_EBADFLAGS);
	attr.flags = 0;
	attr.rx_ctx_bits = 17;
	CU_ASSERT_EQUAL(fi_av_open(sock.domain, &attr, &av, NULL), -FI_EINVAL);
	attr.rx_ctx_bits = -1;
	CU_ASSERT_EQUAL(fi_av_open(sock.domain, &attr, &av, NULL), -FI_EINVAL);
	attr.rx_ctx_bits = 0;
	attr.count = (size_t)1 << 30;
	CU_ASSERT_EQUAL(fi_av_open(sock.domain, &attr, &av, NULL), -FI_EINVAL);
	attr.count = 0;
	attr.flags = FI_READ;	/* read-only needs a name */
	CU_ASSERT_EQUAL(fi_av_open(sock.domain, &attr, &av, NULL), -FI_EINVAL);
	/* named AVs need FI_SHARED_AV: the str domain lacks it */
	attr.flags = 0;
	attr.name = "dfi-test-noshare";
	CU_ASSERT_EQUAL(fi_av_open(str.domain, &attr, &av, NULL), -FI_EINVAL);
}

static void
test_open_domain_type(void)
{
	struct fi_info *info = fi_dupinfo(sock.td.info);
	struct fi_av_attr attr = { .type = FI_AV_MAP };
	struct fid_domain *domain;
	struct fid_av *av;

	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	info->domain_attr->av_type = FI_AV_TABLE;
	CU_ASSERT_EQUAL_FATAL(fi_domain(sock.fabric, info, &domain, NULL), 0);
	CU_ASSERT_EQUAL(fi_av_open(domain, &attr, &av, NULL), -FI_EINVAL);
	attr.type = FI_AV_UNSPEC;
	CU_ASSERT_EQUAL_FATAL(fi_av_open(domain, &attr, &av, NULL), 0);
	CU_ASSERT_EQUAL(attr.type, FI_AV_TABLE);
	/* the domain cannot close under its AV */
	CU_ASSERT_EQUAL(fi_close(&domain->fid), -FI_EBUSY);
	av_close(av);
	CU_ASSERT_EQUAL(fi_close(&domain->fid), 0);
	fi_freeinfo(info);
}

static void
test_open_count_honoured(void)
{
	struct fi_av_attr attr = { .type = FI_AV_TABLE, .count = 10000, .ep_per_node = 4 };
	struct sockaddr_in addrs[5000];
	fi_addr_t fa[5000];
	struct fid_av *av;
	int i;

	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av, NULL), 0);
	/* count is a size hint, not a limit */
	for (i = 0; i < 5000; i++)
		addrs[i] = mksin("10.2.0.1", (uint16_t)(1000 + i));
	CU_ASSERT_EQUAL(fi_av_insert(av, addrs, 5000, fa, 0, NULL), 5000);
	CU_ASSERT_EQUAL(fi_av_insert(av, addrs, 5000, fa, 0, NULL), 5000);
	CU_ASSERT_EQUAL(fi_av_insert(av, addrs, 5000, fa, 0, NULL), 5000);
	CU_ASSERT_EQUAL(fa[4999], 14999);
	av_close(av);
}

static void
test_open_ep_per_node(void)
{
	struct fi_av_attr attr = { .type = FI_AV_TABLE };
	const uint32_t n = 256 * 64;	/* 256 endpoints on each of 64 nodes */
	struct dfi_avs_stats st;
	struct fid_av *av;
	char name[64];
	fi_addr_t *fa = calloc(n, sizeof(*fa));

	CU_ASSERT_PTR_NOT_NULL_FATAL(fa);
	/* neither count nor ep_per_node: the default 4096, grown past */
	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av, NULL), 0);
	av_stats(av, &st);
	CU_ASSERT_EQUAL(st.capacity, 4096);
	CU_ASSERT_EQUAL(insert_many(av, n, fa), (int)n);
	av_stats(av, &st);
	CU_ASSERT_EQUAL(st.chunks_added, 3);
	CU_ASSERT(st.rehashes > 0);
	av_close(av);
	/* ep_per_node x 64 nodes allocated at open: no growth on the way there */
	attr.ep_per_node = 256;
	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av, NULL), 0);
	av_stats(av, &st);
	CU_ASSERT_EQUAL(st.capacity, n);
	CU_ASSERT_EQUAL(insert_many(av, n, fa), (int)n);
	av_stats(av, &st);
	CU_ASSERT_EQUAL(st.used, n);
	CU_ASSERT_EQUAL(st.capacity, n);
	CU_ASSERT_EQUAL(st.chunks_added, 0);
	CU_ASSERT_EQUAL(st.rehashes, 0);
	av_close(av);
	/* never below the default */
	attr.ep_per_node = 1;
	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av, NULL), 0);
	av_stats(av, &st);
	CU_ASSERT_EQUAL(st.capacity, 4096);
	av_close(av);
	/* count, when given, wins (rounded up to chunks of 4096) */
	attr.ep_per_node = 256;
	attr.count = 5000;
	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av, NULL), 0);
	av_stats(av, &st);
	CU_ASSERT_EQUAL(st.capacity, 8192);
	av_close(av);
	/* a named AV's capacity is fixed at creation: ep_per_node sizes it */
	snprintf(name, sizeof(name), "dfi-test-epn-%d", (int)getpid());
	attr.count = 0;
	attr.name = name;
	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av, NULL), 0);
	av_stats(av, &st);
	CU_ASSERT_EQUAL(st.capacity, n);
	CU_ASSERT_EQUAL(insert_many(av, n, fa), (int)n);
	av_close(av);
	CU_ASSERT_EQUAL(fi_control(&sock.eq->fid, DFI_AV_GETSTATS, &st), -FI_ENOSYS);
	free(fa);
}

static void
test_open_symmetric(void)
{
	static const enum fi_av_type types[] = { FI_AV_MAP, FI_AV_TABLE, FI_AV_UNSPEC };
	struct sockaddr_in a[2] = { mksin("10.1.15.9", 6100), mksin("10.1.15.10", 6100) };
	struct fid_av *sym_av, *plain_av;
	fi_addr_t sym[6], plain[6];
	size_t t, i;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		sym_av = av_open(&sock, types[t], FI_SYMMETRIC);
		plain_av = av_open(&sock, types[t], 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(sym_av);
		CU_ASSERT_PTR_NOT_NULL_FATAL(plain_av);
		CU_ASSERT_EQUAL(fi_av_insertsym(sym_av, "10.1.15.1", 2, "6000", 2, sym, 0, NULL), 4);
		CU_ASSERT_EQUAL(fi_av_insertsym(plain_av, "10.1.15.1", 2, "6000", 2, plain, 0,
						NULL), 4);
		CU_ASSERT_EQUAL(fi_av_insert(sym_av, a, 2, sym + 4, 0, NULL), 2);
		CU_ASSERT_EQUAL(fi_av_insert(plain_av, a, 2, plain + 4, 0, NULL), 2);
		/* the same fi_addr_t values as without it, at sequential indices */
		CU_ASSERT_EQUAL(memcmp(sym, plain, sizeof(sym)), 0);
		for (i = 0; i < 6; i++)
			CU_ASSERT_EQUAL(sym[i] & DFI_AV_IDX_MASK, i);
		expect_lookup(sym_av, sym[0], "10.1.15.1", 6000);
		expect_lookup(sym_av, sym[1], "10.1.15.1", 6001);
		expect_lookup(sym_av, sym[2], "10.1.15.2", 6000);
		expect_lookup(sym_av, sym[3], "10.1.15.2", 6001);
		expect_lookup(sym_av, sym[5], "10.1.15.10", 6100);
		av_close(sym_av);
		av_close(plain_av);
	}
	/* with the other flags too */
	sym_av = av_open(&sock, FI_AV_TABLE, FI_SYMMETRIC | FI_EVENT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sym_av);
	av_close(sym_av);
}

/* -- synchronous insert -- */

static void
test_table_order(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_TABLE, 0);
	struct sockaddr_in a[3] = { mksin("10.1.0.1", 7000), mksin("10.1.0.2", 7000),
				    mksin("10.1.0.3", 7000) };
	fi_addr_t fa[3], rm[2];

	CU_ASSERT_EQUAL_FATAL(fi_av_insert(av, a, 3, fa, 0, NULL), 3);
	CU_ASSERT(fa[0] == 0 && fa[1] == 1 && fa[2] == 2);
	/* sequential across calls */
	CU_ASSERT_EQUAL(fi_av_insert(av, a, 2, fa, 0, NULL), 2);
	CU_ASSERT(fa[0] == 3 && fa[1] == 4);
	/* the lowest unused index after removals, in insertion order */
	rm[0] = 3;
	rm[1] = 1;
	CU_ASSERT_EQUAL(fi_av_remove(av, rm, 2, 0), 0);
	CU_ASSERT_EQUAL(fi_av_insert(av, a, 3, fa, 0, NULL), 3);
	CU_ASSERT(fa[0] == 1 && fa[1] == 3 && fa[2] == 5);
	expect_lookup(av, 1, "10.1.0.1", 7000);
	expect_lookup(av, 3, "10.1.0.2", 7000);
	expect_lookup(av, 5, "10.1.0.3", 7000);
	/* fi_addr may be NULL for a table */
	CU_ASSERT_EQUAL(fi_av_insert(av, a, 1, NULL, 0, NULL), 1);
	expect_lookup(av, 6, "10.1.0.1", 7000);
	av_close(av);
}

static void
test_map_generation(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_MAP, 0);
	struct sockaddr_in a = mksin("10.1.0.9", 7100), got;
	fi_addr_t first, second;
	size_t len = sizeof(got);

	CU_ASSERT_EQUAL_FATAL(fi_av_insert(av, &a, 1, &first, 0, NULL), 1);
	expect_lookup(av, first, "10.1.0.9", 7100);
	CU_ASSERT_EQUAL(fi_av_remove(av, &first, 1, 0), 0);
	/* a removed handle is dead, and stays dead once the slot is reused */
	CU_ASSERT_EQUAL(fi_av_lookup(av, first, &got, &len), -FI_EINVAL);
	CU_ASSERT_EQUAL_FATAL(fi_av_insert(av, &a, 1, &second, 0, NULL), 1);
	CU_ASSERT_NOT_EQUAL(first, second);
	CU_ASSERT_EQUAL(fi_av_lookup(av, first, &got, &len), -FI_EINVAL);
	expect_lookup(av, second, "10.1.0.9", 7100);
	/* removing the dead handle fails and leaves the live one */
	CU_ASSERT_EQUAL(fi_av_remove(av, &first, 1, 0), -FI_EINVAL);
	expect_lookup(av, second, "10.1.0.9", 7100);
	av_close(av);
}

static void
test_partial_failure_sync(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_TABLE, 0);
	struct sockaddr_in a[5] = { mksin("10.1.1.1", 7000), mksin("10.1.1.2", 0),
				    mksin("10.1.1.3", 7000), mksin("0.0.0.0", 7000),
				    mksin("10.1.1.5", 7000) };
	fi_addr_t fa[5];
	int errs[5];

	a[2].sin_family = AF_INET6;	/* not an address of this domain */
	CU_ASSERT_EQUAL(fi_av_insert(av, a, 5, fa, 0, NULL), 2);
	CU_ASSERT(fa[0] == 0 && fa[4] == 1);
	CU_ASSERT(fa[1] == FI_ADDR_NOTAVAIL && fa[2] == FI_ADDR_NOTAVAIL &&
		  fa[3] == FI_ADDR_NOTAVAIL);
	/* FI_SYNC_ERR: a status per address */
	CU_ASSERT_EQUAL(fi_av_insert(av, a, 5, fa, FI_SYNC_ERR, errs), 2);
	CU_ASSERT_EQUAL(errs[0], 0);
	CU_ASSERT_EQUAL(errs[1], FI_EADDRNOTAVAIL);
	CU_ASSERT_EQUAL(errs[2], FI_EINVAL);
	CU_ASSERT_EQUAL(errs[3], FI_EADDRNOTAVAIL);
	CU_ASSERT_EQUAL(errs[4], 0);
	CU_ASSERT_EQUAL(fi_av_insert(av, a, 5, fa, FI_SYNC_ERR, NULL), -FI_EINVAL);
	av_close(av);
}

static void
test_insert_bad_input(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_MAP, 0);
	struct sockaddr_in a = mksin("10.1.2.1", 7000);
	fi_addr_t fa;

	CU_ASSERT_EQUAL(fi_av_insert(av, NULL, 1, &fa, 0, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_insert(av, &a, 1, &fa, 1ULL << 3, NULL), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_av_insert(av, &a, 1, &fa, FI_AV_USER_ID, NULL), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_av_insert(av, &a, 0, &fa, 0, NULL), 0);
	CU_ASSERT_EQUAL(fi_av_insert(av, NULL, 0, &fa, 0, NULL), 0);
	/* FI_MORE batches are ordinary inserts here */
	CU_ASSERT_EQUAL(fi_av_insert(av, &a, 1, &fa, FI_MORE, NULL), 1);
	expect_lookup(av, fa, "10.1.2.1", 7000);
	av_close(av);
}

/* -- asynchronous insert -- */

static void
test_event_inserts(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_TABLE, FI_EVENT);
	struct sockaddr_in a[5] = { mksin("10.1.3.1", 7000), mksin("10.1.3.2", 0),
				    mksin("10.1.3.3", 7000), mksin("10.1.3.4", 0),
				    mksin("10.1.3.5", 7000) };
	struct fi_eq_entry entry;
	fi_addr_t fa[5];
	uint32_t event;
	int ctx, errs[5];

	/* before an EQ is bound */
	CU_ASSERT_EQUAL(fi_av_insert(av, a, 5, fa, 0, &ctx), -FI_ENOEQ);
	CU_ASSERT_EQUAL(fi_av_bind(av, &sock.eq->fid, 1), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL_FATAL(fi_av_bind(av, &sock.eq->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_av_bind(av, &sock.eq->fid, 0), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_av_insert(av, a, 5, fa, FI_SYNC_ERR, errs), -FI_EBADFLAGS);

	CU_ASSERT_EQUAL(fi_av_insert(av, a, 5, fa, 0, &ctx), 0);
	CU_ASSERT(fa[0] == 0 && fa[2] == 1 && fa[4] == 2);
	CU_ASSERT(fa[1] == FI_ADDR_NOTAVAIL && fa[3] == FI_ADDR_NOTAVAIL);
	/* one error per failed address, carrying its index, then one completion */
	CU_ASSERT_EQUAL(fi_eq_read(sock.eq, &event, &entry, sizeof(entry), 0), -FI_EAVAIL);
	expect_av_events(sock.eq, av, &ctx, (const uint64_t[]){ 1, 3 },
			 (const int[]){ FI_EADDRNOTAVAIL, FI_EADDRNOTAVAIL }, 2, 3);
	/* even for a count of 0 */
	CU_ASSERT_EQUAL(fi_av_insert(av, a, 0, fa, 0, &ctx), 0);
	expect_av_events(sock.eq, av, &ctx, NULL, NULL, 0, 0);
	/* and for insertsvc */
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "10.1.3.9", "7009", fa, 0, &ctx), 0);
	expect_av_events(sock.eq, av, &ctx, NULL, NULL, 0, 1);
	expect_lookup(av, fa[0], "10.1.3.9", 7009);
	/* the EQ cannot close under the AV */
	CU_ASSERT_EQUAL(fi_close(&sock.eq->fid), -FI_EBUSY);
	av_close(av);
}

/* -- insertsvc, insertsym -- */

static void
test_insertsym_example(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_TABLE, 0);
	fi_addr_t fa[4];

	/* fi_av(3): 10.1.1.1:5000, 10.1.1.1:5001, 10.1.1.2:5000, 10.1.1.2:5001 */
	CU_ASSERT_EQUAL_FATAL(fi_av_insertsym(av, "10.1.1.1", 2, "5000", 2, fa, 0, NULL), 4);
	expect_lookup(av, fa[0], "10.1.1.1", 5000);
	expect_lookup(av, fa[1], "10.1.1.1", 5001);
	expect_lookup(av, fa[2], "10.1.1.2", 5000);
	expect_lookup(av, fa[3], "10.1.1.2", 5001);
	av_close(av);
}

static void
test_insertsym_hostnames(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_TABLE, 0);
	fi_addr_t fa[4];
	int errs[4];

	/* each unresolvable host fails its own entries only */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "dfi-no-such-host8.invalid9", 2, "5000", 2, fa,
					FI_SYNC_ERR, errs), 0);
	CU_ASSERT(errs[0] == FI_EADDRNOTAVAIL && errs[3] == FI_EADDRNOTAVAIL);
	/* a range of hostnames needs a numeric suffix: the nodes after the
	 * first cannot be named, and fail alone */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "localhost", 2, "5000", 1, fa, FI_SYNC_ERR, errs),
			1);
	CU_ASSERT(errs[0] == 0 && errs[1] == FI_EINVAL);
	CU_ASSERT_EQUAL(fa[1], FI_ADDR_NOTAVAIL);
	expect_lookup(av, fa[0], "127.0.0.1", 5000);
	CU_ASSERT_EQUAL(fi_av_remove(av, fa, 1, 0), 0);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "localhost", 1, "5000", 2, fa, 0, NULL), 2);
	expect_lookup(av, fa[0], "127.0.0.1", 5000);
	expect_lookup(av, fa[1], "127.0.0.1", 5001);
	/* a service range beyond 65535 fails its entries */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.4.1", 1, "65535", 2, fa, FI_SYNC_ERR, errs),
			1);
	CU_ASSERT_EQUAL(errs[1], FI_EINVAL);
	/* port 0 fails as any address with port 0 does, the next port is fine */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.4.2", 1, "0", 2, fa, FI_SYNC_ERR, errs), 1);
	CU_ASSERT(errs[0] == FI_EADDRNOTAVAIL && errs[1] == 0);
	expect_lookup(av, fa[1], "10.1.4.2", 1);
	/* NULL where the API has none */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, NULL, 1, "5000", 1, fa, 0, NULL), -FI_EINVAL);
	av_close(av);
}

/* Bad services and nodes fail their own entries, with one event each. */
static void
test_insertsym_events(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_TABLE, FI_EVENT);
	static const int einval2[] = { FI_EINVAL, FI_EINVAL };
	fi_addr_t fa[4];
	int ctx;

	CU_ASSERT_EQUAL_FATAL(fi_av_bind(av, &sock.eq->fid, 0), 0);
	/* node 1 of a hostname without a numeric suffix cannot be named */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "localhost", 2, "5000", 2, fa, 0, &ctx), 0);
	CU_ASSERT(fa[0] == 0 && fa[1] == 1);
	CU_ASSERT(fa[2] == FI_ADDR_NOTAVAIL && fa[3] == FI_ADDR_NOTAVAIL);
	expect_av_events(sock.eq, av, &ctx, (const uint64_t[]){ 2, 3 }, einval2, 2, 2);
	/* a service that is no port: every entry fails */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.13.1", 2, "no-such-service", 1, fa, 0, &ctx),
			0);
	CU_ASSERT(fa[0] == FI_ADDR_NOTAVAIL && fa[1] == FI_ADDR_NOTAVAIL);
	expect_av_events(sock.eq, av, &ctx, (const uint64_t[]){ 0, 1 }, einval2, 2, 0);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.13.1", 2, "70000", 1, fa, 0, &ctx), 0);
	expect_av_events(sock.eq, av, &ctx, (const uint64_t[]){ 0, 1 }, einval2, 2, 0);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.13.1", 1, "50x", 1, fa, 0, &ctx), 0);
	expect_av_events(sock.eq, av, &ctx, (const uint64_t[]){ 0 }, einval2, 1, 0);
	/* a service name has no successor */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.13.1", 1, "x", 2, fa, 0, &ctx), 0);
	expect_av_events(sock.eq, av, &ctx, (const uint64_t[]){ 0, 1 }, einval2, 2, 0);
	/* no service for a node that is no address string */
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "10.1.13.1", NULL, fa, 0, &ctx), 0);
	expect_av_events(sock.eq, av, &ctx, (const uint64_t[]){ 0 }, einval2, 1, 0);
	/* an address string takes no range */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "fi_sockaddr_in://10.1.13.1:5000", 2, NULL, 1, fa, 0,
					&ctx), 0);
	expect_av_events(sock.eq, av, &ctx, (const uint64_t[]){ 0, 1 }, einval2, 2, 0);
	/* nothing to insert: still one completion */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.13.1", 1, "5000", 0, fa, 0, &ctx), 0);
	expect_av_events(sock.eq, av, &ctx, NULL, NULL, 0, 0);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.13.1", 0, "5000", 1, fa, 0, &ctx), 0);
	expect_av_events(sock.eq, av, &ctx, NULL, NULL, 0, 0);
	/* what fails the call posts nothing */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, NULL, 1, "5000", 1, fa, 0, &ctx), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.13.1", 1, "5000", 1, fa, 1ULL << 3, &ctx),
			-FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_eq_read(sock.eq, NULL, fa, sizeof(fa), 0), -FI_EAGAIN);
	av_close(av);
}

static void
test_count_zero(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_TABLE, 0);
	fi_addr_t fa[2];
	int errs[2];

	CU_ASSERT_EQUAL(fi_av_insert(av, NULL, 0, NULL, 0, NULL), 0);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.13.2", 1, "5000", 0, fa, 0, NULL), 0);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.13.2", 0, "5000", 1, fa, FI_SYNC_ERR, errs), 0);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.13.2", 0, "5000", 0, NULL, 0, NULL), 0);
	/* no index was taken */
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "10.1.13.2", "5000", fa, 0, NULL), 1);
	CU_ASSERT_EQUAL(fa[0], 0);
	av_close(av);
}

/* Ranges stop at the last address: no wrap to 0.0.0.0 or 00:00:00:00:00:00. */
static void
test_insertsym_no_wrap(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_TABLE, 0);
	struct fid_av *mac_av = av_open(&eth, FI_AV_TABLE, 0);
	fi_addr_t fa[4];
	int errs[4];

	/* .254, .255 (broadcast: no endpoint), then past 255.255.255.255 */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "255.255.255.254", 4, "5000", 1, fa, FI_SYNC_ERR,
					errs), 1);
	CU_ASSERT_EQUAL(errs[0], 0);
	CU_ASSERT_EQUAL(errs[1], FI_EADDRNOTAVAIL);
	CU_ASSERT_EQUAL(errs[2], FI_EINVAL);
	CU_ASSERT_EQUAL(errs[3], FI_EINVAL);
	CU_ASSERT(fa[2] == FI_ADDR_NOTAVAIL && fa[3] == FI_ADDR_NOTAVAIL);
	expect_lookup(av, fa[0], "255.255.255.254", 5000);
	/* ff:ff:ff:ff:ff:ff (multicast), then past it */
	CU_ASSERT_EQUAL(fi_av_insertsym(mac_av, "ff:ff:ff:ff:ff:ff", 3, "5000", 1, fa,
					FI_SYNC_ERR, errs), 0);
	CU_ASSERT_EQUAL(errs[0], FI_EADDRNOTAVAIL);
	CU_ASSERT_EQUAL(errs[1], FI_EINVAL);
	CU_ASSERT_EQUAL(errs[2], FI_EINVAL);
	CU_ASSERT_EQUAL(fa[2], FI_ADDR_NOTAVAIL);
	av_close(mac_av);
	av_close(av);
}

/* fi_av(3): fi_addr may be NULL for FI_AV_TABLE only. */
static void
test_map_needs_fi_addr(void)
{
	struct fid_av *map = av_open(&sock, FI_AV_MAP, 0);
	struct fid_av *table = av_open(&sock, FI_AV_TABLE, 0);
	struct sockaddr_in a = mksin("10.1.14.1", 7000);
	fi_addr_t fa;

	CU_ASSERT_EQUAL(fi_av_insert(map, &a, 1, NULL, 0, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_insertsvc(map, "10.1.14.1", "7000", NULL, 0, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_insertsym(map, "10.1.14.1", 2, "7000", 2, NULL, 0, NULL),
			-FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_insert(map, NULL, 0, NULL, 0, NULL), -FI_EINVAL);
	/* nothing went in: the first insert with a buffer takes index 0 */
	CU_ASSERT_EQUAL(fi_av_insert(map, &a, 1, &fa, 0, NULL), 1);
	CU_ASSERT_EQUAL(fa & DFI_AV_IDX_MASK, 0);
	/* a table's indices are known without it */
	CU_ASSERT_EQUAL(fi_av_insertsvc(table, "10.1.14.1", "7000", NULL, 0, NULL), 1);
	CU_ASSERT_EQUAL(fi_av_insertsym(table, "10.1.14.2", 2, "7000", 2, NULL, 0, NULL), 4);
	expect_lookup(table, 0, "10.1.14.1", 7000);
	expect_lookup(table, 4, "10.1.14.3", 7001);
	av_close(table);
	av_close(map);
}

static void
test_insertsvc(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_MAP, 0);
	fi_addr_t fa;

	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "10.1.5.1", "7200", &fa, 0, NULL), 1);
	expect_lookup(av, fa, "10.1.5.1", 7200);
	/* an FI_ADDR_STR node, with no service */
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "fi_sockaddr_in://10.1.5.2:7201", NULL, &fa, 0,
					NULL), 1);
	expect_lookup(av, fa, "10.1.5.2", 7201);
	/* an address string with a service, or a node with none: the entry
	 * fails, not the call */
	fa = 0;
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "fi_sockaddr_in://10.1.5.2:7201", "7201", &fa, 0,
					NULL), 0);
	CU_ASSERT_EQUAL(fa, FI_ADDR_NOTAVAIL);
	fa = 0;
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "fi_sockaddr_in://garbage", NULL, &fa, 0, NULL), 0);
	CU_ASSERT_EQUAL(fa, FI_ADDR_NOTAVAIL);
	fa = 0;
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "10.1.5.1", NULL, &fa, 0, NULL), 0);
	CU_ASSERT_EQUAL(fa, FI_ADDR_NOTAVAIL);
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, NULL, "7200", &fa, 0, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "10.1.5.1", "7200", &fa, 1ULL << 3, NULL),
			-FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.5.1", 1, "7200", 1, &fa, 1ULL << 3, NULL),
			-FI_EBADFLAGS);
	av_close(av);
}

/* -- remove, lookup, straddr -- */

static void
test_null_arguments(void)
{
	struct fi_av_attr attr = { .type = FI_AV_MAP };
	struct fid_av *av = av_open(&sock, FI_AV_MAP, 0);
	struct sockaddr_in a = mksin("10.1.16.1", 7000);
	char buf[64];
	fi_addr_t fa;
	size_t len;

	CU_ASSERT_PTR_NOT_NULL_FATAL(av);
	CU_ASSERT_EQUAL(fi_av_open(sock.domain, &attr, NULL, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_bind(av, NULL, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL_FATAL(fi_av_insert(av, &a, 1, &fa, 0, NULL), 1);
	len = sizeof(a);
	CU_ASSERT_EQUAL(fi_av_lookup(av, fa, NULL, &len), -FI_EINVAL);
	CU_ASSERT_PTR_NULL(fi_av_straddr(av, &a, buf, NULL));
	len = sizeof(buf);
	CU_ASSERT_PTR_NULL(fi_av_straddr(av, &a, NULL, &len));
	av_close(av);
}

static void
test_remove_rules(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_TABLE, 0);
	struct sockaddr_in a[2] = { mksin("10.1.6.1", 7000), mksin("10.1.6.2", 7000) };
	fi_addr_t fa[2], bad[2];

	CU_ASSERT_EQUAL_FATAL(fi_av_insert(av, a, 2, fa, 0, NULL), 2);
	CU_ASSERT_EQUAL(fi_av_remove(av, fa, 2, 1), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_av_remove(av, NULL, 1, 0), -FI_EINVAL);
	/* all or nothing: one bad address leaves the others in place */
	bad[0] = fa[0];
	bad[1] = 77;
	CU_ASSERT_EQUAL(fi_av_remove(av, bad, 2, 0), -FI_EINVAL);
	expect_lookup(av, fa[0], "10.1.6.1", 7000);
	CU_ASSERT_EQUAL(fi_av_remove(av, fa, 2, 0), 0);
	CU_ASSERT_EQUAL(fi_av_remove(av, fa, 1, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_remove(av, fa, 0, 0), 0);
	/* reuse after remove */
	CU_ASSERT_EQUAL(fi_av_insert(av, &a[1], 1, fa, 0, NULL), 1);
	CU_ASSERT_EQUAL(fa[0], 0);
	expect_lookup(av, 0, "10.1.6.2", 7000);
	av_close(av);
}

static void
test_lookup_truncation(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_MAP, 0);
	struct sockaddr_in a = mksin("10.1.7.1", 7300), got;
	uint8_t small[4];
	fi_addr_t fa;
	size_t len;

	CU_ASSERT_EQUAL_FATAL(fi_av_insert(av, &a, 1, &fa, 0, NULL), 1);
	len = sizeof(small);
	CU_ASSERT_EQUAL(fi_av_lookup(av, fa, small, &len), 0);
	CU_ASSERT_EQUAL(len, sizeof(struct sockaddr_in));
	CU_ASSERT_EQUAL(memcmp(small, &a, sizeof(small)), 0);
	len = 0;	/* a size query */
	CU_ASSERT_EQUAL(fi_av_lookup(av, fa, NULL, &len), 0);
	CU_ASSERT_EQUAL(len, sizeof(struct sockaddr_in));
	len = sizeof(got);
	CU_ASSERT_EQUAL(fi_av_lookup(av, fa + 1, &got, &len), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_lookup(av, FI_ADDR_NOTAVAIL, &got, &len), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_lookup(av, fa, &got, NULL), -FI_EINVAL);
	av_close(av);
}

static void
test_straddr(void)
{
	struct fid_av *av = av_open(&sock, FI_AV_MAP, 0);
	struct sockaddr_in a = mksin("10.1.8.1", 7400);
	const char *want = "fi_sockaddr_in://10.1.8.1:7400";
	char buf[64];
	size_t len = sizeof(buf);

	CU_ASSERT_PTR_EQUAL(fi_av_straddr(av, &a, buf, &len), buf);
	CU_ASSERT_STRING_EQUAL(buf, want);
	CU_ASSERT_EQUAL(len, strlen(want) + 1);
	/* truncated, NUL-terminated, the full length reported */
	len = 10;
	memset(buf, 'x', sizeof(buf));
	CU_ASSERT_PTR_EQUAL(fi_av_straddr(av, &a, buf, &len), buf);
	CU_ASSERT_EQUAL(strlen(buf), 9);
	CU_ASSERT_EQUAL(strncmp(buf, want, 9), 0);
	CU_ASSERT_EQUAL(buf[10], 'x');
	CU_ASSERT_EQUAL(len, strlen(want) + 1);
	len = sizeof(buf);
	CU_ASSERT_PTR_NULL(fi_av_straddr(av, NULL, buf, &len));
	a.sin_family = AF_UNIX;
	CU_ASSERT_PTR_NULL(fi_av_straddr(av, &a, buf, &len));
	av_close(av);
}

static void
test_rx_addr(void)
{
	struct fi_av_attr attr = { .type = FI_AV_MAP, .rx_ctx_bits = 4 };
	struct sockaddr_in a = mksin("10.1.9.1", 7500);
	struct fid_av *av;
	fi_addr_t fa;

	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_insert(av, &a, 1, &fa, 0, NULL), 1);
	/* the receive-context bits are left to fi_rx_addr() */
	CU_ASSERT_EQUAL(fa >> 60, 0);
	expect_lookup(av, fi_rx_addr(fa, 0, 4), "10.1.9.1", 7500);
	expect_lookup(av, fi_rx_addr(fa, 5, 4), "10.1.9.1", 7500);
	av_close(av);
}

/* -- address formats -- */

static void
test_addr_str_domain(void)
{
	struct fid_av *av = av_open(&str, FI_AV_TABLE, 0);
	const char *addrs[4] = {
		"fi_sockaddr_in://10.1.10.1:7600", "not a uri",
		"fi_addr_dpdk://[02:00:00:00:00:07]:7601", NULL,
	};
	char got[64];
	fi_addr_t fa[4];
	size_t len = sizeof(got);
	int errs[4];

	CU_ASSERT_EQUAL(fi_av_insert(av, addrs, 4, fa, FI_SYNC_ERR, errs), 2);
	CU_ASSERT(errs[0] == 0 && errs[1] == FI_EINVAL && errs[2] == 0 && errs[3] == FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_lookup(av, fa[0], got, &len), 0);
	CU_ASSERT_STRING_EQUAL(got, addrs[0]);
	CU_ASSERT_EQUAL(len, strlen(addrs[0]) + 1);
	len = sizeof(got);
	CU_ASSERT_EQUAL(fi_av_lookup(av, fa[2], got, &len), 0);
	CU_ASSERT_STRING_EQUAL(got, addrs[2]);
	len = sizeof(got);
	CU_ASSERT_PTR_NOT_NULL(fi_av_straddr(av, addrs[0], got, &len));
	CU_ASSERT_STRING_EQUAL(got, addrs[0]);
	av_close(av);
}

/* straddr takes every string insert takes, whatever its length, and no other. */
static void
test_addr_str_straddr(void)
{
	struct fid_av *av = av_open(&str, FI_AV_TABLE, 0);
	const char *ok[2] = {
		"fi_sockaddr_in://10.1.10.9:7609/a/path/that/makes/this/uri/longer/than/48/bytes",
		"fi_sockaddr://10.1.10.10:7610",
	};
	const char *bad = "fi_sockaddr_in://10.1.10.11:99999";
	char got[64];
	fi_addr_t fa[2];
	size_t len;

	CU_ASSERT(strlen(ok[0]) >= 64);
	CU_ASSERT_EQUAL(fi_av_insert(av, ok, 2, fa, 0, NULL), 2);
	len = sizeof(got);
	CU_ASSERT_PTR_EQUAL(fi_av_straddr(av, ok[0], got, &len), got);
	CU_ASSERT_STRING_EQUAL(got, "fi_sockaddr_in://10.1.10.9:7609");
	CU_ASSERT_EQUAL(len, strlen(got) + 1);
	len = sizeof(got);
	CU_ASSERT_PTR_EQUAL(fi_av_straddr(av, ok[1], got, &len), got);
	CU_ASSERT_STRING_EQUAL(got, "fi_sockaddr_in://10.1.10.10:7610");
	CU_ASSERT_EQUAL(fi_av_insert(av, &bad, 1, fa, 0, NULL), 0);
	len = sizeof(got);
	CU_ASSERT_PTR_NULL(fi_av_straddr(av, bad, got, &len));
	av_close(av);
}

static void
test_addr_dpdk_domain(void)
{
	struct fid_av *av = av_open(&eth, FI_AV_MAP, 0);
	struct fi_dpdk_addr a[2] = {
		{ .mac = { 0x02, 0, 0, 0, 0, 0x10 }, .port = htons(7700) },
		{ .mac = { 0x01, 0, 0x5e, 0, 0, 1 }, .port = htons(7700) },	/* multicast */
	};
	struct fi_dpdk_addr got;
	char buf[64];
	fi_addr_t fa[4];
	size_t len = sizeof(buf);
	int errs[4];

	CU_ASSERT_EQUAL(fi_av_insert(av, a, 2, fa, 0, NULL), 1);
	CU_ASSERT_EQUAL(fa[1], FI_ADDR_NOTAVAIL);
	CU_ASSERT_PTR_NOT_NULL(fi_av_straddr(av, &a[0], buf, &len));
	CU_ASSERT_STRING_EQUAL(buf, "fi_addr_dpdk://[02:00:00:00:00:10]:7700");
	len = sizeof(got);
	CU_ASSERT_EQUAL(fi_av_lookup(av, fa[0], &got, &len), 0);
	CU_ASSERT_EQUAL(len, sizeof(got));
	CU_ASSERT_EQUAL(memcmp(&got, &a[0], sizeof(got)), 0);
	/* a range of MACs */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "02:00:00:00:00:fe", 3, "7800", 1, fa, 0, NULL), 3);
	len = sizeof(got);
	CU_ASSERT_EQUAL(fi_av_lookup(av, fa[2], &got, &len), 0);
	CU_ASSERT(got.mac[4] == 1 && got.mac[5] == 0);
	/* a node that is no MAC fails its entries, not the call */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "02:00:00:00:00", 2, "7800", 1, fa, FI_SYNC_ERR,
					errs), 0);
	CU_ASSERT(errs[0] == FI_EINVAL && errs[1] == FI_EINVAL);
	CU_ASSERT(fa[0] == FI_ADDR_NOTAVAIL && fa[1] == FI_ADDR_NOTAVAIL);
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "02:00:00:00:00:20zz", "7800", fa, FI_SYNC_ERR,
					errs), 0);
	CU_ASSERT_EQUAL(errs[0], FI_EINVAL);
	av_close(av);
}

/* -- named AVs in one process (the multi-process case is test/av_shared.sh) -- */

static void
test_named_av(void)
{
	struct fi_av_attr attr = { .type = FI_AV_TABLE, .count = 64 };
	struct sockaddr_in a = mksin("10.1.11.1", 7900);
	struct fid_av *av1, *av2, *ro;
	char name[64];
	fi_addr_t fa;

	snprintf(name, sizeof(name), "dfi-test-%d", (int)getpid());
	attr.name = name;
	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av1, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(attr.map_addr);
	CU_ASSERT_EQUAL_FATAL(fi_av_insert(av1, &a, 1, &fa, 0, NULL), 1);
	/* a second open shares the entries, whatever type it asks for */
	attr.type = FI_AV_MAP;
	attr.map_addr = NULL;
	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av2, NULL), 0);
	CU_ASSERT_EQUAL(attr.type, FI_AV_TABLE);
	expect_lookup(av2, fa, "10.1.11.1", 7900);
	attr.flags = FI_READ;
	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &ro, NULL), 0);
	expect_lookup(ro, fa, "10.1.11.1", 7900);
	CU_ASSERT_EQUAL(fi_av_insert(ro, &a, 1, &fa, 0, NULL), -FI_EACCES);
	CU_ASSERT_EQUAL(fi_av_remove(ro, &fa, 1, 0), -FI_EACCES);
	av_close(ro);
	av_close(av2);
	av_close(av1);
	/* gone with its last user: read-only open of a missing AV fails */
	CU_ASSERT_NOT_EQUAL(fi_av_open(sock.domain, &attr, &ro, NULL), 0);
	attr.flags = 0;
	attr.name = "bad/name";
	CU_ASSERT_EQUAL(fi_av_open(sock.domain, &attr, &ro, NULL), -FI_EINVAL);
}

static void
test_named_av_capacity(void)
{
	struct fi_av_attr attr = { .type = FI_AV_TABLE, .count = 10 };
	struct sockaddr_in *a;
	struct fid_av *av;
	char name[64];
	fi_addr_t *fa;
	int i, n = 4097;

	snprintf(name, sizeof(name), "dfi-test-cap-%d", (int)getpid());
	attr.name = name;
	a = calloc((size_t)n, sizeof(*a));
	fa = calloc((size_t)n, sizeof(*fa));
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fa);
	for (i = 0; i < n; i++)
		a[i] = mksin("10.1.12.1", (uint16_t)(1 + i));
	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &attr, &av, NULL), 0);
	/* a shared AV has a fixed capacity (count, rounded up to 4096) */
	CU_ASSERT_EQUAL(fi_av_insert(av, a, (size_t)n, fa, 0, NULL), 4096);
	CU_ASSERT_EQUAL(fa[4096], FI_ADDR_NOTAVAIL);
	av_close(av);
	free(a);
	free(fa);
}

struct late_open {
	struct fi_av_attr attr;
	struct fid_av *av;
	int ret;
};

static void *
late_open(void *arg)
{
	struct late_open *o = arg;

	o->ret = fi_av_open(sock.domain, &o->attr, &o->av, NULL);
	return NULL;
}

/*
 * An opener that attached to a named AV just as its last user closed it must
 * not count itself into the dying region: it creates the AV anew. The test
 * holds the region's lock while the opener attaches, then does what the last
 * closer does under it (marks it dead, unlinks it).
 */
static void
test_named_av_open_race(void)
{
	struct late_open o = { .attr = { .type = FI_AV_TABLE, .count = 64 } };
	struct sockaddr_in a = mksin("10.1.17.1", 7000), got;
	struct dfi_av_store_hdr *hdr;
	char name[64], path[96];
	struct fid_av *first;
	pthread_t thread;
	struct stat st;
	size_t len;
	fi_addr_t fa;
	int fd;

	snprintf(name, sizeof(name), "dfi-test-race-%d", (int)getpid());
	snprintf(path, sizeof(path), "/dfi-av.%s", name);
	o.attr.name = name;
	CU_ASSERT_EQUAL_FATAL(fi_av_open(sock.domain, &o.attr, &first, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_insert(first, &a, 1, &fa, 0, NULL), 1);
	fd = shm_open(path, O_RDWR, 0);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL_FATAL(fstat(fd, &st), 0);
	hdr = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	CU_ASSERT_FATAL(hdr != MAP_FAILED);

	CU_ASSERT_EQUAL_FATAL(pthread_mutex_lock(&hdr->lock), 0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&thread, NULL, late_open, &o), 0);
	usleep(200000);	/* it attaches, then waits for the lock */
	__atomic_store_n(&hdr->magic, DFI_AVS_DEAD, __ATOMIC_RELEASE);
	shm_unlink(path);
	pthread_mutex_unlock(&hdr->lock);
	pthread_join(thread, NULL);

	CU_ASSERT_EQUAL_FATAL(o.ret, 0);
	/* a new region under the name, empty, not the dying one */
	fd = shm_open(path, O_RDONLY, 0);
	CU_ASSERT(fd >= 0);
	if (fd >= 0)
		close(fd);
	len = sizeof(got);
	CU_ASSERT_EQUAL(fi_av_lookup(o.av, fa, &got, &len), -FI_EINVAL);
	av_close(o.av);
	av_close(first);
	munmap(hdr, (size_t)st.st_size);
}

/* fi_av(3): no close while endpoints are bound to the AV. */
static void
test_close_busy(void)
{
	struct fi_av_attr attr = { .type = FI_AV_MAP };
	struct test_domain td;
	struct fid_av *av;
	struct fid_ep *ep;

	CU_ASSERT_EQUAL_FATAL(test_domain_open(&td, FI_EP_DGRAM, FI_SOCKADDR_IN, FI_MSG), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_open(td.domain, &attr, &av, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_endpoint(td.domain, td.info, &ep, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_ep_bind(ep, &av->fid, 0), 0);
	CU_ASSERT_EQUAL(fi_close(&av->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&ep->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&av->fid), 0);
	test_domain_close(&td);
}

static CU_TestInfo av_tests[] = {
	{ "open: MAP, TABLE, UNSPEC", test_open_types },
	{ "open: bad attributes", test_open_bad_attr },
	{ "open: the domain's av_type", test_open_domain_type },
	{ "open: count is a hint", test_open_count_honoured },
	{ "open: ep_per_node sizes the AV", test_open_ep_per_node },
	{ "open: FI_SYMMETRIC changes no value", test_open_symmetric },
	{ "TABLE indices in insertion order, lowest unused", test_table_order },
	{ "MAP handles carry a generation", test_map_generation },
	{ "sync insert: partial failure, FI_SYNC_ERR", test_partial_failure_sync },
	{ "insert: bad input", test_insert_bad_input },
	{ "FI_EVENT inserts", test_event_inserts },
	{ "insertsym: the fi_av(3) example", test_insertsym_example },
	{ "insertsym: hostnames, ranges, bad input", test_insertsym_hostnames },
	{ "insertsym: bad services and nodes fail alone (FI_EVENT)", test_insertsym_events },
	{ "insertsym: count 0", test_count_zero },
	{ "insertsym: ranges do not wrap", test_insertsym_no_wrap },
	{ "FI_AV_MAP inserts need fi_addr", test_map_needs_fi_addr },
	{ "insertsvc", test_insertsvc },
	{ "NULL arguments", test_null_arguments },
	{ "remove: rules and reuse", test_remove_rules },
	{ "lookup: truncation and length", test_lookup_truncation },
	{ "straddr: truncation and length", test_straddr },
	{ "fi_rx_addr", test_rx_addr },
	{ "FI_ADDR_STR domain", test_addr_str_domain },
	{ "FI_ADDR_STR: straddr takes what insert takes", test_addr_str_straddr },
	{ "FI_ADDR_DPDK domain", test_addr_dpdk_domain },
	{ "named AV shared by opens", test_named_av },
	{ "named AV capacity", test_named_av_capacity },
	{ "named AV: an opener racing the last close", test_named_av_open_race },
	{ "close refused while an endpoint is bound", test_close_busy },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "av", suite_init, suite_clean, NULL, NULL, av_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	test_env_setup(TEST_EAL_BASE " --vdev=net_null0");
	return test_run(suites);
}
