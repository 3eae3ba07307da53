# Every tool that writes: to a full disk (/dev/full) it exits 2 with
# "standard output: write error"; into a closed pipe (| head -n 1) it
# ends quietly; with -o FILE (or check's report files) it writes a
# temporary file beside FILE and renames it at the end, so a run that
# fails half way (a file size limit, the disk full) leaves the old FILE
# as it was and no temporary file.
. "$TESTS/lib.sh"
gpumem-synth -s random --duration 10m -o big.csv
gpumem-synth -s leak -o leak.csv
# Each: a name, then the command writing to stdout.
while read -r name cmd; do
	[ -n "$name" ] || continue
	rc=0; $cmd > /dev/full 2> err.txt || rc=$?
	expect_eq "$name > /dev/full: exit" $rc 2
	grep -q "^[a-z-]*: standard output: write error: No space left on device$" err.txt ||
		die "$name > /dev/full: $(cat err.txt)"
	{ rc=0; $cmd 2> err.txt || rc=$?; echo $rc > rc.txt; } | head -n 1 > first.txt
	rc=$(cat rc.txt)
	# 1: check's gate said no (leak.csv leaks), as it should.
	[ "$rc" -le 1 ] || [ "$rc" -eq 141 ] || die "$name | head: exit $rc"
	! grep -qi 'write error\|broken pipe' err.txt || die "$name | head: $(cat err.txt)"
	[ -s first.txt ] || die "$name | head: no first line"
done <<'CMDS'
read gpumem-read -q big.csv
gpumem gpumem read -q big.csv
synth gpumem-synth -s random --duration 10m
pcap gpumem-pcap -q -f big.csv
usage gpumem-usage -q big.csv
usage-every gpumem-usage -q --every 1s big.csv
tasks gpumem-tasks -q big.csv
tasks-text gpumem-tasks -q -t text big.csv
tasks-json gpumem-tasks -q -t json big.csv
check gpumem-check -q --json - leak.csv
check-md gpumem-check -q --markdown - leak.csv
check-junit gpumem-check -q --junit - leak.csv
gantt gpumem-gantt -q --text big.csv
gantt-script gpumem-gantt -q --script big.csv
plot gpumem-plot -q --script big.csv
report gpumem-report -q big.csv
CMDS
# Each: a name, the output file, then the command writing it.
while read -r name out cmd; do
	[ -n "$name" ] || continue
	rm -f "$out"
	rc=0; $cmd > /dev/null 2> err.txt || rc=$?
	[ $rc -le 1 ] || die "$name: exit $rc: $(cat err.txt)"
	[ -s "$out" ] || die "$name: no $out"
	echo keep > "$out"
	rc=0; (trap '' XFSZ; ulimit -f 1; $cmd > /dev/null 2> err.txt) || rc=$?
	expect_eq "$name with a file size limit: exit" $rc 2
	grep -q "$out: write error: File too large" err.txt ||
		die "$name with a file size limit: $(cat err.txt)"
	expect_eq "$name with a file size limit: $out" "$(cat "$out")" keep
	! ls -a | grep -q '\.tmp' || die "$name: a temporary file was left: $(ls -a)"
done <<'CMDS'
read out.csv gpumem-read -q -o out.csv big.csv
synth out.csv gpumem-synth -s random --duration 10m -o out.csv
pcap out.pcap gpumem-pcap -q -o out.pcap big.csv
usage out.csv gpumem-usage -q -o out.csv big.csv
tasks out.csv gpumem-tasks -q -t text -o out.csv big.csv
check-json out.json gpumem-check -q --json out.json leak.csv
check-md out.md gpumem-check -q --markdown out.md leak.csv
check-junit out.xml gpumem-check -q --junit out.xml leak.csv
gantt out.txt gpumem-gantt -q --text -o out.txt big.csv
report out.html gpumem-report -q -o out.html big.csv
CMDS
if command -v gnuplot > /dev/null 2>&1; then
	echo keep > out.svg
	rc=0; (trap '' XFSZ; ulimit -f 1; gpumem-plot -q -o out.svg big.csv > /dev/null 2> err.txt) || rc=$?
	expect_eq "plot with a file size limit: exit" $rc 2
	expect_eq "plot with a file size limit: out.svg" "$(cat out.svg)" keep
	! ls -a | grep -q '\.tmp' || die "plot: a temporary file was left: $(ls -a)"
fi
exit 0
