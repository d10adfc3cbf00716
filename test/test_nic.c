/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * fid_nic against what the PMDs say, for three kinds of vdev (net_null,
 * net_ring, net_memif), in an EAL-style program: this test starts the EAL
 * itself and the provider must use that instance. Also fi_dupinfo and
 * fi_freeinfo on nics (run under AddressSanitizer by the test script).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "test_util.h"

#define NB_PORTS	3

static const char *const port_names[NB_PORTS] = { "net_null0", "net_ring0", "net_memif0" };

static struct fi_info *
getinfo_rdm(void)
{
	struct fi_info *hints = fi_allocinfo(), *info = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hints);
	hints->ep_attr->type = FI_EP_RDM;
	CU_ASSERT_EQUAL(test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info), 0);
	fi_freeinfo(hints);
	return info;
}

static void
test_app_eal_reused(void)
{
	struct fi_info *info = getinfo_rdm(), *cur;
	int i = 0;

	/* FI_DPDK_EAL_ARGS is unset: these ports exist only in our EAL */
	CU_ASSERT_EQUAL_FATAL(test_info_count(info), NB_PORTS);
	for (cur = info; cur != NULL; cur = cur->next, i++)
		CU_ASSERT_STRING_EQUAL(cur->domain_attr->name, port_names[i]);
	fi_freeinfo(info);
}

static void
check_nic(const struct fi_info *info)
{
	const struct fid_nic *nic = info->nic;
	struct rte_eth_dev_info dev_info;
	struct rte_eth_link link;
	struct rte_ether_addr mac;
	char mac_str[RTE_ETHER_ADDR_FMT_SIZE];
	uint16_t port_id, mtu;
	size_t expect_mtu;

	CU_ASSERT_PTR_NOT_NULL_FATAL(nic);
	CU_ASSERT_EQUAL(nic->fid.fclass, FI_CLASS_NIC);
	CU_ASSERT_EQUAL_FATAL(rte_eth_dev_get_port_by_name(info->domain_attr->name, &port_id), 0);
	CU_ASSERT_EQUAL_FATAL(rte_eth_dev_info_get(port_id, &dev_info), 0);
	CU_ASSERT_EQUAL_FATAL(rte_eth_link_get_nowait(port_id, &link), 0);
	CU_ASSERT_EQUAL_FATAL(rte_eth_macaddr_get(port_id, &mac), 0);
	CU_ASSERT_EQUAL_FATAL(rte_eth_dev_get_mtu(port_id, &mtu), 0);

	/* device */
	CU_ASSERT_PTR_NOT_NULL_FATAL(nic->device_attr);
	CU_ASSERT_STRING_EQUAL(nic->device_attr->name, rte_dev_name(dev_info.device));
	CU_ASSERT_STRING_EQUAL(nic->device_attr->driver, dev_info.driver_name);
	/* vdevs have no PCI ids and no firmware */
	CU_ASSERT_PTR_NULL(nic->device_attr->vendor_id);
	CU_ASSERT_PTR_NULL(nic->device_attr->device_id);
	CU_ASSERT_PTR_NULL(nic->device_attr->firmware);
	/* bus */
	CU_ASSERT_PTR_NOT_NULL_FATAL(nic->bus_attr);
	CU_ASSERT_EQUAL(nic->bus_attr->bus_type, FI_BUS_UNKNOWN);
	/* link */
	CU_ASSERT_PTR_NOT_NULL_FATAL(nic->link_attr);
	rte_ether_format_addr(mac_str, sizeof(mac_str), &mac);
	CU_ASSERT_STRING_EQUAL(nic->link_attr->address, mac_str);
	expect_mtu = RTE_MIN((uint32_t)mtu, dev_info.max_rx_pktlen - RTE_ETHER_HDR_LEN -
				RTE_ETHER_CRC_LEN);
	CU_ASSERT_EQUAL(nic->link_attr->mtu, expect_mtu);
	/* fi_nic(3): the active data rate, in bit/s; none while the link is down */
	CU_ASSERT_EQUAL(nic->link_attr->speed,
			link.link_status != RTE_ETH_LINK_UP ||
			link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? 0 :
			(size_t)link.link_speed * 1000000);
	CU_ASSERT_EQUAL(nic->link_attr->state,
			link.link_status == RTE_ETH_LINK_UP ? FI_LINK_UP : FI_LINK_DOWN);
	CU_ASSERT_STRING_EQUAL(nic->link_attr->network_type, "Ethernet");
}

static void
test_nic_matches_pmd(void)
{
	struct fi_info *info = getinfo_rdm(), *cur;

	for (cur = info; cur != NULL; cur = cur->next)
		check_nic(cur);
	fi_freeinfo(info);
}

static void
test_nic_follows_link(void)
{
	struct rte_eth_conf conf;
	struct rte_eth_link link;
	struct rte_mempool *mp;
	struct fi_info *info;
	uint16_t port_id;

	/* Start net_null0 behind the provider's back: its nic must say UP. */
	CU_ASSERT_EQUAL_FATAL(rte_eth_dev_get_port_by_name("net_null0", &port_id), 0);
	mp = rte_pktmbuf_pool_create("test_nic_pool", 1023, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     SOCKET_ID_ANY);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mp);
	memset(&conf, 0, sizeof(conf));
	CU_ASSERT_EQUAL_FATAL(rte_eth_dev_configure(port_id, 1, 1, &conf), 0);
	CU_ASSERT_EQUAL_FATAL(rte_eth_rx_queue_setup(port_id, 0, 64, SOCKET_ID_ANY, NULL, mp), 0);
	CU_ASSERT_EQUAL_FATAL(rte_eth_tx_queue_setup(port_id, 0, 64, SOCKET_ID_ANY, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(rte_eth_dev_start(port_id), 0);

	info = getinfo_rdm();
	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	CU_ASSERT_STRING_EQUAL(info->domain_attr->name, "net_null0");
	CU_ASSERT_EQUAL(info->nic->link_attr->state, FI_LINK_UP);
	CU_ASSERT(info->nic->link_attr->speed > 0);
	check_nic(info);
	fi_freeinfo(info);

	CU_ASSERT_EQUAL(rte_eth_dev_stop(port_id), 0);
	info = getinfo_rdm();
	CU_ASSERT_EQUAL(info->nic->link_attr->state, FI_LINK_DOWN);
	/* the PMD still gives its nominal speed; no data moves at any rate */
	CU_ASSERT_EQUAL_FATAL(rte_eth_link_get_nowait(port_id, &link), 0);
	CU_ASSERT(link.link_speed > 0);
	CU_ASSERT_EQUAL(info->nic->link_attr->speed, 0);
	check_nic(info);
	fi_freeinfo(info);
	rte_mempool_free(mp);
}

static void
test_dupinfo_deep_copy(void)
{
	struct fi_info *info = getinfo_rdm(), *dup;
	char name[64], driver[64], mac[64];

	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	dup = fi_dupinfo(info);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dup);
	CU_ASSERT_PTR_NOT_EQUAL(dup->nic, info->nic);
	CU_ASSERT_PTR_NOT_EQUAL(dup->nic->device_attr, info->nic->device_attr);
	CU_ASSERT_PTR_NOT_EQUAL(dup->nic->device_attr->name, info->nic->device_attr->name);
	CU_ASSERT_PTR_NOT_EQUAL(dup->nic->link_attr->address, info->nic->link_attr->address);
	snprintf(name, sizeof(name), "%s", info->nic->device_attr->name);
	snprintf(driver, sizeof(driver), "%s", info->nic->device_attr->driver);
	snprintf(mac, sizeof(mac), "%s", info->nic->link_attr->address);
	/* the copy must outlive the original */
	fi_freeinfo(info);
	CU_ASSERT_STRING_EQUAL(dup->nic->device_attr->name, name);
	CU_ASSERT_STRING_EQUAL(dup->nic->device_attr->driver, driver);
	CU_ASSERT_STRING_EQUAL(dup->nic->link_attr->address, mac);
	CU_ASSERT_EQUAL(dup->nic->bus_attr->bus_type, FI_BUS_UNKNOWN);
	fi_freeinfo(dup);
}

static void
test_dupinfo_freeinfo_loop(void)
{
	struct fi_info *info, *dup, *cur;
	int i;

	for (i = 0; i < 200; i++) {
		info = getinfo_rdm();
		CU_ASSERT_PTR_NOT_NULL_FATAL(info);
		for (cur = info; cur != NULL; cur = cur->next) {
			dup = fi_dupinfo(cur);
			CU_ASSERT_PTR_NOT_NULL_FATAL(dup);
			fi_freeinfo(dup);
		}
		fi_freeinfo(info);
	}
}

static void
test_nic_control(void)
{
	struct fi_info *info = getinfo_rdm();
	struct fid_nic *copy = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	CU_ASSERT_EQUAL(fi_control(&info->nic->fid, FI_DUP, NULL), -FI_EINVAL);
	CU_ASSERT_EQUAL(fi_control(&info->nic->fid, FI_GETWAIT, &copy), -FI_ENOSYS);
	CU_ASSERT_EQUAL(fi_control(&info->nic->fid, FI_DUP, &copy), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
	CU_ASSERT_STRING_EQUAL(copy->device_attr->driver, info->nic->device_attr->driver);
	CU_ASSERT_EQUAL(fi_close(&copy->fid), 0);
	fi_freeinfo(info);
}

static void
test_nic_tostr(void)
{
	struct fi_info *info = getinfo_rdm();
	const char *s;
	char *small;
	size_t len;

	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	s = fi_tostr(info, FI_TYPE_INFO);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "    nic:\n        fi_device_attr:\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "            driver: net_null\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "            bus_type: FI_BUS_UNKNOWN\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "            network_type: Ethernet\n"));
	/* a buffer too small is truncated, never overrun */
	for (len = strlen(s) - 200; len < strlen(s) + 8; len += 37) {
		small = malloc(len);
		CU_ASSERT_PTR_NOT_NULL_FATAL(small);
		fi_tostr_r(small, len, info, FI_TYPE_INFO);
		CU_ASSERT(strlen(small) < len);
		free(small);
	}
	fi_freeinfo(info);
}

static CU_TestInfo nic_tests[] = {
	{ "the application's EAL is reused", test_app_eal_reused },
	{ "nic fields match the PMDs", test_nic_matches_pmd },
	{ "nic link follows the port", test_nic_follows_link },
	{ "fi_dupinfo copies the nic deeply", test_dupinfo_deep_copy },
	{ "fi_dupinfo/fi_freeinfo loop", test_dupinfo_freeinfo_loop },
	{ "nic control", test_nic_control },
	{ "nic tostr", test_nic_tostr },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "nic", NULL, NULL, NULL, NULL, nic_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc __rte_unused, char **argv)
{
	char args[512];
	int ret;

	snprintf(args, sizeof(args), TEST_EAL_BASE " --vdev=net_null0 --vdev=net_ring0 "
		 "--vdev=net_memif0,role=server,socket=/run/dfi-test-nic-%d", (int)getpid());
	test_env_setup(NULL);
	if (test_eal_init(argv[0], args) < 0) {
		fprintf(stderr, "rte_eal_init failed\n");
		return 1;
	}
	ret = test_run(suites);
	rte_eal_cleanup();
	return ret;
}
