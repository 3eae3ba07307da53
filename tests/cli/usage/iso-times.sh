# --iso-times: a last column timestamp_time, the timestamp as date(1)
# writes it in UTC, whatever the zone; the charts read the CSV back
# (a plot of it is the plot of the one without).
. "$TESTS/lib.sh"
export TZ=America/New_York
gpumem-synth -s leak > leak.csv
gpumem-usage --iso-times leak.csv > u.csv
gpumem-usage leak.csv > plain.csv
head -n 1 u.csv
# Each row: the plain row, then date's rendering of its timestamp.
tail -n +2 u.csv | while IFS=, read -r ts rest; do
	want=$(date -u -d "@$((ts / 1000000000))" +%Y-%m-%dT%H:%M:%S.000Z)
	expect_eq "row $ts" "${rest##*,}" "$want"
done
expect_eq "the rest" "$(sed 's/,[^,]*$//' u.csv | tail -n +2)" \
    "$(tail -n +2 plain.csv)"
gpumem-usage --iso-times --every 30s leak.csv | head -n 2
# The charts read either, the same.
if command -v gnuplot > /dev/null; then
	gpumem-plot -q -T dumb u.csv > a.txt
	gpumem-plot -q -T dumb plain.csv > b.txt
	cmp -s a.txt b.txt || die "plot of --iso-times differs"
fi
