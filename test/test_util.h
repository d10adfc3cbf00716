/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Shared helpers of the CUnit suites: the environment that makes libfabric
 * load the provider from the build tree, and a runner whose exit status is
 * the verdict meson reads.
 */

#ifndef _DFI_TEST_UTIL_H_
#define _DFI_TEST_UTIL_H_

#include <CUnit/Basic.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_eq.h>

/** EAL arguments for tests that let the provider start DPDK. */
#define TEST_EAL_BASE	"--no-huge -m 256 --no-pci --no-shconf --no-telemetry --log-level=warning"

/**
 * Points libfabric at the provider under test and sets FI_DPDK_EAL_ARGS
 * (unset when eal_args is NULL). Call before any fi_* function.
 */
void test_env_setup(const char *eal_args);

/**
 * test_env_setup() for two hosts on one wire in this process: net_memif0
 * (server) and net_memif1 (client) on the socket /run/dfi-<tag>-<pid>.sock,
 * written to sock (len bytes), which the caller unlinks at the end.
 */
void test_env_memif_pair(const char *tag, char *sock, size_t len);

/**
 * Registers and runs the suites (CUnit basic mode, verbose).
 *
 * @return the process exit status: 0 when every test passed, 1 otherwise.
 */
int test_run(CU_SuiteInfo *suites);

/**
 * Starts the EAL from a command line, as an EAL-style application does.
 *
 * @return rte_eal_init()'s result.
 */
int test_eal_init(const char *prog, const char *args);

/** fi_getinfo() restricted to the dpdk provider. */
int test_getinfo(uint32_t version, const char *node, const char *service, uint64_t flags,
		 struct fi_info *hints, struct fi_info **info);

/** A fabric and a domain opened on the first entry fi_getinfo() gives. */
struct test_domain {
	struct fi_info *info;
	struct fid_fabric *fabric;
	struct fid_domain *domain;
};

/** Opens td on the first dpdk entry of this type, format and caps. */
int test_domain_open(struct test_domain *td, enum fi_ep_type type, uint32_t addr_format,
		     uint64_t caps);
/** The same, asking for the memory registration modes mr_mode (fi_mr(3)). */
int test_domain_open_mr(struct test_domain *td, enum fi_ep_type type, uint32_t addr_format,
			uint64_t caps, int mr_mode);
/** The same, also asking for a threading model and, unless NULL, a port (domain name). */
int test_domain_open_attr(struct test_domain *td, enum fi_ep_type type, uint32_t addr_format,
			  uint64_t caps, int mr_mode, enum fi_threading threading,
			  const char *port);
void test_domain_close(struct test_domain *td);

/** An enabled endpoint with its CQ and send and receive counters, in an AV. */
struct test_node {
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_cntr *tx_cntr;
	struct fid_cntr *rx_cntr;
	fi_addr_t addr;		/* its address in the AV */
};

/**
 * Opens n on td's domain without counters, bound to av and to a CQ of
 * FI_CQ_FORMAT_DATA whose transmit completions are selective
 * (FI_SELECTIVE_COMPLETION), enabled; 0 or an error. test_node_close()
 * closes it.
 */
int test_selective_node_open(struct test_node *n, const struct test_domain *td,
			     struct fid_av *av);

/**
 * Opens n on td's domain: a CQ of cq_attr for both directions, counters
 * waiting with cntr_wait, bound to av and inserted in it; 0 or an error.
 */
int test_node_open(struct test_node *n, const struct test_domain *td, struct fid_av *av,
		   const struct fi_cq_attr *cq_attr, enum fi_wait_obj cntr_wait);
/**
 * The same with both counters opened of cntr_attr (a wait set, say), or
 * none when it is NULL. The contexts of the CQ and counters are the
 * addresses of n's handles to them, which fi_poll() reports.
 */
int test_node_open_attr(struct test_node *n, const struct test_domain *td, struct fid_av *av,
			const struct fi_cq_attr *cq_attr, const struct fi_cntr_attr *cntr_attr);
void test_node_close(struct test_node *n);

#define TEST_SEP_MAX_CTX	4

/** A scalable endpoint with its contexts, each enabled with a CQ of its own. */
struct test_sep {
	struct fid_ep *sep;
	struct fid_ep *tx[TEST_SEP_MAX_CTX];
	struct fid_ep *rx[TEST_SEP_MAX_CTX];
	struct fid_cq *tx_cq[TEST_SEP_MAX_CTX];
	struct fid_cq *rx_cq[TEST_SEP_MAX_CTX];
	int nb_tx;
	int nb_rx;
};

/**
 * Opens s on d's domain, of d's info with nb_tx transmit and nb_rx receive
 * contexts (at most TEST_SEP_MAX_CTX each), bound to av and enabled.
 * @return 0 or an error; test_sep_close() frees what was opened either way.
 */
int test_sep_open(const struct test_domain *d, struct fid_av *av, int nb_tx, int nb_rx,
		  struct test_sep *s);
/** @return fi_close()'s result on the scalable endpoint, once its contexts are closed. */
int test_sep_close(struct test_sep *s);

/**
 * Two nodes a and b in one FI_AV_TABLE AV on a domain opened as
 * test_domain_open_mr() does, their counters waiting with FI_WAIT_UNSPEC:
 * the setup of the suites that send from one endpoint to another.
 * @return 0 or non-zero (CUnit's suite init result).
 */
int test_pair_open(struct test_domain *td, struct fid_av **av, struct test_node *a,
		   struct test_node *b, uint64_t caps, int mr_mode,
		   const struct fi_cq_attr *cq_attr);
/** Closes what test_pair_open() (or a suite's own setup) opened: a, b, the AV, td. */
void test_pair_close(struct test_domain *td, struct fid_av **av, struct test_node *a,
		     struct test_node *b);

/** @return the number of entries in an fi_info list. */
int test_info_count(const struct fi_info *info);

/** Fills len bytes with a pattern of seed that shifts every 512 bytes. */
void test_fill(uint8_t *p, size_t len, unsigned int seed);

/** Milliseconds since t0, a CLOCK_MONOTONIC time. */
double test_ms_since(const struct timespec *t0);

/**
 * Reads one completion of cq into entry (of cq's format), progressing the
 * CQs of others (nb_others of them) meanwhile.
 *
 * @return 1; -FI_EAVAIL with *err read; -FI_EAGAIN after timeout_ms (and
 *	   on stderr the error entries the others held, which *err is left
 *	   with); or fi_cq_read()'s error.
 */
ssize_t test_cq_wait(struct fid_cq *cq, void *entry, struct fi_cq_err_entry *err,
		     struct fid_cq *const *others, size_t nb_others, int timeout_ms);

/**
 * test_cq_wait(), with the completion's source in *src (fi_cq_readfrom()).
 * NULL entries of others are skipped.
 */
ssize_t test_cq_wait_from(struct fid_cq *cq, void *entry, fi_addr_t *src,
			  struct fi_cq_err_entry *err, struct fid_cq *const *others,
			  size_t nb_others, int timeout_ms);

#endif /* _DFI_TEST_UTIL_H_ */
