# The rules of declared tasks (declared.h), one GPU a rule, on a
# device-only recording made with awk: a sample a second from 0 to 40 s,
# usage a step function given by its steps "SECOND=MiB" (the level holds
# until the next step).  The rows expected, by the rules (times in s from
# 00:00:00, held/peak/leaked in MiB, delay = release - declared end):
#  0 share    a and b start between the same two samples, 6000 MiB rise:
#             3000 each; back in one step at 25: both, delay 5, noted
#  1 ramp     rises at 5, 8, 12 (each within 5 s of the latest) are the
#             ramp: held 3000; the rise at 20 is no task's (a desktop);
#             the fall of 3000 at 33 is all of it: released, delay 3
#  2 extra    a desktop's 1000 MiB (rise at 15) goes first at 22; the
#             1500 that come back at 26 do not make up the task's 2000:
#             leaked 500
#  3 dip      1000 MiB back at 23 for one sample is no return: leaked 4000
#  4 follow   a waits from 20; b starts at 24.5 (+3000): the level follows
#             the rise, so the fall of 2000 at 30 is a's (delay 10), b's
#             3000 at 45... at 36 (delay 1)
#  5 others   a's 2000 back at 25; b's 3000 never: b leaked 3000
#  6 most     a 1000, b 2000, c 2500 wait; 3000 back at 25 is a and b
#             (the most of it), c's 2500 at 30
#  7 whole    a (2000) gave 500 back before b (1500) ended; 1500 back at
#             35 is b's (given back whole) on a tie, noted: a leaked 1500
#  8 later    a (ends 20) and b (ends 22) hold 2000 each; 2000 back at 25
#             is the later ended b's, noted; a leaked 2000
#  9 exact    a (2000) waits while b runs: 3000 back at 25 is not all
#             a's: not released at 25 (leaked 0 at the end: it came back),
#             b running
# 10 early    a's 2000 back at 15 while b runs too: a released at its
#             declared end 20, delay 0, noted; b running
# 11 idle     3000 MiB of before go at 3 while nothing runs: not a's
#             (starts 4.5), whose 2000 come back at 25: delay 5
# 12 matched  a (2000) leaks; b's 1000 back at 25 before its end at 30
#             (partial return of the waiting): b released at 30, delay 0,
#             noted; a leaked 2000
# 13 anchor   a (2000) gave 500 back at 23 before b ended: a's rest is
#             1500; b's 1000 back at 35 (delay 5); a leaked 1500
# 14 order    a (ends 20) and b (ends 22) wait; 1000 back at 25 are a's
#             (earliest ended first): a leaked 1000, b 3000
# 15 order2   the same 1000 back at 25, then c (1500) ends at 30: the
#             1000 are anchored to a; c's 1500 back at 35 (delay 5);
#             a leaked 1000, b 3000
# 16 rising   a's usage still rising at 5 when b starts (5.5): both noted
# 17 event    b's end (5.8) ends a's ramp: the rise at 7 is no task's;
#             a held 2000, released at 25 (delay 5); b at 8 (delay 2.2)
# 19 blip     never seen running, held 0 (its note is the 11th: notes
#             past ten are not shown, one line says so)
# 18 startlvl --config idle_mib 0: a, started before the first sample,
#             holds what the first sample shows (2000)
. "$TESTS/lib.sh"
cat > steps <<'STEPS'
0 0=0 5=6000 25=0
1 0=0 5=1000 8=2000 12=3000 20=4000 33=1000
2 0=0 5=2000 15=3000 22=2000 26=500
3 0=0 5=4000 23=3000 24=4000
4 0=0 5=2000 25=5000 30=3000 36=0
5 0=0 5=2000 10=5000 25=3000
6 0=0 5=1000 10=3000 15=5500 25=2500 30=0
7 0=0 5=2000 23=1500 25=3000 35=1500
8 0=0 5=2000 10=4000 25=2000
9 0=0 5=2000 10=5000 25=2000
10 0=0 5=2000 10=5000 15=3000
11 0=3000 3=0 5=2000 25=0
12 0=0 5=2000 10=3000 25=2000
13 0=0 5=2000 23=1500 25=2500 35=1500
14 0=0 5=2000 10=5000 25=4000
15 0=0 5=2000 10=5000 25=4000 27=5500 35=4000
16 0=0 5=1000 6=3000 7=4000 20=0
17 0=0 1=1000 5=3000 7=3500 8=2500 25=500
18 0=2000 20=0
19 0=0
STEPS
awk '{ n[$1] = NF - 1; for (i = 2; i <= NF; i++) step[$1, i - 1] = $i }
END {
	print "timestamp,host,gpu,process_id,memory_used,memory_free," \
	    "memory_total,process_name"
	for (s = 0; s <= 40; s++)
		for (g = 0; g in n; g++) {
			for (i = 1; i <= n[g]; i++) {
				split(step[g, i], kv, "=")
				if (kv[1] + 0 <= s)
					u = kv[2]
			}
			printf "%d000000000,,%d,0,%d,%d,16384,\n",
			    1767225600 + s, g, u, 16384 - u
		}
}' steps > dev.csv
cat > jobs.csv <<'CSV'
name,gpu,start,end
a,0,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,0,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
a,1,2026-01-01T00:00:04.5Z,2026-01-01T00:00:30Z
a,2,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
a,3,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
a,4,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,4,2026-01-01T00:00:24.5Z,2026-01-01T00:00:35Z
a,5,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,5,2026-01-01T00:00:09.5Z,2026-01-01T00:00:20Z
a,6,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,6,2026-01-01T00:00:09.5Z,2026-01-01T00:00:20Z
c,6,2026-01-01T00:00:14.5Z,2026-01-01T00:00:20Z
a,7,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,7,2026-01-01T00:00:24.5Z,2026-01-01T00:00:30Z
a,8,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,8,2026-01-01T00:00:09.5Z,2026-01-01T00:00:22Z
a,9,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,9,2026-01-01T00:00:09.5Z,2026-01-01T00:01:00Z
a,10,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,10,2026-01-01T00:00:09.5Z,2026-01-01T00:01:00Z
a,11,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
a,12,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,12,2026-01-01T00:00:09.5Z,2026-01-01T00:00:30Z
a,13,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,13,2026-01-01T00:00:24.5Z,2026-01-01T00:00:30Z
a,14,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,14,2026-01-01T00:00:09.5Z,2026-01-01T00:00:22Z
a,15,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,15,2026-01-01T00:00:09.5Z,2026-01-01T00:00:22Z
c,15,2026-01-01T00:00:26.5Z,2026-01-01T00:00:30Z
a,16,2026-01-01T00:00:04.5Z,2026-01-01T00:00:15Z
b,16,2026-01-01T00:00:05.5Z,2026-01-01T00:00:15Z
a,17,2026-01-01T00:00:04.5Z,2026-01-01T00:00:20Z
b,17,2026-01-01T00:00:00.5Z,2026-01-01T00:00:05.8Z
blip,19,2026-01-01T00:00:10.2Z,2026-01-01T00:00:10.6Z
CSV
cat > cfg.yaml <<'YAML'
devices:
  - gpu: 18
    idle_mib: 0
YAML
# The rows: gpu, name, peak, held, delay, leaked, status, delay bounds, note.
gpumem-tasks --tasks jobs.csv dev.csv | cut -d, -f2,4,7,8,10-15
printf 'name,gpu,start,end\na,18,%s,%s\n' 2025-12-31T23:59:55Z \
    2026-01-01T00:00:10Z > j18.csv
gpumem-tasks --config cfg.yaml --tasks j18.csv dev.csv | cut -d, -f2,4,7,8,10-15
