# 1500 inputs under a soft limit of 256 open files: every input stays open
# for the merge, so the soft limit is raised to the hard one at start.
# The output is the inputs' records, all of them, in time order (truth:
# the records as awk split them, sorted by sort).  Raised, the limit
# needs no merge in passes (runs.h), which would write run files: with
# $TMPDIR a directory that does not exist, read still succeeds, where the
# same inputs read in passes (--max-open 200, as a soft limit of 256 left
# as it is would make it) stop at the temporary directory.
. "$TESTS/lib.sh"
TMPDIR=$PWD/missing
export TMPDIR
gpumem-synth -s random --gpus 2 --duration 30m > all.csv
mkdir in
awk -F, 'NR == 1 { h = $0; next }
{
	f = sprintf("in/n%04d.csv", (NR - 2) % 1500)
	if (!(f in seen)) { print h > f; seen[f] = 1 }
	print >> f
	close(f)
}' all.csv
expect_eq "inputs" "$(ls in | wc -l | tr -d ' ')" 1500
hard=$(ulimit -H -n)
[ "$hard" = unlimited ] || [ "$hard" -ge 1600 ] ||
	skip "the hard limit of open files is $hard"
rc=0; (ulimit -S -n 256; gpumem-read -q in/*.csv > out.csv) || rc=$?
expect_eq "exit status" $rc 0
tail -n +2 out.csv | sort -s -t, -k1,1n -c || die "not in time order"
tail -n +2 all.csv | sort > want
tail -n +2 out.csv | sort > got
cmp -s want got || die "records differ: $(diff want got | head -n 5)"
echo "$(nrec out.csv) records from 1500 inputs"
rc=0; gpumem-read -q --max-open 200 in/*.csv > /dev/null 2> passes.err ||
    rc=$?
expect_eq "in passes: exit status" $rc 2
sed "s|$PWD/||" passes.err
