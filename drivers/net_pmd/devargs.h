/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * A port's driver and device arguments (the "key=value,..." of its --vdev),
 * read for what a PMD does not report through ethdev: memif's ring buffer
 * size and role, af_packet's ring slot size.
 */

#ifndef _DFI_DEVARGS_H_
#define _DFI_DEVARGS_H_

#include <stdbool.h>
#include <stdint.h>

#include <rte_kvargs.h>

/** @return true when the port's driver is the named one ("net_memif"). */
bool dfi_driver_is(uint16_t port_id, const char *driver);

/**
 * Calls handler on the value of key in the port's device arguments; nothing
 * when the port has none or no such key.
 */
void dfi_devarg(uint16_t port_id, const char *key, arg_handler_t handler, void *arg);

/** An arg_handler_t: a decimal value from 1 to UINT32_MAX into *(uint32_t *)arg, else nothing. */
int dfi_devarg_u32(const char *key, const char *value, void *arg);

#endif /* _DFI_DEVARGS_H_ */
