/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * FI_EP_RDM across a real wire: one side of a two-process test, run by
 * test/rdm_wire.sh and test/rdm_death.sh, whatever faults FI_DPDK_FAULT
 * injects on the way.
 *
 * stream: the client sends count messages whose sizes (1 B to 1 MiB, mostly
 *   small) and bytes follow from the seed and their number, keeping many in
 *   flight; the server checks that every one arrives complete, in order,
 *   bit-exact and exactly once. Both print what their endpoint counted.
 * sleep: the same stream, while the script stops the server (SIGSTOP) for a
 *   while: the client watches for the longest stall of its completions and
 *   counts the probes it sent meanwhile; nothing may fail, and every
 *   message must still arrive.
 * death: the same stream, with no end: the script kills the server, and
 *   the client's operations must fail (FI_ETIMEDOUT, or FI_ENETDOWN when the
 *   server took the link with it) within the deadline
 *   (FI_DPDK_RDM_TIMEOUT_MS); then it sends to the server's successor at the
 *   same address, which must reach it over a fresh connection.
 * restart: the same, but the successor starts at once, before the deadline:
 *   it rejects the packets meant for its predecessor and says so (RESET), and
 *   the client's operations fail with FI_ECONNRESET.
 * pingpong: the client sends count messages of 1 B, 64 B, 4 KiB and 64 KiB in
 *   turn, one at a time; the server checks each and sends it back, and the
 *   client checks the echo. The start-order tests run it right after both
 *   processes start, in either order, before the link may be up.
 * order: the client posts count triples at once, without waiting: an RMA
 *   write of a slice of the server's region (each its own), a read of the
 *   same slice, and a message of the triple's number. The read must return
 *   what the write put there (RAW), and the server must receive the
 *   messages in order (SAS), each after the write before it landed (SAW),
 *   whatever faults the wire injects.
 * clients: the pingpong, for -k clients (10) that the client process opens
 *   one after another on its port (endpoint, domain and fabric each time);
 *   the server's one endpoint must serve each of them.
 * rma: the server registers a region between canaries under a well-known
 *   key; the client runs count RMA writes and reads (1 B to 128 KiB, RMA_SLOTS
 *   in flight, each in its own slice) whose places and bytes follow from the
 *   seed, checks every read against what it wrote, and sends some writes one
 *   byte past the region, which must fail with FI_EACCES. The server replays
 *   the plan and checks the region and its canaries byte for byte.
 *
 * usage: rdm_peer server|client [host] [-P ctrl_port]
 *                 [-m stream|sleep|death|restart|pingpong|clients|order|rma]
 *                 [-n count] [-s seed] [-t] [-f] [-L] [-z size] [-b] [-k clients]
 *   -t: tagged messages (with a tag the receiver matches); -f: faults are
 *   injected, so retransmissions must have happened; -L: the link goes down
 *   with a dead peer (memif), so its death is FI_ENETDOWN; -z: pingpong
 *   messages of this size only; -b: messages are posted in batches of 8
 *   (FI_MORE), which the provider carries several to a packet; -i: the
 *   client's stream and pingpong messages that the inject size takes go by
 *   fi_inject() (fi_tinject()), whose packets the provider keeps to send
 *   again, the stream with at most INJECT_INFLIGHT unacknowledged
 */

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include "ctrl.h"
#include "ep_stats.h"
#include "peer_util.h"

#define MAX_MSG		(1 << 20)
#define TX_SLOTS	64		/* messages in flight */
#define RX_SLOTS	32		/* receives posted */
#define STREAM_TAG	0x5eed000000000000ULL
#define DEATH_LEAD_S	1		/* the stream runs this long before the kill */
#define BATCH		8		/* -b: messages posted together */
#define INJECT_INFLIGHT	6		/* -i: messages unacknowledged at most */

struct opts {
	const char *mode;
	uint64_t count;
	uint64_t seed;
	bool tagged;
	bool faults;
	bool link_dies;		/* the peer's death takes the link down (memif) */
	size_t size;		/* pingpong: every message this size, 0: 1 B to 64 KiB */
	bool batch;		/* stream: FI_MORE on all but every BATCH-th message */
	bool inject;		/* messages the inject size takes go by fi_inject() */
	uint64_t clients;	/* clients: endpoints the client opens in turn */
};

static struct opts o = { .mode = "stream", .count = 100000, .seed = 1, .clients = 10 };

/* -- the stream both sides know -- */

static uint64_t
mix(uint64_t x)
{
	/* splitmix64 */
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Mostly small, 1 in 200 from 64 KiB to 1 MiB: about 5 KiB on average. */
static size_t
msg_size(uint64_t seq)
{
	uint64_t r = mix(o.seed ^ (seq * 0x2545f4914f6cdd1dULL));
	unsigned int pick = (unsigned int)(r % 1000);

	r >>= 10;
	if (pick < 950)
		return 1 + r % 2048;
	if (pick < 995)
		return 2049 + r % (64 * 1024 - 2049);
	return 64 * 1024 + r % (MAX_MSG - 64 * 1024 + 1);
}

static void
msg_fill(uint8_t *buf, size_t len, uint64_t seq)
{
	uint8_t base = (uint8_t)mix(o.seed + seq);
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(base + i * 7 + (i >> 8));
	if (len >= sizeof(uint32_t))
		memcpy(buf, &seq, sizeof(uint32_t));
}

static bool
msg_check(const uint8_t *buf, size_t len, uint64_t seq)
{
	uint8_t base = (uint8_t)mix(o.seed + seq);
	size_t i = 0;

	if (len >= sizeof(uint32_t)) {
		if (memcmp(buf, &seq, sizeof(uint32_t)) != 0)
			return false;
		i = sizeof(uint32_t);
	}
	for (; i < len; i++) {
		if (buf[i] != (uint8_t)(base + i * 7 + (i >> 8)))
			return false;
	}
	return true;
}

/* -- RMA: the plan both sides know -- */

#define RMA_SLOTS	8
#define RMA_SLICE	(128 * 1024)
#define RMA_REGION	(RMA_SLOTS * RMA_SLICE)
#define RMA_GUARD	4096
#define RMA_KEY		0x5eedfeedULL
#define RMA_CANARY	0xc3

enum rma_kind { RMA_WRITE, RMA_READ, RMA_OUT };

struct rma_op {
	enum rma_kind kind;
	size_t off;		/* in the region */
	size_t len;
};

/* Operation seq works on slice seq % RMA_SLOTS, after the one before it there. */
static struct rma_op
rma_plan(uint64_t seq)
{
	uint64_t x = mix(o.seed * 0x9e3779b97f4a7c15ULL + seq);
	struct rma_op op;

	op.len = 1 + (x & 0xffff) % ((x >> 16) % 8 == 0 ? RMA_SLICE : 4096);
	op.off = (seq % RMA_SLOTS) * RMA_SLICE + (x >> 24) % (RMA_SLICE - op.len + 1);
	op.kind = (x >> 48) % 16 == 0 ? RMA_OUT : (x >> 52) % 2 ? RMA_WRITE : RMA_READ;
	if (op.kind == RMA_OUT)
		op.off = RMA_REGION - op.len + 1;	/* one byte too far */
	return op;
}

/* Replays writes up to count on a region image. */
static void
rma_replay(uint8_t *image, uint64_t count)
{
	struct rma_op op;
	uint64_t seq;

	for (seq = 0; seq < count; seq++) {
		op = rma_plan(seq);
		if (op.kind == RMA_WRITE)
			msg_fill(image + op.off, op.len, seq);
	}
}

/* -- statistics -- */

static void
print_stats(struct peer *p, struct fi_dpdk_ep_stats *st)
{
	if (test_ep_stats(p->ep, st) != 0) {
		peer_check(false, "%s: statistics", p->server ? "server" : "client");
		return;
	}
	printf("# %s: packets sent %" PRIu64 " (retransmitted %" PRIu64 ", %" PRIu64
	       " fast, %" PRIu64 " timeouts; %" PRIu64 " found no room), received %" PRIu64
	       " (duplicates %" PRIu64
	       ", out of order %" PRIu64 ", bad %" PRIu64 ", port bad %" PRIu64 ", port dropped %"
	       PRIu64 ")\n",
	       p->server ? "server" : "client", st->tx_pkts, st->tx_retransmits,
	       st->tx_fast_retransmits, st->tx_timeouts, st->tx_no_room, st->rx_pkts, st->rx_duplicates,
	       st->rx_out_of_order, st->rx_bad, st->port_rx_bad, st->port_rx_dropped);
	printf("# %s: tail-loss probes %" PRIu64 " (%" PRIu64 " backed off), spurious resends %"
	       PRIu64 "; losses repaired by fast retransmit %" PRIu64 ", by probe %" PRIu64
	       ", by timeout %" PRIu64 "; progress rescues %" PRIu64 "\n",
	       p->server ? "server" : "client", st->tx_probes, st->tx_timeouts, st->tx_spurious,
	       st->repaired_fast, st->repaired_probe, st->repaired_timeout, st->progress_rescues);
	printf("# %s: injects sent at once %" PRIu64 " (their packets sent again %" PRIu64 ")\n",
	       p->server ? "server" : "client", st->injects_kept, st->injects_kept_resent);
	printf("# %s: injected tx drop %" PRIu64 " dup %" PRIu64 " reorder %" PRIu64
	       " corrupt %" PRIu64 " of %" PRIu64 "; rx drop %" PRIu64 " dup %" PRIu64
	       " reorder %" PRIu64 " corrupt %" PRIu64 " of %" PRIu64 "; RNR sent %" PRIu64
	       " received %" PRIu64 "\n", p->server ? "server" : "client",
	       st->fault_dropped[0], st->fault_duplicated[0], st->fault_reordered[0],
	       st->fault_corrupted[0], st->fault_frames[0], st->fault_dropped[1],
	       st->fault_duplicated[1], st->fault_reordered[1], st->fault_corrupted[1],
	       st->fault_frames[1], st->rnr_sent, st->rnr_received);
}

/* With faults configured, both directions of both sides saw some. */
static void
check_faults(struct peer *p, const struct fi_dpdk_ep_stats *st)
{
	const char *who = p->server ? "server" : "client";
	uint64_t tx = st->fault_dropped[0] + st->fault_duplicated[0] + st->fault_reordered[0] +
		      st->fault_corrupted[0];
	uint64_t rx = st->fault_dropped[1] + st->fault_duplicated[1] + st->fault_reordered[1] +
		      st->fault_corrupted[1];

	if (!o.faults)
		return;
	peer_check(tx + rx > 0, "%s: faults were injected (%" PRIu64 " going out, %" PRIu64
		   " coming in)", who, tx, rx);
	if (!p->server)
		peer_check(st->tx_retransmits > 0, "%s: lost packets were sent again (%" PRIu64
			   ")", who, st->tx_retransmits);
	if (!p->server && o.inject)
		peer_check(st->injects_kept > 0 && st->injects_kept_resent > 0, "%s: injects went "
			   "at once (%" PRIu64 "), and their kept packets again when lost (%" PRIu64
			   ")", who, st->injects_kept, st->injects_kept_resent);
	if (p->server)
		peer_check(st->rx_duplicates > 0, "%s: duplicates were recognised (%" PRIu64 ")",
			   who, st->rx_duplicates);
	if (st->fault_corrupted[0] + st->fault_corrupted[1] > 0 && p->server)
		peer_check(st->rx_bad + st->port_rx_bad > 0, "%s: corrupted frames were caught "
			   "(%" PRIu64 " by the CRC, %" PRIu64 " by the port)", who, st->rx_bad,
			   st->port_rx_bad);
}

/* -- the server -- */

struct rx_slot {
	uint8_t *buf;
	struct fi_context ctx;
};

static struct rx_slot rx_slots[RX_SLOTS];

static int
post_rx(struct peer *p, struct rx_slot *s)
{
	ssize_t ret;

	do {
		ret = o.tagged ? fi_trecv(p->ep, s->buf, MAX_MSG, NULL, FI_ADDR_UNSPEC, STREAM_TAG,
					  0xffff, &s->ctx) :
				 fi_recv(p->ep, s->buf, MAX_MSG, NULL, FI_ADDR_UNSPEC, &s->ctx);
		if (ret == -FI_EAGAIN)
			fi_cq_read(p->cq, NULL, 0);
	} while (ret == -FI_EAGAIN);
	return (int)ret;
}

static void
serve(struct peer *p)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fi_dpdk_ep_stats st;
	uint64_t next = 0, bad = 0, first_bad = UINT64_MAX, expected = 0;
	uint64_t t0 = peer_now_ms();
	struct rx_slot *s;
	uint32_t polls = 0;
	ssize_t n;
	int i;
	char c;

	for (i = 0; i < RX_SLOTS; i++) {
		rx_slots[i].buf = malloc(MAX_MSG);
		if (rx_slots[i].buf == NULL || post_rx(p, &rx_slots[i]) != 0) {
			peer_check(false, "server posts its receives");
			return;
		}
	}
	peer_tell(p, 'r');
	for (;;) {
		n = peer_wait(p, &e, NULL, &err, 0);
		if (n == 1 && (e.flags & FI_RECV)) {
			s = container_of((struct fi_context *)e.op_context, struct rx_slot, ctx);
			if (e.len != msg_size(next) || !msg_check(s->buf, e.len, next) ||
			    (o.tagged && e.tag != (STREAM_TAG | (next & 0xffff)))) {
				if (bad++ == 0)
					first_bad = next;
			}
			next++;
			post_rx(p, s);
			continue;
		}
		if (n == -FI_EAVAIL) {
			peer_check(false, "server: error completion %s", fi_strerror(err.err));
			break;
		}
		if (++polls % 64 != 0 || !pp_ctrl_pending(p->ctrl))
			continue;
		/* the client is done: it says how many it sent */
		if (pp_ctrl_recv(p->ctrl, &expected, sizeof(expected)) != sizeof(expected))
			break;
		while (next < expected && peer_wait(p, &e, NULL, &err, PEER_TIMEOUT_MS) == 1) {
			s = container_of((struct fi_context *)e.op_context, struct rx_slot, ctx);
			if (e.len != msg_size(next) || !msg_check(s->buf, e.len, next))
				bad += (bad == 0 ? (first_bad = next, 1) : 1);
			next++;
			post_rx(p, s);
		}
		break;
	}
	printf("# server: %" PRIu64 " messages verified in %.1f s\n", next - bad,
	       (double)(peer_now_ms() - t0) / 1000);
	peer_check(next == expected && expected == o.count, "server received every message, "
		   "and no more (%" PRIu64 " of %" PRIu64 ")", next, expected);
	peer_check(bad == 0, "every message complete, in order and bit-exact (%" PRIu64
		   " bad, first #%" PRIu64 ")", bad, bad ? first_bad : 0);
	print_stats(p, &st);
	check_faults(p, &st);
	if (strcmp(o.mode, "restart") == 0)
		peer_check(st.rx_stale > 0, "server: packets meant for its predecessor were "
			   "rejected (%" PRIu64 ")", st.rx_stale);
	/* drain what is left of the conversation, then wait for the end */
	if (peer_hear(p, &c) != 0 || c != 'd')
		peer_check(false, "server: the client ends the test");
	for (i = 0; i < RX_SLOTS; i++)
		fi_cancel(&p->ep->fid, &rx_slots[i].ctx);
}

/* -- the client -- */

struct tx_slot {
	uint8_t *buf;
	bool busy;
	struct fi_context ctx;
};

static struct tx_slot tx_slots[TX_SLOTS];

/* After the endpoint is closed, with nothing posted on them any more. Not for
 * tidiness alone: LeakSanitizer scans every block still allocated at exit for
 * pointers, and these 32-64 MiB took a third of a short ASan stream's time
 * (0.37 s a process in this VM, most of it faulting their untouched pages in) */
static void
free_slots(void)
{
	int i;

	for (i = 0; i < RX_SLOTS; i++) {
		free(rx_slots[i].buf);
		rx_slots[i].buf = NULL;
	}
	for (i = 0; i < TX_SLOTS; i++) {
		free(tx_slots[i].buf);
		tx_slots[i].buf = NULL;
	}
}

/*
 * @return whether the client's message seq of len bytes goes by fi_inject()
 * (-i): not the stream's last, whose completion (transmit complete) says
 * that every packet before it was acknowledged.
 */
static bool
injected(const struct peer *p, size_t len, uint64_t seq)
{
	return o.inject && !p->server && len <= p->info->tx_attr->inject_size &&
	       seq + 1 != o.count;
}

/* fi_tinject() (-t) or fi_inject() of len bytes from buf to the peer. */
static ssize_t
inject_one(struct peer *p, const uint8_t *buf, size_t len, uint64_t tag)
{
	return o.tagged ? fi_tinject(p->ep, buf, len, p->peer_addr, tag) :
			  fi_inject(p->ep, buf, len, p->peer_addr);
}

/* @return 0 (its completion comes), 1 (injected: done), or an error. */
static ssize_t
send_one(struct peer *p, struct tx_slot *s, uint64_t seq)
{
	size_t len = msg_size(seq);
	struct iovec iov = { .iov_base = s->buf, .iov_len = len };
	struct fi_msg_tagged tmsg = {
		.msg_iov = &iov, .iov_count = 1, .addr = p->peer_addr,
		.tag = STREAM_TAG | (seq & 0xffff), .context = &s->ctx,
	};
	struct fi_msg msg = {
		.msg_iov = &iov, .iov_count = 1, .addr = p->peer_addr, .context = &s->ctx,
	};
	/* -b: FI_MORE on all but every BATCH-th: the provider bundles them */
	uint64_t more = o.batch && seq % BATCH != BATCH - 1 ? FI_MORE : 0;
	ssize_t ret;

	msg_fill(s->buf, len, seq);
	if (injected(p, len, seq)) {
		ret = inject_one(p, s->buf, len, tmsg.tag);
		return ret == 0 ? 1 : ret;
	}
	return o.tagged ? fi_tsendmsg(p->ep, &tmsg, FI_COMPLETION | more) :
			  fi_sendmsg(p->ep, &msg, FI_COMPLETION | more);
}

/* The longest wait between two completions of a stream (-m sleep). */
struct stall {
	uint64_t last_ms;		/* the last completion */
	uint64_t probes_then;		/* tx_probes at the last completion */
	uint64_t longest_ms;
	uint64_t probes;		/* sent during the longest */
};

static struct stall stall;

static uint64_t
probes_sent(struct peer *p)
{
	struct fi_dpdk_ep_stats st;

	return test_ep_stats(p->ep, &st) == 0 ? st.tx_probes : 0;
}

/* A send completed: the wait since the one before may be the longest. */
static void
stall_note(struct peer *p)
{
	uint64_t now = peer_now_ms(), probes = probes_sent(p);

	if (stall.last_ms != 0 && now - stall.last_ms > stall.longest_ms) {
		stall.longest_ms = now - stall.last_ms;
		stall.probes = probes - stall.probes_then;
	}
	stall.last_ms = now;
	stall.probes_then = probes;
}

/*
 * Sends messages from seq on until count (forever with death), keeping
 * TX_SLOTS in flight. @return the number completed, or stops at the first
 * error completion, whose error goes to *err.
 */
static uint64_t
stream(struct peer *p, uint64_t seq, uint64_t count, int *err_out)
{
	bool watch = strcmp(o.mode, "sleep") == 0;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	uint64_t done = 0, next = seq, acked = fi_cntr_read(p->tx_cntr);
	struct tx_slot *s;
	ssize_t n;
	int i, busy = 0;

	*err_out = 0;
	for (;;) {
		for (i = 0; i < TX_SLOTS && next < seq + count; i++) {
			if (tx_slots[i].busy)
				continue;
			/* -i: few enough in flight that injects go at once (the send
			 * counter counts what was acknowledged) */
			if (o.inject && next - seq - (fi_cntr_read(p->tx_cntr) - acked) >=
					INJECT_INFLIGHT)
				break;
			n = send_one(p, &tx_slots[i], next);
			if (n == -FI_EAGAIN)
				break;
			if (n < 0) {
				*err_out = (int)-n;
				return done;
			}
			next++;
			if (n == 1) {
				done++;		/* injected: its buffer is ours again */
				continue;
			}
			tx_slots[i].busy = true;
			busy++;
		}
		if (busy == 0 && next == seq + count)
			return done;
		n = peer_wait(p, &e, NULL, &err, 0);
		if (n == 1 && (e.flags & FI_SEND)) {
			s = container_of((struct fi_context *)e.op_context, struct tx_slot, ctx);
			s->busy = false;
			busy--;
			done++;
			if (watch)
				stall_note(p);
			if (watch && done == 1) {
				/* the server has one: the wire is up, it may be stopped now */
				printf("flowing\n");
				fflush(stdout);
			}
		} else if (n == -FI_EAVAIL) {
			*err_out = err.err;
			s = container_of((struct fi_context *)err.op_context, struct tx_slot, ctx);
			s->busy = false;
			return done;
		} else if (n != -FI_EAGAIN && n != 1) {
			*err_out = (int)-n;
			return done;
		}
	}
}

static void
drive_stream(struct peer *p)
{
	struct fi_dpdk_ep_stats st;
	uint64_t t0, done, count = o.count;
	double secs;
	int err;
	char c = 0;

	peer_check(peer_hear(p, &c) == 0 && c == 'r', "the server is ready");
	printf("streaming\n");		/* for the script that stops the server */
	t0 = peer_now_ms();
	done = stream(p, 0, count, &err);
	secs = (double)(peer_now_ms() - t0) / 1000;
	peer_check(done == count && err == 0, "client: %" PRIu64 " sends completed (%s)", done,
		   err ? fi_strerror(err) : "no error");
	printf("# client: %" PRIu64 " messages in %.1f s, %.0f messages/s\n", done, secs,
	       secs > 0 ? (double)done / secs : 0);
	pp_ctrl_send(p->ctrl, &done, sizeof(done));
	print_stats(p, &st);
	check_faults(p, &st);
	if (strcmp(o.mode, "sleep") != 0)
		return;
	printf("# client: longest stall %" PRIu64 " ms, %" PRIu64 " probes sent during it\n",
	       stall.longest_ms, stall.probes);
	peer_check(st.peers_timed_out == 0 && st.peers_reset == 0,
		   "client: a peer that only stopped polling is not given up");
}

/* -- ping-pong -- */

static size_t
pingpong_size(uint64_t seq)
{
	static const size_t sizes[] = { 1, 64, 4096, 65536 };

	return o.size != 0 ? o.size : sizes[seq % RTE_DIM(sizes)];
}

/* Posts a receive for message seq, or sends it from buf; @return 0 or an error. */
static ssize_t
pingpong_post(struct peer *p, bool send, uint8_t *buf, uint64_t seq, struct fi_context *ctx)
{
	uint64_t tag = STREAM_TAG | (seq & 0xffff);
	size_t len = send ? pingpong_size(seq) : MAX_MSG;
	ssize_t ret;

	do {
		if (send && injected(p, len, seq))
			ret = inject_one(p, buf, len, tag);
		else if (send)
			ret = o.tagged ? fi_tsend(p->ep, buf, len, NULL, p->peer_addr, tag, ctx) :
					 fi_send(p->ep, buf, len, NULL, p->peer_addr, ctx);
		else
			ret = o.tagged ? fi_trecv(p->ep, buf, len, NULL, p->peer_addr, tag, 0, ctx) :
					 fi_recv(p->ep, buf, len, NULL, p->peer_addr, ctx);
		if (ret == -FI_EAGAIN)
			fi_cq_read(p->cq, NULL, 0);
	} while (ret == -FI_EAGAIN);
	return ret;
}

/*
 * Waits for the completions of the receive rx and the send tx (either may be
 * NULL). @return the received length (0 without rx), or -1 (reported).
 */
static ssize_t
pingpong_wait(struct peer *p, struct fi_context *rx, struct fi_context *tx, uint64_t seq)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	ssize_t len = rx != NULL ? -1 : 0, n;

	while (len < 0 || tx != NULL) {
		n = peer_wait(p, &e, NULL, &err, PEER_TIMEOUT_MS * 4);
		if (n != 1) {
			peer_check(false, "%s: round %" PRIu64 " completes (%s)",
				   p->server ? "server" : "client", seq,
				   n == -FI_EAVAIL ? fi_strerror(err.err) : fi_strerror((int)-n));
			return -1;
		}
		if (e.op_context == rx)
			len = (ssize_t)e.len;
		else if (e.op_context == tx)
			tx = NULL;
	}
	return len;
}

/* @return true when every round came back whole. */
static bool
pingpong(struct peer *p)
{
	const char *who = p->server ? "server" : "client";
	uint8_t *rx = malloc(MAX_MSG), *tx = malloc(MAX_MSG);
	struct fi_context rx_ctx, tx_ctx;
	struct fi_dpdk_ep_stats st;
	uint64_t seq, good = 0, t0 = peer_now_ms();
	ssize_t len;
	char c = 0;

	if (p->server)
		peer_tell(p, 'r');
	else
		peer_check(peer_hear(p, &c) == 0 && c == 'r', "the server is ready");
	for (seq = 0; rx != NULL && tx != NULL && seq < o.count; seq++) {
		if (pingpong_post(p, false, rx, seq, &rx_ctx) != 0)
			break;
		if (!p->server) {
			msg_fill(tx, pingpong_size(seq), seq);
			if (pingpong_post(p, true, tx, seq, &tx_ctx) != 0)
				break;
		}
		len = pingpong_wait(p, &rx_ctx, p->server ||
				    injected(p, pingpong_size(seq), seq) ? NULL : &tx_ctx, seq);
		if (len < 0)
			break;
		good += (size_t)len == pingpong_size(seq) && msg_check(rx, (size_t)len, seq);
		if (p->server) {
			memcpy(tx, rx, (size_t)len);
			if (pingpong_post(p, true, tx, seq, &tx_ctx) != 0 ||
			    pingpong_wait(p, NULL, &tx_ctx, seq) < 0)
				break;
		}
	}
	printf("# %s: %" PRIu64 " round trips in %" PRIu64 " ms\n", who, seq,
	       peer_now_ms() - t0);
	print_stats(p, &st);
	check_faults(p, &st);
	peer_check(st.peers_timed_out == 0 && st.peers_reset == 0,
		   "%s: no live peer was given up", who);
	peer_check(seq == o.count && good == o.count, "%s: every one of %" PRIu64 " messages "
		   "arrived whole and bit-exact (%" PRIu64 " of %" PRIu64 " rounds)", who, o.count,
		   good, seq);
	free(rx);
	free(tx);
	return seq == o.count && good == o.count;
}

/*
 * o.clients clients one after another on the client's one port, as a
 * process that opens an endpoint, runs a ping-pong and closes it, ten
 * times: the port must keep running under the server's poll (a memif port
 * that stopped with its last endpoint flapped the link, and the server's
 * PMD once crashed in its receive burst), and the server must reach each
 * new endpoint at the same address.
 */
static void
clients(struct peer *p)
{
	const char *who = p->server ? "server" : "client";
	uint64_t k, served = 0;
	char c = 0;

	for (k = 0; k < o.clients; k++) {
		if (k > 0 && p->server && fi_av_remove(p->av, &p->peer_addr, 1, 0) != 0)
			break;
		if (k > 0 && (p->server ? peer_swap(p) : peer_reopen(p)) != 0)
			break;
		if (k > 0 && peer_insert(p) != 0)
			break;
		served += pingpong(p);
		/* the client's endpoint closes only once the server's last echo
		 * is acknowledged, which needs the client's progress */
		if (p->server) {
			peer_tell(p, 'n');
		} else {
			while (!pp_ctrl_pending(p->ctrl))
				fi_cq_read(p->cq, NULL, 0);
			if (peer_hear(p, &c) != 0 || c != 'n')
				break;
		}
	}
	printf("# %s: %" PRIu64 " of %" PRIu64 " clients served\n", who, served, o.clients);
	peer_check(served == o.clients, "%s: each of %" PRIu64 " clients, one endpoint after "
		   "another on one port, ran its whole ping-pong", who, o.clients);
}

/* -- order: RMA and messages towards one peer, as fi_endpoint(3) msg_order -- */

#define ORDER_SLOTS	8		/* write, read and send triples in flight */
#define ORDER_SLICE	4096		/* each triple's own place in the region */

/* Triple seq's length: 1 B to ORDER_SLICE. */
static size_t
order_len(uint64_t seq)
{
	return 1 + mix(o.seed * 31 + seq) % ORDER_SLICE;
}

/* The server closes its region, progressing: the answer to the client's last
 * read may still wait on its acknowledgement, and the region on it. */
static void
region_close(struct peer *p, struct fid_mr *mr)
{
	uint64_t t0 = peer_now_ms();
	int ret;

	while ((ret = fi_close(&mr->fid)) == -FI_EBUSY && peer_now_ms() - t0 < PEER_TIMEOUT_MS)
		fi_cq_read(p->cq, NULL, 0);
	peer_check(ret == 0, "server: the region closes once its last answer is acknowledged "
		   "(%s)", fi_strerror(-ret));
}

/*
 * The target: a region of o.count slices, each written once, and receives.
 * Message seq must arrive in order (SAS), and when it does, the write posted
 * just before it must have landed (SAW): the slice holds it already.
 */
static void
serve_order(struct peer *p)
{
	size_t size = (size_t)o.count * ORDER_SLICE;
	uint8_t *region = calloc(1, size);
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fi_dpdk_ep_stats st;
	uint64_t next = 0, seq, early = 0, misordered = 0, done = 0;
	struct fid_mr *mr = NULL;
	struct rx_slot *s;
	uint32_t polls = 0;
	ssize_t n;
	int i;

	if (!peer_check(region != NULL && fi_mr_reg(p->domain, region, size, FI_REMOTE_READ |
						    FI_REMOTE_WRITE, 0, RMA_KEY, 0, &mr,
						    NULL) == 0,
			"server registers %zu bytes under key 0x%llx", size, RMA_KEY))
		goto out;
	for (i = 0; i < RX_SLOTS; i++) {
		rx_slots[i].buf = malloc(MAX_MSG);
		if (rx_slots[i].buf == NULL || post_rx(p, &rx_slots[i]) != 0)
			goto out;
	}
	peer_tell(p, 'r');
	while (next < o.count) {
		n = peer_wait(p, &e, NULL, &err, PEER_TIMEOUT_MS);
		if (n != 1)
			break;
		if (!(e.flags & FI_RECV))
			continue;
		s = container_of((struct fi_context *)e.op_context, struct rx_slot, ctx);
		memcpy(&seq, s->buf, sizeof(seq));
		misordered += e.len != sizeof(seq) || seq != next;
		early += !msg_check(region + next * ORDER_SLICE, order_len(next), next);
		next++;
		post_rx(p, s);
	}
	printf("# server: %" PRIu64 " messages verified in order (%" PRIu64 " misordered, %"
	       PRIu64 " before the write posted ahead of them had landed)\n", next - misordered,
	       misordered, early);
	peer_check(next == o.count && misordered == 0, "server: every message, in order (SAS)");
	peer_check(early == 0, "server: each message found the write posted before it landed "
		   "(SAW)");
	/* the client's last reads are answered while this side progresses */
	while (++polls % 64 != 0 || !pp_ctrl_pending(p->ctrl))
		fi_cq_read(p->cq, NULL, 0);
	if (pp_ctrl_recv(p->ctrl, &done, sizeof(done)) != sizeof(done))
		done = 0;
	peer_check(done == o.count, "server: the client completed every triple (%" PRIu64 ")",
		   done);
	print_stats(p, &st);
	check_faults(p, &st);
	for (i = 0; i < RX_SLOTS; i++)
		fi_cancel(&p->ep->fid, &rx_slots[i].ctx);
out:
	if (mr != NULL)
		region_close(p, mr);
	free(region);
}

/*
 * The initiator: triple seq writes its slice, reads it back and sends seq,
 * all three posted at once without waiting. The read must see the write
 * (RAW: it is processed after the write landed, whatever the wire did).
 */
static void
drive_order(struct peer *p)
{
	struct order_slot {
		uint8_t wbuf[ORDER_SLICE], rbuf[ORDER_SLICE];
		uint64_t seq;
		int posted;		/* of the triple, in order */
		int pending;		/* completions still to come */
		struct fi_context ctx[3];
	} *slot = calloc(ORDER_SLOTS, sizeof(*slot));
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fi_dpdk_ep_stats st;
	uint64_t next = 0, done = 0, stale = 0, failed = 0, off;
	struct order_slot *t;
	size_t len;
	ssize_t n;
	int i, k;
	char c = 0;

	peer_check(slot != NULL && peer_hear(p, &c) == 0 && c == 'r', "the server is ready");
	for (i = 0; i < ORDER_SLOTS && slot != NULL; i++)
		slot[i].posted = 3;
	while (slot != NULL && done < o.count) {
		for (i = 0; i < ORDER_SLOTS; i++) {
			t = &slot[i];
			if (t->posted == 3 && t->pending == 0 && next < o.count) {
				t->seq = next++;
				t->posted = 0;
				t->pending = 3;
				msg_fill(t->wbuf, order_len(t->seq), t->seq);
			}
			off = t->seq * ORDER_SLICE;
			len = order_len(t->seq);
			for (n = 0; t->posted < 3 && n == 0; t->posted += n == 0) {
				k = t->posted;
				n = k == 0 ? fi_write(p->ep, t->wbuf, len, NULL, p->peer_addr, off,
						      RMA_KEY, &t->ctx[0]) :
				    k == 1 ? fi_read(p->ep, t->rbuf, len, NULL, p->peer_addr, off,
						     RMA_KEY, &t->ctx[1]) :
				    fi_send(p->ep, &t->seq, sizeof(t->seq), NULL, p->peer_addr,
					    &t->ctx[2]);
			}
			if (n != 0 && n != -FI_EAGAIN) {
				peer_check(false, "client: posts (%s)", fi_strerror((int)-n));
				goto out;
			}
		}
		n = peer_wait(p, &e, NULL, &err, PEER_TIMEOUT_MS);
		if (n != 1) {
			failed++;
			break;
		}
		i = (int)(((uint8_t *)e.op_context - (uint8_t *)&slot[0]) /
			  (ptrdiff_t)sizeof(slot[0]));
		t = &slot[i];
		if (e.op_context == &t->ctx[1])
			stale += !msg_check(t->rbuf, order_len(t->seq), t->seq);
		if (--t->pending == 0)
			done++;
	}
	printf("# client: %" PRIu64 " write, read and send triples, %" PRIu64
	       " reads that missed the write before them\n", done, stale);
	peer_check(done == o.count && failed == 0, "client: every triple completed (%" PRIu64
		   " of %" PRIu64 ")", done, o.count);
	peer_check(stale == 0, "client: every read saw the write posted just before it (RAW)");
	print_stats(p, &st);
	check_faults(p, &st);
	pp_ctrl_send(p->ctrl, &done, sizeof(done));
out:
	free(slot);
}

/* -- RMA -- */

static void
serve_rma(struct peer *p)
{
	size_t i, all = RMA_REGION + 2 * RMA_GUARD;
	uint8_t *mem = malloc(all), *image = calloc(1, RMA_REGION);
	struct fi_dpdk_ep_stats st;
	struct fid_mr *mr = NULL;
	uint64_t count = 0;
	uint32_t polls = 0;
	bool canaries = true, same;
	char c;

	if (!peer_check(mem != NULL && image != NULL, "server: memory"))
		goto out;
	memset(mem, RMA_CANARY, all);
	memset(mem + RMA_GUARD, 0, RMA_REGION);
	if (!peer_check(fi_mr_reg(p->domain, mem + RMA_GUARD, RMA_REGION,
				  FI_REMOTE_READ | FI_REMOTE_WRITE, 0, RMA_KEY, 0, &mr, NULL) == 0,
			"server registers its region under key 0x%llx", RMA_KEY))
		goto out;
	peer_tell(p, 'r');
	/* the target only progresses; the client says when it is done */
	while (++polls % 64 != 0 || !pp_ctrl_pending(p->ctrl))
		fi_cq_read(p->cq, NULL, 0);
	if (pp_ctrl_recv(p->ctrl, &count, sizeof(count)) != sizeof(count))
		count = 0;
	rma_replay(image, count);
	same = memcmp(mem + RMA_GUARD, image, RMA_REGION) == 0;
	for (i = 0; i < RMA_GUARD; i++)
		canaries &= mem[i] == RMA_CANARY && mem[RMA_GUARD + RMA_REGION + i] == RMA_CANARY;
	printf("# server: %" PRIu64 " RMA operations verified\n", same ? count : 0);
	peer_check(count == o.count, "the client ran every operation (%" PRIu64 ")", count);
	peer_check(same, "the region holds exactly what the writes put there, in their order");
	peer_check(canaries, "no byte outside the region changed");
	print_stats(p, &st);
	check_faults(p, &st);
	region_close(p, mr);
	peer_tell(p, 'c');
	if (peer_hear(p, &c) != 0 || c != 'd')
		peer_check(false, "server: the client ends the test");
out:
	free(mem);
	free(image);
}

/* Posts plan seq from slot buffer buf. */
static ssize_t
rma_post(struct peer *p, uint64_t seq, uint8_t *buf, struct fi_context *ctx)
{
	struct rma_op op = rma_plan(seq);

	if (op.kind == RMA_READ)
		return fi_read(p->ep, buf, op.len, NULL, p->peer_addr, op.off, RMA_KEY, ctx);
	msg_fill(buf, op.len, seq);
	return fi_write(p->ep, buf, op.len, NULL, p->peer_addr, op.off, RMA_KEY, ctx);
}

static void
drive_rma(struct peer *p)
{
	struct { uint8_t *buf; uint64_t seq; bool busy; struct fi_context ctx; } slot[RMA_SLOTS];
	uint8_t *image = calloc(1, RMA_REGION);
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct fi_dpdk_ep_stats st;
	uint64_t next = 0, done = 0, bad = 0, refused = 0, t0;
	struct rma_op op;
	ssize_t n;
	int i, busy = 0;
	char c = 0;

	for (i = 0; i < RMA_SLOTS; i++) {
		slot[i].buf = malloc(RMA_SLICE);
		slot[i].busy = false;
	}
	peer_check(peer_hear(p, &c) == 0 && c == 'r', "the server is ready");
	t0 = peer_now_ms();
	while (done < o.count) {
		/* operation seq goes in slot seq % RMA_SLOTS, after its predecessor */
		i = (int)(next % RMA_SLOTS);
		if (next < o.count && !slot[i].busy) {
			n = rma_post(p, next, slot[i].buf, &slot[i].ctx);
			if (n == 0) {
				slot[i].seq = next++;
				slot[i].busy = true;
				busy++;
				continue;
			}
			if (!peer_check(n == -FI_EAGAIN, "client: posts (%s)", fi_strerror((int)-n)))
				break;
		}
		n = peer_wait(p, &e, NULL, &err, PEER_TIMEOUT_MS);
		if (n != 1 && n != -FI_EAVAIL) {
			peer_check(false, "client: a completion within %d ms", PEER_TIMEOUT_MS);
			break;
		}
		i = (int)(((uint8_t *)(n == 1 ? e.op_context : err.op_context) -
			   (uint8_t *)&slot[0].ctx) / sizeof(slot[0]));
		op = rma_plan(slot[i].seq);
		if (op.kind == RMA_OUT) {
			refused += n == -FI_EAVAIL && err.err == FI_EACCES;
			bad += n != -FI_EAVAIL || err.err != FI_EACCES;
		} else if (n != 1) {
			bad++;
		} else if (op.kind == RMA_WRITE) {
			msg_fill(image + op.off, op.len, slot[i].seq);
		} else {
			bad += memcmp(slot[i].buf, image + op.off, op.len) != 0;
		}
		slot[i].busy = false;
		busy--;
		done++;
	}
	printf("# client: %" PRIu64 " RMA operations in %.1f s, %" PRIu64 " refused "
	       "(one byte past the region), %" PRIu64 " wrong\n", done,
	       (double)(peer_now_ms() - t0) / 1000, refused, bad);
	peer_check(done == o.count && bad == 0, "client: every write done, every read bit-exact, "
		   "every write past the region refused with FI_EACCES");
	peer_check(refused > 0, "client: some writes went past the region (%" PRIu64 ")", refused);
	pp_ctrl_send(p->ctrl, &done, sizeof(done));
	/* Under manual progress the acknowledgement of the last read's answer
	 * goes out only while this side progresses: the server cannot close its
	 * region before, and says when it has. */
	t0 = peer_now_ms();
	while (!pp_ctrl_pending(p->ctrl) && peer_now_ms() - t0 < PEER_TIMEOUT_MS)
		fi_cq_read(p->cq, NULL, 0);
	peer_check(peer_hear(p, &c) == 0 && c == 'c', "the server closed its region");
	print_stats(p, &st);
	check_faults(p, &st);
	for (i = 0; i < RMA_SLOTS; i++)
		free(slot[i].buf);
	free(image);
}

static volatile uint64_t killed_ms;	/* when the script killed the server */

static void
on_kill(int sig __rte_unused)
{
	killed_ms = peer_now_ms();	/* clock_gettime(): async-signal-safe */
}

/* Waits for every message in flight to complete; @return how many failed. */
static int
drain(struct peer *p, int *first_err)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct tx_slot *s;
	int i, busy = 0, failed = 0;
	ssize_t n;

	for (i = 0; i < TX_SLOTS; i++)
		busy += tx_slots[i].busy;
	while (busy > 0) {
		n = peer_wait(p, &e, NULL, &err, PEER_TIMEOUT_MS);
		if (n == -FI_EAGAIN)
			break;
		s = container_of((struct fi_context *)(n == 1 ? e.op_context : err.op_context),
				 struct tx_slot, ctx);
		s->busy = false;
		busy--;
		if (n != 1) {
			if (failed++ == 0)
				*first_err = err.err;
		}
	}
	return busy > 0 ? -1 : failed;
}

/*
 * The server dies mid-stream (SIGKILL, then SIGUSR1 to us): the messages in
 * flight fail within the deadline, and the server's successor at the same
 * address is reached over a new connection.
 */
static void
drive_death(struct peer *p, uint64_t timeout_ms, bool restart)
{
	struct fi_dpdk_ep_stats st;
	int err, first = 0, failed;
	/* a dead memif peer takes the link with it: the deadline finds it down */
	int want = restart ? FI_ECONNRESET : o.link_dies ? FI_ENETDOWN : FI_ETIMEDOUT;
	uint64_t done, failed_ms;
	char c = 0;

	signal(SIGUSR1, on_kill);
	peer_check(peer_hear(p, &c) == 0 && c == 'r', "the server is ready");
	printf("streaming\n");
	done = stream(p, 0, UINT64_MAX / 2, &err);
	failed_ms = peer_now_ms();
	failed = drain(p, &first);
	peer_check(done > 0, "messages flowed before the kill (%" PRIu64 ")", done);

	peer_check(err == want && failed >= 0 && (failed == 0 || first == want),
		   "the messages in flight failed with %s (%s, %d more), none hung",
		   fi_strerror(want), fi_strerror(err), failed);
	peer_check(killed_ms != 0 && failed_ms - killed_ms <= timeout_ms + 1000,
		   "within the deadline of %" PRIu64 " ms (%" PRIu64 " ms after the kill)",
		   timeout_ms, killed_ms ? failed_ms - killed_ms : 0);
	print_stats(p, &st);
	if (restart)
		peer_check(st.peers_reset == 1 && st.peers_timed_out == 0,
			   "the restarted peer's connection was reset once (%" PRIu64 ")",
			   st.peers_reset);
	else
		peer_check(st.peers_timed_out == 1, "the peer was given up once (%" PRIu64 ")",
			   st.peers_timed_out);
	/* the script starts a new server at the same address */
	printf("dead\n");
	peer_check(peer_reconnect(p) == 0, "the new server's control connection");
	peer_check(peer_hear(p, &c) == 0 && c == 'r', "the new server is ready");
	o.count = 1000;
	done = stream(p, 0, o.count, &err);
	peer_check(done == o.count && err == 0, "its successor at the same address took %" PRIu64
		   " messages over a new connection (%s)", done, err ? fi_strerror(err) : "ok");
	pp_ctrl_send(p->ctrl, &done, sizeof(done));
}

int
main(int argc, char **argv)
{
	char *args[16];
	struct peer p;
	int i, n = 0, ret;
	const char *t = getenv("FI_DPDK_RDM_TIMEOUT_MS");

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < argc && n < 15; i++) {
		if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
			o.mode = argv[++i];
		else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			o.count = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
			o.seed = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "-t") == 0)
			o.tagged = true;
		else if (strcmp(argv[i], "-f") == 0)
			o.faults = true;
		else if (strcmp(argv[i], "-L") == 0)
			o.link_dies = true;
		else if (strcmp(argv[i], "-b") == 0)
			o.batch = true;
		else if (strcmp(argv[i], "-i") == 0)
			o.inject = true;
		else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc)
			o.clients = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "-z") == 0 && i + 1 < argc)
			o.size = RTE_MIN(strtoull(argv[++i], NULL, 0), (unsigned long long)MAX_MSG);
		else
			args[n++] = argv[i];
	}
	args[n] = NULL;
	if (peer_open(&p, n, args, FI_EP_RDM, FI_MSG | FI_TAGGED | FI_RMA) != 0) {
		peer_check(false, "endpoint and control connection");
		return peer_finish(&p);
	}
	printf("# %s on %s: %s of %" PRIu64 " %s messages, seed %" PRIu64 "\n",
	       p.server ? "server" : "client", p.info->domain_attr->name, o.mode, o.count,
	       o.tagged ? "tagged" : "untagged", o.seed);
	for (i = 0; i < TX_SLOTS && !p.server; i++) {
		tx_slots[i].buf = malloc(MAX_MSG);
		if (tx_slots[i].buf == NULL) {
			peer_check(false, "client allocates its messages");
			goto out;
		}
	}
	if (p.server) {
		peer_insert(&p);
		if (strcmp(o.mode, "rma") == 0)
			serve_rma(&p);
		else if (strcmp(o.mode, "pingpong") == 0)
			pingpong(&p);
		else if (strcmp(o.mode, "clients") == 0)
			clients(&p);
		else if (strcmp(o.mode, "order") == 0)
			serve_order(&p);
		else
			serve(&p);
	} else if (peer_insert(&p) != 0) {
		peer_check(false, "client inserts the server");
	} else if (strcmp(o.mode, "death") == 0 || strcmp(o.mode, "restart") == 0) {
		drive_death(&p, t != NULL ? strtoull(t, NULL, 0) : 30000,
			    strcmp(o.mode, "restart") == 0);
	} else if (strcmp(o.mode, "rma") == 0) {
		drive_rma(&p);
	} else if (strcmp(o.mode, "pingpong") == 0) {
		pingpong(&p);
	} else if (strcmp(o.mode, "clients") == 0) {
		clients(&p);
	} else if (strcmp(o.mode, "order") == 0) {
		drive_order(&p);
	} else {
		drive_stream(&p);
	}
out:
	ret = peer_finish(&p);
	free_slots();
	return ret;
}
