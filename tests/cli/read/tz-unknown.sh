# --tz refuses a zone it does not know (the C library would read
# "Europe/Berln" or "CEST" as UTC: every time two hours off) and takes
# zone files, POSIX TZ strings and UTC.  The expected times come from
# date(1).
. "$TESTS/lib.sh"
printf 'timestamp, index, memory.used [MiB]\n2023/06/22 20:56:56.252, 0, 1 MiB\n' > q.csv
for z in Europe/Berln CEST Europe/berlin 'UTC+' 'EST5EDT,M13.2.0,M11.1.0' /etc/passwd ''; do
	rc=0; gpumem-read -q --tz "$z" q.csv > out || rc=$?
	echo "--tz '$z': exit $rc, $(wc -l < out) lines"
done
# TZDIR says where the zone files are.
mkdir zones
rc=0; TZDIR=$PWD/zones gpumem-read -q --tz Europe/Berlin q.csv 2> err || rc=$?
echo "TZDIR empty: exit $rc"
sed "s|$PWD|DIR|g" err >&2
# Accepted: each gives the time date(1) gives for the same zone.
for z in UTC utc UTC0 GMT Europe/Berlin :Europe/Berlin CET \
    'EST5EDT,M3.2.0,M11.1.0' '<+0530>-5:30'; do
	want=$(TZ=$z date -d '2023-06-22 20:56:56' +%s)252000000
	got=$(gpumem-read -q --tz "$z" q.csv | tail -n 1 | cut -d, -f1)
	expect_eq "--tz $z" "$got" "$want"
done
echo "UTC: $(TZ=UTC date -d '2023-06-22 20:56:56' +%s)"
