/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * fi_dpdk_pingpong: round-trip latency, message rate and bandwidth between two
 * processes, through the dpdk provider or (--raw) with bare Ethernet frames
 * on the same port, the floor to compare against.
 *
 *   fi_dpdk_pingpong [EAL options] -- [-e dgram|rdm|msg] [--raw] [-S sizes] [-I iters]
 *                    [-W warmup] [-P ctrl_port] [-d port] [--floor port [--block n]]
 *                    [-c] [--json] [server]
 *
 * The side given a server address is the client; it prints the results.
 */

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>

#include "dfi_config.h"
#include "provider_path.h"
#include "ctrl.h"
#include "pingpong.h"
#include "tclass.h"


uint32_t
pp_iters(const struct pp_opts *o, size_t size)
{
	if (o->iters != 0)
		return o->iters;
	if (o->stream)
		return size <= 4096 ? 1000000 : size <= 65536 ? 100000 : 2000;
	return size <= 4096 ? 20000 : size <= 65536 ? 2000 : 200;
}

void
pp_fill(uint8_t *buf, size_t len, uint32_t iter)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(iter * 13 + i);
}

bool
pp_check(const uint8_t *buf, size_t len, uint32_t iter)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (buf[i] != (uint8_t)(iter * 13 + i))
			return false;
	}
	return true;
}

int
pp_wait_link(const char *name, int timeout_s)
{
	struct rte_eth_link link;
	uint16_t port_id;
	int i;

	if (rte_eth_dev_get_port_by_name(name, &port_id) != 0)
		return -1;
	for (i = 0; i < timeout_s * 100; i++) {
		if (rte_eth_link_get_nowait(port_id, &link) == 0 &&
		    link.link_status == RTE_ETH_LINK_UP)
			return 0;
		usleep(10000);
	}
	fprintf(stderr, "fi_dpdk_pingpong: link of %s still down after %d s\n", name, timeout_s);
	return -1;
}

static int
parse_sizes(const char *arg, struct pp_opts *o)
{
	char buf[256], *tok, *save = NULL, *end;
	unsigned long v;

	snprintf(buf, sizeof(buf), "%s", arg);
	o->nb_sizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		v = strtoul(tok, &end, 0);
		if (*end == 'k' || *end == 'K')
			v <<= 10, end++;
		else if (*end == 'm' || *end == 'M')
			v <<= 20, end++;
		if (*end != '\0' || o->nb_sizes == PP_MAX_SIZES)
			return -1;
		o->sizes[o->nb_sizes++] = v;
	}
	return o->nb_sizes > 0 ? 0 : -1;
}

static void
usage(const char *prog)
{
	fprintf(stderr,
		"Usage: %s [EAL options] -- [options] [server address]\n"
		"  -e dgram|rdm|msg endpoint type (dgram)\n"
		"  --raw          bare Ethernet frames, no provider (the floor)\n"
		"  -S sizes       comma separated, k/m suffixes (64,256,1024,1400)\n"
		"  -I iters       iterations per size (by size)\n"
		"  -W warmup      iterations before measuring (1000)\n"
		"  -P port        control TCP port (47593)\n"
		"  -d port        DPDK port (the first)\n"
		"  --floor port   round trips (or --stream, streams) of raw frames on this\n"
		"                 DPDK port (another wire between the same two processes),\n"
		"                 in turns with the mode's: each turn read against the\n"
		"                 floor's before it\n"
		"  --block n      round trips of a turn (1000)\n"
		"  -T seconds     give up after (60)\n"
		"  -c             check every payload\n"
		"  --stream       one way, many in flight: message rate and bandwidth\n"
		"  --batch N      streams post their messages N at a time: FI_MORE on all\n"
		"                 but the last (the provider may carry several a packet)\n"
		"  -o write|read  RDM streams: RMA writes or reads of each size too,\n"
		"                 measured by the initiator next to the messages\n"
		"  --tclass C     the endpoint's traffic class (fi_endpoint(3)):\n"
		"                 " APP_TCLASS_NAMES "\n"
		"  --json         results as JSON\n", prog);
}

static int
parse_args(int argc, char **argv, struct pp_opts *o)
{
	static const struct option longs[] = {
		{ "raw", no_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "stream", no_argument, NULL, 's' },
		{ "batch", required_argument, NULL, 'b' },
		{ "tclass", required_argument, NULL, 't' },
		{ "floor", required_argument, NULL, 'f' },
		{ "block", required_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 },
	};
	int op;

	memset(o, 0, sizeof(*o));
	o->mode = PP_DGRAM;
	o->ctrl_port = 47593;
	o->warmup = 1000;
	o->timeout_s = 60;
	o->block = 1000;
	parse_sizes("64,256,1024,1400", o);
	while ((op = getopt_long(argc, argv, "e:S:I:W:P:d:T:o:ch", longs, NULL)) != -1) {
		switch (op) {
		case 'e':
			if (strcmp(optarg, "dgram") == 0)
				o->mode = PP_DGRAM;
			else if (strcmp(optarg, "rdm") == 0)
				o->mode = PP_RDM;
			else if (strcmp(optarg, "msg") == 0)
				o->mode = PP_MSG;
			else
				return -1;
			break;
		case 'r':
			o->mode = PP_RAW;
			break;
		case 'S':
			if (parse_sizes(optarg, o) != 0)
				return -1;
			break;
		case 'I':
			o->iters = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'W':
			o->warmup = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'P':
			o->ctrl_port = (uint16_t)strtoul(optarg, NULL, 0);
			break;
		case 'd':
			o->domain = optarg;
			break;
		case 'T':
			o->timeout_s = (int)strtol(optarg, NULL, 0);
			break;
		case 'c':
			o->verify = true;
			break;
		case 'o':
			if (strcmp(optarg, "write") == 0)
				o->rma = PP_RMA_WRITE;
			else if (strcmp(optarg, "read") == 0)
				o->rma = PP_RMA_READ;
			else
				return -1;
			/* RMA runs over the reliable endpoints (RDM unless
			 * msg was asked for first), one way */
			if (o->mode != PP_MSG)
				o->mode = PP_RDM;
			o->stream = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 's':
			o->stream = true;
			break;
		case 'b':
			o->batch = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 't':
			if (app_tclass_parse(optarg, &o->tclass) != 0)
				return -1;
			break;
		case 'f':
			o->floor = optarg;
			break;
		case 'B':
			o->block = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		default:
			return -1;
		}
	}
	o->server = optind == argc;
	o->host = o->server ? NULL : argv[optind];
	/* the floor takes turns with a mode of the provider, in round trips
	 * or message streams */
	if (o->floor != NULL && (o->mode == PP_RAW || o->rma != PP_RMA_NONE || o->block == 0))
		return -1;
	return 0;
}

/* The floor's port first (when there is one), then the mode's. */
static int
setup(const struct pp_mode_ops *floor, const struct pp_mode_ops *ops, const struct pp_opts *o)
{
	if (floor != NULL && floor->setup(o) != 0)
		return -1;
	return ops->setup(o);
}

static void
teardown(const struct pp_mode_ops *floor, const struct pp_mode_ops *ops)
{
	ops->teardown();
	if (floor != NULL)
		floor->teardown();
}

int
main(int argc, char **argv)
{
	/* zeroed: a result's fields that its mode does not fill (a round
	 * trip's resends, say) are 0 in the JSON, never the stack's */
	struct pp_result res[PP_MAX_SIZES] = { 0 };
	const struct pp_mode_ops *ops, *floor;
	struct pp_opts o;
	int ret, ctrl, n = -1;

	app_provider_path();
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "fi_dpdk_pingpong: rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	if (parse_args(argc - ret, argv + ret, &o) != 0) {
		usage(argv[0]);
		rte_eal_cleanup();
		return 1;
	}
	ops = o.mode == PP_RAW ? &pp_raw_ops : o.mode == PP_DGRAM ? &pp_fab_dgram_ops :
	      o.mode == PP_MSG ? &pp_fab_msg_ops : &pp_fab_rdm_ops;
	floor = o.floor != NULL ? &pp_raw_ops : NULL;
	/* The server's port is up before the client starts its own: a memif
	 * client cannot start without a server listening. */
	if (o.server) {
		ret = setup(floor, ops, &o);
		ctrl = ret == 0 ? pp_ctrl_accept(o.ctrl_port, o.timeout_s) : -1;
	} else {
		ctrl = pp_ctrl_connect(o.host, o.ctrl_port, o.timeout_s);
		ret = ctrl >= 0 ? setup(floor, ops, &o) : -1;
	}
	if (ret == 0 && ctrl >= 0)
		n = o.stream && floor != NULL ? pp_stream_turns(ops, floor, &o, ctrl, res) :
		    o.stream ? ops->stream(&o, ctrl, res) : pp_rtt_run(ops, floor, &o, ctrl, res);
	if (n > 0 && !o.server)
		pp_report(res, (unsigned int)n, o.json);
	/* A memif peer that disconnects while this side polls can crash the PMD
	 * (its rings are unmapped under the poller): the server stops polling and
	 * closes its port first, then tells the client, which closes its own.
	 * The client's endpoint goes before that wait: a closing RDM endpoint
	 * waits for its peers' answers, which a client that waits here without
	 * polling never gave (the server's close took 250 ms, every run). */
	if (o.server) {
		teardown(floor, ops);
		if (ctrl >= 0)
			pp_ctrl_send(ctrl, "k", 1);
	} else {
		if (ctrl >= 0 && n >= 0) {
			if (ops->leave != NULL)
				ops->leave();
			pp_ctrl_recv(ctrl, &(char){ 0 }, 1);
		}
		teardown(floor, ops);
	}
	if (ctrl >= 0)
		close(ctrl);
	if (n < 0)
		fprintf(stderr, "fi_dpdk_pingpong: %s failed\n", ops->name);
	else
		fprintf(stderr, "fi_dpdk_pingpong: %s %s done\n", ops->name,
			o.server ? "server" : "client");
	/* No rte_eal_cleanup(): closing a memif port leaves its socket's
	 * unregistration pending in the EAL interrupt thread, and DPDK 22.11's
	 * cleanup unmaps the heap under that thread, which then crashes the
	 * process. The ports are closed; the kernel takes the memory back. */
	return n < 0 ? 1 : 0;
}
