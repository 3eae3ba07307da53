# Two loops, their times: query-gpu samples every --interval from the
# start; compute-apps polls at start + --proc-offset + j * --proc-interval
# * (1 + --drift / 1e6), whole ms, printing a poll only when it lists a
# process; lost polls and lost lines are missing from compute-apps.csv.
# Times are ms after midnight (the logs' local time, TZ=UTC).
. "$TESTS/lib.sh"
ms() {
	awk -F, 'NR > 1 { split(substr($1, 12), a, ":"); print a[1] * 3600000 + a[2] * 60000 + a[3] * 1000 }' "$1" | uniq
}
# polls OFF PER FROM TO: the poll times in [FROM, TO), as ms, for an
# offset in ms and a period in us (integers: exact in awk).
polls() {
	awk -v off="$1" -v per="$2" -v from="$3" -v to="$4" 'BEGIN {
		for (j = 0; (t = int((off * 1000 + j * per) / 1000)) < to; j++)
			if (t >= from) print t
	}'
}
# overlap: tasks alive from 2000 to 31010 ms, no jitter.
gpumem-synth -s overlap --nvsmi a --proc-interval 250ms --proc-offset 30ms --drift 1000
ms a/query-gpu.csv > dev.txt
expect_eq "device samples" "$(wc -l < dev.txt)" 600
awk '$1 != (NR - 1) * 100 { print "sample " NR ": " $1; exit 1 }' dev.txt || die "device times"
ms a/compute-apps.csv > got.txt
polls 30 250250 2000 31010 > want.txt
cmp -s want.txt got.txt || die "polls, drift +1000: $(diff want.txt got.txt | head -3)"
gpumem-synth -s overlap --nvsmi b --interval 200ms --proc-offset 7ms --drift -2500
expect_eq "device samples at 200 ms" "$(ms b/query-gpu.csv | wc -l)" 300
ms b/compute-apps.csv > got.txt
polls 7 199500 2000 31010 > want.txt
cmp -s want.txt got.txt || die "polls, drift -2500: $(diff want.txt got.txt | head -3)"
# Everything lost: compute-apps.csv has its header alone.
gpumem-synth -s overlap --nvsmi c --lose-polls 100
expect_eq "polls lost" "$(wc -l < c/compute-apps.csv)" 1
gpumem-synth -s overlap --nvsmi d --lose-lines 100
expect_eq "lines lost" "$(wc -l < d/compute-apps.csv)" 1
# 30% of the polls lost: of the 290 polls between 2 s and 31 s, 30% give
# or take 10.
gpumem-synth -s overlap --nvsmi e --lose-polls 30
n=$(ms e/compute-apps.csv | wc -l)
[ "$n" -ge 174 ] && [ "$n" -le 232 ] || die "--lose-polls 30: $n polls of 290 printed"
# 20% of the lines lost: of 3 * 270 lines at least, about 20% gone.
gpumem-synth -s overlap --nvsmi f --lose-lines 20
n=$(($(wc -l < f/compute-apps.csv) - 1))
gpumem-synth -s overlap --nvsmi g
all=$(($(wc -l < g/compute-apps.csv) - 1))
[ $((n * 100)) -ge $((all * 70)) ] && [ $((n * 100)) -le $((all * 90)) ] ||
	die "--lose-lines 20: $n lines of $all"
# lost-polls, nothing lost at random: the polls just before the exits are
# (one before 100070 and 150030, two before 200050 and 230020).
gpumem-synth -s lost-polls --nvsmi h --lose-polls 0 --lose-lines 0
ms h/compute-apps.csv > got.txt
polls 80 200020 2000 230020 > want.txt
echo "lost polls:"
sort want.txt > w.txt
sort got.txt > g.txt
comm -23 w.txt g.txt | sort -n
expect_eq "polls that should not be" "$(comm -13 w.txt g.txt)" ""
# two-loops: both loops jittered by up to 5 ms, in order, none before the
# start; the polls at 50 ms + j * 100.001 ms.
for seed in 1 2 3 4; do
	gpumem-synth -s two-loops --seed $seed --nvsmi j$seed
	ms j$seed/query-gpu.csv | awk '{
		d = $1 - (NR - 1) * 100
		if (d < -5 || d > 5 || $1 > 86000000 || (NR > 1 && $1 <= prev)) {
			print "sample " NR ": " $1; exit 1
		}
		prev = $1
	}' || die "seed $seed: jittered samples"
	ms j$seed/compute-apps.csv | awk '{
		j = int(($1 - 50) / 100.001 + 0.5); d = $1 - (50 + j * 100.001)
		if (d < -6 || d > 6) { print "poll " $1; exit 1 }
	}' || die "seed $seed: jittered polls"
done
