#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# Issue 16: the Debian packages. scripts/package.sh builds them from the
# working tree with dpkg-buildpackage -us -uc, and lintian finds no error;
# they install with `apt-get install ./*.deb`: the provider in libfabric's
# provider directory, fi_dpdk(7), the programs as fi_dpdk_info and
# fi_dpdk_pingpong, <rdma/fi_ext_dpdk.h> with libfabric-dpdk.pc, which
# builds a program. Debian's fi_pingpong -p dpdk then runs over memif with
# no FI_PROVIDER_PATH, and `apt-get remove` leaves no package and no file.
#
# Needs root (apt-get), and no package of these installed beforehand, nor a
# provider installed by hand: it installs and removes them.
#
# usage: deb_package.sh <source root>

set -u
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/harness.sh"

src=$1
libdir=$(pkg-config --variable=libdir libfabric)
if [ "$(id -u)" -ne 0 ]; then
	echo "needs root: the packages are installed with apt-get"
	exit 77
fi
# installed_ours: the packages of ours dpkg knows in any state but not-installed
installed_ours() {
	dpkg-query -W -f '${Package} ${db:Status-Status}\n' 'libfabric-dpdk*' 2>/dev/null |
		grep -v ' not-installed$'
}
if [ -n "$(installed_ours)" ]; then
	echo "a libfabric-dpdk package is installed: this test would replace and remove it"
	exit 77
fi
if [ -e "$libdir/libfabric/libdpdk-fi.so" ]; then
	echo "$libdir/libfabric/libdpdk-fi.so is there (meson install?): this test would remove it"
	exit 77
fi
wire_mktemp || exit 1
tmp=$WIRE_TMP
unset FI_PROVIDER_PATH FI_DPDK_EAL_ARGS FI_PROVIDER

# lintian's own files (mldbm-*) in the temporary directory: none left behind
lint_left() {
	find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'mldbm-*' 2>/dev/null | wc -l
}
left=$(lint_left)
t0=$(date +%s)
"$src/scripts/package.sh" "$tmp/deb" >"$tmp/package.log" 2>&1
rc=$?
cat "$tmp/package.log"
check "scripts/package.sh: dpkg-buildpackage -us -uc, lintian without error ($(($(date +%s) - t0)) s)" \
	test "$rc" -eq 0
check "lintian left no file in ${TMPDIR:-/tmp}" test "$(lint_left)" -eq "$left"
check "lintian: no error" lacks "$(cat "$tmp/deb/lintian.log" 2>/dev/null)" '^E: '
debs=("$tmp"/deb/*.deb)
version=$(sed -n "s/^ *version: '\([^']*\)',$/\1/p" "$src/meson.build")
for p in libfabric-dpdk libfabric-dpdk-bin libfabric-dpdk-dev; do
	check "$p, at the project's version ($version)" \
		test -f "$tmp/deb/${p}_${version}_$(dpkg --print-architecture).deb"
done

# the files the packages bring that the machine did not have
for d in "${debs[@]}"; do
	dpkg-deb --fsys-tarfile "$d" | tar -t | sed 's|^\./|/|; s|/$||'
done | sort -u | while read -r f; do
	[ -n "$f" ] && [ ! -e "$f" ] && echo "$f"
done >"$tmp/new-files"

wire_on_exit "apt-get remove -y -q libfabric-dpdk >/dev/null 2>&1"
t0=$(date +%s)
DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -q -o DPkg::Lock::Timeout=60 \
	"${debs[@]}" >"$tmp/install.log" 2>&1
rc=$?
[ "$rc" -eq 0 ] || tail -n 20 "$tmp/install.log"
check "apt-get install ./*.deb ($(($(date +%s) - t0)) s)" test "$rc" -eq 0

files=$(dpkg -L libfabric-dpdk libfabric-dpdk-bin libfabric-dpdk-dev 2>/dev/null)
check "the provider in libfabric's provider directory" \
	contains "$files" "^$libdir/libfabric/libdpdk-fi.so$"
check "fi_dpdk(7)" contains "$files" '^/usr/share/man/man7/fi_dpdk\.7\.gz$'
check "fi_dpdk_info" contains "$files" '^/usr/bin/fi_dpdk_info$'
check "fi_dpdk_pingpong" contains "$files" '^/usr/bin/fi_dpdk_pingpong$'
check "their manual pages" count_is "$files" '^/usr/share/man/man1/fi_dpdk_(info|pingpong)\.1\.gz$' 2
check "no other program" count_is "$files" '^/usr/bin/' 2
check "<rdma/fi_ext_dpdk.h>" contains "$files" '^/usr/include/rdma/fi_ext_dpdk\.h$'
check "libfabric-dpdk.pc" contains "$files" "^$libdir/pkgconfig/libfabric-dpdk\\.pc$"
check "fi_info -l lists dpdk, no FI_PROVIDER_PATH" contains "$(fi_info -l 2>/dev/null)" '^dpdk:$'

printf '#include <rdma/fi_ext_dpdk.h>\nint main(void) { return fi_version() == FI_ADDR_DPDK; }\n' \
	>"$tmp/ext.c"
# shellcheck disable=SC2046
cc -o "$tmp/ext" "$tmp/ext.c" $(pkg-config --cflags --libs libfabric-dpdk) 2>&1
check "a program built with pkg-config libfabric-dpdk" test -x "$tmp/ext"

out=$(timeout 60 fi_dpdk_info --no-huge -m 256 --no-pci --no-shconf --no-telemetry \
	--log-level=warning --file-prefix "dfi-deb-$WIRE_ID" --vdev=net_null0 -- 2>&1)
rm -rf "/var/run/dpdk/dfi-deb-$WIRE_ID"
check "fi_dpdk_info lists the port" count_is "$out" '^    domain: net_null0$' 3

wire_setup memif || exit 1
port=$(wire_free_port $((47800 + RANDOM % 100)))
args=(-p dpdk -e rdm -S 1024 -I 100 -c)
WIRE_LISTEN_PORT=$port wire_pair 60 "$tmp/server" "$tmp/client" \
	::: env FI_DPDK_EAL_ARGS="$(wire_eal server)" fi_pingpong "${args[@]}" -B "$port" \
	::: env FI_DPDK_EAL_ARGS="$(wire_eal client)" fi_pingpong "${args[@]}" -P "$port" 127.0.0.1
check "fi_pingpong -p dpdk -e rdm over memif, no FI_PROVIDER_PATH" test $? -eq 0
check "fi_pingpong: the client's figures" contains "$(cat "$tmp/client")" '^1k +100 +=100 '
wire_teardown

t0=$(date +%s)
DEBIAN_FRONTEND=noninteractive timeout 300 apt-get remove -y -q -o DPkg::Lock::Timeout=60 \
	libfabric-dpdk >"$tmp/remove.log" 2>&1
rc=$?
[ "$rc" -eq 0 ] || tail -n 20 "$tmp/remove.log"
check "apt-get remove libfabric-dpdk ($(($(date +%s) - t0)) s)" test "$rc" -eq 0
check "no package left, in any state" test -z "$(installed_ours)"
left=$(while read -r f; do [ -e "$f" ] && echo "$f"; done <"$tmp/new-files")
check "no file left of the $(wc -l <"$tmp/new-files") the packages brought" test -z "$left"
[ -z "$left" ] || echo "$left"
finish
