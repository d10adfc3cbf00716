/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * How the provider starts DPDK. An EAL starts once per process, so each case
 * is its own process: meson runs this program once per mode.
 *
 *   default  FI_DPDK_EAL_ARGS unset: the built-in arguments work on this
 *            machine (falling back to --no-huge without free hugepages), leave
 *            the caller's CPU affinity alone, and start the EAL once.
 *   bad      a malformed FI_DPDK_EAL_ARGS gives no entries, no crash, no retry.
 *   help     "--help", which makes DPDK call exit(), is refused.
 *   quote    an unbalanced quote is refused.
 *   threads  concurrent first calls start one EAL and all see the ports.
 */

#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_lcore.h>

#include "test_util.h"

#define NB_THREADS	4

static const char *mode;

static int
getinfo_plain(struct fi_info **info)
{
	struct fi_info *hints = fi_allocinfo();
	int ret;

	if (hints == NULL)
		return -FI_ENOMEM;
	ret = test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, info);
	fi_freeinfo(hints);
	return ret;
}

static bool
machine_has_free_hugepages(void)
{
	char path[512];
	struct dirent *de;
	unsigned long n;
	bool found = false;
	DIR *dir = opendir("/sys/kernel/mm/hugepages");
	FILE *f;

	if (dir == NULL)
		return false;
	while ((de = readdir(dir)) != NULL) {
		if (strncmp(de->d_name, "hugepages-", 10) != 0)
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/%s/free_hugepages",
			 de->d_name);
		f = fopen(path, "r");
		if (f != NULL && fscanf(f, "%lu", &n) == 1 && n > 0)
			found = true;
		if (f != NULL)
			fclose(f);
	}
	closedir(dir);
	return found;
}

static void
test_default_args(void)
{
	struct fi_info *info = NULL;
	cpu_set_t before, after;
	unsigned int lcores;
	int ret;

	CU_ASSERT_EQUAL(rte_lcore_count(), 0);
	CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(before), &before), 0);
	/* no vdev in the defaults: no port here, unless a NIC is bound to DPDK */
	ret = getinfo_plain(&info);
	CU_ASSERT(ret == 0 || ret == -FI_ENODATA);
	fi_freeinfo(info);
	lcores = rte_lcore_count();
	CU_ASSERT(lcores > 0);
	CU_ASSERT(rte_eal_iova_mode() != RTE_IOVA_DC);
	CU_ASSERT_EQUAL(rte_eal_has_hugepages(), machine_has_free_hugepages() ? 1 : 0);
	CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(after), &after), 0);
	CU_ASSERT(CPU_EQUAL(&before, &after));
	/* a second call reuses it */
	info = NULL;
	ret = getinfo_plain(&info);
	CU_ASSERT(ret == 0 || ret == -FI_ENODATA);
	fi_freeinfo(info);
	CU_ASSERT_EQUAL(rte_lcore_count(), lcores);
}

static void
test_refused_args(void)
{
	struct fi_info *info = NULL;

	CU_ASSERT_EQUAL(getinfo_plain(&info), -FI_ENODATA);
	CU_ASSERT_PTR_NULL(info);
	/* the EAL did not come up (a failed rte_eal_init() may count lcores) */
	CU_ASSERT_EQUAL(rte_eal_iova_mode(), RTE_IOVA_DC);
	/* no retry, same answer, still alive */
	CU_ASSERT_EQUAL(getinfo_plain(&info), -FI_ENODATA);
	CU_ASSERT_EQUAL(rte_eal_iova_mode(), RTE_IOVA_DC);
}

static void *
getinfo_thread(void *arg)
{
	struct fi_info *info = NULL;
	int *count = arg;

	if (getinfo_plain(&info) == 0)
		*count = test_info_count(info);
	fi_freeinfo(info);
	return NULL;
}

static void
test_concurrent_start(void)
{
	pthread_t threads[NB_THREADS];
	int counts[NB_THREADS] = { 0 };
	int i;

	for (i = 0; i < NB_THREADS; i++)
		CU_ASSERT_EQUAL_FATAL(pthread_create(&threads[i], NULL, getinfo_thread,
						     &counts[i]), 0);
	for (i = 0; i < NB_THREADS; i++) {
		pthread_join(threads[i], NULL);
		CU_ASSERT_EQUAL(counts[i], 4);
	}
	CU_ASSERT(rte_lcore_count() > 0);
}

static CU_TestInfo default_tests[] = {
	{ "default arguments", test_default_args },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo refused_tests[] = {
	{ "refused arguments", test_refused_args },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo thread_tests[] = {
	{ "concurrent first calls", test_concurrent_start },
	CU_TEST_INFO_NULL,
};

int
main(int argc, char **argv)
{
	CU_SuiteInfo suites[] = {
		{ NULL, NULL, NULL, NULL, NULL, NULL },
		CU_SUITE_INFO_NULL,
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s default|bad|help|quote|threads\n", argv[0]);
		return 1;
	}
	mode = argv[1];
	suites[0].pName = (char *)(uintptr_t)mode;
	if (strcmp(mode, "default") == 0) {
		test_env_setup(NULL);
		suites[0].pTests = default_tests;
	} else if (strcmp(mode, "bad") == 0) {
		test_env_setup("--no-huge --no-such-eal-option");
		suites[0].pTests = refused_tests;
	} else if (strcmp(mode, "help") == 0) {
		test_env_setup("--no-huge --help");
		suites[0].pTests = refused_tests;
	} else if (strcmp(mode, "quote") == 0) {
		test_env_setup("--no-huge '--vdev=net_null0");
		suites[0].pTests = refused_tests;
	} else if (strcmp(mode, "threads") == 0) {
		test_env_setup(TEST_EAL_BASE " --vdev=net_null0 --vdev=net_null1");
		suites[0].pTests = thread_tests;
	} else {
		fprintf(stderr, "unknown mode %s\n", mode);
		return 1;
	}
	return test_run(suites);
}
