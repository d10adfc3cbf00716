/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The provider's run-time parameters (FI_DPDK_* environment variables).
 * They are declared once with fi_param_define() from fi_prov_ini() and read
 * where they are used, so that `fi_info -e` lists all of them.
 */

#ifndef _DFI_PARAMS_H_
#define _DFI_PARAMS_H_

#include <stddef.h>

enum dfi_param_id {
	DFI_PARAM_EAL_ARGS,
	DFI_PARAM_IPV4,
	DFI_PARAM_ENCAP,
	DFI_PARAM_MBUFS,
	DFI_PARAM_STEER_QUEUES,
	DFI_PARAM_LCORE_THREADS,
	DFI_PARAM_FAULT,
	DFI_PARAM_CRC,
	DFI_PARAM_RDM_TIMEOUT_MS,
	DFI_PARAM_RDM_PTO_MIN_US,
	DFI_PARAM_RDM_WINDOW,
	DFI_PARAM_RDM_AUTOCORK,
	DFI_PARAM_CM_TIMEOUT_MS,
	DFI_PARAM_CM_BACKLOG,
	DFI_PARAM_WATCHDOG_MAX_US,
	DFI_PARAM_WATCHDOG_CPUS,
	DFI_PARAM_COUNT
};

/** Declares every parameter; called once from fi_prov_ini(). */
void dfi_params_define(void);

/**
 * @return the value of a string parameter, or NULL when it is unset or empty.
 * The string belongs to the environment; do not free it.
 */
const char *dfi_param_str(enum dfi_param_id id);

/**
 * @return the value of an integer parameter, def when unset; -1 (logged)
 *   when it is not an integer in [min, max].
 */
long dfi_param_int(enum dfi_param_id id, long def, long min, long max);

/** @return the environment variable name of a parameter (FI_DPDK_...). */
const char *dfi_param_env_name(enum dfi_param_id id, char *buf, size_t len);

#endif /* _DFI_PARAMS_H_ */
