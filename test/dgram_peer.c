/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * FI_EP_DGRAM across a real wire: one side of a two-process test, run by
 * test/dgram_wire.sh over memif and over veth/af_packet. The provider starts
 * the EAL itself (FI_DPDK_EAL_ARGS), as it does for unmodified applications,
 * and the domain is FI_THREAD_SAFE: the locked paths cross the wire here.
 *
 * The client drives; the server echoes what it receives. In order:
 *   1. FI_SOURCE of a sender not in the server's AV is FI_ADDR_NOTAVAIL
 *      (also the first contact: it waits for the link and for ARP);
 *   2. every size from 0 to max_msg_size there and back, data checked both
 *      ways, fi_send and fi_inject on the way, fi_send and fi_senddata back,
 *      FI_SOURCE of a known sender;
 *   3. the counters agree with the completions;
 *   4. a truncated receive is FI_ETRUNC with olen;
 *   5. cancel, and bad sends (too large, too large to inject, unknown
 *      fi_addr) are refused, after which the endpoint still works.
 * Datagrams may be lost: the client sends again after RETRY_MS.
 *
 * With -L (both sides), the link test instead of 2-5: test/dgram_wire.sh
 * takes the wire down when the client prints "# link: ready" and up again
 * when it prints "# link: up please"; the client's sends must fail with
 * -FI_ENETDOWN while it is down, and traffic must resume once it is back.
 * The client prints when (CLOCK_REALTIME, ns) it saw each change.
 *
 * With -F rounds (both sides), the flapping wire instead: test/memif_flap.sh
 * kills the server (SIGKILL) when the client prints "# flap N: up", under the
 * client's stream of sends and receives, and starts another, rounds times.
 * The client must live through each death, see its sends refused with
 * -FI_ENETDOWN, and have echoes again from the next server; the last one
 * ends the test. -D (peer_util) runs either side FI_THREAD_DOMAIN.
 *
 * usage: dgram_peer server|client [host] [-P ctrl_port] [-D] [-L | -F rounds]
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdma/fi_errno.h>

#include "ctrl.h"
#include "peer_util.h"

#define RETRY_MS	200
#define MAX_RETRIES	50
#define TRUNC_LEN	16	/* the client's short receive */
#define TRUNC_SENT	100	/* what the server sends into it */
#define SEED_HELLO	0x4e110
#define HELLO_LEN	32
#define DATA		0xfeedc0de12345678ULL
#define LINK_WAIT_MS	10000	/* for the provider to see the link change */
#define LINK_DOWN_MS	200	/* sends tried while it is down */
#define LINK_SIZE	48	/* the link test's datagrams */
#define FLAP_SIZE	1024	/* the flap test's datagrams */
#define FLAP_ECHOES	200	/* echoes a round waits for before its kill */
#define FLAP_LIFE_MS	120000	/* a flapping server's life, if nobody kills it */

static uint8_t *rx_buf, *tx_buf;
static size_t max_size;
static struct fi_context rx_ctx, tx_ctx;
static uint64_t nb_sent, nb_recv;	/* completions read, for the counters */
static bool link_test;		/* -L */
static int flap_rounds;		/* -F */

static int
post_rx(struct peer *p, size_t len)
{
	return (int)fi_recv(p->ep, rx_buf, len, NULL, FI_ADDR_UNSPEC, &rx_ctx);
}

/* Reads completions until a receive completes; send completions are counted. */
static ssize_t
wait_rx(struct peer *p, struct fi_cq_tagged_entry *e, fi_addr_t *src,
	struct fi_cq_err_entry *err, int timeout_ms)
{
	uint64_t deadline = peer_now_ms() + (uint64_t)timeout_ms;
	ssize_t n;

	for (;;) {
		n = peer_wait(p, e, src, err, (int)(deadline - peer_now_ms()));
		if (n == 1 && (e->flags & FI_SEND)) {
			nb_sent++;
			if (peer_now_ms() < deadline)
				continue;
			return -FI_EAGAIN;
		}
		if (n == 1)
			nb_recv++;
		return n;
	}
}

/* The server: echoes every datagram until the client says it is done. */
static void
serve(struct peer *p)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	uint32_t echoed = 0, polls = 0;
	fi_addr_t src;
	bool first = true, verified = true, source_ok = true;
	size_t len;
	ssize_t n;
	char c;

	post_rx(p, max_size);
	for (;;) {
		n = wait_rx(p, &e, &src, &err, 10);
		if (n == -FI_EAVAIL) {
			peer_check(false, "server: error completion %d", err.err);
			post_rx(p, max_size);
			continue;
		}
		if (n == 1) {
			len = e.len;
			if (first) {
				/* 1. the client is not in our AV yet */
				peer_check(src == FI_ADDR_NOTAVAIL, "FI_SOURCE of an unknown sender "
					   "is FI_ADDR_NOTAVAIL (got 0x%" PRIx64 ")", src);
				peer_check(peer_verify(rx_buf, len, SEED_HELLO),
					   "first contact payload intact");
				peer_check(peer_insert(p) == 0, "server inserts the client");
				first = false;
				peer_tell(p, 'h');
			} else if (len == HELLO_LEN && peer_verify(rx_buf, len, SEED_HELLO)) {
				/* a hello sent before the client heard us */
			} else {
				/* 2. the seed is the size: the client sends one size at a time */
				if (!peer_verify(rx_buf, len, (uint32_t)len))
					verified = false;
				if (src != p->peer_addr)
					source_ok = false;
				memcpy(tx_buf, rx_buf, len);
				/* fi_senddata for every third size, fi_send otherwise */
				if (len % 3 == 0)
					n = fi_senddata(p->ep, tx_buf, len, NULL, DATA ^ len,
							p->peer_addr, &tx_ctx);
				else
					n = fi_send(p->ep, tx_buf, len, NULL, p->peer_addr, &tx_ctx);
				if (n == -FI_ENETDOWN && link_test)
					printf("# server: echo refused, link down\n");
				else if (n != 0)
					peer_check(false, "server echo of %zu bytes: %s", len,
						   fi_strerror((int)-n));
				echoed += n == 0;
			}
			post_rx(p, max_size);
			continue;
		}
		if (++polls % 8 != 0 || !pp_ctrl_pending(p->ctrl))
			continue;
		if (peer_hear(p, &c) != 0 || c == 'd')
			break;
		if (c == 't') {
			/* 4. the client posted a short receive: overflow it */
			peer_fill(tx_buf, TRUNC_SENT, TRUNC_SENT);
			peer_check(fi_inject(p->ep, tx_buf, TRUNC_SENT, p->peer_addr) == 0,
				   "server sends %d bytes into a %d-byte receive", TRUNC_SENT,
				   TRUNC_LEN);
		} else if (c == 'c') {
			/* 3. our counters against what our CQ reported */
			peer_check(fi_cntr_read(p->rx_cntr) == nb_recv,
				   "server receive counter %" PRIu64 " = completions %" PRIu64,
				   fi_cntr_read(p->rx_cntr), nb_recv);
			peer_check(fi_cntr_read(p->tx_cntr) == echoed,
				   "server send counter %" PRIu64 " = sends %u",
				   fi_cntr_read(p->tx_cntr), echoed);
			peer_check(fi_cntr_readerr(p->tx_cntr) == 0 &&
				   fi_cntr_readerr(p->rx_cntr) == 0, "server: no error counted");
			peer_tell(p, 'c');
		}
	}
	peer_check(verified, "server: every datagram's payload intact");
	peer_check(source_ok, "server: FI_SOURCE of every datagram is the client's fi_addr");
	peer_check(echoed >= (link_test ? 2 : max_size + 1), "server echoed %u datagrams", echoed);
}

/* Sends size bytes (seed size) until the echo comes back; @return retries or -1. */
static int
ping(struct peer *p, size_t size, bool inject)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	int tries;
	ssize_t n;

	peer_fill(tx_buf, size, (uint32_t)size);
	for (tries = 0; tries < MAX_RETRIES; tries++) {
		if (inject) {
			n = fi_inject(p->ep, tx_buf, size, p->peer_addr);
		} else {
			n = fi_send(p->ep, tx_buf, size, NULL, p->peer_addr, &tx_ctx);
		}
		if (n != 0)
			return -1;
		if (inject)
			nb_sent++;	/* counted by the counter, reported by no completion */
		for (;;) {
			n = wait_rx(p, &e, NULL, &err, RETRY_MS);
			if (n != 1)
				break;
			/* a late echo of an earlier size is skipped */
			if (e.len == size)
				break;
			post_rx(p, max_size);
		}
		if (n == 1) {
			bool ok = peer_verify(rx_buf, size, (uint32_t)size);

			if (size % 3 == 0)
				ok = ok && (e.flags & FI_REMOTE_CQ_DATA) && e.data == (DATA ^ size);
			else
				ok = ok && !(e.flags & FI_REMOTE_CQ_DATA);
			post_rx(p, max_size);
			return ok ? tries : -1;
		}
		if (n != -FI_EAGAIN)
			return -1;
	}
	return -1;
}

static uint64_t
realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Sends LINK_SIZE datagrams, reading completions between them, until a
 * send's result is (want_down) or is not (!want_down) -FI_ENETDOWN, or
 * until ms have passed. @return the last result.
 */
static ssize_t
send_until(struct peer *p, bool want_down, int ms)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	uint64_t deadline = peer_now_ms() + (uint64_t)ms;
	ssize_t n;

	peer_fill(tx_buf, LINK_SIZE, LINK_SIZE);
	do {
		n = fi_send(p->ep, tx_buf, LINK_SIZE, NULL, p->peer_addr, &tx_ctx);
		if ((n == -FI_ENETDOWN) == want_down)
			return n;
		peer_wait(p, &e, NULL, &err, 1);
	} while (peer_now_ms() < deadline);
	return n;
}

/* The link goes down and comes back under the client's sends (-L). */
static void
drive_link(struct peer *p)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	uint64_t end;
	int refused = 0, accepted = 0;
	ssize_t n;

	post_rx(p, max_size);
	peer_check(ping(p, 64, false) >= 0, "link: traffic flows before the outage");
	printf("# link: ready\n");
	n = send_until(p, true, LINK_WAIT_MS);
	printf("# link: down seen at %" PRIu64 "\n", realtime_ns());
	peer_check(n == -FI_ENETDOWN, "link: a send while the link is down fails with "
		   "-FI_ENETDOWN (got %zd)", n);
	/* and every one while it stays down */
	for (end = peer_now_ms() + LINK_DOWN_MS; peer_now_ms() < end;) {
		n = fi_send(p->ep, tx_buf, LINK_SIZE, NULL, p->peer_addr, &tx_ctx);
		if (n == -FI_ENETDOWN)
			refused++;
		else
			accepted++;
		peer_wait(p, &e, NULL, &err, 1);
	}
	peer_check(refused > 0 && accepted == 0, "link: every send refused while it is down "
		   "(%d refused, %d accepted)", refused, accepted);
	printf("# link: up please\n");
	n = send_until(p, false, LINK_WAIT_MS);
	printf("# link: up seen at %" PRIu64 "\n", realtime_ns());
	peer_check(n == 0, "link: sends accepted again once it is back (got %zd)", n);
	/* the neighbours were forgotten: this goes through ARP again (and an
	 * early echo took the receive posted before) */
	post_rx(p, max_size);
	peer_check(ping(p, 100, false) >= 0, "link: traffic resumes, the echo comes back");
}

/*
 * One step of a stream: a send (refused or not), then every completion there
 * is; receives are posted again. @return the send's result; *echoes counts
 * the datagrams received.
 */
static ssize_t
flap_step(struct peer *p, uint64_t *echoes)
{
	struct fi_cq_tagged_entry e[16];
	struct fi_cq_err_entry err = { 0 };
	ssize_t n, sent, i;

	sent = p->server ? 0 : fi_send(p->ep, tx_buf, FLAP_SIZE, NULL, p->peer_addr, &tx_ctx);
	while ((n = fi_cq_read(p->cq, e, 16)) > 0 || n == -FI_EAVAIL) {
		if (n == -FI_EAVAIL) {
			fi_cq_readerr(p->cq, &err, 0);
			continue;
		}
		for (i = 0; i < n; i++) {
			if (!(e[i].flags & FI_RECV))
				continue;
			(*echoes)++;
			if (p->server) {
				memcpy(tx_buf, rx_buf, RTE_MIN(e[i].len, (size_t)FLAP_SIZE));
				fi_send(p->ep, tx_buf, RTE_MIN(e[i].len, (size_t)FLAP_SIZE), NULL,
					p->peer_addr, &tx_ctx);
			}
			post_rx(p, max_size);
		}
	}
	return sent;
}

/* A flapping server: echoes until the client is done, or it is killed. */
static void
serve_flap(struct peer *p)
{
	uint64_t echoed = 0, steps = 0, end = peer_now_ms() + FLAP_LIFE_MS;
	char c;

	peer_check(peer_insert(p) == 0, "flap: the server inserts the client");
	post_rx(p, max_size);
	while (peer_now_ms() < end) {
		flap_step(p, &echoed);
		if (++steps % 64 == 0 && pp_ctrl_pending(p->ctrl) &&
		    (peer_hear(p, &c) != 0 || c == 'd'))
			break;
	}
	peer_check(echoed > 0, "flap: the server echoed %" PRIu64 " datagrams", echoed);
}

/* Streams until n echoes came back (want_down false) or a send is refused
 * for the link (want_down true), for LINK_WAIT_MS at most. @return whether. */
static bool
flap_until(struct peer *p, bool want_down, uint64_t n, uint64_t *sent)
{
	uint64_t echoes = 0, end = peer_now_ms() + LINK_WAIT_MS;
	ssize_t ret;

	while (peer_now_ms() < end) {
		ret = flap_step(p, &echoes);
		*sent += ret == 0;
		if (want_down ? ret == -FI_ENETDOWN : echoes >= n)
			return true;
	}
	return false;
}

/* The client over a wire whose other end is killed rounds times (-F). */
static void
drive_flap(struct peer *p)
{
	uint64_t sent = 0, t0;
	int r;

	peer_fill(tx_buf, FLAP_SIZE, FLAP_SIZE);
	post_rx(p, max_size);
	for (r = 1; r <= flap_rounds + 1; r++) {
		if (r > 1 && !peer_check(peer_reconnect(p) == 0 && peer_insert(p) == 0,
					 "flap %d: the next server is there", r))
			return;
		t0 = peer_now_ms();
		if (!peer_check(flap_until(p, false, FLAP_ECHOES, &sent),
				"flap %d: %d echoes come back", r, FLAP_ECHOES))
			return;
		printf("# flap %d: echoes after %" PRIu64 " ms\n", r, peer_now_ms() - t0);
		if (r > flap_rounds)
			break;
		/* the harness kills the server now; the stream goes on until the
		 * port says the link went with it */
		printf("# flap %d: up\n", r);
		t0 = peer_now_ms();
		if (!peer_check(flap_until(p, true, 0, &sent),
				"flap %d: sends fail with -FI_ENETDOWN once the server is dead", r))
			return;
		printf("# flap %d: down after %" PRIu64 " ms\n", r, peer_now_ms() - t0);
	}
	printf("# flap: %" PRIu64 " datagrams sent\n", sent);
}

static void
drive(struct peer *p)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	uint64_t deadline;
	int retries = 0, r, hello = 0;
	size_t size, bad_size = 0;
	struct fi_context ctx;
	uint8_t expect[TRUNC_SENT];
	ssize_t n;
	char c = 0;

	/* 1. first contact: hello until the server has one */
	peer_fill(tx_buf, HELLO_LEN, SEED_HELLO);
	deadline = peer_now_ms() + PEER_TIMEOUT_MS;
	while (peer_now_ms() < deadline && !pp_ctrl_pending(p->ctrl)) {
		if (fi_inject(p->ep, tx_buf, HELLO_LEN, p->peer_addr) == 0)
			hello++;
		peer_wait(p, &e, NULL, &err, 20);
	}
	nb_sent += (uint64_t)hello;
	peer_check(peer_hear(p, &c) == 0 && c == 'h', "server heard hello (%d sent)", hello);
	if (link_test) {
		drive_link(p);
		return;
	}

	/* 2. every size, there and back */
	post_rx(p, max_size);
	for (size = 0; size <= max_size; size++) {
		r = ping(p, size, size % 2 == 1);
		if (r < 0 && bad_size == 0)
			bad_size = size + 1;
		retries += r > 0 ? r : 0;
	}
	peer_check(bad_size == 0, "every size 0..%zu there and back, data checked "
		   "(first bad: %zu)", max_size, bad_size ? bad_size - 1 : 0);
	printf("# %d datagrams sent again after a loss\n", retries);

	/* 3. counters: ours against our completions, then the server's */
	n = 0;
	while (peer_wait(p, &e, NULL, &err, 50) == 1)
		nb_sent += (e.flags & FI_SEND) != 0;
	peer_check(fi_cntr_read(p->tx_cntr) == nb_sent,
		   "client send counter %" PRIu64 " = sends %" PRIu64,
		   fi_cntr_read(p->tx_cntr), nb_sent);
	peer_check(fi_cntr_read(p->rx_cntr) == nb_recv,
		   "client receive counter %" PRIu64 " = completions %" PRIu64,
		   fi_cntr_read(p->rx_cntr), nb_recv);
	peer_tell(p, 'c');
	peer_check(peer_hear(p, &c) == 0 && c == 'c', "server checked its counters");

	/* 4. truncation across the wire */
	fi_cancel(&p->ep->fid, &rx_ctx);
	peer_wait(p, &e, NULL, &err, 50);
	memset(rx_buf, 0, max_size);
	peer_check(post_rx(p, TRUNC_LEN) == 0, "client posts a %d-byte receive", TRUNC_LEN);
	peer_tell(p, 't');
	n = wait_rx(p, &e, NULL, &err, PEER_TIMEOUT_MS);
	peer_check(n == -FI_EAVAIL && err.err == FI_ETRUNC && err.len == TRUNC_LEN &&
		   err.olen == TRUNC_SENT - TRUNC_LEN && err.op_context == &rx_ctx,
		   "FI_ETRUNC, len %zu, olen %zu", err.len, err.olen);
	peer_fill(expect, TRUNC_SENT, TRUNC_SENT);
	peer_check(memcmp(rx_buf, expect, TRUNC_LEN) == 0 && rx_buf[TRUNC_LEN] == 0,
		   "the truncated receive holds the datagram's first bytes, and no more");

	/* 5. cancel and bad sends */
	peer_check(fi_recv(p->ep, rx_buf, max_size, NULL, FI_ADDR_UNSPEC, &ctx) == 0 &&
		   fi_cancel(&p->ep->fid, &ctx) == 0, "a posted receive is cancelled");
	n = peer_wait(p, &e, NULL, &err, PEER_TIMEOUT_MS);
	peer_check(n == -FI_EAVAIL && err.err == FI_ECANCELED && err.op_context == &ctx,
		   "its completion is FI_ECANCELED");
	peer_check(fi_cancel(&p->ep->fid, &ctx) == -FI_ENOENT, "cancel of nothing: -FI_ENOENT");
	peer_check(fi_send(p->ep, tx_buf, max_size + 1, NULL, p->peer_addr, &tx_ctx) ==
		   -FI_EMSGSIZE, "a datagram over max_msg_size: -FI_EMSGSIZE");
	peer_check(fi_inject(p->ep, tx_buf, p->info->tx_attr->inject_size + 1, p->peer_addr) ==
		   -FI_EMSGSIZE, "an inject over inject_size: -FI_EMSGSIZE");
	peer_check(fi_send(p->ep, tx_buf, 8, NULL, p->peer_addr + 1000, &tx_ctx) == -FI_EINVAL,
		   "a send to an fi_addr not in the AV: -FI_EINVAL");
	peer_check(fi_send(p->ep, tx_buf, 8, NULL, FI_ADDR_NOTAVAIL, &tx_ctx) == -FI_EINVAL,
		   "a send to FI_ADDR_NOTAVAIL: -FI_EINVAL");
	post_rx(p, max_size);
	peer_check(ping(p, 64, false) >= 0, "the endpoint still works after bad sends");
}

int
main(int argc, char **argv)
{
	struct peer p;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && strcmp(argv[argc - 1], "-L") == 0) {
		link_test = true;
		argc--;
	} else if (argc > 3 && strcmp(argv[argc - 2], "-F") == 0) {
		flap_rounds = atoi(argv[argc - 1]);
		argc -= 2;
	}
	if (peer_open(&p, argc, argv, FI_EP_DGRAM, FI_MSG | FI_SOURCE) != 0) {
		peer_check(false, "endpoint and control connection");
		return peer_finish(&p);
	}
	peer_check(p.info->domain_attr->threading ==
		   (p.thread_domain ? FI_THREAD_DOMAIN : FI_THREAD_SAFE),
		   "the threading is FI_THREAD_%s", p.thread_domain ? "DOMAIN" : "SAFE (the default)");
	max_size = p.info->ep_attr->max_msg_size;
	printf("# %s on %s, max_msg_size %zu, inject_size %zu\n", p.server ? "server" : "client",
	       p.info->domain_attr->name, max_size, p.info->tx_attr->inject_size);
	rx_buf = calloc(1, max_size + 64);
	tx_buf = calloc(1, max_size + 64);
	if (rx_buf == NULL || tx_buf == NULL)
		return 1;
	if (p.server) {
		if (flap_rounds > 0)
			serve_flap(&p);
		else
			serve(&p);
	} else {
		ret = peer_insert(&p);
		peer_check(ret == 0, "client inserts the server");
		if (ret == 0 && flap_rounds > 0)
			drive_flap(&p);
		else if (ret == 0)
			drive(&p);
	}
	ret = peer_finish(&p);
	free(rx_buf);
	free(tx_buf);
	return ret;
}
