/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Guards (lib/fabric/guard.h), the locks of FI_THREAD_FID and
 * FI_THREAD_ENDPOINT domains: a group's lock is its root's, the domain's
 * guard stays its group's root, a provider thread's trylock never takes a
 * held lock nor one where the application serialises, and a join made while
 * both groups are busy leaves one lock serialising both: two threads bump
 * one plain counter under their own guards once the join is seen, and no
 * bump is lost. References free each guard once (run under ASan).
 */

#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rdma/fi_errno.h>

#include "guard.h"
#include "test_util.h"

#define BUMPS	1000000	/* each thread's after the join */

static void
test_alone_and_unlocked(void)
{
	struct dfi_guard *g, *none;

	CU_ASSERT_EQUAL_FATAL(dfi_guard_new(true, false, &g), 0);
	CU_ASSERT_PTR_EQUAL(dfi_guard_root(g), g);
	CU_ASSERT_PTR_EQUAL(dfi_guard_lock(g), g);
	/* held: a provider thread's look goes away */
	CU_ASSERT_PTR_NULL(dfi_guard_trylock(g));
	dfi_guard_unlock(g);
	CU_ASSERT_PTR_EQUAL(dfi_guard_trylock(g), g);
	dfi_guard_unlock(g);
	/* the application serialises: the lock is no lock, and no helper enters */
	CU_ASSERT_EQUAL_FATAL(dfi_guard_new(false, true, &none), 0);
	CU_ASSERT_PTR_EQUAL(dfi_guard_lock(none), none);
	CU_ASSERT_PTR_EQUAL(dfi_guard_lock(none), none);
	CU_ASSERT_PTR_NULL(dfi_guard_trylock(none));
	dfi_guard_put(none);
	dfi_guard_put(g);
}

static void
test_join_roots(void)
{
	struct dfi_guard *dom, *a, *b, *c;

	CU_ASSERT_EQUAL_FATAL(dfi_guard_new(true, true, &dom), 0);
	CU_ASSERT_EQUAL_FATAL(dfi_guard_new(true, false, &a), 0);
	CU_ASSERT_EQUAL_FATAL(dfi_guard_new(true, false, &b), 0);
	CU_ASSERT_EQUAL_FATAL(dfi_guard_new(true, false, &c), 0);
	dfi_guard_join(a, b);
	CU_ASSERT(dfi_guard_same(a, b));
	CU_ASSERT(!dfi_guard_same(a, c));
	CU_ASSERT_PTR_EQUAL(dfi_guard_root(b), a);
	/* joined the other way round, the domain's guard is still the root */
	dfi_guard_join(b, dom);
	CU_ASSERT_PTR_EQUAL(dfi_guard_root(a), dom);
	CU_ASSERT_PTR_EQUAL(dfi_guard_root(b), dom);
	dfi_guard_join(c, a);
	CU_ASSERT_PTR_EQUAL(dfi_guard_root(c), dom);
	/* one group, one lock: held through one, the others' are taken */
	CU_ASSERT_PTR_EQUAL(dfi_guard_lock(c), dom);
	CU_ASSERT_PTR_NULL(dfi_guard_trylock(a));
	CU_ASSERT_PTR_NULL(dfi_guard_trylock(dom));
	dfi_guard_unlock(dom);
	/* joined again: nothing changes */
	dfi_guard_join(a, c);
	CU_ASSERT_PTR_EQUAL(dfi_guard_root(a), dom);
	/* the objects close in any order; the root goes last (ASan) */
	dfi_guard_put(dom);
	dfi_guard_put(b);
	CU_ASSERT_PTR_EQUAL(dfi_guard_root(c), dom);
	dfi_guard_put(a);
	dfi_guard_put(c);
}

struct bumper {
	pthread_t tid;
	struct dfi_guard *g;
	uint64_t before;	/* rounds before the join was seen */
	uint64_t seen;		/* bumps made once it was */
};

static struct dfi_guard *ga, *gb;
static uint64_t shared;		/* plain: only one lock may protect it */
static uint32_t joined;

static void *
bump_run(void *arg)
{
	struct bumper *b = arg;
	struct dfi_guard *held;

	while (b->seen < BUMPS) {
		held = dfi_guard_lock(b->g);
		/* seen under a lock taken after the join: the group's root */
		if (__atomic_load_n(&joined, __ATOMIC_ACQUIRE)) {
			shared++;
			b->seen++;
		} else {
			__atomic_store_n(&b->before, b->before + 1, __ATOMIC_RELAXED);
		}
		dfi_guard_unlock(held);
	}
	return NULL;
}

static void
test_join_while_busy(void)
{
	struct bumper b[2] = { { .g = NULL } };
	struct dfi_guard *held;
	int k;

	CU_ASSERT_EQUAL_FATAL(dfi_guard_new(true, false, &ga), 0);
	CU_ASSERT_EQUAL_FATAL(dfi_guard_new(true, false, &gb), 0);
	b[0].g = ga;
	b[1].g = gb;
	shared = 0;
	for (k = 0; k < 2; k++)
		CU_ASSERT_EQUAL_FATAL(pthread_create(&b[k].tid, NULL, bump_run, &b[k]), 0);
	/* both groups busy, each under its own lock: the join waits its turn */
	while (__atomic_load_n(&b[0].before, __ATOMIC_RELAXED) < 1000 ||
	       __atomic_load_n(&b[1].before, __ATOMIC_RELAXED) < 1000)
		sched_yield();
	held = dfi_guard_lock(gb);
	CU_ASSERT_PTR_EQUAL(held, gb);
	dfi_guard_unlock(held);
	dfi_guard_join(ga, gb);
	__atomic_store_n(&joined, 1, __ATOMIC_RELEASE);
	for (k = 0; k < 2; k++)
		pthread_join(b[k].tid, NULL);
	printf("\n  join while busy: %" PRIu64 " + %" PRIu64 " rounds before the join, %"
	       PRIu64 " + %" PRIu64 " bumps after it, %" PRIu64 " counted\n", b[0].before,
	       b[1].before, b[0].seen, b[1].seen, shared);
	CU_ASSERT(b[0].seen > 0 && b[1].seen > 0);
	CU_ASSERT_EQUAL(shared, b[0].seen + b[1].seen);
	CU_ASSERT_PTR_EQUAL(dfi_guard_root(gb), ga);
	dfi_guard_put(gb);
	dfi_guard_put(ga);
}

static CU_TestInfo guard_tests[] = {
	{ "alone, and where the application serialises", test_alone_and_unlocked },
	{ "joins: one root, the domain's", test_join_roots },
	{ "a join while both groups are busy loses no bump", test_join_while_busy },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "guards", NULL, NULL, NULL, NULL, guard_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	return test_run(suites);
}
