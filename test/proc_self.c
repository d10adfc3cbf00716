/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* The process's threads and libraries, as proc_self.h says. */

#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "proc_self.h"

int
proc_self_threads(int (*fn)(const char *task_dir, const char *name, void *arg), void *arg)
{
	char dir_path[300], path[320], name[64];
	struct dirent *de;
	int ret = 0;
	DIR *dir;
	FILE *f;

	dir = opendir("/proc/self/task");
	if (dir == NULL)
		return -1;
	while (ret == 0 && (de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(dir_path, sizeof(dir_path), "/proc/self/task/%s", de->d_name);
		snprintf(path, sizeof(path), "%s/comm", dir_path);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(name, sizeof(name), f) == NULL)
			name[0] = '\0';
		fclose(f);
		name[strcspn(name, "\n")] = '\0';
		ret = fn(dir_path, name, arg);
	}
	closedir(dir);
	return ret;
}

struct library_find {
	const char *lib;
	void *handle;
};

static int
library_match(struct dl_phdr_info *info, size_t size, void *data)
{
	struct library_find *find = data;

	(void)size;
	if (strstr(info->dlpi_name, find->lib) == NULL)
		return 0;
	find->handle = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
	return 1;
}

void *
proc_self_library(const char *lib)
{
	struct library_find find = { .lib = lib, .handle = NULL };

	dl_iterate_phdr(library_match, &find);
	return find.handle;
}
