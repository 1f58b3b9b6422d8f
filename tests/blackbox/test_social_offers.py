"""test_social_offers.py: one pending offer of each kind per side (issue
30, finding 9: 50 take-back and 50 draw offers in 5 s all went through,
each stored and sent to the opponent).

ana, with a move played, sends 50 draw offers and 50 take-back offers at
once: the first of each kind is acknowledged, stored (the room's seq
moves on by one) and heard by bob; every other one is refused with
not_allowed saying one is pending, changes nothing, and bob hears
nothing more. Once bob declines, or a move cancels the offer, ana may
offer again; bob's own offer is his, not blocked by ana's. The same in
text mode, over telnet. The numbers before and after are printed."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args, is_error, is_ok, login  # noqa
from test_telnet import FAST, Telnet, found  # noqa: E402

# Offers of each kind sent at once, as in the finding.
FLOOD = 50


def seq(c, room):
    """The room's event counter: one more for every stored event."""
    return c.call("state", room=room)["state"]["seq"]


def flood(chk, ana, bob, room, verb, event):
    """FLOOD offers of verb at once: how many were acknowledged, and how
    many offered events bob heard."""
    ids = [ana.send(verb, room=room, action="offer") for _ in range(FLOOD)]
    reps = [ana.reply(i) for i in ids]
    oks = [r for r in reps if r and r.get("ok")]
    refused = [r for r in reps if r and not r.get("ok")]
    chk.ok(all(r.get("error") == "not_allowed" and
               "pending" in r.get("message", "") for r in refused),
           "%s: each refusal says one is pending: %r" % (verb, refused[:1]))
    heard = [m for m in bob.drain(0.5) if m.get("event") == event]
    return len(oks), len(heard)


def main():
    a = args()
    chk = Checks()
    with Server(a.build, extra=FAST) as srv:
        ana, bob = login(srv.port, "ana"), login(srv.port, "bob")
        room = ana.call("create", game="ataxx",
                        options={"size": 5})["state"]["room"]
        is_ok(chk, bob.call("join", room=room), "bob joins")
        is_ok(chk, ana.call("move", room=room, move="b4"), "ana moves")
        bob.drain(0.3)
        before = seq(ana, room)
        d_ok, d_heard = flood(chk, ana, bob, room, "draw", "draw_offered")
        t_ok, t_heard = flood(chk, ana, bob, room, "takeback",
                              "takeback_offered")
        stored = seq(ana, room) - before
        print("%d draw and %d take-back offers at once: %d and %d "
              "acknowledged, %d and %d heard by the opponent, %d events "
              "stored" % (FLOOD, FLOOD, d_ok, t_ok, d_heard, t_heard,
                          stored), flush=True)
        chk.eq((d_ok, d_heard), (1, 1), "one draw offer goes through")
        chk.eq((t_ok, t_heard), (1, 1), "one take-back offer goes through")
        chk.eq(stored, 2, "two offers stored, not %d" % (2 * FLOOD))
        is_error(chk, ana.call("draw", room=room, action="offer"),
                 "not_allowed", "a second draw offer",
                 ["offered a draw already", "pending"])
        is_error(chk, ana.call("takeback", room=room, action="offer"),
                 "not_allowed", "a second take-back offer",
                 ["offered a take-back already", "pending"])
        # bob's own draw offer is not ana's: his may go (and it answers
        # hers, as before, by replacing it).
        is_ok(chk, bob.call("takeback", room=room, action="decline"),
              "bob declines the take-back")
        is_ok(chk, ana.call("takeback", room=room, action="offer"),
              "declined, ana may ask again")
        is_ok(chk, bob.call("move", room=room, move="d4"),
              "bob moves instead of answering")
        is_ok(chk, ana.call("draw", room=room, action="offer"),
              "the move cancelled the draw offer: ana may offer again")
        is_ok(chk, ana.call("takeback", room=room, action="offer"),
              "and the take-back too")
        ana.drain(0.2)
        bob.drain(0.2)
        # text mode: the refusal in words
        carl, dee = Telnet(srv.port), Telnet(srv.port)
        try:
            for t, n in ((carl, "carl"), (dee, "dee")):
                t.type("hello " + n)
                t.until(r"Keep it")
            carl.type("create ataxx size=5")
            carl.until(r"joined as")
            r2 = ana.call("rooms", game="ataxx")["rooms"][0]["room"]
            dee.type("join " + r2)
            dee.until(r"joined as")
            carl.type("move b4")
            carl.until(r"b4")
            carl.type("draw offer")
            found(chk, carl.until(r"^OK \(draw\)"), r"^OK \(draw\)",
                  "text: the first offer")
            carl.type("draw offer")
            pat = r"^error \(not_allowed\): you have offered a draw " \
                  r"already.*pending"
            found(chk, carl.until(pat, timeout=2), pat,
                  "text: the second is refused, saying one is pending")
        finally:
            carl.close()
            dee.close()
        ana.close()
        bob.close()
    chk.done()


if __name__ == "__main__":
    main()
