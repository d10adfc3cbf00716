/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Fabric and domain objects: open, several opens of one port, -FI_EBUSY while
 * children are open, close and reopen cycles, the registry fi_getinfo()
 * reports from, and every ops slot answering.
 */

#include <stdlib.h>
#include <string.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_collective.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>

#include "test_util.h"

#define VER	FI_VERSION(1, 17)

static struct fi_info *infos;	/* net_null0 RDM, DGRAM, net_null1 RDM, DGRAM */

static int
suite_init(void)
{
	struct fi_info *hints = fi_allocinfo();
	int ret;

	if (hints == NULL)
		return 1;
	ret = test_getinfo(VER, NULL, NULL, 0, hints, &infos);
	fi_freeinfo(hints);
	/* each port: RDM, DGRAM and MSG */
	return ret != 0 || test_info_count(infos) != 6;
}

static int
suite_clean(void)
{
	fi_freeinfo(infos);
	return 0;
}

/* The first entry of a port in list. */
static struct fi_info *
info_in(struct fi_info *list, const char *port)
{
	struct fi_info *cur = list;

	while (cur != NULL && strcmp(cur->domain_attr->name, port) != 0)
		cur = cur->next;
	return cur;
}

static void
test_fabric_open_close(void)
{
	struct fid_fabric *fabric;
	struct fi_fabric_attr attr;

	CU_ASSERT_EQUAL_FATAL(fi_fabric(infos->fabric_attr, &fabric, NULL), 0);
	CU_ASSERT_EQUAL(fabric->fid.fclass, FI_CLASS_FABRIC);
	CU_ASSERT_EQUAL(fi_close(&fabric->fid), 0);
	/* unknown fabric name */
	attr = *infos->fabric_attr;
	attr.name = (char *)(uintptr_t)"192.0.2.0/24";
	CU_ASSERT_EQUAL(fi_fabric(&attr, &fabric, NULL), -FI_ENODATA);
}

static void
test_reopen_cycles(void)
{
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	int i;

	/* fabtests-style programs close and reopen everything */
	for (i = 0; i < 20; i++) {
		CU_ASSERT_EQUAL_FATAL(fi_fabric(infos->fabric_attr, &fabric, NULL), 0);
		CU_ASSERT_EQUAL_FATAL(fi_domain(fabric, infos, &domain, NULL), 0);
		CU_ASSERT_EQUAL(fi_close(&domain->fid), 0);
		CU_ASSERT_EQUAL(fi_close(&fabric->fid), 0);
	}
}

static void
test_two_domains_one_port(void)
{
	struct fid_fabric *fabric;
	struct fid_domain *d1, *d2;

	CU_ASSERT_EQUAL_FATAL(fi_fabric(infos->fabric_attr, &fabric, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_domain(fabric, infos, &d1, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_domain(fabric, infos, &d2, NULL), 0);
	CU_ASSERT_PTR_NOT_EQUAL(d1, d2);
	CU_ASSERT_EQUAL(fi_close(&fabric->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&d1->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&fabric->fid), -FI_EBUSY);
	CU_ASSERT_EQUAL(fi_close(&d2->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&fabric->fid), 0);
}

static void
test_domain_on_wrong_fabric(void)
{
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fi_info *edited;

	CU_ASSERT_EQUAL_FATAL(fi_fabric(infos->fabric_attr, &fabric, NULL), 0);
	/* net_null1 is on 10.0.1.0/24, this fabric is 10.0.0.0/24 */
	CU_ASSERT_EQUAL(fi_domain(fabric, info_in(infos, "net_null1"), &domain, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_domain(fabric, NULL, &domain, NULL), -FI_EINVAL);
	/* an info edited to ask for more than the port offers */
	edited = fi_dupinfo(infos);
	CU_ASSERT_PTR_NOT_NULL_FATAL(edited);
	edited->domain_attr->data_progress = FI_PROGRESS_AUTO;
	CU_ASSERT_EQUAL(fi_domain(fabric, edited, &domain, NULL), -FI_EINVAL);
	edited->domain_attr->data_progress = FI_PROGRESS_MANUAL;
	free(edited->domain_attr->name);
	edited->domain_attr->name = strdup("net_nothere");
	CU_ASSERT_EQUAL(fi_domain(fabric, edited, &domain, NULL), -FI_ENODEV);
	fi_freeinfo(edited);
	CU_ASSERT_EQUAL(fi_close(&fabric->fid), 0);
}

static void
test_registry_reported(void)
{
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fi_info *hints, *info = NULL;

	CU_ASSERT_EQUAL_FATAL(fi_fabric(infos->fabric_attr, &fabric, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_domain(fabric, infos, &domain, NULL), 0);
	hints = fi_allocinfo();
	CU_ASSERT_PTR_NOT_NULL_FATAL(hints);
	CU_ASSERT_EQUAL_FATAL(test_getinfo(VER, NULL, NULL, 0, hints, &info), 0);
	CU_ASSERT_PTR_EQUAL(info->fabric_attr->fabric, fabric);
	CU_ASSERT_PTR_EQUAL(info->domain_attr->domain, domain);
	/* net_null1's fabric and domain are not open */
	CU_ASSERT_PTR_NOT_NULL_FATAL(info_in(info, "net_null1"));
	CU_ASSERT_PTR_NULL(info_in(info, "net_null1")->fabric_attr->fabric);
	CU_ASSERT_PTR_NULL(info_in(info, "net_null1")->domain_attr->domain);
	fi_freeinfo(info);
	info = NULL;
	/* a domain in the hints restricts the answer to it */
	hints->domain_attr->domain = domain;
	CU_ASSERT_EQUAL_FATAL(test_getinfo(VER, NULL, NULL, 0, hints, &info), 0);
	/* its RDM, DGRAM and MSG entries */
	CU_ASSERT_EQUAL(test_info_count(info), 3);
	CU_ASSERT_STRING_EQUAL(info->domain_attr->name, "net_null0");
	fi_freeinfo(info);
	info = NULL;
	hints->domain_attr->domain = NULL;
	hints->fabric_attr->fabric = fabric;
	CU_ASSERT_EQUAL_FATAL(test_getinfo(VER, NULL, NULL, 0, hints, &info), 0);
	CU_ASSERT_EQUAL(test_info_count(info), 3);
	fi_freeinfo(info);
	hints->fabric_attr->fabric = NULL;
	fi_freeinfo(hints);
	CU_ASSERT_EQUAL(fi_close(&domain->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&fabric->fid), 0);
}

static void
test_unsupported_slots(void)
{
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fid_domain *domain2;
	struct fid_ep *ep = NULL;
	struct fid_pep *pep = NULL;
	struct fid_stx *stx = NULL;
	struct fid_wait *wait = NULL;
	struct fi_atomic_attr atomic_attr;
	struct fi_collective_attr coll_attr;
	struct fi_wait_attr wait_attr = { .wait_obj = FI_WAIT_MUTEX_COND };
	struct fi_tx_attr tx_attr = { 0 };
	struct fi_rx_attr rx_attr = { 0 };
	char buf[64];

	CU_ASSERT_EQUAL_FATAL(fi_fabric(infos->fabric_attr, &fabric, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fi_domain(fabric, infos, &domain, NULL), 0);
	/* endpoint2 without flags is fi_endpoint; no peer endpoints; scalable
	 * endpoints are test_sep.c's */
	CU_ASSERT_EQUAL_FATAL(fi_scalable_ep(domain, infos, &ep, NULL), 0);
	CU_ASSERT_EQUAL(fi_close(&ep->fid), 0);
	CU_ASSERT_EQUAL(fi_endpoint2(domain, infos, &ep, FI_PEER, NULL), -FI_ENOSYS);
	CU_ASSERT_EQUAL_FATAL(fi_endpoint2(domain, infos, &ep, 0, NULL), 0);
	CU_ASSERT_EQUAL(fi_close(&ep->fid), 0);
	/* shared contexts are test_shared.c's */
	CU_ASSERT_EQUAL_FATAL(fi_stx_context(domain, &tx_attr, &stx, NULL), 0);
	CU_ASSERT_EQUAL(fi_close(&stx->fid), 0);
	CU_ASSERT_EQUAL_FATAL(fi_srx_context(domain, &rx_attr, &ep, NULL), 0);
	CU_ASSERT_EQUAL(fi_close(&ep->fid), 0);
	/* atomics are answered (test_atomic.c), but never on tagged buffers */
	CU_ASSERT_EQUAL(fi_query_atomic(domain, FI_INT32, FI_SUM, &atomic_attr, FI_TAGGED),
			-FI_EOPNOTSUPP);
	CU_ASSERT_EQUAL(fi_query_collective(domain, FI_BARRIER, &coll_attr, 0), -FI_ENOSYS);
	CU_ASSERT_EQUAL(fi_control(&domain->fid, FI_GETWAIT, buf), -FI_ENOSYS);
	CU_ASSERT_EQUAL(fi_open_ops(&domain->fid, "x", 0, NULL, NULL), -FI_ENOSYS);
	/* a passive endpoint takes an FI_EP_MSG info (test_msg.c), not RDM's */
	CU_ASSERT_EQUAL(fi_passive_ep(fabric, infos, &pep, NULL), -FI_EINVAL);
	/* wait sets are eventfds (test_poll.c): no mutex and condition variable */
	CU_ASSERT_EQUAL(fi_wait_open(fabric, &wait_attr, &wait), -FI_ENOSYS);
	CU_ASSERT_EQUAL(fi_control(&fabric->fid, FI_GETWAIT, buf), -FI_ENOSYS);
	/* domain2 without flags is fi_domain */
	CU_ASSERT_EQUAL(fi_domain2(fabric, infos, &domain2, FI_PEER, NULL), -FI_ENOSYS);
	CU_ASSERT_EQUAL_FATAL(fi_domain2(fabric, infos, &domain2, 0, NULL), 0);
	CU_ASSERT_EQUAL(fi_close(&domain2->fid), 0);
	/* only event queues bind to a domain */
	CU_ASSERT_EQUAL(fi_domain_bind(domain, &fabric->fid, 0), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_domain_bind(domain, &fabric->fid, 1ULL << 3), -FI_EBADFLAGS);
	CU_ASSERT_EQUAL(fi_close(&domain->fid), 0);
	CU_ASSERT_EQUAL(fi_close(&fabric->fid), 0);
}

static CU_TestInfo fabric_tests[] = {
	{ "fabric open/close", test_fabric_open_close },
	{ "close and reopen cycles", test_reopen_cycles },
	{ "two domains on one port, EBUSY", test_two_domains_one_port },
	{ "domain checks its info", test_domain_on_wrong_fabric },
	{ "opened objects reported by getinfo", test_registry_reported },
	{ "unsupported slots answer -FI_ENOSYS", test_unsupported_slots },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "fabric", suite_init, suite_clean, NULL, NULL, fabric_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	test_env_setup(TEST_EAL_BASE " --vdev=net_null0 --vdev=net_null1");
	setenv("FI_DPDK_IPV4", "net_null0=10.0.0.1/24,net_null1=10.0.1.1/24", 1);
	return test_run(suites);
}
