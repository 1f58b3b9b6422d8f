"""test_client_tourney.py: the terminal client and a tournament game
waiting for its player (issue 31). bob joins a tournament in tablero and
quits; the round is paired while he is away. When he comes back, the
client says the game is waiting (with the seconds left) and `mine` lists
it with the way there, before he sits down, as the server's `mine` does
over telnet; `tourney show` has the
crosstable and names the tie-breaks."""

import glob
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402
from games_lib import login, req, until  # noqa: E402


def main():
    a = harness.args()
    chk = harness.Checks()
    conf = tempfile.mkdtemp(prefix="tablero-bobconf-")
    env = {"XDG_CONFIG_HOME": conf}
    with harness.Server(a.build) as srv:
        org = login(srv.port, "org")
        r = req(org, "tourney", do="create", game="stones",
                options={"grace": "600"})
        tid = ((r or {}).get("tourney") or {}).get("id")
        req(org, "tourney", do="join", tourney=tid)
        tb = client_lib.client(a.build, srv.port, "bob", env=env)
        try:
            chk.ok(tb.wait(r"Welcome, bob\."), "bob logged in")
            chk.ok(tb.say("tourney join %s" % tid, r"Players: org bob"),
                   "bob joined in the client")
        finally:
            tb.stop()
        r = req(org, "tourney", do="start", tourney=tid)
        chk.ok(r and r.get("ok"), "started while bob is away")
        ev = until(org, lambda e: e.get("event") == "tourney_round")
        room = (ev or {}).get("room") or "r?"
        tb = client_lib.client(a.build, srv.port, "bob", env=env)
        try:
            chk.ok(tb.wait(r"Welcome back, bob\.|Connected"), "bob is back")
            chk.ok(tb.wait(r"Tournament %s, round 1 of 1: your game is "
                           r"waiting for you: you play .+ against org: type "
                           r"join %s within \d+ s or lose the game\."
                           % (tid, room)),
                   "the client says the game waits:\n" + tb.screen())
            pat = (r"^  %s  Stones, .+ against org: tournament %s "
                   r"\(join %s\)$" % (room, tid, room))
            chk.ok(tb.say("mine", pat), "mine lists it:\n" + tb.screen())
            said = re.findall(pat, tb.screen(), re.M)
            toks = glob.glob(os.path.join(conf, "tablero", "*bob*.token"))
            token = open(toks[0]).read().strip() if toks else ""
            chk.ok(tb.say("tourney show %s" % tid, r"^  #  name +R1 points$"),
                   "tourney show has the crosstable:\n" + tb.screen())
            chk.ok(tb.wait(r"^Tie-breaks, in order: Sonneborn-Berger, wins, "
                           r"seed\.$"), "and names the tie-breaks")
        finally:
            tb.stop()
        # The server's mine, over telnet, says the same game the same way
        # (the game's wire name where the client has its title).
        t = harness.Client(srv.port)
        t.raw(("hello bob %s\r\nmine\r\n" % token).encode())
        line = None
        for _ in range(40):
            got = t.line()
            if got is None or re.match(r"^  r\d+  ", got):
                line = got
                break
        chk.eq(line, said[-1].replace("Stones", "stones") if said else "",
               "telnet's mine agrees with the client's")
        t.close()
        org.close()
    shutil.rmtree(conf, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
