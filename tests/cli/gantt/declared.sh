# --tasks in the three chart commands (gantt, plot, report), which read
# their inputs through one helper (chartopt_collect): a device-only
# recording made with awk, a sample every 10 s, and one declared task.
# shrink runs from 5 s to 50 s; usage is 4096 MiB from 10 s, 1024 MiB
# from 30 s, and 512 MiB from 60 s to the end: shrink leaked 512 MiB.
# Without --tasks the log's own episode is the task: memory rose at 10 s
# (the first sample above) and 512 MiB of it never came back, shown as
# (unlisted), as tasks and check say it (docs/analysis.md).
. "$TESTS/lib.sh"
recording '
	for (s = 0; s <= 120; s += 10)
		dev(s, s < 10 ? 0 : s < 30 ? 4096 : s < 60 ? 1024 : 512)
	' > dev.csv
cat > jobs.csv <<'CSV'
name,gpu,start,end
shrink,0,2026-01-01T00:00:05Z,2026-01-01T00:00:50Z
CSV
gpumem-gantt --text --utc --tasks jobs.csv dev.csv
gpumem-gantt --text --utc dev.csv
for t in "--tasks jobs.csv" ""; do
	# plot names the task in the list of its marks (stderr).
	gpumem-plot --script $t dev.csv > plot.txt 2> plot.err
	cat plot.err >&2
	cat plot.err >> plot.txt
	gpumem-report -q $t dev.csv > report.html
	echo "${t:-no tasks}: plot $(grep -c shrink plot.txt || :)," \
	    "report $(grep -c '<td class="name">shrink</td>' report.html || :)"
done
# A configuration that does not read is trouble, said once, nothing drawn.
printf 'tolerance_mib: lots\n' > bad.yaml
for c in "gantt --text" "plot --script" report; do
	rc=0
	gpumem-$c -q --config bad.yaml dev.csv > out.txt || rc=$?
	echo "$c: exit $rc, $(wc -c < out.txt) bytes"
done
