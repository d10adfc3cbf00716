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

static int
parse_port(const char *p, uint16_t *port)
{
	unsigned long v;
	char *end;

	if (*p == '\0' || *p == '/' || *p == '?') {
		*port = 0;
		return 0;
	}
	if (*p != ':')
		return -FI_EINVAL;
	v = strtoul(p + 1, &end, 10);
	/* Further URI fields (/..., ?...) carry nothing the provider uses. */
	if (end == p + 1 || v > UINT16_MAX || (*end != '\0' && *end != '/' && *end != '?'))
		return -FI_EINVAL;
	*port = htons((uint16_t)v);
	return 0;
}

static int
parse_mac(const char *s, size_t n, uint8_t mac[6])
{
	unsigned int b[6];
	char buf[18];
	int i, used = 0;

	if (n != 17)
		return -FI_EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (sscanf(buf, "%2x:%2x:%2x:%2x:%2x:%2x%n", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &used) != 6 || used != 17)
		return -FI_EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

int
dfi_addr_parse_mac(const char *s, uint8_t mac[6])
{
	return s == NULL ? -FI_EINVAL : parse_mac(s, strlen(s), mac);
}

int
dfi_addr_from_uri(const char *uri, struct dfi_addr *a)
{
	char node[INET_ADDRSTRLEN];
	const char *p, *end;
	size_t n;

	if (uri == NULL)
		return -FI_EINVAL;
	memset(a, 0, sizeof(*a));
	if (strncmp(uri, FI_ADDR_DPDK_URI, strlen(FI_ADDR_DPDK_URI)) == 0) {
		p = uri + strlen(FI_ADDR_DPDK_URI);
		end = p[0] == '[' ? strchr(p, ']') : NULL;
		if (end == NULL || parse_mac(p + 1, (size_t)(end - p - 1), a->mac) != 0)
			return -FI_EINVAL;
		a->kind = DFI_ADDR_ETH;
		return parse_port(end + 1, &a->port);
	}
	if (strncmp(uri, DFI_URI_SOCKADDR_IN, strlen(DFI_URI_SOCKADDR_IN)) == 0)
		p = uri + strlen(DFI_URI_SOCKADDR_IN);
	else if (strncmp(uri, URI_SOCKADDR, strlen(URI_SOCKADDR)) == 0)
		p = uri + strlen(URI_SOCKADDR);
	else
		return -FI_EINVAL;
	n = strcspn(p, ":/?");
	if (n == 0 || n >= sizeof(node))
		return -FI_EINVAL;
	memcpy(node, p, n);
	node[n] = '\0';
	if (inet_pton(AF_INET, node, &a->ipv4) != 1)
		return -FI_EINVAL;
	a->kind = DFI_ADDR_IPV4;
	return parse_port(p + n, &a->port);
}

size_t
dfi_addr_to_uri(const struct dfi_addr *a, char *buf, size_t len)
{
	char uri[DFI_ADDR_STRLEN];
	char node[INET_ADDRSTRLEN];
	int n;

	if (a->kind == DFI_ADDR_ETH) {
		n = snprintf(uri, sizeof(uri),
			     FI_ADDR_DPDK_URI "[%02x:%02x:%02x:%02x:%02x:%02x]:%u",
			     a->mac[0], a->mac[1], a->mac[2], a->mac[3], a->mac[4], a->mac[5],
			     ntohs(a->port));
	} else {
		inet_ntop(AF_INET, &a->ipv4, node, sizeof(node));
		n = snprintf(uri, sizeof(uri), DFI_URI_SOCKADDR_IN "%s:%u", node,
			     ntohs(a->port));
	}
	if (len > 0) {
		memcpy(buf, uri, (size_t)n < len ? (size_t)n : len - 1);
		buf[(size_t)n < len ? (size_t)n : len - 1] = '\0';
	}
	return (size_t)n + 1;
}

int
dfi_addr_format_normalize(uint32_t format, uint32_t *normalized)
{
	switch (format) {
	case FI_FORMAT_UNSPEC:
	case FI_SOCKADDR:
	case FI_SOCKADDR_IN:
		*normalized = FI_SOCKADDR_IN;
		return 1;
	case FI_ADDR_STR:
	case FI_ADDR_DPDK:
		*normalized = format;
		return 1;
	default:
		return 0;
	}
}

int
dfi_addr_decode(uint32_t format, const void *addr, size_t addrlen, struct dfi_addr *a)
{
	const struct sockaddr_in *sin = addr;
	const struct fi_dpdk_addr *eth = addr;

	if (addr == NULL)
		return -FI_EINVAL;
	memset(a, 0, sizeof(*a));
	switch (format) {
	case FI_ADDR_STR:
		if (addrlen == 0 || strnlen(addr, addrlen) == addrlen)
			return -FI_EINVAL;
		return dfi_addr_from_uri(addr, a);
	case FI_ADDR_DPDK:
		if (addrlen < sizeof(*eth))
			return -FI_EINVAL;
		a->kind = DFI_ADDR_ETH;
		memcpy(a->mac, eth->mac, sizeof(a->mac));
		a->port = eth->port;
		return 0;
	case FI_FORMAT_UNSPEC:
	case FI_SOCKADDR:
	case FI_SOCKADDR_IN:
		if (addrlen < sizeof(*sin) || sin->sin_family != AF_INET)
			return -FI_EINVAL;
		a->kind = DFI_ADDR_IPV4;
		a->ipv4 = sin->sin_addr.s_addr;
		a->port = sin->sin_port;
		return 0;
	default:
		return -FI_EINVAL;
	}
}

size_t
dfi_addr_len(uint32_t format, const struct dfi_addr *a)
{
	return dfi_addr_write(format, a, NULL, 0);
}

size_t
dfi_addr_write(uint32_t format, const struct dfi_addr *a, void *buf, size_t len)
{
	struct sockaddr_in sin;
	struct fi_dpdk_addr eth;
	const void *src;
	size_t n;

	switch (format) {
	case FI_ADDR_STR:
		return dfi_addr_to_uri(a, buf, len);
	case FI_ADDR_DPDK:
		if (a->kind != DFI_ADDR_ETH)
			return 0;
		memcpy(eth.mac, a->mac, sizeof(eth.mac));
		eth.port = a->port;
		src = &eth;
		n = sizeof(eth);
		break;
	default:
		if (a->kind != DFI_ADDR_IPV4)
			return 0;
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = a->ipv4;
		sin.sin_port = a->port;
		src = &sin;
		n = sizeof(sin);
		break;
	}
	if (buf != NULL)
		memcpy(buf, src, n < len ? n : len);
	return n;
}

int
dfi_addr_name(uint32_t format, const struct dfi_addr *a, void *addr, size_t *addrlen)
{
	size_t len = dfi_addr_write(format, a, addr, *addrlen);
	int ret = len > *addrlen ? -FI_ETOOSMALL : 0;

	*addrlen = len;
	return ret;
}

void *
dfi_addr_encode(uint32_t format, const struct dfi_addr *a, size_t *addrlen)
{
	void *out;

	*addrlen = dfi_addr_len(format, a);
	if (*addrlen == 0)
		return NULL;
	out = malloc(*addrlen);
	if (out != NULL)
		dfi_addr_write(format, a, out, *addrlen);
	return out;
}

int
dfi_addr_equal(const struct dfi_addr *a, const struct dfi_addr *b)
{
	if (a->kind != b->kind || a->port != b->port)
		return 0;
	if (a->kind == DFI_ADDR_ETH)
		return memcmp(a->mac, b->mac, sizeof(a->mac)) == 0;
	return a->ipv4 == b->ipv4;
}
