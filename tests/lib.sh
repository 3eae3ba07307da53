# SPDX-License-Identifier: ISC
# tests/lib.sh: helpers for end-to-end cases (sourced: . "$TESTS/lib.sh").

# Skip this case, saying why (exit 77).
skip() {
	echo "$*"
	exit 77
}

# The shared corpus, or skip when it is absent (a user's clone has none).
need_corpus() {
	[ -n "$CORPUS" ] && [ -d "$CORPUS/$1" ] ||
		skip "../shared/corpus/$1 is absent"
}

# Fail with a message on stderr.
die() {
	echo "FAILED: $*" >&2
	exit 1
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || die "$1: got '$2', expected '$3'"
}

# expect_exit WANT CMD...: run CMD, check its exit status.
expect_exit() {
	want=$1
	shift
	"$@"
	rc=$?
	[ $rc -eq "$want" ] || die "$*: exit $rc, expected $want"
}

# Count the records (lines after the header) of a record stream file.
nrec() {
	tail -n +2 "$1" | wc -l | tr -d ' '
}
