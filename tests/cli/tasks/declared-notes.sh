# What the usage alone cannot tell about declared tasks is said on
# stderr, task by task: tasks declared to start together (their held
# memory is known only as a sum), memory that fits several waiting tasks,
# memory back before a task's declared end.  Truth: gpumem synth.
. "$TESTS/lib.sh"

# Two jobs declared to start together (at the first one's start): the
# 8 GiB they hold are shared evenly; the 5 GiB back at 0:28 fit either.
gpumem-synth -s two-waiting --nvsmi nv --truth truth.csv
first=$(sed -n 3p truth.csv | cut -d, -f5)
echo name,gpu,start,end > jobs.csv
tail -n +2 truth.csv | while IFS=, read -r host gpu pid name start end rest; do
	echo "job$pid,$gpu,$(iso "$first"),$(iso "$end")"
done >> jobs.csv
gpumem-tasks --tasks jobs.csv nv/query-gpu.csv | cut -d, -f4,7-12

# Jobs that end a second after their processes: the last one's memory is
# back before its declared end (released with no delay, and said).
rm -rf nv
gpumem-synth -s concurrent --nvsmi nv --truth truth.csv
echo name,gpu,start,end > jobs.csv
tail -n +2 truth.csv | while IFS=, read -r host gpu pid name start end rest; do
	echo "job$pid,$gpu,$(iso "$start"),$(iso $((end + 1000000000)))"
done >> jobs.csv
gpumem-tasks --tasks jobs.csv nv/query-gpu.csv | cut -d, -f4,7-12

# A job declared a second before its process (whose memory comes in over
# three samples) and the next job declared too early as well: part of
# the first one's rise is taken as the second one's, and that is said.
rm -rf nv
gpumem-synth -s two-waiting --nvsmi nv --truth truth.csv
echo name,gpu,start,end > jobs.csv
tail -n +2 truth.csv | while IFS=, read -r host gpu pid name start end rest; do
	echo "job$pid,$gpu,$(iso $((start - 1000000000))),$(iso "$end")"
done >> jobs.csv
gpumem-tasks --tasks jobs.csv nv/query-gpu.csv | cut -d, -f4,7-12
