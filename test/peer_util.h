/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Helpers of the two-process wire tests (dgram_peer, and the reliable
 * protocol's peers): one endpoint per process on the port the harness gave
 * it, a control connection to the other side, TAP-style checks, and the
 * payload pattern both sides know.
 */

#ifndef _DFI_PEER_UTIL_H_
#define _DFI_PEER_UTIL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>

#include <rte_common.h>

#define PEER_TIMEOUT_MS	5000

/** One side's fabric objects. */
struct peer {
	struct fi_info *info;
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fid_av *av;
	struct fid_cq *cq;
	struct fid_cntr *tx_cntr;
	struct fid_cntr *rx_cntr;
	struct fid_ep *ep;
	fi_addr_t peer_addr;	/* the other side, once inserted */
	char peer_name[64];	/* its name, from the control connection */
	size_t peer_name_len;
	int ctrl;		/* the control connection */
	bool server;
	const char *host;	/* the server's, for the control connection */
	uint16_t port;
	enum fi_ep_type type;	/* what peer_open() opened */
	uint64_t caps;
	uint32_t tclass;	/* -C: the endpoint's traffic class */
	bool thread_domain;	/* -D: FI_THREAD_DOMAIN (the provider's lock-free paths) */
};

/** Prints "ok N - what" or "not ok N - what" and counts failures. */
bool peer_check(bool cond, const char *fmt, ...) __rte_format_printf(2, 3);

/** @return the number of failed checks so far. */
int peer_failures(void);

/**
 * Parses "server|client [host] [-P ctrl_port] [-C tclass] [-D]", opens an endpoint of this
 * type with these caps (FI_CQ_FORMAT_TAGGED CQ, send and receive counters),
 * connects the control channel, swaps endpoint names (not inserted).
 *
 * @return 0 or -1 (reported).
 */
int peer_open(struct peer *p, int argc, char **argv, enum fi_ep_type type, uint64_t caps);

/**
 * Client: connects the control channel again, to a new server at the same
 * address, and swaps names with it. @return 0 or -1.
 */
int peer_reconnect(struct peer *p);

/**
 * Sends this side's endpoint name over the control connection and reads the
 * other side's (not inserted). @return 0 or -1.
 */
int peer_swap(struct peer *p);

/**
 * Closes this side's endpoint and everything under it down to the fabric,
 * opens them again as peer_open() did (a new endpoint on the same port), and
 * swaps names with the other side (peer_swap). @return 0 or -1.
 */
int peer_reopen(struct peer *p);

/** Inserts the other side's name into the AV (peer_addr). @return 0 or -1. */
int peer_insert(struct peer *p);

/**
 * Ends the test: the client says so and waits for the server to close its
 * port before closing its own. Prints the TAP plan.
 *
 * @return the process exit status: 0 when every check passed.
 */
int peer_finish(struct peer *p);

/**
 * Reads one completion, progressing, for at most timeout_ms. An error
 * completion is returned in err with -FI_EAVAIL.
 *
 * @return 1, -FI_EAGAIN at the timeout, -FI_EAVAIL, or another error.
 */
ssize_t peer_wait(struct peer *p, struct fi_cq_tagged_entry *e, fi_addr_t *src,
		  struct fi_cq_err_entry *err, int timeout_ms);

/** Control channel: a one-byte message and its wait. */
int peer_tell(struct peer *p, char what);
int peer_hear(struct peer *p, char *what);

/** The payload both sides expect: a function of its length and a seed. */
void peer_fill(uint8_t *buf, size_t len, uint32_t seed);
bool peer_verify(const uint8_t *buf, size_t len, uint32_t seed);

/** Monotonic milliseconds. */
uint64_t peer_now_ms(void);

#endif /* _DFI_PEER_UTIL_H_ */
