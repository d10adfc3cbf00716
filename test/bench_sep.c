/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Message rate against contexts: one-way 64 B RDM messages, each thread
 * driving its own context pair (transmit context t to receive context t of
 * one scalable endpoint, through the port) under FI_THREAD_COMPLETION, the
 * threads pinned one per core. One context on one core, then two contexts on
 * two cores, alternated for the rounds asked, in one run: the ratio of the
 * medians is the figure. Every message's number and bytes are checked.
 *
 * usage: bench_sep PORT_EAL_ARGS [seconds [rounds [fid|endpoint]]]
 *   e.g. bench_sep "--vdev=net_ring0" 2 3
 * With fid or endpoint, the domain's model is that one: each context then
 * takes a lock of its own per call (lib/fabric/guard.h).
 */

#include <arpa/inet.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include "test_util.h"

#define RX_CTX_BITS	2
#define MSG_LEN		64
#define WINDOW		256	/* receives posted per context, messages in flight */
#define MAX_THREADS	2

/* FI_THREAD_COMPLETION, or FI_THREAD_FID / FI_THREAD_ENDPOINT: a lock per context */
static enum fi_threading threading = FI_THREAD_COMPLETION;

struct worker {
	pthread_t tid;
	struct fid_ep *tx, *rx;
	struct fid_cq *tx_cq, *rx_cq;
	fi_addr_t dst;
	int cpu;
	int index;
	double seconds;
	uint64_t sent, recvd, bad, failed;
	uint8_t buf[WINDOW][MSG_LEN];
};

static void
msg_fill(uint8_t *p, int index, uint64_t seq)
{
	memcpy(p, &seq, sizeof(seq));
	memset(p + sizeof(seq), (int)(uint8_t)(seq + (uint64_t)index), MSG_LEN - sizeof(seq));
}

static void *
worker_run(void *arg)
{
	struct worker *w = arg;
	struct fi_cq_tagged_entry e[64];
	uint8_t out[MSG_LEN], want[MSG_LEN];
	struct timespec t0;
	cpu_set_t set;
	uint64_t slot, seq;
	ssize_t k, i;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	for (slot = 0; slot < WINDOW; slot++)
		if (fi_recv(w->rx, w->buf[slot], MSG_LEN, NULL, FI_ADDR_UNSPEC,
			    (void *)(uintptr_t)slot) != 0)
			w->failed++;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (test_ms_since(&t0) < w->seconds * 1000 && w->failed == 0) {
		/* the application batches: a burst of injects, then its completions */
		for (i = 0; i < 32 && w->sent - w->recvd < WINDOW; i++) {
			msg_fill(out, w->index, w->sent);
			if (fi_inject(w->tx, out, MSG_LEN, w->dst) != 0)
				break;
			w->sent++;
		}
		/* injects complete nothing, but the transmit context moves on
		 * (acknowledgements) only when its CQ is read: manual progress */
		fi_cq_read(w->tx_cq, e, 0);
		k = fi_cq_read(w->rx_cq, e, 64);
		if (k == -FI_EAVAIL)
			w->failed++;
		for (i = 0; i < k; i++) {
			slot = (uint64_t)(uintptr_t)e[i].op_context;
			memcpy(&seq, w->buf[slot], sizeof(seq));
			msg_fill(want, w->index, w->recvd);
			w->bad += seq != w->recvd || memcmp(want, w->buf[slot], MSG_LEN) != 0;
			w->recvd++;
			if (fi_recv(w->rx, w->buf[slot], MSG_LEN, NULL, FI_ADDR_UNSPEC,
				    e[i].op_context) != 0)
				w->failed++;
		}
	}
	return NULL;
}

/* One measurement: n contexts, n threads; @return messages per second, < 0 on failure. */
static double
run(int n, double seconds, const char *port)
{
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE, .rx_ctx_bits = RX_CTX_BITS };
	struct test_domain td = { 0 };
	struct worker *w = calloc(MAX_THREADS, sizeof(*w));
	struct fid_av *av = NULL;
	struct test_sep s;
	struct sockaddr_in sin;
	size_t len = sizeof(sin);
	fi_addr_t name;
	uint64_t total = 0;
	double rate = -1;
	int t, ok = 1;

	memset(&s, 0, sizeof(s));
	if (w == NULL ||
	    test_domain_open_attr(&td, FI_EP_RDM, FI_SOCKADDR_IN, FI_MSG | FI_NAMED_RX_CTX, 0,
				  threading, port) != 0 ||
	    fi_av_open(td.domain, &av_attr, &av, NULL) != 0 ||
	    test_sep_open(&td, av, n, n, &s) != 0 ||
	    fi_getname(&s.sep->fid, &sin, &len) != 0 ||
	    fi_av_insert(av, &sin, 1, &name, 0, NULL) != 1) {
		fprintf(stderr, "bench_sep: set-up failed\n");
		goto out;
	}
	for (t = 0; t < n; t++) {
		w[t].tx = s.tx[t];
		w[t].rx = s.rx[t];
		w[t].tx_cq = s.tx_cq[t];
		w[t].rx_cq = s.rx_cq[t];
		w[t].dst = fi_rx_addr(name, t, RX_CTX_BITS);
		w[t].cpu = t % (int)sysconf(_SC_NPROCESSORS_ONLN);
		w[t].index = t;
		w[t].seconds = seconds;
		if (pthread_create(&w[t].tid, NULL, worker_run, &w[t]) != 0)
			ok = 0;
	}
	for (t = 0; t < n; t++) {
		pthread_join(w[t].tid, NULL);
		total += w[t].recvd;
		if (w[t].bad != 0 || w[t].failed != 0 || w[t].recvd == 0) {
			fprintf(stderr, "bench_sep: context %d: %" PRIu64 " sent, %" PRIu64
				" received, %" PRIu64 " wrong, %" PRIu64 " failed operations\n",
				t, w[t].sent, w[t].recvd, w[t].bad, w[t].failed);
			ok = 0;
		}
	}
	if (ok)
		rate = (double)total / seconds;
out:
	test_sep_close(&s);
	if (av != NULL)
		fi_close(&av->fid);
	test_domain_close(&td);
	free(w);
	return rate;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	double seconds = argc > 2 ? atof(argv[2]) : 2.0;
	int rounds = argc > 3 ? atoi(argv[3]) : 3, r, n;
	double rate[MAX_THREADS][16], med[MAX_THREADS];
	char eal[512], port[64];

	if (argc > 4 && strcmp(argv[4], "fid") == 0)
		threading = FI_THREAD_FID;
	else if (argc > 4 && strcmp(argv[4], "endpoint") == 0)
		threading = FI_THREAD_ENDPOINT;
	else if (argc > 4)
		rounds = 0;	/* no such model: the usage */
	if (argc < 2 || argc > 5 || rounds < 1 || rounds > 16 || seconds <= 0) {
		fprintf(stderr, "usage: bench_sep PORT_EAL_ARGS [seconds [rounds (1-16) "
			"[fid|endpoint]]]\n");
		return 2;
	}
	snprintf(eal, sizeof(eal), TEST_EAL_BASE " %s", argv[1]);
	/* the port is the first --vdev's name */
	if (sscanf(argv[1], "--vdev=%63[^,]", port) != 1) {
		fprintf(stderr, "bench_sep: no --vdev= in '%s'\n", argv[1]);
		return 2;
	}
	test_env_setup(eal);
	printf("bench_sep: one-way %d B RDM messages on %s, %s, each thread pinned and driving "
	       "its own transmit and receive context; %d rounds of %.1f s\n", MSG_LEN, port,
	       fi_tostr(&threading, FI_TYPE_THREADING), rounds, seconds);
	for (r = 0; r < rounds; r++) {
		for (n = 1; n <= MAX_THREADS; n++) {
			rate[n - 1][r] = run(n, seconds, port);
			if (rate[n - 1][r] < 0)
				return 1;
			printf("  round %d: %d context%s on %d core%s: %6.2f M msg/s\n", r + 1, n,
			       n > 1 ? "s" : "", n, n > 1 ? "s" : "", rate[n - 1][r] / 1e6);
		}
	}
	for (n = 0; n < MAX_THREADS; n++) {
		qsort(rate[n], (size_t)rounds, sizeof(double), cmp_double);
		med[n] = rate[n][rounds / 2];
	}
	printf("bench_sep: medians: 1 context %.2f M msg/s, 2 contexts %.2f M msg/s: %.2fx\n",
	       med[0] / 1e6, med[1] / 1e6, med[1] / med[0]);
	return 0;
}
