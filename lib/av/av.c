/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The address vector object: open, bind, insert (plain, by service, and
 * symmetric ranges), remove, lookup and straddr, synchronous or reporting to
 * an event queue with FI_EVENT. Every insert flavour feeds one engine, which
 * fails addresses one by one and never the call for one bad address.
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "dfi.h"
#include "av.h"
#include "domain.h"
#include "eq.h"
#include "port.h"
#include "stubs.h"

/* Entries sized when the application gives neither count nor ep_per_node. */
#define AV_DEFAULT_COUNT	4096
/* Nodes assumed when it gives ep_per_node but no count. */
#define AV_DEFAULT_NODES	64

static int av_close(struct fid *fid);
static int av_bind(struct fid *fid, struct fid *bfid, uint64_t flags);
static int av_control(struct fid *fid, int command, void *arg);
static int av_insert(struct fid_av *av, const void *addr, size_t count, fi_addr_t *fi_addr,
		     uint64_t flags, void *context);
static int av_insertsvc(struct fid_av *av, const char *node, const char *service,
			fi_addr_t *fi_addr, uint64_t flags, void *context);
static int av_insertsym(struct fid_av *av, const char *node, size_t nodecnt,
			const char *service, size_t svccnt, fi_addr_t *fi_addr, uint64_t flags,
			void *context);
static int av_remove(struct fid_av *av, fi_addr_t *fi_addr, size_t count, uint64_t flags);
static int av_lookup(struct fid_av *av, fi_addr_t fi_addr, void *addr, size_t *addrlen);
static const char *av_straddr(struct fid_av *av, const void *addr, char *buf, size_t *len);
static int av_set(struct fid_av *av, struct fi_av_set_attr *attr, struct fid_av_set **av_set,
		  void *context);

static struct fi_ops dfi_av_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = av_close,
	.bind = av_bind,
	.control = av_control,
	.ops_open = dfi_no_ops_open,
	.tostr = dfi_no_tostr,
	.ops_set = dfi_no_ops_set,
};

static struct fi_ops_av dfi_av_ops = {
	.size = sizeof(struct fi_ops_av),
	.insert = av_insert,
	.insertsvc = av_insertsvc,
	.insertsym = av_insertsym,
	.remove = av_remove,
	.lookup = av_lookup,
	.straddr = av_straddr,
	.av_set = av_set,
};

struct dfi_av *
dfi_av_from_fid(struct fid *fid)
{
	if (fid == NULL || fid->fclass != FI_CLASS_AV || fid->ops != &dfi_av_fi_ops)
		return NULL;
	return container_of(fid, struct dfi_av, av_fid.fid);
}

void
dfi_av_hold(struct dfi_av *av)
{
	DFI_REF_GET(&av->refs);
}

void
dfi_av_release(struct dfi_av *av)
{
	DFI_REF_PUT(&av->refs);
}

static fi_addr_t
av_fi_addr(const struct dfi_av *av, uint32_t idx)
{
	const struct dfi_av_entry *e;

	if (av->type == FI_AV_TABLE)
		return idx;
	e = dfi_avs_get(&av->store, idx);
	return (fi_addr_t)idx | (fi_addr_t)(e->gen & DFI_AV_GEN_MASK) << DFI_AV_IDX_BITS;
}

fi_addr_t
dfi_av_reverse(const struct dfi_av *av, const struct dfi_addr *a)
{
	int64_t idx = dfi_avs_find(&av->store, a);

	return idx < 0 ? FI_ADDR_NOTAVAIL : av_fi_addr(av, (uint32_t)idx);
}

/* -- the insert engine -- */

/* Produces the i-th address of an insert call: 0, or a positive fabric errno. */
typedef int (*av_addr_fn)(const struct dfi_av *av, const void *arg, size_t i,
			  struct dfi_addr *a);

/* An address an endpoint can be reached at, in a form the domain uses. */
static int
av_addr_check(const struct dfi_av *av, const struct dfi_addr *a)
{
	static const uint8_t zero_mac[6];

	if (av->addr_format == FI_SOCKADDR_IN && a->kind != DFI_ADDR_IPV4)
		return FI_EINVAL;
	if (av->addr_format == FI_ADDR_DPDK && a->kind != DFI_ADDR_ETH)
		return FI_EINVAL;
	if (a->port == 0)
		return FI_EADDRNOTAVAIL;
	if (a->kind == DFI_ADDR_IPV4)
		return a->ipv4 == htonl(INADDR_ANY) || a->ipv4 == htonl(INADDR_BROADCAST) ?
		       FI_EADDRNOTAVAIL : 0;
	/* multicast MACs (I/G bit) are no endpoint */
	return memcmp(a->mac, zero_mac, sizeof(zero_mac)) == 0 || (a->mac[0] & 1) != 0 ?
	       FI_EADDRNOTAVAIL : 0;
}

/* What fails a whole insert call; anything else fails its own address only. */
static int
av_check_insert(const struct dfi_av *av, const fi_addr_t *fi_addr, uint64_t flags,
		const void *context)
{
	/* FI_SYNC_ERR is for synchronous inserts only */
	if ((flags & ~(FI_MORE | FI_SYNC_ERR)) != 0 ||
	    ((flags & FI_SYNC_ERR) != 0 && (av->flags & FI_EVENT) != 0)) {
		DFI_WARN(FI_LOG_AV, "insert: flags 0x%" PRIx64 " not supported here", flags);
		return -FI_EBADFLAGS;
	}
	if ((av->flags & FI_READ) != 0) {
		DFI_WARN(FI_LOG_AV, "insert into an AV opened read-only (FI_READ)");
		return -FI_EACCES;
	}
	if ((av->flags & FI_EVENT) != 0 && av->eq == NULL) {
		DFI_WARN(FI_LOG_AV, "FI_EVENT insert before fi_av_bind() of an EQ");
		return -FI_ENOEQ;
	}
	if ((flags & FI_SYNC_ERR) != 0 && context == NULL) {
		DFI_WARN(FI_LOG_AV, "FI_SYNC_ERR insert with no status array in context");
		return -FI_EINVAL;
	}
	/* fi_av(3): only a table's indices are known without being written out */
	if (fi_addr == NULL && av->type != FI_AV_TABLE) {
		DFI_WARN(FI_LOG_AV, "insert into an FI_AV_MAP AV with fi_addr NULL");
		return -FI_EINVAL;
	}
	return 0;
}

static void
av_post_error(struct dfi_av *av, void *context, size_t i, int err)
{
	struct fi_eq_err_entry entry = {
		.fid = &av->av_fid.fid,
		.context = context,
		.data = i,
		.err = err,
	};

	dfi_eq_post(av->eq, 0, NULL, 0, &entry);
}

static int
av_insert_n(struct dfi_av *av, size_t count, av_addr_fn get, const void *arg,
	    fi_addr_t *fi_addr, uint64_t flags, void *context)
{
	struct fi_eq_entry done = { .fid = &av->av_fid.fid, .context = context };
	int *sync_err = (flags & FI_SYNC_ERR) != 0 ? context : NULL;
	bool events = (av->flags & FI_EVENT) != 0;
	struct dfi_addr a;
	size_t i, inserted = 0;
	uint32_t idx;
	int err;

	/* a synchronous insert returns the count it inserted as an int */
	if (count > INT_MAX) {
		DFI_WARN(FI_LOG_AV, "insert of %zu addresses: at most INT_MAX per call", count);
		return -FI_EINVAL;
	}
	dfi_avs_lock(&av->store);
	for (i = 0; i < count; i++) {
		err = get(av, arg, i, &a);
		if (err == 0)
			err = av_addr_check(av, &a);
		if (err == 0)
			err = -dfi_avs_insert(&av->store, &a, &idx);
		if (err == 0)
			dfi_avs_list(&av->store, av_fi_addr(av, idx));
		if (fi_addr != NULL)
			fi_addr[i] = err == 0 ? av_fi_addr(av, idx) : FI_ADDR_NOTAVAIL;
		if (sync_err != NULL)
			sync_err[i] = err;
		if (err == 0)
			inserted++;
		else if (events)
			av_post_error(av, context, i, err);
	}
	dfi_avs_unlock(&av->store);
	if (inserted != count)
		DFI_INFO(FI_LOG_AV, "%zu of %zu addresses not inserted", count - inserted, count);
	if (!events)
		return (int)inserted;
	done.data = inserted;
	/* The EQ takes every event the provider posts, past its size if need be:
	 * the completion fi_eq(3) promises always arrives. */
	dfi_eq_post(av->eq, FI_AV_COMPLETE, &done, sizeof(done), NULL);
	return 0;
}

/* The size of one binary address of the domain's format. */
static size_t
av_addr_size(const struct dfi_av *av)
{
	return av->addr_format == FI_ADDR_DPDK ? sizeof(struct fi_dpdk_addr) :
	       sizeof(struct sockaddr_in);
}

/* One address of the domain's format. A string's length is its own: insert and
 * straddr take the same strings. */
static int
av_decode(const struct dfi_av *av, const void *addr, struct dfi_addr *a)
{
	if (av->addr_format == FI_ADDR_STR)
		return dfi_addr_from_uri(addr, a);
	return dfi_addr_decode(av->addr_format, addr, av_addr_size(av), a);
}

/* fi_av_insert(): an array of addresses in the domain's format. */
static int
av_addr_from_array(const struct dfi_av *av, const void *arg, size_t i, struct dfi_addr *a)
{
	const void *addr = av->addr_format == FI_ADDR_STR ?
			   (const void *)((const char *const *)arg)[i] :
			   (const void *)((const uint8_t *)arg + i * av_addr_size(av));

	return av_decode(av, addr, a) == 0 ? 0 : FI_EINVAL;
}

static int
av_insert(struct fid_av *av_fid, const void *addr, size_t count, fi_addr_t *fi_addr,
	  uint64_t flags, void *context)
{
	struct dfi_av *av = container_of(av_fid, struct dfi_av, av_fid);
	int ret;

	ret = av_check_insert(av, fi_addr, flags, context);
	if (ret != 0)
		return ret;
	if (addr == NULL && count != 0) {
		DFI_WARN(FI_LOG_AV, "fi_av_insert: addr NULL with a count of %zu", count);
		return -FI_EINVAL;
	}
	return av_insert_n(av, count, av_addr_from_array, addr, fi_addr, flags, context);
}

/* fi_av_insertsvc() with an FI_ADDR_STR node: one URI. */
static int
av_addr_from_uri(const struct dfi_av *av __rte_unused, const void *arg, size_t i __rte_unused,
		 struct dfi_addr *a)
{
	return dfi_addr_from_uri(arg, a) == 0 ? 0 : FI_EINVAL;
}

/* -- fi_av_insertsym(): nodecnt nodes x svccnt services -- */

struct sym_range {
	struct dfi_addr *nodes;		/* node i's address, port unset */
	int *node_err;			/* 0, or what fails node i's entries */
	size_t svccnt;
	uint32_t port;			/* first service, host order */
	int err;			/* 0, or what fails every entry */
};

static int
av_addr_from_range(const struct dfi_av *av __rte_unused, const void *arg, size_t i,
		   struct dfi_addr *a)
{
	const struct sym_range *r = arg;
	size_t node = i / r->svccnt, svc = i % r->svccnt;

	if (r->err != 0)
		return r->err;
	if (r->node_err[node] != 0)
		return r->node_err[node];
	if (r->port + svc > UINT16_MAX)
		return FI_EINVAL;
	*a = r->nodes[node];
	a->port = htons((uint16_t)(r->port + svc));
	return 0;
}

/* A MAC plus n, as a 48-bit integer: FI_EINVAL past ff:ff:ff:ff:ff:ff. */
static int
mac_add(uint8_t mac[6], uint64_t n)
{
	uint64_t v = 0;
	int b;

	for (b = 0; b < 6; b++)
		v = v << 8 | mac[b];
	if (n > 0xffffffffffffULL - v)
		return FI_EINVAL;
	v += n;
	for (b = 5; b >= 0; b--, v >>= 8)
		mac[b] = (uint8_t)v;
	return 0;
}

/* Node i of a numeric range (IPv4 or MAC): FI_EINVAL past the last address. */
static int
node_nth(const struct dfi_addr *base, size_t i, struct dfi_addr *a)
{
	*a = *base;
	if (a->kind == DFI_ADDR_ETH)
		return mac_add(a->mac, i);
	if ((uint64_t)ntohl(base->ipv4) + i > UINT32_MAX)
		return FI_EINVAL;
	a->ipv4 = htonl(ntohl(base->ipv4) + (uint32_t)i);
	return 0;
}

static int
resolve_host(const char *host, struct dfi_addr *a)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_DGRAM };
	struct addrinfo *res;

	if (getaddrinfo(host, NULL, &hints, &res) != 0)
		return FI_EADDRNOTAVAIL;
	a->kind = DFI_ADDR_IPV4;
	a->ipv4 = ((const struct sockaddr_in *)(const void *)res->ai_addr)->sin_addr.s_addr;
	freeaddrinfo(res);
	return 0;
}

/* "host10" + 2 -> "host12": the numeric suffix counts, keeping its width. A
 * name without one names node 0 only (fi_av(3)): FI_EINVAL for the others. */
static int
hostname_nth(const char *node, size_t i, char *buf, size_t len)
{
	size_t n = strlen(node), digits = 0;
	unsigned long long base;

	while (digits < n && isdigit((unsigned char)node[n - 1 - digits]))
		digits++;
	if (digits == 0 || digits > 18) {
		if (i != 0)
			return FI_EINVAL;
		snprintf(buf, len, "%s", node);
		return 0;
	}
	base = strtoull(node + n - digits, NULL, 10);
	snprintf(buf, len, "%.*s%0*llu", (int)(n - digits), node, (int)digits,
		 base + (unsigned long long)i);
	return 0;
}

/* Resolves the nodecnt nodes; a node that cannot be formed or resolved fails
 * only its own entries. */
static void
sym_nodes(const struct dfi_av *av, const char *node, size_t nodecnt, struct sym_range *r)
{
	struct dfi_addr base = { .kind = DFI_ADDR_NONE };
	char host[NI_MAXHOST];
	int base_err = 0;
	size_t i;

	if (av->addr_format == FI_ADDR_DPDK) {
		/* nodes are MAC addresses */
		base.kind = DFI_ADDR_ETH;
		if (dfi_addr_parse_mac(node, base.mac) != 0) {
			DFI_INFO(FI_LOG_AV, "insertsym: node '%s' is no MAC address", node);
			base_err = FI_EINVAL;
		}
	} else if (inet_pton(AF_INET, node, &base.ipv4) == 1) {
		base.kind = DFI_ADDR_IPV4;
	}
	for (i = 0; i < nodecnt; i++) {
		if (base.kind != DFI_ADDR_NONE) {
			r->node_err[i] = base_err != 0 ? base_err : node_nth(&base, i, &r->nodes[i]);
			continue;
		}
		r->node_err[i] = hostname_nth(node, i, host, sizeof(host));
		if (r->node_err[i] == 0)
			r->node_err[i] = resolve_host(host, &r->nodes[i]);
	}
}

/* The first port of a service range: 0, or FI_EINVAL, which fails every entry.
 * Port 0 is let through: it fails as any address with port 0 does. */
static int
sym_service(const char *service, size_t svccnt, uint32_t *port)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_DGRAM };
	struct addrinfo *res;
	unsigned long v;
	char *end;

	if (service == NULL) {
		DFI_INFO(FI_LOG_AV, "insertsym: a node that is no address string needs a service");
		return FI_EINVAL;
	}
	v = strtoul(service, &end, 10);
	if (*service != '\0' && *end == '\0' && v <= UINT16_MAX) {
		*port = (uint32_t)v;
		return 0;
	}
	/* a service name has no successor */
	if (svccnt > 1 || isdigit((unsigned char)*service) ||
	    getaddrinfo(NULL, service, &hints, &res) != 0) {
		DFI_INFO(FI_LOG_AV, "insertsym: service '%s' is no port (or range of ports)",
			 service);
		return FI_EINVAL;
	}
	*port = ntohs(((const struct sockaddr_in *)(const void *)res->ai_addr)->sin_port);
	freeaddrinfo(res);
	return 0;
}

static int
av_insertsym(struct fid_av *av_fid, const char *node, size_t nodecnt, const char *service,
	     size_t svccnt, fi_addr_t *fi_addr, uint64_t flags, void *context)
{
	struct dfi_av *av = container_of(av_fid, struct dfi_av, av_fid);
	struct sym_range r = { .svccnt = svccnt };
	size_t count;
	int ret;

	ret = av_check_insert(av, fi_addr, flags, context);
	if (ret != 0)
		return ret;
	/* checked before the nodes are resolved, as av_insert_n() would refuse it */
	if (node == NULL || (svccnt != 0 && nodecnt > INT_MAX / svccnt)) {
		DFI_WARN(FI_LOG_AV, "insertsym: node NULL, or nodecnt x svccnt above INT_MAX");
		return -FI_EINVAL;
	}
	count = nodecnt * svccnt;
	if (strstr(node, "://") != NULL) {
		/* An FI_ADDR_STR node stands alone, with no service. */
		if (service == NULL && count == 1)
			return av_insert_n(av, 1, av_addr_from_uri, node, fi_addr, flags, context);
		DFI_INFO(FI_LOG_AV, "insertsym: an address string takes no service, no range");
		r.err = FI_EINVAL;
	} else {
		r.err = sym_service(service, svccnt, &r.port);
	}
	if (r.err == 0 && count != 0) {
		r.nodes = calloc(nodecnt, sizeof(*r.nodes));
		r.node_err = calloc(nodecnt, sizeof(*r.node_err));
		if (r.nodes == NULL || r.node_err == NULL) {
			ret = -FI_ENOMEM;
			goto out;
		}
		sym_nodes(av, node, nodecnt, &r);
	}
	ret = av_insert_n(av, count, av_addr_from_range, &r, fi_addr, flags, context);
out:
	free(r.nodes);
	free(r.node_err);
	return ret;
}

static int
av_insertsvc(struct fid_av *av, const char *node, const char *service, fi_addr_t *fi_addr,
	     uint64_t flags, void *context)
{
	return av_insertsym(av, node, 1, service, 1, fi_addr, flags, context);
}

/* -- remove, lookup, straddr -- */

static int
av_remove(struct fid_av *av_fid, fi_addr_t *fi_addr, size_t count, uint64_t flags)
{
	struct dfi_av *av = container_of(av_fid, struct dfi_av, av_fid);
	const struct dfi_av_entry *e;
	size_t i;
	int ret = 0;

	if (flags != 0)
		return -FI_EBADFLAGS;
	if ((av->flags & FI_READ) != 0)
		return -FI_EACCES;
	if (fi_addr == NULL && count != 0)
		return -FI_EINVAL;
	dfi_avs_lock(&av->store);
	/* All or nothing: a bad address leaves the AV as it was. */
	for (i = 0; i < count && ret == 0; i++) {
		if (dfi_av_resolve(av, fi_addr[i]) == NULL) {
			DFI_WARN(FI_LOG_AV, "fi_av_remove: 0x%" PRIx64 " is not in the AV",
				 fi_addr[i]);
			ret = -FI_EINVAL;
		}
	}
	for (i = 0; i < count && ret == 0; i++) {
		e = dfi_av_resolve(av, fi_addr[i]);
		if (e != NULL)	/* NULL: listed twice */
			dfi_avs_remove(&av->store, (uint32_t)(fi_addr[i] & av->addr_mask &
							      DFI_AV_IDX_MASK));
	}
	dfi_avs_unlock(&av->store);
	return ret;
}

static int
av_lookup(struct fid_av *av_fid, fi_addr_t fi_addr, void *addr, size_t *addrlen)
{
	struct dfi_av *av = container_of(av_fid, struct dfi_av, av_fid);
	const struct dfi_av_entry *e;
	struct dfi_addr a;

	if (addrlen == NULL || (addr == NULL && *addrlen != 0)) {
		DFI_WARN(FI_LOG_AV, "fi_av_lookup: addrlen NULL, or addr NULL with a length");
		return -FI_EINVAL;
	}
	e = dfi_av_resolve(av, fi_addr);
	if (e == NULL)
		return -FI_EINVAL;
	dfi_avs_entry_addr(e, &a);
	/* truncated to *addrlen; *addrlen tells the whole length */
	*addrlen = dfi_addr_write(av->addr_format, &a, addr, *addrlen);
	return 0;
}

static const char *
av_straddr(struct fid_av *av_fid, const void *addr, char *buf, size_t *len)
{
	struct dfi_av *av = container_of(av_fid, struct dfi_av, av_fid);
	struct dfi_addr a;

	if (len == NULL || (buf == NULL && *len != 0)) {
		DFI_WARN(FI_LOG_AV, "fi_av_straddr: len NULL, or buf NULL with a length");
		return NULL;
	}
	if (addr == NULL || av_decode(av, addr, &a) != 0) {
		DFI_INFO(FI_LOG_AV, "fi_av_straddr: not an address of this domain's format");
		return NULL;
	}
	*len = dfi_addr_to_uri(&a, buf, *len);
	return buf;
}

static int
av_set(struct fid_av *av __rte_unused, struct fi_av_set_attr *attr __rte_unused,
       struct fid_av_set **av_set __rte_unused, void *context __rte_unused)
{
	return -FI_ENOSYS;	/* collectives are not offered */
}

/* -- open, bind, close -- */

static int
av_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct dfi_av *av = container_of(fid, struct dfi_av, av_fid.fid);
	struct dfi_eq *eq = dfi_eq_from_fid(bfid);

	if (flags != 0) {
		DFI_WARN(FI_LOG_AV, "fi_av_bind: flags are reserved, must be 0");
		return -FI_EBADFLAGS;
	}
	if (eq == NULL || eq->fabric != av->domain->fabric) {
		DFI_WARN(FI_LOG_AV, "an AV binds to an event queue of its fabric only");
		return -FI_EINVAL;
	}
	if (av->eq != NULL)
		return -FI_EBUSY;
	dfi_eq_hold(eq);
	av->eq = eq;
	return 0;
}

static int
av_control(struct fid *fid, int command, void *arg)
{
	struct dfi_av *av = container_of(fid, struct dfi_av, av_fid.fid);

	if (command != DFI_AV_GETSTATS)
		return -FI_ENOSYS;
	if (arg == NULL)
		return -FI_EINVAL;
	dfi_avs_lock(&av->store);
	dfi_avs_stats(&av->store, arg);
	dfi_avs_unlock(&av->store);
	return 0;
}

static int
av_close(struct fid *fid)
{
	struct dfi_av *av = container_of(fid, struct dfi_av, av_fid.fid);

	if (DFI_REF_READ(&av->refs) != 0) {
		DFI_WARN(FI_LOG_AV, "AV still bound to %u endpoints", DFI_REF_READ(&av->refs));
		return -FI_EBUSY;
	}
	if (av->eq != NULL)
		dfi_eq_release(av->eq);
	dfi_avs_fini(&av->store, av->name);
	dfi_domain_release(av->domain);
	free(av->name);
	free(av);
	return 0;
}

static int
av_resolve_type(const struct dfi_domain *domain, enum fi_av_type asked, enum fi_av_type *type)
{
	switch (asked) {
	case FI_AV_UNSPEC:
		*type = domain->av_type != FI_AV_UNSPEC ? domain->av_type : FI_AV_MAP;
		return 0;
	case FI_AV_MAP:
	case FI_AV_TABLE:
		if (domain->av_type != FI_AV_UNSPEC && domain->av_type != asked) {
			DFI_WARN(FI_LOG_AV, "AV type differs from the domain's av_type");
			return -FI_EINVAL;
		}
		*type = asked;
		return 0;
	default:
		return -FI_EINVAL;
	}
}

static int
av_check_attr(const struct dfi_domain *domain, const struct fi_av_attr *attr)
{
	if ((attr->flags & ~(FI_EVENT | FI_READ | FI_SYMMETRIC)) != 0)
		return -FI_EBADFLAGS;
	if (attr->rx_ctx_bits < 0 || attr->rx_ctx_bits > DFI_AV_MAX_RX_CTX_BITS)
		return -FI_EINVAL;
	if (attr->count > DFI_AVS_MAX_ENTRIES || attr->ep_per_node > DFI_AVS_MAX_ENTRIES)
		return -FI_EINVAL;
	if ((attr->flags & FI_READ) != 0 && attr->name == NULL) {
		DFI_WARN(FI_LOG_AV, "FI_READ opens an existing named AV: name is NULL");
		return -FI_EINVAL;
	}
	if (attr->name != NULL && (domain->caps & FI_SHARED_AV) == 0) {
		DFI_WARN(FI_LOG_AV, "named AVs need FI_SHARED_AV in the domain's caps");
		return -FI_EINVAL;
	}
	return 0;
}

/* Entries allocated at open: count, else ep_per_node endpoints on each of
 * AV_DEFAULT_NODES nodes (never fewer than the default). A private AV grows
 * past it; a named one keeps it as its capacity. */
static uint32_t
av_initial_count(const struct fi_av_attr *attr)
{
	if (attr->count != 0)
		return (uint32_t)attr->count;
	/* checked: ep_per_node <= 2^24, no overflow */
	return (uint32_t)RTE_MIN(RTE_MAX(attr->ep_per_node * AV_DEFAULT_NODES,
					 (size_t)AV_DEFAULT_COUNT),
				 (size_t)DFI_AVS_MAX_ENTRIES);
}

int
dfi_av_open(struct fid_domain *domain_fid, struct fi_av_attr *attr, struct fid_av **av_fid,
	    void *context)
{
	struct dfi_domain *domain = dfi_domain_from_fid(domain_fid);
	enum fi_av_type type;
	struct dfi_av *av;
	uint32_t count, shared_type;
	int ret;

	if (domain == NULL || attr == NULL || av_fid == NULL) {
		DFI_WARN(FI_LOG_AV, "fi_av_open: attr or av NULL");
		return -FI_EINVAL;
	}
	ret = av_check_attr(domain, attr);
	if (ret == 0)
		ret = av_resolve_type(domain, attr->type, &type);
	if (ret != 0)
		return ret;
	count = av_initial_count(attr);

	av = calloc(1, sizeof(*av));
	if (av == NULL)
		return -FI_ENOMEM;
	if (attr->name != NULL) {
		av->name = strdup(attr->name);
		shared_type = type;
		ret = av->name == NULL ? -FI_ENOMEM :
		      dfi_avs_open_shared(&av->store, attr->name, count,
					  (attr->flags & FI_READ) != 0, &shared_type);
		if (ret != 0)
			DFI_WARN(FI_LOG_AV, "named AV '%s': %s", attr->name, fi_strerror(-ret));
		type = (enum fi_av_type)shared_type;
	} else {
		ret = dfi_avs_init(&av->store, count, domain->port->socket_id);
	}
	if (ret != 0)
		goto err_free;

	av->type = type;
	av->flags = attr->flags;
	av->rx_ctx_bits = attr->rx_ctx_bits;
	av->addr_mask = attr->rx_ctx_bits == 0 ? UINT64_MAX : UINT64_MAX >> attr->rx_ctx_bits;
	av->addr_format = domain->addr_format;
	av->domain = domain;
	DFI_REF_INIT(&av->refs);
	av->av_fid.fid.fclass = FI_CLASS_AV;
	av->av_fid.fid.context = context;
	av->av_fid.fid.ops = &dfi_av_fi_ops;
	av->av_fid.ops = &dfi_av_ops;
	attr->type = type;
	/* fi_av(3): the address it used; there, the fi_addr_t of every insert
	 * in insertion order (a forked child reads the parent's entries there) */
	if (av->name != NULL && attr->map_addr == NULL)
		attr->map_addr = av->store.list;
	dfi_domain_hold(domain);
	*av_fid = &av->av_fid;
	return 0;

err_free:
	free(av->name);
	free(av);
	return ret;
}
