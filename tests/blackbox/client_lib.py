"""client_lib.py: what the black-box tests of the tablero client share.

Each Term is one `tablero` running in its own tmux server (`tmux -L` with a
socket name unique to this process and terminal), driven with send-keys and
read with capture-pane. Every wait is bounded; stop() kills the tmux server.
Standard library only.
"""

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import time

# Every wait for the screen is bounded by this many seconds.
WAIT = 10.0

# How often the screen is read while waiting.
POLL = 0.05


def tablero(build):
    """The client binary under test."""
    return os.path.join(build, "tablero")


class Term:
    """One tablero (or any command) in a private tmux server."""

    made = 0

    def __init__(self, command, name="t", env=None, width=100, height=50):
        Term.made += 1
        self.name = name
        self.sock = "tablero-test-%d-%d-%s" % (os.getpid(), Term.made, name)
        self.home = tempfile.mkdtemp(prefix="tablero-client-")
        self.conf = os.path.join(self.home, "tmux.conf")
        with open(self.conf, "w") as f:
            f.write("set -g history-limit 50000\n")
        envs = {"XDG_CONFIG_HOME": os.path.join(self.home, "config"),
                "NO_COLOR": "1"}
        envs.update(env or {})
        pre = " ".join("%s=%s" % (k, shlex_quote(v)) for k, v in envs.items())
        # the pane stays after the client exits, so its last screen and exit
        # code can be read
        self.tmux("new-session", "-d", "-s", "main", "-x", str(width),
                  "-y", str(height),
                  "env %s %s; echo \"[exit $?]\"; sleep 600" % (pre, command))

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.sock, "-f", self.conf]
                              + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=WAIT,
                              check=False).stdout.decode("utf-8", "replace")

    def keys(self, text):
        """Type text literally (no Enter)."""
        self.tmux("send-keys", "-t", "main", "-l", "--", text)

    def line(self, text):
        """Type a line and Enter."""
        self.keys(text)
        self.tmux("send-keys", "-t", "main", "Enter")

    def screen(self):
        """Everything the pane shows and scrolled past, wrapped lines
        joined, without the blank lines below the cursor."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-50000",
                         "-t", "main").rstrip("\n") + "\n"

    def count(self, pattern):
        """How many times the regular expression matches the screen."""
        return len(re.findall(pattern, self.screen(), re.M))

    def wait(self, pattern, n=1, timeout=WAIT):
        """Wait until the regular expression matches the screen n times;
        True, or False after timeout."""
        deadline = time.time() + timeout
        while True:
            if self.count(pattern) >= n:
                return True
            if time.time() > deadline:
                return False
            time.sleep(POLL)

    def prompt(self, pattern, timeout=WAIT):
        """Wait until the last line on the screen (the prompt) matches
        the regular expression; True, or False after timeout."""
        deadline = time.time() + timeout
        while True:
            lines = self.screen().rstrip("\n").split("\n")
            if re.search(pattern, lines[-1]):
                return True
            if time.time() > deadline:
                return False
            time.sleep(POLL)

    def say(self, text, pattern, timeout=WAIT):
        """Type a line and wait until pattern matches once more than
        before; True, or False after timeout."""
        n = self.count(pattern)
        self.line(text)
        return self.wait(pattern, n + 1, timeout)

    def stop(self):
        """Kill the tmux server (and with it the client) and remove its
        socket and the client's config folder."""
        self.tmux("kill-server")
        sock = os.path.join(os.environ.get("TMUX_TMPDIR", "/tmp"),
                            "tmux-%d" % os.getuid(), self.sock)
        try:
            os.unlink(sock)
        except OSError:
            pass
        shutil.rmtree(self.home, ignore_errors=True)


def shlex_quote(s):
    """Quote for sh."""
    return "'" + s.replace("'", "'\\''") + "'"


def client(build, port, name, **kw):
    """A Term running tablero against 127.0.0.1:port as name."""
    return Term("%s 127.0.0.1:%d --name %s" % (tablero(build), port, name),
                name=name, **kw)


@contextlib.contextmanager
def clients(build, port, *names, **kw):
    """Terms running tablero as each of names (client()'s keywords for
    all); every one made is stopped on the way out, however it ends."""
    made = []
    try:
        for name in names:
            made.append(client(build, port, name, **kw))
        yield made
    finally:
        for t in made:
            t.stop()


def logged_in(chk, terms, what="both logged in"):
    """One check: each of terms (in turn, stopping at the first that
    does not) shows its "Welcome, NAME." line."""
    return chk.ok(all(t.wait(r"Welcome, %s\." % re.escape(t.name))
                      for t in terms), what)


def seated(chk, ta, tb, create, made="room made", room="r1",
           seat=r"seat black", joined=None):
    """Two checks: ta creates a game with the create line and waits for
    an opponent, then tb joins room and reads its seat."""
    chk.ok(ta.say(create, r"Waiting for an opponent"), made)
    return chk.ok(tb.say("join " + room, seat),
                  joined or "%s joined" % tb.name)


def batch(build, port, lines, name=None, env=None, timeout=WAIT):
    """Run tablero --batch with these input lines; (exit code, stdout
    lines, stderr)."""
    args = [tablero(build), "127.0.0.1:%d" % port, "--batch"]
    if name:
        args += ["--name", name]
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(args, input="".join(l + "\n" for l in lines).encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=e, timeout=timeout, check=False)
    out = p.stdout.decode("utf-8", "replace").splitlines()
    return p.returncode, out, p.stderr.decode("utf-8", "replace")


class Batch:
    """One tablero --batch fed a line at a time: each line's reply is
    read before the next is written, so a script can use the ids the
    server returns (a private room's is random). Every read is bounded by
    WAIT; close() ends the input and returns (exit code, stdout lines,
    stderr) of the whole run."""

    def __init__(self, build, port, name, env=None):
        e = dict(os.environ)
        e.update(env or {})
        self.p = subprocess.Popen(
            [tablero(build), "127.0.0.1:%d" % port, "--batch", "--name",
             name], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=e)
        self.out = []
        self.buf = b""
        self.reply()  # hello's

    def reply(self):
        """Read output lines until the next reply; it as a dict, or None
        after WAIT seconds or at the end of the output."""
        import json
        import select
        deadline = time.time() + WAIT
        fd = self.p.stdout.fileno()
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                text = line.decode("utf-8", "replace")
                self.out.append(text)
                msg = json.loads(text)
                if "re" in msg:
                    return msg
            left = deadline - time.time()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.buf += chunk

    def send(self, line):
        """Write one line; its reply (a dict, or None)."""
        self.p.stdin.write(line.encode() + b"\n")
        self.p.stdin.flush()
        return self.reply()

    def close(self):
        """End the input; (exit code, all stdout lines, stderr)."""
        self.p.stdin.close()
        self.p.stdin = None  # communicate() must not flush it again
        try:
            rest, err = self.p.communicate(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rest, err = self.p.communicate()
        self.out += (self.buf + rest).decode("utf-8", "replace").splitlines()
        return self.p.returncode, self.out, err.decode("utf-8", "replace")
