/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Percentiles of round-trip times, and the report. */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double
pct(const uint64_t *sorted, uint32_t n, double p, double us_per_cycle)
{
	uint32_t i = (uint32_t)(p * (n - 1) + 0.5);

	return (double)sorted[i] * us_per_cycle;
}

void
pp_stats_compute(struct pp_result *r, uint64_t *rtt, uint32_t iters, uint64_t total_cycles,
		 uint64_t hz)
{
	double us_per_cycle = 1e6 / (double)hz, seconds = (double)total_cycles / (double)hz;

	qsort(rtt, iters, sizeof(*rtt), cmp_u64);
	r->stream = false;	/* round trips (the caller's result is not zeroed) */
	r->counted = false;
	r->iters = iters;
	r->min_us = (double)rtt[0] * us_per_cycle;
	r->median_us = pct(rtt, iters, 0.5, us_per_cycle);
	r->p99_us = pct(rtt, iters, 0.99, us_per_cycle);
	r->p999_us = pct(rtt, iters, 0.999, us_per_cycle);
	r->mmsg_s = 2.0 * iters / seconds / 1e6;
	r->mbyte_s = 2.0 * iters * (double)r->size / seconds / 1e6;
}

void
pp_report(const struct pp_result *r, unsigned int n, bool json)
{
	unsigned int i;

	if (json) {
		printf("[\n");
		for (i = 0; i < n; i++)
			printf("  {\"mode\": \"%s\", \"stream\": %s, \"size\": %zu, "
			       "\"iters\": %u, \"min_us\": %.3f, \"median_us\": %.3f, "
			       "\"p99_us\": %.3f, \"p999_us\": %.3f, \"mmsg_s\": %.3f, "
			       "\"mbyte_s\": %.1f, \"pkts_per_msg\": %.4f, \"resent\": %" PRIu64
			       ", \"refused\": %" PRIu64 "}%s\n", r[i].mode,
			       r[i].stream ? "true" : "false", r[i].size, r[i].iters, r[i].min_us,
			       r[i].median_us, r[i].p99_us, r[i].p999_us, r[i].mmsg_s, r[i].mbyte_s,
			       r[i].counted ? r[i].pkts_per_msg : -1, r[i].resent, r[i].refused,
			       i + 1 < n ? "," : "");
		printf("]\n");
		return;
	}
	if (n > 0 && r[0].stream) {
		printf("%-6s %8s %9s %8s %9s %9s %9s %9s\n", "mode", "bytes", "messages",
		       "Mmsg/s", "MB/s", "pkts/msg", "resent", "refused");
		for (i = 0; i < n; i++) {
			printf("%-6s %8zu %9u %8.3f %9.1f", r[i].mode, r[i].size, r[i].iters,
			       r[i].mmsg_s, r[i].mbyte_s);
			if (!r[i].counted)
				printf(" %9s %9s %9s\n", "-", "-", "-");
			else
				printf(" %9.3f %9" PRIu64 " %9" PRIu64 "\n", r[i].pkts_per_msg,
				       r[i].resent, r[i].refused);
		}
		return;
	}
	printf("%-6s %8s %7s %9s %11s %9s %10s %8s %9s\n", "mode", "bytes", "iters", "min(us)",
	       "median(us)", "p99(us)", "p99.9(us)", "Mmsg/s", "MB/s");
	for (i = 0; i < n; i++)
		printf("%-6s %8zu %7u %9.3f %11.3f %9.3f %10.3f %8.3f %9.1f\n", r[i].mode,
		       r[i].size, r[i].iters, r[i].min_us, r[i].median_us, r[i].p99_us,
		       r[i].p999_us, r[i].mmsg_s, r[i].mbyte_s);
}
