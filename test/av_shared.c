/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * One process's part in the named-AV test (test/av_shared.sh):
 *
 *   av_shared create NAME N   creates the AV, inserts N addresses, prints
 *                             "ready", waits for a line on stdin, then checks
 *                             that the entry another process added is there
 *   av_shared read NAME N     opens it read-only (FI_READ) and checks them
 *   av_shared join NAME N     opens it read-write and adds entry N
 *
 * Exit status 0 when every check passed.
 */

#include <arpa/inet.h>
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

static void
check_entries(struct fid_av *av, uint32_t from, uint32_t to)
{
	struct sockaddr_in got, want;
	size_t len;
	uint32_t i;

	for (i = from; i < to; i++) {
		want = addr_of(i);
		len = sizeof(got);
		CHECK(fi_av_lookup(av, i, &got, &len) == 0 &&
		      got.sin_addr.s_addr == want.sin_addr.s_addr &&
		      got.sin_port == want.sin_port, "a shared entry reads back");
	}
}

int
main(int argc, char **argv)
{
	struct fi_av_attr attr = { .type = FI_AV_TABLE };
	struct test_domain td;
	struct sockaddr_in a;
	struct fid_av *av;
	fi_addr_t fa;
	char line[16];
	uint32_t n, i;
	int ret;

	if (argc != 4)
		return 2;
	n = (uint32_t)strtoul(argv[3], NULL, 10);
	test_env_setup(TEST_EAL_BASE " --vdev=net_null0");
	if (test_domain_open(&td, FI_EP_RDM, FI_SOCKADDR_IN, FI_MSG | FI_SHARED_AV) != 0)
		return 1;

	attr.name = argv[2];
	attr.count = n + 16;
	if (strcmp(argv[1], "read") == 0)
		attr.flags = FI_READ;
	ret = fi_av_open(td.domain, &attr, &av, NULL);
	CHECK(ret == 0, "fi_av_open");
	if (ret != 0)
		return 1;

	if (strcmp(argv[1], "create") == 0) {
		for (i = 0; i < n; i++) {
			a = addr_of(i);
			CHECK(fi_av_insert(av, &a, 1, &fa, 0, NULL) == 1 && fa == i, "insert");
		}
		printf("ready\n");
		fflush(stdout);
		if (fgets(line, sizeof(line), stdin) == NULL)
			failures++;
		check_entries(av, 0, n + 1);
	} else if (strcmp(argv[1], "read") == 0) {
		check_entries(av, 0, n);
		a = addr_of(n);
		CHECK(fi_av_insert(av, &a, 1, &fa, 0, NULL) == -FI_EACCES, "read-only insert");
	} else {
		check_entries(av, 0, n);
		a = addr_of(n);
		/* table indices continue across processes */
		CHECK(fi_av_insert(av, &a, 1, &fa, 0, NULL) == 1 && fa == n, "shared insert");
	}
	CHECK(fi_close(&av->fid) == 0, "close");
	test_domain_close(&td);
	printf("%s %s: %s\n", argv[1], argv[2], failures == 0 ? "ok" : "FAILED");
	return failures == 0 ? 0 : 1;
}
