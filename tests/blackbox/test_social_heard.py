"""test_social_heard.py: a per-recipient rate on tell and invite (issue
30, finding 8: 107 tells and 107 invites a second reached one victim
from ten names).

Ten names each send 20 tells and invites a second (their own message
rate) to one victim, for two seconds: 200 a second at the victim, as in
the finding; the victim hears at most 2 a
second (bursts of 10) of both together, and every sender over it is
refused with rate_limited, naming the victim and when to try again. A
bystander's tells to someone else go through meanwhile, and once the
flood stops the victim hears a tell again. The numbers are printed."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args, is_ok, login  # noqa: E402

SENDERS = 10
# Seconds the flood lasts.
FLOOD_S = 2.0
# Requests each sender has on the wire at once: within the connection's
# default burst (40), so that the server's own message rate refuses none.
WAVE = 20
# SERVER_HEARD_PER_SEC and SERVER_HEARD_BURST.
RATE, BURST = 2, 10


def main():
    a = args()
    chk = Checks()
    # The address's message rate (200 a second) would cut ten senders on
    # one loopback address first: raised so that only the new limit
    # counts, as ten addresses would see it.
    with Server(a.build, extra=["--addr-rate", "100000",
                                "--addr-burst", "100000"]) as srv:
        vic = login(srv.port, "victim")
        bys, friend = login(srv.port, "bystander"), login(srv.port, "friend")
        senders = [login(srv.port, "s%d" % i) for i in range(SENDERS)]
        rooms = [s.call("create", game="amazons",
                        private=True)["state"]["room"] for s in senders]
        t0 = time.time()
        ok = refused = 0
        why = set()
        friend_ok = 0
        while time.time() - t0 < FLOOD_S:
            ids = []
            for s, room in zip(senders, rooms):
                ids.append([s.send("tell", name="victim", text="spam")
                            if k % 2 == 0 else
                            s.send("invite", name="victim", room=room)
                            for k in range(WAVE)])
            friend_ok += bool(bys.call("tell", name="friend",
                                       text="still here").get("ok"))
            for s, wave in zip(senders, ids):
                for i in wave:
                    r = s.reply(i) or {}
                    if r.get("ok"):
                        ok += 1
                    else:
                        refused += 1
                        why.add((r.get("error"), "victim" in
                                 r.get("message", "") and "try again" in
                                 r.get("message", "")))
            # each sender at its own message rate (20 a second)
            time.sleep(max(0.0, 1.0 - (time.time() - t0) % 1.0))
        took = time.time() - t0
        time.sleep(0.3)
        got = [m for m in vic.drain(0.5)
               if m.get("event") in ("told", "invited")]
        tells = sum(1 for m in got if m["event"] == "told")
        invites = len(got) - tells
        print("%d senders, %.1f s: %d tells and %d invites reached the "
              "victim (%.1f a second), %d acknowledged, %d refused" %
              (SENDERS, took, tells, invites, len(got) / took, ok, refused),
              flush=True)
        chk.ok(len(got) <= BURST + RATE * took + 1,
               "the victim hears at most %d a second (bursts of %d): %d in "
               "%.1f s" % (RATE, BURST, len(got), took))
        chk.eq(ok, len(got), "every acknowledged one reached the victim")
        chk.eq(why, {("rate_limited", True)},
               "each refusal: rate_limited, naming the victim and when")
        chk.ok(friend_ok > 0 and len([m for m in friend.drain(0.3)
                                      if m.get("event") == "told"])
               == friend_ok, "a bystander's tells to another go through")
        time.sleep(1.0 / RATE + 0.1)
        is_ok(chk, senders[0].call("tell", name="victim", text="later"),
              "after the flood, a tell goes through again")
        chk.ok(any(m.get("text") == "later" for m in vic.drain(0.3)),
               "and reaches the victim")
        for c in [vic, bys, friend] + senders:
            c.close()
    chk.done()


if __name__ == "__main__":
    main()
