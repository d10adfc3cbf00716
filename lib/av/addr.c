/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Conversions between the provider's address forms: binary and URI. */

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfi.h"
#include "addr.h"

#define URI_SOCKADDR	"fi_sockaddr://"

int
dfi_addr_from_uri(const char *uri, struct sockaddr_in *sin)
{
	char node[INET_ADDRSTRLEN];
	const char *p, *colon;
	unsigned long port = 0;
	char *end;
	size_t n;

	if (uri == NULL)
		return -FI_EINVAL;
	if (strncmp(uri, DFI_URI_SOCKADDR_IN, strlen(DFI_URI_SOCKADDR_IN)) == 0)
		p = uri + strlen(DFI_URI_SOCKADDR_IN);
	else if (strncmp(uri, URI_SOCKADDR, strlen(URI_SOCKADDR)) == 0)
		p = uri + strlen(URI_SOCKADDR);
	else
		return -FI_EINVAL;

	colon = strchr(p, ':');
	n = colon != NULL ? (size_t)(colon - p) : strlen(p);
	if (n == 0 || n >= sizeof(node))
		return -FI_EINVAL;
	memcpy(node, p, n);
	node[n] = '\0';
	if (colon != NULL) {
		port = strtoul(colon + 1, &end, 10);
		/* Further URI fields (/..., ?...) carry nothing we use. */
		if (end == colon + 1 || port > UINT16_MAX ||
		    (*end != '\0' && *end != '/' && *end != '?'))
			return -FI_EINVAL;
	}
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, node, &sin->sin_addr) != 1)
		return -FI_EINVAL;
	return 0;
}

size_t
dfi_addr_to_uri(const struct sockaddr_in *sin, char *buf, size_t len)
{
	char node[INET_ADDRSTRLEN];
	char uri[DFI_ADDR_STRLEN];
	int n;

	inet_ntop(AF_INET, &sin->sin_addr, node, sizeof(node));
	n = snprintf(uri, sizeof(uri), DFI_URI_SOCKADDR_IN "%s:%u", node,
		     ntohs(sin->sin_port));
	if (len > 0) {
		memcpy(buf, uri, (size_t)n + 1 < len ? (size_t)n + 1 : len);
		buf[len - 1 < (size_t)n ? len - 1 : (size_t)n] = '\0';
	}
	return (size_t)n + 1;
}

int
dfi_addr_decode(uint32_t addr_format, const void *addr, size_t addrlen,
		struct sockaddr_in *sin)
{
	const struct sockaddr_in *in = addr;

	if (addr == NULL)
		return -FI_EINVAL;
	switch (addr_format) {
	case FI_ADDR_STR:
		if (addrlen == 0 || strnlen(addr, addrlen) == addrlen)
			return -FI_EINVAL;
		return dfi_addr_from_uri(addr, sin);
	case FI_FORMAT_UNSPEC:
	case FI_SOCKADDR:
	case FI_SOCKADDR_IN:
		if (addrlen < sizeof(*in) || in->sin_family != AF_INET)
			return -FI_EINVAL;
		memset(sin, 0, sizeof(*sin));
		sin->sin_family = AF_INET;
		sin->sin_port = in->sin_port;
		sin->sin_addr = in->sin_addr;
		return 0;
	default:
		return -FI_EINVAL;
	}
}

void *
dfi_addr_encode(uint32_t addr_format, const struct sockaddr_in *sin, size_t *addrlen)
{
	void *out;

	if (addr_format == FI_ADDR_STR) {
		*addrlen = dfi_addr_to_uri(sin, NULL, 0);
		out = malloc(*addrlen);
		if (out != NULL)
			dfi_addr_to_uri(sin, out, *addrlen);
		return out;
	}
	*addrlen = sizeof(*sin);
	out = malloc(*addrlen);
	if (out != NULL)
		memcpy(out, sin, *addrlen);
	return out;
}
