/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * What the process itself holds, as the tests and the modules they preload
 * into other programs ask it: its threads, by name, and the libraries it
 * loaded. Plain libc, for modules that link nothing of the project's.
 */

#ifndef _DFI_PROC_SELF_H_
#define _DFI_PROC_SELF_H_

/**
 * Calls fn for each of the process's threads, with its directory under
 * /proc/self/task and its name (comm), until fn returns non-zero.
 *
 * @return what the last fn returned, or 0 (-1 when the threads cannot be read)
 */
int proc_self_threads(int (*fn)(const char *task_dir, const char *name, void *arg),
		      void *arg);

/**
 * @return a handle (dlopen() RTLD_NOLOAD, for dlsym() and dlclose()) on the
 *   loaded library whose path contains lib ("/librte_eal.so"), or NULL when
 *   none is loaded. It finds a library a dlopen()ed provider brought, which
 *   the global scope (RTLD_NEXT, RTLD_DEFAULT) does not hold.
 */
void *proc_self_library(const char *lib);

#endif /* _DFI_PROC_SELF_H_ */
