/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The connection manager's packets: a struct dfi_rdm_hdr with the CM data as
 * payload, always sealed with both CRC32Cs (the control path can afford them
 * on every wire), so a request's incarnation and number are believed only
 * when intact.
 */

#include <string.h>

#include <rdma/fi_errno.h>

#include <rte_cycles.h>

#include "dfi.h"
#include "cm.h"
#include "crc32c.h"
#include "params.h"

/*
 * The header's CRC, going on over the sender's address: a bit flipped in a
 * frame's source MAC or port (virtual devices check no FCS, and the provider
 * skips the UDP checksum) made a request from an address nobody has, which
 * the listener reported as a second FI_CONNREQ and answered into the void.
 * The address is taken as dfi_addr_equal() compares it.
 */
static uint32_t
cm_hcrc(const struct dfi_rdm_hdr *h, const struct dfi_addr *src)
{
	uint8_t a[1 + sizeof(src->port) + sizeof(src->mac)];
	size_t len = 1 + sizeof(src->port);

	a[0] = src->kind;
	memcpy(&a[1], &src->port, sizeof(src->port));
	if (src->kind == DFI_ADDR_ETH) {
		memcpy(&a[len], src->mac, sizeof(src->mac));
		len += sizeof(src->mac);
	} else {
		memcpy(&a[len], &src->ipv4, sizeof(src->ipv4));
		len += sizeof(src->ipv4);
	}
	return dfi_crc32c(a, len, dfi_crc32c(h, sizeof(*h), UINT32_MAX));
}

int
dfi_cm_parse(struct rte_mbuf *m, const struct dfi_addr *src, struct dfi_cm_pkt *c)
{
	struct dfi_rdm_hdr *h = rte_pktmbuf_mtod(m, struct dfi_rdm_hdr *);
	uint32_t hcrc, len;
	const uint8_t *payload;

	if (m->nb_segs != 1 || rte_pktmbuf_data_len(m) < sizeof(*h) ||
	    rte_be_to_cpu_16(h->hdr_len) != sizeof(*h) || h->version != DFI_WIRE_VERSION ||
	    !(h->flags & rte_cpu_to_be_16(DFI_RDM_F_CRC)))
		return -FI_EINVAL;
	len = rte_be_to_cpu_32(h->msg_len);
	if (len > DFI_CM_DATA_MAX || rte_pktmbuf_data_len(m) < sizeof(*h) + len)
		return -FI_EINVAL;
	hcrc = h->hcrc;
	h->hcrc = 0;
	if (rte_cpu_to_be_32(cm_hcrc(h, src)) != hcrc)
		return -FI_EINVAL;
	h->hcrc = hcrc;
	payload = (const uint8_t *)(h + 1);
	if (rte_cpu_to_be_32(dfi_crc32c(payload, len, UINT32_MAX)) != h->pcrc)
		return -FI_EINVAL;
	c->type = h->type;
	c->src_inc = rte_be_to_cpu_32(h->src_inc);
	c->dst_inc = rte_be_to_cpu_32(h->dst_inc);
	c->conn_id = rte_be_to_cpu_32(h->msg_seq);
	c->err = rte_be_to_cpu_64(h->data);
	c->data = payload;
	c->len = len;
	return c->src_inc != 0 ? 0 : -FI_EINVAL;
}

int
dfi_cm_send(struct dfi_sink *sink, uint8_t encap, const struct dfi_addr *dst,
	    const struct dfi_cm_pkt *c)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(sink->port->rt->pool);
	struct dfi_rdm_hdr *h;
	int ret;

	if (m == NULL)
		return -FI_ENOMEM;
	h = (struct dfi_rdm_hdr *)rte_pktmbuf_append(m, (uint16_t)(sizeof(*h) + c->len));
	if (h == NULL) {
		rte_pktmbuf_free(m);
		return -FI_ENOMEM;
	}
	memset(h, 0, sizeof(*h));
	h->version = DFI_WIRE_VERSION;
	h->type = c->type;
	h->flags = rte_cpu_to_be_16(DFI_RDM_F_CRC);
	h->src_inc = rte_cpu_to_be_32(c->src_inc);
	h->dst_inc = rte_cpu_to_be_32(c->dst_inc);
	h->msg_seq = rte_cpu_to_be_32(c->conn_id);
	h->msg_len = rte_cpu_to_be_32(c->len);
	h->hdr_len = rte_cpu_to_be_16(sizeof(*h));
	h->data = rte_cpu_to_be_64(c->err);
	if (c->len != 0)
		memcpy(h + 1, c->data, c->len);
	h->pcrc = rte_cpu_to_be_32(dfi_crc32c(h + 1, c->len, UINT32_MAX));
	h->hcrc = rte_cpu_to_be_32(cm_hcrc(h, &c->src));
	if (dfi_sink_tx_room(sink) == 0)
		dfi_sink_flush(sink);
	ret = dfi_sink_send(sink, (enum dfi_encap)encap, dst, m);
	if (ret != 0) {
		/* as if lost: the sender's timer sends it again */
		rte_pktmbuf_free(m);
		return ret;
	}
	dfi_sink_flush(sink);
	return 0;
}

uint64_t
dfi_cm_timeout(void)
{
	long ms = dfi_param_int(DFI_PARAM_CM_TIMEOUT_MS, 5000, 10, 3600000);

	/* a bad value was logged: the default then */
	return rte_get_tsc_hz() * (uint64_t)(ms < 0 ? 5000 : ms) / 1000;
}

uint64_t
dfi_cm_backoff(uint64_t retry)
{
	uint64_t max = rte_get_tsc_hz() * CM_RETRY_MAX_US / 1000000;

	if (retry == 0)
		return rte_get_tsc_hz() * CM_RETRY_US / 1000000;
	return retry * 2 < max ? retry * 2 : max;
}
