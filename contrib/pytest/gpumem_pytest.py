# SPDX-License-Identifier: ISC
"""gpumem_pytest: fail the pytest tests whose GPU memory does not come back.

    pytest -p gpumem_pytest --gpumem DIR

records the session's GPUs with `gpumem record -o DIR/record` (nvidia-smi
polled every --gpumem-interval; an earlier session's recording there is
replaced) and judges each test as soon as it has ended:
its start and end are a declared task (`gpumem tasks --tasks`, the rules
of docs/analysis.md "Device-only logs"), and the test fails, in pytest's
own report and in JUnit, when its memory is not back within its limits
(or when the recording cannot tell: a test not judged never passes):

    @pytest.mark.gpumem(max_leak_mib=0, max_release_s=5)

(defaults: --gpumem-max-leak-mib, --gpumem-max-release-s).  The design
and its trade-off: each test is judged before the next one starts (its
report is held until then), so a clean test costs about two polls, a
leaking one its max_release_s (of the samples' times: a recording
that lags is waited for); the judgement is exact for serial runs
(the GPU's usage is the only evidence: tests running at once on one GPU,
as with pytest-xdist, cannot be told apart).  See README.md.
"""

import csv
import datetime
import os
import shlex
import subprocess
import time

import pytest

DEFAULT_MAX_LEAK_MIB = 0
DEFAULT_MAX_RELEASE_S = 5.0
# How long after a test's end + max_release_s the recording may take to
# get there (nvidia-smi lagging or stuck) before the test fails unjudged.
WAIT_S = 60.0


def pytest_addoption(parser):
    g = parser.getgroup("gpumem", "GPU memory of each test (gpumem)")
    g.addoption("--gpumem", metavar="DIR", default=None,
                help="record the GPUs into DIR (gpumem record) and fail "
                "the tests whose GPU memory does not come back")
    g.addoption("--gpumem-max-leak-mib", type=int, metavar="MIB",
                default=DEFAULT_MAX_LEAK_MIB,
                help="memory a test may leave held (default 0)")
    g.addoption("--gpumem-max-release-s", type=float, metavar="S",
                default=DEFAULT_MAX_RELEASE_S,
                help="how long after its end a test's memory may take "
                "to come back (default 5)")
    g.addoption("--gpumem-interval", type=float, metavar="S", default=0.1,
                help="the sampling interval, seconds (default 0.1)")
    g.addoption("--gpumem-window", choices=("test", "call"),
                default="test",
                help="what a test's task spans: test (setup to teardown, "
                "the default) or call (the test function alone: memory "
                "of fixtures shared by several tests is not judged)")
    g.addoption("--gpumem-command", metavar="CMD", default="gpumem",
                help="the gpumem to run (default: gpumem from PATH)")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "gpumem(max_leak_mib=0, max_release_s=5): the test's "
        "limits for its GPU memory (gpumem_pytest)")
    dest = config.getoption("--gpumem")
    if dest and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Recorder(config, dest), "gpumem-recorder")


def iso(t):
    """Seconds since the epoch as gpumem's --since takes them."""
    d = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def limits(item):
    """The test's limits: its closest marker's, else the options'.

    Raises ValueError, saying why, for a marker gpumem cannot use."""
    cfg = item.config
    lim = {"max_leak_mib": cfg.getoption("--gpumem-max-leak-mib"),
           "max_release_s": cfg.getoption("--gpumem-max-release-s")}
    for m in reversed(list(item.iter_markers("gpumem"))):
        if m.args:
            raise ValueError("@pytest.mark.gpumem takes max_leak_mib= "
                             "and max_release_s=, not %r" % (m.args,))
        for k, v in m.kwargs.items():
            if k not in lim:
                raise ValueError("@pytest.mark.gpumem: unknown limit %r "
                                 "(max_leak_mib, max_release_s)" % k)
            if isinstance(v, bool) or not isinstance(v, (int, float)) \
                    or v < 0:
                raise ValueError("@pytest.mark.gpumem: %s=%r: not a "
                                 "number of %s" % (k, v, "MiB" if k ==
                                                   "max_leak_mib" else "s"))
            lim[k] = v
    return lim


def judge(row, lim):
    """One GPU's row of gpumem tasks for a test: (verdict, message).

    verdict: "passed", "leaked", "slow" or "unjudged"."""
    gpu = row["gpu"]
    status = row["status"]
    if status == "released":
        delay = float(row["release_delay_s"])
        held = row["held_mib"]
        if delay > lim["max_release_s"]:
            return "slow", ("GPU %s: %s MiB came back %s-%s s after the "
                            "test ended, more than max_release_s=%g"
                            % (gpu, held, row["delay_min_s"],
                               row["delay_max_s"], lim["max_release_s"]))
        return "passed", ("GPU %s: %s MiB back after %s s" %
                          (gpu, held, row["release_delay_s"]))
    if status == "leaked":
        leaked = int(row["leaked_mib"] or 0)
        if leaked > lim["max_leak_mib"]:
            return "leaked", ("GPU %s: %d MiB of %s MiB held not back "
                              "within max_release_s=%g of the test's end, "
                              "more than max_leak_mib=%d"
                              % (gpu, leaked, row["held_mib"],
                                 lim["max_release_s"], lim["max_leak_mib"]))
        return "passed", ("GPU %s: %d MiB not back, within max_leak_mib=%d"
                          % (gpu, leaked, lim["max_leak_mib"]))
    return "unjudged", "GPU %s: no sample after the test ended" % gpu


class Recorder:
    """The session's recording and the judgement of each test."""

    def __init__(self, config, dest):
        self.config = config
        self.dir = os.path.abspath(dest)
        self.rec = os.path.join(self.dir, "record")
        self.gpumem = shlex.split(config.getoption("--gpumem-command"))
        self.interval = config.getoption("--gpumem-interval")
        self.window = config.getoption("--gpumem-window")
        self.proc = None
        self.gpus = []
        self.failed = []
        self.judged = 0
        self.problem = ""
        self.tasks = os.path.join(self.dir, "tests.csv")
        self.one = os.path.join(self.dir, ".test.csv")

    # The recording: gpumem record runs `cat`, which ends when the
    # session closes its standard input (or when pytest dies).
    def pytest_sessionstart(self, session):
        os.makedirs(self.dir, exist_ok=True)
        started = os.path.join(self.dir, ".started")
        if os.path.exists(started):
            os.unlink(started)
        ms = max(1, int(round(self.interval * 1000)))
        cmd = self.gpumem + [
            "record", "-q", "-f", "--interval", "%dms" % ms,
            "--before", "%dms" % (3 * ms), "--after", "0", "-o", self.rec,
            "--", "sh", "-c", ': > "$1" && exec cat > /dev/null', "sh",
            started]
        self.err = open(os.path.join(self.dir, "record.err"), "w+")
        try:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                         stdout=subprocess.DEVNULL,
                                         stderr=self.err)
        except OSError as e:
            raise pytest.UsageError("gpumem: cannot run %s: %s"
                                    % (self.gpumem[0], e))
        deadline = time.time() + 60
        while not os.path.exists(started):
            if self.proc.poll() is not None or time.time() > deadline:
                self.stop()
                self.err.seek(0)
                raise pytest.UsageError(
                    "gpumem: the recording did not start: %s"
                    % (self.err.read().strip() or "timed out"))
            time.sleep(0.02)
        self.gpus = self.read_gpus()
        with open(self.tasks, "w", newline="") as f:
            csv.writer(f).writerow(["name", "gpu", "start", "end"])

    def read_gpus(self):
        """The GPU indexes of the recording's first sample: the rows
        before the first index seen again (the first poll whole)."""
        path = os.path.join(self.rec, "query-gpu.csv")
        deadline = time.time() + 30
        while True:
            try:
                with open(path) as f:
                    rows = list(csv.reader(f, skipinitialspace=True))
            except OSError:
                rows = []
            if len(rows) > 1:
                col = rows[0].index("index")
                gpus = []
                for r in rows[1:]:
                    if len(r) > col and r[col] in gpus:
                        return gpus
                    if len(r) > col:
                        gpus.append(r[col])
            if time.time() > deadline:
                raise pytest.UsageError("gpumem: %s: not two samples" % path)
            time.sleep(self.interval)

    def stop(self):
        if self.proc is None:
            return
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            self.proc.wait()
        self.proc = None

    def pytest_sessionfinish(self, session):
        self.stop()
        self.err.seek(0)
        self.problem = self.err.read().strip()

    def pytest_terminal_summary(self, terminalreporter):
        tr = terminalreporter
        tr.write_sep("-", "gpumem")
        tr.write_line("gpumem: %d tests judged, %d failed for their GPU "
                      "memory; the recording: %s, the tests: %s"
                      % (self.judged, len(self.failed), self.rec, self.tasks))
        for nodeid, msg in self.failed:
            tr.write_line("gpumem: FAIL: %s: %s" % (nodeid, msg))
        if self.problem:
            tr.write_line("gpumem: the recording said: %s" % self.problem,
                          red=True)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        item._gpumem_call = [time.time()]
        yield
        item._gpumem_call.append(time.time())

    # Each test's reports are held until its memory is judged: a test
    # that passed but left memory behind fails in its call report.
    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        from _pytest.runner import runtestprotocol
        try:
            lim, bad = limits(item), None
        except ValueError as e:
            lim, bad = None, str(e)
        item.ihook.pytest_runtest_logstart(nodeid=item.nodeid,
                                           location=item.location)
        start = time.time()
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
        end = time.time()
        call = [r for r in reports if r.when == "call"]
        if call and bad:
            fail(call[0], "gpumem: " + bad)
        elif call and not call[0].skipped:
            if self.window == "call" and len(item._gpumem_call) == 2:
                start, end = item._gpumem_call
            self.verdict(item, call[0], reports[-1], lim, start, end)
        for r in reports:
            item.ihook.pytest_runtest_logreport(report=r)
        item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid,
                                            location=item.location)
        return True

    def rows(self, name, start):
        """gpumem tasks' rows of the task name, on the recording so far
        (from a while before start: the level it started from)."""
        since = iso(start - max(10.0, 20 * self.interval))
        out = subprocess.run(
            self.gpumem + ["tasks", "-q", "--since", since, "--tasks",
                           self.one, self.rec],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            universal_newlines=True)
        if out.returncode != 0:
            raise RuntimeError("gpumem tasks: exit %d: %s"
                               % (out.returncode, out.stderr.strip()))
        return [r for r in csv.DictReader(out.stdout.splitlines())
                if r["name"] == name]

    def polled(self, t):
        """{GPU: the time of its first sample at or after t (s)}, of the
        GPUs the recording so far has one of (the samples' own times)."""
        out = subprocess.run(
            self.gpumem + ["read", "-q", "-t", "csv", "--since", iso(t),
                           self.rec],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            universal_newlines=True)
        if out.returncode != 0:
            raise RuntimeError("gpumem read: exit %d: %s"
                               % (out.returncode, out.stderr.strip()))
        first = {}
        for r in csv.DictReader(out.stdout.splitlines()):
            if r["process_id"] == "0" and r["gpu"] not in first:
                first[r["gpu"]] = int(r["timestamp"]) / 1e9
        return first

    def ends(self, start, end):
        """{GPU: the end the test is declared with}: its own, or, when no
        sample of the GPU came between its start and end (a test shorter
        than the gap between two polls), just after the first sample
        after its start: else no sample shows what it held.  Waits for
        that sample (the recording may lag), until the recording ends or
        WAIT_S after the test's end."""
        while True:
            ended = self.proc.poll() is not None
            first = self.polled(start)
            if set(first) >= set(self.gpus) or ended or \
                    time.time() > end + WAIT_S:
                break
            time.sleep(self.interval)
        return dict((g, max(end, first.get(g, end) + 0.001))
                    for g in self.gpus)

    def verdict(self, item, call, teardown, lim, start, end):
        try:
            ends = self.ends(start, end)
        except RuntimeError:
            ends = dict((g, end) for g in self.gpus)
        end = max(ends.values())
        decl = [[item.nodeid, g, iso(start), iso(ends[g])]
                for g in self.gpus]
        with open(self.one, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["name", "gpu", "start", "end"])
            w.writerows(decl)
        with open(self.tasks, "a", newline="") as f:
            csv.writer(f).writerows(decl)
        # Until every GPU's memory is back, or the recording has a sample
        # of every GPU at or after the test's end + max_release_s and a
        # second (or five intervals) more: memory back just late is then
        # seen as this test's (slow), not during the next test.  The
        # recording may lag behind the clock (a loaded machine, buffered
        # writes): the samples' times decide, not the clock's.  When the
        # recording ends, or does not get there in WAIT_S, memory not back
        # is judged only on a GPU with a sample at end + max_release_s.
        deadline = end + lim["max_release_s"]
        settled = deadline + max(1.0, 5 * self.interval)
        covered, why = set(), ""
        try:
            while True:
                ended = self.proc.poll() is not None
                # The samples first: the rows read at least as many.
                if time.time() >= settled:
                    covered = set(self.polled(settled))
                rows = self.rows(item.nodeid, start)
                if rows and all(r["status"] == "released" for r in rows):
                    break
                if covered >= set(self.gpus):
                    break
                if ended or time.time() > settled + WAIT_S:
                    why = ("the recording ended" if ended else
                           "none in %g s more" % WAIT_S)
                    covered = set(self.polled(deadline))
                    break
                time.sleep(self.interval)
            verdicts = self.judge_rows(rows, lim, covered, why)
        except RuntimeError as e:
            rows = []
            verdicts = [("error", str(e))]
        self.judged += 1
        bad = [m for v, m in verdicts if v != "passed"]
        kinds = [v for v, _ in verdicts]
        worst = next((v for v in ("error", "leaked", "slow", "unjudged")
                      if v in kinds), "passed")
        props = teardown.user_properties
        props.append(("gpumem", worst))
        for r in rows:
            for k in ("held_mib", "release_delay_s", "leaked_mib"):
                if r.get(k, "") != "":
                    props.append(("gpumem_gpu%s_%s" % (r["gpu"], k), r[k]))
        props.append(("gpumem_max_leak_mib", lim["max_leak_mib"]))
        props.append(("gpumem_max_release_s", lim["max_release_s"]))
        if not bad:
            return
        self.failed.append((item.nodeid, "; ".join(bad)))
        fail(call, "gpumem: " + "; ".join(bad))

    def judge_rows(self, rows, lim, covered, why):
        """A (verdict, message) a GPU of the recording, in its order:
        memory not back on a GPU without a sample at the deadline is no
        verdict, nor is a GPU without a row.  A test not judged fails: it
        never passes unseen."""
        verdicts = []
        for g in self.gpus:
            row = [r for r in rows if r["gpu"] == g]
            if not row:
                verdicts.append(("unjudged", "GPU %s: not judged: no row "
                                 "in gpumem tasks" % g))
            elif row[0]["status"] == "released" or g in covered:
                verdicts.append(judge(row[0], lim))
            else:
                verdicts.append(("unjudged", "GPU %s: not judged: no sample "
                                 "max_release_s=%g after the test's end (%s)"
                                 % (g, lim["max_release_s"], why)))
        return verdicts


def fail(call, text):
    """Fail the call report with text, or add text to its failure."""
    if call.passed:
        call.outcome = "failed"
        call.longrepr = text
    else:
        call.sections.append(("gpumem", text))
