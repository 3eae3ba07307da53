# A clean CI job recorded as gpumem record does (both loops at 100 ms):
# a 120 ms "does the GPU work" probe holding 600 MiB is listed at one
# poll, then compute-apps prints nothing for two seconds (a poll that
# finds no process prints nothing), then the tests run and give all
# back.  The process loop's interval is not known from polls that
# printed (1.04 s, then 3.04 s): an end placed on the gap between them
# came at 3.04 s, after the probe's memory was back, and check failed
# the run ("leaked 600 MiB").  The device loop's interval is taken until
# a process listed at two polls in a row shows the loop's own.
# Truth (synth -s probe): the probe ends at 1.12 s, its memory back at
# 1.15 s (0.03 s); pytest ends at 20 s, back at 20.04 s.
. "$TESTS/lib.sh"
gpumem-synth -s probe --nvsmi rec
gpumem-tasks -q rec/query-gpu.csv rec/compute-apps.csv |
	cut -d, -f3,4,6,7,11,12,13,14,15
expect_exit 0 gpumem-check -q rec
