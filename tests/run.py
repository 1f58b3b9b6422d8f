#!/usr/bin/env python3
"""run.py: tests/run.sh's runner. Runs every test of tablero (unit
binaries, black-box tests against the real server, the browser tests,
fuzz targets briefly) TEST_JOBS at a time and ends with one line
"N passed, M failed". Exits non-zero when anything failed.

Usage: run.py BUILD_DIR [FUZZ_SECONDS [TEST...]]  (through tests/run.sh)

Each test prints a last line "N passed, M failed"; its output goes to a
file of its own, and when it ends its line "NAME N passed, M failed
(S s)" is printed, in the order below (unit, black-box, web, fuzz, each
sorted), never interleaved: a line waits for the tests before it. A
failing test's whole output comes before its line. A test that exits 0
without a check ("0 passed, 0 failed", or no such line) is one failure:
it "ran no check". Every test is its own process group, killed (by that
group's id) past LIMIT seconds or when the run is interrupted. Of the
TEST_JOBS running, the busy ones (BUSY: unit binaries, fuzz targets,
browser tests) are at most one per core; the ALONE ones run first, each
with nothing else.

Naming tests (file names in tests/blackbox, paths from the repository's
root such as tests/cluster/test_x.py, unit binaries test_NAME in
BUILD/tests, or browser tests test_NAME.mjs in web/tests) runs only those
(no fuzzing, no other browser test): make pg-test, cluster-test,
tsan-test. A test that skips itself where a service is missing (ck.skip,
check_skip) checks nothing there, which fails here too: such a test
(NEEDS_SERVICE) runs only when named by the script that starts its
service (tests/pg.sh). Standard library only.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# No single test binary or script may run longer than this (seconds).
LIMIT = 600
# Seconds between SIGTERM and SIGKILL for a test past LIMIT.
GRACE = 5
# Tests run at once unless TEST_JOBS says otherwise: the suites mostly
# wait on servers and sockets, so more than the cores pays.
DEFAULT_JOBS = 6
# Of those, the ones that compute rather than wait (unit binaries, fuzz
# targets, the browser tests with their Chromium) run at most one per
# core: more would starve the black-box tests' servers, whose replies
# are waited for with bounded waits.
BUSY = ("unit", "web", "fuzz")
# Tests that measure the server's threads against each other, which any
# other load on the machine skews: the bot and hint threads run at nice
# 19 (server/core/worker.c), so a test's CPU next to them starves them.
# They run first, one at a time, with nothing else running. (Under load
# test_bots_fair.py's level-1 bot searched 1 node in 3000 ms while the
# crowd's bots, cut by the clock, finished several moves.)
ALONE = ("test_bots_fair.py",)
# Tests that check nothing without a service their script starts (they
# skip themselves), run only when named: tests/pg.sh gives test_pgstore
# a PostgreSQL. (The cluster tests live in tests/cluster, which run.sh
# runs only when named: tests/cluster.sh.)
NEEDS_SERVICE = ("test_pgstore",)

COUNT = re.compile(rb"^([0-9]+) passed, ([0-9]+) failed", re.M)


class Job:
    """One test: a command, its output file, its result."""

    def __init__(self, name, argv, after=None, setup=None, finish=None):
        self.name = name
        self.argv = argv
        self.after = after  # a Job that must end before this starts
        self.setup = setup  # called just before the start
        self.finish = finish  # finish(job) after the end: may set .text
        self.tally = True  # False: a step, not a test (npm ci)
        self.busy = name.split("/", 1)[0] in BUSY
        self.alone = name.split("/", 1)[-1] in ALONE
        self.proc = None
        self.out = None
        self.t0 = self.t1 = None
        self.rc = None
        self.text = None  # the output as bytes, once read
        self.killed_at = None

    def start(self):
        if self.setup:
            self.setup(self)
        self.out = tempfile.TemporaryFile(prefix="tablero-test-")
        self.t0 = time.time()
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.DEVNULL, stdout=self.out,
                stderr=subprocess.STDOUT, start_new_session=True)
        except OSError as e:
            self.proc = None
            self.rc = 127
            self.t1 = time.time()
            self.text = ("cannot run %s: %s\n" % (self.argv[0], e)).encode()

    def done(self):
        return self.t1 is not None

    def poll(self, now):
        """Reap the test if it ended; kill its group past LIMIT."""
        if self.done():
            return True
        rc = self.proc.poll()
        if rc is None:
            if self.killed_at is None and now - self.t0 > LIMIT:
                self.killed_at = now
                self.kill(signal.SIGTERM)
            elif self.killed_at is not None and now - self.killed_at > GRACE:
                self.kill(signal.SIGKILL)
            return False
        self.t1 = now
        self.rc = 124 if self.killed_at is not None else rc
        self.out.seek(0)
        self.text = self.out.read()
        self.out.close()
        if self.killed_at is not None:
            self.text += b"\nrun.py: killed after %d s (LIMIT)\n" % LIMIT
        if self.finish:
            self.finish(self)
        return True

    def kill(self, sig):
        """Signal the test's process group (its id is the test's PID)."""
        if self.proc is None or self.done():
            return
        try:
            os.killpg(self.proc.pid, sig)
        except OSError:
            pass


def counts(job):
    """(passed, failed, note) from a finished job's output and status:
    a test that exits non-zero without a failed check is one failure,
    and so is one that exits 0 having checked nothing."""
    m = None
    for m in COUNT.finditer(job.text):
        pass
    p = int(m.group(1)) if m else 0
    f = int(m.group(2)) if m else 0
    note = None
    if job.rc != 0 and f == 0:
        f = 1
    elif job.rc == 0 and p == 0 and f == 0:
        f = 1
        note = ("run.py: ran no check (exit 0 with %s%s): a test that "
                "cannot check anything here must not run here "
                "(NEEDS_SERVICE in tests/run.py)" %
                ("\"0 passed, 0 failed\"" if m else
                 "no line \"N passed, M failed\"",
                 ", skipped" if re.search(rb"^skipped: ", job.text, re.M)
                 else ""))
    return p, f, note


def unit_jobs(build, only):
    jobs = []
    folder = os.path.join(build, "tests")
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    for n in names:
        path = os.path.join(folder, n)
        if not n.startswith("test_") or not os.access(path, os.X_OK) \
                or not os.path.isfile(path):
            continue
        if only is None and n in NEEDS_SERVICE:
            continue
        if only is not None and n not in only:
            continue
        jobs.append(Job("unit/" + n, [path]))
    return jobs


def blackbox_paths(only):
    if only is None:
        d = "tests/blackbox"
        return [os.path.join(d, n) for n in sorted(os.listdir(d))
                if n.startswith("test_") and n.endswith(".py")
                and n not in NEEDS_SERVICE]
    out = []
    for n in only:
        if "/" in n and n.endswith(".py"):
            out.append(n)  # a path: tests/cluster/...
        elif n.endswith(".py"):
            out.append(os.path.join("tests/blackbox", n))
    return out


def missing(name, why):
    """A job that fails at once with why (nothing to run)."""
    j = Job(name, None)
    j.t0 = j.t1 = time.time()
    j.rc = 1
    j.text = (why + "\n").encode()
    return j


def web_jobs(build, only=None):
    """The browser tests (all, or the file names in only), after npm has
    installed their driver once."""
    if os.environ.get("TABLERO_WEB", "1") != "1":
        return []
    if not shutil.which("node") or not shutil.which("chromium"):
        return [missing("web", "node or chromium missing (contrib/deps.sh "
                        "installs them; TABLERO_WEB=0 skips)")]
    d = "web/tests"
    npm = None
    if not os.path.isdir(os.path.join(d, "node_modules", "playwright-core")):
        # npm ci from the lock file, else npm install; the web tests fail
        # on their own if neither could.
        quiet = "--no-audit --no-fund --loglevel=error"
        npm = Job("web/npm", ["sh", "-c", "cd %s && { npm ci %s || "
                              "npm install %s; } >/dev/null 2>&1; exit 0"
                              % (d, quiet, quiet)])
        npm.tally = False
    return ([npm] if npm else []) + [
        Job("web/" + n, ["node", os.path.join(d, n), "--build", build],
            after=npm)
        for n in sorted(os.listdir(d))
        if n.startswith("test_") and n.endswith(".mjs")
        and (only is None or n in only)]


def fuzz_jobs(build, seconds):
    folder = os.path.join(build, "fuzz")
    if seconds == "0" or not os.path.isdir(folder):
        return []
    jobs = []
    for n in sorted(os.listdir(folder)):
        path = os.path.join(folder, n)
        if not n.startswith("fuzz_") or not os.access(path, os.X_OK):
            continue

        def setup(job, n=n, path=path):
            # A folder of its own: the seed corpus, what it finds, and
            # the artifact of a crash.
            work = tempfile.mkdtemp(prefix="tablero-fuzz-")
            job.work = work
            corpus = os.path.join("tests/fuzz/corpus", n)
            if os.path.isdir(corpus):
                shutil.copytree(corpus, work, dirs_exist_ok=True)
            job.argv = [path, "-max_total_time=" + seconds,
                        "-rss_limit_mb=2048", "-timeout=10",
                        "-artifact_prefix=" + work + "/", work]

        def finish(job, path=path):
            if job.rc == 0:  # libFuzzer found nothing: one check passed
                shutil.rmtree(job.work, ignore_errors=True)
                job.text = b"1 passed, 0 failed\n"
            else:  # the input that failed stays, to run again
                job.text += ("run.py: kept %s: its crash-, leak-, oom- or "
                             "timeout- file is the input that failed (%s "
                             "FILE runs it again)\n"
                             % (job.work, path)).encode()

        jobs.append(Job("fuzz/" + n, [path], setup=setup, finish=finish))
    return jobs


def jobs_wanted():
    v = os.environ.get("TEST_JOBS", "")
    try:
        n = int(v) if v else DEFAULT_JOBS
    except ValueError:
        sys.exit("run.py: TEST_JOBS=%r is not a number" % v)
    return max(1, n)


def main(argv):
    build = argv[1] if len(argv) > 1 else "build"
    fuzz_seconds = argv[2] if len(argv) > 2 else "4"
    only = argv[3:] if len(argv) > 3 else None
    jobs_n = jobs_wanted()

    jobs = unit_jobs(build, only)
    if only is not None:
        units = {j.name[len("unit/"):] for j in jobs}
        for n in only:
            if not n.endswith((".py", ".mjs")) and n not in units:
                jobs.append(missing("unit/" + n, "no such test"))
        fuzz_seconds = "0"
    for t in blackbox_paths(only):
        name = "blackbox/" + os.path.basename(t)
        if not os.path.isfile(t):
            jobs.append(missing(name, "no such test"))
            continue
        jobs.append(Job(name, ["python3", t, "--build", build]))
    # Named tests run only the browser tests named (test_web.mjs), so
    # that pg-test and tsan-test do not run them all again.
    webs = None if only is None else [
        os.path.basename(n) for n in only if n.endswith(".mjs")]
    if webs is None or webs:
        jobs += web_jobs(build, webs)
    jobs += fuzz_jobs(build, fuzz_seconds)

    # The tests that run alone first; then the long ones: the browser
    # tests (one per core at most, so they spread over the run) and the
    # black-box ones (servers, timeouts, restarts); the unit binaries and
    # the fuzz targets, short and busy, fill the gaps.
    def rank(j):
        kind = j.name.split("/", 1)[0]
        return -1 if j.alone else {"web": 0, "blackbox": 1, "unit": 2,
                                   "fuzz": 3}.get(kind, 1)
    waiting = sorted((j for j in jobs if not j.done()), key=rank)
    cores = len(os.sched_getaffinity(0)) if hasattr(
        os, "sched_getaffinity") else (os.cpu_count() or 1)
    running = []
    printed = 0
    passed = failed = 0
    t_start = time.time()

    def stop(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    try:
        while waiting or running or printed < len(jobs):
            now = time.time()
            running = [j for j in running if not j.poll(now)]
            while waiting and len(running) < jobs_n:
                if any(j.alone for j in running):
                    break
                busy = sum(j.busy for j in running)
                ready = [j for j in waiting
                         if (j.after is None or j.after.done())
                         and (not j.busy or busy < cores)]
                if not ready or (ready[0].alone and running):
                    break
                j = ready[0]
                waiting.remove(j)
                j.start()
                if not j.done():
                    running.append(j)
            while printed < len(jobs) and jobs[printed].done():
                j = jobs[printed]
                printed += 1
                if not j.tally:
                    continue
                p, f, note = counts(j)
                if f:
                    sys.stdout.flush()
                    sys.stdout.buffer.write(j.text)
                    if j.text and not j.text.endswith(b"\n"):
                        sys.stdout.buffer.write(b"\n")
                    if note:
                        sys.stdout.buffer.write(note.encode() + b"\n")
                print("%-32s %d passed, %d failed  (%.1f s)"
                      % (j.name, p, f, j.t1 - j.t0), flush=True)
                passed += p
                failed += f
            if waiting or running:
                time.sleep(0.05)
    except KeyboardInterrupt:
        # Every test still running, by its process group; each one's
        # finish (a fuzz target's folder) still runs.
        for j in running:
            j.kill(signal.SIGTERM)
        deadline = time.time() + GRACE
        while running and time.time() < deadline:
            time.sleep(0.05)
            running = [j for j in running if not j.poll(time.time())]
        for j in running:
            j.kill(signal.SIGKILL)
            j.proc.wait()
            j.poll(time.time())
        print("run.py: interrupted", flush=True)
        return 130
    print("%d tests, %d at a time, in %.0f s" %
          (sum(j.tally for j in jobs), jobs_n, time.time() - t_start))
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
