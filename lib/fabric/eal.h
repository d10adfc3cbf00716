/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The DPDK EAL as the provider sees it: started lazily on first need, once
 * per process, or borrowed from an application that started it itself.
 */

#ifndef _DFI_EAL_H_
#define _DFI_EAL_H_

#include <stdbool.h>

/**
 * Makes sure the EAL is usable, initialising it on the first call.
 *
 * @return 0 when the EAL is up (ours or the application's); -FI_ENODATA when
 *   it could not be started, in which case the reason was logged once and
 *   every later call fails the same way without retrying; -FI_ENODATA too
 *   in a process forked after the EAL started (dfi_eal_forked()).
 */
int dfi_eal_ensure(void);

/**
 * @return true when an EAL runs in the process, the provider's or the
 *   application's. Starts nothing and touches no device: it may be asked in
 *   every process that loads the provider.
 */
bool dfi_eal_started(void);

/**
 * @return true in a process forked from the one whose EAL runs: the provider
 *   refuses to work there (dfi_eal_ensure() fails) and must not touch the
 *   ports it inherited, which are its parent's.
 */
bool dfi_eal_forked(void);

/** @return true when the provider itself started the EAL. */
bool dfi_eal_owned(void);

/** Releases an EAL the provider started; called from the provider cleanup. */
void dfi_eal_fini(void);

#endif /* _DFI_EAL_H_ */
