/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Lazy EAL initialisation. fi_prov_ini() runs in every libfabric process,
 * fi_info included, so DPDK is only started when a dpdk object is needed.
 * An EAL started by the application (EAL-style programs) is reused as is and
 * never cleaned up by the provider.
 */

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "dfi.h"
#include "eal.h"
#include "params.h"

#define EAL_MAX_ARGS	128
#define EAL_ARGS_LEN	4096

enum eal_state {
	EAL_UNINIT,
	EAL_OWNED,	/* started by the provider */
	EAL_SHARED,	/* started by the application */
	EAL_FAILED,
};

static pthread_mutex_t eal_lock = PTHREAD_MUTEX_INITIALIZER;
static enum eal_state eal_state = EAL_UNINIT;
/*
 * True while rte_eal_init() runs. DPDK may call exit() from there; libfabric's
 * destructor then runs dfi_eal_fini() on the thread that holds eal_lock, and
 * must not wait for it.
 */
static bool eal_in_init;
/*
 * The process that started or found the EAL. DPDK does not survive fork():
 * a child inherits the EAL's memory but not its threads, and shares the
 * parent's device sockets (memif's control channel), so the provider refuses
 * to work in it and leaves the parent's ports alone when it exits.
 */
static pid_t eal_pid;

RTE_LOG_REGISTER_DEFAULT(dfi_eal_logtype, NOTICE);

/* rte_eal_init() may keep pointers into argv: the strings live here. */
static char eal_args_buf[EAL_ARGS_LEN];

/* The IOVA mode is chosen by every successful rte_eal_init(); the lcore
 * count is not a sign, a failed init leaves it set. */
static bool
eal_already_up(void)
{
	return rte_eal_iova_mode() != RTE_IOVA_DC;
}

/* Splits a command line in place; single and double quotes group words. */
static int
eal_split_args(char *line, char **argv, int max_args)
{
	int argc = 0;
	char *r = line, *w;
	char quote;

	while (*r != '\0') {
		while (*r == ' ' || *r == '\t' || *r == '\n')
			r++;
		if (*r == '\0')
			break;
		if (argc == max_args - 1)
			return -FI_E2BIG;
		argv[argc++] = w = r;
		quote = 0;
		while (*r != '\0' && (quote != 0 || (*r != ' ' && *r != '\t' && *r != '\n'))) {
			if (quote == 0 && (*r == '\'' || *r == '"'))
				quote = *r;
			else if (quote != 0 && *r == quote)
				quote = 0;
			else
				*w++ = *r;
			r++;
		}
		if (quote != 0)
			return -FI_EINVAL;
		if (*r != '\0')
			r++;
		*w = '\0';
	}
	argv[argc] = NULL;
	return argc;
}

static bool
eal_hugepages_free(void)
{
	const char *root = "/sys/kernel/mm/hugepages";
	char path[512];
	struct dirent *de;
	bool found = false;
	unsigned long n;
	DIR *dir;
	FILE *f;

	dir = opendir(root);
	if (dir == NULL)
		return false;
	while (!found && (de = readdir(dir)) != NULL) {
		if (strncmp(de->d_name, "hugepages-", 10) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/free_hugepages", root, de->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fscanf(f, "%lu", &n) == 1 && n > 0)
			found = true;
		fclose(f);
	}
	closedir(dir);
	return found;
}

/* "0-3,6": the CPUs the calling thread may run on, for --lcores. */
static int
eal_cpuset_str(const cpu_set_t *set, char *buf, size_t len)
{
	size_t off = 0;
	int cpu, first;

	buf[0] = '\0';
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, set))
			continue;
		first = cpu;
		while (cpu + 1 < CPU_SETSIZE && CPU_ISSET(cpu + 1, set))
			cpu++;
		off += (size_t)snprintf(buf + off, len > off ? len - off : 0, "%s%d",
					off != 0 ? "," : "", first);
		if (cpu != first)
			off += (size_t)snprintf(buf + off, len > off ? len - off : 0,
						"-%d", cpu);
	}
	return off != 0 && off < len ? 0 : -FI_EINVAL;
}

static int
eal_default_args(const cpu_set_t *cpus, char *buf, size_t len)
{
	char cpulist[1024];
	const char *mem;
	int n;

	if (eal_cpuset_str(cpus, cpulist, sizeof(cpulist)) != 0)
		return -FI_EINVAL;
	if (eal_hugepages_free()) {
		mem = "--in-memory";
	} else {
		mem = "--no-huge -m 512 --no-shconf";
		DFI_WARN(FI_LOG_CORE, "no free hugepages: starting DPDK with '%s' "
			 "(set FI_DPDK_EAL_ARGS to choose)", mem);
	}
	/* lcore 0 may float over the caller's CPUs rather than pin it. */
	n = snprintf(buf, len, "--lcores=0@(%s) --no-telemetry --log-level=notice %s",
		     cpulist, mem);
	return n > 0 && (size_t)n < len ? 0 : -FI_E2BIG;
}

/*
 * DPDK 22.11's EAL command line (lib/eal/common/eal_common_options.c), as
 * getopt_long() reads it: the short options that take an argument, and every
 * long option with its has_arg. It is only used to find, before DPDK sees
 * them, the words that make the EAL print and call exit().
 */
#define EAL_SHORT_WITH_ARG	"abcdlmnrsS"

struct eal_long_opt {
	const char *name;
	int has_arg;		/* no_argument, required_argument, optional_argument */
};

static const struct eal_long_opt eal_long_opts[] = {
	{ "allow", required_argument },
	{ "base-virtaddr", required_argument },
	{ "block", required_argument },
	{ "create-uio-dev", no_argument },
	{ "file-prefix", required_argument },
	{ "force-max-simd-bitwidth", required_argument },
	{ "help", no_argument },
	{ "huge-dir", required_argument },
	{ "huge-unlink", optional_argument },
	{ "huge-worker-stack", optional_argument },
	{ "in-memory", no_argument },
	{ "iova-mode", required_argument },
	{ "lcores", required_argument },
	{ "legacy-mem", no_argument },
	{ "log-level", required_argument },
	{ "main-lcore", required_argument },
	{ "match-allocations", no_argument },
	{ "mbuf-pool-ops-name", required_argument },
	{ "no-hpet", no_argument },
	{ "no-huge", no_argument },
	{ "no-pci", no_argument },
	{ "no-shconf", no_argument },
	{ "no-telemetry", no_argument },
	{ "proc-type", required_argument },
	{ "single-file-segments", no_argument },
	{ "socket-limit", required_argument },
	{ "socket-mem", required_argument },
	{ "syslog", required_argument },
	{ "telemetry", no_argument },
	{ "trace", required_argument },
	{ "trace-bufsz", required_argument },
	{ "trace-dir", required_argument },
	{ "trace-mode", required_argument },
	{ "vdev", required_argument },
	{ "vfio-intr", required_argument },
	{ "vfio-vf-token", required_argument },
	{ "vmware-tsc-map", no_argument },
};

/* getopt_long(3): the option named exactly, else the only one the name
 * abbreviates; NULL when unknown or ambiguous (the parse then fails). */
static const struct eal_long_opt *
eal_long_lookup(const char *name, size_t len)
{
	const struct eal_long_opt *found = NULL;
	size_t i;

	for (i = 0; i < RTE_DIM(eal_long_opts); i++) {
		if (strncmp(eal_long_opts[i].name, name, len) != 0)
			continue;
		if (eal_long_opts[i].name[len] == '\0')
			return &eal_long_opts[i];
		if (found != NULL)
			return NULL;
		found = &eal_long_opts[i];
	}
	return found;
}

/*
 * An option of an EAL command line as getopt_long() would read it: a short
 * one (opt NULL) or a long one, and its argument (NULL when it takes none,
 * or, for a long one, when none was given after '=').
 */
typedef bool (*eal_opt_fn)(char short_opt, const struct eal_long_opt *opt, const char *value);

/*
 * The word of argv holding the first option that fn picks, or NULL. Option
 * arguments ("-l 0-1", "-m256", "--vdev -h") are skipped as getopt skips
 * them, operands are stepped over as getopt permutes them, and the words
 * after "--" are not options. The scan goes on past unknown options: DPDK
 * rejects the line at the first one, except that the rest of a short option
 * cluster its log pass stopped in is read by its second pass ("-xh" exits).
 */
static const char *
eal_find_option(char **argv, int argc, eal_opt_fn fn)
{
	const struct eal_long_opt *opt;
	const char *word, *eq, *value, *p;
	size_t len;
	int i;

	for (i = 1; i < argc; i++) {
		word = argv[i];
		if (strcmp(word, "--") == 0)
			break;
		if (word[0] != '-' || word[1] == '\0')
			continue;	/* an operand: getopt permutes past it */
		if (word[1] != '-') {
			for (p = word + 1; *p != '\0'; p++) {
				if (strchr(EAL_SHORT_WITH_ARG, *p) == NULL) {
					if (fn(*p, NULL, NULL))
						return word;
					continue;
				}
				/* the rest of the word, or the next one, is its argument */
				value = p[1] != '\0' ? p + 1 : i + 1 < argc ? argv[++i] : "";
				if (fn(*p, NULL, value))
					return word;
				break;
			}
			continue;
		}
		eq = strchr(word + 2, '=');
		len = eq != NULL ? (size_t)(eq - (word + 2)) : strlen(word + 2);
		opt = eal_long_lookup(word + 2, len);
		if (opt == NULL)
			continue;
		if (opt->has_arg == required_argument)
			value = eq != NULL ? eq + 1 : i + 1 < argc ? argv[++i] : "";
		else
			value = eq != NULL ? eq + 1 : NULL;
		if (fn('\0', opt, value))
			return word;
	}
	return NULL;
}

/* Those that make DPDK print and exit(): -h in a cluster of short options
 * (-vh), --help or an abbreviation of it (--he), and --log-level=help or
 * --log-level help (abbreviated too). Refusing a line DPDK would reject
 * anyway costs nothing. */
static bool
eal_opt_exits(char short_opt, const struct eal_long_opt *opt, const char *value)
{
	if (opt == NULL)
		return short_opt == 'h';
	if (strcmp(opt->name, "help") == 0)
		return value == NULL;
	return strcmp(opt->name, "log-level") == 0 && strcmp(value, "help") == 0;
}

/* Those that choose the lcores, and with them the CPU the calling thread is
 * pinned to: -l, -c, --lcores. */
static bool
eal_opt_lcores(char short_opt, const struct eal_long_opt *opt, const char *value __rte_unused)
{
	if (opt == NULL)
		return short_opt == 'l' || short_opt == 'c';
	return strcmp(opt->name, "lcores") == 0;
}

/*
 * A failure that leaves the process without dpdk entries: a provider warning
 * (shown with FI_LOG_LEVEL=warn) and, once, a line through DPDK's log, which
 * reaches standard error before and after rte_eal_init() whatever libfabric's
 * log level.
 */
static void __rte_format_printf(1, 2)
eal_report(const char *fmt, ...)
{
	char msg[EAL_ARGS_LEN + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	DFI_WARN(FI_LOG_CORE, "%s", msg);
	rte_log(RTE_LOG_ERR, dfi_eal_logtype, "fi-dpdk: %s\n", msg);
}

/*
 * DPDK prints its usage and some errors with printf(): while rte_eal_init()
 * runs, descriptor 1 is a copy of 2 so that the application's standard output
 * stays clean. Called under eal_lock; *saved is -1 when there was no standard
 * output to protect.
 */
static int
eal_stdout_divert(int *saved)
{
	int ret;

	fflush(stdout);
	*saved = dup(STDOUT_FILENO);
	if (*saved < 0) {
		if (errno == EBADF)
			return 0;
		ret = -errno;
		DFI_WARN(FI_LOG_CORE, "cannot save standard output: %s", strerror(-ret));
		return ret;
	}
	if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		ret = -errno;
		DFI_WARN(FI_LOG_CORE, "cannot divert standard output: %s", strerror(-ret));
		close(*saved);
		*saved = -1;
		return ret;
	}
	return 0;
}

static void
eal_stdout_restore(int saved)
{
	if (saved < 0)
		return;
	fflush(stdout);
	if (dup2(saved, STDOUT_FILENO) < 0)
		DFI_WARN(FI_LOG_CORE, "cannot restore standard output: %s", strerror(errno));
	close(saved);
}

static int
eal_start(void)
{
	char *argv[EAL_MAX_ARGS];
	const char *user_args, *exit_word;
	char shown[EAL_ARGS_LEN];
	cpu_set_t cpus;
	int argc, ret, saved_optind, saved_opterr, saved_optopt, saved_stdout;
	char *saved_optarg;
	bool have_cpus, pinned;

	have_cpus = pthread_getaffinity_np(pthread_self(), sizeof(cpus), &cpus) == 0;
	user_args = dfi_param_str(DFI_PARAM_EAL_ARGS);
	if (user_args != NULL) {
		if (strlen(user_args) >= sizeof(eal_args_buf) - 1) {
			eal_report("FI_DPDK_EAL_ARGS is too long (max %zu): no dpdk domain",
				   sizeof(eal_args_buf) - 2);
			return -FI_E2BIG;
		}
		strcpy(eal_args_buf, user_args);
	} else {
		if (!have_cpus) {
			eal_report("cannot read the thread's CPU affinity: no dpdk domain");
			return -FI_EINVAL;
		}
		ret = eal_default_args(&cpus, eal_args_buf, sizeof(eal_args_buf));
		if (ret != 0) {
			eal_report("cannot build the default EAL arguments: no dpdk domain");
			return ret;
		}
	}
	snprintf(shown, sizeof(shown), "%s", eal_args_buf);

	argv[0] = (char *)(uintptr_t)"fi-dpdk";
	ret = eal_split_args(eal_args_buf, argv + 1, EAL_MAX_ARGS - 1);
	if (ret < 0) {
		eal_report("cannot parse EAL arguments '%s': %s; no dpdk domain", shown,
			   ret == -FI_E2BIG ? "too many words" : "unbalanced quote");
		return ret;
	}
	argc = ret + 1;
	exit_word = eal_find_option(argv, argc, eal_opt_exits);
	if (exit_word != NULL) {
		eal_report("EAL arguments '%s' refused: with '%s' DPDK prints and exits "
			   "the process; no dpdk domain", shown, exit_word);
		return -FI_EINVAL;
	}

	pinned = user_args != NULL && eal_find_option(argv, argc, eal_opt_lcores) != NULL;
	ret = eal_stdout_divert(&saved_stdout);
	if (ret != 0) {
		eal_report("EAL not started: standard output cannot be kept clean");
		return ret;
	}
	/* DPDK logs to stdout by default; keep the application's stdout clean. */
	rte_openlog_stream(stderr);

	saved_optind = optind;
	saved_opterr = opterr;
	saved_optopt = optopt;
	saved_optarg = optarg;
	__atomic_store_n(&eal_in_init, true, __ATOMIC_RELEASE);
	ret = rte_eal_init(argc, argv);
	__atomic_store_n(&eal_in_init, false, __ATOMIC_RELEASE);
	optind = saved_optind;
	opterr = saved_opterr;
	optopt = saved_optopt;
	optarg = saved_optarg;
	eal_stdout_restore(saved_stdout);

	/*
	 * rte_eal_init() pins the calling thread, which is the application's:
	 * it gets back the CPUs it had, unless FI_DPDK_EAL_ARGS chose the
	 * lcores (-l, -c, --lcores), which is asking for that pinning. Two
	 * polling processes left to float over the same CPUs were stacked on
	 * one of them now and then, each stalled for a scheduler slice (1-20
	 * ms, fi_pingpong on 2 vCPUs).
	 */
	if (pinned)
		DFI_INFO(FI_LOG_CORE, "FI_DPDK_EAL_ARGS chose the lcores: the calling thread "
			 "stays on DPDK's main lcore");
	else if (have_cpus && pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus) != 0)
		DFI_WARN(FI_LOG_CORE, "cannot restore the calling thread's CPU affinity: "
			 "it stays on DPDK's main lcore");

	if (ret < 0) {
		if (rte_errno == EALREADY && eal_already_up())
			return 1;
		eal_report("rte_eal_init('%s') failed: %s; no dpdk domain", shown,
			   rte_strerror(rte_errno));
		rte_openlog_stream(NULL);
		return -FI_ENODATA;
	}
	DFI_INFO(FI_LOG_CORE, "EAL started with '%s'", shown);
	return 0;
}

bool
dfi_eal_forked(void)
{
	enum eal_state state = __atomic_load_n(&eal_state, __ATOMIC_ACQUIRE);

	return (state == EAL_OWNED || state == EAL_SHARED) && getpid() != eal_pid;
}

static int
eal_forked_refuse(void)
{
	static pid_t reported;

	if (!dfi_eal_forked())
		return 0;
	if (reported != getpid()) {
		reported = getpid();
		eal_report("process %d was forked from %d after DPDK started there: DPDK does "
			   "not survive fork(), no dpdk domain here (fork before the first "
			   "fi_getinfo, or exec)", (int)getpid(), (int)eal_pid);
	}
	return -FI_ENODATA;
}

int
dfi_eal_ensure(void)
{
	enum eal_state state;
	int ret;

	state = __atomic_load_n(&eal_state, __ATOMIC_ACQUIRE);
	if (state == EAL_OWNED || state == EAL_SHARED)
		return eal_forked_refuse();
	if (state == EAL_FAILED)
		return -FI_ENODATA;

	pthread_mutex_lock(&eal_lock);
	if (eal_state == EAL_UNINIT) {
		if (eal_already_up()) {
			state = EAL_SHARED;
			DFI_INFO(FI_LOG_CORE, "using the application's EAL");
		} else {
			ret = eal_start();
			state = ret == 0 ? EAL_OWNED : ret == 1 ? EAL_SHARED : EAL_FAILED;
		}
		eal_pid = getpid();
		__atomic_store_n(&eal_state, state, __ATOMIC_RELEASE);
	}
	state = eal_state;
	pthread_mutex_unlock(&eal_lock);
	return state == EAL_FAILED ? -FI_ENODATA : eal_forked_refuse();
}

bool
dfi_eal_started(void)
{
	enum eal_state state = __atomic_load_n(&eal_state, __ATOMIC_ACQUIRE);

	return state == EAL_OWNED || state == EAL_SHARED || eal_already_up();
}

bool
dfi_eal_owned(void)
{
	return __atomic_load_n(&eal_state, __ATOMIC_ACQUIRE) == EAL_OWNED;
}

void
dfi_eal_fini(void)
{
	/* DPDK exited the process from rte_eal_init(): nothing to release. */
	if (__atomic_load_n(&eal_in_init, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&eal_lock);
	if (eal_state == EAL_OWNED) {
		/*
		 * No rte_eal_cleanup(): libfabric unloads providers as the process
		 * exits, and DPDK 22.11's cleanup frees the heap under the EAL
		 * interrupt thread, which keeps running: a memif peer's disconnect
		 * handled there at that moment crashes the process. The ports are
		 * closed by now; the default arguments leave no file behind, and
		 * the kernel takes the memory back.
		 */
		rte_openlog_stream(NULL);
		/* An EAL cannot be started twice in a process. */
		__atomic_store_n(&eal_state, EAL_FAILED, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&eal_lock);
}
