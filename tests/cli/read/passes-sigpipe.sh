# A reader that stops early ("| head -n 1") ends a merge in passes as
# quietly as one pass (SIGPIPE, no message), and its temporary directory
# goes too: $TMPDIR is left empty (read; tasks, whose output is
# smaller than a pipe's buffer, may end first).
. "$TESTS/lib.sh"
mkdir tmp
TMPDIR=$PWD/tmp
export TMPDIR
for i in 1 2 3 4 5; do
	gpumem-synth -s random --duration 20m --host h$i -o s$i.csv
done
for tool in gpumem-read gpumem-tasks; do
	{ rc=0; $tool -q --max-open 2 s1.csv s2.csv s3.csv s4.csv s5.csv \
	    2> err.txt || rc=$?; echo $rc > rc.txt; } | head -n 1 > first.txt
	# tasks' table may fit in the pipe before head leaves: 0 then.
	case $tool:$(cat rc.txt) in
	*:141|gpumem-tasks:0) ;;
	*) die "$tool | head: exit $(cat rc.txt)" ;;
	esac
	[ ! -s err.txt ] || die "$tool | head: $(cat err.txt)"
	[ -s first.txt ] || die "$tool | head: no first line"
	[ -z "$(ls -A tmp)" ] || die "$tool | head: left $(ls -A tmp)"
done
