#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Tree rules, in the spirit of DPDK's devtools/checkpatches.sh: forbidden
# tokens in the provider, SPDX headers everywhere, and every FI_DPDK_*
# parameter documented.
#
# usage: check_tree.sh <source root> <directory of libdpdk-fi.so>

set -u
. "$(dirname "$0")/lib.sh"

src=$1
cd "$src" || exit 1

code=$(git ls-files 'lib/*.[ch]' 'drivers/*.[ch]' 'include/*.h' 2>/dev/null ||
	find lib drivers include -name '*.[ch]')
[ -n "$code" ] || { echo "no source found"; exit 1; }

forbidden() {
	# forbidden REGEX: no provider source matches
	! grep -nE -- "$1" $code
}
# (code before any comment opener on the line)
check "no rte_panic/rte_exit/exit/abort in the provider" \
	forbidden '^[^*/]*\b(rte_panic|rte_exit|exit|abort)\('
check "no raw __attribute__" forbidden '__attribute__'
check "no %llu/%llx: PRIu64/PRIx64 for 64-bit values" forbidden '%ll[udx]'
check "no legacy atomics or barriers" forbidden '\b(rte_atomic(16|32|64)_|rte_smp_[rw]?mb|__sync_)'
check "no declarations in for()" forbidden 'for \((int|unsigned|size_t|uint[0-9]+_t) '

spdx_missing() {
	local f
	for f in $(git ls-files '*.c' '*.h' '*.sh' 'meson.build' '*/meson.build' \
		   'meson_options.txt' 2>/dev/null); do
		head -3 "$f" | grep -q 'SPDX-License-Identifier: BSD-3-Clause' || echo "$f"
	done
}
out=$(spdx_missing)
check "SPDX header in every source file" test -z "$out"
[ -z "$out" ] || echo "$out"

params=$(FI_PROVIDER_PATH=$2 fi_info -e 2>/dev/null | tr -d '\0' |
	 grep -oE '^# FI_DPDK_[A-Z0-9_]+' | sed 's/^# //' | sort -u)
check "the provider declares parameters" test -n "$params"
for p in $params; do
	check "$p documented in README.md" grep -q "$p" README.md
	check "$p documented in doc/fi_dpdk.7" grep -q "$p" doc/fi_dpdk.7
done

finish
