/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Members of net_bonding ports, told apart from ports of their own (bond.h). */

#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_eth_bond.h>
#include <rte_ether.h>
#include <rte_ethdev.h>
#include <rte_pci.h>

#include "bond.h"
#include "devargs.h"
#include "net_log.h"
#include "port.h"

/* drivers/net/bonding: the driver, and its key naming a member (DPDK 22.11) */
#define BOND_DRIVER	"net_bonding"
#define BOND_MEMBER_KEY	"slave"

struct member_query {
	uint16_t port_id;
	const char *dev_name;	/* the port's device's */
	bool found;
};

/*
 * An arg_handler_t: whether a bond's "slave" value names the queried port,
 * read as the bonding PMD reads it (parse_port_id()): a PCI address, else a
 * device name, else a port number.
 */
static int
member_named(const char *key __rte_unused, const char *value, void *arg)
{
	struct member_query *q = arg;
	struct rte_pci_addr want, have;
	char *end;
	unsigned long id;

	if (rte_pci_addr_parse(value, &want) == 0) {
		q->found |= rte_pci_addr_parse(q->dev_name, &have) == 0 &&
			    rte_pci_addr_cmp(&want, &have) == 0;
	} else if (strcmp(value, q->dev_name) == 0) {
		q->found = true;
	} else {
		id = strtoul(value, &end, 10);
		q->found |= end != value && *end == '\0' && id == q->port_id;
	}
	return 0;
}

uint16_t
dfi_bond_members(uint16_t port_id, uint16_t *members)
{
	int n;

	if (!dfi_bond_is(port_id))
		return 0;
	n = rte_eth_bond_slaves_get(port_id, members, RTE_MAX_ETHPORTS);
	return n > 0 ? (uint16_t)n : 0;
}

bool
dfi_bond_is(uint16_t port_id)
{
	return dfi_driver_is(port_id, BOND_DRIVER);
}

bool
dfi_bond_member(uint16_t port_id)
{
	struct member_query q = { .port_id = port_id };
	struct rte_eth_dev_info info;
	uint16_t bond;

	if (rte_eth_dev_info_get(port_id, &info) != 0 || info.device == NULL)
		return false;
	if (info.dev_flags != NULL && (*info.dev_flags & RTE_ETH_DEV_BONDED_SLAVE) != 0)
		return true;
	q.dev_name = rte_dev_name(info.device);
	RTE_ETH_FOREACH_DEV(bond) {
		if (bond != port_id && dfi_driver_is(bond, BOND_DRIVER))
			dfi_devarg(bond, BOND_MEMBER_KEY, member_named, &q);
		if (q.found)
			return true;
	}
	return false;
}

int
dfi_bond_complete(uint16_t port_id)
{
	struct rte_ether_addr mac;
	struct rte_eth_conf conf;
	int ret;

	if (!dfi_driver_is(port_id, BOND_DRIVER) || rte_eth_macaddr_get(port_id, &mac) != 0 ||
	    !rte_is_zero_ether_addr(&mac))
		return 0;
	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(port_id, 1, 1, &conf);
	if (ret != 0) {
		NET_LOG(WARNING, "port %u: a bond whose members could not join it: %s", port_id,
			rte_strerror(-ret));
		return ret;
	}
	ret = rte_eth_macaddr_get(port_id, &mac);
	if (ret != 0 || rte_is_zero_ether_addr(&mac))
		NET_LOG(WARNING, "port %u: a bond without members, or whose members give it "
			"no MAC", port_id);
	else
		NET_LOG(INFO, "port %u: bond configured once, so that its members joined it",
			port_id);
	return 0;
}

uint16_t
dfi_bond_primary(uint16_t port_id)
{
	int primary;

	if (!dfi_bond_is(port_id) || rte_eth_bond_mode_get(port_id) != BONDING_MODE_ACTIVE_BACKUP)
		return RTE_MAX_ETHPORTS;
	primary = rte_eth_bond_primary_get(port_id);
	return primary >= 0 ? (uint16_t)primary : RTE_MAX_ETHPORTS;
}

/* A member's link, as its PMD says and, on a kernel interface, the kernel. */
static bool
member_up(uint16_t member, int fd)
{
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	struct ifreq ifr;

	if (rte_eth_link_get_nowait(member, &link) != 0 || link.link_status != RTE_ETH_LINK_UP)
		return false;
	if (fd < 0 || rte_eth_dev_info_get(member, &info) != 0 || info.if_index == 0)
		return true;
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_ifindex = (int)info.if_index;
	if (ioctl(fd, SIOCGIFNAME, &ifr) != 0)
		return true;
	return dfi_kernel_link_up(fd, ifr.ifr_name);
}

int
dfi_bond_failover(uint16_t port_id, int fd, uint16_t configured)
{
	uint16_t members[RTE_MAX_ETHPORTS], n, i, want = RTE_MAX_ETHPORTS;
	char was[RTE_ETH_NAME_MAX_LEN] = "?", now[RTE_ETH_NAME_MAX_LEN] = "?";
	bool cur_up = false, configured_up = false, up;
	int cur, ret;

	if (rte_eth_bond_mode_get(port_id) != BONDING_MODE_ACTIVE_BACKUP)
		return 0;
	cur = rte_eth_bond_primary_get(port_id);
	n = dfi_bond_members(port_id, members);
	if (cur < 0)
		return 0;
	for (i = 0; i < n; i++) {
		up = member_up(members[i], fd);
		cur_up |= up && members[i] == cur;
		configured_up |= up && members[i] == configured;
		if (up && members[i] != cur && want == RTE_MAX_ETHPORTS)
			want = members[i];
	}
	if (configured_up && configured != cur)
		want = configured;
	else if (cur_up || want == RTE_MAX_ETHPORTS)
		return 0;	/* as it should be, or no member up: the bond's link is down */
	rte_eth_dev_get_name_by_port((uint16_t)cur, was);
	rte_eth_dev_get_name_by_port(want, now);
	ret = rte_eth_bond_primary_set(port_id, want);
	if (ret != 0) {
		NET_LOG(WARNING, "port %u: bond member %s cannot become the primary in place of "
			"%s: %s", port_id, now, was, rte_strerror(-ret));
		return ret;
	}
	if (want == configured)
		NET_LOG(NOTICE, "port %u: bond member %s, the primary it started with, has "
			"its link back: it is the primary again, in place of %s", port_id, now,
			was);
	else
		NET_LOG(NOTICE, "port %u: bond member %s's link is down, and its PMD raised no "
			"event: %s is the primary now", port_id, was, now);
	return 1;
}
