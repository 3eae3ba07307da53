#!/bin/sh
# SPDX-License-Identifier: ISC
# tests/deps.sh [--bench | --coverage | --hint]: make sure the Debian
# packages that gpumem needs to build and test (with --bench: to
# benchmark; with --coverage: to report coverage, `make coverage`) are
# installed; install the missing ones when we can (root, or sudo without a
# password), else say which command to run.  Packages only some tests use
# (they skip without them) are installed when we can, and only named when
# we cannot.  gnuplot draws the charts; xmllint checks SVG in the tests.
# Chromium (the report renders in a browser) is left to CI (.ci/run): the
# test that needs it skips without it, and it is too big to install behind
# a user's back.  .ci/run installs the same packages, and chromium.
#
# --hint installs nothing: one line on stdout naming the packages of
# tests that are missing (chromium too) and the command that installs
# them, nothing when none is; tests/run.sh shows it above its last line.
set -u
# package:what-shows-it-is-there
need="
gcc:cmd:cc
make:cmd:make
pkg-config:cmd:pkg-config
libpcap-dev:pc:libpcap
zlib1g-dev:pc:zlib
libzstd-dev:pc:libzstd
liblzma-dev:pc:liblzma
libbz2-dev:file:/usr/include/bzlib.h
libyaml-dev:pc:yaml-0.1
libexpat1-dev:pc:expat
gzip:cmd:gzip
gnuplot-nox:cmd:gnuplot
libxml2-utils:cmd:xmllint
"
# For tests that skip without them: the Wireshark dissector's (tshark),
# the check that captures gpumem writes are sound (tcpdump), the main
# paths under valgrind, the zsh and fish completions, the man pages
# (mandoc -T lint), the Debian package (dpkg-dev, debhelper, lintian),
# the metrics (promtool), compressed inputs made by their own tools, the
# fleet over GNU parallel and a private sshd (parallel, rsync, openssh)
# and on a one-node Slurm cluster (slurm-wlm, munge), JSON checked by jq
# and python3, the pytest plugin of contrib/pytest (python3-pytest), captures made by dumpcap and cut by editcap and mergecap
# (wireshark-common), network namespaces (iproute2), and the fuzz smoke
# (clang and its libFuzzer, in libclang-rt-dev).  Daemons are looked for
# in /usr/sbin, which a user's PATH may lack.
want="
tshark:cmd:tshark
tcpdump:cmd:tcpdump
valgrind:cmd:valgrind
zsh:cmd:zsh
fish:cmd:fish
mandoc:cmd:mandoc
dpkg-dev:cmd:dpkg-buildpackage
build-essential:cmd:g++
debhelper:cmd:dh
lintian:cmd:lintian
prometheus:cmd:promtool
zstd:cmd:zstd
xz-utils:cmd:xz
bzip2:cmd:bzip2
lz4:cmd:lz4
parallel:cmd:parallel
rsync:cmd:rsync
openssh-client:cmd:ssh
openssh-server:file:/usr/sbin/sshd
slurm-wlm:file:/usr/sbin/slurmctld
munge:file:/usr/sbin/munged
jq:cmd:jq
python3:cmd:python3
python3-pytest:cmd:pytest-3
wireshark-common:cmd:editcap
iproute2:cmd:ip
clang:cmd:clang
libclang-rt-dev:glob:/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a
"
# Named by --hint only.
hint="
chromium:cmd:chromium
"
# make bench: the peers it times gpumem against, and hyperfine to time.
if [ "${1:-}" = --bench ]; then
	need="$need
hyperfine:cmd:hyperfine
miller:cmd:mlr
tcpdump:cmd:tcpdump
tshark:cmd:tshark
parallel:cmd:parallel
time:cmd:/usr/bin/time
"
fi
# make coverage: gcov comes with gcc; lcov reads its counters and writes
# the report.
if [ "${1:-}" = --coverage ]; then
	need="$need
lcov:cmd:lcov
"
fi
missing_of() {
	for item in $1; do
		pkg=${item%%:*}
		rest=${item#*:}
		kind=${rest%%:*}
		what=${rest#*:}
		case $kind in
		cmd) command -v "$what" >/dev/null 2>&1 && continue ;;
		pc) command -v pkg-config >/dev/null 2>&1 &&
			pkg-config --exists "$what" 2>/dev/null && continue ;;
		file) [ -e "$what" ] && continue ;;
		glob) for f in $what; do [ -e "$f" ] && break; done
			[ -e "$f" ] && continue ;;
		esac
		printf ' %s' "$pkg"
	done
}
missing=$(missing_of "$need")
optional=$(missing_of "$want")
if [ "${1:-}" = --hint ]; then
	optional="$missing$optional$(missing_of "$hint")"
	# command -v finds chromium-browser or google-chrome as well.
	case " $optional " in *" chromium "*)
		if command -v chromium-browser > /dev/null 2>&1 ||
		    command -v google-chrome > /dev/null 2>&1; then
			optional=$(echo "$optional" | sed 's/ chromium//')
		fi ;;
	esac
	[ -z "$optional" ] ||
		echo "not installed:$optional (the cases that need them skipped); sudo apt-get install$optional"
	exit 0
fi
[ -z "$missing$optional" ] && exit 0
[ -n "$missing" ] && echo "gpumem: missing Debian packages:$missing" >&2
[ -n "$optional" ] && echo "gpumem: missing Debian packages some tests use:$optional" >&2
if [ "$(id -u)" = 0 ]; then
	run=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	run=sudo
else
	if [ -n "$missing" ]; then
		echo "gpumem: install them with: sudo apt-get install$missing$optional" >&2
		exit 2
	fi
	echo "gpumem: the tests that need them are skipped (sudo apt-get install$optional)" >&2
	exit 0
fi
install() {
	$run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >&2 ||
		{ $run apt-get update -q >&2 &&
		  $run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >&2; }
}
if [ -n "$missing" ]; then
	install $missing $optional || { echo "gpumem: could not install:$missing" >&2; exit 2; }
elif ! install $optional; then
	# One unknown to this release must not keep the others out.
	left=
	for pkg in $optional; do
		install "$pkg" || left="$left $pkg"
	done
	[ -z "$left" ] ||
		echo "gpumem: could not install:$left; the tests that need them are skipped" >&2
fi
exit 0
