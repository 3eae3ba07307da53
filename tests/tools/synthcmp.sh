#!/bin/sh
# SPDX-License-Identifier: ISC
# synthcmp STREAM TRUTH [OPTION...] INPUT...: read the inputs (logs made
# from a gpumem synth run, then damaged or changed) with gpumem read and
# the options, and check that they hold synth's own records (STREAM: time,
# GPU, process, MiB used), then that gpumem tasks finds synth's truth
# (TRUTH, compared by tests/tools/taskcmp.sh).  Messages of the reader
# go to stderr once; exit 1 at the first difference.
stream=$1 truth=$2
shift 2
gpumem-read -o synthcmp.out "$@" || exit 1
tail -n +2 synthcmp.out | cut -d, -f1,3,4,5 > synthcmp.got
tail -n +2 "$stream" | cut -d, -f1,3,4,5 > synthcmp.want
cmp synthcmp.want synthcmp.got || { echo "records differ from $stream" >&2; exit 1; }
gpumem tasks -q "$@" > synthcmp.tasks 2> /dev/null || exit 1
sh "$(dirname "$0")/taskcmp.sh" "$truth" synthcmp.tasks || { echo "tasks differ from $truth" >&2; exit 1; }
rm -f synthcmp.out synthcmp.got synthcmp.want synthcmp.tasks
