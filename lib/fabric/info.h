/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * What the provider offers: the capability classes of fi_getinfo(3) and the
 * attribute templates of each endpoint type, before any hint is applied.
 */

#ifndef _DFI_INFO_H_
#define _DFI_INFO_H_

#include <rdma/fabric.h>

#include "port.h"

/* Capability classes, as fi_getinfo(3) defines them. */
#define DFI_PRIMARY_CAPS	(FI_MSG | FI_RMA | FI_TAGGED | FI_ATOMIC | FI_MULTICAST | \
				 FI_NAMED_RX_CTX | FI_DIRECTED_RECV | FI_VARIABLE_MSG | \
				 FI_HMEM | FI_COLLECTIVE)
#define DFI_MSG_MODS		(FI_SEND | FI_RECV)
#define DFI_RMA_MODS		(FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE)
#define DFI_SECONDARY_CAPS	(FI_MULTI_RECV | FI_SOURCE | FI_RMA_EVENT | FI_SHARED_AV | \
				 FI_TRIGGER | FI_FENCE | FI_LOCAL_COMM | FI_REMOTE_COMM | \
				 FI_SOURCE_ERR | FI_RMA_PMEM)
/* Which side of an endpoint each capability belongs to. */
#define DFI_TX_CAPS		(FI_MSG | FI_RMA | FI_TAGGED | FI_ATOMIC | FI_MULTICAST | \
				 FI_NAMED_RX_CTX | FI_HMEM | FI_COLLECTIVE | FI_SEND | \
				 FI_READ | FI_WRITE | FI_TRIGGER | FI_FENCE | FI_RMA_PMEM)
#define DFI_RX_CAPS		(FI_MSG | FI_RMA | FI_TAGGED | FI_ATOMIC | FI_DIRECTED_RECV | \
				 FI_VARIABLE_MSG | FI_HMEM | FI_COLLECTIVE | FI_RECV | \
				 FI_REMOTE_READ | FI_REMOTE_WRITE | FI_RMA_PMEM | FI_SOURCE | \
				 FI_SOURCE_ERR | FI_RMA_EVENT | FI_MULTI_RECV | FI_TRIGGER)
#define DFI_DOMAIN_CAPS		(FI_LOCAL_COMM | FI_REMOTE_COMM | FI_SHARED_AV)

/* What each endpoint type of this provider supports. */
/*
 * What an RDM endpoint keeps in order towards one peer: every operation,
 * send, write, read request or atomic, takes the next number of one
 * sequence per peer and is transmitted, and processed by the target, in
 * that order. An atomic takes the values it fetches when it is carried out.
 */
#define DFI_RDM_MSG_ORDER	(FI_ORDER_RAR | FI_ORDER_RAW | FI_ORDER_RAS | FI_ORDER_WAR | \
				 FI_ORDER_WAW | FI_ORDER_WAS | FI_ORDER_SAR | FI_ORDER_SAW | \
				 FI_ORDER_SAS | FI_ORDER_RMA_RAR | FI_ORDER_RMA_RAW | \
				 FI_ORDER_RMA_WAR | FI_ORDER_RMA_WAW | FI_ORDER_ATOMIC_RAR | \
				 FI_ORDER_ATOMIC_RAW | FI_ORDER_ATOMIC_WAR | FI_ORDER_ATOMIC_WAW)

#define DFI_RDM_CAPS		(FI_MSG | FI_TAGGED | FI_RMA | FI_ATOMIC | DFI_MSG_MODS | \
				 DFI_RMA_MODS | FI_DIRECTED_RECV | FI_MULTI_RECV | FI_SOURCE | \
				 FI_RMA_EVENT | FI_LOCAL_COMM | FI_REMOTE_COMM | FI_SHARED_AV | \
				 FI_TRIGGER | FI_NAMED_RX_CTX)
/* FI_EP_MSG: RDM's data path to the one connected peer; no AV, so no
 * source addresses or directed receives */
#define DFI_MSG_CAPS		(FI_MSG | FI_TAGGED | FI_RMA | FI_ATOMIC | DFI_MSG_MODS | DFI_RMA_MODS | \
				 FI_MULTI_RECV | FI_RMA_EVENT | FI_LOCAL_COMM | FI_REMOTE_COMM)
#define DFI_DGRAM_CAPS		(FI_MSG | DFI_MSG_MODS | FI_SOURCE | FI_LOCAL_COMM | \
				 FI_REMOTE_COMM | FI_SHARED_AV | FI_NAMED_RX_CTX)
/* Secondary capabilities reported unasked: they cost nothing. */
#define DFI_FREE_CAPS		(FI_MULTI_RECV | FI_LOCAL_COMM | FI_REMOTE_COMM)

/* Provider-specific protocol of the reliable datagram endpoints. */
#define DFI_PROTO_RDM		(FI_PROV_SPECIFIC | 1)
#define DFI_PROTO_VERSION	1
/* Provider-specific protocol of the connected endpoints (RDM's, with a connection manager). */
#define DFI_PROTO_MSG		(FI_PROV_SPECIFIC | 3)
/* Tags are opaque 64-bit values (FI_TAG_GENERIC of later libfabric). */
#define DFI_TAG_FORMAT		0xaaaaaaaaaaaaaaaaULL

/* Operation flags an endpoint accepts as defaults (fi_endpoint(3)). */
#define DFI_TX_OP_FLAGS		(FI_INJECT | FI_COMPLETION | FI_INJECT_COMPLETE | \
				 FI_TRANSMIT_COMPLETE | FI_DELIVERY_COMPLETE | \
				 FI_REMOTE_CQ_DATA | FI_MORE)
#define DFI_DGRAM_TX_OP_FLAGS	(DFI_TX_OP_FLAGS & ~FI_DELIVERY_COMPLETE)
#define DFI_RX_OP_FLAGS		(FI_COMPLETION | FI_MULTI_RECV | FI_MORE)
#define DFI_DGRAM_RX_OP_FLAGS	(FI_COMPLETION | FI_MORE)

/* Datagrams in raw Ethernet frames. */
#define DFI_PROTO_DGRAM_ETH	(FI_PROV_SPECIFIC | 2)

/** Endpoint types offered, fastest first. */
extern const enum fi_ep_type dfi_ep_types[];
extern const unsigned int dfi_ep_type_count;

/**
 * Allocates the provider's fi_info for one endpoint type on one port: every
 * attribute at its maximum, no address, no nic.
 *
 * @return the info (fi_freeinfo() it), or NULL when out of memory.
 */
struct fi_info *dfi_info_template(enum fi_ep_type type, const struct dfi_port *port);

#endif /* _DFI_INFO_H_ */
