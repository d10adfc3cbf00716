/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * fi_av(3) map_addr end to end (test/av_fork.sh): a forked child reaches
 * its parent's peer through a named AV it opened read-only.
 *
 *   av_fork serve              on the wire: prints "name HEX", receives one
 *                              message, checks it, and echoes its payload to
 *                              the sender, whose name the message carries
 *   av_fork client AV HEX PREFIX
 *                              forks a child at once; the parent, on a port of
 *                              its own (net_null), creates the named AV AV,
 *                              inserts the peer's name HEX and lets the child
 *                              go. The child, on the wire (FI_DPDK_EAL_ARGS),
 *                              opens AV with FI_READ, takes
 *                              ((fi_addr_t *)map_addr)[0] and sends there,
 *                              then waits for the echo
 *
 * DPDK does not survive fork(), so the child is forked before its parent
 * starts DPDK and starts its own. The child also forks a grandchild after
 * its own DPDK is up: there the provider must refuse (fi_getinfo
 * -FI_ENODATA), and the grandchild's exit must leave the child's port alone,
 * which the child's send afterwards shows.
 *
 * Exit status 0 when every check passed.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>

#include "test_util.h"

#define NAME_MAX_LEN	64
#define PAYLOAD_LEN	1000
#define PAYLOAD_SEED	11
#define WAIT_MS		20000

/* The child's message: its name, for the echo, then the payload. */
struct fork_msg {
	uint32_t name_len;
	uint8_t name[NAME_MAX_LEN];
	uint8_t payload[PAYLOAD_LEN];
};

static int failures;
static const char *who = "?";

#define CHECK(cond, what) do { \
	if (!(cond)) { \
		failures++; \
		fprintf(stderr, "%s: FAILED: %s\n", who, what); \
	} \
} while (0)

struct side {
	struct test_domain td;
	struct fid_av *av;
	struct fid_cq *cq;
	struct fid_ep *ep;
};

/* The domain and the AV; with_ep: an endpoint and its CQ bound to them. */
static int
side_open(struct side *s, struct fi_av_attr *av_attr, bool with_ep)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT, .size = 64 };
	int ret;

	memset(s, 0, sizeof(*s));
	ret = test_domain_open(&s->td, FI_EP_RDM, FI_FORMAT_UNSPEC, FI_MSG | FI_SHARED_AV);
	ret = ret ? ret : fi_av_open(s->td.domain, av_attr, &s->av, NULL);
	if (ret != 0 || !with_ep)
		return ret;
	ret = fi_endpoint(s->td.domain, s->td.info, &s->ep, NULL);
	ret = ret ? ret : fi_cq_open(s->td.domain, &cq_attr, &s->cq, NULL);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->av->fid, 0);
	ret = ret ? ret : fi_ep_bind(s->ep, &s->cq->fid, FI_TRANSMIT | FI_RECV);
	ret = ret ? ret : fi_enable(s->ep);
	return ret;
}

static void
side_close(struct side *s)
{
	if (s->ep != NULL)
		CHECK(fi_close(&s->ep->fid) == 0, "close the endpoint");
	if (s->cq != NULL)
		CHECK(fi_close(&s->cq->fid) == 0, "close the CQ");
	if (s->av != NULL)
		CHECK(fi_close(&s->av->fid) == 0, "close the AV");
	test_domain_close(&s->td);
}

/* One completion of context ctx, progressing, within WAIT_MS. */
static bool
side_wait(struct side *s, void *ctx)
{
	struct fi_cq_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct timespec t0;
	ssize_t ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (test_ms_since(&t0) < WAIT_MS) {
		ret = fi_cq_read(s->cq, &e, 1);
		if (ret == 1 && e.op_context == ctx)
			return true;
		if (ret == -FI_EAVAIL) {
			memset(&err, 0, sizeof(err));
			fi_cq_readerr(s->cq, &err, 0);
			fprintf(stderr, "%s: error completion: %s\n", who, fi_strerror(err.err));
			return false;
		}
		if (ret == 1) {
			fprintf(stderr, "%s: an unexpected completion\n", who);
			return false;
		}
	}
	fprintf(stderr, "%s: no completion within %d ms\n", who, WAIT_MS);
	return false;
}

static void
hex_put(const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		printf("%02x", b[i]);
}

static size_t
hex_get(const char *hex, uint8_t *b, size_t max)
{
	size_t i, len = strlen(hex) / 2;
	unsigned int v;

	if (len > max || strlen(hex) % 2 != 0)
		return 0;
	for (i = 0; i < len; i++) {
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return 0;
		b[i] = (uint8_t)v;
	}
	return len;
}

/* The peer: one message in, its payload back to the name it carries. */
static int
serve(void)
{
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE, .count = 4 };
	uint8_t name[NAME_MAX_LEN], want[PAYLOAD_LEN];
	struct fork_msg msg;
	size_t len = sizeof(name);
	struct fi_context rx_ctx, tx_ctx;
	fi_addr_t child;
	struct side s;

	who = "server";
	if (side_open(&s, &av_attr, true) != 0 || fi_getname(&s.ep->fid, name, &len) != 0) {
		CHECK(false, "open an endpoint on the wire");
		return 1;
	}
	CHECK(fi_recv(s.ep, &msg, sizeof(msg), NULL, FI_ADDR_UNSPEC, &rx_ctx) == 0, "fi_recv");
	printf("name ");
	hex_put(name, len);
	printf("\n");
	fflush(stdout);

	CHECK(side_wait(&s, &rx_ctx), "the forked child's message arrives");
	test_fill(want, sizeof(want), PAYLOAD_SEED);
	CHECK(memcmp(msg.payload, want, sizeof(want)) == 0, "its payload is intact");
	if (failures == 0) {
		CHECK(msg.name_len <= sizeof(msg.name) &&
		      fi_av_insert(s.av, msg.name, 1, &child, 0, NULL) == 1, "insert the sender");
		CHECK(fi_send(s.ep, msg.payload, sizeof(msg.payload), NULL, child, &tx_ctx) == 0 &&
		      side_wait(&s, &tx_ctx), "echo it to the sender");
	}
	side_close(&s);
	printf("server: %s\n", failures == 0 ? "the child's message arrived and went back: ok" :
	       "FAILED");
	return failures == 0 ? 0 : 1;
}

/*
 * A process forked after DPDK started cannot use it: the provider refuses,
 * and its exit leaves the parent's port as it was.
 */
static void
late_fork(void)
{
	struct fi_info *hints, *info = NULL;
	int status = -1, ret;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		hints = fi_allocinfo();
		if (hints == NULL)
			exit(3);
		hints->ep_attr->type = FI_EP_RDM;
		ret = test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info);
		fi_freeinfo(hints);
		fi_freeinfo(info);
		/* exit(), not _exit(): the provider's destructor runs here too */
		exit(ret == -FI_ENODATA ? 0 : 4);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0,
	      "a process forked after DPDK started gets -FI_ENODATA from fi_getinfo");
}

static int
child(int go, const char *av_name)
{
	struct fi_av_attr av_attr = { .type = FI_AV_UNSPEC, .flags = FI_READ };
	struct fi_context rx_ctx, tx_ctx;
	uint8_t echo[PAYLOAD_LEN];
	struct fork_msg msg;
	fi_addr_t dest;
	size_t len = sizeof(msg.name);
	struct side s;
	char c;

	who = "child";
	if (read(go, &c, 1) != 1 || c != 'g') {
		CHECK(false, "the parent filled the AV");
		return 1;
	}
	av_attr.name = av_name;
	if (side_open(&s, &av_attr, true) != 0 || fi_getname(&s.ep->fid, msg.name, &len) != 0) {
		CHECK(false, "open the named AV read-only, and an endpoint on the wire");
		side_close(&s);
		return 1;
	}
	CHECK(av_attr.map_addr != NULL, "the named AV reports its map_addr");
	if (av_attr.map_addr == NULL) {
		side_close(&s);
		return 1;
	}
	dest = ((const fi_addr_t *)av_attr.map_addr)[0];
	printf("child: map_addr[0] = %" PRIx64 "\n", dest);
	late_fork();

	msg.name_len = (uint32_t)len;
	test_fill(msg.payload, sizeof(msg.payload), PAYLOAD_SEED);
	CHECK(fi_recv(s.ep, echo, sizeof(echo), NULL, FI_ADDR_UNSPEC, &rx_ctx) == 0, "fi_recv");
	CHECK(fi_send(s.ep, &msg, sizeof(msg), NULL, dest, &tx_ctx) == 0 &&
	      side_wait(&s, &tx_ctx), "send to ((fi_addr_t *)map_addr)[0]");
	CHECK(side_wait(&s, &rx_ctx) && memcmp(echo, msg.payload, sizeof(echo)) == 0,
	      "the parent's peer echoes the message");
	side_close(&s);
	printf("child: %s\n", failures == 0 ? "ok" : "FAILED");
	return failures == 0 ? 0 : 1;
}

static int
parent(int go, pid_t pid, const char *av_name, const char *peer_hex, const char *prefix)
{
	struct fi_av_attr av_attr = { .type = FI_AV_MAP, .count = 16 };
	uint8_t name[NAME_MAX_LEN];
	char eal[512];
	fi_addr_t peer = FI_ADDR_NOTAVAIL;
	int status = -1;
	size_t len;
	struct side s;

	who = "parent";
	len = hex_get(peer_hex, name, sizeof(name));
	CHECK(len > 0, "the peer's name");
	/* the wire's port is the child's: the parent's is a null device */
	snprintf(eal, sizeof(eal), TEST_EAL_BASE " --vdev=net_null0 --file-prefix %s", prefix);
	test_env_setup(eal);
	av_attr.name = av_name;
	/* the parent only keeps the AV */
	CHECK(side_open(&s, &av_attr, false) == 0, "create the named AV");
	CHECK(s.av != NULL && fi_av_insert(s.av, name, 1, &peer, 0, NULL) == 1,
	      "insert the peer");
	CHECK(av_attr.map_addr != NULL && ((const fi_addr_t *)av_attr.map_addr)[0] == peer,
	      "map_addr is reported and begins with the peer's fi_addr_t");
	printf("parent: the peer is %" PRIx64 "\n", peer);
	fflush(stdout);
	/* the child goes even after a failure here, to fail in its turn */
	CHECK(write(go, "g", 1) == 1, "let the child go");
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the child reached the parent's peer");
	side_close(&s);
	printf("parent: %s\n", failures == 0 ? "ok" : "FAILED");
	return failures == 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	int go[2];
	pid_t pid;

	if (argc == 2 && strcmp(argv[1], "serve") == 0)
		return serve();
	if (argc != 5 || strcmp(argv[1], "client") != 0) {
		fprintf(stderr, "usage: av_fork serve | client AV_NAME PEER_HEX FILE_PREFIX\n");
		return 2;
	}
	if (pipe(go) != 0)
		return 1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(go[1]);
		return child(go[0], argv[2]);
	}
	close(go[0]);
	return parent(go[1], pid, argv[2], argv[3], argv[4]);
}
