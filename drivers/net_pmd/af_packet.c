/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* net_af_packet ports: their ring slot size, from their device arguments,
 * and their kernel interface's MTU (af_packet.h). */

#include <linux/if_packet.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_ethdev.h>

#include "af_packet.h"
#include "bond.h"
#include "devargs.h"
#include "net_log.h"
#include "wire.h"

/* drivers/net/af_packet/rte_eth_af_packet.c */
#define AF_PACKET_DRIVER		"net_af_packet"
#define AF_PACKET_FRAMESZ_ARG		"framesz"
#define AF_PACKET_FRAMESZ_DEFAULT	2048
#define AF_PACKET_BLOCKSZ_ARG		"blocksz"	/* the page size by default */

/*
 * Where the kernel puts a received frame's network header in a TPACKET_V2
 * slot (net/packet/af_packet.c, tpacket_rcv(): the slot's header and
 * address, with room for a 16-byte link header, aligned): a frame whose
 * packet goes past the slot's end is cut there.
 */
#define AF_PACKET_RX_NETOFF	TPACKET_ALIGN(TPACKET2_HDRLEN + 16)

bool
dfi_af_packet_is(uint16_t port_id)
{
	return dfi_driver_is(port_id, AF_PACKET_DRIVER);
}

static uint32_t
framesz(uint16_t port_id)
{
	uint32_t v = AF_PACKET_FRAMESZ_DEFAULT;

	dfi_devarg(port_id, AF_PACKET_FRAMESZ_ARG, dfi_devarg_u32, &v);
	return v;
}

uint16_t
dfi_af_packet_mtu(uint16_t port_id, const char *ifname)
{
	struct ifreq ifr;
	uint32_t slot = framesz(port_id);
	int fd, ret;

	if (ifname[0] == '\0' || strlen(ifname) >= sizeof(ifr.ifr_name))
		return 0;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, ifname);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	ret = ioctl(fd, SIOCGIFMTU, &ifr);
	close(fd);
	if (ret != 0 || ifr.ifr_mtu <= 0 || slot <= AF_PACKET_RX_NETOFF)
		return 0;
	return (uint16_t)RTE_MIN(RTE_MIN((uint32_t)ifr.ifr_mtu, slot - AF_PACKET_RX_NETOFF),
				 (uint32_t)DFI_JUMBO_MTU);
}

bool
dfi_af_packet_rings_ok(uint16_t port_id)
{
	uint32_t slot = framesz(port_id), block = (uint32_t)getpagesize();
	char name[RTE_ETH_NAME_MAX_LEN] = "?";

	dfi_devarg(port_id, AF_PACKET_BLOCKSZ_ARG, dfi_devarg_u32, &block);
	if (slot != 0 && block % slot == 0)
		return true;
	rte_eth_dev_get_name_by_port(port_id, name);
	NET_LOG(WARNING, "%s: blocksz %u is not a multiple of framesz %u: DPDK's af_packet then "
		"reads and writes its rings in the wrong places and stops after a few frames "
		"(framesz=9216,blocksz=36864 fits a 9000-byte MTU)", name, block, slot);
	return false;
}

uint32_t
dfi_af_packet_frame_room(uint16_t port_id)
{
	/* the PMD's own bound (eth_rx_queue_setup()): the slot less its
	 * tpacket2_hdr, its sockaddr_ll kept */
	return framesz(port_id) - (TPACKET2_HDRLEN - sizeof(struct sockaddr_ll));
}

int
dfi_af_packet_spread(uint16_t port_id, const struct rte_eth_dev_info *info)
{
	uint16_t members[RTE_MAX_ETHPORTS], n, i;
	int most = RTE_MAX(RTE_MIN(info->max_rx_queues, info->max_tx_queues), 1), spread = 1;
	char name[RTE_ETH_NAME_MAX_LEN] = "?";
	struct rte_eth_dev_info member;

	/* the PMD's queue pairs are its sockets (eth_dev_info()) */
	if (dfi_af_packet_is(port_id))
		return most;
	/* a bond configures its members with as many queues as it has */
	n = dfi_bond_members(port_id, members);
	for (i = 0; i < n; i++) {
		if (rte_eth_dev_info_get(members[i], &member) == 0)
			spread = RTE_MAX(spread, dfi_af_packet_spread(members[i], &member));
	}
	if (spread <= most)
		return spread;
	/* the bond takes as many queues as its smallest member: the sockets
	 * of a larger one beyond those would fill and never be read */
	rte_eth_dev_get_name_by_port(port_id, name);
	NET_LOG(ERR, "%s: a member takes frames on %d sockets (qpairs) but the bond configures "
		"only %d queue pairs, its smallest member's: the frames on the others would be "
		"lost; give its af_packet members the same qpairs", name, spread, most);
	return -EINVAL;
}
