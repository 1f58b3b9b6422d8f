"""test_state_terms.py: a room's state says the terms of its game (issue
31), so that a reloaded page or a client back in the room can show them:
`rated` (and `unrated`'s why), `tourney` (the tournament of a tournament
room) and the pending `draw_offer` and `takeback_offer` (the asking
seat), which an answer or a move clears."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import login, main_in_tmp, req, server, shut, until  # noqa


def state(c, room):
    return (req(c, "state", room=room) or {}).get("state") or {}


def terms(st):
    return tuple(st.get(k, "absent") for k in
                 ("rated", "tourney", "draw_offer", "takeback_offer"))


def offers(ck, ana, bob):
    r = req(ana, "create", game="ataxx", options={"size": "5", "rated": "no"})
    room = ((r or {}).get("state") or {}).get("room")
    ck.eq(terms(state(ana, room)), (None, None, None, None),
          "before the start: nothing decided, nothing pending")
    r = req(bob, "join", room=room)
    ck.ok(r and r.get("ok"), "bob sits: %r" % (r,))
    st = state(bob, room)
    ck.eq(st.get("rated"), False, "created with rated=no: not rated")
    ck.ok("rated=no" in (st.get("unrated") or ""), "with why: %r" % (st,))
    ck.ok(req(ana, "draw", room=room, action="offer").get("ok"),
          "ana (white) offers a draw")
    ck.eq(state(bob, room).get("draw_offer"), "white",
          "bob reading the state again sees the offer")
    ck.ok(req(bob, "draw", room=room, action="decline").get("ok"),
          "bob declines")
    ck.eq(state(bob, room).get("draw_offer"), None, "answered: none")
    ck.ok(req(ana, "move", room=room, move="b4").get("ok"), "ana b4")
    ck.ok(req(ana, "takeback", room=room, action="offer").get("ok"),
          "ana asks for a take-back")
    ck.eq(state(ana, room).get("takeback_offer"), "white",
          "the request is pending")
    ck.ok(req(bob, "move", room=room, move="d4").get("ok"),
          "bob moves instead")
    ck.eq(state(ana, room).get("takeback_offer"), None,
          "a move cancels it")
    ck.ok(req(bob, "draw", room=room, action="offer").get("ok"),
          "bob (black) offers a draw")
    ck.eq(state(ana, room).get("draw_offer"), "black", "bob's offer")
    ck.ok(req(bob, "resign", room=room).get("ok"), "bob resigns")
    ck.eq(state(ana, room).get("draw_offer"), None,
          "ended: nothing pending")


def bot_and_solo(ck, ana):
    r = req(ana, "create", game="ataxx", bot=1, options={"size": "5"})
    room = ((r or {}).get("state") or {}).get("room")
    st = state(ana, room)
    ck.eq((st.get("rated"), st.get("tourney")), (True, None),
          "against a bot level: rated, no tournament")
    ck.ok("unrated" not in st, "no why when rated: %r" % (st,))
    r = req(ana, "create", game="solitaire")
    room = ((r or {}).get("state") or {}).get("room")
    ck.eq(terms(state(ana, room)), (None, None, None, None),
          "one player: rated null, nothing pending")


def tourney(ck, port):
    ta, tb = login(port, "ta"), login(port, "tb")
    r = req(ta, "tourney", do="create", game="stones",
            options={"grace": "600"})
    tid = ((r or {}).get("tourney") or {}).get("id")
    for c in (ta, tb):
        req(c, "tourney", do="join", tourney=tid)
    req(ta, "tourney", do="start", tourney=tid)
    ev = until(ta, lambda e: e.get("event") == "tourney_round")
    room = (ev or {}).get("room")
    ck.eq(state(tb, room).get("tourney"), tid,
          "a tournament room names its tournament")
    for c in (ta, tb):
        req(c, "join", room=room)
    st = state(ta, room)
    ck.eq((st.get("tourney"), st.get("status")), (tid, "playing"),
          "also once under way")
    ta.close()
    tb.close()


def run(ck, a, tmp):
    s = server(a.build)
    ana, bob = login(s.port, "ana"), login(s.port, "bob")
    offers(ck, ana, bob)
    bot_and_solo(ck, ana)
    tourney(ck, s.port)
    ana.close()
    bob.close()
    shut(s)


if __name__ == "__main__":
    main_in_tmp("tablero-terms-", run)
