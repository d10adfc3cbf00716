/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Round trips of each size, timed one by one: through one mode, or (--floor)
 * through the raw floor and a mode of the provider in turns, on two ports
 * between the same two processes. This VM's vCPUs change speed from one
 * second to the next (the floor of one process pair moved from 0.65 to
 * 2.1 us between two sizes of one run), so a floor measured by another
 * process, even seconds before, may belong to another regime: a turn of
 * the mode is read against the floor's turn just before it, and the turns
 * are grouped by the floor's speed, each group a regime.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "ctrl.h"
#include "pingpong.h"

/* Round trips at the start of a turn, not counted: the other port's were
 * the last to run, and this one's state is out of the caches. */
#define TURN_WARMUP	32
/* What the client sends the server before a turn; the server answers ACK. */
#define TURN_FLOOR	'f'
#define TURN_MODE	'm'
#define TURN_DONE	'd'
#define TURN_ACK	'a'

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of n values, sorted in place: of an even count, the mean of the middle two. */
static double
median_double(double *v, uint32_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 != 0 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * n round trips of size through ops into rtt (seq counting from *seq).
 * @return 0, or -1 when one was lost or damaged; *cycles gets their time.
 */
static int
rtt_burst(const struct pp_mode_ops *ops, const struct pp_opts *o, size_t size, uint64_t *rtt,
	  uint32_t n, uint32_t *seq, uint64_t *cycles)
{
	uint64_t t0 = rte_rdtsc();
	uint32_t i;

	for (i = 0; i < n; i++) {
		rtt[i] = ops->rtt(size, o->verify, (*seq)++);
		if (rtt[i] == 0)
			return -1;
	}
	*cycles += rte_rdtsc() - t0;
	return 0;
}

/* The server: echoes through the mode the client names, turn after turn. */
static int
serve_turns(const struct pp_mode_ops *ops, const struct pp_mode_ops *floor, int ctrl)
{
	char turn, ack = TURN_ACK;

	for (;;) {
		if (pp_ctrl_recv(ctrl, &turn, 1) != 1)
			return -1;
		if (turn == TURN_DONE)
			return 0;
		if (pp_ctrl_send(ctrl, &ack, 1) != 0 ||
		    (turn == TURN_FLOOR ? floor : ops)->echo(ctrl) != 0)
			return -1;
	}
}

/* The client: the server echoes through the mode named once this returns 0. */
static int
turn_start(int ctrl, char turn)
{
	char ack;

	if (pp_ctrl_send(ctrl, &turn, 1) != 0 || pp_ctrl_recv(ctrl, &ack, 1) != 1 ||
	    ack != TURN_ACK)
		return -1;
	return 0;
}

/* One group of turns (their indices in idx[]): the floor, the mode, the
 * ratio (bw: bandwidths, the ratio a share). */
static void
regime_print(const char *mode, size_t size, const char *name, const uint32_t *idx, uint32_t n,
	     const double *fl_med, const double *md_med, bool bw)
{
	double f[n], m[n], r[n], ratio;
	uint32_t i;

	for (i = 0; i < n; i++) {
		f[i] = fl_med[idx[i]];
		m[i] = md_med[idx[i]];
		r[i] = md_med[idx[i]] / fl_med[idx[i]];
	}
	ratio = median_double(r, n);	/* sorts r */
	if (bw)
		printf("%-6s %7zu %7s %6u %9.0f %9.0f %8.0f%% (%.0f-%.0f)\n", mode, size, name, n,
		       median_double(f, n), median_double(m, n), 100 * ratio, 100 * r[0],
		       100 * r[n - 1]);
	else
		printf("%-6s %7zu %7s %6u %9.3f %9.3f %8.2fx (%.2f-%.2f)\n", mode, size, name, n,
		       median_double(f, n), median_double(m, n), ratio, r[0], r[n - 1]);
}

/* @return whether a floor of a is faster than one of b (bw: bandwidths). */
static inline bool
faster(double a, double b, bool bw)
{
	return bw ? a > b : a < b;
}

void
pp_regimes_print(const char *mode, size_t size, const double *fl_med, const double *md_med,
		 uint32_t turns, bool bw)
{
	uint32_t idx[turns], i, j, first, regime = 0;
	char name[16];

	for (i = 0; i < turns; i++)
		idx[i] = i;
	/* turns are few (tens): sorted in place by their floor */
	for (i = 1; i < turns; i++)
		for (j = i; j > 0 && faster(fl_med[idx[j]], fl_med[idx[j - 1]], bw); j--)
			RTE_SWAP(idx[j], idx[j - 1]);
	for (first = 0, i = 1; i <= turns; i++) {
		if (i < turns && (bw ? PP_REGIME_STEP * fl_med[idx[i]] >= fl_med[idx[first]] :
				  fl_med[idx[i]] <= PP_REGIME_STEP * fl_med[idx[first]]))
			continue;
		snprintf(name, sizeof(name), "%u", ++regime);
		regime_print(mode, size, name, idx + first, i - first, fl_med, md_med, bw);
		first = i;
	}
	if (regime > 1)
		regime_print(mode, size, "all", idx, turns, fl_med, md_med, bw);
}

/*
 * The client's round trips of one size, in turns of the floor and the mode:
 * res[0] the floor's, res[1] the mode's. @return 0 or -1.
 */
static int
size_in_turns(const struct pp_mode_ops *ops, const struct pp_mode_ops *floor,
	      const struct pp_opts *o, int ctrl, size_t size, uint32_t iters,
	      struct pp_result *res)
{
	const struct pp_mode_ops *side[2] = { floor, ops };
	const char turn_of[2] = { TURN_FLOOR, TURN_MODE };
	uint32_t block = RTE_MIN(o->block, iters), turns = (iters + block - 1) / block;
	uint64_t *rtt[2] = { NULL, NULL }, cycles[2] = { 0, 0 }, turn_cycles, warm[TURN_WARMUP];
	double *med[2] = { NULL, NULL };
	struct pp_result turn_res = { .size = size };
	const char *failed = NULL;
	uint32_t seq = 0, t, k, done = 0;
	int ret = -1;

	iters = turns * block;
	for (k = 0; k < 2; k++) {
		rtt[k] = malloc(sizeof(*rtt[k]) * iters);
		med[k] = malloc(sizeof(*med[k]) * turns);
	}
	if (rtt[0] == NULL || rtt[1] == NULL || med[0] == NULL || med[1] == NULL)
		goto out;
	for (t = 0; t < turns; t++) {
		for (k = 0; k < 2; k++) {
			failed = side[k]->name;
			turn_cycles = 0;
			if (turn_start(ctrl, turn_of[k]) != 0 ||
			    rtt_burst(side[k], o, size, warm, TURN_WARMUP, &seq, &(uint64_t){ 0 }) ||
			    rtt_burst(side[k], o, size, rtt[k] + done, block, &seq, &turn_cycles))
				goto out;
			cycles[k] += turn_cycles;
			/* sorts the turn's times in place: the whole run's figures
			 * below do not depend on their order */
			pp_stats_compute(&turn_res, rtt[k] + done, block, turn_cycles,
					 rte_get_tsc_hz());
			med[k][t] = turn_res.median_us;
		}
		done += block;
	}
	for (k = 0; k < 2; k++) {
		res[k].mode = k == 0 ? "raw" : ops->name;
		res[k].size = size;
		pp_stats_compute(&res[k], rtt[k], iters, cycles[k], rte_get_tsc_hz());
	}
	if (!o->json)
		pp_regimes_print(ops->name, size, med[0], med[1], turns, false);
	ret = 0;
out:
	if (failed != NULL && ret != 0)
		fprintf(stderr, "fi_dpdk_pingpong: %s round trips of %zu bytes in turns failed\n",
			failed, size);
	for (k = 0; k < 2; k++) {
		free(rtt[k]);
		free(med[k]);
	}
	return ret;
}

/* The client's round trips of one size through ops alone: res. @return 0 or -1. */
static int
size_alone(const struct pp_mode_ops *ops, const struct pp_opts *o, size_t size, uint32_t iters,
	   struct pp_result *res)
{
	uint64_t *rtt = malloc(sizeof(*rtt) * RTE_MAX(iters, o->warmup)), cycles = 0;
	uint32_t seq = 0;
	int ret;

	if (rtt == NULL)
		return -1;
	ret = rtt_burst(ops, o, size, rtt, o->warmup, &seq, &(uint64_t){ 0 });
	seq = 0;
	ret = ret ? ret : rtt_burst(ops, o, size, rtt, iters, &seq, &cycles);
	if (ret == 0) {
		res->mode = ops->name;
		res->size = size;
		pp_stats_compute(res, rtt, iters, cycles, rte_get_tsc_hz());
	}
	free(rtt);
	return ret;
}

int
pp_rtt_run(const struct pp_mode_ops *ops, const struct pp_mode_ops *floor,
	   const struct pp_opts *o, int ctrl, struct pp_result *res)
{
	char done = TURN_DONE;
	unsigned int s, n = 0;
	size_t size;
	int ret = 0;

	if ((floor != NULL && floor->rtt_prepare(o, ctrl) != 0) ||
	    ops->rtt_prepare(o, ctrl) != 0 || pp_ctrl_sync(ctrl) != 0)
		return -1;
	if (o->server)
		return floor != NULL ? serve_turns(ops, floor, ctrl) : ops->echo(ctrl);
	if (floor != NULL && !o->json)
		printf("turns of %u round trips (after %u not counted), raw frames then %s; per "
		       "turn: its median / the raw turn's before it; regimes: turns grouped by "
		       "the raw median, each within %.1fx of its fastest\n"
		       "%-6s %7s %7s %6s %9s %9s %19s\n", o->block, TURN_WARMUP, ops->name,
		       PP_REGIME_STEP, "mode", "bytes", "regime", "turns", "raw(us)", "mode(us)",
		       "mode/raw (range)");
	for (s = 0; s < o->nb_sizes && ret == 0 && n < PP_MAX_SIZES - 1; s++) {
		size = o->sizes[s];
		if (size > ops->rtt_max() || (floor != NULL && size > floor->rtt_max()))
			continue;
		if (floor != NULL) {
			ret = size_in_turns(ops, floor, o, ctrl, size, pp_iters(o, size), &res[n]);
			n += 2;
		} else {
			ret = size_alone(ops, o, size, pp_iters(o, size), &res[n]);
			n++;
		}
	}
	/* the server stops echoing */
	pp_ctrl_send(ctrl, &done, 1);
	return ret == 0 ? (int)n : -1;
}
