# Recorded end to end (the stand-in nvidia-smi, stand-in device files):
# memory a process nvidia-smi does not list leaves on the GPU is named
# after it.  A tail started before the recording holds dev/nvidia0 open
# and is never listed (not a GPU user to the stand-in).  After the first
# device sample (the idle level), the command runs gpujob, a listed GPU
# user (2048 MiB); 3 samples after its first listing 1024 MiB more come
# into use that no process listed holds (FAKE_GPU_HIDDEN_FILE); 3 samples
# later, once gpujob is listed after the rise, it is killed, its memory
# back at once.  Each step waits for the logs, not for time.  The 1024
# MiB are left at the end: tasks names tail, the one holding the GPU
# open then, unlisted (check/holders-at-end.sh has the rules).
. "$TESTS/lib.sh"
PATH=$TESTS/tools/fakebin:$PATH
export FAKE_GPU_COMM=gpujob FAKE_GPU_RELEASE_MS=0 FAKE_GPU_HIDDEN_FILE=$PWD/hidden
mkdir dev
: > dev/nvidia0
cp "$(command -v sleep)" gpujob
sh -c 'exec 3< dev/nvidia0; exec tail -f /dev/null' &
holder=$!
bg_add $holder
wait_for 10 grep -qx tail /proc/$holder/comm || die "the holder did not start"
# Its container, as record names it, when its cgroup has one.
id=$(sed -n '1s/.*\([0-9a-f]\{64\}\).*/\1/p' /proc/$holder/cgroup | cut -c1-12)
who="$holder tail${id:+ in container $id}"
cat > cmd.sh <<'CMD'
samples() { wc -l < run/query-gpu.csv 2> /dev/null || echo 0; }
until [ "$(samples)" -ge 2 ]; do sleep 0.05; done
./gpujob 60 &
job=$!
# Its first listing, before the hidden memory: on a loaded machine the
# stand-in's scan of /proc may miss it for a few polls.
until grep -q gpujob run/compute-apps.csv 2> /dev/null; do sleep 0.05; done
n=$(samples)
until [ "$(samples)" -ge $((n + 3)) ]; do sleep 0.05; done
echo 1024 > hidden
n=$(samples)
until [ "$(samples)" -ge $((n + 3)) ]; do sleep 0.05; done
# And a listing of gpujob after the hidden memory shows (in line n + 2, a
# sample begun after it was written at the latest): the stand-in's two
# loops lag one another on a loaded machine, and with no listing after
# the rise gpujob may well be the one that grew (tasks then says so).
t=$(sed -n "$((n + 2))p" run/query-gpu.csv | cut -d, -f1)
until awk -F', ' -v t="$t" '$5 == "gpujob" && $1 > t { f = 1 }
    END { exit !f }' run/compute-apps.csv; do sleep 0.05; done
kill $job
wait $job || :
CMD
gpumem-record --before 0 --after 500ms --interval 100ms \
    --devices "$PWD/dev/nvidia[0-9]*" -o run -- sh cmd.sh
gpumem-tasks run 2> err.txt | awk -F, 'NR > 1 { print $3 "|" $4 "|" $11 "|" $12 "|" $15 }' > got.txt
grep -q "^[0-9]*|gpujob|.*|released|" got.txt || die "gpujob: $(cat got.txt)"
expect_eq "the holder's row" "$(grep '^0|' got.txt)" "0|held by $who|1024|leaked|holder"
grep -q "^gpumem-tasks: GPU 0: 1024 MiB in use at the end is no listed process's: held by $who," err.txt ||
	die "stderr: $(cat err.txt)"
