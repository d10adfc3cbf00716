#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Installs the dependencies, builds, and runs every test once: the
# integration suite on the plain build, then the unit suites under
# AddressSanitizer and UndefinedBehaviorSanitizer (one build: UB such as a
# misaligned load fails the test), with the two-process wire tests (DGRAM,
# RDM chaos and peer death, MSG over memif), which run only there: the same
# checks with memory checked too. The plain build's tests that join two
# processes by a wire run on 2 MB hugepages, the sanitizers' on --no-huge
# memory (DFI_WIRE_MEMORY, test/meson.build): both kinds in one run, and 10 %
# less time for the first (in this VM each 4 KiB page of the mbuf pools is a
# fault of its own). The unit suites ran on the plain build as well, and the
# benchmarks ran here too, until the whole took more than the ten minutes it
# may take (752 s in CI): the benchmarks print figures, never a verdict, and
# run in the main job (scripts/main.sh); their programs are built here all
# the same.
# The last line is "N passed, N failed"; a skipped test counts as failed.
# Run as a user, it re-executes itself under sudo (see common.sh).

set -u
. "$(dirname "$0")/common.sh"

install_deps || exit 1
# The trees are only set up here: meson test builds what the tests it runs
# need. The plain tree leaves out the unit tests' programs, which run under
# ASan alone (a developer's ninja, and main.sh, build them), and builds the
# benchmarks' programs, which no test runs here. A tree set up here has line
# tables only (-g1, from CFLAGS, which meson reads at setup alone: a tree set
# up before keeps its options): enough for the stacks the wire harness prints
# of a hung process, and 23 % less to compile than -g (rdm.c: 2.3 s against
# 3.0 s)
CFLAGS="${CFLAGS:+$CFLAGS }-g1" configure build || exit 1
mapfile -t bench_programs < <(test_programs build bench)
ninja -C "$top/build" "${bench_programs[@]}" || exit 1
# -O1, the level AddressSanitizer's documentation recommends: on this 2-core
# host -O2 took 77 s to build against 55 s, and the suites under it ran as
# long (127 s against 122 s). -g1: line tables, which is all that the reports'
# stacks take (file:line), and 30 % less to compile than -g (rdm.c: 6.5 s
# against 9.2 s). Two of UBSan's checks left out, which took half of the
# tree's compile time (rdm.c: 5.0 s without them, 10.2 s with, 5.2 s under
# ASan alone): object-size, which ASan's own check of every access against
# its object's bounds covers at run time, and pointer-overflow (pointer
# arithmetic that wraps); the others stay (alignment, null, bounds, shift,
# signed overflow...). A unity build (meson's unity, 8 sources a unit): most
# of a source's compile is parsing DPDK's headers (rte_mbuf.h alone brings
# every x86 intrinsics header, 0.9 s of a file that includes nothing else),
# and a unit parses them once for its 8 sources. The whole tree built in 41 s
# against 75 s. The plain tree stays one source a unit, as the package is
# built: its code is what the benchmarks measure, and it checks that every
# source includes what it uses.
configure build-asan -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 \
	-Ddebug=false "-Dc_args=-g1 -fno-sanitize=pointer-overflow,object-size" \
	-Dunity=on -Dunity_size=8 || exit 1

cd "$top" || exit 1
dpdk_rundir_undo_on_exit
# a log left by an earlier run must not stand in for one that did not run
rm -f build/meson-logs/tests.json build-asan/meson-logs/asan.json
# Three tests at a time where they may run together (is_parallel: the unit
# tests, the integration tests that poll no wire; the others run alone
# whatever this says): most of their time is processes that start and sleep
# (DPDK's 100 ms measure of the TSC among it), and on these 2 vCPUs the unit
# suites took 41-44 s at three against 53 s at two (four: 43 s), the five
# integration tests 17.7 s against 21.3 s.
# The sanitizers' tree compiles after the integration suite, not beside it,
# though that suite leaves 36 % of both vCPUs idle (processes that start and
# sleep). Measured on fresh clones (2026-11-29): under chrt --idle alone the
# compile weighed as much as a test (meson test gives each test a session of
# its own, and the scheduler shares the CPUs between sessions first) and the
# whole took 585 s against 559; idle in a session of its own whose autogroup
# had nice 19, the two test parts took 539 s on average (513-574, six runs)
# against 545 (524-559, three): the integration suite ran 10-60 s longer, the
# package build in deb-package 59-75 s against 53-58, for no gain beyond the
# host's own spread. Nor did the compile beside deb-package alone (148 s for
# both against 97 + 56 one after the other), nor precompiled headers (meson's
# c_pch on the components: ASan's tree 10 s less user time, 8 s more system
# time for the 40 MB header each source maps, the plain tree no faster). The
# compiles take both CPUs whole, and the integration suite's idle share is
# its tests' own waits, which work beside them stretches as much as it gains.
# Under ASan a process pays at exit for what it still holds: LeakSanitizer
# scans every live block for pointers, and rdm_peer's 32-64 MiB of message
# buffers took 0.37 s of each of rdm-chaos's 46 processes; it frees them now
# (rdm-chaos 47 s alone, 51-61 s on fresh clones, against 56-67)
echo "== test suite (${SECONDS} s since start)"
meson test -C build --no-suite unit --no-suite bench --no-suite wire --num-processes 3 \
	--print-errorlogs --logbase tests
echo "== unit suites and the two-process wire tests under AddressSanitizer and UBSan (${SECONDS} s since start)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan --suite unit --suite wire --num-processes 3 --print-errorlogs \
	--logbase asan

python3 - build/meson-logs/tests.json build-asan/meson-logs/asan.json <<'PY'
import json, sys
passed = failed = 0
for path, tag in zip(sys.argv[1:], ("", " (asan)")):
    try:
        f = open(path)
    except OSError:
        # meson test could not build its programs, or did not start
        failed += 1
        print("not passed%s: no results (%s is missing)" % (tag, path))
        continue
    with f:
        for line in f:
            t = json.loads(line)
            if t["result"] == "OK":
                passed += 1
            else:
                failed += 1
                print("not passed%s: %s (%s)" % (tag, t["name"], t["result"]))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
