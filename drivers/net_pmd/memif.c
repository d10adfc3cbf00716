/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* net_memif ports: their role and ring buffer size, read from their device
 * arguments, a client's start that keeps memif's refusals quiet and finds
 * the control channel it connected, and the rings' memory mapped ahead. */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <rte_ethdev.h>
#include <rte_log.h>

#include "devargs.h"
#include "memif.h"
#include "net_log.h"
#include "wire.h"

/* drivers/net/memif/rte_eth_memif.h */
#define MEMIF_DRIVER		"net_memif"
#define MEMIF_ROLE_ARG		"role"
#define MEMIF_BSIZE_ARG		"bsize"
#define MEMIF_BSIZE_DEFAULT	2048
#define MEMIF_SOCKET_ARG	"socket"
#define MEMIF_SOCKET_DEFAULT	"/run/memif.sock"
#define MEMIF_LOGTYPE		"pmd.net.memif"
/* the name memif gives the memfd of its rings and buffers, in /proc/self/maps */
#define MEMIF_REGION_NAME	"memif_region_"
/* the smallest page: each one a read (dfi_memif_prefault()) */
#define PREFAULT_STRIDE		4096
/* a memif socket's name, as long as a Unix socket address holds */
#define SOCKET_PATH_MAX		sizeof(((struct sockaddr_un *)NULL)->sun_path)

static int
role_is_client(const char *key __rte_unused, const char *value, void *arg)
{
	/* memif takes "slave" for "client" too */
	*(bool *)arg = strcmp(value, "client") == 0 || strcmp(value, "slave") == 0;
	return 0;
}

bool
dfi_memif_is(uint16_t port_id)
{
	return dfi_driver_is(port_id, MEMIF_DRIVER);
}

uint16_t
dfi_memif_mtu(uint16_t port_id)
{
	uint32_t bsize = MEMIF_BSIZE_DEFAULT;

	dfi_devarg(port_id, MEMIF_BSIZE_ARG, dfi_devarg_u32, &bsize);
	return bsize > RTE_ETHER_HDR_LEN ?
	       (uint16_t)RTE_MIN(bsize - RTE_ETHER_HDR_LEN, (uint32_t)DFI_JUMBO_MTU) : 0;
}

bool
dfi_memif_is_client(uint16_t port_id)
{
	bool client = true;	/* memif's default role */

	if (!dfi_memif_is(port_id))
		return false;
	dfi_devarg(port_id, MEMIF_ROLE_ARG, role_is_client, &client);
	return client;
}

static int
devarg_str(const char *key __rte_unused, const char *value, void *arg)
{
	snprintf(arg, SOCKET_PATH_MAX, "%s", value);
	return 0;
}

/*
 * The inode of descriptor fd when it is a socket connected to the memif
 * socket named path, in the abstract namespace (memif's default) or the
 * file system; else 0.
 */
static uint64_t
cc_inode(int fd, const char *path)
{
	struct sockaddr_un peer;
	socklen_t len = sizeof(peer);
	const char *name = peer.sun_path;
	size_t name_len;
	struct stat st;

	if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode) ||
	    getpeername(fd, (struct sockaddr *)&peer, &len) != 0 || peer.sun_family != AF_UNIX ||
	    len <= offsetof(struct sockaddr_un, sun_path))
		return 0;
	name_len = len - offsetof(struct sockaddr_un, sun_path);
	if (name[0] == '\0') {
		name++;
		name_len--;
	}
	name_len = strnlen(name, name_len);
	return name_len == strlen(path) && memcmp(name, path, name_len) == 0 ? st.st_ino : 0;
}

/* Calls fn on each socket of the process connected to path, until it returns true. */
static void
cc_each(const char *path, bool (*fn)(int fd, uint64_t ino, void *arg), void *arg)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *de;
	uint64_t ino;
	int fd;

	if (dir == NULL)
		return;
	while ((de = readdir(dir)) != NULL) {
		fd = atoi(de->d_name);
		if (de->d_name[0] < '0' || de->d_name[0] > '9' || fd == dirfd(dir))
			continue;
		ino = cc_inode(fd, path);
		if (ino != 0 && fn(fd, ino, arg))
			break;
	}
	closedir(dir);
}

/* what the start's search knows: the sockets there were before, the new one */
struct cc_search {
	uint64_t before[DFI_MEMIF_CC_MAX];
	uint32_t nb_before;
	struct dfi_memif_cc *cc;
};

static bool
cc_note_before(int fd __rte_unused, uint64_t ino, void *arg)
{
	struct cc_search *s = arg;

	if (s->nb_before < DFI_MEMIF_CC_MAX)
		s->before[s->nb_before++] = ino;
	return false;
}

static bool
cc_take_new(int fd, uint64_t ino, void *arg)
{
	struct cc_search *s = arg;
	uint32_t i;

	for (i = 0; i < s->nb_before; i++)
		if (s->before[i] == ino)
			return false;
	s->cc->fd = fd;
	s->cc->ino = ino;
	return true;
}

/* one client start at a time: a socket another port's start connected
 * meanwhile would pass for this one's */
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

int
dfi_memif_client_start(uint16_t port_id, struct dfi_memif_cc *cc)
{
	int type = rte_log_register(MEMIF_LOGTYPE);
	int level = type >= 0 ? rte_log_get_level(type) : -1;
	struct cc_search search = { .nb_before = 0, .cc = cc };
	char path[SOCKET_PATH_MAX] = MEMIF_SOCKET_DEFAULT;
	int ret;

	cc->fd = -1;
	cc->ino = 0;
	dfi_devarg(port_id, MEMIF_SOCKET_ARG, devarg_str, path);
	pthread_mutex_lock(&start_lock);
	/* other ports of the process may be connected to the same socket */
	cc_each(path, cc_note_before, &search);
	if (level >= 0)
		rte_log_set_level(type, RTE_LOG_CRIT);
	ret = rte_eth_dev_start(port_id);
	if (level >= 0)
		rte_log_set_level(type, (uint32_t)level);
	if (ret == 0 && search.nb_before < DFI_MEMIF_CC_MAX)
		cc_each(path, cc_take_new, &search);
	pthread_mutex_unlock(&start_lock);
	return ret;
}

bool
dfi_memif_cc_closed(const struct dfi_memif_cc *cc)
{
	struct stat st;

	if (cc->fd < 0)
		return false;
	/* a descriptor memif closed may have been given to another file */
	return fstat(cc->fd, &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_ino != cc->ino;
}

/*
 * memif copies each frame into its ring slot's buffer in a shared memfd,
 * whose pages the kernel maps on first touch; a slot's later pages are first
 * touched when a frame first reaches them, so every new frame size past a
 * page boundary paid a fault of 5-40 us on each side, a quarter of the
 * slots at a time (Debian's fi_pingpong -S all: 768 B and 2-6 KiB took 2-3
 * times their neighbours). The region is memif's own, so it is found by the
 * name memif gives it; a region being unmapped meanwhile (the peer gone)
 * only fails its madvise(). Mapped so, a page's first access still cost 6-7
 * us in this project's VM, whose hypervisor keeps page tables of its own and
 * fills them at a guest's first access (a read after MADV_POPULATE_WRITE:
 * 6.6 us a page, then 0.02): 128-slot rings met each new frame size of
 * fi_pingpong -S all with a pause of ~15 us at most of their first 200
 * round trips (768 B and 2-6 KiB took 3-5 times their neighbours). A read
 * of each page takes those accesses now.
 */
int
dfi_memif_prefault(const char *port_name, bool touch)
{
	char line[PATH_MAX + 128], perms[5];
	unsigned long lo, hi;
	int nb = 0, err = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	if (f == NULL) {
		err = errno;
		goto err_log;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strstr(line, MEMIF_REGION_NAME) == NULL ||
		    sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) != 3 || perms[1] != 'w' ||
		    perms[3] != 's')
			continue;
		if (madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE) != 0) {
			err = errno;
			continue;
		}
		nb++;
		for (; touch && lo < hi; lo += PREFAULT_STRIDE)
			(void)*(volatile const uint8_t *)lo;
	}
	fclose(f);
	if (nb == 0 && err != 0)
		goto err_log;
	NET_LOG(DEBUG, "%s: %d memif region(s) mapped ahead", port_name, nb);
	return nb;
err_log:
	/* EINVAL: a kernel before 5.14 */
	NET_LOG(INFO, "%s: memif's rings not mapped ahead (%s): a frame that first reaches "
		"a page of them takes a page fault", port_name, strerror(err));
	return -err;
}
