"""test_stones_transcript.py: the seed's Stones game, played over the wire.

The transcript of seeds/002 (docs/RULES.md (Stones)): player 1 places A2 C1
B3; player 2 tries C1 (taken) and 0 (no point), places B2 and C3, tries A1
(three in a row while placing), places A3; player 1 tries C1A1, B1A1, C1B2
and SDKJGJSDF, slides C1C2; player 2 slides B2B1; player 1 tries C3C2 and
wins with B3B2. Every refusal is illegal_move with the game's reason; a
spectator sees the same events; the end is player 1 by three in a row.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_games_duo import Duo  # noqa: E402
from games_lib import (Checks, done, harness, req, server, shut)  # noqa: E402

P1, P2 = "player 1", "player 2"

# (seat, input, None for accepted or the refusal reason)
TRANSCRIPT = [
    (P1, "A2", None),
    (P1, "C1", None),
    (P1, "B3", None),
    (P2, "C1", "Position taken by another peg"),
    (P2, "0", "Not a board position"),
    (P2, "B2", None),
    (P2, "C3", None),
    (P2, "A1", "Cannot complete 3-in-a-row at this stage"),
    (P2, "A3", None),
    (P1, "C1A1", "Destination position is not connected to origin position"),
    (P1, "B1A1", "Origin is not occupied by player's 1 peg"),
    (P1, "C1B2", "Destination position is not empty"),
    (P1, "SDKJGJSDF",
     "Enter origin and destination positions in 4 characters, e.g., A2B1"),
    (P1, "C1C2", None),
    (P2, "B2B1", None),
    (P1, "C3C2", "Origin is not occupied by player's 1 peg"),
    (P1, "B3B2", None),
]

SENTENCES = [
    "player 1 places a peg on A2", "player 1 places a peg on C1",
    "player 1 places a peg on B3", "player 2 places a peg on B2",
    "player 2 places a peg on C3", "player 2 places a peg on A3",
    "player 1 slides C1 to C2", "player 2 slides B2 to B1",
    "player 1 slides B3 to B2",
]

# The seed's last picture, as docs/RULES.md (Stones) gives it.
LAST_PICTURE = [
    "  1   2   3",
    "A  ---x---o",
    "  |\\  |  /|",
    "  | \\ | / |",
    "  |  \\|/  |",
    "B o---x--- ",
    "  |  /|\\  |",
    "  | / | \\ |",
    "  |/  |  \\|",
    "C  ---x---o",
    "x = player 1, o = player 2; player 1 wins: three in a row",
]


def main():
    a = harness.args()
    ck = Checks()
    s = server(a.build)
    try:
        d = Duo(ck, s.port, "seed", "stones", {"first": "1"})
        ck.eq(d.created.get("seat"), P1, "the creator is player 1")
        ck.eq(d.names.get(P2), d.b.name, "the joiner is player 2")
        st = req(d.w, "state", room=d.room)["state"]
        ck.eq((st["status"], st["turn"], st["position"]),
              ("playing", P1, ".../.../... x x"),
              "the game starts empty, player 1 to place")
        for seat, text, reason in TRANSCRIPT:
            r = d.move(seat, text)
            if reason is None:
                ck.ok(r and r.get("ok"), "%s %s accepted: %r" %
                      (seat, text, r))
                if r and r.get("ok"):
                    ck.eq(r.get("move"), text, "%s: the move as "
                          "normalised" % text)
            else:
                ck.eq(((r or {}).get("ok"), (r or {}).get("error"),
                       (r or {}).get("message")),
                      (False, "illegal_move", reason),
                      "%s %s refused with the seed's reason" % (seat, text))
            if text == "A3":
                st = req(d.w, "state", room=d.room)["state"]
                ck.eq(st["position"], ".xo/.ox/x.o x x",
                      "after the placements: the seed's position")
                ck.eq(st["turn"], P1, "player 1 slides first")
        end, st, moved = d.finish()
        ck.eq((end.get("result"), end.get("winner"),
               end.get("winner_name"), end.get("reason"),
               end.get("scores")),
              ("win", P1, d.a.name, "three in a row", None),
              "the end: player 1 wins by three in a row")
        ck.eq([e["move"] for e in moved],
              [t for _, t, why in TRANSCRIPT if why is None],
              "the moved events are the accepted inputs")
        ck.eq([e["text"] for e in moved], SENTENCES, "the move sentences")
        ck.eq(st["position"], ".xo/ox./.xo o x", "the seed's last position")
        ck.eq(st["board"], [".xo", "ox.", ".xo"], "the last board rows")
        ck.eq(st.get("picture", "").rstrip("\n").split("\n"), LAST_PICTURE,
              "the seed's last picture")
        # Refused inputs left no trace: nine moves, numbered 1..9.
        ck.eq(len(st["history"]), 9, "nine moves in the history")
        d.close()
    finally:
        shut(s)
    done(ck)


if __name__ == "__main__":
    main()
