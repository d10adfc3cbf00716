/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The interrupt thread's gate: where it parks, when it is let go, and how a
 * window waits for the bursts under way on the gated ports to end.
 */

/* rte_intr_instance_alloc() and its setters are experimental in 22.11:
 * drivers/net_pmd/meson.build allows their use */

#include <errno.h>
#include <inttypes.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_pause.h>

#include "dfi.h"
#include "intr_gate.h"
#include "net_log.h"
#include "queue.h"

/* How long a hold, or a send, waits for the thread to come back to the gate. */
#define GATE_WAIT_MS		100
/* Tries to take the gate's callback back from the interrupt thread as it
 * leaves it, UNREGISTER_SLEEP_US apart: 10 s in all, a callback of memif's
 * it may be in at the time included. */
#define UNREGISTER_TRIES	100000
#define UNREGISTER_SLEEP_US	100
/* The thread's spins on a lock or a burst under way before it sleeps
 * BACKOFF_US (gate_backoff()); a sender's on a closed window between its
 * sched_yield()s. */
#define BUSY_SPINS		256
#define BACKOFF_US		20
#define WAIT_SPINS		1024

static struct {
	pthread_mutex_t mtx;
	pthread_cond_t cond;		/* parked, holds or closing changed */
	struct rte_intr_handle *ih;	/* the eventfd the thread is called back on */
	int efd;
	bool parked;			/* the thread waits in gate_park() */
	bool closing;			/* the last port went: the thread goes for good */
	uint32_t holds;
	uint32_t nb_ports;
	uint64_t windows;		/* for the log at the end: how many, how long */
	uint64_t closed_tsc;		/* when the last window began */
	uint64_t closed_sum;		/* cycles the wire was closed, in all */
	uint64_t closed_max;
	struct dfi_port_rt *ports[RTE_MAX_ETHPORTS];
} gate = { .mtx = PTHREAD_MUTEX_INITIALIZER, .efd = -1 };

static pthread_once_t membarrier_once = PTHREAD_ONCE_INIT;
static bool membarrier_ok;

static void
membarrier_register(void)
{
	membarrier_ok = syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0,
				0) == 0;
	if (!membarrier_ok)
		NET_LOG(NOTICE, "no private expedited membarrier (%s): memif ports take their "
			"queue locks", strerror(errno));
}

bool
dfi_intr_gate_lockfree(void)
{
	pthread_once(&membarrier_once, membarrier_register);
	return membarrier_ok;
}

static void
deadline_after(struct timespec *ts, uint32_t ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_nsec += (long)(ms % 1000) * 1000000L;
	ts->tv_sec += ms / 1000 + ts->tv_nsec / 1000000000L;
	ts->tv_nsec %= 1000000000L;
}

/* Under mtx: a link coming up needs the thread often (memif's handshake is
 * a dozen messages), a link that is up only when it goes down. */
static uint32_t
gate_period_ms(void)
{
	uint32_t i;

	for (i = 0; i < gate.nb_ports; i++)
		if ((__atomic_load_n(&gate.ports[i]->link_epoch, __ATOMIC_ACQUIRE) & 1) == 0)
			return DFI_GATE_DOWN_MS;
	return DFI_GATE_UP_MS;
}

/*
 * The thread's waits for the data path spin a little, then sleep. The EAL
 * puts its control threads off the lcores, so on a host with no spare core
 * this thread shares a CPU with another process's poller, and the thread it
 * waits for may share its CPU with that process's own: two such waits that
 * spun (or sched_yield()ed, which CFS may ignore across processes) held
 * each other up until a scheduler tick. Measured with two fi_pingpong
 * processes over memif on 2 vCPUs: the gate took 2-13 ms to close, the
 * poller starved behind its rx lock meanwhile, and the peer, unanswered,
 * probed (design.md, "Bringing a memif link back").
 */
static inline void
gate_backoff(uint32_t spins)
{
	if (spins % BUSY_SPINS == 0)
		usleep(BACKOFF_US);
	else
		rte_pause();
}

/* A data path's lock, taken without starving behind it (see gate_backoff()). */
static void
gate_lock(rte_spinlock_t *lock)
{
	uint32_t spins;

	for (spins = 1; !rte_spinlock_trylock(lock); spins++)
		gate_backoff(spins);
}

/* Under mtx: no burst runs on a gated port until the thread parks again. */
static void
gate_close(void)
{
	struct dfi_port_rt *rt;
	uint32_t i, spins;

	for (i = 0; i < gate.nb_ports; i++) {
		rt = gate.ports[i];
		/* a locked port's bursts run under these, and look at intr_busy
		 * there: it never changes under a burst (a poller that answers
		 * ARP under the rx lock sends, and would wait for this thread) */
		gate_lock(&rt->rx_lock);
		gate_lock(&rt->tx_lock);
		__atomic_store_n(&rt->intr_busy, 1, __ATOMIC_RELAXED);
		rte_spinlock_unlock(&rt->tx_lock);
		rte_spinlock_unlock(&rt->rx_lock);
		if (i == 0)
			gate.closed_tsc = rte_get_timer_cycles();
	}
	if (!membarrier_ok)
		return;
	/* a lock-free port's thread marks wire_busy, then reads intr_busy, with
	 * no fence of its own: this one stands for it */
	syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
	for (i = 0; i < gate.nb_ports; i++)
		for (spins = 1; __atomic_load_n(&gate.ports[i]->wire_busy, __ATOMIC_ACQUIRE) != 0;
		     spins++)
			gate_backoff(spins);
}

/* In the EAL interrupt thread, called back on gate.efd: parks, then opens a
 * window until the thread is back here, after the events now pending. */
static void
gate_park(void *arg __rte_unused)
{
	struct timespec until;
	uint64_t n;
	uint32_t i;

	if (read(gate.efd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		NET_LOG(WARNING, "gate eventfd: %s", strerror(errno));
	pthread_mutex_lock(&gate.mtx);
	for (i = 0; i < gate.nb_ports; i++)
		__atomic_store_n(&gate.ports[i]->intr_busy, 0, __ATOMIC_RELEASE);
	if (gate.closed_tsc != 0) {
		n = rte_get_timer_cycles() - gate.closed_tsc;
		gate.closed_sum += n;
		gate.closed_max = RTE_MAX(gate.closed_max, n);
		gate.windows++;
	}
	gate.parked = true;
	pthread_cond_broadcast(&gate.cond);
	deadline_after(&until, gate_period_ms());
	while (!gate.closing) {
		if (gate.holds > 0)
			pthread_cond_wait(&gate.cond, &gate.mtx);
		else if (pthread_cond_timedwait(&gate.cond, &gate.mtx, &until) == ETIMEDOUT)
			break;
	}
	gate.parked = false;
	gate.closed_tsc = 0;
	if (!gate.closing)
		gate_close();
	pthread_mutex_unlock(&gate.mtx);
	if (gate.closing)
		return;
	n = 1;
	if (write(gate.efd, &n, sizeof(n)) != sizeof(n))
		NET_LOG(ERR, "gate eventfd: %s: the interrupt thread is no longer gated",
			strerror(errno));
}

/* Under mtx. */
static int
gate_install(void)
{
	pthread_condattr_t attr;
	uint64_t one = 1;
	int ret;

	gate.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (gate.efd < 0) {
		NET_LOG(ERR, "eventfd: %s", strerror(errno));
		return -FI_EIO;
	}
	gate.ih = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (gate.ih == NULL) {
		ret = -FI_ENOMEM;
		goto err_fd;
	}
	if (rte_intr_fd_set(gate.ih, gate.efd) != 0 ||
	    rte_intr_type_set(gate.ih, RTE_INTR_HANDLE_EXT) != 0) {
		ret = -FI_EIO;
		goto err_ih;
	}
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&gate.cond, &attr);
	pthread_condattr_destroy(&attr);
	gate.parked = false;
	gate.closing = false;
	gate.windows = 0;
	gate.closed_tsc = 0;
	gate.closed_sum = 0;
	gate.closed_max = 0;
	ret = rte_intr_callback_register(gate.ih, gate_park, NULL);
	if (ret != 0) {
		NET_LOG(ERR, "cannot register with the EAL interrupt thread: %s",
			rte_strerror(-ret));
		ret = -FI_EIO;
		goto err_cond;
	}
	if (write(gate.efd, &one, sizeof(one)) != sizeof(one)) {
		ret = -FI_EIO;
		goto err_cb;
	}
	dfi_intr_gate_lockfree();
	NET_LOG(INFO, "the EAL interrupt thread runs memif's control in windows, every %u ms "
		"(%u ms while a link is down)", DFI_GATE_UP_MS, DFI_GATE_DOWN_MS);
	return 0;
err_cb:
	rte_intr_callback_unregister(gate.ih, gate_park, NULL);
err_cond:
	pthread_cond_destroy(&gate.cond);
err_ih:
	rte_intr_instance_free(gate.ih);
	gate.ih = NULL;
err_fd:
	close(gate.efd);
	gate.efd = -1;
	return ret;
}

int
dfi_intr_gate_add(struct dfi_port_rt *rt)
{
	int ret = 0;

	pthread_mutex_lock(&gate.mtx);
	if (gate.nb_ports == RTE_DIM(gate.ports))
		ret = -FI_ENOSPC;	/* a port is added once: never with DPDK's port limit */
	else if (gate.ih == NULL)
		ret = gate_install();
	if (ret == 0) {
		/* the thread may be out of the gate now: closed until it parks */
		__atomic_store_n(&rt->intr_busy, gate.parked ? 0 : 1, __ATOMIC_RELEASE);
		gate.ports[gate.nb_ports++] = rt;
	}
	pthread_mutex_unlock(&gate.mtx);
	return ret;
}

void
dfi_intr_gate_remove(struct dfi_port_rt *rt)
{
	struct rte_intr_handle *ih;
	uint32_t i;
	int ret;

	pthread_mutex_lock(&gate.mtx);
	for (i = 0; i < gate.nb_ports && gate.ports[i] != rt; i++)
		;
	if (i < gate.nb_ports)
		gate.ports[i] = gate.ports[--gate.nb_ports];
	if (gate.nb_ports > 0 || gate.ih == NULL) {
		pthread_mutex_unlock(&gate.mtx);
		return;
	}
	gate.closing = true;
	pthread_cond_broadcast(&gate.cond);
	ih = gate.ih;
	pthread_mutex_unlock(&gate.mtx);
	/* waits for gate_park() to return, where it runs now, sleeping between
	 * tries: rte_intr_callback_unregister_sync() retries at once, holding the
	 * EAL's interrupt lock most of the time, and the thread that must retake
	 * that lock after our callback to end it could starve (it did under
	 * valgrind, whose threads take turns: the exit hung there) */
	for (i = 0; (ret = rte_intr_callback_unregister(ih, gate_park, NULL)) == -EAGAIN &&
		    i < UNREGISTER_TRIES; i++)
		usleep(UNREGISTER_SLEEP_US);
	pthread_mutex_lock(&gate.mtx);
	if (ret == -EAGAIN) {
		/* the thread is still in a callback: what it may touch stays */
		NET_LOG(ERR, "the interrupt thread did not leave its callback in %u s: the "
			"gate's eventfd and handle are left behind",
			UNREGISTER_TRIES * UNREGISTER_SLEEP_US / 1000000);
		gate.ih = NULL;
		gate.efd = -1;
		pthread_mutex_unlock(&gate.mtx);
		return;
	}
	if (ret < 0)
		NET_LOG(WARNING, "interrupt callback: %s", rte_strerror(-ret));
	NET_LOG(INFO, "the interrupt thread ran in %" PRIu64 " windows, each closing the wire "
		"for %.1f us on average, %.1f us at most", gate.windows,
		gate.windows > 0 ? (double)gate.closed_sum * 1e6 / (double)rte_get_timer_hz() /
				   (double)gate.windows : 0.0,
		(double)gate.closed_max * 1e6 / (double)rte_get_timer_hz());
	rte_intr_instance_free(gate.ih);
	gate.ih = NULL;
	close(gate.efd);
	gate.efd = -1;
	pthread_cond_destroy(&gate.cond);
	pthread_mutex_unlock(&gate.mtx);
}

bool
dfi_intr_gate_hold(void)
{
	struct timespec until;
	int ret = 0;
	bool parked;

	/* the thread itself would wait for itself */
	if (rte_thread_is_intr())
		return false;
	pthread_mutex_lock(&gate.mtx);
	if (gate.ih == NULL || gate.closing) {
		pthread_mutex_unlock(&gate.mtx);
		return false;
	}
	gate.holds++;
	deadline_after(&until, GATE_WAIT_MS);
	while (!gate.parked && ret != ETIMEDOUT)
		ret = pthread_cond_timedwait(&gate.cond, &gate.mtx, &until);
	parked = gate.parked;
	if (!parked)
		gate.holds--;
	pthread_mutex_unlock(&gate.mtx);
	return parked;
}

void
dfi_intr_gate_release(void)
{
	pthread_mutex_lock(&gate.mtx);
	gate.holds--;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.mtx);
}

bool
dfi_intr_gate_wait(struct dfi_port_rt *rt)
{
	uint64_t deadline;
	uint32_t spins;

	/* the thread would wait for itself */
	if (!rt->gated || rte_thread_is_intr())
		return false;
	deadline = rte_get_timer_cycles() + rte_get_timer_hz() * GATE_WAIT_MS / 1000;
	for (spins = 1; __atomic_load_n(&rt->intr_busy, __ATOMIC_ACQUIRE) != 0; spins++) {
		if (!__atomic_load_n(&rt->pmd_started, __ATOMIC_RELAXED))
			return false;
		if (spins % WAIT_SPINS == 0) {
			if (rte_get_timer_cycles() >= deadline)
				return false;
			/* the thread may need this CPU to get back */
			sched_yield();
		}
		rte_pause();
	}
	return __atomic_load_n(&rt->pmd_started, __ATOMIC_RELAXED);
}
