/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The port table: one entry per ethdev port, holding the addressing facts a
 * libfabric domain is built on. Facts are refreshed on every fi_getinfo() for
 * ports no domain uses, and frozen while a domain is open on the port.
 */

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <numa.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_ethdev.h>

#include "af_packet.h"
#include "bond.h"
#include "dfi.h"
#include "memif.h"
#include "net_log.h"
#include "port.h"
#include "queue.h"

/* port.h holds the MAC as bytes and sizes the name without ethdev's headers */
_Static_assert(sizeof(((struct dfi_port *)0)->mac) == sizeof(struct rte_ether_addr) &&
	       _Alignof(struct rte_ether_addr) == 2, "a port's MAC");
_Static_assert(sizeof(((struct dfi_port *)0)->name) == RTE_ETH_NAME_MAX_LEN, "a port's name");

RTE_LOG_REGISTER_DEFAULT(dfi_net_logtype, NOTICE);

#define IPV4_DEFAULT_PREFIX	24
#define LINK_LOCAL_NET		0xa9fe0000u	/* 169.254.0.0 */

struct ipv4_assign {
	uint32_t addr;		/* network order; 0 when unassigned */
	uint32_t gateway;	/* network order; 0 when none */
	uint8_t prefix_len;
};

static pthread_mutex_t ports_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dfi_port *ports[RTE_MAX_ETHPORTS];

static int
port_id_by_token(const char *tok, uint16_t *port_id)
{
	char *end;
	unsigned long v;

	if (rte_eth_dev_get_port_by_name(tok, port_id) == 0)
		return 0;
	v = strtoul(tok, &end, 10);
	if (*tok != '\0' && *end == '\0' && v < RTE_MAX_ETHPORTS &&
	    rte_eth_dev_is_valid_port((uint16_t)v)) {
		*port_id = (uint16_t)v;
		return 0;
	}
	return -FI_ENODEV;
}

/* FI_DPDK_IPV4: "<port>=<a.b.c.d>[/<prefix>][@<gateway>][,...]". */
static int
ipv4_param_parse(const char *param, struct ipv4_assign *assign)
{
	char buf[1024], *save = NULL, *entry, *eq, *slash, *at, *end;
	struct in_addr in, gw;
	unsigned long prefix;
	uint16_t port_id;

	memset(assign, 0, sizeof(*assign) * RTE_MAX_ETHPORTS);
	if (param == NULL)
		return 0;
	if (strlen(param) >= sizeof(buf)) {
		NET_LOG(ERR, "FI_DPDK_IPV4 is longer than %zu characters", sizeof(buf) - 1);
		return -FI_EINVAL;
	}
	strcpy(buf, param);
	for (entry = strtok_r(buf, ",", &save); entry != NULL;
	     entry = strtok_r(NULL, ",", &save)) {
		eq = strchr(entry, '=');
		if (eq == NULL) {
			NET_LOG(ERR, "FI_DPDK_IPV4 entry '%s' lacks '<port>='", entry);
			return -FI_EINVAL;
		}
		*eq = '\0';
		if (port_id_by_token(entry, &port_id) != 0) {
			NET_LOG(ERR, "FI_DPDK_IPV4 names '%s', which is no DPDK port", entry);
			return -FI_EINVAL;
		}
		gw.s_addr = 0;
		at = strchr(eq + 1, '@');
		if (at != NULL) {
			*at = '\0';
			if (inet_pton(AF_INET, at + 1, &gw) != 1 || gw.s_addr == 0) {
				NET_LOG(ERR, "FI_DPDK_IPV4: bad gateway '%s' for %s", at + 1,
					entry);
				return -FI_EINVAL;
			}
		}
		prefix = IPV4_DEFAULT_PREFIX;
		slash = strchr(eq + 1, '/');
		if (slash != NULL) {
			*slash = '\0';
			prefix = strtoul(slash + 1, &end, 10);
			if (slash[1] == '\0' || *end != '\0' || prefix == 0 || prefix > 32) {
				NET_LOG(ERR, "FI_DPDK_IPV4: bad prefix '/%s' for %s",
					slash + 1, entry);
				return -FI_EINVAL;
			}
		}
		if (inet_pton(AF_INET, eq + 1, &in) != 1 || in.s_addr == 0) {
			NET_LOG(ERR, "FI_DPDK_IPV4: bad address '%s' for %s", eq + 1, entry);
			return -FI_EINVAL;
		}
		if (gw.s_addr != 0 && (gw.s_addr & dfi_prefix_mask((uint8_t)prefix)) !=
				      (in.s_addr & dfi_prefix_mask((uint8_t)prefix))) {
			NET_LOG(ERR, "FI_DPDK_IPV4: gateway of %s is not on its network", entry);
			return -FI_EINVAL;
		}
		assign[port_id].addr = in.s_addr;
		assign[port_id].gateway = gw.s_addr;
		assign[port_id].prefix_len = (uint8_t)prefix;
	}
	return 0;
}

bool
dfi_kernel_link_up(int fd, const char *ifname)
{
	struct ethtool_value glink = { .cmd = ETHTOOL_GLINK };
	struct ifreq ifr;
	short flags;

	memset(&ifr, 0, sizeof(ifr));
	strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) != 0)
		return true;
	flags = ifr.ifr_flags;
	if ((flags & IFF_UP) == 0)
		return false;
	ifr.ifr_data = (void *)&glink;	/* the flags' place */
	return ioctl(fd, SIOCETHTOOL, &ifr) == 0 ? glink.data != 0 : (flags & IFF_RUNNING) != 0;
}

static bool
port_kernel_ipv4(const struct ifaddrs *ifas, const char *ifname, uint32_t *addr,
		 uint8_t *prefix_len)
{
	const struct ifaddrs *ifa;
	uint32_t mask;

	for (ifa = ifas; ifa != NULL; ifa = ifa->ifa_next) {
		if (ifa->ifa_addr == NULL || ifa->ifa_addr->sa_family != AF_INET ||
		    strcmp(ifa->ifa_name, ifname) != 0)
			continue;
		*addr = ((const struct sockaddr_in *)(const void *)ifa->ifa_addr)->sin_addr.s_addr;
		mask = ifa->ifa_netmask != NULL ?
		       ((const struct sockaddr_in *)(const void *)ifa->ifa_netmask)->sin_addr.s_addr :
		       0xffffffffu;
		*prefix_len = (uint8_t)__builtin_popcount(mask);
		return true;
	}
	return false;
}

/* The default route's gateway on a kernel interface (/proc/net/route). */
static uint32_t
port_kernel_gateway(const char *ifname)
{
	char line[256], iface[IF_NAMESIZE + 1];
	unsigned int dst, gw, flags;
	uint32_t found = 0;
	FILE *f = fopen("/proc/net/route", "r");

	if (f == NULL)
		return 0;
	while (found == 0 && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%16s %x %x %x", iface, &dst, &gw, &flags) == 4 &&
		    strcmp(iface, ifname) == 0 && dst == 0 && (flags & 0x2) != 0)
			found = gw;	/* already in network byte order */
	}
	fclose(f);
	return found;
}

static int
port_numa_node(uint16_t port_id)
{
	int node = rte_eth_dev_socket_id(port_id);
	int cpu;

	/* vdevs have no node: place their memory near the calling thread. */
	if (node < 0 && numa_available() >= 0) {
		cpu = sched_getcpu();
		node = cpu >= 0 ? numa_node_of_cpu(cpu) : -1;
	}
	return node < 0 ? 0 : node;
}

static int
port_refresh(struct dfi_port *port, const struct ifaddrs *ifas,
	     const struct ipv4_assign *assign)
{
	struct rte_eth_dev_info info;
	char addr_str[INET_ADDRSTRLEN];
	struct in_addr net;
	uint16_t mtu;
	uint32_t limit;
	int ret;

	ret = rte_eth_dev_info_get(port->port_id, &info);
	if (ret != 0)
		return ret;
	ret = rte_eth_dev_get_name_by_port(port->port_id, port->name);
	if (ret != 0)
		return ret;
	ret = rte_eth_macaddr_get(port->port_id, (struct rte_ether_addr *)port->mac);
	if (ret != 0)
		return ret;
	if (rte_eth_dev_get_mtu(port->port_id, &mtu) != 0)
		mtu = RTE_ETHER_MTU;
	/* max_mtu is a generic default on vdevs; the frame limit is real. */
	limit = info.max_rx_pktlen - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN;
	port->mtu = limit < mtu ? (uint16_t)limit : mtu;
	port->max_queues = RTE_MAX(RTE_MIN(info.max_rx_queues, info.max_tx_queues), 1);
	port->socket_id = port_numa_node(port->port_id);
	port->has_fcs = info.device != NULL && rte_dev_bus(info.device) != NULL &&
			strcmp(rte_bus_name(rte_dev_bus(info.device)), "pci") == 0;

	port->ifname[0] = '\0';
	if (info.if_index != 0 && if_indextoname(info.if_index, port->ifname) == NULL)
		port->ifname[0] = '\0';
	/* larger packets where the PMD's buffers or the kernel interface take
	 * them: a reliable endpoint agrees on them with each peer */
	port->jumbo_mtu = port->mtu;
	if (dfi_memif_is(port->port_id))
		port->jumbo_mtu = RTE_MAX(dfi_memif_mtu(port->port_id), port->mtu);
	else if (dfi_af_packet_is(port->port_id) && dfi_af_packet_rings_ok(port->port_id))
		port->jumbo_mtu = RTE_MAX(dfi_af_packet_mtu(port->port_id, port->ifname), port->mtu);

	port->gateway = 0;
	if (port->ifname[0] != '\0' &&
	    port_kernel_ipv4(ifas, port->ifname, &port->ipv4, &port->prefix_len)) {
		port->ip_origin = DFI_IP_KERNEL;
		port->gateway = port_kernel_gateway(port->ifname);
		if (assign[port->port_id].addr != 0)
			NET_LOG(WARNING, "%s: FI_DPDK_IPV4 ignored, interface %s has an "
				"address", port->name, port->ifname);
	} else if (assign[port->port_id].addr != 0) {
		port->ipv4 = assign[port->port_id].addr;
		port->gateway = assign[port->port_id].gateway;
		port->prefix_len = assign[port->port_id].prefix_len;
		port->ip_origin = DFI_IP_PARAM;
	} else {
		port->ipv4 = htonl(LINK_LOCAL_NET | (uint32_t)(1 + port->mac[4] % 254) << 8 |
				   port->mac[5]);
		port->prefix_len = 16;
		port->ip_origin = DFI_IP_LINK_LOCAL;
	}
	net.s_addr = port->ipv4 & dfi_prefix_mask(port->prefix_len);
	inet_ntop(AF_INET, &net, addr_str, sizeof(addr_str));
	snprintf(port->fabric_name, sizeof(port->fabric_name), "%s/%u", addr_str,
		 port->prefix_len);
	return 0;
}

static void
ports_warn_duplicates(void)
{
	char addr[INET_ADDRSTRLEN];
	uint16_t a, b;

	RTE_ETH_FOREACH_DEV(a) {
		for (b = (uint16_t)(a + 1); b < RTE_MAX_ETHPORTS; b++) {
			if (ports[a] == NULL || ports[b] == NULL || !ports[a]->present ||
			    !ports[b]->present || ports[a]->ipv4 != ports[b]->ipv4)
				continue;
			inet_ntop(AF_INET, &ports[a]->ipv4, addr, sizeof(addr));
			NET_LOG(WARNING, "%s and %s share the address %s; set FI_DPDK_IPV4",
				ports[a]->name, ports[b]->name, addr);
		}
	}
}

int
dfi_ports_scan(const char *ipv4_param, struct dfi_port *snap, int max)
{
	struct ipv4_assign assign[RTE_MAX_ETHPORTS];
	struct ifaddrs *ifas = NULL;
	struct dfi_port *port;
	uint16_t port_id;
	int ret, count = 0;

	pthread_mutex_lock(&ports_lock);
	ret = ipv4_param_parse(ipv4_param, assign);
	if (ret != 0)
		goto out;
	if (getifaddrs(&ifas) != 0)
		ifas = NULL;
	RTE_ETH_FOREACH_DEV(port_id) {
		port = ports[port_id];
		if (port == NULL) {
			/* Port entries live until the provider is unloaded. */
			port = calloc(1, sizeof(*port));
			if (port != NULL)
				port->rt = dfi_queue_rt_alloc();
			if (port == NULL || port->rt == NULL) {
				free(port);
				ret = -FI_ENOMEM;
				goto out;
			}
			port->port_id = port_id;
			ports[port_id] = port;
		}
		if (port->domain_refs == 0) {
			if (dfi_bond_member(port_id)) {
				port->present = false;
				NET_LOG(DEBUG, "port %u: a bonded port's member, no domain",
					port_id);
				continue;
			}
			ret = dfi_bond_complete(port_id);
			if (ret == 0)
				ret = port_refresh(port, ifas, assign);
			port->present = ret == 0;
			if (ret != 0)
				NET_LOG(WARNING, "port %u: cannot read its facts: %s", port_id,
					rte_strerror(-ret));
		}
		if (port->present && count < max)
			snap[count++] = *port;
	}
	ports_warn_duplicates();
	ret = count;
out:
	if (ifas != NULL)
		freeifaddrs(ifas);
	pthread_mutex_unlock(&ports_lock);
	return ret;
}

struct dfi_port *
dfi_port_acquire(const char *name, bool lockfree)
{
	struct dfi_port *port = NULL;
	uint16_t port_id;

	pthread_mutex_lock(&ports_lock);
	if (name != NULL && rte_eth_dev_get_port_by_name(name, &port_id) == 0 &&
	    ports[port_id] != NULL && ports[port_id]->present) {
		port = ports[port_id];
		port->domain_refs++;
		port->lockfree_domains += lockfree;
	}
	pthread_mutex_unlock(&ports_lock);
	return port;
}

void
dfi_port_release(struct dfi_port *port, bool lockfree)
{
	pthread_mutex_lock(&ports_lock);
	port->domain_refs--;
	port->lockfree_domains -= lockfree;
	pthread_mutex_unlock(&ports_lock);
}

bool
dfi_port_single_lockfree(struct dfi_port *port)
{
	bool single;

	pthread_mutex_lock(&ports_lock);
	single = port->domain_refs == 1 && port->lockfree_domains == 1;
	pthread_mutex_unlock(&ports_lock);
	return single;
}

void
dfi_ports_fini(bool own_eal)
{
	uint16_t i;

	pthread_mutex_lock(&ports_lock);
	for (i = 0; i < RTE_MAX_ETHPORTS; i++) {
		if (ports[i] == NULL)
			continue;
		dfi_queue_fini(ports[i], own_eal);
		free(ports[i]);
		ports[i] = NULL;
	}
	pthread_mutex_unlock(&ports_lock);
}
