/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * One process's part in the named-AV test (test/av_shared.sh), for an
 * FI_AV_TABLE AV, or an FI_AV_MAP one when a handle file is given:
 *
 *   av_shared create NAME N [FILE]  creates the AV, inserts N addresses,
 *                                   prints "ready", waits for a line on stdin,
 *                                   then checks that the entry another process
 *                                   added is there
 *   av_shared read NAME N [FILE]    opens it read-only (FI_READ) and checks them
 *   av_shared join NAME N [FILE]    opens it read-write and adds entry N,
 *                                   printing "added HANDLE"
 *
 * A table's handles are its indices. A map's are opaque, so the creator
 * removes and inserts entry 0 again (its handle then differs from its index)
 * and writes the N handles to FILE, one a line, then the stale handle of the
 * first entry 0; the others read them there. The creator's stdin line
 * carries the joiner's handle.
 *
 * Exit status 0 when every check passed.
 */

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>

#include "test_util.h"

static int failures;

#define CHECK(cond, what) do { \
	if (!(cond)) { \
		failures++; \
		fprintf(stderr, "FAILED: %s\n", what); \
	} \
} while (0)

static struct sockaddr_in
addr_of(uint32_t i)
{
	struct sockaddr_in s = { .sin_family = AF_INET };

	s.sin_addr.s_addr = htonl(0x0a030000u | (i + 1));
	s.sin_port = htons((uint16_t)(2000 + i));
	return s;
}

static int
lookup_is(struct fid_av *av, fi_addr_t fa, uint32_t i)
{
	struct sockaddr_in got, want = addr_of(i);
	size_t len = sizeof(got);

	return fi_av_lookup(av, fa, &got, &len) == 0 &&
	       got.sin_addr.s_addr == want.sin_addr.s_addr && got.sin_port == want.sin_port;
}

static void
check_entries(struct fid_av *av, const fi_addr_t *handles, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		CHECK(lookup_is(av, handles[i], i), "a shared entry reads back");
}

/*
 * fi_av(3) map_addr, as the bgq and opx providers lay it out: the region the
 * AV reports begins with the fi_addr_t of every insert, in insertion order
 * (a map's removed entry 0 first, its new handle after the others). Each
 * reads back its address. joined: the joiner's insert follows.
 */
static void
check_map_addr(const void *map_addr, const fi_addr_t *handles, uint32_t n, fi_addr_t stale,
	       bool map, bool joined, struct fid_av *av)
{
	const fi_addr_t *list = map_addr;
	uint32_t i, extra = map ? 1 : 0;

	CHECK(list != NULL, "map_addr is reported");
	if (list == NULL)
		return;
	CHECK(list[0] == (map ? stale : handles[0]), "map_addr: the first insert first");
	for (i = 1; i < n; i++)
		CHECK(list[i] == handles[i] && lookup_is(av, list[i], i),
		      "map_addr: the inserts in order, each its address");
	if (map)
		CHECK(list[n] == handles[0] && lookup_is(av, list[n], 0),
		      "map_addr: the insert again, after the others");
	if (joined)
		CHECK(list[n + extra] == handles[n] && lookup_is(av, list[n + extra], n),
		      "map_addr: another process's insert, after them");
}

/* The creator's handles, then the stale one, from FILE. */
static int
read_handles(const char *file, fi_addr_t *handles, uint32_t n, fi_addr_t *stale)
{
	FILE *f = fopen(file, "r");
	uint32_t i;
	int ok;

	if (f == NULL)
		return -1;
	for (i = 0, ok = 1; i <= n && ok; i++)
		ok = fscanf(f, "%" SCNx64, i < n ? &handles[i] : stale) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static int
write_handles(const char *file, const fi_addr_t *handles, uint32_t n, fi_addr_t stale)
{
	FILE *f = fopen(file, "w");
	uint32_t i;

	if (f == NULL)
		return -1;
	for (i = 0; i < n; i++)
		fprintf(f, "%" PRIx64 "\n", handles[i]);
	fprintf(f, "%" PRIx64 "\n", stale);
	return fclose(f);
}

/* Fills the AV; a map's entry 0 goes out and in again, for a handle that is
 * no index. */
static void
create(struct fid_av *av, fi_addr_t *handles, uint32_t n, const char *file, fi_addr_t *stale)
{
	struct sockaddr_in a;
	uint32_t i;

	for (i = 0; i < n; i++) {
		a = addr_of(i);
		CHECK(fi_av_insert(av, &a, 1, &handles[i], 0, NULL) == 1 &&
		      (file != NULL || handles[i] == i), "insert");
	}
	if (file == NULL)
		return;
	*stale = handles[0];
	a = addr_of(0);
	CHECK(fi_av_remove(av, stale, 1, 0) == 0, "remove");
	CHECK(fi_av_insert(av, &a, 1, &handles[0], 0, NULL) == 1 && handles[0] != *stale,
	      "insert again, with a new handle");
	CHECK(write_handles(file, handles, n, *stale) == 0, "write the handles");
}

int
main(int argc, char **argv)
{
	struct fi_av_attr attr = { .type = FI_AV_TABLE };
	const char *file = argc == 5 ? argv[4] : NULL;
	fi_addr_t *handles, stale = FI_ADDR_NOTAVAIL;
	struct test_domain td;
	struct sockaddr_in a;
	struct fid_av *av;
	char line[64];
	uint32_t n, i;
	int ret;

	if (argc != 4 && argc != 5)
		return 2;
	n = (uint32_t)strtoul(argv[3], NULL, 10);
	handles = calloc(n + 1, sizeof(*handles));
	if (handles == NULL)
		return 1;
	for (i = 0; i <= n; i++)
		handles[i] = i;
	test_env_setup(TEST_EAL_BASE " --vdev=net_null0");
	if (test_domain_open(&td, FI_EP_RDM, FI_SOCKADDR_IN, FI_MSG | FI_SHARED_AV) != 0)
		return 1;

	attr.name = argv[2];
	attr.count = n + 16;
	if (file != NULL)
		attr.type = FI_AV_MAP;
	if (strcmp(argv[1], "read") == 0)
		attr.flags = FI_READ;
	/* the others ask for the other type: a named AV keeps its creator's */
	if (strcmp(argv[1], "create") != 0)
		attr.type = attr.type == FI_AV_MAP ? FI_AV_TABLE : FI_AV_MAP;
	ret = fi_av_open(td.domain, &attr, &av, NULL);
	CHECK(ret == 0, "fi_av_open");
	if (ret != 0)
		return 1;
	CHECK(attr.type == (file != NULL ? FI_AV_MAP : FI_AV_TABLE), "the creator's type");
	if (strcmp(argv[1], "create") != 0 && file != NULL)
		CHECK(read_handles(file, handles, n, &stale) == 0, "read the handles");

	if (strcmp(argv[1], "create") == 0) {
		create(av, handles, n, file, &stale);
		check_map_addr(attr.map_addr, handles, n, stale, file != NULL, false, av);
		printf("ready\n");
		fflush(stdout);
		if (fgets(line, sizeof(line), stdin) == NULL ||
		    sscanf(line, "%" SCNx64, &handles[n]) != 1)
			failures++;
		check_entries(av, handles, n + 1);
		check_map_addr(attr.map_addr, handles, n, stale, file != NULL, true, av);
	} else if (strcmp(argv[1], "read") == 0) {
		check_entries(av, handles, n);
		check_map_addr(attr.map_addr, handles, n, stale, file != NULL, false, av);
		if (file != NULL)
			CHECK(!lookup_is(av, stale, 0), "a removed entry's handle stays dead");
		a = addr_of(n);
		CHECK(fi_av_insert(av, &a, 1, &handles[n], 0, NULL) == -FI_EACCES,
		      "read-only insert");
	} else {
		check_entries(av, handles, n);
		a = addr_of(n);
		/* table indices continue across processes */
		CHECK(fi_av_insert(av, &a, 1, &handles[n], 0, NULL) == 1 &&
		      (file != NULL || handles[n] == n), "shared insert");
		printf("added %" PRIx64 "\n", handles[n]);
	}
	CHECK(fi_close(&av->fid) == 0, "close");
	test_domain_close(&td);
	free(handles);
	printf("%s %s: %s\n", argv[1], argv[2], failures == 0 ? "ok" : "FAILED");
	return failures == 0 ? 0 : 1;
}
