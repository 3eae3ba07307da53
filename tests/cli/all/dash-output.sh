# "-o -" is standard output in every tool that writes (cmd.h): the same
# bytes as without -o, no file named "-", and into a full disk the same
# message as standard output's, "standard output: write error".
. "$TESTS/lib.sh"
gpumem-synth -s leak -o leak.csv
n=0
while read -r name cmd; do
	[ -n "$name" ] || continue
	$cmd > want.out
	$cmd -o - > got.out
	cmp want.out got.out || die "$name -o -: not what standard output gets"
	! [ -e ./- ] || die "$name -o -: wrote a file named '-'"
	rc=0; $cmd -o - > /dev/full 2> err.txt || rc=$?
	expect_eq "$name -o - > /dev/full: exit" $rc 2
	grep -q "^gpumem-$name: standard output: write error: No space left on device$" err.txt ||
		die "$name -o - > /dev/full: $(cat err.txt)"
	n=$((n + 1))
done <<'CMDS'
read gpumem-read -q leak.csv
synth gpumem-synth -s leak
pcap gpumem-pcap -q leak.csv
usage gpumem-usage -q leak.csv
tasks gpumem-tasks -q leak.csv
plot gpumem-plot -q --script leak.csv
gantt gpumem-gantt -q --text leak.csv
CMDS
expect_eq "tools tried" $n 7
