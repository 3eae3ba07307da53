# An input that held data but from which not one record could be read is
# trouble (exit 2), for gpumem read and every tool that reads through the
# stream: a CI job must not pass on a log it could not read.  One row that
# reads is enough for exit 0; a log with no rows at all (a header alone)
# is not trouble either.  The logs are made with awk, as a wrapper script
# that broke its date format would have written them.
awk 'BEGIN {
	print "timestamp, index, memory.used [MiB], memory.free [MiB]"
	for (i = 0; i < 3; i++)
		printf "01.01.2026 00:00:%02d, 0, %d MiB, %d MiB\n", i, 300 + i, 16084 - i
}' > broken.csv
run() {
	gpumem-"$@" > out.csv && rc=0 || rc=$?
	echo "$*: exit $rc, $(tail -n +2 out.csv | wc -l) records"
}
run read broken.csv
run read -q broken.csv
# Through the stream: tasks, usage, check.
run tasks broken.csv
run usage broken.csv
run check broken.csv
# With a log that reads, the broken one still fails the run.
awk 'BEGIN {
	print "timestamp, index, memory.used [MiB], memory.free [MiB]"
	for (i = 0; i < 3; i++)
		printf "2026/01/01 00:00:%02d.000, 1, 300 MiB, 16084 MiB\n", i
}' > good.csv
run read good.csv broken.csv
# One readable row among the broken ones: skipped rows are not trouble.
{ cat broken.csv; tail -n 1 good.csv; } > mostly.csv
run read mostly.csv
# A header alone: no data, no trouble.
head -n 1 broken.csv > header.csv
run read header.csv
