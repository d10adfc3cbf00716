/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Endpoint addresses in every form the provider takes and gives: IPv4
 * (FI_SOCKADDR_IN: the port's address and the endpoint's UDP port), raw
 * Ethernet (FI_ADDR_DPDK: MAC and endpoint port), and the URI strings of both
 * for FI_ADDR_STR. Internally an address is a struct dfi_addr.
 */

#ifndef _DFI_ADDR_H_
#define _DFI_ADDR_H_

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_byteorder.h>

#include "fi_ext_dpdk.h"

#define DFI_URI_SOCKADDR_IN	"fi_sockaddr_in://"
/** "fi_addr_dpdk://[02:00:00:00:00:01]:65535" plus NUL, the longest URI. */
#define DFI_ADDR_STRLEN		48

enum dfi_addr_kind {
	DFI_ADDR_NONE = 0,
	DFI_ADDR_IPV4,		/* ipv4 and port */
	DFI_ADDR_ETH,		/* mac and port */
};

struct dfi_addr {
	uint8_t kind;		/* enum dfi_addr_kind */
	uint8_t mac[6];
	uint16_t port;		/* network byte order */
	uint32_t ipv4;		/* network byte order */
};

/** @return a UDP port (network order) moved by n places, wrapping as uint16_t does. */
static inline uint16_t
dfi_port_add(uint16_t port, uint16_t n)
{
	return rte_cpu_to_be_16((uint16_t)(rte_be_to_cpu_16(port) + n));
}

static inline uint16_t
dfi_port_sub(uint16_t port, uint16_t n)
{
	return rte_cpu_to_be_16((uint16_t)(rte_be_to_cpu_16(port) - n));
}

/**
 * Parses an address URI: fi_sockaddr_in://a.b.c.d[:port], fi_sockaddr:// with
 * an IPv4 node, or fi_addr_dpdk://[xx:xx:xx:xx:xx:xx][:port].
 *
 * @return 0, or -FI_EINVAL when uri is none of these.
 */
int dfi_addr_from_uri(const char *uri, struct dfi_addr *a);

/**
 * Parses a MAC address written xx:xx:xx:xx:xx:xx, and nothing after it.
 *
 * @return 0, or -FI_EINVAL.
 */
int dfi_addr_parse_mac(const char *s, uint8_t mac[6]);

/**
 * Writes the URI of a into buf, truncated to len bytes, NUL included when
 * len > 0.
 *
 * @return the length the whole URI needs, NUL included.
 */
size_t dfi_addr_to_uri(const struct dfi_addr *a, char *buf, size_t len);

/** @return true when format is one the provider takes (after mapping aliases). */
int dfi_addr_format_normalize(uint32_t format, uint32_t *normalized);

/**
 * Reads an address in the form of format: a sockaddr_in for FI_SOCKADDR_IN
 * and FI_SOCKADDR (and FI_FORMAT_UNSPEC), a struct fi_dpdk_addr for
 * FI_ADDR_DPDK, a NUL-terminated URI for FI_ADDR_STR.
 *
 * @return 0, or -FI_EINVAL when addr is not such an address.
 */
int dfi_addr_decode(uint32_t format, const void *addr, size_t addrlen, struct dfi_addr *a);

/** @return the length of a in the form of format (NUL included for strings). */
size_t dfi_addr_len(uint32_t format, const struct dfi_addr *a);

/**
 * Writes a in the form of format into buf, truncated to len bytes.
 *
 * @return the length the whole address needs, or 0 when a cannot be written
 *   in that form (an Ethernet address as sockaddr_in, for instance).
 */
size_t dfi_addr_write(uint32_t format, const struct dfi_addr *a, void *buf, size_t len);

/**
 * fi_getname() and fi_getpeer()'s answer: a in the form of format into addr,
 * truncated to *addrlen bytes; *addrlen becomes the length it needs.
 *
 * @return 0, or -FI_ETOOSMALL when it did not fit.
 */
int dfi_addr_name(uint32_t format, const struct dfi_addr *a, void *addr, size_t *addrlen);

/**
 * Allocates a in the form of format.
 *
 * @return the allocation (free() it), or NULL when out of memory or when a
 *   has no such form.
 */
void *dfi_addr_encode(uint32_t format, const struct dfi_addr *a, size_t *addrlen);

/** @return true when both are the same endpoint address. */
int dfi_addr_equal(const struct dfi_addr *a, const struct dfi_addr *b);

#endif /* _DFI_ADDR_H_ */
