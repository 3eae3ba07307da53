# Declared tasks and leaks on one GPU, from the query-gpu log alone.
# Two gpumem synth runs put on one GPU (their usages added with awk, the
# way two jobs share a device) make a log whose truth is both runs'
# truths: a task that leaks 2 GiB of 8 GiB while another runs, whose
# release is judged over the leak, and a later task on top of both.
. "$TESTS/lib.sh"

# jobs TRUTH...: the --tasks CSV of the truths' tasks, all on GPU 0.
jobs() {
	echo name,gpu,start,end
	for f in "$@"; do
		tail -n +2 "$f"
	done | while IFS=, read -r host gpu pid name start end rest; do
		echo "$name,0,$(iso "$start"),$(iso "$end")"
	done
}

# want TRUTH...: the truths as --tasks must find them (no pid, GPU 0).
want() {
	awk -F, -v OFS=, 'FNR == 1 { if (NR == 1) print; next }
	{ $2 = 0; $3 = 0; print }' "$@"
}

# merge A B: one query-gpu log of a device twice as large whose usage is
# A's and B's added (a side without a sample at a time holds its last
# level, or idle before it starts).
merge() {
	{ tail -n +2 "$1"; tail -n +2 "$2"; } | cut -d, -f1 | sort -u > times
	awk -F', ' -v OFS=', ' '
	function mib(s) { sub(/ MiB/, "", s); return s + 0 }
	FILENAME == "times" { t[++n] = $1; next }
	FNR == 1 { head = $0; next }
	{
		total = mib($5); idle = mib($6)
		u[FILENAME, $1] = total - mib($8)
		if (uuid == "") { uuid = $3; pci = $4 }
	}
	END {
		print head
		la = lb = idle
		for (i = 1; i <= n; i++) {
			if ((a SUBSEP t[i]) in u) la = u[a, t[i]]
			if ((b SUBSEP t[i]) in u) lb = u[b, t[i]]
			used = la + lb - idle
			print t[i], 0, uuid, pci, 2 * total " MiB", idle " MiB",
			    used " MiB", 2 * total - used " MiB"
		}
	}' a="$1" b="$2" times "$1" "$2"
}

# check NAME: the merged log nv1 + nv2 against the truths t1 + t2 (notes
# on stderr).
check() {
	merge nv1/query-gpu.csv nv2/query-gpu.csv > merged.csv
	jobs t1.csv t2.csv > jobs.csv
	want t1.csv t2.csv > want.csv
	gpumem-tasks --tasks jobs.csv merged.csv > got.csv ||
		die "$1: exit $?"
	sh "$TESTS/tools/taskcmp.sh" want.csv got.csv ||
		die "$1: differs from the truth"
	cut -d, -f4,7-12 got.csv
}

# Releases after 3 s, 45 s and 2 min; a trainer from 0:15 to 0:40 that
# leaks 2 GiB, while the second task runs (0:30 to 0:50).
gpumem-synth -s slow-release --duration 300s --nvsmi nv1 --truth t1.csv
gpumem-synth -s partial-leak --duration 300s --start 2026-01-01T00:00:10Z \
    --nvsmi nv2 --truth t2.csv
check partial-leak
rm -rf nv1 nv2

# two GPUS SCENARIO G1 G2: GPUs G1 and G2 of a synth run as nv1, nv2.
two() {
	rm -rf nv nv1 nv2
	gpumem-synth -s "$1" --nvsmi nv --truth t.csv
	mkdir nv1 nv2
	awk -F', ' -v g="$2" 'NR == 1 || $2 == g' nv/query-gpu.csv \
	    > nv1/query-gpu.csv
	awk -F', ' -v g="$3" 'NR == 1 || $2 == g' nv/query-gpu.csv \
	    > nv2/query-gpu.csv
	awk -F, -v g="$2" 'NR == 1 || $2 == g' t.csv > t1.csv
	awk -F, -v g="$3" 'NR == 1 || $2 == g' t.csv > t2.csv
}

# The two GPUs of the demo on one: training and evaluation waiting at
# once, a server that never gives its 11 GiB back, a task on top of it.
two demo 0 1
check demo

# Two tasks whose memory comes back in one step (0:50): released
# together, with a note that only their sum was seen.
rm -rf nv1 nv2
gpumem-synth -s concurrent --duration 300s --nvsmi nv1 --truth t1.csv
gpumem-synth -s slow-release --duration 300s --start 2026-01-01T00:00:27Z \
    --nvsmi nv2 --truth t2.csv
check at-once
