"""test_cluster_text.py: a telnet (text mode) player on a node without the
club, across the cluster (issues 19 and 22).

Two nodes. A text-mode player logs in on the node that does not hold the
club. A tell from the other node reaches it in words, not JSON (the owner
delivers it through a stand-in that knows no mode yet: the home node
renders it). A JSON player on the club's node seeks Stones; the telnet
player seeks the same and is paired in words; then, with no room named,
`moves` and bare moves act on the paired room, which another node holds
(the stand-in's current room comes back with its output), and the game is
played to its end.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import HERE, Cluster  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "..", "blackbox"))
from games_lib import ended, login, req, until  # noqa: E402
from test_cluster_club import club_node  # noqa: E402
from test_telnet import Telnet  # noqa: E402

# Moves at most (a Stones game between first-move players ends sooner,
# or is drawn by its move limit).
MAX_MOVES = 400


def run(ck, a):
    with Cluster(a.build, 2) as cl:
        text_player(ck, cl)


def text_player(ck, cl):
    club = club_node(cl)
    ck.ok(club is not None, "a node holds the club")
    if club is None:
        return
    other = 1 - club
    tel = Telnet(cl.port(other))
    tel.type("hello tina")
    ck.ok(tel.until(r"Keep it|[Ww]elcome"), "tina logs in in text mode")
    tel.quiet()
    joe = login(cl.port(club), "tjoe")
    # The other node knows tina is here once her node's lobby snapshot
    # comes (a tick or two).
    r = cluster_lib.retry(lambda: (lambda x: x if x and x.get("ok") else
                                   None)(req(joe, "tell", name="tina",
                                             text="ready?")))
    ck.ok(r and r.get("ok"), "a tell from the club's node: %r" % (r,))
    lines = tel.until(r"ready\?")
    ck.ok(lines and re.search(r"\[tjoe to you\] ready\?", lines[-1]) and
          not lines[-1].lstrip().startswith("{"),
          "tina reads the tell in words: %r" % lines[-1:])

    r = req(joe, "seek", game="stones")
    ck.ok(r and r.get("ok"), "tjoe seeks Stones")
    tel.type("seek stones")
    lines = tel.until(r"Paired with")
    ck.ok(lines and "Paired with tjoe" in lines[-1],
          "tina is paired in words: %r" % lines[-1:])
    m = re.search(r"room (\w+)", lines[-1] if lines else "")
    room = m.group(1) if m else None
    ck.ok(room is not None, "the pairing names the room")
    if room is None:
        return
    st = req(joe, "state", room=room)["state"]
    seat = next(s["seat"] for s in st["seats"] if s["name"] == "tina")
    tel.quiet()
    played = 0
    while played < MAX_MOVES:
        st = req(joe, "state", room=room)["state"]
        if st.get("status") != "playing":
            break
        if st.get("turn") == seat:
            tel.type("moves")
            got = tel.until(r"^Moves: ")
            ck.ok(got and got[-1].startswith("Moves: "),
                  "moves without a room names the paired room's moves")
            if not got or not got[-1].startswith("Moves: "):
                return
            move = got[-1][len("Moves: "):].split(",")[0].strip()
            # Only a moved event that comes now: Stones' slides repeat,
            # and an earlier one of the same move let the loop go on
            # before the server had played this one (not_your_turn next).
            seen = {id(e) for e in joe.log}
            tel.type(move)
            if until(joe, lambda e: id(e) not in seen and
                     e.get("event") == "moved" and
                     e.get("room") == room and
                     e.get("move") == move) is None:
                ck.ok(False, "tina's bare move %s is played: %r" %
                      (move, tel.quiet()))
                return
        else:
            moves = req(joe, "moves", room=room)["moves"]
            r = req(joe, "move", room=room, move=moves[0])
            if not r or not r.get("ok"):
                break
        played += 1
    ck.ok(until(joe, ended(room)) is not None,
          "the game is played to its end, tina's moves bare, with no room "
          "named (%d moves)" % played)
    tel.close()
    joe.close()


if __name__ == "__main__":
    cluster_lib.main(run)
