/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/**
 * @file
 * Extensions of the dpdk libfabric provider that applications may use.
 */

#ifndef _FI_EXT_DPDK_H_
#define _FI_EXT_DPDK_H_

#include <stddef.h>
#include <stdint.h>

#include <rdma/fabric.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Address format of raw-Ethernet endpoint addresses: a MAC address and the
 * endpoint's port, with no IP address. Ask for it in hints->addr_format.
 */
#define FI_ADDR_DPDK	(FI_PROV_SPECIFIC | 0xd9d0)

/** URI scheme of FI_ADDR_DPDK addresses: fi_addr_dpdk://[02:00:00:00:00:01]:7471 */
#define FI_ADDR_DPDK_URI	"fi_addr_dpdk://"

/** A raw-Ethernet endpoint address (FI_ADDR_DPDK). */
struct fi_dpdk_addr {
	uint8_t mac[6];		/**< the port's MAC address */
	uint16_t port;		/**< endpoint port, network byte order */
};

/**
 * Name of the endpoint extension, for fi_open_ops() on an endpoint:
 *
 *   struct fi_dpdk_ep_ops *ops;
 *   fi_open_ops(&ep->fid, FI_DPDK_EP_OPS_1, 0, (void **)&ops, NULL);
 *   fi_dpdk_ep_stats(ops, ep, &stats);
 */
#define FI_DPDK_EP_OPS_1	"dpdk_ep_ops_v1"

/** What an endpoint and its port counted (zeros where they do not apply). */
struct fi_dpdk_ep_stats {
	/* the reliable protocol (FI_EP_RDM) */
	uint64_t tx_pkts;		/**< packets sent */
	uint64_t tx_retransmits;	/**< of those, sent again */
	uint64_t tx_timeouts;		/**< probe timeouts after an unanswered probe */
	uint64_t tx_fast_retransmits;	/**< holes sent again before a timeout */
	uint64_t tx_no_room;		/**< packets the port had no room for: as if lost */
	uint64_t rx_pkts;		/**< packets received */
	uint64_t rx_duplicates;		/**< had them already */
	uint64_t rx_out_of_order;	/**< held until the hole before them filled */
	uint64_t rx_beyond_window;	/**< dropped: too far ahead */
	uint64_t rx_bad;		/**< dropped: CRC or header wrong */
	uint64_t rx_stale;		/**< dropped: for or from another incarnation */
	uint64_t rx_unknown;		/**< dropped: from no connection */
	uint64_t rnr_sent;		/**< messages refused for want of a receive */
	uint64_t rnr_received;
	uint64_t acks_sent;		/**< acknowledgements sent alone */
	uint64_t msgs_sent;
	uint64_t msgs_received;
	uint64_t peers_reset;		/**< connections ended by a peer's restart */
	uint64_t peers_timed_out;	/**< peers given up after the deadline */
	uint64_t peers_closed;		/**< connections ended by the peer's fi_close() */
	/* the port's injected faults (FI_DPDK_FAULT), per direction: tx, rx */
	uint64_t fault_frames[2];	/**< frames the injector saw */
	uint64_t fault_dropped[2];
	uint64_t fault_duplicated[2];
	uint64_t fault_reordered[2];
	uint64_t fault_corrupted[2];
	/* the port's receive path */
	uint64_t port_rx_bad;		/**< bad IPv4/UDP header or checksum */
	uint64_t port_rx_dropped;	/**< the PMD's: no room, no mbuf, errors */
	/* loss recovery of the reliable protocol (fields are only ever appended) */
	uint64_t tx_probes;		/**< tail-loss probes sent (tx_timeouts of them backed off) */
	uint64_t tx_spurious;		/**< resends whose original had arrived after all */
	uint64_t repaired_fast;		/**< lost packets repaired by fast retransmission */
	uint64_t repaired_probe;	/**< by a probe, or a resend the probe's answer asked for */
	uint64_t repaired_timeout;	/**< the same, once the probe timer had backed off */
	uint64_t progress_rescues;	/**< progress calls the domain's watchdog made while the
					 * application stayed away with work under way */
	/* injects sent at once, their packets kept until acknowledged */
	uint64_t injects_kept;		/**< such injects (of msgs_sent) */
	uint64_t injects_kept_resent;	/**< their packets sent again (of tx_retransmits) */
	/* the port's link */
	uint64_t port_restarts;		/**< restarts of a memif client's port to connect
					 * again while its link was down */
};

/** The endpoint extension. Its members, like the statistics' fields, are only
 * ever appended. */
struct fi_dpdk_ep_ops {
	size_t size;			/**< sizeof(struct fi_dpdk_ep_ops) */
	/** Copies the endpoint's statistics, the whole structure as the provider
	 * was built with it: for a caller built with the same header only.
	 * @return 0 or -FI_EINVAL. */
	int (*stats)(struct fid_ep *ep, struct fi_dpdk_ep_stats *stats);
	/** Fills size bytes at stats: the fields that fit, and zeros past the
	 * provider's own structure. @return 0 or -FI_EINVAL. */
	int (*stats_sized)(struct fid_ep *ep, struct fi_dpdk_ep_stats *stats, size_t size);
};

/**
 * Copies the endpoint's statistics into a structure as large as this header
 * makes it, whichever provider runs: fields it has and the provider does not
 * are left as they were (older providers), fields the provider has and it
 * does not are not written (newer ones).
 */
static inline int
fi_dpdk_ep_stats(const struct fi_dpdk_ep_ops *ops, struct fid_ep *ep,
		 struct fi_dpdk_ep_stats *stats)
{
	if (ops->size < offsetof(struct fi_dpdk_ep_ops, stats_sized) + sizeof(ops->stats_sized))
		return ops->stats(ep, stats);	/* its structure is not larger */
	return ops->stats_sized(ep, stats, sizeof(*stats));
}

#ifdef __cplusplus
}
#endif

#endif /* _FI_EXT_DPDK_H_ */
