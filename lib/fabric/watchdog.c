/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* The domain's progress watchdog (see watchdog.h). */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include "dfi.h"
#include "domain.h"
#include "params.h"
#include "watchdog.h"

/*
 * Whether the machine's runnable threads, this one left out (the fourth
 * field of /proc/loadavg counts them, the reader included), outnumber the
 * application's CPUs by two or more: some of the application's threads are
 * then off their CPU, and a look stands in for them. One more is allowed:
 * with a poller on every CPU, another thread that just woke (an EAL
 * interrupt thread, another process's watchdog) is runnable a fifth of the
 * time, and fi_pingpong's looks stayed at 490 a second so.
 */
static bool
cpus_crowded(int fd, uint32_t cpus)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long runnable;

	if (n <= 0)
		return true;
	buf[n] = '\0';
	if (sscanf(buf, "%*s %*s %*s %ld/", &runnable) != 1)
		return true;
	return runnable - 1 > (long)cpus + 1;
}

static void *
watchdog_main(void *arg)
{
	struct dfi_domain *domain = arg;
	struct dfi_watchdog *w = &domain->watchdog;
	int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	uint64_t nap_us = DFI_WATCHDOG_US;
	struct timespec nap;
	struct dfi_guard *held;
	bool alone;

	if (fd < 0)
		DFI_INFO(FI_LOG_DOMAIN, "/proc/loadavg: %s: the watchdog looks every %d us",
			 strerror(errno), DFI_WATCHDOG_US);
	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		nap.tv_sec = (time_t)(nap_us / 1000000);
		nap.tv_nsec = (long)(nap_us % 1000000) * 1000L;
		nanosleep(&nap, NULL);
		held = dfi_guard_lock(w->list);
		/* each endpoint under its own guard, only when free (ep_layer.h) */
		alone = dfi_progress_rescue(&w->eps);
		dfi_guard_unlock(held);
		nap_us = alone || fd < 0 || cpus_crowded(fd, w->cpus) ? DFI_WATCHDOG_US :
			 RTE_MIN(2 * nap_us, (uint64_t)w->max_us);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* Joins the thread, when it runs; not under the list, which it takes. */
static void
watchdog_stop(struct dfi_helper *helper)
{
	struct dfi_watchdog *w = container_of(helper, struct dfi_watchdog, helper);
	struct dfi_guard *held = dfi_guard_lock(w->list);
	bool running = w->running;

	__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
	dfi_guard_unlock(held);
	if (!running)
		return;
	pthread_join(w->thread, NULL);
	held = dfi_guard_lock(w->list);
	w->running = false;
	dfi_guard_unlock(held);
}

int
dfi_watchdog_init(struct dfi_domain *domain)
{
	struct dfi_watchdog *w = &domain->watchdog;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	long max_us = dfi_param_int(DFI_PARAM_WATCHDOG_MAX_US, DFI_WATCHDOG_MAX_US,
				    DFI_WATCHDOG_US, 100000);
	long cpus = dfi_param_int(DFI_PARAM_WATCHDOG_CPUS, RTE_MAX(online, 1L), 1, 4096);
	int ret;

	if (max_us < 0 || cpus < 0)
		return -FI_EINVAL;	/* the parameter said why */
	w->max_us = (uint32_t)max_us;
	w->cpus = (uint32_t)cpus;
	ret = dfi_guard_new(true, false, &w->list);
	if (ret == 0)
		dfi_helper_list(&w->helper, watchdog_stop);
	return ret;
}

int
dfi_watchdog_add(struct dfi_domain *domain, struct dfi_ep *ep)
{
	struct dfi_watchdog *w = &domain->watchdog;
	struct dfi_guard *held;
	int ret;

	if (!domain->guard->locks)
		return 0;
	ret = dfi_progress_add(&w->eps, w->list, ep);
	if (ret < 0)
		return ret;
	ret = 0;
	held = dfi_guard_lock(w->list);
	if (!w->running) {
		__atomic_store_n(&w->stop, 0, __ATOMIC_RELAXED);
		/* off the application's lcores, whose pollers it would stop */
		ret = -rte_ctrl_thread_create(&w->thread, "dfi-watchdog", NULL, watchdog_main,
					      domain);
		w->running = ret == 0;
	}
	dfi_guard_unlock(held);
	if (ret != 0) {
		DFI_WARN(FI_LOG_DOMAIN, "no progress watchdog thread: %s", strerror(ret));
		dfi_progress_del(&w->eps, w->list, ep);
		return ret == ENOMEM ? -FI_ENOMEM : -FI_EAGAIN;
	}
	return 0;
}

void
dfi_watchdog_del(struct dfi_domain *domain, struct dfi_ep *ep)
{
	dfi_progress_del(&domain->watchdog.eps, domain->watchdog.list, ep);
}

void
dfi_watchdog_fini(struct dfi_domain *domain)
{
	struct dfi_watchdog *w = &domain->watchdog;

	dfi_helper_unlist(&w->helper);
	watchdog_stop(&w->helper);
	dfi_progress_fini(&w->eps);
	dfi_guard_put(w->list);
	w->list = NULL;
}
