/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Lazy EAL initialisation. fi_prov_ini() runs in every libfabric process,
 * fi_info included, so DPDK is only started when a dpdk object is needed.
 * An EAL started by the application (EAL-style programs) is reused as is and
 * never cleaned up by the provider.
 */

#include <dirent.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "dfi.h"
#include "eal.h"
#include "params.h"

#define EAL_MAX_ARGS	128
#define EAL_ARGS_LEN	4096

enum eal_state {
	EAL_UNINIT,
	EAL_OWNED,	/* started by the provider */
	EAL_SHARED,	/* started by the application */
	EAL_FAILED,
};

static pthread_mutex_t eal_lock = PTHREAD_MUTEX_INITIALIZER;
static enum eal_state eal_state = EAL_UNINIT;

/* rte_eal_init() may keep pointers into argv: the strings live here. */
static char eal_args_buf[EAL_ARGS_LEN];

/* The IOVA mode is chosen by every successful rte_eal_init(); the lcore
 * count is not a sign, a failed init leaves it set. */
static bool
eal_already_up(void)
{
	return rte_eal_iova_mode() != RTE_IOVA_DC;
}

/* Splits a command line in place; single and double quotes group words. */
static int
eal_split_args(char *line, char **argv, int max_args)
{
	int argc = 0;
	char *r = line, *w;
	char quote;

	while (*r != '\0') {
		while (*r == ' ' || *r == '\t' || *r == '\n')
			r++;
		if (*r == '\0')
			break;
		if (argc == max_args - 1)
			return -FI_E2BIG;
		argv[argc++] = w = r;
		quote = 0;
		while (*r != '\0' && (quote != 0 || (*r != ' ' && *r != '\t' && *r != '\n'))) {
			if (quote == 0 && (*r == '\'' || *r == '"'))
				quote = *r;
			else if (quote != 0 && *r == quote)
				quote = 0;
			else
				*w++ = *r;
			r++;
		}
		if (quote != 0)
			return -FI_EINVAL;
		if (*r != '\0')
			r++;
		*w = '\0';
	}
	argv[argc] = NULL;
	return argc;
}

static bool
eal_hugepages_free(void)
{
	const char *root = "/sys/kernel/mm/hugepages";
	char path[512];
	struct dirent *de;
	bool found = false;
	unsigned long n;
	DIR *dir;
	FILE *f;

	dir = opendir(root);
	if (dir == NULL)
		return false;
	while (!found && (de = readdir(dir)) != NULL) {
		if (strncmp(de->d_name, "hugepages-", 10) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/free_hugepages", root, de->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fscanf(f, "%lu", &n) == 1 && n > 0)
			found = true;
		fclose(f);
	}
	closedir(dir);
	return found;
}

/* "0-3,6": the CPUs the calling thread may run on, for --lcores. */
static int
eal_cpuset_str(const cpu_set_t *set, char *buf, size_t len)
{
	size_t off = 0;
	int cpu, first;

	buf[0] = '\0';
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, set))
			continue;
		first = cpu;
		while (cpu + 1 < CPU_SETSIZE && CPU_ISSET(cpu + 1, set))
			cpu++;
		off += (size_t)snprintf(buf + off, len > off ? len - off : 0, "%s%d",
					off != 0 ? "," : "", first);
		if (cpu != first)
			off += (size_t)snprintf(buf + off, len > off ? len - off : 0,
						"-%d", cpu);
	}
	return off != 0 && off < len ? 0 : -FI_EINVAL;
}

static int
eal_default_args(const cpu_set_t *cpus, char *buf, size_t len)
{
	char cpulist[1024];
	const char *mem;
	int n;

	if (eal_cpuset_str(cpus, cpulist, sizeof(cpulist)) != 0)
		return -FI_EINVAL;
	if (eal_hugepages_free()) {
		mem = "--in-memory";
	} else {
		mem = "--no-huge -m 512 --no-shconf";
		DFI_WARN(FI_LOG_CORE, "no free hugepages: starting DPDK with '%s' "
			 "(set FI_DPDK_EAL_ARGS to choose)", mem);
	}
	/* lcore 0 may float over the caller's CPUs rather than pin it. */
	n = snprintf(buf, len, "--lcores=0@(%s) --no-telemetry --log-level=notice %s",
		     cpulist, mem);
	return n > 0 && (size_t)n < len ? 0 : -FI_E2BIG;
}

static bool
eal_args_refused(char **argv, int argc)
{
	int i;

	/* EAL prints its usage and calls exit() for these. */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
	}
	return false;
}

static int
eal_start(void)
{
	char *argv[EAL_MAX_ARGS];
	const char *user_args;
	char shown[EAL_ARGS_LEN];
	cpu_set_t cpus;
	int argc, ret, saved_optind, saved_opterr, saved_optopt;
	char *saved_optarg;
	bool have_cpus;

	have_cpus = pthread_getaffinity_np(pthread_self(), sizeof(cpus), &cpus) == 0;
	user_args = dfi_param_str(DFI_PARAM_EAL_ARGS);
	if (user_args != NULL) {
		if (strlen(user_args) >= sizeof(eal_args_buf) - 1) {
			DFI_WARN(FI_LOG_CORE, "FI_DPDK_EAL_ARGS is too long (max %zu)",
				 sizeof(eal_args_buf) - 2);
			return -FI_E2BIG;
		}
		strcpy(eal_args_buf, user_args);
	} else {
		if (!have_cpus) {
			DFI_WARN(FI_LOG_CORE, "cannot read the thread's CPU affinity");
			return -FI_EINVAL;
		}
		ret = eal_default_args(&cpus, eal_args_buf, sizeof(eal_args_buf));
		if (ret != 0)
			return ret;
	}
	snprintf(shown, sizeof(shown), "%s", eal_args_buf);

	argv[0] = (char *)(uintptr_t)"fi-dpdk";
	ret = eal_split_args(eal_args_buf, argv + 1, EAL_MAX_ARGS - 1);
	if (ret < 0) {
		DFI_WARN(FI_LOG_CORE, "cannot parse EAL arguments '%s': %s", shown,
			 ret == -FI_E2BIG ? "too many words" : "unbalanced quote");
		return ret;
	}
	argc = ret + 1;
	if (eal_args_refused(argv, argc)) {
		DFI_WARN(FI_LOG_CORE, "EAL arguments '%s' refused: -h/--help makes "
			 "DPDK exit the process", shown);
		return -FI_EINVAL;
	}

	/* DPDK logs to stdout by default; keep the application's stdout clean. */
	rte_openlog_stream(stderr);

	saved_optind = optind;
	saved_opterr = opterr;
	saved_optopt = optopt;
	saved_optarg = optarg;
	ret = rte_eal_init(argc, argv);
	optind = saved_optind;
	opterr = saved_opterr;
	optopt = saved_optopt;
	optarg = saved_optarg;

	/* rte_eal_init() pins the calling thread; it is the application's. */
	if (have_cpus)
		pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus);

	if (ret < 0) {
		if (rte_errno == EALREADY && eal_already_up())
			return 1;
		DFI_WARN(FI_LOG_CORE, "rte_eal_init('%s') failed: %s; the dpdk provider "
			 "reports no domain", shown, rte_strerror(rte_errno));
		rte_openlog_stream(NULL);
		return -FI_ENODATA;
	}
	DFI_INFO(FI_LOG_CORE, "EAL started with '%s'", shown);
	return 0;
}

int
dfi_eal_ensure(void)
{
	enum eal_state state;
	int ret;

	state = __atomic_load_n(&eal_state, __ATOMIC_ACQUIRE);
	if (state == EAL_OWNED || state == EAL_SHARED)
		return 0;
	if (state == EAL_FAILED)
		return -FI_ENODATA;

	pthread_mutex_lock(&eal_lock);
	if (eal_state == EAL_UNINIT) {
		if (eal_already_up()) {
			state = EAL_SHARED;
			DFI_INFO(FI_LOG_CORE, "using the application's EAL");
		} else {
			ret = eal_start();
			state = ret == 0 ? EAL_OWNED : ret == 1 ? EAL_SHARED : EAL_FAILED;
		}
		__atomic_store_n(&eal_state, state, __ATOMIC_RELEASE);
	}
	state = eal_state;
	pthread_mutex_unlock(&eal_lock);
	return state == EAL_FAILED ? -FI_ENODATA : 0;
}

bool
dfi_eal_owned(void)
{
	return __atomic_load_n(&eal_state, __ATOMIC_ACQUIRE) == EAL_OWNED;
}

void
dfi_eal_fini(void)
{
	pthread_mutex_lock(&eal_lock);
	if (eal_state == EAL_OWNED) {
		/*
		 * No rte_eal_cleanup(): libfabric unloads providers as the process
		 * exits, and DPDK 22.11's cleanup frees the heap under the EAL
		 * interrupt thread, which keeps running: a memif peer's disconnect
		 * handled there at that moment crashes the process. The ports are
		 * closed by now; the default arguments leave no file behind, and
		 * the kernel takes the memory back.
		 */
		rte_openlog_stream(NULL);
		/* An EAL cannot be started twice in a process. */
		__atomic_store_n(&eal_state, EAL_FAILED, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&eal_lock);
}
