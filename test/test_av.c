/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Address vectors against fi_av(3): open attributes, synchronous and
 * FI_EVENT inserts with partial failures, FI_SYNC_ERR, insertsvc and the
 * insertsym example, remove and reuse, lookup and straddr truncation,
 * fi_rx_addr, the three address formats, named AVs in one process, and bad
 * input. One net_null port is enough: an AV puts nothing on the wire.
 */

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/fi_domain.h>
#include <rdma/fi_eq.h>

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
	CU_ASSERT_EQUAL(fi_av_insert(av, NULL, 0, NULL, 0, NULL), 0);
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
	struct fi_eq_err_entry err;
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
	memset(&err, 0, sizeof(err));
	CU_ASSERT_EQUAL(fi_eq_readerr(sock.eq, &err, 0), sizeof(err));
	CU_ASSERT_EQUAL(err.data, 1);
	CU_ASSERT_EQUAL(err.err, FI_EADDRNOTAVAIL);
	CU_ASSERT_PTR_EQUAL(err.context, &ctx);
	CU_ASSERT_PTR_EQUAL(err.fid, &av->fid);
	CU_ASSERT_EQUAL(fi_eq_readerr(sock.eq, &err, 0), sizeof(err));
	CU_ASSERT_EQUAL(err.data, 3);
	CU_ASSERT_EQUAL(fi_eq_readerr(sock.eq, &err, 0), -FI_EAGAIN);
	CU_ASSERT_EQUAL(fi_eq_read(sock.eq, &event, &entry, sizeof(entry), 0), sizeof(entry));
	CU_ASSERT_EQUAL(event, FI_AV_COMPLETE);
	CU_ASSERT_EQUAL(entry.data, 3);
	CU_ASSERT_PTR_EQUAL(entry.context, &ctx);
	CU_ASSERT_PTR_EQUAL(entry.fid, &av->fid);
	/* even for a count of 0 */
	CU_ASSERT_EQUAL(fi_av_insert(av, a, 0, fa, 0, &ctx), 0);
	CU_ASSERT_EQUAL(fi_eq_read(sock.eq, &event, &entry, sizeof(entry), 0), sizeof(entry));
	CU_ASSERT_EQUAL(event, FI_AV_COMPLETE);
	CU_ASSERT_EQUAL(entry.data, 0);
	/* and for insertsvc */
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "10.1.3.9", "7009", fa, 0, &ctx), 0);
	CU_ASSERT_EQUAL(fi_eq_read(sock.eq, &event, &entry, sizeof(entry), 0), sizeof(entry));
	CU_ASSERT_EQUAL(entry.data, 1);
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
	/* a range of hostnames needs a numeric suffix */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "localhost", 2, "5000", 1, fa, 0, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "localhost", 1, "5000", 2, fa, 0, NULL), 2);
	expect_lookup(av, fa[0], "127.0.0.1", 5000);
	expect_lookup(av, fa[1], "127.0.0.1", 5001);
	/* a service range beyond 65535 fails its entries */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.4.1", 1, "65535", 2, fa, FI_SYNC_ERR, errs),
			1);
	CU_ASSERT_EQUAL(errs[1], FI_EINVAL);
	/* bad arguments */
	CU_ASSERT_EQUAL(fi_av_insertsym(av, NULL, 1, "5000", 1, fa, 0, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.4.1", 0, "5000", 1, fa, 0, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.4.1", 1, "0", 1, fa, 0, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_insertsym(av, "10.1.4.1", 1, "x", 2, fa, 0, NULL), -FI_EINVAL);
	av_close(av);
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
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "fi_sockaddr_in://10.1.5.2:7201", "7201", &fa, 0,
					NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "fi_sockaddr_in://garbage", NULL, &fa, 0, NULL), 0);
	CU_ASSERT_EQUAL(fa, FI_ADDR_NOTAVAIL);
	CU_ASSERT_EQUAL(fi_av_insertsvc(av, "10.1.5.1", NULL, &fa, 0, NULL), -FI_EINVAL);
	av_close(av);
}

/* -- remove, lookup, straddr -- */

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

static CU_TestInfo av_tests[] = {
	{ "open: MAP, TABLE, UNSPEC", test_open_types },
	{ "open: bad attributes", test_open_bad_attr },
	{ "open: the domain's av_type", test_open_domain_type },
	{ "open: count is a hint", test_open_count_honoured },
	{ "TABLE indices in insertion order, lowest unused", test_table_order },
	{ "MAP handles carry a generation", test_map_generation },
	{ "sync insert: partial failure, FI_SYNC_ERR", test_partial_failure_sync },
	{ "insert: bad input", test_insert_bad_input },
	{ "FI_EVENT inserts", test_event_inserts },
	{ "insertsym: the fi_av(3) example", test_insertsym_example },
	{ "insertsym: hostnames, ranges, bad input", test_insertsym_hostnames },
	{ "insertsvc", test_insertsvc },
	{ "remove: rules and reuse", test_remove_rules },
	{ "lookup: truncation and length", test_lookup_truncation },
	{ "straddr: truncation and length", test_straddr },
	{ "fi_rx_addr", test_rx_addr },
	{ "FI_ADDR_STR domain", test_addr_str_domain },
	{ "FI_ADDR_DPDK domain", test_addr_dpdk_domain },
	{ "named AV shared by opens", test_named_av },
	{ "named AV capacity", test_named_av_capacity },
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
