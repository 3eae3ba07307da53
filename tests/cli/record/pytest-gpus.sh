# contrib/pytest's plugin on two GPUs: each test is a task on each GPU of
# the recording, and a failure names the GPU whose memory stayed.  On the
# stand-in, a process holds its 1 GiB on the GPU its CUDA_VISIBLE_DEVICES
# names.  clean uses GPU 0 and gives it back; leak leaves a process on
# GPU 1; broken fails on its own and leaves one on GPU 0: its assertion
# stays its failure, gpumem's figures a section of its report.
# alone: the stand-in GPU's release is timed by the clock, polled at 100 ms
. "$TESTS/lib.sh"
pytest_plugin
export FAKE_GPU_COUNT=2
cat > test_gpus.py <<'PY'
import os
import subprocess
import time

left = []


def gpuwork(gpu, secs):
    env = dict(os.environ, CUDA_VISIBLE_DEVICES=str(gpu))
    p = subprocess.Popen(["./gpuwork", str(secs)], env=env)
    with open("pids", "a") as f:
        f.write("%d\n" % p.pid)
    return p


def test_clean():
    gpuwork(0, 0.5).wait()


def test_leak():
    left.append(gpuwork(1, 60))
    time.sleep(0.5)


def test_broken():
    left.append(gpuwork(0, 60))
    time.sleep(0.5)
    assert 1 + 1 == 3
PY
trap 'kill $(cat pids 2> /dev/null) 2> /dev/null || :' EXIT
rc=0
"$py" -m pytest -p no:cacheprovider -p gpumem_pytest --gpumem run \
    --gpumem-max-release-s 1 --junitxml junit.xml test_gpus.py \
    > out.txt 2>&1 || rc=$?
echo "exit $rc"
sed -n "s/^=* \([0-9].*\) in .*/\1/p" out.txt
# pytest's failures: leak's on GPU 1; broken's assertion, then gpumem's
# section (GPU 0).
awk '$0 ~ "^_+ test_leak _+$" { getline; print }' out.txt
grep -q '^E  *assert (1 + 1) == 3$' out.txt || die "no assertion: $(cat out.txt)"
awk '/^-+ gpumem -+$/ { getline; print; exit }' out.txt
# Each test's figures per GPU, from the JUnit XML.
for t in clean leak broken; do
	line="test_$t:"
	for k in gpumem gpumem_gpu0_held_mib gpumem_gpu0_leaked_mib \
	    gpumem_gpu1_held_mib gpumem_gpu1_leaked_mib; do
		v=$(xmllint --xpath "string(//testcase[@name='test_$t']/properties/property[@name='$k']/@value)" junit.xml)
		line="$line ${k#gpumem_}=${v:--}"
	done
	echo "$line"
done
# The declared tasks: one a test and GPU.
cut -d, -f1,2 run/tests.csv
