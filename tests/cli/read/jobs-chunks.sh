# read -j 2 of one plain gpumem CSV: decoded in chunks by threads (the
# chunk size made small with GPUMEM_CHUNK_SIZE, so that a file of a few
# kilobytes is many chunks, each line the first or the last of one at
# some size): the bytes, the messages (the same lines, in the same order),
# the summary and the exit status of -j 1.  The inputs are made with awk:
# bad lines first and last, header repeats, CRLF, a last line without a
# newline, an empty file, quoted fields (one across lines, one that never
# closes), NUL bytes, byte order marks, lines too long for a chunk, steps
# back of the clock, records out of place; synth's scenarios; every
# corpus file alone.
. "$TESTS/lib.sh"
sizes="1 3 8 21 55 144 377 987 4096"
H=timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name
# rows N: N records of a recording, 2 GPUs, a process on each other poll.
rows() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			# numbers are doubles in awk: the time in two parts
			t = sprintf("%d%09d", 1767225600 + int(i / 20),
			    int(i / 2) % 10 * 100000000)
			if (i % 4 == 3)
				printf "%s,node%d,%d,%d,%d,,,train%d\n", t, i % 3,
				    i % 2, 4000 + i % 5, 100 + i, i % 7
			else
				printf "%s,,%d,0,%d,%d,81559,\n", t, i % 2,
				    500 + i, 81059 - i
		}
	}'
}
{ echo $H; rows 200; } > ok.csv
# Bad lines: the first and the last, and every 13th (more than are shown).
{ echo $H; echo "1,h,0,7,bad,,,x"; rows 200 |
    awk 'NR % 13 == 0 { print "1767225600000000000,,0,0,x,,," } { print }';
    echo "garbage"; } > bad.csv
# Header repeats (joined streams), one every 37 lines.
{ echo $H; rows 300 | awk -v h=$H 'NR % 37 == 0 { print h } { print }'; } \
    > headers.csv
awk '{ printf "%s\r\n", $0 }' bad.csv > crlf.csv
{ echo $H; rows 100; printf '1767225700000000000,,0,0,5,6,11,'; } > nonl.csv
: > empty.csv
echo $H > header-only.csv
rows 150 > headerless.csv
# Quoted names: with commas and quotes; one field across two lines; at
# the end one that never closes.
{ echo $H; rows 60; echo '1767225700000000000,h,0,9,5,,,"a, ""b"""';
    rows 60; echo '1767225700000000000,h,0,9,5,,,"two'; echo 'lines"';
    rows 60; echo '1767225700000000000,h,0,9,5,,,"open'; rows 20; } \
    > quoted.csv
# NUL bytes: a line of them, a line with one inside.
{ echo $H; rows 80; printf '\0\0\0\n'; rows 40;
    printf '1767225700000000000,,0,\0,5,,,\n'; rows 40; } > nul.csv
# Byte order marks: at the start, and two files joined with cat.
{ printf '\357\273\277'; echo $H; rows 70; } > bom1.csv
cat bom1.csv bom1.csv > bom.csv
# A line longer than a chunk may hold, and one longer than any line.
{ echo $H; rows 60; awk 'BEGIN { while (n++ < 70000) printf "x"; print "" }';
    rows 60; } > long.csv
# The clock steps back (two recordings joined with cat) and records out
# of place (read with --window 8: late ones are refused, named).
{ cat ok.csv; rows 100; } > steps.csv
{ echo $H; rows 200 | awk 'NR % 50 == 10 { held = $0; next }
    NR % 50 == 40 { print held } { print }'; } > late.csv

for f in ok.csv bad.csv headers.csv crlf.csv nonl.csv empty.csv \
    header-only.csv headerless.csv quoted.csv nul.csv bom.csv long.csv \
    steps.csv; do
	same_in_chunks $f
done
same_in_chunks bad.csv -v
same_in_chunks late.csv --window 8
same_in_chunks headerless.csv -v
same_in_chunks bad.csv --strict
same_in_chunks steps.csv --strict

# What each bad line is named by: awk's line numbers of the bad rows.
gpumem-read -j 1 bad.csv 2>&1 > /dev/null |
    sed -n 's/^gpumem-read: bad.csv:\([0-9]*\):.*/\1/p' > named
awk -F, 'NR > 1 && ($5 !~ /^[0-9]+$/ || NF != 8) { print NR }' bad.csv |
    head -n 10 > expected
cmp -s named expected || die "bad lines named: $(cat named | tr '\n' ' ')"
GPUMEM_CHUNK_SIZE=100 gpumem-read -j 2 bad.csv 2>&1 > /dev/null |
    sed -n 's/^gpumem-read: bad.csv:\([0-9]*\):.*/\1/p' > named2
cmp -s named2 expected || die "-j 2 bad lines named: $(cat named2 | tr '\n' ' ')"
# records + skipped = lines (the header and the repeats are no records).
sum=$(GPUMEM_CHUNK_SIZE=50 gpumem-read -j 2 bad.csv 2>&1 > /dev/null |
    sed -n 's/.*: \([0-9]*\) records.*skipped \([0-9]*\):.*/\1 \2/p')
expect_eq "records + skipped" "$(echo $sum | awk '{ print $1 + $2 }')" \
    $(($(wc -l < bad.csv) - 1))

# synth's scenarios, each as its stream.
sizes="997 4096"
for s in $(gpumem-synth -l | awk '{ print $1 }'); do
	gpumem-synth -s $s -o syn.csv
	same_in_chunks syn.csv > /dev/null
done
echo "synth scenarios: the same"

# Every file of the corpus alone, in chunks of 256 bytes: formats without
# chunks read as before (stdout and stderr, exit status).
if [ -d "$CORPUS" ]; then
	find "$CORPUS" -type f ! -name '*.md' | sort > corpus.list
	while read -r f; do
		rc1=0
		gpumem-read -j 1 --tz UTC "$f" > j1.out 2> j1.err || rc1=$?
		rc=0
		GPUMEM_CHUNK_SIZE=256 gpumem-read -j 2 --tz UTC "$f" > j2.out \
		    2> j2.err || rc=$?
		cmp -s j1.out j2.out && cmp -s j1.err j2.err ||
			die "$f: -j 2 in chunks of 256 bytes is not -j 1"
		expect_eq "$f: exit" $rc $rc1
	done < corpus.list
fi
