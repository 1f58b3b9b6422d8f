"""test_cluster_moderate.py: an operator on one node acts on players
connected to another (issue 30, "Stopping a nuisance", on a cluster).

Two nodes with --admin root; root logs in on node 1, the players on
node 2. announce reaches node 2's players. mute troll stops troll's tell
on node 2 at once (before, node 2 knew of the mute only at troll's next
login there); unmute lets it through again. kick victim, who sits in a
room of node 1 (so node 1 holds a stand-in of theirs), closes victim's
own connection on node 2 with a kicked line (before: "kick them there").
ban troll closes troll's connection on node 2 (before: only the next
login was refused). ban 127.0.0.2 closes node 2's connection from there
and refuses a new one at once (before: at node 2's next start); unban
lets one in again.
"""

import os
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import WAIT, Cluster, retry  # noqa: E402
from games_lib import login, req, until  # noqa: E402
from harness import Client  # noqa: E402
from test_moderate import closed_with  # noqa: E402

# The loopback address standing for another host (test_moderate.py's).
OTHER = "127.0.0.2"


class From(Client):
    """A client whose connection comes from another loopback address."""

    def __init__(self, port, src):
        self.sock = socket.create_connection(("127.0.0.1", port), WAIT,
                                             source_address=(src, 0))
        self.sock.settimeout(WAIT)
        self.buf = b""
        self.pending = []
        self.next_id = 1
        self.welcome = self.json()


def run(ck, a):
    with Cluster(a.build, 2, extra=["--admin", "root"]) as cl:
        moderate(ck, cl)


def online_elsewhere(root, name):
    """Does node 1 list name among the players (its lobby cache of node
    2, a tick or two old)?"""
    r = req(root, "who")
    return any(p.get("name") == name for p in (r or {}).get("players", []))


def told(sender, to, text):
    """sender's tell to `to`: the reply ({} when none came)."""
    return req(sender, "tell", name=to, text=text) or {}


def welcome_from(port, src):
    """The first line a new connection from src gets ({}: none, or the
    connection closed), the connection closed again."""
    try:
        c = From(port, src)
    except (OSError, ValueError):
        return {}
    w = c.welcome or {}
    c.close()
    return w


def moderate(ck, cl):
    root = login(cl.port(0), "root")
    troll = login(cl.port(1), "troll")
    victim = login(cl.port(1), "victim")
    ck.ok(retry(lambda: online_elsewhere(root, "troll") and
                online_elsewhere(root, "victim"), timeout=WAIT),
          "node 1 sees troll and victim online on node 2")

    # announce reaches node 2's players
    r = req(root, "announce", text="maintenance at noon")
    ck.ok(r and r.get("ok") and r.get("reached", 0) >= 3,
          "announce from node 1 is answered, reaching node 2's players "
          "too: %r" % r)
    for c in (troll, victim):
        e = until(
            c, lambda e: e.get("event") == "announcement", timeout=WAIT)
        ck.ok(e is not None and e.get("text") == "maintenance at noon",
              "%s on node 2 hears the announcement: %r" % (c.name, e))

    # mute: troll's tell on node 2 is refused at once
    ck.ok(told(troll, "victim", "before").get("ok"), "troll may tell "
          "before the mute")
    r = req(root, "mute", name="troll", minutes=10)
    ck.ok(r and r.get("ok"), "root mutes troll: %r" % r)
    got = retry(lambda: told(troll, "victim", "spam").get("error") ==
                "muted", timeout=3)
    ck.ok(got, "troll's tell on node 2 is refused with muted without "
          "logging in again")
    r = req(root, "unmute", name="troll")
    ck.ok(r and r.get("ok"), "root unmutes troll: %r" % r)
    got = retry(lambda: told(troll, "victim", "sorry").get("ok"),
                timeout=3)
    ck.ok(got, "troll may tell again on node 2 after unmute")

    # kick victim, who has a stand-in on node 1 (a room of node 1)
    room = req(root, "create", game="ataxx", options={"size": 5})
    j = req(victim, "join", room=room["room"])
    ck.ok(j and j.get("ok"), "victim (node 2) joins root's room on node "
          "1: %r" % j)
    r = req(root, "kick", name="victim")
    ck.ok(r and r.get("ok") and r.get("name") == "victim",
          "root on node 1 kicks victim on node 2: %r" % r)
    ck.ok(closed_with(victim, "kicked") is not None, "victim's own "
          "connection on node 2 gets kicked and is closed")
    back = login(cl.port(1), "victim", victim.token)
    ck.ok((back.hello or {}).get("ok"), "victim may log in again: %r" %
          back.hello)
    back.close()

    # ban troll: closed on node 2 now
    r = req(root, "ban", name="troll")
    ck.ok(r and r.get("ok") and r.get("closed") == 1,
          "root bans troll, connected to node 2: %r" % r)
    ck.ok(closed_with(troll, "banned") is not None, "troll's connection "
          "on node 2 gets banned and is closed")
    again = login(cl.port(1), "troll", troll.token)
    ck.eq((again.hello or {}).get("error"), "banned", "troll's login on "
          "node 2 is refused")
    req(root, "unban", name="troll")

    # ban an address: node 2's connection from there closes, a new one
    # is refused at once
    far = From(cl.port(1), OTHER)
    r = far.call("hello", name="faraway")
    ck.ok(r and r.get("ok"), "a player on node 2 from %s: %r" % (OTHER, r))
    r = req(root, "ban", address=OTHER)
    ck.ok(r and r.get("ok"), "root bans %s: %r" % (OTHER, r))
    ck.ok(closed_with(far, "banned") is not None, "node 2's connection "
          "from %s gets banned and is closed" % OTHER)
    refused = retry(lambda: welcome_from(cl.port(1), OTHER).get(
        "error") == "banned", timeout=3)
    ck.ok(refused, "a new connection from %s to node 2 is refused" % OTHER)
    r = req(root, "unban", address=OTHER)
    ck.ok(r and r.get("ok"), "root lifts the address ban: %r" % r)
    ok = retry(lambda: "error" not in welcome_from(cl.port(1), OTHER) and
               welcome_from(cl.port(1), OTHER) != {}, timeout=3)
    ck.ok(ok, "a connection from %s to node 2 is welcome again" % OTHER)
    for c in (root, troll, victim):
        c.close()


if __name__ == "__main__":
    cluster_lib.main(run)
