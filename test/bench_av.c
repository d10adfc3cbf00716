/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Address vector benchmark at 1,000,000 entries: insert rate, the data
 * path's resolve time from an fi_addr_t, reverse lookup time, remove rate and
 * memory per entry; and the same insert rate without a count hint, where the
 * AV grows as it goes, to show that nothing is O(n).
 *
 * The provider is linked in (not loaded by libfabric) so that the data path's
 * inline resolve can be timed; its objects are reached through
 * fi_prov_ini(). Figures are printed, never asserted; what is asserted is
 * that every entry resolves to its own address and that an AV with a bound
 * endpoint refuses to close.
 *
 * usage: bench_av [entries]
 */

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fi_domain.h>

#include "av.h"
#include "bench.h"
#include "prov.h"

static long
rss_kib(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f != NULL) {
		if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static struct sockaddr_in
addr_of(uint32_t i)
{
	struct sockaddr_in s = { .sin_family = AF_INET };

	/* 10.x.y.z, port 1024 + i % 60000: all distinct */
	s.sin_addr.s_addr = htonl(0x0a000000u | (i / 60000 + 1) << 8);
	s.sin_port = htons((uint16_t)(1024 + i % 60000));
	return s;
}

/* Inserts n entries in batches; returns entries per second, overall and over
 * the first and last tenth. */
static double
insert_all(struct fid_av *av, const struct sockaddr_in *addrs, fi_addr_t *fa, uint32_t n,
	   double *first_tenth, double *last_tenth)
{
	const uint32_t batch = 1024;
	double t0, t_first = 0, t_last = 0, t;
	uint32_t i, k, n_first = 0, i_last = 0;
	int ret;

	t0 = now_ns();
	for (i = 0; i < n; i += k) {
		if (t_last == 0 && i >= n - n / 10) {
			t_last = now_ns();
			i_last = i;
		}
		k = n - i < batch ? n - i : batch;
		ret = fi_av_insert(av, addrs + i, k, fa + i, 0, NULL);
		CHECK(ret == (int)k, "insert returned %d of %u", ret, k);
		if (t_first == 0 && i + k >= n / 10) {
			t_first = now_ns();
			n_first = i + k;
		}
	}
	t = now_ns();
	*first_tenth = n_first / ((t_first - t0) / 1e9);
	*last_tenth = (n - i_last) / ((t - t_last) / 1e9);
	return n / ((t - t0) / 1e9);
}

static void
shuffle(uint32_t *v, uint32_t n)
{
	uint32_t i, j, tmp;

	srand(1);
	for (i = n - 1; i > 0; i--) {
		j = (uint32_t)(((uint64_t)rand() << 16 ^ (uint64_t)rand()) % (i + 1));
		tmp = v[i];
		v[i] = v[j];
		v[j] = tmp;
	}
}

static void
bench_resolve(struct dfi_av *av, const struct sockaddr_in *addrs, const fi_addr_t *fa,
	      const uint32_t *order, uint32_t n, double *seq_ns, double *rand_ns)
{
	const struct dfi_av_entry *e;
	uint64_t bad = 0;
	double t0;
	uint32_t i, j;

	t0 = now_ns();
	for (i = 0; i < n; i++) {
		e = dfi_av_resolve(av, fa[i]);
		bad += e == NULL || e->port != addrs[i].sin_port ||
		       e->ipv4 != addrs[i].sin_addr.s_addr;
	}
	*seq_ns = (now_ns() - t0) / n;
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		j = order[i];
		e = dfi_av_resolve(av, fa[j]);
		bad += e == NULL || e->port != addrs[j].sin_port;
	}
	*rand_ns = (now_ns() - t0) / n;
	CHECK(bad == 0, "%" PRIu64 " entries resolved wrong", bad);
}

static double
bench_reverse(struct dfi_av *av, const struct sockaddr_in *addrs, const fi_addr_t *fa,
	      const uint32_t *order, uint32_t n)
{
	struct dfi_addr a = { .kind = DFI_ADDR_IPV4 };
	uint64_t bad = 0;
	uint32_t i, j;
	double t0;

	t0 = now_ns();
	for (i = 0; i < n; i++) {
		j = order[i];
		a.ipv4 = addrs[j].sin_addr.s_addr;
		a.port = addrs[j].sin_port;
		bad += dfi_av_reverse(av, &a) != fa[j];
	}
	CHECK(bad == 0, "%" PRIu64 " reverse lookups wrong", bad);
	return (now_ns() - t0) / n;
}

int
main(int argc, char **argv)
{
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 1000000;
	struct fi_av_attr attr = { .type = FI_AV_MAP };
	double ins, ins_first, ins_last, grow, grow_first, grow_last, seq_ns, rand_ns, rev_ns;
	double t0, rm_rate;
	struct sockaddr_in *addrs;
	struct fid_av *av_fid;
	struct dfi_av *av;
	struct bench b;
	uint32_t *order, i;
	fi_addr_t *fa;
	long rss0, rss1;
	size_t bytes;

	if (bench_open(&b, FI_EP_RDM, FI_MSG) != 0) {
		fprintf(stderr, "cannot open the provider\n");
		return 1;
	}
	addrs = malloc(sizeof(*addrs) * n);
	fa = malloc(sizeof(*fa) * n);
	order = malloc(sizeof(*order) * n);
	if (addrs == NULL || fa == NULL || order == NULL)
		return 1;
	for (i = 0; i < n; i++) {
		addrs[i] = addr_of(i);
		order[i] = i;
	}
	shuffle(order, n);

	/* sized by count */
	rss0 = rss_kib();
	attr.count = n;
	CHECK(fi_av_open(b.domain, &attr, &av_fid, NULL) == 0, "fi_av_open");
	av = dfi_av_from_fid(&av_fid->fid);
	ins = insert_all(av_fid, addrs, fa, n, &ins_first, &ins_last);
	rss1 = rss_kib();
	bytes = av->store.bytes;
	bench_resolve(av, addrs, fa, order, n, &seq_ns, &rand_ns);
	rev_ns = bench_reverse(av, addrs, fa, order, n);

	/* an endpoint bound to the AV keeps it open */
	dfi_av_hold(av);
	CHECK(fi_close(&av_fid->fid) == -FI_EBUSY, "close with a bound endpoint");
	dfi_av_release(av);

	t0 = now_ns();
	for (i = 0; i < n; i += 1024)
		CHECK(fi_av_remove(av_fid, fa + i, n - i < 1024 ? n - i : 1024, 0) == 0, "remove");
	rm_rate = n / ((now_ns() - t0) / 1e9);
	CHECK(av->store.hdr->used == 0, "%u entries left", av->store.hdr->used);
	CHECK(fi_close(&av_fid->fid) == 0, "close");

	/* no count: the AV grows chunk by chunk and rehashes incrementally */
	attr.count = 0;
	CHECK(fi_av_open(b.domain, &attr, &av_fid, NULL) == 0, "fi_av_open");
	av = dfi_av_from_fid(&av_fid->fid);
	grow = insert_all(av_fid, addrs, fa, n, &grow_first, &grow_last);
	bench_resolve(av, addrs, fa, order, n, &seq_ns, &rand_ns);
	CHECK(fi_close(&av_fid->fid) == 0, "close");

	printf("av entries:                  %u\n", n);
	printf("insert, count given:         %.2f M entries/s (first 10%%: %.2f, last 10%%: %.2f)\n",
	       ins / 1e6, ins_first / 1e6, ins_last / 1e6);
	printf("insert, growing:             %.2f M entries/s (first 10%%: %.2f, last 10%%: %.2f)\n",
	       grow / 1e6, grow_first / 1e6, grow_last / 1e6);
	printf("resolve fi_addr (sequential): %.1f ns\n", seq_ns);
	printf("resolve fi_addr (random):    %.1f ns\n", rand_ns);
	printf("reverse lookup (random):     %.1f ns\n", rev_ns);
	printf("remove:                      %.2f M entries/s\n", rm_rate / 1e6);
	printf("memory per entry:            %.1f bytes held by the AV, %.1f bytes of RSS\n",
	       (double)bytes / n, (double)(rss1 - rss0) * 1024 / n);

	free(addrs);
	free(fa);
	free(order);
	bench_close(&b);
	printf("%s\n", failures == 0 ? "bench_av: all checks passed" : "bench_av: FAILED");
	return failures == 0 ? 0 : 1;
}
