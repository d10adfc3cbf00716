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

#include "copy.h"
#include "crc32c.h"

/** @return the bytes an I/O vector holds. */
static inline size_t
dfi_iov_len(const struct iovec *iov, size_t count)
{
	size_t len = 0, i;

	for (i = 0; i < count; i++)
		len += iov[i].iov_len;
	return len;
}

/* One piece of iov_copy(): n bytes between v and the flat buffer at off. */
static __rte_always_inline void
iov_copy_one(uint8_t *v, uint8_t *flat_out, const uint8_t *flat_in, size_t off, size_t n,
	     uint32_t *crc)
{
	if (flat_out != NULL && crc != NULL)
		*crc = dfi_crc32c_copy(flat_out + off, v, n, *crc);
	else if (flat_out != NULL)
		dfi_copy(flat_out + off, v, n);
	else if (crc != NULL)
		*crc = dfi_crc32c_copy(v, flat_in + off, n, *crc);
	else
		dfi_copy(v, flat_in + off, n);
}

/*
 * The walk under the copies below: len bytes between an I/O vector, from
 * iov_off bytes into it, and a flat buffer, out of the vector into flat_out
 * or into it from flat_in, as far as the vector reaches. With crc, the bytes
 * are checksummed as they are copied, from *crc on.
 * @return the bytes copied.
 */
static __rte_always_inline size_t
iov_copy(const struct iovec *iov, size_t count, size_t iov_off, uint8_t *flat_out,
	 const uint8_t *flat_in, size_t len, uint32_t *crc)
{
	size_t copied = 0, i, n;

	/* one buffer that holds it all, a message's mostly: the walk took 45
	 * instructions of a 64-byte message's send, and as many of its receive
	 * (callgrind, bench_ep) */
	if (count == 1 && len != 0 && iov_off <= iov[0].iov_len &&
	    len <= iov[0].iov_len - iov_off) {
		iov_copy_one((uint8_t *)iov[0].iov_base + iov_off, flat_out, flat_in, 0, len, crc);
		return len;
	}
	for (i = 0; i < count && copied < len; i++) {
		if (iov_off >= iov[i].iov_len) {
			iov_off -= iov[i].iov_len;
			continue;
		}
		n = RTE_MIN(len - copied, iov[i].iov_len - iov_off);
		iov_copy_one((uint8_t *)iov[i].iov_base + iov_off, flat_out, flat_in, copied, n,
			     crc);
		copied += n;
		iov_off = 0;
	}
	return copied;
}

/** Copies len bytes from an I/O vector, starting iov_off bytes into it, to dst. */
static inline void
dfi_iov_gather(void *dst, const struct iovec *iov, size_t count, size_t iov_off, size_t len)
{
	iov_copy(iov, count, iov_off, dst, NULL, len, NULL);
}

/**
 * dfi_iov_gather() that also returns the CRC32C of what it copied, from
 * crc on.
 */
static inline uint32_t
dfi_iov_gather_crc(void *dst, const struct iovec *iov, size_t count, size_t iov_off,
		   size_t len, uint32_t crc)
{
	iov_copy(iov, count, iov_off, dst, NULL, len, &crc);
	return crc;
}

/**
 * Copies len bytes from src into an I/O vector, starting iov_off bytes into
 * it, as far as the vector reaches.
 *
 * @return the bytes copied.
 */
static inline size_t
dfi_iov_scatter(const struct iovec *iov, size_t count, size_t iov_off, const void *src,
		size_t len)
{
	return iov_copy(iov, count, iov_off, NULL, src, len, NULL);
}

/**
 * dfi_iov_scatter() that also returns the CRC32C of what it was given (all
 * len bytes, copied or not), from crc on.
 */
static inline uint32_t
dfi_iov_scatter_crc(const struct iovec *iov, size_t count, size_t iov_off, const void *src,
		    size_t len, uint32_t crc)
{
	size_t copied = iov_copy(iov, count, iov_off, NULL, src, len, &crc);

	return copied < len ? dfi_crc32c((const uint8_t *)src + copied, len - copied, crc) : crc;
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
		dfi_copy((uint8_t *)iov[i].iov_base + iov_off, src, n);
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
