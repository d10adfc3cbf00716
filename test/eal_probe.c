/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * A probe preloaded (LD_PRELOAD) into programs the tests do not build, such
 * as Debian's fi_info and fi_pingpong: when the program exits, before the
 * libraries' destructors run, it writes to $DFI_EAL_PROBE_DIR/<pid> what the
 * process holds of DPDK:
 *
 *   comm fi_info
 *   eal not-loaded | not-started | started
 *   runtime_dir /var/run/dpdk/rte | -
 *   threads fi_info eal-intr-thread ...
 *
 * The EAL's state is asked of the librte_eal the process loaded, if any:
 * rte_eal_iova_mode() is RTE_IOVA_DC until rte_eal_init() succeeds, and the
 * runtime directory is "" until rte_eal_init() makes it.
 */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "proc_self.h"

typedef int (*probe_iova_fn)(void);
typedef const char *(*probe_rundir_fn)(void);

static void
probe_eal(FILE *f)
{
	probe_rundir_fn rundir;
	probe_iova_fn iova;
	const char *dir;
	void *h;

	h = proc_self_library("/librte_eal.so");
	if (h == NULL) {
		fprintf(f, "eal not-loaded\nruntime_dir -\n");
		return;
	}
	*(void **)&iova = dlsym(h, "rte_eal_iova_mode");
	*(void **)&rundir = dlsym(h, "rte_eal_get_runtime_dir");
	if (iova == NULL || rundir == NULL) {
		fprintf(f, "eal unknown\nruntime_dir -\n");
	} else {
		dir = rundir();
		fprintf(f, "eal %s\nruntime_dir %s\n", iova() != 0 ? "started" : "not-started",
			dir[0] != '\0' ? dir : "-");
	}
	dlclose(h);
}

static int
probe_thread(const char *task_dir, const char *name, void *arg)
{
	(void)task_dir;
	fprintf(arg, " %s", name);
	return 0;
}

static void
probe_threads(FILE *f)
{
	fprintf(f, "threads");
	proc_self_threads(probe_thread, f);
	fprintf(f, "\n");
}

static void
probe_report(void)
{
	const char *out = getenv("DFI_EAL_PROBE_DIR");
	char path[4096], comm[64] = "?";
	FILE *f;

	if (out == NULL)
		return;
	f = fopen("/proc/self/comm", "r");
	if (f != NULL) {
		if (fgets(comm, sizeof(comm), f) != NULL)
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/%d", out, (int)getpid());
	f = fopen(path, "w");
	if (f == NULL)
		return;
	fprintf(f, "comm %s\n", comm);
	probe_eal(f);
	probe_threads(f);
	fclose(f);
}

/* atexit() handlers run before the destructors of the loaded libraries. */
RTE_INIT(probe_init)
{
	atexit(probe_report);
}
