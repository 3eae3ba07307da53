# --since/--until relative to now: an age (2h, 90m, 2h30m, -2h), now,
# today and yesterday (local midnight, in --tz or TZ).  The records are
# stamped from the test's own clock: one every 10 minutes, 5 minutes off
# the hour, back 3 days, so the seconds between our `date` and the
# tool's never move a record across a limit.
. "$TESTS/lib.sh"
export TZ=Asia/Tokyo
now=$(date +%s)
stream() {
	echo timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name
	awk -v now="$now" 'BEGIN {
		for (k = 432; k >= 0; k--)
			printf "%d000000000,h,0,0,%d,,,\n", now - k * 600 - 300, k
	}'
}
stream > s.csv
# How many records are at or after the time t (seconds)?
count_since() {
	awk -v now="$now" -v t="$1" 'BEGIN {
		for (k = 432; k >= 0; k--)
			n += now - k * 600 - 300 >= t
		print n
	}'
}
n=$(gpumem-read -q --since 2h s.csv | tail -n +2 | wc -l)
expect_eq "--since 2h" "$n" 12
n=$(gpumem-read -q --since -2h s.csv | tail -n +2 | wc -l)
expect_eq "--since -2h" "$n" 12
n=$(gpumem-read -q --since 2h30m s.csv | tail -n +2 | wc -l)
expect_eq "--since 2h30m" "$n" 15
n=$(gpumem-read -q --since 90m --until 30m s.csv | tail -n +2 | wc -l)
expect_eq "--since 90m --until 30m" "$n" 6
n=$(gpumem-read -q --since 1d --until now s.csv | tail -n +2 | wc -l)
expect_eq "--since 1d --until now" "$n" 144
n=$(gpumem-read -q --since 5400s s.csv | tail -n +2 | wc -l)
expect_eq "--since 5400s" "$n" 9
# Local midnight, as date(1) names it in TZ.
for zone in Asia/Tokyo America/New_York; do
	today=$(TZ=$zone date -d "$(TZ=$zone date +%Y-%m-%d) 00:00" +%s)
	yday=$(TZ=$zone date -d "$(TZ=$zone date -d yesterday +%Y-%m-%d) 00:00" +%s)
	n=$(gpumem-read -q --tz $zone --since yesterday s.csv | tail -n +2 | wc -l)
	expect_eq "$zone: --since yesterday" "$n" "$(count_since "$yday")"
	n=$(gpumem-read -q --tz $zone --since today s.csv | tail -n +2 | wc -l)
	expect_eq "$zone: --since today" "$n" "$(count_since "$today")"
done
n=$(TZ=UTC0 gpumem-read -q --since yesterday s.csv | tail -n +2 | wc -l)
yday=$(date -u -d "$(date -u -d yesterday +%Y-%m-%d) 00:00" +%s)
expect_eq "TZ=UTC0: --since yesterday" "$n" "$(count_since "$yday")"
# What is none of the forms is refused, saying which are.
for bad in +2h 1.5h '2 h' 2h30 Yesterday tomorrow 60000d; do
	rc=0; gpumem-read --since "$bad" s.csv > /dev/null || rc=$?
	echo "$bad: exit $rc"
done
