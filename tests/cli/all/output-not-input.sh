# -o naming an input is refused before anything is read or written (exit
# 2, a message naming both), whatever the name: the same path, a hard
# link, a symbolic link, a file a directory input holds, /dev/fd/1 with
# standard output appended to the input; check's reports likewise (an
# input, the baseline).  The input is left as it was (cmp against a copy
# made with cp).  What is not the same file (st_dev, st_ino) is written:
# a new file, a hidden file in the input directory, /dev/null read and
# written.
. "$TESTS/lib.sh"
gpumem-synth -s leak -o in.csv
cp in.csv orig.csv
# refused WHAT-IN-MESSAGE OUT INPUT-NAMED CMD...: the message is the
# first gpumem-* word's.
refused() {
	_what=$1 _out=$2 _in=$3
	shift 3
	_prog=$(printf '%s\n' "$@" | grep -o -m 1 'gpumem-[a-z]*')
	rc=0; "$@" > out.txt 2> err.txt || rc=$?
	expect_eq "$*: exit" $rc 2
	expect_eq "$*: message" "$(cat err.txt)" \
	    "$_prog: $_out: $_what would replace the input $_in: refused"
	[ ! -s out.txt ] || die "$*: wrote $(head -c 100 out.txt)"
	cmp -s orig.csv in.csv || die "$*: the input changed"
}
for t in "gpumem-read" "gpumem-tasks" "gpumem-usage" "gpumem-pcap" \
    "gpumem-gantt --text" "gpumem-plot --script" "gpumem-report"; do
	# shellcheck disable=SC2086
	refused -o in.csv in.csv $t -q -o in.csv in.csv
done
ln in.csv hard.csv
refused -o hard.csv in.csv gpumem-tasks -q -o hard.csv in.csv
ln -s in.csv soft.csv
refused -o soft.csv in.csv gpumem-read -q -o soft.csv in.csv
refused -o in.csv soft.csv gpumem-read -q -o in.csv orig.csv soft.csv
mkdir d
cp in.csv d/a.csv
cp in.csv d/b.csv
refused -o d/b.csv d gpumem-usage -q -o d/b.csv d
cmp -s in.csv d/b.csv || die "d/b.csv changed"
refused -o ./d/../d/b.csv d/ gpumem-usage -q -o ./d/../d/b.csv d/
refused -o /dev/fd/1 in.csv sh -c 'exec gpumem-read -q -o /dev/fd/1 in.csv >> in.csv'
# check's reports: an input, the baseline.
gpumem-tasks -q -o base.csv in.csv
cp base.csv base.orig
refused "a report" in.csv in.csv gpumem-check -q --json in.csv in.csv
refused "a report" in.csv in.csv gpumem-check -q --markdown - --junit in.csv in.csv
rc=0; gpumem-check -q --baseline base.csv --json base.csv in.csv 2> err.txt || rc=$?
expect_eq "check --json BASELINE: exit" $rc 2
expect_eq "check --json BASELINE: message" "$(cat err.txt)" \
    "gpumem-check: base.csv: a report would replace the baseline: refused"
cmp -s base.orig base.csv || die "the baseline changed"
# Not an input: written.
gpumem-read -q -o new.csv in.csv
cmp -s in.csv new.csv || die "-o new.csv: not the input's records"
echo old > d/.out
gpumem-read -q -o d/.out d
[ "$(head -c 3 d/.out)" != old ] || die "-o d/.out: not written"
gpumem-read -q -o /dev/null /dev/null
gpumem-read -q -o d/c.csv in.csv
cmp -s in.csv d/c.csv || die "-o d/c.csv: not the input's records"
