#!/bin/sh
# SPDX-License-Identifier: ISC
# tests/busy.sh [-n LOOPS] [RUN.SH ARGS...]: the suite (tests/run.sh) with
# every core kept busy by other work, as on a shared build machine: LOOPS
# busy loops (default: one a CPU online) at nice 19, started before the
# run and stopped after it however it ends.  A case that passes alone but
# fails here waits for time instead of for what it needs.  Without
# arguments it runs what `make check` runs (build both variants first:
# make all tests && make SANITIZE=1 all tests); with them, those are
# tests/run.sh's (sh tests/busy.sh --only cli/pcap/ bin build/normal).
# Not part of make check: the whole suite takes long enough unloaded.
# Its output is tests/run.sh's; the exit status too.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
loops=$(nproc 2> /dev/null || echo 2)
if [ "${1:-}" = -n ]; then
	loops=$2
	shift 2
fi
case $loops in
''|*[!0-9]*) echo "tests/busy.sh: -n wants a number of loops, not '$loops'" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || set -- "$top/bin" "$top/build/normal" \
    "$top/build/san/bin" "$top/build/san"
pids=
trap '[ -z "$pids" ] || kill $pids 2> /dev/null' EXIT
trap 'exit 130' INT TERM
i=0
while [ $i -lt "$loops" ]; do
	nice -n 19 sh -c 'while :; do :; done' < /dev/null > /dev/null 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
echo "tests/busy.sh: $loops busy loops at nice 19 (pids$pids)" >&2
sh "$top/tests/run.sh" "$@"
