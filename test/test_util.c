/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Environment and runner shared by the CUnit suites. */

#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include <rte_eal.h>

#include "test_util.h"

void
test_env_setup(const char *eal_args)
{
	/* the build's provider; a copy elsewhere (scripts/lent_run.sh) is named */
	const char *dir = getenv("DFI_TEST_PROVIDER_DIR");

	setenv("FI_PROVIDER_PATH", dir != NULL ? dir : DFI_TEST_PROVIDER_DIR, 1);
	if (eal_args != NULL)
		setenv("FI_DPDK_EAL_ARGS", eal_args, 1);
	else
		unsetenv("FI_DPDK_EAL_ARGS");
}

int
test_run(CU_SuiteInfo *suites)
{
	unsigned int failures;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	if (CU_register_suites(suites) != CUE_SUCCESS) {
		fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 1;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed() +
		   CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return failures == 0 ? 0 : 1;
}

void
test_env_memif_pair(const char *tag, char *sock, size_t len)
{
	char eal[512];

	snprintf(sock, len, "/run/dfi-%s-%d.sock", tag, (int)getpid());
	snprintf(eal, sizeof(eal), TEST_EAL_BASE " --vdev=net_memif0,role=server,socket=%s"
		 " --vdev=net_memif1,role=client,socket=%s", sock, sock);
	test_env_setup(eal);
}

int
test_getinfo(uint32_t version, const char *node, const char *service, uint64_t flags,
	     struct fi_info *hints, struct fi_info **info)
{
	if (hints->fabric_attr->prov_name == NULL)
		hints->fabric_attr->prov_name = strdup("dpdk");
	return fi_getinfo(version, node, service, flags, hints, info);
}

int
test_info_count(const struct fi_info *info)
{
	int n = 0;

	for (; info != NULL; info = info->next)
		n++;
	return n;
}

int
test_eal_init(const char *prog, const char *args)
{
	static char *argv[64];
	char *copy, *tok, *save = NULL;
	int argc = 0;

	copy = strdup(args);
	if (copy == NULL)
		return -1;
	argv[argc++] = strdup(prog);
	for (tok = strtok_r(copy, " ", &save); tok != NULL && argc < 63;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	/* argv stays allocated: the EAL may keep pointers into it */
	return rte_eal_init(argc, argv);
}

int
test_domain_open(struct test_domain *td, enum fi_ep_type type, uint32_t addr_format,
		 uint64_t caps)
{
	return test_domain_open_mr(td, type, addr_format, caps, 0);
}

int
test_domain_open_mr(struct test_domain *td, enum fi_ep_type type, uint32_t addr_format,
		    uint64_t caps, int mr_mode)
{
	return test_domain_open_attr(td, type, addr_format, caps, mr_mode, FI_THREAD_UNSPEC, NULL);
}

int
test_domain_open_attr(struct test_domain *td, enum fi_ep_type type, uint32_t addr_format,
		      uint64_t caps, int mr_mode, enum fi_threading threading, const char *port)
{
	struct fi_info *hints = fi_allocinfo();
	int ret;

	memset(td, 0, sizeof(*td));
	if (hints == NULL)
		return -FI_ENOMEM;
	hints->ep_attr->type = type;
	hints->addr_format = addr_format;
	hints->caps = caps;
	hints->domain_attr->mr_mode = mr_mode;
	hints->domain_attr->threading = threading;
	if (port != NULL)
		hints->domain_attr->name = strdup(port);
	ret = test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &td->info);
	fi_freeinfo(hints);
	if (ret == 0)
		ret = fi_fabric(td->info->fabric_attr, &td->fabric, NULL);
	if (ret == 0)
		ret = fi_domain(td->fabric, td->info, &td->domain, NULL);
	return ret;
}

void
test_domain_close(struct test_domain *td)
{
	if (td->domain != NULL)
		fi_close(&td->domain->fid);
	if (td->fabric != NULL)
		fi_close(&td->fabric->fid);
	fi_freeinfo(td->info);
	memset(td, 0, sizeof(*td));
}

int
test_node_open(struct test_node *n, const struct test_domain *td, struct fid_av *av,
	       const struct fi_cq_attr *cq_attr, enum fi_wait_obj cntr_wait)
{
	struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP, .wait_obj = cntr_wait };

	return test_node_open_attr(n, td, av, cq_attr, &cntr_attr);
}

int
test_node_open_attr(struct test_node *n, const struct test_domain *td, struct fid_av *av,
		    const struct fi_cq_attr *cq_attr, const struct fi_cntr_attr *cntr)
{
	struct fi_cq_attr cq = *cq_attr;
	bool rma = (td->info->caps & (FI_RMA | FI_ATOMIC)) != 0;
	struct fi_cntr_attr cntr_attr;
	char name[64];
	size_t len = sizeof(name);
	int ret;

	ret = fi_endpoint(td->domain, td->info, &n->ep, n);
	ret = ret ? ret : fi_cq_open(td->domain, &cq, &n->cq, &n->cq);
	ret = ret ? ret : fi_ep_bind(n->ep, &av->fid, 0);
	ret = ret ? ret : fi_ep_bind(n->ep, &n->cq->fid, FI_TRANSMIT | FI_RECV);
	if (cntr != NULL) {
		cntr_attr = *cntr;
		ret = ret ? ret : fi_cntr_open(td->domain, &cntr_attr, &n->tx_cntr, &n->tx_cntr);
		ret = ret ? ret : fi_cntr_open(td->domain, &cntr_attr, &n->rx_cntr, &n->rx_cntr);
		/* with RMA or atomics, the counters count their events too */
		ret = ret ? ret : fi_ep_bind(n->ep, &n->tx_cntr->fid,
					     FI_SEND | (rma ? FI_READ | FI_WRITE : 0));
		ret = ret ? ret : fi_ep_bind(n->ep, &n->rx_cntr->fid,
					     FI_RECV | (rma ? FI_REMOTE_READ | FI_REMOTE_WRITE : 0));
	}
	ret = ret ? ret : fi_enable(n->ep);
	ret = ret ? ret : fi_getname(&n->ep->fid, name, &len);
	ret = ret ? ret : (fi_av_insert(av, name, 1, &n->addr, 0, NULL) == 1 ? 0 : -1);
	return ret;
}

int
test_selective_node_open(struct test_node *n, const struct test_domain *td, struct fid_av *av)
{
	struct fi_cq_attr attr = { .format = FI_CQ_FORMAT_DATA, .size = 64 };
	int ret;

	ret = fi_endpoint(td->domain, td->info, &n->ep, n);
	ret = ret ? ret : fi_cq_open(td->domain, &attr, &n->cq, NULL);
	ret = ret ? ret : fi_ep_bind(n->ep, &av->fid, 0);
	ret = ret ? ret : fi_ep_bind(n->ep, &n->cq->fid, FI_TRANSMIT | FI_SELECTIVE_COMPLETION);
	ret = ret ? ret : fi_ep_bind(n->ep, &n->cq->fid, FI_RECV);
	return ret ? ret : fi_enable(n->ep);
}

void
test_node_close(struct test_node *n)
{
	if (n->ep != NULL)
		fi_close(&n->ep->fid);
	if (n->cq != NULL)
		fi_close(&n->cq->fid);
	if (n->tx_cntr != NULL)
		fi_close(&n->tx_cntr->fid);
	if (n->rx_cntr != NULL)
		fi_close(&n->rx_cntr->fid);
	memset(n, 0, sizeof(*n));
}

static int
sep_ctx_cq(const struct test_domain *d, struct fid_ep *ctx, struct fid_cq **cq, uint64_t flags)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED, .size = 1024 };
	int ret;

	ret = fi_cq_open(d->domain, &cq_attr, cq, NULL);
	ret = ret ? ret : fi_ep_bind(ctx, &(*cq)->fid, flags);
	return ret ? ret : fi_enable(ctx);
}

int
test_sep_open(const struct test_domain *d, struct fid_av *av, int nb_tx, int nb_rx,
	      struct test_sep *s)
{
	struct fi_info *info = fi_dupinfo(d->info);
	int i, ret;

	memset(s, 0, sizeof(*s));
	if (info == NULL || nb_tx > TEST_SEP_MAX_CTX || nb_rx > TEST_SEP_MAX_CTX) {
		fi_freeinfo(info);
		return -FI_EINVAL;
	}
	s->nb_tx = nb_tx;
	s->nb_rx = nb_rx;
	info->ep_attr->tx_ctx_cnt = (size_t)nb_tx;
	info->ep_attr->rx_ctx_cnt = (size_t)nb_rx;
	ret = fi_scalable_ep(d->domain, info, &s->sep, NULL);
	fi_freeinfo(info);
	ret = ret ? ret : fi_scalable_ep_bind(s->sep, &av->fid, 0);
	for (i = 0; ret == 0 && i < nb_tx; i++) {
		ret = fi_tx_context(s->sep, i, NULL, &s->tx[i], NULL);
		ret = ret ? ret : sep_ctx_cq(d, s->tx[i], &s->tx_cq[i], FI_TRANSMIT);
	}
	for (i = 0; ret == 0 && i < nb_rx; i++) {
		ret = fi_rx_context(s->sep, i, NULL, &s->rx[i], NULL);
		ret = ret ? ret : sep_ctx_cq(d, s->rx[i], &s->rx_cq[i], FI_RECV);
	}
	return ret ? ret : fi_enable(s->sep);
}

int
test_sep_close(struct test_sep *s)
{
	int i, ret;

	for (i = 0; i < TEST_SEP_MAX_CTX; i++) {
		if (s->tx[i] != NULL)
			fi_close(&s->tx[i]->fid);
		if (s->rx[i] != NULL)
			fi_close(&s->rx[i]->fid);
		if (s->tx_cq[i] != NULL)
			fi_close(&s->tx_cq[i]->fid);
		if (s->rx_cq[i] != NULL)
			fi_close(&s->rx_cq[i]->fid);
	}
	ret = s->sep != NULL ? fi_close(&s->sep->fid) : 0;
	memset(s, 0, sizeof(*s));
	return ret;
}

int
test_pair_open(struct test_domain *td, struct fid_av **av, struct test_node *a,
	       struct test_node *b, uint64_t caps, int mr_mode, const struct fi_cq_attr *cq_attr)
{
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };

	if (test_domain_open_mr(td, FI_EP_RDM, FI_SOCKADDR_IN, caps, mr_mode) != 0 ||
	    fi_av_open(td->domain, &av_attr, av, NULL) != 0)
		return 1;
	return test_node_open(a, td, *av, cq_attr, FI_WAIT_UNSPEC) != 0 ||
	       test_node_open(b, td, *av, cq_attr, FI_WAIT_UNSPEC) != 0;
}

void
test_pair_close(struct test_domain *td, struct fid_av **av, struct test_node *a,
		struct test_node *b)
{
	test_node_close(a);
	test_node_close(b);
	if (*av != NULL)
		fi_close(&(*av)->fid);
	*av = NULL;
	test_domain_close(td);
}

void
test_fill(uint8_t *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 31 + i * 7 + (i >> 9));
}

double
test_ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

ssize_t
test_cq_wait(struct fid_cq *cq, void *entry, struct fi_cq_err_entry *err,
	     struct fid_cq *const *others, size_t nb_others, int timeout_ms)
{
	return test_cq_wait_from(cq, entry, NULL, err, others, nb_others, timeout_ms);
}

ssize_t
test_cq_wait_from(struct fid_cq *cq, void *entry, fi_addr_t *src, struct fi_cq_err_entry *err,
		  struct fid_cq *const *others, size_t nb_others, int timeout_ms)
{
	struct timespec t0;
	ssize_t ret;
	size_t k;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		ret = src != NULL ? fi_cq_readfrom(cq, entry, 1, src) : fi_cq_read(cq, entry, 1);
		if (ret == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			fi_cq_readerr(cq, err, 0);
			return -FI_EAVAIL;
		}
		if (ret != -FI_EAGAIN)
			return ret;
		for (k = 0; k < nb_others; k++) {
			if (others[k] != NULL)
				fi_cq_read(others[k], NULL, 0);
		}
	} while (test_ms_since(&t0) < timeout_ms);
	/* an error the others hold may say why: a peer's send that failed */
	for (k = 0; k < nb_others; k++) {
		if (others[k] != NULL && fi_cq_read(others[k], NULL, 0) == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			fi_cq_readerr(others[k], err, 0);
			fprintf(stderr, "test_cq_wait: timed out; CQ %zu of the others holds an "
				"error: %s (context %p)\n", k, fi_strerror(err->err),
				err->op_context);
		}
	}
	return -FI_EAGAIN;
}
