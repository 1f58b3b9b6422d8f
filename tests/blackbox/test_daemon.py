"""test_daemon.py: tablerod as a daemon (-d): it detaches (the launching
process exits 0), writes its pidfile with the daemon's pid, logs to a file,
serves, reopens the log on SIGHUP (log rotation) and on SIGTERM tells its
clients (`shutdown`), removes the pidfile and exits. Relative paths are
taken from the directory it was started in. A foreground server stops
cleanly on SIGINT too.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (WAIT, Checks, Client, Server, args, login,  # noqa: E402
                     run_parts)


def wait_for(cond, timeout=WAIT):
    """Poll cond() until it is true (bounded); its last value."""
    deadline = time.time() + timeout
    while True:
        v = cond()
        if v or time.time() >= deadline:
            return v
        time.sleep(0.02)


def read(path):
    try:
        with open(path, "r", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def alive(pid):
    """Whether a process with this pid exists (and is not a zombie)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Daemon:
    """A tablerod started with -d; stopped (killed if need be) at exit."""

    def __init__(self, build, cwd, pidfile, logfile):
        self.exe = os.path.abspath(os.path.join(build, "tablerod"))
        self.cwd = cwd
        self.pidfile = os.path.join(cwd, pidfile)
        self.logfile = os.path.join(cwd, logfile)
        self.argv = [self.exe, "-d", "--pidfile", pidfile, "--log-file",
                     logfile, "--port", "0", "--listen", "127.0.0.1",
                     "--db", ":memory:", "--log-level", "debug"]
        self.pid = None
        self.rc = None

    def start(self):
        p = subprocess.run(self.argv, cwd=self.cwd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=WAIT)
        self.rc = p.returncode
        self.launcher = p
        text = wait_for(lambda: read(self.pidfile).strip())
        if re.fullmatch(r"\d+", text or ""):
            self.pid = int(text)
        return self

    def port(self):
        m = wait_for(lambda: re.search(r"listening on 127\.0\.0\.1:(\d+)",
                                       read(self.logfile)))
        return int(m.group(1)) if m else None

    def kill(self):
        if self.pid is not None and alive(self.pid):
            os.kill(self.pid, signal.SIGKILL)


def test_daemon(chk, build):
    tmp = tempfile.mkdtemp(prefix="tablerod-daemon-")
    # absolute paths here (relative ones: test_relative_paths)
    d = Daemon(build, tmp, os.path.join(tmp, "tablerod.pid"),
               os.path.join(tmp, "tablerod.log"))
    try:
        d.start()
        chk.eq(d.rc, 0, "the launching process exits 0")
        chk.eq(d.launcher.stdout, b"", "the launcher prints nothing")
        chk.ok(d.pid is not None, "the pidfile holds a pid: %r" %
               read(d.pidfile))
        if d.pid is None:
            return
        chk.ok(alive(d.pid), "the pid in the pidfile is running")
        # the launcher returns once the daemon serves, signals handled: a
        # SIGHUP at once (a log rotation racing the start) must not kill it
        os.kill(d.pid, signal.SIGHUP)
        time.sleep(0.2)
        chk.ok(alive(d.pid), "a SIGHUP right after the start is handled")
        chk.ok(not [f for f in os.listdir(tmp) if ".tmp" in f],
               "no temporary pidfile left: %r" % os.listdir(tmp))
        # detached: its own session, working directory /, stdio on
        # /dev/null
        try:
            with open("/proc/%d/stat" % d.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            chk.eq(int(fields[3]), d.pid, "the daemon leads its own session")
            chk.eq(os.readlink("/proc/%d/cwd" % d.pid), "/",
                   "the daemon works in /")
            chk.eq(os.readlink("/proc/%d/fd/0" % d.pid), "/dev/null",
                   "stdin is /dev/null")
        except OSError as e:
            chk.ok(False, "cannot inspect the daemon: %r" % e)
        port = d.port()
        chk.ok(port is not None, "the log says where it listens: %r" %
               read(d.logfile)[-500:])
        if port is None:
            return
        c = login(port, "ana")
        chk.ok(c.token is not None, "the daemon serves: hello")
        r = c.call("create", game="stones")
        chk.ok(r.get("ok"), "the daemon serves: create")
        chk.ok("ana logged in" in read(d.logfile), "the log file has lines")

        # log rotation: rename, HUP, a new file with the new lines
        rotated = d.logfile + ".1"
        os.rename(d.logfile, rotated)
        os.kill(d.pid, signal.SIGHUP)
        chk.ok(wait_for(lambda: os.path.exists(d.logfile)),
               "SIGHUP: the log file is made again")
        b = login(port, "bob")
        chk.ok(wait_for(lambda: "bob logged in" in read(d.logfile)),
               "SIGHUP: new lines go to the new file")
        chk.ok("bob logged in" not in read(rotated),
               "SIGHUP: nothing new in the rotated file")
        chk.ok(alive(d.pid), "SIGHUP does not stop the daemon")
        is_up = b.call("ping")
        chk.ok(is_up and is_up.get("pong"), "serving after SIGHUP")

        # SIGTERM: every client hears shutdown, then the connection closes
        c.drain()
        b.drain()
        os.kill(d.pid, signal.SIGTERM)
        for who, cl in (("ana", c), ("bob", b)):
            ev = cl.event("shutdown")
            chk.ok(ev is not None and isinstance(ev.get("message"), str) and
                   "room" not in ev and "seq" not in ev,
                   "%s gets the shutdown event: %r" % (who, ev))
            chk.ok(cl.json() is None, "%s: closed after shutdown" % who)
        chk.ok(wait_for(lambda: not alive(d.pid)), "the daemon exits")
        chk.ok(wait_for(lambda: not os.path.exists(d.pidfile)),
               "the pidfile is removed")
        chk.ok("tablerod stopped" in read(d.logfile),
               "the log says it stopped")
        c.close()
        b.close()
    finally:
        d.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def test_relative_paths(chk, build):
    """--pidfile and --log-file relative to where tablerod was started,
    also after it changed to / (a subdirectory that exists only there
    makes a wrong guess fail instead of writing into /)."""
    tmp = tempfile.mkdtemp(prefix="tablerod-rel-")
    sub = "bbproto-%d" % os.getpid()
    os.mkdir(os.path.join(tmp, sub))
    d = Daemon(build, tmp, sub + "/t.pid", sub + "/t.log")
    try:
        d.start()
        chk.eq(d.rc, 0, "relative paths: the launcher exits 0")
        chk.ok(d.pid is not None and alive(d.pid),
               "relative pidfile written where tablerod was started: %r" %
               os.listdir(os.path.join(tmp, sub)))
        port = d.port()
        chk.ok(port is not None, "relative log file written")
        if d.pid is None:
            # find and stop the daemon through its log's pid line
            m = re.search(r"starting \(pid (\d+)\)", read(d.logfile))
            if m:
                d.pid = int(m.group(1))
            return
        os.rename(d.logfile, d.logfile + ".1")
        os.kill(d.pid, signal.SIGHUP)
        if port is not None:
            cl = login(port, "rel")
            cl.close()
        chk.ok(wait_for(lambda: "rel logged in" in read(d.logfile)),
               "relative log file reopened on SIGHUP where it was")
        os.kill(d.pid, signal.SIGTERM)
        chk.ok(wait_for(lambda: not alive(d.pid)), "relative: the daemon "
               "exits")
        chk.ok(wait_for(lambda: not os.path.exists(d.pidfile)),
               "relative: the pidfile is removed")
    finally:
        d.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def test_bad_start(chk, build):
    """A daemon that cannot start says so and leaves no pidfile."""
    tmp = tempfile.mkdtemp(prefix="tablerod-bad-")
    try:
        exe = os.path.join(build, "tablerod")
        p = subprocess.run([exe, "-d", "--pidfile",
                            os.path.join(tmp, "x.pid"), "--log-file",
                            os.path.join(tmp, "nodir", "x.log"), "--port",
                            "0", "--listen", "127.0.0.1", "--db",
                            ":memory:"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=WAIT)
        chk.ok(p.returncode != 0, "a log file that cannot be opened: the "
               "launcher fails (%d)" % p.returncode)
        chk.ok(b"log" in p.stderr, "and says why: %r" % p.stderr)
        chk.ok(not os.path.exists(os.path.join(tmp, "x.pid")),
               "and writes no pidfile")
        # a failure after detaching (the data file): the launcher waits
        # for the daemon and fails too, and no pidfile is left behind
        p = subprocess.run([exe, "-d", "--pidfile",
                            os.path.join(tmp, "y.pid"), "--log-file",
                            os.path.join(tmp, "y.log"), "--port", "0",
                            "--listen", "127.0.0.1", "--db",
                            os.path.join(tmp, "nodir", "y.db")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=WAIT)
        chk.ok(p.returncode != 0, "a data file that cannot be opened: the "
               "launcher fails (%d)" % p.returncode)
        chk.ok(b"did not start" in p.stderr, "and says so: %r" % p.stderr)
        chk.ok(not os.path.exists(os.path.join(tmp, "y.pid")),
               "and no pidfile is left")
        chk.ok("y.db" in read(os.path.join(tmp, "y.log")),
               "the log names the data file: %r" %
               read(os.path.join(tmp, "y.log"))[-300:])
        p = subprocess.run([exe, "--port", "99999"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=WAIT)
        chk.eq(p.returncode, 2, "a bad flag exits 2")
        chk.ok(b"port" in p.stderr, "a bad flag is named: %r" % p.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_sigint(chk, build):
    """In the foreground, SIGINT shuts down as cleanly as SIGTERM."""
    with Server(build) as srv:
        c = login(srv.port, "fg")
        c.drain()
        t = Client(srv.port)
        t.raw("hello fgtext\r\n")
        t.line()
        t.line()
        srv.proc.send_signal(signal.SIGINT)
        ev = c.event("shutdown")
        chk.ok(ev is not None, "SIGINT: the client hears shutdown")
        chk.ok(c.json() is None, "SIGINT: then the connection closes")
        line = t.line()
        chk.ok(line is not None and
               line.startswith("The server is shutting down"),
               "SIGINT: a text client reads a sentence: %r" % line)
        chk.ok(t.line() is None, "SIGINT: the text client is closed")
        t.close()
        try:
            rc = srv.proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            rc = None
        chk.eq(rc, 0, "SIGINT: exit 0")
        chk.ok("tablerod stopped" in srv.logtext(), "SIGINT: logged")
        c.close()


def main():
    a = args()
    chk = Checks()
    run_parts(chk, [test_daemon, test_relative_paths, test_bad_start,
                    test_sigint], a.build)
    chk.done()



if __name__ == "__main__":
    main()
