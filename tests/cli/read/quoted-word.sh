# A line that is one quoted word alone (nvidia-smi --help-query-gpu lists
# its fields so: "timestamp") is text, not a fully quoted CSV line
# (pandas' QUOTE_ALL): its quotes stay, so such text is no header-less
# query-gpu log, and a stray one in a stream is too short a record.
. "$TESTS/lib.sh"
printf '"timestamp"\n"memory.used [MiB]"\n' > words.txt
rc=0; gpumem-read words.txt > out.csv 2>&1 || rc=$?
echo "exit $rc"
cat out.csv
gpumem-synth -s clean -o c.csv
{ head -n 3 c.csv; echo '"timestamp"'; tail -n +4 c.csv; } > s.csv
rc=0; gpumem-read s.csv 2>&1 > /dev/null || rc=$?
echo "exit $rc"
