/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Copies between application I/O vectors and mbuf chains. */

#ifndef _DFI_IOV_H_
#define _DFI_IOV_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include <rte_common.h>
#include <rte_mbuf.h>

/** @return the bytes an I/O vector holds. */
static inline size_t
dfi_iov_len(const struct iovec *iov, size_t count)
{
	size_t len = 0, i;

	for (i = 0; i < count; i++)
		len += iov[i].iov_len;
	return len;
}

/**
 * Copies len bytes from an I/O vector, starting iov_off bytes into it, to
 * dst.
 */
static inline void
dfi_iov_gather(void *dst, const struct iovec *iov, size_t count, size_t iov_off, size_t len)
{
	uint8_t *d = dst;
	size_t i, n;

	for (i = 0; i < count && len > 0; i++) {
		if (iov_off >= iov[i].iov_len) {
			iov_off -= iov[i].iov_len;
			continue;
		}
		n = RTE_MIN(len, iov[i].iov_len - iov_off);
		memcpy(d, (const uint8_t *)iov[i].iov_base + iov_off, n);
		d += n;
		len -= n;
		iov_off = 0;
	}
}

/**
 * Copies the bytes of an mbuf chain from offset off to its end into an I/O
 * vector, starting iov_off bytes into it, as far as the vector reaches.
 *
 * @return the bytes copied.
 */
static inline size_t
dfi_iov_scatter_mbuf(const struct iovec *iov, size_t count, size_t iov_off,
		     const struct rte_mbuf *m, uint32_t off)
{
	size_t copied = 0, i = 0, n;
	const uint8_t *src;
	uint32_t seg_left;

	while (m != NULL && off >= m->data_len) {
		off -= m->data_len;
		m = m->next;
	}
	while (i < count && iov_off >= iov[i].iov_len)
		iov_off -= iov[i++].iov_len;
	while (m != NULL && i < count) {
		src = rte_pktmbuf_mtod_offset(m, const uint8_t *, off);
		seg_left = m->data_len - off;
		n = RTE_MIN((size_t)seg_left, iov[i].iov_len - iov_off);
		memcpy((uint8_t *)iov[i].iov_base + iov_off, src, n);
		copied += n;
		off += (uint32_t)n;
		iov_off += n;
		if (iov_off == iov[i].iov_len) {
			i++;
			iov_off = 0;
		}
		if (off == m->data_len) {
			m = m->next;
			off = 0;
		}
	}
	return copied;
}

#endif /* _DFI_IOV_H_ */
