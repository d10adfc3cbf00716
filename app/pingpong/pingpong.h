/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* The pingpong benchmark's options and modes. */

#ifndef _PP_PINGPONG_H_
#define _PP_PINGPONG_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_cycles.h>

#include "stats.h"

#define PP_MAX_SIZES	32

enum pp_mode {
	PP_RAW,		/* bare Ethernet frames, no provider: the floor */
	PP_DGRAM,
	PP_RDM,
	PP_MSG,		/* FI_EP_MSG: RDM's protocol, connected */
};

enum pp_rma {
	PP_RMA_NONE,
	PP_RMA_WRITE,
	PP_RMA_READ,
};

struct pp_opts {
	bool server;
	const char *host;		/* the server's control address (client) */
	uint16_t ctrl_port;
	enum pp_mode mode;
	size_t sizes[PP_MAX_SIZES];
	unsigned int nb_sizes;
	uint32_t iters;			/* 0: a default per size */
	uint32_t warmup;
	int timeout_s;
	bool json;
	bool verify;
	bool stream;			/* one way, many in flight: rate and bandwidth */
	uint32_t batch;			/* --batch: streams post this many with FI_MORE */
	enum pp_rma rma;		/* -o: RMA streams next to the message streams */
	const char *domain;		/* DPDK port name */
	uint32_t tclass;		/* --tclass: the endpoint's traffic class */
	const char *floor;		/* --floor: raw frames on this port, taking
					 * turns with the mode's round trips */
	uint32_t block;			/* --block: round trips of a turn */
};

/*
 * A mode: set up (before the control connection), then round trips
 * (rtt.c runs them) or one-way streams, then torn down.
 */
struct pp_mode_ops {
	const char *name;
	int (*setup)(const struct pp_opts *o);
	/* Before the first round trip: the peers' addresses, the link up. */
	int (*rtt_prepare)(const struct pp_opts *o, int ctrl);
	/* The largest message one round trip carries. */
	size_t (*rtt_max)(void);
	/* Client: one round trip of size bytes, the payload filled with seq and
	 * checked when verify. @return its cycles, 0 when lost or damaged. */
	uint64_t (*rtt)(size_t size, bool verify, uint32_t seq);
	/* Server: echoes until the control connection has something to read.
	 * @return 0, or -1 on an error. */
	int (*echo)(int ctrl);
	/* One way (--stream): the client sends, the server counts. */
	int (*stream)(const struct pp_opts *o, int ctrl, struct pp_result *res);
	/* Client, when done, before it waits for the server to close first:
	 * leaves the peer (NULL: nothing to leave). */
	void (*leave)(void);
	void (*teardown)(void);
};

extern const struct pp_mode_ops pp_raw_ops;
extern const struct pp_mode_ops pp_fab_dgram_ops;
extern const struct pp_mode_ops pp_fab_rdm_ops;
extern const struct pp_mode_ops pp_fab_msg_ops;

/**
 * Round trips of each size through ops (the client fills results), or
 * with o->floor those of floor and ops in turns of o->block: each turn of
 * ops is read against the floor's turn before it, and the turns are
 * grouped by the floor's speed (regimes), printed by the client.
 * @return results, or -1.
 */
int pp_rtt_run(const struct pp_mode_ops *ops, const struct pp_mode_ops *floor,
	       const struct pp_opts *o, int ctrl, struct pp_result *res);

/* A turn whose floor is this many times the fastest of its group starts the
 * next group: the regimes seen here are 0.3, 0.65 and 2 us apart. */
#define PP_REGIME_STEP	1.4

/*
 * The turns of one size grouped by their floor's figure into regimes,
 * fastest first, each printed with the floor's and the mode's medians and
 * the median of the turns' ratios (mode / the floor's turn before it);
 * bw: the figures are bandwidths (MB/s), the ratio a share of the floor's.
 */
void pp_regimes_print(const char *mode, size_t size, const double *fl_med, const double *md_med,
		      uint32_t turns, bool bw);

/*
 * --stream with --floor: each size's stream split into turns, a raw one on
 * the floor's port then the mode's, both sides in step; the client prints
 * the regimes and gives each size's median turn of both in res (raw, then
 * the mode). @return the results, or -1.
 */
int pp_stream_turns(const struct pp_mode_ops *ops, const struct pp_mode_ops *floor,
		    const struct pp_opts *o, int ctrl, struct pp_result *res);

/** Iterations for a size when -I is not given. */
uint32_t pp_iters(const struct pp_opts *o, size_t size);

/*
 * Streams (--stream): the client sends, then says how many; the server
 * counts what arrives and reports its rate, measured from the first arrival
 * to the last.
 */

/** Server: what one poll brought: @return messages, *bytes their payload. */
typedef uint64_t (*pp_stream_poll_t)(void *arg, uint64_t *bytes);

/**
 * Server: polls until iters messages arrived, or until the client said it
 * is done and nothing more came for 50 ms; then reports. @return 0 or -1.
 */
int pp_stream_serve(int ctrl, uint64_t iters, pp_stream_poll_t poll, void *arg);

/**
 * Client: says how many it sent, gets the server's report as a result,
 * calling progress (if any) meanwhile.
 */
int pp_stream_result(int ctrl, uint64_t sent, void (*progress)(void), const char *mode,
		     size_t size, struct pp_result *res);

/** Fills buf with a pattern of the iteration, and checks one. */
/*
 * The clock at the ends of a round trip. Serialised: a round trip ends once
 * the reply's bytes are really in hand. A plain rdtsc is read out of order,
 * before the loads of a short path complete (a bare echo's), but not past the
 * hundreds of instructions of a longer one, which would favour the short one
 * by the time the reply's cache lines take to cross between cores.
 */
static inline uint64_t
pp_stamp(void)
{
	return rte_rdtsc_precise();
}

void pp_fill(uint8_t *buf, size_t len, uint32_t iter);
bool pp_check(const uint8_t *buf, size_t len, uint32_t iter);

/** Waits for the link of the DPDK port named name. @return 0, or -1 on timeout. */
int pp_wait_link(const char *name, int timeout_s);

#endif /* _PP_PINGPONG_H_ */
