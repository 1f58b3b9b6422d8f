"""test_bench_busy.py: bench/loadgen's machine_busy (issue 32).

In paced runs loadgen said the machine was 0.00-0.04 busy while the server
alone used 0.3 of a core: it divided /proc/stat's busy counters by all of
them, and with tick-based accounting (CONFIG_TICK_CPU_ACCOUNTING) on a
tickless kernel (NO_HZ_IDLE) the busy counters are sampled at a tick that
short bursts between sleeps rarely meet, while idle time is measured as
the CPUs sleep. machine_busy is now the CPUs' wall time less their idle
time.

A short paced run against a real tablerod reads a /proc/stat written by
the test (LOADGEN_STAT) as such a kernel shows a machine whose two CPUs
are a quarter busy: idle grows with the clock (three quarters of it),
the busy counters barely move. machine_busy must say 0.25, not 0.01. A
second run reads the real /proc/stat: the machine is at least as busy as
the server and loadgen together."""

import os
import re
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

HZ = os.sysconf("SC_CLK_TCK")
# The fake machine: its CPUs, the share of their time they are busy, and
# the share of that busy time the sampled counters show.
CPUS = 2
BUSY = 0.25
SAMPLED = 0.05
# How often the writer looks for loadgen opening the fake file.
STEP = 0.001
# The paced run: rooms, moves a second in all, seconds measured.
ROOMS = 2
PACE = 20
SECONDS = 1.5


def fake_stat(t):
    """The text of /proc/stat at t seconds on the fake machine."""
    idle = int(t * HZ * (1 - BUSY))
    user = int(t * HZ * BUSY * SAMPLED)
    lines = ["cpu  %d 0 0 %d 0 0 0 0 0 0" % (user * CPUS, idle * CPUS)]
    lines += ["cpu%d %d 0 0 %d 0 0 0 0 0 0" % (i, user, idle)
              for i in range(CPUS)]
    return "\n".join(lines + ["intr 0", "ctxt 0"]) + "\n"


class Faker(threading.Thread):
    """Serves the fake /proc/stat through a FIFO at path: each time loadgen
    opens it, the text is made for that moment, so a writer thread late on
    a loaded machine cannot hand loadgen an old reading (a file rewritten
    every few ms did: 0.17 read for 0.25 under CI's load)."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path = path
        self.stop = threading.Event()
        self.t0 = time.monotonic() - 1000  # a machine up for a while
        os.mkfifo(path)

    def reader(self):
        """A descriptor to write to when a reader has the FIFO open."""
        try:
            return os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: no reader
            return None

    def run(self):
        served = False  # the open reader had its text: wait for its close
        while not self.stop.is_set():
            fd = self.reader()
            if fd is not None and not served:
                os.set_blocking(fd, True)
                os.write(fd, fake_stat(time.monotonic() - self.t0).encode())
                served = True
            elif fd is None:
                served = False
                time.sleep(STEP)
            else:
                time.sleep(STEP)
            if fd is not None:
                os.close(fd)


def loadgen(build, srv, env=None):
    """A short paced moves run; its figures as a dict (or {} and the
    output when it failed)."""
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(
        [os.path.join(build, "loadgen"), "-m", "moves", "-r", str(ROOMS),
         "-t", str(PACE), "-s", str(SECONDS), "-w", "0.2",
         "-p", str(srv.port), "-P", str(srv.proc.pid)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e,
        timeout=60, check=False)
    out = p.stdout.decode("utf-8", "replace")
    figs = dict(re.findall(r"(\w+)=(\S+)", out))
    return figs, out + p.stderr.decode("utf-8", "replace")[-500:]


def main():
    a = harness.args()
    chk = harness.Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-busy-")
    stat = os.path.join(tmp, "stat")
    try:
        with harness.Server(a.build) as srv:
            faker = Faker(stat)
            faker.start()
            try:
                figs, out = loadgen(a.build, srv, {"LOADGEN_STAT": stat})
            finally:
                faker.stop.set()
                faker.join()
            chk.ok("machine_busy" in figs and int(figs.get("n", 0)) > 0,
                   "a paced run with moves: %s" % out)
            mb = float(figs.get("machine_busy", -1))
            chk.ok(abs(mb - BUSY) <= 0.05, "machine_busy %.2f on a machine "
                   "%.2f busy whose busy counters show %.0f%% of it"
                   % (mb, BUSY, SAMPLED * 100))
            # the real machine: at least what the two processes used
            figs, out = loadgen(a.build, srv)
            ncpu = sum(1 for l in open("/proc/stat")
                       if re.match(r"cpu\d", l))
            used = float(figs.get("server_cpu", 0)) + \
                float(figs.get("loadgen_cpu", 0))
            mb = float(figs.get("machine_busy", -1))
            chk.ok(0 <= mb <= 1 and mb * ncpu >= used - 0.1,
                   "machine_busy %.2f of %d CPUs covers the server and "
                   "loadgen (%.2f of a core): %s" % (mb, ncpu, used, out))
    finally:
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)
    chk.done()


if __name__ == "__main__":
    main()
