/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * A module preloaded (LD_PRELOAD) into a program with memif ports: the EAL
 * interrupt thread takes DFI_INTR_SLOW_MS (default 200) longer to see a
 * memif control channel end (recvmsg() returning 0 on its socket), as it
 * may on a loaded host; the program's rte_eth_dev_stop() calls start
 * STOP_LAG_US late, long enough for that thread to have seen a peer leave
 * just before; and the process, at its exit, waits for the thread to be
 * done, as a program that goes on after its close would. A peer that leaves
 * as the program stops and closes its port then finds memif's handler in
 * the middle of its disconnect: the window app/common/intr_park.h closes,
 * made wide enough to hit every time.
 */

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_ethdev.h>

#include "proc_self.h"

/* what memif's handler does after the recvmsg(), with room to spare */
#define HANDLER_US	50000
#define STOP_LAG_US	20000

typedef ssize_t (*recvmsg_fn)(int, struct msghdr *, int);
typedef int (*stop_fn)(uint16_t);

/* the interrupt thread's recvmsg()s slowed, and those over */
static int slowed;
static int done;

ssize_t
recvmsg(int fd, struct msghdr *msg, int flags)
{
	static recvmsg_fn next;
	const char *ms = getenv("DFI_INTR_SLOW_MS");
	char name[16];
	ssize_t ret;

	if (next == NULL)
		next = (recvmsg_fn)dlsym(RTLD_NEXT, "recvmsg");
	ret = next(fd, msg, flags);
	if (ret == 0 && pthread_getname_np(pthread_self(), name, sizeof(name)) == 0 &&
	    strcmp(name, "eal-intr-thread") == 0) {
		__atomic_fetch_add(&slowed, 1, __ATOMIC_RELAXED);
		usleep((useconds_t)(ms != NULL ? atoi(ms) : 200) * 1000);
		__atomic_fetch_add(&done, 1, __ATOMIC_RELEASE);
	}
	return ret;
}

int
rte_eth_dev_stop(uint16_t port_id)
{
	static stop_fn next;
	void *ethdev;

	/* the provider's calls bind to this module even where the ethdev
	 * library they mean is not in the global scope, RTLD_NEXT's */
	if (next == NULL) {
		ethdev = proc_self_library("/librte_ethdev.so");
		if (ethdev == NULL)
			abort();
		*(void **)&next = dlsym(ethdev, "rte_eth_dev_stop");
	}
	usleep(STOP_LAG_US);
	return next(port_id);
}

__attribute__((destructor)) static void
intr_slow_exit(void)
{
	const char *log = getenv("DFI_INTR_SLOW_LOG");
	void *ethdev;
	FILE *f;
	int i;

	/* bounded: 10 s */
	for (i = 0; i < 10000 && __atomic_load_n(&done, __ATOMIC_ACQUIRE) <
			__atomic_load_n(&slowed, __ATOMIC_RELAXED); i++)
		usleep(1000);
	if (__atomic_load_n(&slowed, __ATOMIC_RELAXED) > 0)
		usleep(HANDLER_US);
	/* for the test, from the DPDK programs among those the module is in:
	 * the window was there to hit */
	ethdev = proc_self_library("/librte_ethdev.so");
	if (ethdev == NULL)
		return;
	dlclose(ethdev);
	if (log != NULL && (f = fopen(log, "a")) != NULL) {
		fprintf(f, "%d slowed %d\n", (int)getpid(), slowed);
		fclose(f);
	}
}
