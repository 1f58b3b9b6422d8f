"""test_client_tls_hint.py: tablero pointed at a server's TLS port without
--tls says so at once (issue 31). Before, it waited for a welcome that a
TLS port never sends, until the server's 15 s handshake deadline closed
the connection: "connection lost", no hint.

The client probes a connection that stays silent (empty lines, which the
line protocol ignores, and which a TLS server cannot read as a record
and closes on): in a terminal (tmux) and in --batch, it says within a
few seconds that the server speaks TLS and to add --tls, and exits 2
(could not reach the server). The server's line port and its web port
(whose welcome comes after 300 ms of silence) still log in as before."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

# The hint must come well before the server's 15 s handshake deadline;
# the client probes after 0.6 s, so this leaves room for a loaded machine.
HINT_WAIT = 5.0

HINT = r"The server at 127\.0\.0\.1:%d speaks TLS \(it is a --tls-port\): " \
    r"add --tls \(tablero --tls 127\.0\.0\.1:%d\)\."


def make_cert(d):
    """A self-signed certificate and its key in d."""
    key, crt = os.path.join(d, "s.key"), os.path.join(d, "s.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048",
                    "-nodes", "-keyout", key, "-out", crt, "-days", "2",
                    "-subj", "/CN=localhost"],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return crt, key


def port_of(srv, pattern):
    """A listener's port from the server's log (a bounded wait), or
    None."""
    deadline = time.time() + harness.WAIT
    while time.time() < deadline:
        m = re.search(pattern, srv.logtext())
        if m:
            return int(m.group(1))
        time.sleep(0.02)
    return None


def main():
    a = harness.args()
    chk = harness.Checks()
    if not chk.ok(shutil.which("openssl"), "openssl (the command) makes "
                  "the TLS certificate"):
        chk.done()
    tmp = tempfile.mkdtemp(prefix="tablero-tlshint-")
    try:
        crt, key = make_cert(tmp)
        with harness.Server(a.build, extra=[
                "--tls-port", "0", "--web-port", "0", "--tls-cert", crt,
                "--tls-key", key]) as srv:
            tls = port_of(srv, r"web and websocket over tls on "
                          r"127\.0\.0\.1:(\d+)")
            web = port_of(srv, r"web and websocket on 127\.0\.0\.1:(\d+)")
            if not chk.ok(tls and web, "the TLS and web ports are logged"):
                chk.done()
            hint = HINT % (tls, tls)
            # a person at a terminal
            t = client_lib.client(a.build, tls, "ana")
            try:
                start = time.time()
                chk.ok(t.wait(r"^" + hint + "$", timeout=HINT_WAIT),
                       "the terminal says the port speaks TLS within %g s:"
                       "\n%s" % (HINT_WAIT, t.screen()))
                chk.ok(time.time() - start < HINT_WAIT, "in %.1f s" %
                       (time.time() - start))
                chk.ok(t.wait(r"^\[exit 2\]$"), "and exits 2")
                chk.eq(t.count(r"lost|reconnecting"), 0,
                       "no 'connection lost'")
            finally:
                t.stop()
            # a script
            start = time.time()
            try:
                rc, out, err = client_lib.batch(
                    a.build, tls, ["ping"], name="bob", timeout=HINT_WAIT)
            except subprocess.TimeoutExpired:
                rc, out, err = None, None, "(still running after %g s)" \
                    % HINT_WAIT
            chk.eq(rc, 2, "--batch exits 2")
            chk.ok(re.search(hint, err), "--batch says why on stderr: %r"
                   % err)
            chk.eq(out, [], "and nothing on stdout")
            chk.ok(time.time() - start < HINT_WAIT, "in %.1f s" %
                   (time.time() - start))
            # the plain ports greet and log in as before
            for port, what in ((srv.port, "the line port"),
                               (web, "the web port")):
                rc, out, err = client_lib.batch(
                    a.build, port, ["ping"], name="cat%d" % port)
                chk.ok(any('"re":"hello","ok":true' in l for l in out) and
                       any('"re":"ping","ok":true' in l for l in out),
                       "%s logs in and answers: %r %r" % (what, out, err))
                chk.eq(err.count("TLS"), 0, "%s is not taken for TLS"
                       % what)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
