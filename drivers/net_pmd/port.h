/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * DPDK ethdev ports as the provider sees them: one libfabric domain each,
 * with the IPv4 address, network (the fabric) and link facts that getinfo,
 * fid_nic and the wire need.
 */

#ifndef _DFI_PORT_H_
#define _DFI_PORT_H_

#include <net/if.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* not rte_ether.h nor rte_ethdev.h: through rte_mbuf.h they bring every x86
 * intrinsics header, most of the compile of a source that only wants a port's
 * facts (getinfo, info, fabric, prov, av) */
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_dev.h>

#include "dfi.h"

enum dfi_ip_origin {
	DFI_IP_KERNEL,		/* the PMD's kernel interface has it */
	DFI_IP_PARAM,		/* FI_DPDK_IPV4 */
	DFI_IP_LINK_LOCAL,	/* 169.254/16, derived from the MAC */
};

struct dfi_port_rt;
struct rte_ether_addr;

struct dfi_port {
	uint16_t port_id;
	uint16_t mtu;		/* largest IPv4 packet the port carries */
	uint16_t jumbo_mtu;	/* largest one it carries to and from a peer that takes
				 * it: the MTU, or more where the PMD or the kernel
				 * interface says so (memif's ring buffers, af_packet's
				 * interface MTU and ring frames), up to DFI_JUMBO_MTU */
	uint16_t max_queues;	/* queue pairs the PMD offers (RX and TX alike) */
	uint8_t prefix_len;
	uint8_t ip_origin;	/* enum dfi_ip_origin */
	int socket_id;		/* NUMA node for the port's memory, never -1 */
	uint32_t ipv4;		/* network byte order */
	uint32_t gateway;	/* network byte order, 0: none */
	uint32_t domain_refs;	/* open domains; facts are frozen while > 0 */
	uint32_t lockfree_domains;	/* of those, FI_THREAD_DOMAIN ones */
	uint32_t present;	/* facts could be read at the last scan */
	bool has_fcs;		/* frames carry an Ethernet FCS: a PCI NIC, not a vdev */
	uint8_t mac[6] __rte_aligned(2);	/* a struct rte_ether_addr: dfi_port_mac() */
	char name[RTE_DEV_NAME_MAX_LEN];	/* RTE_ETH_NAME_MAX_LEN */
	char ifname[IF_NAMESIZE];	/* kernel interface, "" when none */
	char fabric_name[DFI_FABRIC_NAME_LEN];	/* the IPv4 network */
	struct dfi_port_rt *rt;	/* datapath, shared by the snapshots' pointer */
};

/** The port's MAC as DPDK's type, for the sources that include rte_ether.h. */
static inline const struct rte_ether_addr *
dfi_port_mac(const struct dfi_port *port)
{
	return (const struct rte_ether_addr *)(const void *)port->mac;
}

/**
 * Refreshes the facts of every port that no domain uses and copies them out.
 *
 * @param ipv4_param
 *   The FI_DPDK_IPV4 value, or NULL.
 * @param snap
 *   Receives a copy of each port, in port id order.
 * @param max
 *   Room in snap.
 * @return
 *   The number of ports copied, or -FI_EINVAL when ipv4_param is malformed or
 *   names an unknown port (logged).
 */
int dfi_ports_scan(const char *ipv4_param, struct dfi_port *snap, int max);

/**
 * Finds a scanned port by its ethdev name and counts a domain on it; its facts
 * stay as they are until dfi_port_release().
 *
 * @return the port, or NULL when no scanned port has this name.
 */
struct dfi_port *dfi_port_acquire(const char *name, bool lockfree);
void dfi_port_release(struct dfi_port *port, bool lockfree);

/** @return true when one domain, a lock-free (FI_THREAD_DOMAIN) one, uses the port. */
bool dfi_port_single_lockfree(struct dfi_port *port);

/**
 * Whether a kernel interface's link is up: administratively up (IFF_UP) with
 * a carrier, by ETHTOOL_GLINK where the driver answers it, at once, else by
 * IFF_RUNNING, which follows the carrier up to a second late (linkwatch). Two
 * ioctls on fd, an AF_INET socket; true when the kernel does not answer.
 */
bool dfi_kernel_link_up(int fd, const char *ifname);

/** @return the netmask (network order) of a prefix length. */
static inline uint32_t
dfi_prefix_mask(uint8_t prefix_len)
{
	return prefix_len == 0 ? 0 : rte_cpu_to_be_32(~0u << (32 - prefix_len));
}

/** @return true when addr (network order) is inside the port's network. */
static inline bool
dfi_port_on_link(const struct dfi_port *port, uint32_t addr)
{
	uint32_t mask = dfi_prefix_mask(port->prefix_len);

	return (addr & mask) == (port->ipv4 & mask);
}

/** @return the next hop towards dst: dst itself on link, else the gateway, or 0. */
static inline uint32_t
dfi_port_next_hop(const struct dfi_port *port, uint32_t dst)
{
	return dfi_port_on_link(port, dst) ? dst : port->gateway;
}

/**
 * Frees the port table, called from the provider cleanup; with own_eal (the
 * provider started the EAL) the ports are stopped and closed and their mbufs
 * checked home first.
 */
void dfi_ports_fini(bool own_eal);

#endif /* _DFI_PORT_H_ */
