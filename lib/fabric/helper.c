/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* The list of the owners of the provider's helper threads (see helper.h). */

#include <pthread.h>

#include "helper.h"

static TAILQ_HEAD(, dfi_helper) helpers = TAILQ_HEAD_INITIALIZER(helpers);
/* held while a helper is stopped: an owner that unlists it waits for that */
static pthread_mutex_t helpers_lock = PTHREAD_MUTEX_INITIALIZER;

void
dfi_helper_list(struct dfi_helper *helper, dfi_helper_stop_t stop)
{
	pthread_mutex_lock(&helpers_lock);
	helper->stop = stop;
	helper->listed = true;
	TAILQ_INSERT_TAIL(&helpers, helper, next);
	pthread_mutex_unlock(&helpers_lock);
}

void
dfi_helper_unlist(struct dfi_helper *helper)
{
	pthread_mutex_lock(&helpers_lock);
	if (helper->listed) {
		TAILQ_REMOVE(&helpers, helper, next);
		helper->listed = false;
	}
	pthread_mutex_unlock(&helpers_lock);
}

void
dfi_helpers_stop(void)
{
	struct dfi_helper *helper;

	pthread_mutex_lock(&helpers_lock);
	while ((helper = TAILQ_FIRST(&helpers)) != NULL) {
		TAILQ_REMOVE(&helpers, helper, next);
		helper->listed = false;
		helper->stop(helper);
	}
	pthread_mutex_unlock(&helpers_lock);
}
