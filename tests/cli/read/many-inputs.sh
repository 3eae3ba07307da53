# 1500 inputs under a soft limit of 256 open files: every input stays open
# for the merge, so the soft limit is raised to the hard one at start.
# The output is the inputs' records, all of them, in time order (truth:
# the records as awk split them, sorted by sort).
. "$TESTS/lib.sh"
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
