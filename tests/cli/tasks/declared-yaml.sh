# Declared tasks as YAML (a list of mappings name, gpu, start, end)
# written from gpumem synth's truth with date, as a CI system would: two
# tasks waiting for their memory at once, one with a quoted name.
. "$TESTS/lib.sh"

gpumem-synth -s two-waiting --nvsmi nv --truth truth.csv
tail -n +2 truth.csv | while IFS=, read -r host gpu pid name start end rest; do
	echo "- name: \"$name #$pid: eval\""
	echo "  gpu: $gpu"
	echo "  start: $(iso "$start")"
	echo "  end: '$(iso "$end")'"
done > jobs.yaml
awk -F, -v OFS=, 'NR > 1 { $4 = $4 " #" $3 ": eval"; $3 = 0 } 1' truth.csv \
    > want.csv
gpumem-tasks -q --tasks jobs.yaml nv/query-gpu.csv > got.csv
sh "$TESTS/tools/taskcmp.sh" want.csv got.csv || die "differs from the truth"
cut -d, -f4,7-12 got.csv
