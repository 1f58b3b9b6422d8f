#!/usr/bin/env python3
"""test_newcomer_solo.py: one-player games as a newcomer meets them (issue
13): resuming Shape Shifter gives back the very level being played."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args, is_ok, login


def test_shifter_resume(chk, port):
    """A level left unsolved comes back as the same layout."""
    c = login(port, "sr_a")
    r = c.call("create", game="shifter", options={"level": "3"})
    if not is_ok(chk, r, "create shifter level 3"):
        return
    room, first = r["room"], r["state"]["position"]
    is_ok(chk, c.call("leave", room=room), "leave it (gives up)")
    for i in range(2):
        r = c.call("create", game="shifter")
        if not is_ok(chk, r, "create shifter again"):
            return
        chk.eq(r.get("resumed_level"), 3, "resumed at level 3")
        chk.eq(r["state"]["position"], first,
               "the very same level (%d)" % i)
        c.call("leave", room=r["room"])
    c.close()


def main():
    a = args()
    chk = Checks()
    with Server(a.build) as s:
        test_shifter_resume(chk, s.port)
    chk.done()


if __name__ == "__main__":
    main()
