"""test_games_duo.py: the run of a two-player game with a spectator (Duo),
which test_games_ataxx, _amazons, _stones, _clock and the transcript
import; on its own it checks the `games` listing those tests rely on (the
five kinds, their seats and options) and plays one short Stones game.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (Checks, check_acked, check_history,  # noqa: E402
                       check_moved_chain, compare_views, done, ended, harness,
                       login, play_out, req, serving, settle, until)


# The ends the server makes, not a move.
SERVER_REASONS = ("resignation", "draw by agreement", "timeout",
                  "abandonment")


class Duo:
    """Two players and a spectator around one room."""

    def __init__(self, ck, port, tag, game, options=None, bots=None,
                 clock=None):
        self.ck = ck
        self.tag = tag
        self.a = login(port, tag + "a")
        self.b = login(port, tag + "b") if bots is None else None
        self.w = login(port, tag + "w")
        fields = {"game": game}
        if options is not None:
            fields["options"] = options
        if bots is not None:
            fields["bots"] = bots
        if clock is not None:
            fields["clock"] = clock
        r = req(self.a, "create", **fields)
        ck.ok(r and r.get("ok"), "%s: create %s %r: %r" % (tag, game,
                                                            options, r))
        self.room = r["room"]
        self.created = r
        self.seats = {r["seat"]: self.a}
        self.names = {r["seat"]: self.a.name}
        wr = req(self.w, "watch", room=self.room)
        ck.ok(wr and wr.get("ok"), "%s: watch: %r" % (tag, wr))
        # The watcher's view starts with its own joined event.
        self.from_seq = wr["state"]["seq"] + 1
        if self.b is not None:
            jr = req(self.b, "join", room=self.room)
            ck.ok(jr and jr.get("ok"), "%s: join: %r" % (tag, jr))
            self.seats[jr["seat"]] = self.b
            self.names[jr["seat"]] = self.b.name
        self.clients = [c for c in (self.w, self.a, self.b) if c is not None]
        self.acked = []

    def late_watcher(self, port):
        """A second spectator joining mid-game: from its own joined event
        on it must see what the others see (checked in finish)."""
        w2 = login(port, self.tag + "v")
        r = req(w2, "watch", room=self.room)
        self.ck.ok(r and r.get("ok"), "%s: a late watch: %r" % (self.tag, r))
        st = (r or {}).get("state", {})
        self.ck.eq(st.get("history"), req(self.w, "state", room=self.room)
                   ["state"]["history"], "%s: the late spectator gets the "
                   "whole history" % self.tag)
        self.late = (w2, st.get("seq", 0) + 1)
        self.clients.append(w2)

    def play(self, pick, max_moves, to_end=True):
        self.acked += play_out(self.ck, self.tag, self.room, self.seats,
                               pick, max_moves, observer=self.w,
                               to_end=to_end)

    def move(self, seat, move):
        """One move by seat; its reply."""
        r = req(self.seats[seat], "move", room=self.room, move=move)
        if r and r.get("ok"):
            self.acked.append((r["seq"], r["move"], seat))
        return r

    def finish(self):
        """Wait for the end everywhere, then check the views agree, the
        history, the chain of moved events and the result. The ended
        event, the final state and the moved events."""
        ck, tag = self.ck, self.tag
        for c in self.clients:
            ck.ok(until(c, ended(self.room)) is not None,
                  "%s: %s got the ended event" % (tag, c.name))
            settle(c)
        late = getattr(self, "late", None)
        early = [c for c in self.clients if late is None or c is not late[0]]
        view = compare_views(ck, tag, self.room, early, self.from_seq)
        if late is not None:
            compare_views(ck, tag + " late", self.room,
                          [late[0]] + early, late[1])
        if self.created.get("state", {}).get("clocks") is None:
            ck.ok(all(e.get("clocks") is None for e in view
                      if e["event"] in ("moved", "started")),
                  "%s: no clocks without a time control" % tag)
        moved = [e for e in view if e["event"] == "moved"]
        ends = [e for e in view if e["event"] == "ended"]
        ck.eq(len(ends), 1, "%s: exactly one ended event" % tag)
        ck.ok(view and view[-1]["event"] == "ended",
              "%s: ended is the last event" % tag)
        st = req(self.w, "state", room=self.room)["state"]
        ck.eq(st["status"], "ended", "%s: state status ended" % tag)
        ck.eq(st["turn"], None, "%s: no turn after the end" % tag)
        end = ends[-1] if ends else {}
        res = {k: end.get(k) for k in ("result", "winner", "winner_name",
                                       "reason", "scores")}
        # a two-player result also says whether it was rated (issue 22)
        res.update({k: end[k] for k in ("rated", "unrated", "pool",
                                        "ratings") if k in end})
        ck.eq(st["result"], res, "%s: state result = the ended event" % tag)
        if end.get("winner") is not None:
            ck.eq(end.get("winner_name"), self.names.get(end["winner"]),
                  "%s: winner_name is the winner's player" % tag)
        check_history(ck, tag, st, moved)
        check_moved_chain(ck, tag, moved, self.names,
                          end.get("reason") not in SERVER_REASONS)
        check_acked(ck, tag, self.acked, moved, self.names)
        if moved:
            ck.eq(moved[-1]["position"], st["position"],
                  "%s: the last moved position is the state's" % tag)
            ck.eq(moved[-1]["board"], st["board"],
                  "%s: the last moved board is the state's" % tag)
        # After the end, moves are game_over for both players.
        for seat, c in self.seats.items():
            r = req(c, "move", room=self.room, move="a1")
            ck.eq((r or {}).get("error"), "game_over",
                  "%s: a move by %s after the end" % (tag, seat))
        r = req(self.w, "move", room=self.room, move="a1")
        ck.eq((r or {}).get("error"), "not_a_player",
              "%s: a move by the spectator" % tag)
        return end, st, moved

    def close(self):
        for c in self.clients:
            c.close()


def games_listing(ck, port):
    """The games the other tests play, with their seats and options."""
    c = login(port, "lister")
    r = req(c, "games")
    games = {g["name"]: g for g in (r or {}).get("games", [])}
    ck.eq(sorted(games), ["amazons", "ataxx", "shifter", "solitaire",
                          "stones"], "games lists the five kinds")
    want = {"amazons": ["white", "black"], "ataxx": ["white", "black"],
            "stones": ["player 1", "player 2"], "solitaire": ["player"],
            "shifter": ["player"]}
    for name, seats in want.items():
        g = games.get(name, {})
        ck.eq(g.get("seat_names"), seats, "%s seat names" % name)
        ck.eq(g.get("seats"), len(seats), "%s seat count" % name)

    def opts(game):
        return {o["name"]: o for o in games.get(game, {}).get("options", [])}
    size = opts("ataxx").get("size", {})
    ck.eq((size.get("min"), size.get("max")), (5, 9), "ataxx size 5..9")
    ck.ok("level" in opts("shifter"), "shifter has a level option")
    ck.ok("steps" in opts("solitaire") and "board" in opts("solitaire"),
          "solitaire has steps and board options")
    ck.eq(games.get("stones", {}).get("file_format", "?"), None,
          "stones has no file format")
    ck.eq(games.get("amazons", {}).get("file_format"), "tablero.txt",
          "amazons reads and writes tablero.txt")
    c.close()


def main():
    a = harness.args()
    ck = Checks()
    with serving(a.build) as s:
        games_listing(ck, s.port)
        d = Duo(ck, s.port, "smoke", "stones", {"first": "1"})
        for seat, m in (("player 1", "A1"), ("player 1", "A2"),
                        ("player 1", "B3"), ("player 2", "C1"),
                        ("player 2", "C2"), ("player 2", "B1"),
                        ("player 1", "B3A3")):
            r = d.move(seat, m)
            ck.ok(r and r.get("ok"), "smoke: %s %s: %r" % (seat, m, r))
        end, st, moved = d.finish()
        ck.eq((end.get("winner"), end.get("reason")),
              ("player 1", "three in a row"), "smoke: player 1 wins")
        d.close()
    done(ck)


if __name__ == "__main__":
    main()
