"""test_client_offers.py: the terminal client shows an offer still
pending when it reads a room's state again (issue 31): bob (tablero)
plays ana (JSON); ana offers a draw; bob's `state` says it with what to
type; answered, it is no longer said."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402
from games_lib import login, req  # noqa: E402

OFFER = r"^ana offers a draw: type draw accept or draw decline\.$"


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        ana = login(srv.port, "ana")
        r = req(ana, "create", game="ataxx",
                options={"size": "5", "rated": "no"})
        room = ((r or {}).get("state") or {}).get("room") or "r?"
        with client_lib.clients(a.build, srv.port, "bob") as (tb,):
            client_lib.logged_in(chk, (tb,))
            chk.ok(tb.say("join %s" % room, r"seat black"),
                   "bob sits:\n" + tb.screen())
            r = req(ana, "draw", room=room, action="offer")
            chk.ok(r and r.get("ok"), "ana offers a draw: %r" % (r,))
            chk.ok(tb.wait(r"ana \(white\) offers a draw"), "bob hears the offer")
            chk.eq(tb.count(OFFER), 0, "the event's own words first")
            chk.ok(tb.say("state", OFFER),
                   "state says the offer waits:\n" + tb.screen())
            chk.ok(tb.say("draw decline", r"declines the draw"),
                   "bob declines:\n" + tb.screen())
            n = tb.count(OFFER)
            chk.ok(tb.say("state", r"^Moves \(0\)|white to move"),
                   "state again:\n" + tb.screen())
            chk.eq(tb.count(OFFER), n, "answered: no longer said")
        ana.close()
    chk.done()


if __name__ == "__main__":
    main()
