# The nvidia-smi logs gpumem synth writes (as gpumem record will) read back
# as exactly the stream synth writes, processes' ends included, for every
# scenario: rows of a poll, vanished processes, jitter, lost samples.
# Not the two-loop ones: there a poll that lists nothing prints nothing,
# and the reader places the ends it implies itself (cli/synth/ checks).
. "$TESTS/lib.sh"
for s in $(gpumem-synth --list | grep -v " two loops: " | cut -d" " -f1); do
	[ "$s" = random ] && set -- --duration 10m --interval 100ms || set --
	gpumem-synth -s "$s" "$@" > want.csv
	rm -rf nv
	gpumem-synth -s "$s" "$@" --nvsmi nv
	gpumem-read -q nv/query-gpu.csv nv/compute-apps.csv > got.csv || die "$s: exit $?"
	cmp want.csv got.csv || die "$s: stream differs: $(diff want.csv got.csv | head -5)"
done
