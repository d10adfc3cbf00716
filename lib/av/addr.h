/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Endpoint addresses as applications see them: FI_SOCKADDR_IN structures
 * (the port's IPv4 address and the endpoint's UDP port) or, with FI_ADDR_STR,
 * their URI form "fi_sockaddr_in://a.b.c.d:port".
 */

#ifndef _DFI_ADDR_H_
#define _DFI_ADDR_H_

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#define DFI_URI_SOCKADDR_IN	"fi_sockaddr_in://"
/** "fi_sockaddr_in://255.255.255.255:65535" plus NUL. */
#define DFI_ADDR_STRLEN		40

/**
 * Parses an address URI: fi_sockaddr_in://a.b.c.d[:port], or the generic
 * fi_sockaddr:// scheme with an IPv4 node.
 *
 * @return 0, or -FI_EINVAL when uri is not such an address.
 */
int dfi_addr_from_uri(const char *uri, struct sockaddr_in *sin);

/**
 * Writes the URI of sin into buf, truncated to len bytes (NUL included).
 *
 * @return the length the whole URI needs, NUL included.
 */
size_t dfi_addr_to_uri(const struct sockaddr_in *sin, char *buf, size_t len);

/**
 * Reads an address given in the binary or string form of addr_format
 * (FI_SOCKADDR_IN, FI_SOCKADDR, FI_ADDR_STR, or FI_FORMAT_UNSPEC holding a
 * sockaddr_in).
 *
 * @return 0, or -FI_EINVAL when the address is not an IPv4 one of that form.
 */
int dfi_addr_decode(uint32_t addr_format, const void *addr, size_t addrlen,
		    struct sockaddr_in *sin);

/**
 * Allocates sin in the form of addr_format: a sockaddr_in, or its URI string
 * for FI_ADDR_STR.
 *
 * @return the allocation (free() it), or NULL when out of memory.
 */
void *dfi_addr_encode(uint32_t addr_format, const struct sockaddr_in *sin, size_t *addrlen);

#endif /* _DFI_ADDR_H_ */
