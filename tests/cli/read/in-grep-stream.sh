# A record stream whose header was dropped by grep (gpumem read ... |
# grep ',,1,' > gpu1.csv) is still read as the record stream: the same
# records, said once on stderr with the ways to keep the header; tasks
# finds in it what --gpu 1 finds in the whole stream.
. "$TESTS/lib.sh"
gpumem-synth -s demo > s.csv
gpumem-read -q s.csv > st.csv
grep ',,1,' st.csv > gpu1.csv
[ -s gpu1.csv ] || die "grep found nothing"
gpumem-read gpu1.csv > got
{ head -n 1 st.csv; cat gpu1.csv; } > want
cmp -s got want || die "gpu1.csv: records differ"
grep ',,1,' st.csv | gpumem-read -q > got
cmp -s got want || die "grep | gpumem-read: records differ"
gpumem-tasks -q gpu1.csv > t1.csv
gpumem-tasks -q --gpu 1 s.csv > t2.csv
cmp -s t1.csv t2.csv || die "tasks of gpu1.csv differ from --gpu 1"
nrec t1.csv
# Lines that are not records are not taken for a headerless stream.
sed 's/^\([0-9]*\),/\1;/' gpu1.csv > semi.csv
rc=0; gpumem-read semi.csv > /dev/null 2>&1 || rc=$?
expect_eq "semi.csv exit" $rc 2
