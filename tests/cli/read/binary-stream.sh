# The binary form of the record stream between gpumem tools (rec.h).  What
# it carries reads back as the text it stands for, byte for byte, in every
# scenario; gpumem tools piped into each other choose it, and anything else
# (a file, another program, GPUMEM_STREAM=text) gets text; damage is named
# by its offset, and what comes before it is kept.
. "$TESTS/lib.sh"
for s in $(gpumem-synth -l | cut -d' ' -f1); do
	gpumem-synth -s "$s" --host 'node,"1"' -o t.csv
	GPUMEM_STREAM=binary gpumem-synth -s "$s" --host 'node,"1"' -o b.bin
	gpumem-read -q b.bin > back.csv
	cmp -s back.csv t.csv || die "$s: the binary form reads back otherwise"
	GPUMEM_STREAM=binary gpumem-read -q t.csv > b2.bin
	cmp -s b2.bin b.bin || die "$s: read writes other bytes than synth"
	gpumem-tasks -q t.csv > tt.csv
	gpumem-tasks -q b.bin > tb.csv
	cmp -s tt.csv tb.csv || die "$s: tasks differ on the binary form"
	echo "$s: $(nrec t.csv) records, $(wc -c < t.csv) bytes as text, $(wc -c < b.bin) as binary"
done

# The bytes: the magic and the first record of the demo.
gpumem-synth -s demo -o t.csv
GPUMEM_STREAM=binary gpumem-synth -s demo -o b.bin
od -An -tx1 -N50 b.bin
gpumem-read b.bin > /dev/null
# --format stream takes the record stream in either form: a tool upstream
# may have chosen the binary one.
! gpumem-read -q --format stream b.bin | cmp - t.csv || echo "--format stream: same"
# Joined streams, as cat joins them.
cat b.bin b.bin | gpumem-read --window 100000 - | tail -n +2 | wc -l

# Negotiated: the writer looks once it has its first records; a reader
# that started by then and is a gpumem tool of the same directory gets the
# binary form.  The summary line of the reader names what it got.  Each
# writer starts once its reader runs (pipe_read_by): not a time.
unset GPUMEM_STREAM
{ wait_for 60 pipe_read_by gpumem-tasks; gpumem-read -q t.csv; } |
    gpumem-tasks -v > t1.csv 2> err.txt
grep 'records' err.txt
{ wait_for 60 pipe_read_by cat; gpumem-read -q t.csv; } | cat |
    gpumem-tasks -v > t2.csv 2> err.txt
grep 'records' err.txt
{ wait_for 60 pipe_read_by gpumem-tasks; GPUMEM_STREAM=text gpumem-read -q t.csv; } |
    gpumem-tasks -v > t3.csv 2> err.txt
grep 'records' err.txt
cmp t1.csv t2.csv && cmp t1.csv t3.csv
# A file, or a program that is not gpumem: text.
gpumem-read -q b.bin > f.csv
cmp f.csv t.csv
{ wait_for 60 pipe_read_by head; gpumem-read -q b.bin; } | head -n 2

# Damage.  Cut short inside the 11th record: ten are kept.
head -c $((8 + 10 * 42 + 20)) b.bin > cut.bin
gpumem-read cut.bin | tail -n +2 | wc -l
rc=0; gpumem-read --strict cut.bin > /dev/null || rc=$?
echo "strict: exit $rc"
# Cut short is trouble even without --strict, as a truncated gzip is: the
# records before the cut are kept, and the exit status says data is lost.
rc=0; gpumem-read cut.bin > /dev/null 2>&1 || rc=$?
echo "cut: exit $rc"
gzip -c t.csv | head -c 2000 > cut.gz
rc=0; gpumem-read cut.gz > /dev/null 2>&1 || rc=$?
echo "cut gzip: exit $rc"
# A byte that is no record's start: what came before is kept.
{ head -c $((8 + 3 * 42)) b.bin; printf 'X'; tail -c +$((8 + 3 * 42 + 2)) b.bin; } > bad.bin
gpumem-read bad.bin | tail -n +2 | wc -l
rc=0; gpumem-read bad.bin > /dev/null 2>&1 || rc=$?
echo "the rest lost: exit $rc"
# Text taken for the binary form, forced.
rc=0; gpumem-read --format stream-binary t.csv > /dev/null || rc=$?
echo "forced: exit $rc"
exit 0
