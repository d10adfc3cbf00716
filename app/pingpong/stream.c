/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* One-way streams: the receiver's count and the report both sides share. */

#include <string.h>

#include <rte_cycles.h>

#include "ctrl.h"
#include "pingpong.h"

#define IDLE_MS		50
#define CTRL_POLLS	1024

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
