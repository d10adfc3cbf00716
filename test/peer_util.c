/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Helpers of the two-process wire tests. */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>

#include "ctrl.h"
#include "peer_util.h"
#include "tclass.h"

#define CTRL_PORT	47611
#define CTRL_WAIT_S	20

static int nb_checks;
static int nb_failed;

bool
peer_check(bool cond, const char *fmt, ...)
{
	va_list ap;

	nb_checks++;
	if (!cond)
		nb_failed++;
	printf("%sok %d - ", cond ? "" : "not ", nb_checks);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

int
peer_failures(void)
{
	return nb_failed;
}

uint64_t
peer_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void
peer_fill(uint8_t *buf, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 8));
}

bool
peer_verify(const uint8_t *buf, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (buf[i] != (uint8_t)(seed * 131 + i * 7 + (i >> 8)))
			return false;
	}
	return true;
}

#define PEER_TRY(call) do { \
	int _ret = (int)(call); \
	if (_ret < 0) { \
		fprintf(stderr, "peer: %s: %s\n", #call, fi_strerror(-_ret)); \
		return -1; \
	} \
} while (0)

static int
open_fabric(struct peer *p, enum fi_ep_type type, uint64_t caps)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 1024 };
	struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct fi_info *hints = fi_allocinfo();

	if (hints == NULL)
		return -1;
	hints->ep_attr->type = type;
	hints->caps = caps;
	hints->mode = FI_CONTEXT;
	hints->tx_attr->tclass = p->tclass;
	if (p->thread_domain)
		hints->domain_attr->threading = FI_THREAD_DOMAIN;
	hints->fabric_attr->prov_name = strdup("dpdk");
	PEER_TRY(fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &p->info));
	fi_freeinfo(hints);
	PEER_TRY(fi_fabric(p->info->fabric_attr, &p->fabric, NULL));
	PEER_TRY(fi_domain(p->fabric, p->info, &p->domain, NULL));
	PEER_TRY(fi_av_open(p->domain, &av_attr, &p->av, NULL));
	PEER_TRY(fi_cq_open(p->domain, &cq_attr, &p->cq, NULL));
	PEER_TRY(fi_cntr_open(p->domain, &cntr_attr, &p->tx_cntr, NULL));
	PEER_TRY(fi_cntr_open(p->domain, &cntr_attr, &p->rx_cntr, NULL));
	PEER_TRY(fi_endpoint(p->domain, p->info, &p->ep, NULL));
	PEER_TRY(fi_ep_bind(p->ep, &p->av->fid, 0));
	PEER_TRY(fi_ep_bind(p->ep, &p->cq->fid, FI_TRANSMIT | FI_RECV));
	PEER_TRY(fi_ep_bind(p->ep, &p->tx_cntr->fid, FI_SEND));
	PEER_TRY(fi_ep_bind(p->ep, &p->rx_cntr->fid, FI_RECV));
	PEER_TRY(fi_enable(p->ep));
	return 0;
}

/* The server waits for its client while its endpoint keeps answering the
 * wire (manual progress: a restarted server must reject its predecessor's
 * traffic at once). */
static int
accept_progressing(struct peer *p, uint16_t port)
{
	uint64_t deadline = peer_now_ms() + CTRL_WAIT_S * 1000;
	int lfd = pp_ctrl_listen(port), fd = -1;

	while (lfd >= 0 && fd < 0 && peer_now_ms() < deadline) {
		fd = pp_ctrl_accept_wait(lfd, 1);
		fi_cq_read(p->cq, NULL, 0);
	}
	if (lfd >= 0)
		close(lfd);
	return fd;
}

int
peer_swap(struct peer *p)
{
	char name[64];
	size_t len = sizeof(name);
	int n;

	PEER_TRY(fi_getname(&p->ep->fid, name, &len));
	if (pp_ctrl_send(p->ctrl, name, (uint32_t)len) != 0)
		return -1;
	n = pp_ctrl_recv(p->ctrl, p->peer_name, sizeof(p->peer_name));
	if (n <= 0)
		return -1;
	p->peer_name_len = (size_t)n;
	return 0;
}

int
peer_open(struct peer *p, int argc, char **argv, enum fi_ep_type type, uint64_t caps)
{
	const char *host = "127.0.0.1";
	uint16_t port = CTRL_PORT;
	int i;

	memset(p, 0, sizeof(*p));
	p->ctrl = -1;
	if (argc < 2 || (strcmp(argv[1], "server") != 0 && strcmp(argv[1], "client") != 0)) {
		fprintf(stderr, "usage: %s server|client [host] [-P ctrl_port] [-C tclass] [-D]\n",
			argv[0]);
		return -1;
	}
	p->server = strcmp(argv[1], "server") == 0;
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-P") == 0 && i + 1 < argc) {
			port = (uint16_t)atoi(argv[++i]);
		} else if (strcmp(argv[i], "-D") == 0) {
			p->thread_domain = true;
		} else if (strcmp(argv[i], "-C") == 0 && i + 1 < argc) {
			if (app_tclass_parse(argv[++i], &p->tclass) != 0) {
				fprintf(stderr, "%s: -C " APP_TCLASS_NAMES "\n", argv[0]);
				return -1;
			}
		} else {
			host = argv[i];
		}
	}
	p->host = host;
	p->port = port;
	p->type = type;
	p->caps = caps;
	/* each side starts its port at once, as a launcher starts its ranks: the
	 * provider connects the wire whichever side comes first */
	if (open_fabric(p, type, caps) != 0)
		return -1;
	p->ctrl = p->server ? accept_progressing(p, port) :
			      pp_ctrl_connect(host, port, CTRL_WAIT_S);
	if (p->ctrl < 0)
		return -1;
	return peer_swap(p);
}

int
peer_reconnect(struct peer *p)
{
	close(p->ctrl);
	p->ctrl = pp_ctrl_connect(p->host, p->port, CTRL_WAIT_S);
	return p->ctrl < 0 ? -1 : peer_swap(p);
}

int
peer_insert(struct peer *p)
{
	return fi_av_insert(p->av, p->peer_name, 1, &p->peer_addr, 0, NULL) == 1 ? 0 : -1;
}

ssize_t
peer_wait(struct peer *p, struct fi_cq_tagged_entry *e, fi_addr_t *src,
	  struct fi_cq_err_entry *err, int timeout_ms)
{
	uint64_t deadline = peer_now_ms() + (uint64_t)timeout_ms;
	fi_addr_t dummy;
	ssize_t n;

	do {
		n = fi_cq_readfrom(p->cq, e, 1, src != NULL ? src : &dummy);
		if (n == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			if (fi_cq_readerr(p->cq, err, 0) != 1)
				return -FI_EOTHER;
			return -FI_EAVAIL;
		}
		if (n != -FI_EAGAIN)
			return n;
	} while (peer_now_ms() < deadline);
	return -FI_EAGAIN;
}

int
peer_tell(struct peer *p, char what)
{
	return pp_ctrl_send(p->ctrl, &what, 1);
}

int
peer_hear(struct peer *p, char *what)
{
	return pp_ctrl_recv(p->ctrl, what, 1) == 1 ? 0 : -1;
}

static void
close_fabric(struct peer *p)
{
	struct fid *fids[] = {
		p->ep ? &p->ep->fid : NULL, p->cq ? &p->cq->fid : NULL,
		p->tx_cntr ? &p->tx_cntr->fid : NULL, p->rx_cntr ? &p->rx_cntr->fid : NULL,
		p->av ? &p->av->fid : NULL, p->domain ? &p->domain->fid : NULL,
		p->fabric ? &p->fabric->fid : NULL,
	};
	size_t i;

	for (i = 0; i < RTE_DIM(fids); i++) {
		if (fids[i] != NULL)
			fi_close(fids[i]);
	}
	fi_freeinfo(p->info);
	p->ep = NULL;
	p->cq = NULL;
	p->tx_cntr = NULL;
	p->rx_cntr = NULL;
	p->av = NULL;
	p->domain = NULL;
	p->fabric = NULL;
	p->info = NULL;
}

int
peer_reopen(struct peer *p)
{
	close_fabric(p);
	if (open_fabric(p, p->type, p->caps) != 0)
		return -1;
	return peer_swap(p);
}

int
peer_finish(struct peer *p)
{
	char c = 0;

	/* A memif peer that disconnects while this side polls can crash the PMD:
	 * the server closes its port first, then the client. */
	if (p->ctrl >= 0 && p->server) {
		close_fabric(p);
		peer_tell(p, 'k');
	} else if (p->ctrl >= 0) {
		/* progressing meanwhile: under manual progress the server's last
		 * send is acknowledged only while this side polls */
		if (peer_tell(p, 'd') == 0) {
			while (!pp_ctrl_pending(p->ctrl))
				fi_cq_read(p->cq, NULL, 0);
			peer_hear(p, &c);
		}
		close_fabric(p);
	} else {
		close_fabric(p);
	}
	if (p->ctrl >= 0)
		close(p->ctrl);
	p->ctrl = -1;
	printf("1..%d\n", nb_checks);
	return nb_failed == 0 && nb_checks > 0 ? 0 : 1;
}
