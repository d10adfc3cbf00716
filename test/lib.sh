# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Assertions for the shell integration tests: each check prints "ok" or
# "not ok" with its description; finish exits non-zero if any failed.

checks=0
failures=0

# libfabric loads Debian's psm provider, whose library (libinfinipath)
# catches SIGSEGV, SIGBUS and the like in every libfabric program, writes a
# backtrace file into its working directory and exits with status 1: a crash
# would read as an ordinary error exit, or pass a check that expects one.
# Without that handler a crash ends the process by its signal. (Also set by
# test/meson.build's default setup and by harness.sh.)
export IPATH_NO_BACKTRACE=1

check() {
	local desc=$1
	shift
	checks=$((checks + 1))
	if "$@"; then
		echo "ok $checks - $desc"
	else
		failures=$((failures + 1))
		echo "not ok $checks - $desc"
	fi
}

# contains TEXT REGEX
contains() {
	grep -qE -- "$2" <<<"$1"
}

# lacks TEXT REGEX
lacks() {
	! grep -qE -- "$2" <<<"$1"
}

# count_is TEXT REGEX N
count_is() {
	local n
	n=$(grep -cE -- "$2" <<<"$1")
	[ "$n" -eq "$3" ] || { echo "  expected $3 lines matching '$2', got $n" >&2; return 1; }
}

# first_match_is TEXT REGEX EXPECTED: the first line matching REGEX equals EXPECTED
first_match_is() {
	[ "$(grep -m1 -E -- "$2" <<<"$1")" = "$3" ]
}

finish() {
	echo "# $checks checks, $failures failed"
	[ "$failures" -eq 0 ]
}

# build_option BUILD NAME: the value of a meson option of a build directory
build_option() {
	meson introspect "$1" --buildoptions | python3 -c 'import json, sys
print([o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]][0])' "$2"
}

# destdir_install BUILD DEST: `meson install` of BUILD under DEST, the layout
# of a real install; prints the provider directory it used, without DEST
# (-Dprovider_dir, else libfabric's own: <libfabric libdir>/libfabric)
destdir_install() {
	local dir
	meson install -C "$1" --no-rebuild --quiet --destdir "$2" >/dev/null 2>&1 || return 1
	dir=$(build_option "$1" provider_dir)
	if [ -z "$dir" ]; then
		dir=$(pkg-config --variable=libdir libfabric)/libfabric
	elif [ "${dir#/}" = "$dir" ]; then
		dir=$(build_option "$1" prefix)/$dir
	fi
	echo "$dir"
}
