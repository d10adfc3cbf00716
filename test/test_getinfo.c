/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The fi_getinfo(3) hint matrix: every rule the provider implements, with a
 * case it must accept and one it must refuse. Two net_null ports on two
 * networks (10.0.0.0/24 and 10.0.1.0/24) give two domains on two fabrics.
 */

#include <arpa/inet.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_domain.h>
#include <rdma/providers/fi_prov.h>

#include "fi_ext_dpdk.h"
#include "test_util.h"

#define VER		FI_VERSION(1, 17)
#define PORT0		"net_null0"
#define PORT1		"net_null1"
#define FABRIC0		"10.0.0.0/24"
#define FABRIC1		"10.0.1.0/24"
#define CORE_PROV_ONLY	(1ULL << 59)

#define TX_SIDE		(FI_MSG | FI_RMA | FI_TAGGED | FI_ATOMIC | FI_MULTICAST | \
			 FI_NAMED_RX_CTX | FI_HMEM | FI_COLLECTIVE | FI_SEND | FI_READ | \
			 FI_WRITE | FI_TRIGGER | FI_FENCE | FI_RMA_PMEM)
#define RX_SIDE		(FI_MSG | FI_RMA | FI_TAGGED | FI_ATOMIC | FI_DIRECTED_RECV | \
			 FI_VARIABLE_MSG | FI_HMEM | FI_COLLECTIVE | FI_RECV | \
			 FI_REMOTE_READ | FI_REMOTE_WRITE | FI_RMA_PMEM | FI_SOURCE | \
			 FI_SOURCE_ERR | FI_RMA_EVENT | FI_MULTI_RECV | FI_TRIGGER)
#define RMA_MODS	(FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE)

static struct fi_info *hints;
static struct fi_info *info;

static void
case_setup(void)
{
	hints = fi_allocinfo();
	info = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(hints);
}

static void
case_teardown(void)
{
	fi_freeinfo(hints);
	fi_freeinfo(info);
	hints = info = NULL;
}

/* The sizes and limits fi_getinfo(3) returns at least as large as asked. */
#define EP_SIZES(X)	X(max_msg_size) X(max_order_raw_size) X(max_order_war_size) \
			X(max_order_waw_size) X(tx_ctx_cnt) X(rx_ctx_cnt)
#define TX_SIZES(X)	X(inject_size) X(size) X(iov_limit) X(rma_iov_limit)
#define RX_SIZES(X)	X(size) X(iov_limit) X(total_buffered_recv)
#define DOMAIN_SIZES(X)	X(mr_key_size) X(cq_data_size) X(cq_cnt) X(ep_cnt) X(tx_ctx_cnt) \
			X(rx_ctx_cnt) X(max_ep_tx_ctx) X(max_ep_rx_ctx) X(cntr_cnt) \
			X(mr_iov_limit) X(mr_cnt)

#define COVERS(attr, f) do { \
	if (hints->attr->f != 0 && cur->attr->f < hints->attr->f) \
		CU_FAIL(#attr "->" #f " returned below the value asked for"); \
} while (0);
#define EP_COVERS(f)		COVERS(ep_attr, f)
#define TX_COVERS(f)		COVERS(tx_attr, f)
#define RX_COVERS(f)		COVERS(rx_attr, f)
#define DOMAIN_COVERS(f)	COVERS(domain_attr, f)

static void
check_outputs_cover_hints(void)
{
	const struct fi_info *cur;

	for (cur = info; cur != NULL; cur = cur->next) {
		EP_SIZES(EP_COVERS)
		TX_SIZES(TX_COVERS)
		RX_SIZES(RX_COVERS)
		DOMAIN_SIZES(DOMAIN_COVERS)
	}
}

static int
gi(const char *node, const char *service, uint64_t flags)
{
	int ret;

	fi_freeinfo(info);
	info = NULL;
	ret = test_getinfo(VER, node, service, flags, hints, &info);
	if (ret == 0)
		check_outputs_cover_hints();
	return ret;
}

static void
expect_nodata(void)
{
	CU_ASSERT_EQUAL(gi(NULL, NULL, 0), -FI_ENODATA);
	CU_ASSERT_PTR_NULL(info);
}

/* Entries, n of them unless n is 0; the test stops otherwise. */
static void
expect_entries(int n)
{
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	if (n != 0)
		CU_ASSERT_EQUAL(test_info_count(info), n);
}

/* A hint the provider meets (gi() checks what comes back covers it), then
 * one it cannot; the hint is left at 0. */
#define ACCEPT_REFUSE(field, ok, bad) do { \
	(field) = (ok); \
	CU_ASSERT_EQUAL(gi(NULL, NULL, 0), 0); \
	(field) = (bad); \
	expect_nodata(); \
	(field) = 0; \
} while (0)

static const struct sockaddr_in *
sin_of(const void *addr)
{
	return addr;
}

static uint32_t
ip(const char *s)
{
	return inet_addr(s);
}

/* -- no hints -- */

static void
test_null_hints(void)
{
	struct fi_info *cur;

	CU_ASSERT_EQUAL_FATAL(fi_getinfo(VER, NULL, NULL, 0, NULL, &info), 0);
	/* other providers answer too; ours come as RDM then DGRAM per port */
	for (cur = info; cur != NULL; cur = cur->next) {
		if (strcmp(cur->fabric_attr->prov_name, "dpdk") != 0)
			continue;
		CU_ASSERT(cur->ep_attr->type == FI_EP_RDM || cur->ep_attr->type == FI_EP_DGRAM ||
			  cur->ep_attr->type == FI_EP_MSG);
		CU_ASSERT_EQUAL(cur->domain_attr->control_progress, FI_PROGRESS_MANUAL);
		CU_ASSERT_EQUAL(cur->domain_attr->data_progress, FI_PROGRESS_MANUAL);
		CU_ASSERT_PTR_NOT_NULL(cur->src_addr);
		CU_ASSERT_PTR_NOT_NULL(cur->nic);
	}
}

static void
test_order_and_count(void)
{
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL_FATAL(test_info_count(info), 6);
	CU_ASSERT_STRING_EQUAL(info->domain_attr->name, PORT0);
	CU_ASSERT_EQUAL(info->ep_attr->type, FI_EP_RDM);
	CU_ASSERT_EQUAL(info->next->ep_attr->type, FI_EP_DGRAM);
	CU_ASSERT_EQUAL(info->next->next->ep_attr->type, FI_EP_MSG);
	CU_ASSERT_STRING_EQUAL(info->next->next->next->domain_attr->name, PORT1);
	CU_ASSERT_EQUAL(info->next->next->next->ep_attr->type, FI_EP_RDM);
	CU_ASSERT_STRING_EQUAL(info->fabric_attr->name, FABRIC0);
	CU_ASSERT_STRING_EQUAL(info->next->next->next->fabric_attr->name, FABRIC1);
	CU_ASSERT_STRING_EQUAL(info->fabric_attr->prov_name, "dpdk");
}

/* -- capabilities -- */

static void
test_caps_zero_gives_all(void)
{
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT((info->caps & (FI_MSG | FI_TAGGED | FI_RMA | RMA_MODS)) ==
		  (FI_MSG | FI_TAGGED | FI_RMA | RMA_MODS));
	CU_ASSERT((info->next->caps & (FI_TAGGED | FI_RMA)) == 0);
}

static void
test_caps_primary_only_as_asked(void)
{
	hints->caps = FI_MSG;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 6);
	/* FI_MSG alone implies both directions; no other primary appears */
	CU_ASSERT((info->caps & (FI_SEND | FI_RECV)) == (FI_SEND | FI_RECV));
	CU_ASSERT((info->caps & (FI_TAGGED | FI_RMA | FI_DIRECTED_RECV)) == 0);
	/* expensive secondaries only on request */
	CU_ASSERT((info->caps & (FI_SOURCE | FI_RMA_EVENT)) == 0);
	CU_ASSERT((info->caps & (FI_LOCAL_COMM | FI_REMOTE_COMM)) ==
		  (FI_LOCAL_COMM | FI_REMOTE_COMM));
}

static void
test_caps_modifier_restricts(void)
{
	hints->caps = FI_MSG | FI_SEND;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(((info->caps) & (FI_SEND)) != 0);
	CU_ASSERT(((info->caps) & (FI_RECV)) == 0);
	CU_ASSERT(((info->rx_attr->caps) & (FI_RECV)) == 0);
}

static void
test_caps_rma_implies_modifiers(void)
{
	struct fi_info *cur;
	int n;

	hints->caps = FI_RMA;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 4);	/* RDM and MSG */
	CU_ASSERT_EQUAL(info->ep_attr->type, FI_EP_RDM);
	CU_ASSERT((info->caps & RMA_MODS) == RMA_MODS);
	hints->caps = FI_RMA | FI_READ;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT((info->caps & RMA_MODS) == FI_READ);
	/* atomics likewise: RDM and MSG, with their modifiers, and not RMA unasked */
	hints->caps = FI_ATOMIC;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 4);
	CU_ASSERT_EQUAL(info->ep_attr->type, FI_EP_RDM);
	for (cur = info, n = 0; cur != NULL; cur = cur->next) {
		n += cur->ep_attr->type == FI_EP_MSG;
		CU_ASSERT((cur->caps & (FI_ATOMIC | FI_RMA)) == FI_ATOMIC);
	}
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT((info->caps & RMA_MODS) == RMA_MODS);
	CU_ASSERT((info->caps & (FI_ATOMIC | FI_RMA)) == FI_ATOMIC);
	CU_ASSERT((info->tx_attr->caps & FI_ATOMIC) && (info->rx_attr->caps & FI_ATOMIC));
	CU_ASSERT((info->tx_attr->msg_order & FI_ORDER_ATOMIC_WAW) != 0);
	hints->caps = FI_ATOMIC | FI_REMOTE_WRITE;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT((info->caps & RMA_MODS) == FI_REMOTE_WRITE);
	hints->ep_attr->type = FI_EP_DGRAM;
	hints->caps = FI_ATOMIC;
	expect_nodata();
}

/* fi_getinfo(3): a modifier limits a primary capability the hints select;
 * the provider may not add that primary (only those selected are enabled). */
static void
test_caps_modifier_needs_primary(void)
{
	static const uint64_t refused[] = {
		FI_READ, FI_WRITE, FI_REMOTE_READ, FI_REMOTE_WRITE,	/* need FI_RMA/FI_ATOMIC */
		FI_MSG | FI_READ,
		FI_SEND, FI_RECV, FI_RMA | FI_SEND,		/* need FI_MSG/FI_TAGGED */
		FI_MSG | FI_RMA_EVENT,				/* needs a remote RMA modifier */
		FI_RMA | FI_READ | FI_RMA_EVENT,
		FI_RMA | FI_READ | FI_WRITE | FI_RMA_EVENT,
	};
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		hints->caps = refused[i];
		CU_ASSERT_EQUAL(gi(NULL, NULL, 0), -FI_ENODATA);
		CU_ASSERT_PTR_NULL(info);
	}
	/* with their primary, they restrict it */
	hints->caps = FI_TAGGED | FI_RECV;
	expect_entries(0);
	CU_ASSERT_EQUAL(info->caps & (FI_SEND | FI_RECV), FI_RECV);
	CU_ASSERT_EQUAL(info->caps & FI_MSG, 0);
	hints->caps = FI_RMA | FI_REMOTE_WRITE | FI_RMA_EVENT;
	expect_entries(0);
	CU_ASSERT_EQUAL(info->caps & RMA_MODS, FI_REMOTE_WRITE);
	CU_ASSERT(((info->caps) & (FI_RMA_EVENT)) != 0);
	CU_ASSERT(((info->rx_attr->caps) & (FI_RMA_EVENT)) != 0);
}

static void
test_caps_tagged_rdm_only(void)
{
	hints->caps = FI_TAGGED | FI_DIRECTED_RECV;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 2);
	CU_ASSERT_EQUAL(info->ep_attr->type, FI_EP_RDM);
	CU_ASSERT(((info->rx_attr->caps) & (FI_DIRECTED_RECV)) != 0);
}

static void
test_caps_unsupported_refused(void)
{
	static const uint64_t refused[] = {
		FI_MULTICAST, FI_HMEM, FI_COLLECTIVE,
		FI_VARIABLE_MSG, FI_FENCE, FI_RMA_PMEM,
		FI_MSG | FI_SOURCE | FI_SOURCE_ERR,	/* paired as required, not offered */
	};
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		hints->caps = refused[i];
		CU_ASSERT_EQUAL(gi(NULL, NULL, 0), -FI_ENODATA);
	}
}

static void
test_caps_secondary_on_request(void)
{
	hints->caps = FI_MSG | FI_SOURCE;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(((info->caps) & (FI_SOURCE)) != 0);
	CU_ASSERT(((info->rx_attr->caps) & (FI_SOURCE)) != 0);
	hints->caps = FI_RMA | FI_RMA_EVENT;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(((info->caps) & (FI_RMA_EVENT)) != 0);
	hints->caps = FI_MSG | FI_SHARED_AV;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(((info->domain_attr->caps) & (FI_SHARED_AV)) != 0);
	/* and only then */
	hints->caps = FI_MSG;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(((info->domain_attr->caps) & (FI_SHARED_AV)) == 0);
}

/* fi_getinfo(3): FI_TRIGGER is a secondary capability, granted when asked
 * for; fi_trigger(3): only an endpoint created with it takes triggered
 * operations. Offered by RDM endpoints, not DGRAM ones. */
static void
test_caps_trigger_rdm_on_request(void)
{
	struct fi_info *cur;

	hints->caps = FI_MSG | FI_TRIGGER;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	for (cur = info; cur != NULL; cur = cur->next) {
		CU_ASSERT_EQUAL(cur->ep_attr->type, FI_EP_RDM);
		CU_ASSERT(((cur->caps) & (FI_TRIGGER)) != 0);
		CU_ASSERT(((cur->tx_attr->caps) & (FI_TRIGGER)) != 0);
		CU_ASSERT(((cur->rx_attr->caps) & (FI_TRIGGER)) != 0);
	}
	hints->ep_attr->type = FI_EP_DGRAM;
	expect_nodata();
	/* not asked for, not given */
	hints->ep_attr->type = FI_EP_RDM;
	hints->caps = FI_MSG | FI_TAGGED | FI_RMA;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(((info->caps) & (FI_TRIGGER)) == 0);
	CU_ASSERT(((info->tx_attr->caps) & (FI_TRIGGER)) == 0);
}

static void
test_caps_direction_pure(void)
{
	struct fi_info *cur;

	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	for (cur = info; cur != NULL; cur = cur->next) {
		CU_ASSERT_EQUAL(cur->tx_attr->caps & ~TX_SIDE, 0);
		CU_ASSERT_EQUAL(cur->rx_attr->caps & ~RX_SIDE, 0);
		CU_ASSERT_EQUAL(cur->rx_attr->caps & ~cur->caps, 0);
		CU_ASSERT_EQUAL(cur->tx_attr->caps & ~cur->caps, 0);
		CU_ASSERT_EQUAL(cur->domain_attr->caps & ~(FI_LOCAL_COMM | FI_REMOTE_COMM |
							   FI_SHARED_AV), 0);
	}
	/* wrong-direction bits in tx/rx hints are tolerated */
	hints->caps = FI_MSG;
	hints->tx_attr->caps = FI_MSG | FI_RECV;
	hints->rx_attr->caps = FI_MSG | FI_SEND;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(((info->tx_attr->caps) & (FI_RECV)) == 0);
	CU_ASSERT(((info->rx_attr->caps) & (FI_SEND)) == 0);
	hints->tx_attr->caps = FI_ATOMIC;
	CU_ASSERT_EQUAL(gi(NULL, NULL, 0), -FI_ENODATA);
}

/* -- modes -- */

static void
test_mode_none_required(void)
{
	hints->mode = 0;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->mode, 0);
	hints->mode = ~0ULL;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->mode, 0);
	CU_ASSERT_EQUAL(info->tx_attr->mode, 0);
	CU_ASSERT_EQUAL(info->rx_attr->mode, 0);
	CU_ASSERT_EQUAL(info->domain_attr->mode, 0);
}

/* -- endpoint attributes -- */

static void
test_ep_type(void)
{
	hints->ep_attr->type = FI_EP_DGRAM;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 2);;
	CU_ASSERT_EQUAL(info->ep_attr->type, FI_EP_DGRAM);
	CU_ASSERT_EQUAL(info->ep_attr->protocol, FI_PROTO_UDP);
	/* connected endpoints: RDM's protocol, its capabilities but those of an AV */
	hints->ep_attr->type = FI_EP_MSG;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 2);
	CU_ASSERT_EQUAL(info->ep_attr->type, FI_EP_MSG);
	CU_ASSERT((info->caps & (FI_MSG | FI_TAGGED | FI_RMA)) == (FI_MSG | FI_TAGGED | FI_RMA));
	CU_ASSERT((info->tx_attr->msg_order & FI_ORDER_SAS) != 0);
	hints->caps = FI_SOURCE;
	expect_nodata();
	hints->caps = FI_DIRECTED_RECV;
	expect_nodata();
	hints->caps = 0;
	hints->ep_attr->type = FI_EP_SOCK_STREAM;
	expect_nodata();
}

static void
test_ep_protocol(void)
{
	hints->ep_attr->protocol = FI_PROTO_UDP;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->ep_attr->type, FI_EP_DGRAM);
	hints->ep_attr->protocol = FI_PROTO_SOCK_TCP;
	expect_nodata();
	hints->ep_attr->protocol = FI_PROTO_UNSPEC;
	hints->ep_attr->protocol_version = 99;
	expect_nodata();
}

static void
test_ep_max_msg_size(void)
{
	hints->ep_attr->type = FI_EP_RDM;
	hints->ep_attr->max_msg_size = 64 << 20;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(info->ep_attr->max_msg_size >= (64 << 20));
	hints->ep_attr->max_msg_size = (size_t)1 << 40;
	expect_nodata();
	/* DGRAM is bounded by the MTU */
	hints->ep_attr->type = FI_EP_DGRAM;
	hints->ep_attr->max_msg_size = 2000;
	expect_nodata();
	hints->ep_attr->max_msg_size = 1000;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(info->ep_attr->max_msg_size >= 1000 && info->ep_attr->max_msg_size < 1500);
}

static void
test_ep_contexts_and_keys(void)
{
	hints->ep_attr->tx_ctx_cnt = 1;
	hints->ep_attr->rx_ctx_cnt = 1;
	CU_ASSERT_EQUAL(gi(NULL, NULL, 0), 0);
	/* a scalable endpoint's: as many as asked, up to the port's queues (at
	 * most 64 each way) */
	hints->ep_attr->tx_ctx_cnt = 2;
	hints->ep_attr->rx_ctx_cnt = 3;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(info->ep_attr->tx_ctx_cnt == 2 && info->ep_attr->rx_ctx_cnt == 3);
	hints->ep_attr->rx_ctx_cnt = 1;
	hints->ep_attr->tx_ctx_cnt = 65;
	expect_nodata();
	/* a shared context's endpoint (fi_stx_context, fi_srx_context) */
	hints->ep_attr->tx_ctx_cnt = FI_SHARED_CONTEXT;
	hints->ep_attr->rx_ctx_cnt = FI_SHARED_CONTEXT;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(info->ep_attr->tx_ctx_cnt == FI_SHARED_CONTEXT &&
		  info->ep_attr->rx_ctx_cnt == FI_SHARED_CONTEXT);
	hints->ep_attr->rx_ctx_cnt = 1;
	hints->ep_attr->tx_ctx_cnt = 0;
	hints->ep_attr->auth_key_size = 8;
	expect_nodata();
}

static void
test_ep_max_order(void)
{
	struct fi_info *cur;

	/* without RMA there is nothing to order: every entry, at the size asked */
	hints->caps = FI_MSG;
	hints->ep_attr->max_order_raw_size = 64;
	hints->ep_attr->max_order_war_size = 32;
	hints->ep_attr->max_order_waw_size = 16;
	expect_entries(6);
	for (cur = info; cur != NULL; cur = cur->next) {
		CU_ASSERT_EQUAL(cur->caps & (FI_RMA | FI_ATOMIC), 0);
		CU_ASSERT_EQUAL(cur->ep_attr->max_order_raw_size, 64);
		CU_ASSERT_EQUAL(cur->ep_attr->max_order_war_size, 32);
		CU_ASSERT_EQUAL(cur->ep_attr->max_order_waw_size, 16);
	}
	/* with RMA: read after write and write after write hold for any size
	 * (returned as asked), write after read for none */
	hints->caps = FI_RMA;
	hints->ep_attr->max_order_raw_size = 0;
	hints->ep_attr->max_order_war_size = 0;
	hints->ep_attr->max_order_waw_size = 0;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->ep_attr->max_order_raw_size, SIZE_MAX);
	CU_ASSERT_EQUAL(info->ep_attr->max_order_waw_size, SIZE_MAX);
	CU_ASSERT_EQUAL(info->ep_attr->max_order_war_size, 0);
	hints->ep_attr->max_order_raw_size = SIZE_MAX;
	hints->ep_attr->max_order_waw_size = SIZE_MAX;
	CU_ASSERT_EQUAL(gi(NULL, NULL, 0), 0);
	hints->ep_attr->max_order_raw_size = 0;
	hints->ep_attr->max_order_waw_size = 0;
	ACCEPT_REFUSE(hints->ep_attr->max_order_war_size, 0, 1);
}

/* Tags are 64 opaque bits: any field layout is honoured as asked; there is
 * no tag on datagrams. */
static void
test_ep_tag_format(void)
{
	hints->caps = FI_TAGGED;
	hints->ep_attr->mem_tag_format = 0xffff0000ffff0000ULL;
	expect_entries(0);
	CU_ASSERT_EQUAL(info->ep_attr->mem_tag_format, 0xffff0000ffff0000ULL);
	hints->ep_attr->mem_tag_format = 0x30ff;
	expect_entries(0);
	CU_ASSERT_EQUAL(info->ep_attr->mem_tag_format, 0x30ff);
	hints->ep_attr->type = FI_EP_DGRAM;
	expect_nodata();
}

/* -- transmit and receive attributes -- */

static void
test_tx_rx_sizes_narrowed(void)
{
	hints->tx_attr->size = 256;
	hints->rx_attr->size = 128;
	hints->tx_attr->iov_limit = 2;
	hints->tx_attr->inject_size = 64;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->tx_attr->size, 256);
	CU_ASSERT_EQUAL(info->rx_attr->size, 128);
	CU_ASSERT_EQUAL(info->tx_attr->iov_limit, 2);
	CU_ASSERT_EQUAL(info->tx_attr->inject_size, 64);
}

static void
test_tx_rx_limits_refused(void)
{
	hints->tx_attr->size = 1 << 20;
	expect_nodata();
	hints->tx_attr->size = 0;
	hints->rx_attr->iov_limit = 64;
	expect_nodata();
	hints->rx_attr->iov_limit = 0;
	hints->tx_attr->inject_size = 1 << 16;
	expect_nodata();
	hints->tx_attr->inject_size = 0;
	hints->rx_attr->total_buffered_recv = (size_t)1 << 40;
	expect_nodata();
}

static void
test_tx_rma_iov_limit(void)
{
	hints->tx_attr->rma_iov_limit = 1;
	expect_entries(0);
	/* datagrams have no RMA: RDM only */
	CU_ASSERT_EQUAL(test_info_count(info), 4);
	CU_ASSERT_EQUAL(info->ep_attr->type, FI_EP_RDM);
	CU_ASSERT_EQUAL(info->tx_attr->rma_iov_limit, 1);
	ACCEPT_REFUSE(hints->tx_attr->rma_iov_limit, 1, 2);
	hints->ep_attr->type = FI_EP_DGRAM;
	ACCEPT_REFUSE(hints->tx_attr->rma_iov_limit, 0, 1);
}

static void
test_tx_rx_order(void)
{
	hints->tx_attr->msg_order = FI_ORDER_SAS;
	hints->rx_attr->msg_order = FI_ORDER_SAS;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	/* datagrams are not ordered: only RDM entries */
	CU_ASSERT_EQUAL(test_info_count(info), 4);
	CU_ASSERT(((info->tx_attr->msg_order) & (FI_ORDER_SAS)) != 0);
	/* fi_endpoint(3): every RMA, atomic and message order an RDM endpoint
	 * keeps (one sequence per peer) */
	hints->tx_attr->msg_order = FI_ORDER_STRICT | FI_ORDER_RMA_RAR | FI_ORDER_RMA_RAW |
				    FI_ORDER_RMA_WAR | FI_ORDER_RMA_WAW | FI_ORDER_ATOMIC_RAR |
				    FI_ORDER_ATOMIC_RAW | FI_ORDER_ATOMIC_WAR |
				    FI_ORDER_ATOMIC_WAW;
	hints->rx_attr->msg_order = hints->tx_attr->msg_order;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 4);
	CU_ASSERT_EQUAL(info->tx_attr->msg_order, hints->tx_attr->msg_order);
	CU_ASSERT_EQUAL(info->rx_attr->msg_order, hints->tx_attr->msg_order);
	/* datagrams keep no order, atomic or other */
	hints->tx_attr->msg_order = FI_ORDER_ATOMIC_RAW;
	hints->ep_attr->type = FI_EP_DGRAM;
	expect_nodata();
	hints->ep_attr->type = FI_EP_UNSPEC;
	hints->tx_attr->msg_order = FI_ORDER_SAS;
	hints->tx_attr->comp_order = FI_ORDER_STRICT;
	expect_nodata();
}

static void
test_tx_rx_op_flags(void)
{
	hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 4);	/* not for datagrams */
	CU_ASSERT_EQUAL(info->tx_attr->op_flags, FI_DELIVERY_COMPLETE);
	hints->tx_attr->op_flags = FI_INJECT | FI_COMPLETION;
	hints->rx_attr->op_flags = FI_MULTI_RECV;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->rx_attr->op_flags, FI_MULTI_RECV);
	hints->tx_attr->op_flags = FI_FENCE;
	expect_nodata();
}

/*
 * fi_endpoint(3) "Traffic Class": every label and every DSCP value is a
 * class an application may ask for, and gets back as asked; what is neither
 * is refused.
 */
static void
tclass_rules(bool domain)
{
	uint32_t *field = domain ? &hints->domain_attr->tclass : &hints->tx_attr->tclass;
	static const uint32_t classes[] = {
		FI_TC_UNSPEC, FI_TC_BEST_EFFORT, FI_TC_LOW_LATENCY, FI_TC_DEDICATED_ACCESS,
		FI_TC_BULK_DATA, FI_TC_SCAVENGER, FI_TC_NETWORK_CTRL, FI_TC_DSCP | 0,
		FI_TC_DSCP | 26, FI_TC_DSCP | 63,
	};
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		*field = classes[i];
		CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
		CU_ASSERT_EQUAL(domain ? info->domain_attr->tclass : info->tx_attr->tclass,
				classes[i]);
	}
	*field = FI_TC_DSCP | 64;		/* six bits only */
	expect_nodata();
	*field = FI_TC_NETWORK_CTRL + 1;	/* no such label */
	expect_nodata();
	*field = 0x1234;
	expect_nodata();
	*field = FI_TC_UNSPEC;
}

static void
test_tclass(void)
{
	tclass_rules(false);
}

/* -- domain attributes -- */

/* fi_domain(3): FI_THREAD_UNSPEC gets the most parallel model; a model asked
 * for comes back exactly, on every entry, and opens a domain. */
static void
test_threading(void)
{
	static const enum fi_threading levels[] = {
		FI_THREAD_SAFE, FI_THREAD_FID, FI_THREAD_DOMAIN, FI_THREAD_COMPLETION,
		FI_THREAD_ENDPOINT,
	};
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fi_info *cur;
	size_t i;

	expect_entries(0);
	for (cur = info; cur != NULL; cur = cur->next)
		CU_ASSERT_EQUAL(cur->domain_attr->threading, FI_THREAD_SAFE);
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		hints->domain_attr->threading = levels[i];
		expect_entries(6);
		for (cur = info; cur != NULL; cur = cur->next)
			CU_ASSERT_EQUAL(cur->domain_attr->threading, levels[i]);
		CU_ASSERT_EQUAL_FATAL(fi_fabric(info->fabric_attr, &fabric, NULL), 0);
		CU_ASSERT_EQUAL(fi_domain(fabric, info, &domain, NULL), 0);
		CU_ASSERT_EQUAL(fi_close(&domain->fid), 0);
		CU_ASSERT_EQUAL(fi_close(&fabric->fid), 0);
	}
	hints->domain_attr->threading = (enum fi_threading)99;
	expect_nodata();
}

static void
test_progress(void)
{
	hints->domain_attr->data_progress = FI_PROGRESS_MANUAL;
	hints->domain_attr->control_progress = FI_PROGRESS_UNSPEC;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->domain_attr->control_progress, FI_PROGRESS_MANUAL);
	hints->domain_attr->data_progress = FI_PROGRESS_AUTO;
	expect_nodata();
	hints->domain_attr->data_progress = FI_PROGRESS_UNSPEC;
	hints->domain_attr->control_progress = FI_PROGRESS_AUTO;
	expect_nodata();
}

static void
test_resource_mgmt_and_av_type(void)
{
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->domain_attr->resource_mgmt, FI_RM_ENABLED);
	CU_ASSERT_EQUAL(info->domain_attr->av_type, FI_AV_UNSPEC);
	hints->domain_attr->resource_mgmt = FI_RM_DISABLED;
	hints->domain_attr->av_type = FI_AV_TABLE;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->domain_attr->resource_mgmt, FI_RM_DISABLED);
	CU_ASSERT_EQUAL(info->domain_attr->av_type, FI_AV_TABLE);
	hints->domain_attr->av_type = (enum fi_av_type)7;
	expect_nodata();
	hints->domain_attr->av_type = FI_AV_UNSPEC;
	ACCEPT_REFUSE(hints->domain_attr->resource_mgmt, FI_RM_ENABLED,
		      (enum fi_resource_mgmt)7);
}

static void
test_mr_mode(void)
{
	hints->caps = FI_MSG | FI_RMA;
	hints->domain_attr->mr_mode = 0;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->domain_attr->mr_mode, 0);
	/* the application's addressing and key choices are kept, nothing else */
	hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED |
				      FI_MR_PROV_KEY | FI_MR_ENDPOINT | FI_MR_RAW;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->domain_attr->mr_mode, FI_MR_VIRT_ADDR | FI_MR_PROV_KEY);
	/* no RMA: no remote addressing to speak of */
	hints->caps = FI_MSG;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->domain_attr->mr_mode, 0);
	/* legacy values stand alone */
	hints->caps = FI_RMA;
	hints->domain_attr->mr_mode = FI_MR_BASIC;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->domain_attr->mr_mode, FI_MR_BASIC);
	hints->domain_attr->mr_mode = FI_MR_SCALABLE;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->domain_attr->mr_mode, FI_MR_SCALABLE);
	hints->domain_attr->mr_mode = FI_MR_BASIC | FI_MR_LOCAL;
	expect_nodata();
}

static void
test_mr_mode_old_api(void)
{
	hints->caps = FI_RMA;
	hints->domain_attr->mr_mode = FI_MR_UNSPEC;
	CU_ASSERT_EQUAL_FATAL(test_getinfo(FI_VERSION(1, 4), NULL, NULL, 0, hints, &info), 0);
	CU_ASSERT_EQUAL(info->domain_attr->mr_mode, FI_MR_SCALABLE);
	fi_freeinfo(info);
	info = NULL;
	hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR;
	CU_ASSERT_EQUAL(test_getinfo(FI_VERSION(1, 4), NULL, NULL, 0, hints, &info),
			-FI_ENODATA);
}

static void
test_domain_limits(void)
{
	hints->domain_attr->cq_data_size = 8;
	hints->domain_attr->mr_key_size = 8;
	hints->domain_attr->mr_iov_limit = 1;
	hints->domain_attr->cq_cnt = 16;
	hints->domain_attr->ep_cnt = 16;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT(info->domain_attr->cq_data_size >= 8);
	CU_ASSERT(info->domain_attr->cq_cnt >= 16);
	CU_ASSERT(info->domain_attr->mr_iov_limit >= 1);
	hints->domain_attr->cq_data_size = 16;
	expect_nodata();
	hints->domain_attr->cq_data_size = 0;
	hints->domain_attr->mr_key_size = 16;
	expect_nodata();
	hints->domain_attr->mr_key_size = 0;
	hints->domain_attr->max_ep_stx_ctx = 257;	/* endpoints of a shared context */
	expect_nodata();
	hints->domain_attr->max_ep_stx_ctx = 0;
	hints->domain_attr->mr_iov_limit = 1024;
	expect_nodata();
	hints->domain_attr->mr_iov_limit = 0;
	hints->domain_attr->cntr_cnt = (size_t)1 << 30;
	expect_nodata();
}

static void
test_domain_auth_key(void)
{
	expect_entries(0);
	CU_ASSERT_EQUAL(info->domain_attr->auth_key_size, 0);
	CU_ASSERT_PTR_NULL(info->domain_attr->auth_key);
	hints->domain_attr->auth_key = calloc(1, 8);
	CU_ASSERT_PTR_NOT_NULL_FATAL(hints->domain_attr->auth_key);
	hints->domain_attr->auth_key_size = 8;
	expect_nodata();
}

static void
test_domain_tclass(void)
{
	tclass_rules(true);
}

static void
test_domain_ep_contexts(void)
{
	/* net_null offers more queue pairs than the provider's 64 contexts */
	ACCEPT_REFUSE(hints->domain_attr->max_ep_tx_ctx, 64, 65);
	ACCEPT_REFUSE(hints->domain_attr->max_ep_rx_ctx, 64, 65);
	/* a shared context takes as many endpoints as the domain has */
	ACCEPT_REFUSE(hints->domain_attr->max_ep_srx_ctx, 256, 257);
	ACCEPT_REFUSE(hints->domain_attr->max_ep_stx_ctx, 256, 257);
}

static void
test_domain_name_filter(void)
{
	hints->domain_attr->name = strdup(PORT1);
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 3);
	CU_ASSERT_STRING_EQUAL(info->domain_attr->name, PORT1);
	CU_ASSERT_STRING_EQUAL(info->next->domain_attr->name, PORT1);
	free(hints->domain_attr->name);
	hints->domain_attr->name = strdup("net_none9");
	expect_nodata();
}

/* -- fabric attributes -- */

static void
test_fabric_name_filter(void)
{
	hints->fabric_attr->name = strdup(FABRIC1);
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 3);
	CU_ASSERT_STRING_EQUAL(info->domain_attr->name, PORT1);
	free(hints->fabric_attr->name);
	hints->fabric_attr->name = strdup("192.0.2.0/24");
	expect_nodata();
}

static void
test_fabric_prov_version(void)
{
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	hints->fabric_attr->prov_version = info->fabric_attr->prov_version;
	CU_ASSERT_EQUAL(gi(NULL, NULL, 0), 0);
	hints->fabric_attr->prov_version = FI_VERSION(99, 0);
	expect_nodata();
}

/* -- node, service, flags and addresses -- */

static void
test_src_addr_always(void)
{
	struct fi_info *cur;
	const struct sockaddr_in *sin;

	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	for (cur = info; cur != NULL; cur = cur->next) {
		CU_ASSERT_EQUAL(cur->addr_format, FI_SOCKADDR_IN);
		CU_ASSERT_EQUAL_FATAL(cur->src_addrlen, sizeof(struct sockaddr_in));
		sin = sin_of(cur->src_addr);
		CU_ASSERT_EQUAL(sin->sin_family, AF_INET);
		CU_ASSERT_EQUAL(sin->sin_addr.s_addr,
				strcmp(cur->domain_attr->name, PORT0) == 0 ? ip("10.0.0.1") :
									      ip("10.0.1.1"));
		CU_ASSERT_PTR_NULL(cur->dest_addr);
		CU_ASSERT_EQUAL(cur->dest_addrlen, 0);
	}
}

static void
test_node_service_dest(void)
{
	const struct sockaddr_in *sin;

	CU_ASSERT_EQUAL_FATAL(gi("10.0.1.5", "7000", 0), 0);
	/* the port on the destination's network comes first */
	CU_ASSERT_STRING_EQUAL(info->domain_attr->name, PORT1);
	CU_ASSERT_EQUAL(test_info_count(info), 6);
	CU_ASSERT_EQUAL_FATAL(info->dest_addrlen, sizeof(struct sockaddr_in));
	sin = sin_of(info->dest_addr);
	CU_ASSERT_EQUAL(sin->sin_addr.s_addr, ip("10.0.1.5"));
	CU_ASSERT_EQUAL(ntohs(sin->sin_port), 7000);
	CU_ASSERT_PTR_NOT_NULL(info->src_addr);
}

static void
test_source_node_service(void)
{
	const struct sockaddr_in *sin;

	CU_ASSERT_EQUAL_FATAL(gi("10.0.0.1", "7001", FI_SOURCE), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 3);
	CU_ASSERT_STRING_EQUAL(info->domain_attr->name, PORT0);
	sin = sin_of(info->src_addr);
	CU_ASSERT_EQUAL(sin->sin_addr.s_addr, ip("10.0.0.1"));
	CU_ASSERT_EQUAL(ntohs(sin->sin_port), 7001);
	CU_ASSERT_PTR_NULL(info->dest_addr);
	/* a service alone binds every port to it */
	CU_ASSERT_EQUAL_FATAL(gi(NULL, "7002", FI_SOURCE), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 6);
	CU_ASSERT_EQUAL(ntohs(sin_of(info->next->next->next->src_addr)->sin_port), 7002);
	/* not an address of ours */
	CU_ASSERT_EQUAL(gi("10.9.9.9", "7001", FI_SOURCE), -FI_ENODATA);
	/* FI_SOURCE must name something: the provider's -FI_EINVAL reaches
	 * the application as libfabric's "no provider answered" */
	CU_ASSERT_EQUAL(gi(NULL, NULL, FI_SOURCE), -FI_ENODATA);
}

static void
test_unresolvable_node(void)
{
	CU_ASSERT_EQUAL(gi("no-such-host.invalid", "7000", 0), -FI_ENODATA);
	CU_ASSERT_EQUAL(gi("localhost", NULL, FI_NUMERICHOST), -FI_ENODATA);
	CU_ASSERT_EQUAL(gi("10.0.0.7", "no-such-service", 0), -FI_ENODATA);
	CU_ASSERT_EQUAL_FATAL(gi("10.0.0.7", NULL, FI_NUMERICHOST), 0);
	CU_ASSERT_EQUAL(ntohs(sin_of(info->dest_addr)->sin_port), 0);
}

static void
test_hint_addresses(void)
{
	struct sockaddr_in src = { .sin_family = AF_INET, .sin_port = htons(9000) };
	struct sockaddr_in dest = { .sin_family = AF_INET, .sin_port = htons(9001) };

	src.sin_addr.s_addr = ip("10.0.1.1");
	dest.sin_addr.s_addr = ip("10.0.1.2");
	hints->src_addr = malloc(sizeof(src));
	memcpy(hints->src_addr, &src, sizeof(src));
	hints->src_addrlen = sizeof(src);
	hints->dest_addr = malloc(sizeof(dest));
	memcpy(hints->dest_addr, &dest, sizeof(dest));
	hints->dest_addrlen = sizeof(dest);
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 3);
	CU_ASSERT_STRING_EQUAL(info->domain_attr->name, PORT1);
	CU_ASSERT_EQUAL(ntohs(sin_of(info->src_addr)->sin_port), 9000);
	CU_ASSERT_EQUAL(memcmp(info->dest_addr, &dest, sizeof(dest)), 0);
	/* a source address no port has */
	((struct sockaddr_in *)hints->src_addr)->sin_addr.s_addr = ip("10.0.5.1");
	expect_nodata();
	/* the wrong family is no address of ours */
	((struct sockaddr_in *)hints->src_addr)->sin_family = AF_INET6;
	expect_nodata();
}

static void
test_addr_str(void)
{
	hints->addr_format = FI_ADDR_STR;
	CU_ASSERT_EQUAL_FATAL(gi("fi_sockaddr_in://10.0.1.9:5000", NULL, 0), 0);
	CU_ASSERT_EQUAL(info->addr_format, FI_ADDR_STR);
	CU_ASSERT_STRING_EQUAL(info->src_addr, "fi_sockaddr_in://10.0.1.1:0");
	CU_ASSERT_EQUAL(info->src_addrlen, strlen("fi_sockaddr_in://10.0.1.1:0") + 1);
	CU_ASSERT_STRING_EQUAL(info->dest_addr, "fi_sockaddr_in://10.0.1.9:5000");
	/* an FI_ADDR_STR node takes no service (-FI_EINVAL, seen as -FI_ENODATA) */
	CU_ASSERT_EQUAL(gi("fi_sockaddr_in://10.0.1.9:5000", "5000", 0), -FI_ENODATA);
	/* another provider's address string */
	CU_ASSERT_EQUAL(gi("fi_addr_efa://[fe80::1]:1:2", NULL, 0), -FI_ENODATA);
	/* the string node works with binary formats too */
	hints->addr_format = FI_FORMAT_UNSPEC;
	CU_ASSERT_EQUAL_FATAL(gi("fi_sockaddr_in://10.0.1.9:5000", NULL, 0), 0);
	CU_ASSERT_EQUAL(info->addr_format, FI_SOCKADDR_IN);
	CU_ASSERT_EQUAL(ntohs(sin_of(info->dest_addr)->sin_port), 5000);
}

static void
test_addr_dpdk(void)
{
	const struct fi_dpdk_addr *src;
	static const uint8_t zero[6];

	hints->addr_format = FI_ADDR_DPDK;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->addr_format, FI_ADDR_DPDK);
	CU_ASSERT_EQUAL_FATAL(info->src_addrlen, sizeof(struct fi_dpdk_addr));
	src = info->src_addr;
	CU_ASSERT(memcmp(src->mac, zero, sizeof(zero)) != 0);
	CU_ASSERT_EQUAL(src->port, 0);
	/* a raw-Ethernet destination, and an IPv4 one it cannot express */
	CU_ASSERT_EQUAL_FATAL(gi("fi_addr_dpdk://[02:00:00:00:00:05]:7000", NULL, 0), 0);
	CU_ASSERT_EQUAL(((const struct fi_dpdk_addr *)info->dest_addr)->mac[5], 5);
	CU_ASSERT_EQUAL(ntohs(((const struct fi_dpdk_addr *)info->dest_addr)->port), 7000);
	CU_ASSERT_EQUAL(gi("10.0.0.9", "7000", 0), -FI_ENODATA);
	/* FI_ADDR_STR prints them as the provider's own URI */
	hints->addr_format = FI_ADDR_STR;
	CU_ASSERT_EQUAL_FATAL(gi("fi_addr_dpdk://[02:00:00:00:00:05]:7000", NULL, 0), 0);
	CU_ASSERT_STRING_EQUAL(info->dest_addr, "fi_addr_dpdk://[02:00:00:00:00:05]:7000");
	CU_ASSERT_EQUAL(strncmp(info->src_addr, "fi_addr_dpdk://[", 16), 0);
}

static void
test_addr_format_filter(void)
{
	hints->addr_format = FI_SOCKADDR;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(info->addr_format, FI_SOCKADDR_IN);
	hints->addr_format = FI_SOCKADDR_IN6;
	expect_nodata();
	hints->addr_format = FI_ADDR_EFA;
	expect_nodata();
}

static void
test_unknown_flags_tolerated(void)
{
	/* libfabric's core passes internal bits (1 << 58, 1 << 60, 1 << 61) */
	CU_ASSERT_EQUAL(gi(NULL, NULL, (1ULL << 58) | (1ULL << 60) | (1ULL << 61)), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 6);
}

static void
test_layering_needs_our_name(void)
{
	struct fi_info *cur;
	int ret;

	/* a utility provider asking for any core provider gets none of ours */
	hints->fabric_attr->prov_name = strdup("^ofi_rxd");
	ret = fi_getinfo(VER, NULL, NULL, CORE_PROV_ONLY, hints, &info);
	CU_ASSERT(ret == 0 || ret == -FI_ENODATA);
	for (cur = info; cur != NULL; cur = cur->next)
		CU_ASSERT(strstr(cur->fabric_attr->prov_name, "dpdk") == NULL);
	fi_freeinfo(info);
	info = NULL;
	/* named, as "-p 'dpdk;ofi_rxd'" makes ofi_rxd ask, it answers */
	free(hints->fabric_attr->prov_name);
	hints->fabric_attr->prov_name = strdup("dpdk;^ofi_rxd");
	CU_ASSERT_EQUAL(fi_getinfo(VER, NULL, NULL, CORE_PROV_ONLY, hints, &info), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 6);
}

static void
test_handle_copied(void)
{
	struct fid fake = { .fclass = FI_CLASS_PEP };

	hints->handle = &fake;
	CU_ASSERT_EQUAL_FATAL(gi(NULL, NULL, 0), 0);
	CU_ASSERT_PTR_EQUAL(info->handle, &fake);
	hints->handle = NULL;
}

/*
 * The provider's own answer, which libfabric's core turns into "no data"
 * for the application: a port scan that fails (here a malformed
 * FI_DPDK_IPV4) is an error, not "no match".
 */
static void
test_scan_error_not_nodata(void)
{
	struct fi_provider *(*ini)(void);
	struct fi_provider *prov;
	char *saved;
	void *lib;

	/* libfabric has loaded the provider: this is the same instance */
	lib = dlopen(DFI_TEST_PROVIDER_DIR "/libdpdk-fi.so", RTLD_NOW | RTLD_NOLOAD);
	CU_ASSERT_PTR_NOT_NULL_FATAL(lib);
	*(void **)&ini = dlsym(lib, "fi_prov_ini");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ini);
	prov = ini();
	CU_ASSERT_EQUAL(prov->getinfo(VER, NULL, NULL, 0, hints, &info), 0);
	fi_freeinfo(info);
	info = NULL;
	/* no match: no data */
	hints->domain_attr->name = strdup("net_none9");
	CU_ASSERT_EQUAL(prov->getinfo(VER, NULL, NULL, 0, hints, &info), -FI_ENODATA);
	saved = strdup(getenv("FI_DPDK_IPV4"));
	setenv("FI_DPDK_IPV4", PORT0 "=300.1.1.1", 1);
	CU_ASSERT_EQUAL(prov->getinfo(VER, NULL, NULL, 0, hints, &info), -FI_EINVAL);
	CU_ASSERT_PTR_NULL(info);
	setenv("FI_DPDK_IPV4", saved, 1);
	free(saved);
	dlclose(lib);
}

static void
test_version_check(void)
{
	CU_ASSERT_EQUAL(test_getinfo(FI_VERSION(1, 99), NULL, NULL, 0, hints, &info),
			-FI_ENOSYS);
}

static CU_TestInfo getinfo_tests[] = {
	{ "no hints: every provider, ours manual progress", test_null_hints },
	{ "RDM then DGRAM per port", test_order_and_count },
	{ "caps 0 returns all", test_caps_zero_gives_all },
	{ "primary caps only as asked", test_caps_primary_only_as_asked },
	{ "modifier restricts", test_caps_modifier_restricts },
	{ "RMA implies its modifiers", test_caps_rma_implies_modifiers },
	{ "modifiers need their primary", test_caps_modifier_needs_primary },
	{ "tagged is RDM only", test_caps_tagged_rdm_only },
	{ "unsupported caps refused", test_caps_unsupported_refused },
	{ "secondary caps on request", test_caps_secondary_on_request },
	{ "FI_TRIGGER: RDM, on request", test_caps_trigger_rdm_on_request },
	{ "tx/rx caps direction-pure", test_caps_direction_pure },
	{ "no mode required", test_mode_none_required },
	{ "ep type filter", test_ep_type },
	{ "ep protocol", test_ep_protocol },
	{ "ep max_msg_size", test_ep_max_msg_size },
	{ "ep contexts and auth keys", test_ep_contexts_and_keys },
	{ "ep max_order sizes against granted caps", test_ep_max_order },
	{ "ep tag format", test_ep_tag_format },
	{ "tx/rx sizes narrowed", test_tx_rx_sizes_narrowed },
	{ "tx/rx limits refused", test_tx_rx_limits_refused },
	{ "tx rma_iov_limit", test_tx_rma_iov_limit },
	{ "tx/rx ordering", test_tx_rx_order },
	{ "tx/rx op_flags", test_tx_rx_op_flags },
	{ "traffic class", test_tclass },
	{ "threading models", test_threading },
	{ "progress models", test_progress },
	{ "resource_mgmt and av_type", test_resource_mgmt_and_av_type },
	{ "mr_mode subset rules", test_mr_mode },
	{ "mr_mode before API 1.5", test_mr_mode_old_api },
	{ "domain limits", test_domain_limits },
	{ "domain auth_key", test_domain_auth_key },
	{ "domain tclass", test_domain_tclass },
	{ "domain max_ep_tx_ctx/max_ep_rx_ctx", test_domain_ep_contexts },
	{ "domain name filter", test_domain_name_filter },
	{ "fabric name filter", test_fabric_name_filter },
	{ "fabric prov_version", test_fabric_prov_version },
	{ "src_addr always returned", test_src_addr_always },
	{ "node and service give dest_addr", test_node_service_dest },
	{ "FI_SOURCE", test_source_node_service },
	{ "unresolvable node or service", test_unresolvable_node },
	{ "hint src_addr/dest_addr", test_hint_addresses },
	{ "FI_ADDR_STR", test_addr_str },
	{ "FI_ADDR_DPDK raw-Ethernet addresses", test_addr_dpdk },
	{ "address format filter", test_addr_format_filter },
	{ "unknown flag bits tolerated", test_unknown_flags_tolerated },
	{ "layering only when named", test_layering_needs_our_name },
	{ "hints->handle copied", test_handle_copied },
	{ "a scan error is no \"no match\"", test_scan_error_not_nodata },
	{ "API version above libfabric's", test_version_check },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "getinfo", NULL, NULL, case_setup, case_teardown, getinfo_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	test_env_setup(TEST_EAL_BASE " --vdev=net_null0 --vdev=net_null1");
	setenv("FI_DPDK_IPV4", PORT0 "=10.0.0.1/24," PORT1 "=10.0.1.1/24", 1);
	return test_run(suites);
}
