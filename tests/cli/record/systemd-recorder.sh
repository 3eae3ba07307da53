# contrib/systemd/gpumem-recorder, the node recorder's script (its unit:
# systemd-verify.sh), run with 2-second periods on the stand-in
# nvidia-smi: it writes one directory per period and links its two logs
# into the recording (regular files to the Epilog and gpumem read),
# removes a period older than KEEP_DAYS with its links, leaves a recent
# one, and ends on SIGTERM with its gpumem record.
. "$TESTS/lib.sh"
src=$TESTS/../contrib/systemd
PATH=$TESTS/tools/fakebin:$PATH
# A period 40 days old (removed) and one of yesterday (kept).
old=$(date -u -d @$(($(date +%s) - 40 * 86400)) +%Y%m%dT%H%M%S)
new=$(date -u -d @$(($(date +%s) - 86400)) +%Y%m%dT%H%M%S)
mkdir -p rec/hours/$old rec/hours/$new
for p in $old $new; do
	echo x > rec/hours/$p/query-gpu.csv
	ln -s hours/$p/query-gpu.csv rec/$p.query-gpu.csv
done
GPUMEM_RECORDER_DIR=rec GPUMEM_RECORDER_KEEP_DAYS=30 \
    GPUMEM_RECORDER_PERIOD=2 GPUMEM_RECORDER_INTERVAL=200ms \
    sh "$src/gpumem-recorder" 2> recorder.err &
pid=$!
trap 'kill $pid 2> /dev/null || :' EXIT
# Three periods of our own, the third one's samples coming in.
three() {
	[ "$(ls rec/hours | grep -v -c -e "^$old\$" -e "^$new\$")" -ge 3 ] &&
	    [ "$(cat rec/hours/$(ls rec/hours | tail -n 1)/query-gpu.csv \
	    2> /dev/null | wc -l)" -ge 2 ]
}
wait_for 30 three || die "no third period: $(ls rec/hours)"
kill -TERM $pid
wait_for 10 eval '! kill -0 $pid 2> /dev/null' || die "still running after SIGTERM"
trap - EXIT
cat recorder.err
# The record of the last period ended too, its logs closed: its meta
# says the end and the signal its sleep got.
last=$(ls rec/hours | tail -n 1)
grep '^exit: ' rec/hours/$last/meta
[ ! -e rec/hours/$old ] && [ ! -L rec/$old.query-gpu.csv ] ||
    die "the 40-day-old period is still there"
[ -L rec/$new.query-gpu.csv ] || die "yesterday's period is gone"
rm -r rec/hours/$new rec/$new.query-gpu.csv
# Each period of ours: its directory, two links to its logs, which hold
# the stand-in's samples (the last one cut by SIGTERM may hold none yet).
n=0
for h in rec/hours/*; do
	p=${h##*/}
	for l in query-gpu compute-apps; do
		[ "$(readlink rec/$p.$l.csv)" = "hours/$p/$l.csv" ] ||
		    die "rec/$p.$l.csv: $(readlink rec/$p.$l.csv)"
	done
	[ "$(wc -l < rec/$p.query-gpu.csv)" -ge 2 ] && n=$((n + 1))
done
[ $n -ge 2 ] || die "only $n periods with samples"
echo "periods with samples: at least 2"
# The recording reads as one: a device sample per row of every period.
rows=$(cat rec/*.query-gpu.csv | grep -c -v '^timestamp')
gpumem-read -q rec > all.csv
expect_eq "device samples" "$(cut -d, -f4 all.csv | grep -c '^0$')" "$rows"
echo "read: ok"
