# contrib/pytest's plugin judges a test on the recording's samples, not
# on the clock, and never passes a test it could not judge.  The stand-in
# nvidia-smi writes each sample 1.5 s after taking it (a log that lags, as
# on a loaded machine), more than max_release_s=0.2 and the second the
# plugin gives late memory: a verdict taken when the clock says the limit
# has passed would see no sample after the test's end (and, before, passed
# such a test).  Four tests: clean (back at once) passes; late leaves its
# 1 GiB held and fails; leak takes 1 GiB that it keeps, then gives late's
# back (it ends late's process): it fails, its own 1 GiB not back (the
# memory back was there before it started); stop ends the recording: no
# sample ever shows its end, and it fails, not judged.
# alone: the stand-in's samples are timed by the clock, polled at 100 ms
. "$TESTS/lib.sh"
pytest_plugin
export FAKE_GPU_LAG_MS=1500
cat > test_lag.py <<'PY'
import os
import signal
import subprocess
import time


def test_clean():
    subprocess.run(["./gpuwork", "0.3"], check=True)


def test_late():
    p = subprocess.Popen(["./gpuwork", "60"])
    with open("late.pid", "w") as f:
        f.write("%d\n" % p.pid)
    time.sleep(0.3)


def test_leak():
    p = subprocess.Popen(["./gpuwork", "60"])
    with open("leak.pid", "w") as f:
        f.write("%d\n" % p.pid)
    time.sleep(0.5)
    with open("late.pid") as f:
        os.kill(int(f.read()), signal.SIGTERM)
    time.sleep(0.5)


def test_stop():
    # The recorder: the gpumem-record among pytest's children.
    me = os.getpid()
    with open("/proc/%d/task/%d/children" % (me, me)) as f:
        kids = f.read().split()
    for k in kids:
        with open("/proc/%s/comm" % k) as f:
            if f.read().strip() == "gpumem-record":
                os.kill(int(k), signal.SIGTERM)
PY
trap 'kill $(cat late.pid leak.pid 2> /dev/null) 2> /dev/null || :' EXIT
rc=0
"$py" -m pytest -p no:cacheprovider -p gpumem_pytest --gpumem run \
    --gpumem-max-release-s 0.2 --junitxml junit.xml test_lag.py \
    > out.txt 2> err.txt || rc=$?
expect_eq "pytest exit" $rc 1
sed -n "s/^=* \([0-9].*\) in .*/\1/p" out.txt
for t in late leak stop; do
	awk -v t="test_$t" '$0 ~ "^_+ " t " _+$" { getline; print; exit }' out.txt
done
for t in clean late leak stop; do
	printf '%s: %s\n' test_$t "$(xmllint --xpath "string(//testcase[@name='test_$t']/properties/property[@name='gpumem']/@value)" junit.xml)"
done
