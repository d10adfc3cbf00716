/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The wire format: every byte the provider puts on a port. Two
 * encapsulations carry the same provider header:
 *
 *   IPv4/UDP (default, routable):
 *     | Ethernet (14) | IPv4 (20) | UDP (8) | dfi_hdr (16) | payload |
 *   raw Ethernet (FI_DPDK_ENCAP=eth, or FI_ADDR_DPDK addresses):
 *     | Ethernet (14), type 0x88b5 | dfi_eth_shim (16) | dfi_hdr (16) | payload |
 *
 * The UDP ports, or the shim's ports, name the endpoints: a provider endpoint
 * is an IPv4 address (or MAC) and a port, in both encapsulations. Multi-byte
 * fields are big-endian. doc/design.md describes the protocol on top.
 */

#ifndef _DFI_WIRE_H_
#define _DFI_WIRE_H_

#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_udp.h>

/** IEEE 802 "local experimental" EtherType, the raw encapsulation's. */
#define DFI_ETHER_TYPE		0x88b5
/** Version of dfi_hdr; a peer seeing another one drops the packet. */
#define DFI_WIRE_VERSION	1

enum dfi_encap {
	DFI_ENCAP_UDP,
	DFI_ENCAP_ETH,
};

/** The raw encapsulation's stand-in for the IPv4 and UDP headers. */
struct dfi_eth_shim {
	rte_be32_t src_ip;	/* 0 with FI_ADDR_DPDK addresses */
	rte_be32_t dst_ip;
	rte_be16_t src_port;
	rte_be16_t dst_port;
	rte_be16_t len;		/* bytes from the shim's end: frames may be padded */
	rte_be16_t reserved;
} __rte_packed;

/* dfi_hdr types */
enum dfi_pkt_type {
	DFI_PKT_DGRAM = 1,	/* an FI_EP_DGRAM datagram */
	DFI_PKT_RDM_FIRST = 16,	/* the reliable protocol's types follow */
};

/* dfi_hdr flags */
#define DFI_HDR_F_CQ_DATA	0x0001	/* cq_data carries FI_REMOTE_CQ_DATA */

/** The provider header, at the start of every UDP payload or after the shim. */
struct dfi_hdr {
	uint8_t version;	/* DFI_WIRE_VERSION */
	uint8_t type;		/* enum dfi_pkt_type */
	rte_be16_t flags;
	rte_be32_t reserved;
	rte_be64_t cq_data;
} __rte_packed;

#define DFI_UDP_HDRS_LEN	(sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr) + \
				 sizeof(struct rte_udp_hdr))
#define DFI_ETH_HDRS_LEN	(sizeof(struct rte_ether_hdr) + sizeof(struct dfi_eth_shim))
/** Bytes an MTU loses to the encapsulation and dfi_hdr (the Ethernet header
 * is not part of the MTU). */
#define DFI_UDP_OVERHEAD	(sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr) + \
				 sizeof(struct dfi_hdr))
#define DFI_ETH_OVERHEAD	(sizeof(struct dfi_eth_shim) + sizeof(struct dfi_hdr))
/** Headroom a packet needs in front of dfi_hdr, whatever the encapsulation. */
#define DFI_MAX_HDRS_LEN	(DFI_UDP_HDRS_LEN > DFI_ETH_HDRS_LEN ? DFI_UDP_HDRS_LEN : DFI_ETH_HDRS_LEN)

/** @return the largest payload after dfi_hdr that fits an MTU. */
static inline uint16_t
dfi_wire_max_payload(uint16_t mtu, enum dfi_encap encap)
{
	size_t overhead = encap == DFI_ENCAP_UDP ? DFI_UDP_OVERHEAD : DFI_ETH_OVERHEAD;

	return mtu > overhead ? (uint16_t)(mtu - overhead) : 0;
}

#endif /* _DFI_WIRE_H_ */
