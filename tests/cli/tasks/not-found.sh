# A process killed before its CUDA context was torn down stays listed by
# compute-apps as "[Not Found]" with its memory until the driver lets it
# go (gpumem synth -s not-found, made with nvidia-smi's forms:
# train.py killed at 12 s, its 6144 MiB back at 16 s; webui.py killed at
# 40 s, its 2048 MiB never back).  Its first such listing is its death:
# the task keeps its name, ends there and waits; the later listings hold
# its delay's lower bound to the last of them (within a poll of the
# truth); listed so to the end, it leaked.  Without the rule the task
# was "[Not Found]", ended at 16 s with a delay of 0, and webui.py ran on.
. "$TESTS/lib.sh"
gpumem-synth -s not-found --truth truth.csv --nvsmi nv
grep -q '21001, \[Not Found\], 6144 MiB' nv/compute-apps.csv ||
	die "the log lists no dead process"
gpumem-tasks -q nv/query-gpu.csv nv/compute-apps.csv > got.csv
sh "$TESTS/tools/truthcmp.sh" truth.csv got.csv 0.3 > cmp.txt ||
	die "tasks differ from the truth: $(cat cmp.txt)"
# The rows of the two dead ones: name, status, leaked, note; and the
# width of train.py's bounds, at most one 0.1 s poll and the sample after.
awk -F, 'NR > 1 && ($3 == 21001 || $3 == 21004) {
	printf "%s %s %s %s %s", $3, $4, $12, $11, $15
	if ($12 == "released")
		printf " %s", ($14 - $13 <= 0.2) ? "narrow" : "wide " $13 "-" $14
	printf "\n"
}' got.csv | sort > rows.txt
expect_eq "dead processes" "$(cat rows.txt)" "21001 python3 train.py released 0 not-found narrow
21004 python3 webui.py leaked 2048 not-found"
# The same from the record stream (a record's name says it too).
gpumem-synth -s not-found --truth truth.csv > stream.csv
gpumem-tasks -q stream.csv > got2.csv
sh "$TESTS/tools/truthcmp.sh" truth.csv got2.csv 0.3 > cmp.txt ||
	die "tasks of the stream differ from the truth: $(cat cmp.txt)"
