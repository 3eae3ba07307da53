# Declared tasks (--tasks) on a device-only recording made with awk, a
# sample every 10 s.  shrink runs alone from 5 s to 50 s: usage rises to
# 4096 MiB at 10 s, falls to 1024 MiB at 30 s while it still runs (it
# gave 3072 MiB back: it holds 1024 MiB at its end, peak 4096), and is
# back to 0 at 60 s: released 10 s after its end, between 0 and 10 s.
# blip starts and ends between the samples at 70 s and 80 s: never seen
# running, it holds nothing, and says so.
. "$TESTS/lib.sh"
recording '
	for (s = 0; s <= 120; s += 10)
		dev(s, s >= 10 && s < 30 ? 4096 : s >= 30 && s < 60 ? 1024 : 0)
	' > dev.csv
cat > jobs.csv <<'CSV'
name,gpu,start,end
shrink,0,2026-01-01T00:00:05Z,2026-01-01T00:00:50Z
blip,0,2026-01-01T00:01:12Z,2026-01-01T00:01:15Z
CSV
gpumem-tasks --tasks jobs.csv dev.csv
