# gzip input is found by content, not by name, and gives byte-identical
# output; a truncated .gz keeps every record before the cut and exits 2.
. "$TESTS/lib.sh"
gpumem-synth -s multi-gpu > plain.csv
gpumem-synth -s multi-gpu --nvsmi nv
gzip -c nv/query-gpu.csv > q.bin
gzip -c nv/compute-apps.csv > a.log.gz
gpumem-read -q nv/query-gpu.csv nv/compute-apps.csv > from-plain.csv
gpumem-read -q q.bin a.log.gz > from-gz.csv
cmp from-plain.csv from-gz.csv || die "gzip output differs"
cmp plain.csv from-gz.csv || die "nvidia-smi logs do not give synth's stream"
gzip -c plain.csv > s.gz
size=$(wc -c < s.gz)
head -c $((size / 2)) s.gz > cut.gz
rc=0; gpumem-read cut.gz > cut.csv 2> err.txt || rc=$?
expect_eq "exit status of a truncated gzip" $rc 2
n=$(nrec cut.csv)
[ "$n" -gt 100 ] && [ "$n" -lt "$(nrec plain.csv)" ] || die "kept $n records"
# Every record kept is a record of the original, in order.
head -n "$((n + 1))" plain.csv | cmp - cut.csv || die "records before the cut differ"
grep -q "^gpumem-read: cut.gz: unexpected end of gzip data (truncated file?) after [0-9]* bytes$" err.txt || die "no message: $(cat err.txt)"
# The line the cut went through is reported, and counted.
grep -q "^gpumem-read: cut.gz:$((n + 2)): too few fields (expected 8)$" err.txt || die "no message for the cut line: $(cat err.txt)"
grep -q "^gpumem-read: cut.gz: $n records (gpumem record stream); skipped 1: 1 unreadable$" err.txt || die "no summary: $(cat err.txt)"
