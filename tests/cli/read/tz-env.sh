# A typo in the TZ environment variable (the zone of local times without
# --tz) is said once, not read as UTC without a word (--tz refuses such a
# zone: tz-unknown.sh): the C library reads it as UTC, and so the times
# are, as date(1) says.  A zone it knows, or --tz, says nothing.
. "$TESTS/lib.sh"
printf 'timestamp, index, memory.used [MiB]\n2023/06/22 20:56:56.252, 0, 1 MiB\n2023/06/22 21:56:56.252, 0, 2 MiB\n' > q.csv
utc=$(TZ=UTC date -d '2023-06-22 20:56:56' +%s)252000000
TZ=Europe/Berln gpumem-read -q q.csv > out 2> err
expect_eq "TZ=Europe/Berln: time" "$(sed -n 2p out | cut -d, -f1)" "$utc"
cat err
TZ=Europe/Berln gpumem-read -q --tz UTC q.csv > out 2> err
[ ! -s err ] || die "--tz UTC: $(cat err)"
[ "$(TZ=Europe/Berlin date -d 2023-06-22T12:00:00Z +%Z)" = CEST ] ||
	skip "no Europe/Berlin zone data"
TZ=Europe/Berlin gpumem-read -q q.csv > out 2> err
[ ! -s err ] || die "TZ=Europe/Berlin: $(cat err)"
expect_eq "TZ=Europe/Berlin: time" "$(sed -n 2p out | cut -d, -f1)" \
    "$(TZ=Europe/Berlin date -d '2023-06-22 20:56:56' +%s)252000000"
