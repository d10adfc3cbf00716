/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Ports stopped and closed with the interrupt thread parked in an alarm's
 * callback (intr_park.h). */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include <rte_alarm.h>
#include <rte_errno.h>
#include <rte_ethdev.h>

#include "intr_park.h"

/* A program that never lets the thread go (it died in a close) must not
 * keep it, and the process, forever. */
#define PARK_MAX_S	10

static struct {
	pthread_mutex_t mtx;
	pthread_cond_t cond;
	bool parked;
	bool released;
} park = { .mtx = PTHREAD_MUTEX_INITIALIZER };

static pthread_once_t park_once = PTHREAD_ONCE_INIT;

static void
park_init(void)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&park.cond, &attr);
	pthread_condattr_destroy(&attr);
}

static void
deadline_after(struct timespec *ts, unsigned int ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static void
park_here(void *arg)
{
	struct timespec deadline;
	int ret = 0;

	(void)arg;
	deadline_after(&deadline, PARK_MAX_S * 1000);
	pthread_mutex_lock(&park.mtx);
	if (!park.released) {
		park.parked = true;
		pthread_cond_broadcast(&park.cond);
		while (!park.released && ret != ETIMEDOUT)
			ret = pthread_cond_timedwait(&park.cond, &park.mtx, &deadline);
		park.parked = false;
	}
	pthread_mutex_unlock(&park.mtx);
	if (ret == ETIMEDOUT)
		fprintf(stderr, "interrupt thread: not let go in %d s, leaves anyway\n",
			PARK_MAX_S);
}

/* 0 once the thread waits in park_here(), until intr_unpark() */
static int
intr_park(unsigned int timeout_ms)
{
	struct timespec deadline;
	int ret = 0;

	pthread_once(&park_once, park_init);
	pthread_mutex_lock(&park.mtx);
	park.released = false;
	pthread_mutex_unlock(&park.mtx);
	if (rte_eal_alarm_set(1, park_here, NULL) != 0)
		return -rte_errno;
	deadline_after(&deadline, timeout_ms);
	pthread_mutex_lock(&park.mtx);
	while (!park.parked && ret != ETIMEDOUT)
		ret = pthread_cond_timedwait(&park.cond, &park.mtx, &deadline);
	if (park.parked) {
		pthread_mutex_unlock(&park.mtx);
		return 0;
	}
	/* a callback that starts from now on returns at once */
	park.released = true;
	pthread_mutex_unlock(&park.mtx);
	rte_eal_alarm_cancel(park_here, NULL);
	return -ETIMEDOUT;
}

static void
intr_unpark(void)
{
	pthread_mutex_lock(&park.mtx);
	park.released = true;
	pthread_cond_broadcast(&park.cond);
	pthread_mutex_unlock(&park.mtx);
}

int
app_ports_end(const uint16_t *ports, unsigned int nb, bool close, unsigned int timeout_ms)
{
	unsigned int i;
	int ret;

	ret = intr_park(timeout_ms);
	if (ret != 0)
		return ret;
	for (i = 0; i < nb; i++) {
		rte_eth_dev_stop(ports[i]);
		if (close)
			rte_eth_dev_close(ports[i]);
	}
	intr_unpark();
	return 0;
}
