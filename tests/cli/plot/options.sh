# Bad values are trouble (exit 2) with a message naming the option, and
# so are inputs plot cannot draw.
. "$TESTS/lib.sh"
gpumem-synth -s leak > leak.csv
check() {
	want=$1
	shift
	rc=0; "$@" > out.txt 2> err.txt || rc=$?
	expect_eq "$*: exit" $rc 2
	expect_eq "$*: message" "$(cat err.txt)" "$want"
}
check "gpumem-plot: --terminal: 'gif': expected png, svg, pdf or dumb" gpumem-plot -T gif leak.csv
check "gpumem-plot: --size: '800': expected WIDTHxHEIGHT (allowed 20x10-20000x20000)" gpumem-plot --size 800 leak.csv
check "gpumem-plot: --marks: 'x': expected an integer (allowed 0-1000)" gpumem-plot --marks x leak.csv
check "gpumem-plot: nothing.csv: cannot open: No such file or directory" gpumem-plot --script nothing.csv
gpumem-tasks -q leak.csv > tasks.csv
check "gpumem-plot: tasks.csv: a task table (gpumem tasks): expected a record stream, a log or a usage curve" gpumem-plot --script tasks.csv
exit 0
