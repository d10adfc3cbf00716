/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Where the project's programs tell libfabric to find the provider. */

#ifndef _APP_PROVIDER_PATH_H_
#define _APP_PROVIDER_PATH_H_

/**
 * Sets FI_PROVIDER_PATH, unless the user did, to the build tree's
 * libdpdk-fi.so when the program runs from the build tree
 * (app/<name>/<name> next to ../../libdpdk-fi.so), else to the installed
 * provider directory.
 */
void app_provider_path(void);

#endif /* _APP_PROVIDER_PATH_H_ */
