# What a test's task spans, in contrib/pytest's plugin: a module-scoped
# fixture holds 1 GiB on the stand-in GPU from the first test's setup to
# the last test's teardown.  With the default window (setup to teardown)
# that memory is the first test's and not back within its limit: it
# fails, with the figures; the last test, whose teardown frees it, passes.
# With --gpumem-window call (the test functions alone) both pass.
# alone: the stand-in GPU's release is timed by the clock, polled at 100 ms
. "$TESTS/lib.sh"
pytest_plugin
cat > test_fixture.py <<'PY'
import subprocess
import time

import pytest


@pytest.fixture(scope="module")
def model():
    p = subprocess.Popen(["./gpuwork", "60"])
    with open("model.pid", "w") as f:
        f.write("%d\n" % p.pid)
    time.sleep(0.5)
    yield p
    p.terminate()
    p.wait()


def test_first(model):
    time.sleep(0.3)


def test_last(model):
    time.sleep(0.3)
PY
trap 'kill $(cat model.pid 2> /dev/null) 2> /dev/null || :' EXIT
for window in test call; do
	rc=0
	"$py" -m pytest -p no:cacheprovider -p gpumem_pytest --gpumem run-$window \
	    --gpumem-window $window --gpumem-max-release-s 1 \
	    --junitxml junit-$window.xml test_fixture.py > out-$window.txt 2>&1 ||
	    rc=$?
	echo "$window: exit $rc"
	sed -n "s/^=* \([0-9].*\) in .*/\1/p" out-$window.txt
	awk '$0 ~ "^_+ test_first _+$" { getline; print }' out-$window.txt
	for t in first last; do
		printf '%s: %s\n' test_$t "$(xmllint --xpath "string(//testcase[@name='test_$t']/properties/property[@name='gpumem']/@value)" junit-$window.xml)"
	done
done
