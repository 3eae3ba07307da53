# More inputs than may be open at once: read merges them in passes
# (runs.h), and writes what one pass writes, byte for byte: the records in
# the same order, the same messages in the same order, the same summaries
# and exit status.  Damaged inputs among them (made with awk, sed, head,
# cat), standard input and a pipe (never opened again), --strict runs that
# stop, tasks.  The temporary directory ($TMPDIR) is left empty.
# (many-inputs-ulimit.sh: 5000 inputs under "ulimit -n 256".)
. "$TESTS/lib.sh"
mkdir tmp
TMPDIR=$PWD/tmp
export TMPDIR
# same_passes TOOL ARGS...: TOOL in one pass (-j 1) and in passes, with 3
# inputs open at once (-j 1) and 2 (-j 2): the same stdout and stderr,
# apart and on one file, and exit status; then one pass's exit status,
# line count and stderr.  Standard input is file $SP_IN, or a pipe from
# cat of file $SP_PIPE, afresh for each run.
run() {
	if [ -n "${SP_PIPE:-}" ]; then
		cat "$SP_PIPE" | "$@"
	else
		"$@" < "${SP_IN:-/dev/null}"
	fi
}
same_passes() {
	_sp_tool=$1
	shift
	_sp_rc1=0
	run "$_sp_tool" -j 1 "$@" > p1.out 2> p1.err || _sp_rc1=$?
	run "$_sp_tool" -j 1 "$@" > p1.both 2>&1 || :
	for _sp_o in "-j 1 --max-open 3" "-j 2 --max-open 2"; do
		_sp_rc=0
		# shellcheck disable=SC2086
		run "$_sp_tool" $_sp_o "$@" > p.out 2> p.err || _sp_rc=$?
		cmp -s p1.out p.out ||
			die "$_sp_tool $_sp_o $*: stdout differs: $(diff p1.out p.out | head -5)"
		cmp -s p1.err p.err ||
			die "$_sp_tool $_sp_o $*: stderr differs: $(diff p1.err p.err | head -5)"
		expect_eq "$_sp_tool $_sp_o $*: exit" $_sp_rc $_sp_rc1
		# shellcheck disable=SC2086
		run "$_sp_tool" $_sp_o "$@" > p.both 2>&1 || :
		cmp -s p1.both p.both ||
			die "$_sp_tool $_sp_o $*: stdout and stderr on one file differ"
		[ -z "$(ls -A tmp)" ] || die "$_sp_tool $_sp_o $*: left $(ls tmp)"
	done
	echo "== $_sp_tool $*: exit $_sp_rc1, $(wc -l < p1.out) lines"
	cat p1.err
}
damaged_inputs
gpumem-synth -s random --seed 2 --duration 20m --gpus 2 --host g -o g.csv
: > empty.csv
set -- bad-rows.csv bad-date.csv shuffled.csv joined.csv s-bad.csv s-cut.csv \
    a/compute-apps.csv b/query-gpu.csv g.csv empty.csv
same_passes gpumem-read "$@"
same_passes gpumem-read --window 8 junk.txt "$@" missing.csv
same_passes gpumem-read -v "$@" b/compute-apps.csv
# Standard input and a pipe stay open: the others are read in passes.
SP_IN=s-late.csv same_passes gpumem-read bad-rows.csv - "$@"
SP_PIPE=shuffled.csv same_passes gpumem-read "$@" -
# --strict: the run stops where one pass stops (in its first fill too).
same_passes gpumem-read --strict s.csv g.csv s-bad.csv a/query-gpu.csv
same_passes gpumem-read --strict b/query-gpu.csv s-late.csv g.csv s.csv
same_passes gpumem-read --strict --window 8 bad-rows.csv shuffled.csv s.csv
# Through tasks: the same tasks from the same records.
same_passes gpumem-tasks "$@"
# A record window of one: each record read on reads one line, so what an
# input says comes between its records.  Standard input (left open) and
# the first file each have a bad line after their 4th record: one pass
# says stdin's first (the first input), whatever sits before the file's
# records in its run.
rs() {
	awk -v h=$1 -v bad=$2 'BEGIN {
		print "timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name"
		for (t = 1; t <= 10; t++) {
			printf "%d000000000,%s,0,0,%d,,,\n", t, h, t * 10
			if (t == bad)
				print "1,h,0,7,bad,,,x"
		}
	}'
}
rs a 4 > ra.csv
rs b 4 > rb.csv
rs c 0 > rc.csv
SP_IN=rb.csv same_passes gpumem-read --window 1 - ra.csv rc.csv
