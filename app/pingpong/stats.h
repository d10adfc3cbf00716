/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Round-trip samples and how the pingpong reports them: a table or JSON. */

#ifndef _PP_STATS_H_
#define _PP_STATS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pp_result {
	const char *mode;	/* raw, dgram, rdm, ... */
	size_t size;
	uint32_t iters;
	double min_us;
	double median_us;
	double p99_us;
	double p999_us;
	double mmsg_s;		/* messages per second, both directions, millions */
	double mbyte_s;		/* payload bytes per second, both directions, MB */
	bool stream;		/* one way: no round trips, rates only */
	/*
	 * A message stream over the reliable protocol (counted), from the
	 * sending endpoint's counters (fi_dpdk_ep_ops): the packets it sent
	 * per message (under 1: bundled), those it sent again, and the
	 * refusals (RNR) it got. A zeroed result counted nothing.
	 */
	bool counted;
	double pkts_per_msg;
	uint64_t resent;
	uint64_t refused;
};

/**
 * Turns iters round-trip times (TSC cycles; sorted in place) measured over
 * total_cycles into a result.
 */
void pp_stats_compute(struct pp_result *r, uint64_t *rtt, uint32_t iters,
		      uint64_t total_cycles, uint64_t hz);

/** Prints the results as a table or JSON (scripts/pingpong.sh sets them against the floor). */
void pp_report(const struct pp_result *r, unsigned int n, bool json);

#endif /* _PP_STATS_H_ */
