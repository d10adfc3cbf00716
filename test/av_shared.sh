#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# A named AV shared by three processes through shared memory, FI_AV_TABLE
# then FI_AV_MAP: one creates and fills it, one reads it (FI_READ), one adds
# to it; the creator sees the addition, a map's handles (a removed entry's
# included) mean the same in every process, and the region is gone once the
# last process closed it.
#
# usage: av_shared.sh <path of the av_shared program>

set -u
. "$(dirname "$0")/lib.sh"

prog=$1
tmp=$(mktemp -d)
names=()
cleanup() {
	[ -n "${creator:-}" ] && kill "$creator" 2>/dev/null
	rm -rf "$tmp"
	for n in "${names[@]}"; do
		rm -f "/dev/shm/dfi-av.$n"
	done
}
trap cleanup EXIT

# scenario TYPE [HANDLE_FILE]: a map when a handle file is given
scenario() {
	local type=$1 name=dfi-shared-$1-$$ out rc added
	shift
	names+=("$name")
	rm -f "$tmp/in"
	mkfifo "$tmp/in"
	timeout 60 "$prog" create "$name" 100 "$@" <"$tmp/in" >"$tmp/creator.out" 2>&1 &
	creator=$!
	exec 3>"$tmp/in"
	for _ in $(seq 100); do
		grep -q ready "$tmp/creator.out" 2>/dev/null && break
		sleep 0.1
	done
	check "$type: the creator filled the AV" grep -q ready "$tmp/creator.out"
	check "$type: the region exists" test -e "/dev/shm/dfi-av.$name"

	out=$(timeout 60 "$prog" read "$name" 100 "$@" 2>&1)
	check "$type: a read-only process sees every entry and cannot insert" \
		contains "$out" 'read .*: ok'
	out=$(timeout 60 "$prog" join "$name" 100 "$@" 2>&1)
	check "$type: another process adds an entry" contains "$out" 'join .*: ok'
	added=$(sed -n 's/^added //p' <<<"$out")

	echo "${added:-none}" >&3
	exec 3>&-
	wait "$creator"
	rc=$?
	creator=
	check "$type: the creator sees the other process's entry" test "$rc" -eq 0
	cat "$tmp/creator.out"
	check "$type: the region is removed with its last user" \
		test ! -e "/dev/shm/dfi-av.$name"
	out=$(timeout 60 "$prog" read "$name" 100 "$@" 2>&1)
	check "$type: a read-only open of a removed AV fails" contains "$out" 'FAILED: fi_av_open'
}

scenario table
scenario map "$tmp/handles"

finish
