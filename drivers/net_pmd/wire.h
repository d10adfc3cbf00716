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
 * is an IPv4 address (or MAC) and a port, in both encapsulations. A scalable
 * endpoint is a range of ports from its name: receive context i at name + i,
 * then the transmit contexts; its packets carry name_off, the sending
 * context's place in the range, so that a receiver finds the name (FI_SOURCE)
 * while it answers the context's own port. Multi-byte
 * fields are big-endian. FI_EP_DGRAM puts struct dfi_hdr behind the
 * encapsulation, FI_EP_RDM struct dfi_rdm_hdr; both start with the version
 * and the type. doc/design.md and doc/rdm-protocol.md describe the protocols.
 */

#ifndef _DFI_WIRE_H_
#define _DFI_WIRE_H_

#include <stdint.h>

#include <rdma/fabric.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "encap.h"

/* DSCP code points (RFC 2474, 3246, 2597, 4594) the traffic class labels map to */
#define DFI_DSCP_DF		0	/* default forwarding */
#define DFI_DSCP_CS1		8	/* low-priority data */
#define DFI_DSCP_AF11		10	/* high-throughput data */
#define DFI_DSCP_AF41		34	/* multimedia conferencing: assured, low loss */
#define DFI_DSCP_CS5		40	/* signalling: the urgent classes start here */
#define DFI_DSCP_EF		46	/* expedited forwarding: low latency, low jitter */
#define DFI_DSCP_CS6		48	/* network control */
#define DFI_DSCP_MAX		63

/**
 * The DSCP code point a libfabric traffic class (fi_endpoint(3)) puts in
 * the IPv4 header: a value of fi_tc_dscp_set() as it is, a label after the
 * service class of RFC 4594 that fits it best.
 *
 * @return 0 to DFI_DSCP_MAX, or -1 for no traffic class of fi_endpoint(3).
 */
static inline int
dfi_wire_dscp(uint32_t tclass)
{
	if ((tclass & ~0xffu) == FI_TC_DSCP)
		return (tclass & 0xff) <= DFI_DSCP_MAX ? (int)(tclass & 0xff) : -1;
	switch (tclass) {
	case FI_TC_UNSPEC:
	case FI_TC_BEST_EFFORT:
		return DFI_DSCP_DF;
	case FI_TC_LOW_LATENCY:
		return DFI_DSCP_EF;
	case FI_TC_DEDICATED_ACCESS:
		return DFI_DSCP_AF41;
	case FI_TC_BULK_DATA:
		return DFI_DSCP_AF11;
	case FI_TC_SCAVENGER:
		return DFI_DSCP_CS1;
	case FI_TC_NETWORK_CTRL:
		return DFI_DSCP_CS6;
	default:
		return -1;
	}
}

/** IEEE 802 "local experimental" EtherType, the raw encapsulation's. */
#define DFI_ETHER_TYPE		0x88b5
/** Version of dfi_hdr; a peer seeing another one drops the packet. */
#define DFI_WIRE_VERSION	1

/* The two encapsulations, enum dfi_encap, are in encap.h. */

/** The raw encapsulation's stand-in for the IPv4 and UDP headers. */
struct dfi_eth_shim {
	rte_be32_t src_ip;	/* 0 with FI_ADDR_DPDK addresses */
	rte_be32_t dst_ip;
	rte_be16_t src_port;
	rte_be16_t dst_port;
	rte_be16_t len;		/* bytes from the shim's end: frames may be padded */
	rte_be16_t reserved;
} __rte_packed;

/* dfi_hdr and dfi_rdm_hdr types */
enum dfi_pkt_type {
	DFI_PKT_DGRAM = 1,	/* an FI_EP_DGRAM datagram */
	/* the reliable protocol; the first three are outside the sequence */
	DFI_PKT_RDM_CONN = 16,	/* connection request: psn is the sender's first */
	DFI_PKT_RDM_ACCEPT,	/* its answer, the same for the other direction */
	DFI_PKT_RDM_RESET,	/* "dst_inc is not me": the receiver of it restarted */
	DFI_PKT_RDM_ACK,	/* acknowledgement alone */
	DFI_PKT_RDM_RNR,	/* receiver not ready for psn: send it again later */
	DFI_PKT_RDM_RESUME,	/* ready again: send what was refused now */
	DFI_PKT_RDM_MSG,	/* a segment of a message (sequenced) */
	DFI_PKT_RDM_DONE,	/* message msg_seq was delivered (sequenced) */
	DFI_PKT_RDM_CLOSE,	/* the sender's endpoint closes (ACK_REQ: answer it) */
	DFI_PKT_RDM_WRITE,	/* a segment of an RMA write (sequenced) */
	DFI_PKT_RDM_READ_REQ,	/* an RMA read request, no payload (sequenced) */
	DFI_PKT_RDM_READ_RESP,	/* a segment of a read's answer (sequenced) */
	DFI_PKT_RDM_ATOMIC,	/* an atomic request: dfi_rdm_atomic, operands (sequenced) */
	DFI_PKT_RDM_ATOMIC_RESP, /* the values a fetch or compare atomic found (sequenced) */
	DFI_PKT_RDM_LAST = DFI_PKT_RDM_ATOMIC_RESP,
	/*
	 * FI_EP_MSG's connection manager (lib/ep/cm.c), outside the sequence:
	 * dfi_rdm_hdr with msg_seq the connection attempt's number (drawn by
	 * the connecting side), msg_len the CM data's length and the CM data as
	 * payload; data is the fabric errno of a REJECT.
	 */
	DFI_PKT_CM_REQ = 32,	/* connect to the listener at the destination */
	DFI_PKT_CM_ACCEPT,	/* accepted, from the accepting endpoint's own address */
	DFI_PKT_CM_REJECT,	/* refused (by fi_reject, the backlog, or a stale attempt) */
	DFI_PKT_CM_RTU,		/* the connecting side took the ACCEPT: ready to use */
	DFI_PKT_CM_DISC,	/* fi_shutdown(): the sender disconnects */
	DFI_PKT_CM_DISC_ACK,	/* its answer */
	DFI_PKT_CM_LAST = DFI_PKT_CM_DISC_ACK,
};

/** Bytes of CM data fi_connect(), fi_accept() and fi_reject() carry at most. */
#define DFI_CM_DATA_MAX		256

/* dfi_hdr flags */
#define DFI_HDR_F_CQ_DATA	0x0001	/* cq_data carries FI_REMOTE_CQ_DATA */

/** The provider header, at the start of every UDP payload or after the shim. */
struct dfi_hdr {
	uint8_t version;	/* DFI_WIRE_VERSION */
	uint8_t type;		/* enum dfi_pkt_type */
	rte_be16_t flags;
	rte_be16_t name_off;	/* the sender's UDP port less its endpoint's name's */
	rte_be16_t reserved;
	rte_be64_t cq_data;
} __rte_packed;

/* dfi_rdm_hdr flags */
#define DFI_RDM_F_TAGGED	0x0001	/* tag is the message's tag */
#define DFI_RDM_F_CQ_DATA	0x0002	/* data is FI_REMOTE_CQ_DATA */
#define DFI_RDM_F_DELIVERY	0x0004	/* the sender wants a DONE once delivered */
#define DFI_RDM_F_CRC		0x0008	/* hcrc and pcrc are set */
#define DFI_RDM_F_PROBE		0x0010	/* ACK: answer with an ACK (keepalive) */
#define DFI_RDM_F_ACK_REQ	0x0020	/* an operation waits on it: ack at once;
					 * CLOSE: answer with a CLOSE */
#define DFI_RDM_F_RMA		0x0040	/* DONE: msg_seq numbers an RMA operation */
#define DFI_RDM_F_ERROR		0x0080	/* DONE: it failed, data is the fabric errno */
#define DFI_RDM_F_ECHO_DUP	0x0100	/* ts_echo is a packet we had already (a needless
					 * resend, answered because it asked) */
#define DFI_RDM_F_BUNDLE	0x0200	/* MSG: whole messages msg_seq, msg_seq + 1...,
					 * msg_len of them, each a dfi_rdm_rec and its
					 * bytes; tag and data unused */
#define DFI_RDM_F_FETCH		0x0400	/* ATOMIC: answer with an ATOMIC_RESP of the
					 * values found (fetch and compare atomics) */

/**
 * The reliable protocol's header. The first 16 bytes are the same in every
 * version: a connection request carries the highest version its sender
 * speaks, the answer the one both use, and later packets that one.
 * Every packet carries the acknowledgement of the other direction.
 */
struct dfi_rdm_hdr {
	uint8_t version;	/* DFI_WIRE_VERSION */
	uint8_t type;		/* enum dfi_pkt_type */
	rte_be16_t flags;	/* DFI_RDM_F_* */
	rte_be32_t psn;		/* sequenced types: this packet's number */
	rte_be32_t src_inc;	/* the sending endpoint's incarnation, never 0 */
	rte_be32_t dst_inc;	/* the receiver's, as the sender knows it; 0 in CONN */
	rte_be32_t ack;		/* every PSN of the other direction below it arrived */
	rte_be16_t window;	/* PSNs from ack on that the receiver will take */
	rte_be16_t hdr_len;	/* sizeof(struct dfi_rdm_hdr) in this version */
	rte_be64_t sack;	/* bit i: PSN ack + 1 + i arrived too */
	rte_be32_t msg_seq;	/* MSG, DONE: the message's number from this sender;
				 * RMA: the operation's, counted apart */
	rte_be32_t offset;	/* MSG, WRITE, READ_RESP: the segment's place */
	rte_be32_t msg_len;	/* the message's, write's or read's length; CONN,
				 * ACCEPT: the largest segment payload the sender
				 * takes (0: a standard MTU's) */
	rte_be32_t hcrc;	/* CRC32C of this header with hcrc 0 (pcrc in) */
	rte_be64_t tag;		/* MSG: the tag; WRITE, READ_REQ, ATOMIC: the target
				 * address */
	rte_be64_t data;	/* MSG, WRITE, ATOMIC: remote CQ data; DONE: error */
	rte_be64_t key;		/* WRITE, READ_REQ, ATOMIC: the target region's key */
	rte_be32_t ts;		/* the sender's clock (TSC / 1024) */
	rte_be32_t ts_echo;	/* ts of the last new packet the sender received */
	rte_be32_t pcrc;	/* CRC32C of the payload: checked as it is copied */
	rte_be16_t name_off;	/* the sender's UDP port less its endpoint's name's */
	rte_be16_t reserved;
} __rte_packed;

/**
 * One of the small messages a bundle carries, followed by its len bytes.
 * flags are the message's own DFI_RDM_F_TAGGED, _CQ_DATA and _DELIVERY.
 */
struct dfi_rdm_rec {
	rte_be32_t len;
	rte_be16_t flags;
	rte_be16_t reserved;
	rte_be64_t tag;
	rte_be64_t data;
} __rte_packed;

/**
 * The start of an ATOMIC packet's payload (msg_seq numbers it among the
 * sender's RMA operations, msg_len is the payload's length): count elements
 * of datatype at the target address, then count operands (none for
 * FI_ATOMIC_READ), then count compare values (compare operations only), in
 * the sender's own representation: both ends share an architecture.
 */
struct dfi_rdm_atomic {
	uint8_t op;		/* enum fi_op */
	uint8_t datatype;	/* enum fi_datatype */
	rte_be16_t count;
	rte_be32_t reserved;
} __rte_packed;

/**
 * The largest IPv4 packet the provider sends to a peer that takes it, on a
 * port that carries more than Ethernet's 1500 bytes (memif's ring buffers, a
 * kernel interface's jumbo MTU under af_packet): a jumbo packet costs the
 * protocol, the PMD and the receiver what a 1500-byte one does, for six
 * times the data.
 */
#define DFI_JUMBO_MTU		9000

/*
 * Ethernet's, IPv4's (no options) and UDP's header lengths, as the standards
 * fix them: rxtx.c checks them against DPDK's structs, whose header
 * (rte_ether.h through rte_mbuf.h) would cost every source that includes
 * this one the parse of all x86 intrinsics.
 */
#define DFI_ETHER_HDR_LEN	14
#define DFI_IPV4_HDR_LEN	20
#define DFI_UDP_HDR_LEN		8

#define DFI_UDP_HDRS_LEN	(DFI_ETHER_HDR_LEN + DFI_IPV4_HDR_LEN + DFI_UDP_HDR_LEN)
#define DFI_ETH_HDRS_LEN	(DFI_ETHER_HDR_LEN + sizeof(struct dfi_eth_shim))
/** Bytes an MTU loses to the encapsulation and dfi_hdr (the Ethernet header
 * is not part of the MTU). */
#define DFI_UDP_OVERHEAD	(DFI_IPV4_HDR_LEN + DFI_UDP_HDR_LEN + sizeof(struct dfi_hdr))
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

/** @return the largest payload after dfi_rdm_hdr that fits an MTU. */
static inline uint16_t
dfi_wire_max_rdm_payload(uint16_t mtu, enum dfi_encap encap)
{
	uint16_t room = dfi_wire_max_payload(mtu, encap);
	size_t more = sizeof(struct dfi_rdm_hdr) - sizeof(struct dfi_hdr);

	return room > more ? (uint16_t)(room - more) : 0;
}

#endif /* _DFI_WIRE_H_ */
