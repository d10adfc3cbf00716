/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The two encapsulations of the wire format (wire.h), apart from it: a
 * domain names the one it was opened with, and wire.h pulls in DPDK's packet
 * headers, whose inline functions bring all of the x86 intrinsics' headers
 * (0.6 s of parsing for each source that sees them). With domain.h
 * including this and not wire.h, nor port.h (rte_ethdev.h), nine of the
 * provider's sources parse none of it: the provider's build took 24.7-25.4 s
 * against 27.0-27.8 on two vCPUs.
 */

#ifndef _DFI_ENCAP_H_
#define _DFI_ENCAP_H_

enum dfi_encap {
	DFI_ENCAP_UDP,		/* IPv4/UDP, routable */
	DFI_ENCAP_ETH,		/* raw Ethernet, EtherType 0x88b5 */
};

#endif /* _DFI_ENCAP_H_ */
