# Local times across the end of summer time: the nvidia-smi logs of a run
# written in Europe/Berlin time (date(1) with TZ=Europe/Berlin), from
# 02:59 CEST on 25 October 2026, so that 02:00-03:00 comes twice, in both
# logs (a task runs before the turn, one after it).  Read
# with --tz, the repeated hour is its second pass: exact UTC again, so
# the records are synth's stream and gpumem tasks finds the truth.
. "$TESTS/lib.sh"
[ "$(TZ=Europe/Berlin date -d 2026-10-25T01:00:00Z +%H%Z)" = 02CET ] ||
	skip "no Europe/Berlin zone data"
start=2026-10-25T00:59:00Z
gpumem-synth -s slow-release --start $start --nvsmi nv -t truth.csv
gpumem-synth -s slow-release --start $start > stream.csv
# berlin FILE: FILE with its times (UTC) in Berlin local time.
berlin() {
	head -n 1 "$1"
	sed 1d "$1" | cut -d, -f1 | sed 's#/#-#g; s/$/ UTC/' |
		TZ=Europe/Berlin date -f - +'%Y/%m/%d %H:%M:%S.000' > times.txt
	sed 1d "$1" | cut -d, -f2- | paste -d, times.txt -
}
berlin nv/query-gpu.csv > q.csv
berlin nv/compute-apps.csv > c.csv
sed -n '2p; 61,62p; $p' q.csv | cut -c1-23
sh "$TESTS/tools/synthcmp.sh" stream.csv truth.csv --tz Europe/Berlin q.csv c.csv ||
	die "the local logs are not synth's run"
# A log that starts in the repeated hour's first pass reads it as that.
sed -n '1p; 40,50p' q.csv > first.csv
gpumem-read --tz Europe/Berlin first.csv | sed -n '2p'
sed -n '40p' nv/query-gpu.csv | cut -c1-23
