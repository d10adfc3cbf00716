/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* The domain's progress watchdog (see watchdog.h). */

#include <errno.h>
#include <string.h>
#include <time.h>

#include <rte_lcore.h>

#include "dfi.h"
#include "domain.h"
#include "watchdog.h"

static void *
watchdog_main(void *arg)
{
	struct dfi_domain *domain = arg;
	struct dfi_watchdog *w = &domain->watchdog;
	struct timespec nap = { .tv_nsec = DFI_WATCHDOG_US * 1000L };
	struct dfi_guard *held;

	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		nanosleep(&nap, NULL);
		held = dfi_guard_lock(w->list);
		/* each endpoint under its own guard, only when free (ep_layer.h) */
		dfi_progress_rescue(&w->eps);
		dfi_guard_unlock(held);
	}
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
	int ret = dfi_guard_new(true, false, &w->list);

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
