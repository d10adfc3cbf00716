/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * How the provider starts DPDK. An EAL starts once per process, so each case
 * is its own process: meson runs this program once per mode.
 *
 *   default    FI_DPDK_EAL_ARGS unset: the built-in arguments work on this
 *              machine (falling back to --no-huge without free hugepages),
 *              leave the caller's CPU affinity alone, and start the EAL once;
 *              with DFI_TEST_EXPECT_HUGEPAGES set (eal_hugepages.sh, which
 *              reserves some), the EAL must have taken hugepages.
 *   bad        arguments DPDK rejects give no entries, no crash, no retry.
 *   help       the arguments that make DPDK print and exit() (-h in a short
 *              option cluster, --help and its abbreviations, --log-level=help)
 *              are refused; and a DPDK exit() from inside rte_eal_init() ends
 *              the process instead of hanging it.
 *   lookalike  arguments that only look like those start the EAL.
 *   quote      an unbalanced quote is refused.
 *   threads    concurrent first calls start one EAL and all see the ports.
 *   unasked    hints that name no provider (fi_info, Open MPI) start no EAL
 *              and get no dpdk entry until FI_DPDK_EAL_ARGS is set (issue 16).
 *   app-eal    an application that started the EAL gets dpdk entries
 *              without naming the provider.
 *   lcores     lcores chosen in FI_DPDK_EAL_ARGS (-l, -c, --lcores) keep the
 *              calling thread pinned where DPDK put it; other arguments
 *              give it back the CPUs it had.
 *   app-eal-unload  a port of the application's EAL with link-state
 *              interrupts (net_tap) that the provider started: once
 *              libfabric has unloaded the provider, which leaves the port to
 *              the application, a link change still reaches the port's
 *              callbacks, and the provider's touches nothing it freed
 *              (AddressSanitizer, which runs the unit suite too, tells).
 *   exit-open  a program that exits with its endpoints open: libfabric
 *              unloads the provider then (its cleanup), and the provider's
 *              threads that progress endpoints (a thread-safe domain's
 *              watchdog, an armed wait set's helper) touch nothing the
 *              unload freed.
 *   app-eal-bond  the members of a net_bonding port (named by its device
 *              arguments, or added by the application) are no domains.
 *
 * bad, help, lookalike and quote run each command line in a child process,
 * waited for with a time limit, with its standard output and error in files:
 * a refusal or failure prints nothing on standard output and one line of
 * the provider's on standard error, without FI_LOG_LEVEL.
 */

#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_eth_bond.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/providers/fi_prov.h>

#include "proc_self.h"
#include "test_util.h"

#define NB_THREADS	4
#define CHILD_LIMIT_S	10
#define CHILD_OK	42	/* a child's exit status when every check held */
#define CHILD_EXITED	43	/* the status the exit-in-init child exits with */

static int
getinfo_plain(struct fi_info **info)
{
	struct fi_info *hints = fi_allocinfo();
	int ret;

	if (hints == NULL)
		return -FI_ENOMEM;
	ret = test_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, info);
	fi_freeinfo(hints);
	return ret;
}

static bool
machine_has_free_hugepages(void)
{
	char path[512];
	struct dirent *de;
	unsigned long n;
	bool found = false;
	DIR *dir = opendir("/sys/kernel/mm/hugepages");
	FILE *f;

	if (dir == NULL)
		return false;
	while ((de = readdir(dir)) != NULL) {
		if (strncmp(de->d_name, "hugepages-", 10) != 0)
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/%s/free_hugepages",
			 de->d_name);
		f = fopen(path, "r");
		if (f != NULL && fscanf(f, "%lu", &n) == 1 && n > 0)
			found = true;
		if (f != NULL)
			fclose(f);
	}
	closedir(dir);
	return found;
}

static void
test_default_args(void)
{
	struct fi_info *info = NULL;
	cpu_set_t before, after;
	unsigned int lcores;
	int ret;

	CU_ASSERT_EQUAL(rte_lcore_count(), 0);
	CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(before), &before), 0);
	/* no vdev in the defaults: no port here, unless a NIC is bound to DPDK */
	ret = getinfo_plain(&info);
	CU_ASSERT(ret == 0 || ret == -FI_ENODATA);
	fi_freeinfo(info);
	lcores = rte_lcore_count();
	CU_ASSERT(lcores > 0);
	CU_ASSERT(rte_eal_iova_mode() != RTE_IOVA_DC);
	CU_ASSERT_EQUAL(rte_eal_has_hugepages(), machine_has_free_hugepages() ? 1 : 0);
	/* eal_hugepages.sh reserved them: the check above took the
	 * hugepage branch, not the fallback */
	if (getenv("DFI_TEST_EXPECT_HUGEPAGES") != NULL)
		CU_ASSERT_EQUAL(rte_eal_has_hugepages(), 1);
	CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(after), &after), 0);
	CU_ASSERT(CPU_EQUAL(&before, &after));
	/* a second call reuses it */
	info = NULL;
	ret = getinfo_plain(&info);
	CU_ASSERT(ret == 0 || ret == -FI_ENODATA);
	fi_freeinfo(info);
	CU_ASSERT_EQUAL(rte_lcore_count(), lcores);
}

/* What a child checks: the answer, and what it wrote where. */
enum child_expect {
	EXPECT_REFUSED,		/* no entries, EAL not started, the provider's line */
	EXPECT_FAILED,		/* no entries, EAL failed, the provider's line */
	EXPECT_ENTRIES,		/* entries */
	EXPECT_PINNED,		/* entries, the thread pinned to the last CPU it had */
	EXPECT_FLOATING,	/* entries, the thread's CPUs as before */
};

/* Child failures, as exit statuses. */
enum child_fault {
	FAULT_SETUP = 1,
	FAULT_ANSWER,
	FAULT_RETRY,
	FAULT_EAL_STATE,
	FAULT_STDOUT,
	FAULT_STDERR,
	FAULT_AFFINITY,
};

static bool
file_has(FILE *f, const char *needle)
{
	char buf[65536];
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	return needle != NULL ? strstr(buf, needle) != NULL : n > 0;
}

/* The highest CPU of set, or -1. */
static int
last_cpu(const cpu_set_t *set)
{
	int cpu;

	for (cpu = CPU_SETSIZE - 1; cpu >= 0 && !CPU_ISSET(cpu, set); cpu--)
		;
	return cpu;
}

/* After the EAL started: whether the thread's CPUs are what expect says. */
static bool
affinity_as_expected(enum child_expect expect, const cpu_set_t *before)
{
	cpu_set_t now, want;

	if (sched_getaffinity(0, sizeof(now), &now) != 0)
		return false;
	if (expect == EXPECT_FLOATING)
		return CPU_EQUAL(&now, before);
	CPU_ZERO(&want);
	CPU_SET(last_cpu(before), &want);
	return CPU_EQUAL(&now, &want);
}

/* In the child: standard output and error go to files; returns an exit status. */
static int
child_case(const char *args, enum child_expect expect)
{
	struct fi_info *info = NULL;
	FILE *out = tmpfile(), *err = tmpfile();
	cpu_set_t before;
	int ret;

	if (out == NULL || err == NULL || dup2(fileno(out), STDOUT_FILENO) < 0 ||
	    dup2(fileno(err), STDERR_FILENO) < 0 ||
	    sched_getaffinity(0, sizeof(before), &before) != 0)
		return FAULT_SETUP;
	test_env_setup(args);
	ret = getinfo_plain(&info);
	if (expect == EXPECT_ENTRIES || expect == EXPECT_PINNED || expect == EXPECT_FLOATING) {
		ret = ret == 0 && test_info_count(info) > 0 ? CHILD_OK : FAULT_ANSWER;
		fi_freeinfo(info);
		if (ret == CHILD_OK && expect != EXPECT_ENTRIES &&
		    !affinity_as_expected(expect, &before))
			ret = FAULT_AFFINITY;
		return ret;
	}
	if (ret != -FI_ENODATA || info != NULL)
		return FAULT_ANSWER;
	/* the EAL did not come up (a failed rte_eal_init() may count lcores) */
	if (rte_eal_iova_mode() != RTE_IOVA_DC)
		return FAULT_EAL_STATE;
	/* no retry, same answer */
	if (getinfo_plain(&info) != -FI_ENODATA || rte_eal_iova_mode() != RTE_IOVA_DC)
		return FAULT_RETRY;
	fflush(stdout);
	if (file_has(out, NULL))
		return FAULT_STDOUT;
	if (!file_has(err, "fi-dpdk: ") || !file_has(err, "no dpdk domain") ||
	    (expect == EXPECT_REFUSED) != (file_has(err, "refused") ||
					   file_has(err, "cannot parse")))
		return FAULT_STDERR;
	return CHILD_OK;
}

/* Waits for a child at most CHILD_LIMIT_S seconds; -1 when it had to be killed. */
static int
child_wait(pid_t pid)
{
	const struct timespec tick = { .tv_nsec = 20 * 1000 * 1000 };
	int status, i;

	for (i = 0; i < CHILD_LIMIT_S * 50; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		nanosleep(&tick, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/* Runs child_case() in a child process; the parent has not touched libfabric. */
static void
run_cases(const char *const *cases, size_t n, enum child_expect expect)
{
	size_t i;
	pid_t pid;
	int status;

	for (i = 0; i < n; i++) {
		fflush(NULL);
		pid = fork();
		CU_ASSERT_FATAL(pid >= 0);
		if (pid == 0)
			exit(child_case(cases[i], expect));
		status = child_wait(pid);
		if (status != CHILD_OK)
			fprintf(stderr, "FI_DPDK_EAL_ARGS=\"%s\": %s %d\n", cases[i],
				status < 0 ? "hung, killed after" : "child status",
				status < 0 ? CHILD_LIMIT_S : status);
		CU_ASSERT_EQUAL(status, CHILD_OK);
	}
}

#define RUN_CASES(cases, expect) run_cases(cases, sizeof(cases) / sizeof(cases[0]), expect)

static void
test_bad_args(void)
{
	static const char *const cases[] = {
		"--no-huge --no-such-eal-option",
		TEST_EAL_BASE " --vdev=net_no_such_driver0",
		/* --help with an argument, --h ambiguous: errors, not exits */
		TEST_EAL_BASE " --help=1",
		TEST_EAL_BASE " --h",
	};

	RUN_CASES(cases, EXPECT_FAILED);
}

static void
test_help_refused(void)
{
	static const char *const cases[] = {
		"--no-huge --help",
		"--no-huge -h",
		"--no-huge -vh",
		"--no-huge -v -h",
		"--no-huge --hel",
		"--no-huge --he",
		"--no-huge --log-level=help",
		"--no-huge --log-level help",
		"--no-huge --lo=help",
		"--no-huge --log help",
		/* getopt permutes past operands and option arguments */
		"--no-huge stray -vh",
		"--no-huge -l 0 -m256 -n 4 -h",
		"--no-huge --huge-unlink -vh",
		/* DPDK's second getopt pass resumes the cluster its first stopped in */
		"--no-huge -xh",
		/* DPDK would reject --bogus first; refused all the same */
		"--no-huge --bogus --log-level=help",
	};

	RUN_CASES(cases, EXPECT_REFUSED);
}

static void
test_quote_refused(void)
{
	static const char *const cases[] = {
		"--no-huge '--vdev=net_null0",
		"--no-huge \"--vdev=net_null0",
	};

	RUN_CASES(cases, EXPECT_REFUSED);
}

static void
test_help_lookalikes(void)
{
	static const char *const cases[] = {
		TEST_EAL_BASE " --vdev=net_null0 -v",
		TEST_EAL_BASE " --vdev=net_null0 -l 0 -n 4",
		/* option arguments that look like -h or help */
		TEST_EAL_BASE " --vdev=net_null0 --file-prefix -h",
		TEST_EAL_BASE " --vdev=net_null0 --huge-dir -vh",
		TEST_EAL_BASE " --vdev=net_null0 --log-level lib.eal:warning",
		/* after "--", words are the application's */
		TEST_EAL_BASE " --vdev=net_null0 -- -h --help",
	};

	RUN_CASES(cases, EXPECT_ENTRIES);
	/* EAL makes its (here empty) runtime directory even with --no-shconf */
	rmdir("/var/run/dpdk/-h");
}

/*
 * DPDK calling exit() from inside rte_eal_init(), for the paths the provider
 * cannot refuse: standard error is a stream that exits on its first write,
 * which is DPDK's first log line. libfabric's destructor then runs the
 * provider's cleanup on the thread that holds the EAL lock.
 */
static ssize_t
exit_on_write(void *cookie __rte_unused, const char *buf __rte_unused, size_t size)
{
	static bool exiting;

	if (!exiting) {
		exiting = true;
		exit(CHILD_EXITED);
	}
	return (ssize_t)size;
}

static void
test_exit_in_init(void)
{
	cookie_io_functions_t io = { .write = exit_on_write };
	struct fi_info *info = NULL;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		test_env_setup("--no-huge -m 256 --no-pci --no-shconf --no-telemetry "
			       "--log-level=debug --vdev=net_null0");
		stderr = fopencookie(NULL, "w", io);
		if (stderr == NULL)
			exit(FAULT_SETUP);
		setvbuf(stderr, NULL, _IONBF, 0);
		getinfo_plain(&info);
		exit(FAULT_ANSWER);	/* DPDK was to exit before this */
	}
	CU_ASSERT_EQUAL(child_wait(pid), CHILD_EXITED);
}

static void *
getinfo_thread(void *arg)
{
	struct fi_info *info = NULL;
	int *count = arg;

	if (getinfo_plain(&info) == 0)
		*count = test_info_count(info);
	fi_freeinfo(info);
	return NULL;
}

static void
test_concurrent_start(void)
{
	pthread_t threads[NB_THREADS];
	int counts[NB_THREADS] = { 0 };
	int i;

	for (i = 0; i < NB_THREADS; i++)
		CU_ASSERT_EQUAL_FATAL(pthread_create(&threads[i], NULL, getinfo_thread,
						     &counts[i]), 0);
	for (i = 0; i < NB_THREADS; i++) {
		pthread_join(threads[i], NULL);
		CU_ASSERT_EQUAL(counts[i], 6);	/* two ports: RDM, DGRAM, MSG */
	}
	CU_ASSERT(rte_lcore_count() > 0);
}

/* fi_getinfo() with hints that name no provider, as fi_info and Open MPI call
 * it: the number of entries that are dpdk's, all or one domain's. */
static int
dpdk_entries(const char *domain)
{
	struct fi_info *hints = fi_allocinfo(), *info = NULL, *cur;
	int n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hints);
	if (fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info) == 0) {
		for (cur = info; cur != NULL; cur = cur->next)
			n += strcmp(cur->fabric_attr->prov_name, "dpdk") == 0 &&
			     (domain == NULL || strcmp(cur->domain_attr->name, domain) == 0);
	}
	fi_freeinfo(info);
	fi_freeinfo(hints);
	return n;
}

/*
 * The rule: without the provider named (hints, FI_PROVIDER),
 * FI_DPDK_EAL_ARGS or an EAL of the application's, getinfo answers
 * -FI_ENODATA and starts nothing; libfabric calls it in every program.
 */
static void
test_unasked(void)
{
	unsetenv("FI_PROVIDER");
	CU_ASSERT_EQUAL(dpdk_entries(NULL), 0);
	CU_ASSERT_EQUAL(rte_eal_iova_mode(), RTE_IOVA_DC);
	CU_ASSERT_STRING_EQUAL(rte_eal_get_runtime_dir(), "");
	CU_ASSERT_EQUAL(rte_lcore_count(), 0);
	/* the variable is read on each call, and asks for dpdk */
	setenv("FI_DPDK_EAL_ARGS", TEST_EAL_BASE " --vdev=net_null0", 1);
	CU_ASSERT_EQUAL(dpdk_entries(NULL), 3);
	CU_ASSERT(rte_eal_iova_mode() != RTE_IOVA_DC);
}

static void
test_app_eal(void)
{
	unsetenv("FI_PROVIDER");
	CU_ASSERT_FATAL(test_eal_init("test_eal", TEST_EAL_BASE " --vdev=net_null0") >= 0);
	CU_ASSERT_EQUAL(dpdk_entries(NULL), 3);
}

/*
 * fi_getinfo(3) lists the domains an application may open. The bonding PMD
 * configures, starts and polls its members: one is no domain, whether the
 * bond's device arguments name it (by name or port number; it joins as the
 * bond is configured) or the application adds it. A bond whose members have
 * not joined yet is configured as it is listed, so that it has their MAC
 * (its link-local address is drawn from it) and their limits.
 */
static void
test_app_eal_bond(void)
{
	struct rte_ether_addr mac, member_mac;
	uint16_t bond, member, added;

	unsetenv("FI_PROVIDER");
	CU_ASSERT_FATAL(test_eal_init("test_eal", TEST_EAL_BASE " --vdev=net_null0 --vdev=net_null1"
				      " --vdev=net_null2 --vdev=net_null3"
				      " --vdev=net_bonding0,mode=1,slave=net_null1,slave=3") >= 0);
	CU_ASSERT_EQUAL(dpdk_entries("net_bonding0"), 3);
	CU_ASSERT_EQUAL(dpdk_entries("net_null0"), 3);
	CU_ASSERT_EQUAL(dpdk_entries("net_null1"), 0);
	CU_ASSERT_EQUAL(dpdk_entries("net_null3"), 0);
	CU_ASSERT_EQUAL(dpdk_entries("net_null2"), 3);
	CU_ASSERT_FATAL(rte_eth_dev_get_port_by_name("net_bonding0", &bond) == 0);
	/* listed, the bond was completed: its first member's MAC, not zeros */
	CU_ASSERT_FATAL(rte_eth_dev_get_port_by_name("net_null1", &member) == 0);
	CU_ASSERT_EQUAL(rte_eth_macaddr_get(bond, &mac), 0);
	CU_ASSERT_EQUAL(rte_eth_macaddr_get(member, &member_mac), 0);
	CU_ASSERT_FALSE(rte_is_zero_ether_addr(&mac));
	CU_ASSERT_TRUE(rte_is_same_ether_addr(&mac, &member_mac));
	CU_ASSERT_FATAL(rte_eth_dev_get_port_by_name("net_null2", &added) == 0);
	CU_ASSERT_EQUAL_FATAL(rte_eth_bond_slave_add(bond, added), 0);
	CU_ASSERT_EQUAL(dpdk_entries("net_null2"), 0);
	CU_ASSERT_EQUAL(dpdk_entries(NULL), 2 * 3);
	/* the application's port: it frees what the PMD kept of its arguments */
	CU_ASSERT_EQUAL(rte_eth_dev_close(bond), 0);
}

/*
 * How a PMD raises an event (ethdev_driver.h, which Debian's DPDK does not
 * install). 22.11's tap, whose ports say they have link-state interrupts,
 * only updates the link as its netlink socket tells; NICs (ixgbe, i40e,
 * mlx5) and vhost call the port's callbacks from the EAL interrupt thread.
 */
struct rte_eth_dev *rte_eth_dev_allocated(const char *name);
int rte_eth_dev_callback_process(struct rte_eth_dev *dev, enum rte_eth_event_type event,
				 void *ret_param);

static int
lsc_seen(uint16_t port_id __rte_unused, enum rte_eth_event_type type __rte_unused, void *arg,
	 void *ret_param __rte_unused)
{
	(*(uint32_t *)arg)++;
	return 0;
}

/* libfabric's unload of the provider at exit: the cleanup it calls. */
static void
provider_unload(void)
{
	struct fi_provider *(*ini)(void);
	void *lib = proc_self_library("/libdpdk-fi.so");

	CU_ASSERT_PTR_NOT_NULL_FATAL(lib);
	ini = (struct fi_provider *(*)(void))dlsym(lib, "fi_prov_ini");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ini);
	ini()->cleanup();
	dlclose(lib);
}

/*
 * The provider registers a callback for a port's link-state interrupts, which
 * the EAL's interrupt thread calls; an application's EAL may be cleaned up
 * before the provider unloads, so the callback cannot be unregistered then,
 * and must not point into what the unload frees.
 */
static void
test_app_eal_unload(void)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT, .size = 16 };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct rte_eth_dev_info dev_info;
	static uint32_t seen;
	struct test_domain td;
	struct test_node node;
	struct fid_av *av;
	char args[256];
	uint16_t port;

	snprintf(args, sizeof(args), TEST_EAL_BASE " --vdev=net_tap0,iface=dfilsc%d",
		 (int)getpid());
	CU_ASSERT_FATAL(test_eal_init("test_eal", args) >= 0);
	CU_ASSERT_EQUAL_FATAL(rte_eth_dev_get_port_by_name("net_tap0", &port), 0);
	CU_ASSERT_EQUAL_FATAL(rte_eth_dev_info_get(port, &dev_info), 0);
	CU_ASSERT_FATAL((*dev_info.dev_flags & RTE_ETH_DEV_INTR_LSC) != 0);
	CU_ASSERT_EQUAL_FATAL(test_domain_open_attr(&td, FI_EP_RDM, FI_FORMAT_UNSPEC, FI_MSG, 0,
						    FI_THREAD_DOMAIN, "net_tap0"), 0);
	CU_ASSERT_EQUAL_FATAL(fi_av_open(td.domain, &av_attr, &av, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(test_node_open(&node, &td, av, &cq_attr, FI_WAIT_NONE), 0);
	/* called after the provider's, which was registered as the port started */
	CU_ASSERT_EQUAL_FATAL(rte_eth_dev_callback_register(port, RTE_ETH_EVENT_INTR_LSC,
							    lsc_seen, &seen), 0);
	test_node_close(&node);
	fi_close(&av->fid);
	test_domain_close(&td);
	provider_unload();
	/* the port stays the application's, and running: its link changes */
	CU_ASSERT_EQUAL(rte_eth_dev_set_link_down(port), 0);
	rte_eth_dev_callback_process(rte_eth_dev_allocated("net_tap0"), RTE_ETH_EVENT_INTR_LSC,
				     NULL);
	CU_ASSERT_EQUAL(seen, 1);
	rte_eth_dev_callback_unregister(port, RTE_ETH_EVENT_INTR_LSC, lsc_seen, &seen);
}

/* LeakSanitizer's, in the ASan build: what a test leaves open on purpose */
void __lsan_disable(void) __attribute__((weak));
void __lsan_enable(void) __attribute__((weak));

/*
 * exit() runs libfabric's destructor, which calls the provider's cleanup
 * with whatever the program left open, while the process's other threads
 * still run: the provider's own must not run on into what it frees. The
 * wait is many watchdog periods, on a port with no traffic.
 */
static void
test_exit_open(void)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT, .size = 16,
				      .wait_obj = FI_WAIT_SET };
	struct fi_wait_attr wait_attr = { .wait_obj = FI_WAIT_FD };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct timespec wait = { .tv_nsec = 50 * 1000 * 1000 };
	struct test_domain td;
	struct test_node node;
	struct fid_wait *set;
	struct fid_av *av;
	struct fid *armed;
	int ret;

	if (__lsan_disable != NULL)
		__lsan_disable();
	ret = test_domain_open_attr(&td, FI_EP_RDM, FI_FORMAT_UNSPEC, FI_MSG, 0, FI_THREAD_SAFE,
				    "net_null0");
	ret = ret ? ret : fi_wait_open(td.fabric, &wait_attr, &set);
	cq_attr.wait_set = ret == 0 ? set : NULL;
	ret = ret ? ret : fi_av_open(td.domain, &av_attr, &av, NULL);
	ret = ret ? ret : test_node_open(&node, &td, av, &cq_attr, FI_WAIT_NONE);
	if (__lsan_enable != NULL)
		__lsan_enable();
	CU_ASSERT_EQUAL_FATAL(ret, 0);
	/* the wait set's helper watches the CQ, progressing its endpoint */
	armed = &set->fid;
	CU_ASSERT_EQUAL(fi_trywait(td.fabric, &armed, 1), 0);
	provider_unload();
	CU_ASSERT_EQUAL(nanosleep(&wait, NULL), 0);
}

/*
 * FI_DPDK_EAL_ARGS that choose the lcores (-l, -c, --lcores) ask for DPDK's
 * pinning of the calling thread, which is kept; other arguments leave the
 * thread on the CPUs it had. The pinned cases use the last CPU the test
 * may run on (on a one-CPU machine both expectations are the same).
 */
static void
test_lcores_pin(void)
{
	char l[256], lcores[256], c[256];
	const char *pinned[] = { l, lcores, c };
	static const char *const floating[] = {
		TEST_EAL_BASE " --vdev=net_null0",
		/* an argument that looks like -l */
		TEST_EAL_BASE " --vdev=net_null0 --file-prefix -l",
	};
	cpu_set_t set;
	int cpu;

	CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(set), &set), 0);
	cpu = last_cpu(&set);
	CU_ASSERT_FATAL(cpu >= 0 && cpu < 64);
	snprintf(l, sizeof(l), TEST_EAL_BASE " --vdev=net_null0 -l %d", cpu);
	snprintf(lcores, sizeof(lcores), TEST_EAL_BASE " --vdev=net_null0 --lcores=0@%d", cpu);
	snprintf(c, sizeof(c), TEST_EAL_BASE " --vdev=net_null0 -c 0x%llx", 1ULL << cpu);
	RUN_CASES(pinned, EXPECT_PINNED);
	RUN_CASES(floating, EXPECT_FLOATING);
	rmdir("/var/run/dpdk/-l");
}

static CU_TestInfo all_tests[] = {
	{ "default arguments", test_default_args },
	{ "arguments DPDK rejects", test_bad_args },
	{ "arguments that make DPDK exit are refused", test_help_refused },
	{ "DPDK exiting inside rte_eal_init ends the process", test_exit_in_init },
	{ "arguments that only look like help", test_help_lookalikes },
	{ "unbalanced quotes are refused", test_quote_refused },
	{ "concurrent first calls", test_concurrent_start },
	{ "no EAL for hints that name no provider", test_unasked },
	{ "an application's EAL is a request", test_app_eal },
	{ "lcores chosen in FI_DPDK_EAL_ARGS pin the caller", test_lcores_pin },
	{ "a link change after the provider left an application's port", test_app_eal_unload },
	{ "an exit with endpoints open", test_exit_open },
	{ "a bonded port's members are no domains", test_app_eal_bond },
};

/* A mode runs all_tests[first] to [first + count - 1] with FI_DPDK_EAL_ARGS
 * set to eal_args in this process (the modes with children set their own). */
static const struct {
	const char *name;
	unsigned int first, count;
	const char *eal_args;
} modes[] = {
	{ "default", 0, 1, NULL },
	{ "bad", 1, 1, NULL },
	{ "help", 2, 2, NULL },
	{ "lookalike", 4, 1, NULL },
	{ "quote", 5, 1, NULL },
	{ "threads", 6, 1, TEST_EAL_BASE " --vdev=net_null0 --vdev=net_null1" },
	{ "unasked", 7, 1, NULL },
	{ "app-eal", 8, 1, NULL },
	{ "lcores", 9, 1, NULL },
	{ "app-eal-unload", 10, 1, NULL },
	{ "exit-open", 11, 1, TEST_EAL_BASE " --vdev=net_null0" },
	{ "app-eal-bond", 12, 1, NULL },
};

int
main(int argc, char **argv)
{
	CU_TestInfo tests[3] = { CU_TEST_INFO_NULL, CU_TEST_INFO_NULL, CU_TEST_INFO_NULL };
	CU_SuiteInfo suites[] = {
		{ NULL, NULL, NULL, NULL, NULL, tests },
		CU_SUITE_INFO_NULL,
	};
	unsigned int i;

	for (i = 0; argc == 2 && i < RTE_DIM(modes); i++) {
		if (strcmp(argv[1], modes[i].name) == 0)
			break;
	}
	if (argc != 2 || i == RTE_DIM(modes)) {
		fprintf(stderr, "usage: %s default|bad|help|lookalike|quote|threads|unasked|"
			"app-eal|lcores|app-eal-unload|exit-open|app-eal-bond\n", argv[0]);
		return 1;
	}
	/* at most two tests a mode: tests[2] stays the terminator */
	memcpy(tests, &all_tests[modes[i].first], modes[i].count * sizeof(tests[0]));
	suites[0].pName = (char *)(uintptr_t)modes[i].name;
	test_env_setup(modes[i].eal_args);
	return test_run(suites);
}
