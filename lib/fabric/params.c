/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* The table of FI_DPDK_* parameters and their typed accessors. */

#include <ctype.h>
#include <stdio.h>

#include "dfi.h"
#include "params.h"

struct dfi_param {
	const char *name;
	enum fi_param_type type;
	const char *help;
};

static const struct dfi_param dfi_params[DFI_PARAM_COUNT] = {
	[DFI_PARAM_EAL_ARGS] = {
		"eal_args", FI_PARAM_STRING,
		"DPDK EAL arguments used when the provider initialises DPDK itself, "
		"e.g. \"--no-huge -m 512 --vdev=net_memif0\"; quotes group words. "
		"Ignored when the application has already called rte_eal_init(). "
		"Arguments that make DPDK exit (-h, --help, --log-level=help) are "
		"refused; a refused or failed start means no dpdk domain, said on "
		"standard error. Default: the calling thread's CPUs, --in-memory, "
		"or --no-huge -m 512 --no-shconf when no hugepage is free. With "
		"-l, -c or --lcores the calling thread stays pinned to DPDK's main "
		"lcore, else it gets back the CPUs it had. Setting "
		"it asks for dpdk: without it, FI_PROVIDER or hints naming dpdk, "
		"or an EAL of the application's, DPDK is not started."
	},
	[DFI_PARAM_IPV4] = {
		"ipv4", FI_PARAM_STRING,
		"IPv4 addresses of ports without a kernel interface, as a comma "
		"separated list of <port name or id>=<a.b.c.d>[/<prefix>][@<gateway>] "
		"(prefix defaults to 24). Ports with neither get a 169.254/16 "
		"link-local address derived from their MAC. An optional @<gateway> "
		"(same network) is where off-link destinations go."
	},
	[DFI_PARAM_ENCAP] = {
		"encap", FI_PARAM_STRING,
		"Encapsulation of the domains opened from now on: udp (IPv4/UDP, "
		"routable, the default) or eth (raw Ethernet, EtherType 0x88b5). "
		"FI_ADDR_DPDK addresses always use eth."
	},
	[DFI_PARAM_MBUFS] = {
		"mbufs", FI_PARAM_INT,
		"mbufs in each port's pool (default 16383)."
	},
	[DFI_PARAM_STEER_QUEUES] = {
		"steer_queues", FI_PARAM_INT,
		"Queue pairs a port dedicates to endpoints when its PMD steers with "
		"rte_flow (default 8, 0 disables); elsewhere endpoints share queue 0."
	},
	[DFI_PARAM_LCORE_THREADS] = {
		"lcore_threads", FI_PARAM_INT,
		"1: an application thread that drives the provider becomes a DPDK "
		"lcore (rte_thread_register()) the first time it does, so that its "
		"mbufs come from a cache of its own rather than the pool's shared "
		"ring; 0: never. Default 1 when the provider started DPDK, 0 when the "
		"application did (registering disables DPDK's multi-process)."
	},
	[DFI_PARAM_FAULT] = {
		"fault", FI_PARAM_STRING,
		"Fault injection on every port, for tests: seed=N and "
		"[tx_|rx_](drop|dup|reorder|corrupt)=P (P a probability), comma "
		"separated, e.g. \"seed=7,drop=0.05,rx_reorder=0.02\". Default: none."
	},
	[DFI_PARAM_CRC] = {
		"crc", FI_PARAM_STRING,
		"CRC32C on reliable (FI_EP_RDM) packets: on, off, or auto (the "
		"default): on for ports without an Ethernet FCS (virtual devices) "
		"and whenever faults are injected, off on physical NICs."
	},
	[DFI_PARAM_RDM_TIMEOUT_MS] = {
		"rdm_timeout_ms", FI_PARAM_INT,
		"Milliseconds a peer may stay silent while operations with it are "
		"under way (FI_EP_MSG: while connected) before they fail with "
		"FI_ETIMEDOUT (default 30000)."
	},
	[DFI_PARAM_RDM_PTO_MIN_US] = {
		"rdm_pto_min_us", FI_PARAM_INT,
		"Smallest probe timeout in microseconds: a lost packet is sent "
		"again after twice the measured round trip, never sooner than "
		"this (default 5)."
	},
	[DFI_PARAM_RDM_WINDOW] = {
		"rdm_window", FI_PARAM_INT,
		"Packets in flight per peer and direction, a power of 2 from 16 to "
		"4096 (default 256)."
	},
	[DFI_PARAM_RDM_AUTOCORK] = {
		"rdm_autocork", FI_PARAM_INT,
		"With this many packets or more in flight to a peer, a small "
		"message posted without FI_MORE waits, as with FI_MORE, for the "
		"next posts to fill a packet with it or for the next progress call "
		"(0 to 4096; 0: never; default 8)."
	},
	[DFI_PARAM_CM_TIMEOUT_MS] = {
		"cm_timeout_ms", FI_PARAM_INT,
		"Milliseconds fi_connect() and fi_accept() wait for the other side "
		"before the connection fails with FI_ETIMEDOUT (default 5000)."
	},
	[DFI_PARAM_CM_BACKLOG] = {
		"cm_backlog", FI_PARAM_INT,
		"Connection requests a listening passive endpoint keeps waiting for "
		"fi_accept() or fi_reject(); more are refused (default 128)."
	},
	[DFI_PARAM_WATCHDOG_MAX_US] = {
		"watchdog_max_us", FI_PARAM_INT,
		"Longest nap, in microseconds, of a domain's progress watchdog "
		"(not FI_THREAD_DOMAIN) while the application progresses its "
		"endpoints itself and the CPUs are not crowded: its naps double up "
		"to this, and come back to 1 ms at the first endpoint left alone. "
		"1000 to 100000 (default 8000; 1000: a look every millisecond)."
	},
	[DFI_PARAM_WATCHDOG_CPUS] = {
		"watchdog_cpus", FI_PARAM_INT,
		"CPUs the watchdog takes the application's threads to share: while "
		"more threads than this plus one are runnable besides it "
		"(/proc/loadavg), some may be off their CPU, and its looks, which "
		"stand in for them, stay every millisecond. 1 to 4096 (default: the "
		"machine's online CPUs, not a container's CPU quota: set it there)."
	},
};

void
dfi_params_define(void)
{
	int i;

	for (i = 0; i < DFI_PARAM_COUNT; i++)
		fi_param_define(&dfi_prov, dfi_params[i].name, dfi_params[i].type,
				"%s", dfi_params[i].help);
}

const char *
dfi_param_str(enum dfi_param_id id)
{
	char *value = NULL;

	if (fi_param_get_str(&dfi_prov, dfi_params[id].name, &value) != 0 ||
	    value == NULL || value[0] == '\0')
		return NULL;
	return value;
}

long
dfi_param_int(enum dfi_param_id id, long def, long min, long max)
{
	char env[64];
	int value;

	if (fi_param_get_int(&dfi_prov, dfi_params[id].name, &value) != 0)
		return def;
	if (value < min || value > max) {
		DFI_WARN(FI_LOG_CORE, "%s=%d is outside [%ld, %ld]",
			 dfi_param_env_name(id, env, sizeof(env)), value, min, max);
		return -1;
	}
	return value;
}

const char *
dfi_param_env_name(enum dfi_param_id id, char *buf, size_t len)
{
	size_t i, n;

	n = (size_t)snprintf(buf, len, "FI_%s_%s", DFI_PROV_NAME, dfi_params[id].name);
	for (i = 0; i < n && i < len; i++)
		buf[i] = (char)toupper((unsigned char)buf[i]);
	return buf;
}
