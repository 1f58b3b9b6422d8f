"""test_client_idle.py: a tablero client left silent in the lobby is closed
by the server (--idle-lobby); it says why, does not reconnect by itself
(that would defeat the limit: a forgotten client would hold a connection
for ever), and connects again as soon as its user types a command."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

# Seconds of silence before the server closes a lobby connection here.
IDLE_SEC = 2
# Seconds watched for a reconnect that must not come: several of the
# client's first reconnect waits (0.5 s, doubling).
QUIET_SEC = 4


def main():
    a = harness.args()
    chk = harness.Checks()
    srv = harness.Server(a.build, extra=["--idle-lobby", str(IDLE_SEC)])
    srv.start()
    ta = client_lib.client(a.build, srv.port, "ana")
    try:
        chk.ok(ta.wait(r"Welcome, ana\."), "logged in")
        chk.ok(ta.wait(r"^Idle for %d seconds in no game; closing\.$" %
                       IDLE_SEC, timeout=IDLE_SEC + 10),
               "the server's reason is shown")
        chk.ok(ta.wait(r"type any command to connect again\.$"),
               "the client says how to come back")
        time.sleep(QUIET_SEC)
        chk.eq(ta.count(r"^Connected again as ana\.$"), 0,
               "no reconnect by itself")
        chk.ok(ta.say("games", r"^Connecting again to 127\.0\.0\.1:%d"
                      % srv.port), "a command wakes it")
        chk.ok(ta.wait(r"^Connected again as ana\.$"), "logged in again")
        chk.ok(ta.say("games", r"[Aa]taxx"), "and the command works")
        if os.environ.get("TABLERO_SHOW_SCREENS"):
            print(ta.screen())
    finally:
        ta.stop()
        srv.stop()
    chk.done()


if __name__ == "__main__":
    main()
