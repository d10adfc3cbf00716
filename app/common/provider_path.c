/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* FI_PROVIDER_PATH for the project's programs. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dfi_config.h"
#include "provider_path.h"

#define PROV_LIB	"libdpdk-fi.so"

void
app_provider_path(void)
{
	char exe[2048], dir[2100], lib[2200];
	char *slash;
	ssize_t n;

	if (getenv("FI_PROVIDER_PATH") != NULL)
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			snprintf(dir, sizeof(dir), "%s/../..", exe);
			snprintf(lib, sizeof(lib), "%s/" PROV_LIB, dir);
			if (access(lib, R_OK) == 0) {
				setenv("FI_PROVIDER_PATH", dir, 1);
				return;
			}
		}
	}
	setenv("FI_PROVIDER_PATH", DFI_INSTALL_PROVIDER_DIR, 1);
}
