#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Installs the dependencies, builds, and runs every test once: the
# integration suite and the benchmarks on the plain build, then the unit
# suites under AddressSanitizer and UndefinedBehaviorSanitizer (one build: UB
# such as a misaligned load fails the test), with the two-process wire tests
# (DGRAM, RDM chaos and peer death, MSG over memif), which run only there:
# the same checks with memory checked too. The unit suites ran on the plain
# build as well until the whole took more than the ten minutes it may take
# (656 s in CI); the integration tests and the benchmarks are what runs the
# plain build's code.
# The last line is "N passed, N failed"; a skipped test counts as failed.
# Run as a user, it re-executes itself under sudo (see common.sh).

set -u
. "$(dirname "$0")/common.sh"

install_deps || exit 1
build build || exit 1
# -O1, the level AddressSanitizer's documentation recommends: on this 2-core
# host -O2 took 77 s to build against 55 s, and the suites under it ran as
# long (127 s against 122 s). Only set up here: meson test builds what the
# tests it runs need, which leaves out the benchmarks and the MPI programs
# (67 s against 76 s)
configure build-asan -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 || exit 1

cd "$top" || exit 1
dpdk_rundir_undo_on_exit
# a log left by an earlier run must not stand in for one that did not run
rm -f build/meson-logs/tests.json build/meson-logs/bench.json build-asan/meson-logs/asan.json
echo "== test suite (${SECONDS} s since start)"
meson test -C build --no-suite unit --no-suite bench --no-suite wire --print-errorlogs --logbase tests
echo "== benchmarks (figures, not pass/fail on speed; ${SECONDS} s since start)"
meson test -C build --suite bench --verbose --logbase bench
echo "== unit suites and the two-process wire tests under AddressSanitizer and UBSan (${SECONDS} s since start)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan --suite unit --suite wire --print-errorlogs --logbase asan

python3 - build/meson-logs/tests.json build/meson-logs/bench.json \
	build-asan/meson-logs/asan.json <<'PY'
import json, sys
passed = failed = 0
for path, tag in zip(sys.argv[1:], ("", "", " (asan)")):
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
