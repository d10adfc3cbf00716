/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* One-way streams: the receiver's count and the report both sides share,
 * and streams in turns with the floor's. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "ctrl.h"
#include "pingpong.h"

#define IDLE_MS		50
#define CTRL_POLLS	1024
/* A size's stream in this many turns of raw frames and of the mode each:
 * this VM's vCPUs change speed from one second to the next, and a raw
 * round a few seconds away from the mode's (separate processes, scripts/
 * pingpong.sh without -f) may belong to another regime. */
#define STREAM_TURNS	10

struct stream_report {
	uint64_t msgs;
	uint64_t bytes;
	uint64_t cycles;		/* first arrival to last */
};

int
pp_stream_serve(int ctrl, uint64_t iters, pp_stream_poll_t poll, void *arg)
{
	uint64_t hz = rte_get_tsc_hz(), got = 0, bytes = 0, first = 0, last = 0, sent = 0;
	uint64_t b, n, now, done_at = 0;
	struct stream_report rep;
	uint32_t polls = 0;

	for (;;) {
		b = 0;
		n = poll(arg, &b);
		if (n > 0) {
			now = rte_rdtsc();
			if (got == 0)
				first = now;
			last = now;
			got += n;
			bytes += b;
			if (got >= iters)
				break;
		}
		if (++polls % CTRL_POLLS != 0)
			continue;
		if (done_at == 0 && pp_ctrl_pending(ctrl)) {
			if (pp_ctrl_recv(ctrl, &sent, sizeof(sent)) != sizeof(sent))
				return -1;
			done_at = rte_rdtsc();
		}
		/* a datagram may be lost: the client is done and nothing comes */
		now = rte_rdtsc();
		if (done_at != 0 && (got >= sent || (now - done_at > hz * IDLE_MS / 1000 &&
						    now - last > hz * IDLE_MS / 1000)))
			break;
	}
	/* progress goes on until the sender reports: what came last is acknowledged
	 * only by this side's progress, and the sender waits for that */
	while (done_at == 0 && !pp_ctrl_pending(ctrl))
		poll(arg, &b);
	if (done_at == 0 && pp_ctrl_recv(ctrl, &sent, sizeof(sent)) != sizeof(sent))
		return -1;
	rep.msgs = got;
	rep.bytes = bytes;
	rep.cycles = last - first;
	return pp_ctrl_send(ctrl, &rep, sizeof(rep));
}

int
pp_stream_result(int ctrl, uint64_t sent, void (*progress)(void), const char *mode, size_t size,
		 struct pp_result *res)
{
	struct stream_report rep;
	double secs;

	if (pp_ctrl_send(ctrl, &sent, sizeof(sent)) != 0)
		return -1;
	/* what is still on its way needs this side's progress (manual progress) */
	while (progress != NULL && !pp_ctrl_pending(ctrl))
		progress();
	if (pp_ctrl_recv(ctrl, &rep, sizeof(rep)) != sizeof(rep) || rep.cycles == 0)
		return -1;
	secs = (double)rep.cycles / (double)rte_get_tsc_hz();
	memset(res, 0, sizeof(*res));
	res->mode = mode;
	res->stream = true;
	res->size = size;
	res->iters = (uint32_t)rep.msgs;
	res->mmsg_s = (double)rep.msgs / secs / 1e6;
	res->mbyte_s = (double)rep.bytes / secs / 1e6;
	return 0;
}

static int
cmp_mbyte_s(const void *a, const void *b)
{
	double x = ((const struct pp_result *)a)->mbyte_s, y = ((const struct pp_result *)b)->mbyte_s;

	return x < y ? -1 : x > y;
}

int
pp_stream_turns(const struct pp_mode_ops *ops, const struct pp_mode_ops *floor,
		const struct pp_opts *o, int ctrl, struct pp_result *res)
{
	struct pp_result turn[2][STREAM_TURNS] = { 0 };
	double bw[2][STREAM_TURNS];
	struct pp_opts t = *o;
	unsigned int s, k, n = 0;

	t.rma = PP_RMA_NONE;
	t.nb_sizes = 1;
	if (!o->server && !o->json)
		printf("one-way streams in %d turns, raw frames then %s; per turn: its bandwidth / "
		       "the raw turn's before it; regimes: turns grouped by the raw bandwidth, "
		       "each within %.1fx of its fastest\n%-6s %7s %7s %6s %9s %9s %19s\n",
		       STREAM_TURNS, ops->name, PP_REGIME_STEP, "mode", "bytes", "regime", "turns",
		       "raw MB/s", "mode MB/s", "mode/raw (range)");
	for (s = 0; s < o->nb_sizes && n + 2 <= PP_MAX_SIZES; s++) {
		t.sizes[0] = o->sizes[s];
		t.iters = RTE_MAX(pp_iters(o, o->sizes[s]) / STREAM_TURNS, 1u);
		for (k = 0; k < STREAM_TURNS; k++) {
			if (floor->stream(&t, ctrl, &turn[0][k]) < 0 ||
			    ops->stream(&t, ctrl, &turn[1][k]) < 0)
				return -1;
			bw[0][k] = turn[0][k].mbyte_s;
			bw[1][k] = turn[1][k].mbyte_s;
		}
		if (o->server)
			continue;
		if (!o->json)
			pp_regimes_print(ops->name, o->sizes[s], bw[0], bw[1], STREAM_TURNS, true);
		/* each side's median turn stands for the size in the report */
		qsort(turn[0], STREAM_TURNS, sizeof(turn[0][0]), cmp_mbyte_s);
		qsort(turn[1], STREAM_TURNS, sizeof(turn[1][0]), cmp_mbyte_s);
		res[n++] = turn[0][STREAM_TURNS / 2];
		res[n++] = turn[1][STREAM_TURNS / 2];
	}
	return (int)n;
}
