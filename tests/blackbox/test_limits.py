"""test_limits.py: tablerod under bad input and at its limits, over real
sockets: over-long lines (and a 1 MB blob without a newline), invalid JSON,
binary garbage, NUL bytes, a flood of messages (rate_limited, then cut
off), a client that never reads (dropped), the client limit (server_full),
idle connections before hello, rooms per player and watchers per room. In
every case other clients keep being served.
"""

import json
import os
import random
import resource
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (WAIT, Checks, Client, Server, args, login,  # noqa: E402
                     run_parts)

FAST = ["--rate", "100000", "--burst", "100000"]


def is_error(chk, rep, code, what, words=None):
    """Check that rep is an error reply with this code (and, when given,
    a message holding each of words)."""
    if not chk.ok(rep is not None and rep.get("ok") is False,
                  "%s: want error %s, got %.300r" % (what, code, rep)):
        return False
    good = chk.eq(rep.get("error"), code, what + ": error code")
    for w in words or []:
        msg = rep.get("message") or ""
        good = chk.ok(w in msg, "%s: message %r names %r" % (what, msg, w)) \
            and good
    return good


def is_ok(chk, rep, what):
    return chk.ok(rep is not None and rep.get("ok") is True,
                  "%s: want ok, got %.300r" % (what, rep))


def read_all(c, timeout=WAIT):
    """Every line until the server closes c: (lines, closed)."""
    lines = []
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            line = c.line(max(0.01, deadline - time.time()))
        except TimeoutError:
            return lines, False
        except OSError:
            return lines, True
        if line is None:
            return lines, True
        lines.append(line)
    return lines, False


def served(chk, port, what):
    """Another client gets a prompt answer."""
    o = Client(port)
    r = o.call("ping")
    is_ok(chk, r, what + ": another client is served")
    o.close()


def send_in_background(sock, data):
    """sendall in a thread (the server may stop reading or close): the
    thread, to join."""
    def run():
        try:
            sock.settimeout(WAIT)
            sock.sendall(data)
        except OSError:
            pass
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def finish(chk, srv, what):
    """The server is still up, and stops cleanly."""
    chk.ok(srv.proc.poll() is None, what + ": server still running")
    chk.eq(srv.stop(), 0, what + ": server exits 0 on SIGTERM")


def test_long_lines(chk, build):
    with Server(build, extra=FAST) as srv:
        keep = login(srv.port, "keeper")
        # exactly at the limit: served (the CR of CRLF does not count)
        c = Client(srv.port)
        body = '{"cmd":"ping","id":"edge"}'
        c.raw(body + " " * (8192 - len(body)) + "\r\n")
        r = c.reply()
        is_ok(chk, r, "a line of exactly 8192 bytes")
        chk.eq(r.get("id") if r else None, "edge", "the edge line's reply")
        # one byte more: line_too_long, then closed
        c.raw(body + " " * (8193 - len(body)) + "\n")
        lines, closed = read_all(c)
        chk.eq(len(lines), 1, "one reply to an over-long line: %r" %
               [x[:80] for x in lines])
        if lines:
            is_error(chk, json.loads(lines[0]), "line_too_long",
                     "8193-byte line")
        chk.ok(closed, "the connection is closed after line_too_long")
        c.close()
        is_ok(chk, keep.call("ping"), "long line: the other client")
        # a 1 MB blob without a newline
        c = Client(srv.port)
        c.call("ping")
        t = send_in_background(c.sock, b"x" * (1 << 20))
        lines, closed = read_all(c)
        chk.ok(len(lines) == 1 and
               json.loads(lines[0]).get("error") == "line_too_long",
               "1 MB without newline: line_too_long: %r" %
               [x[:80] for x in lines])
        chk.ok(closed, "1 MB without newline: closed")
        t.join(WAIT)
        c.close()
        # a long shorthand line in text mode: the error in text, then close
        c = Client(srv.port)
        c.raw("ping\n")
        # a first shorthand line is greeted in words, then answered
        chk.ok(c.line().startswith("Welcome to tablerod "),
               "text mode: the greeting first")
        chk.eq(c.line().strip(), "pong", "text mode: then the pong")
        c.raw("say " + "y" * 9000 + "\n")
        lines, closed = read_all(c)
        chk.ok(len(lines) == 1 and lines[0].startswith(
            "error (line_too_long)"), "text mode line_too_long: %r" % lines)
        chk.ok(closed, "text mode: closed after line_too_long")
        c.close()
        is_ok(chk, keep.call("ping"), "1 MB blob: the other client")
        served(chk, srv.port, "long lines")
        finish(chk, srv, "long lines")
    with Server(build, extra=FAST + ["--max-line", "64"]) as srv:
        c = Client(srv.port)
        is_ok(chk, c.call("ping", pad="p" * 20), "--max-line 64: short ok")
        c.raw('{"cmd":"ping","pad":"%s"}\n' % ("p" * 60))
        lines, closed = read_all(c)
        chk.ok(len(lines) == 1 and
               json.loads(lines[0]).get("error") == "line_too_long" and
               closed, "--max-line 64: a 80-byte line is too long")
        c.close()
        served(chk, srv.port, "--max-line")
        finish(chk, srv, "--max-line")


def test_garbage(chk, build):
    with Server(build, extra=FAST) as srv:
        keep = login(srv.port, "keeper")
        c = login(srv.port, "garbler")
        rnd = random.Random(5)
        for i in range(20):
            n = rnd.randrange(1, 400)
            # no newline (it would split the line) and no IAC (telnet
            # subnegotiation would swallow the rest)
            blob = bytes(b for b in (rnd.randrange(256) for _ in range(n))
                         if b not in (10, 255))
            if not blob.strip(b" \t\r"):
                continue
            c.raw(blob + b"\n")
            raw = c.line()
            try:
                m = json.loads(raw)
            except ValueError:
                m = None
            chk.ok(m is not None and m.get("ok") is False and
                   m.get("error") in ("bad_json", "bad_request",
                                      "unknown_cmd"),
                   "garbage %d answered with an error: %r" % (i, raw[:100]))
        for line, code in [(b'{"cmd":"ping"\x00}\n', "bad_json"),
                           (b'\x00\x00\x00\n', "bad_request"),
                           (b'hello\x00 bob\n', "bad_request"),
                           (b'{"cmd":"chat","text":"\xc0\xaf"}\n',
                            "bad_request"),
                           (b'{"cmd":"ping",\n', "bad_json"),
                           (b'{{{{{{{{\n', "bad_json"),
                           (b'}\n', "unknown_cmd"),
                           (b'\x1b[2J\x1b[H\n', "unknown_cmd")]:
            c.raw(line)
            raw = c.line()
            try:
                m = json.loads(raw)
            except ValueError:
                m = None
            is_error(chk, m, code, "bad input %r" % line[:30])
        # bytes that are not UTF-8 in a JSON string: the line is not
        # valid JSON (RFC 8259), or the field is not UTF-8: either error
        c.raw(b'{"cmd":"chat","text":"\xff\xfe"}\n')
        m = json.loads(c.line())
        chk.ok(m.get("ok") is False and m.get("error") in
               ("bad_json", "bad_request"), "0xff 0xfe in a string: %r" % m)
        is_ok(chk, c.call("ping"), "the garbling client is still served")
        is_ok(chk, keep.call("ping"), "garbage: the other client")
        finish(chk, srv, "garbage")


def test_flood(chk, build):
    with Server(build) as srv:   # default rate: 20/s, burst 40
        keep = login(srv.port, "keeper")
        obs = login(srv.port, "observer")
        # a burst over the limit: the extra messages are refused, not run
        c = login(srv.port, "burster")
        time.sleep(0.3)  # the bucket refills after the hellos
        n = 60
        c.raw("".join('{"cmd":"chat","id":%d,"text":"m%d"}\n' % (i, i)
                      for i in range(n)))
        reps = [c.reply() for _ in range(n)]
        oks = [r for r in reps if r and r.get("ok")]
        limited = [r for r in reps if r and r.get("error") == "rate_limited"]
        chk.eq(len(oks) + len(limited), n,
               "each message answered, ok or rate_limited")
        chk.ok(len(oks) >= 40, "the burst of 40 passes: %d" % len(oks))
        chk.ok(len(limited) >= 1, "over the burst: rate_limited (%d)" %
               len(limited))
        chk.eq([r.get("id") for r in reps], list(range(n)),
               "every reply, refused or not, echoes its id in order")
        got = [e for e in obs.drain(0.5) if e.get("event") == "chat"
               and e.get("from") == "burster"]
        chk.eq(len(got), len(oks),
               "refused chats are not executed (chat events = ok replies)")
        time.sleep(0.5)
        is_ok(chk, c.call("ping"), "after a pause the burster is served")
        c.close()
        # a sustained flood: cut off after 100 refusals in a row
        f = login(srv.port, "flooder")
        n = 1000
        t = send_in_background(
            f.sock, b"".join(b'{"cmd":"ping","id":%d}\n' % i
                             for i in range(n)))
        lines, closed = read_all(f)
        msgs = [json.loads(x) for x in lines]
        oks = [m for m in msgs if m.get("ok")]
        limited = [m for m in msgs if m.get("error") == "rate_limited"]
        chk.ok(closed, "a flooder is disconnected")
        chk.ok(len(limited) >= 100, "at least 100 rate_limited replies (%d)"
               % len(limited))
        chk.ok(len(msgs) < n, "not every message of the flood was answered "
               "(%d of %d)" % (len(msgs), n))
        chk.ok(msgs and msgs[-1].get("error") == "rate_limited",
               "the last reply is rate_limited")
        chk.ok(len(oks) >= 39, "the first burst (40 less the hello) was "
               "served (%d)" % len(oks))
        t.join(WAIT)
        f.close()
        is_ok(chk, keep.call("ping"), "flood: the other client")
        served(chk, srv.port, "flood")
        finish(chk, srv, "flood")


def test_not_reading(chk, build):
    extra = FAST + ["--max-output", "65536"]
    with Server(build, extra=extra) as srv:
        keep = login(srv.port, "keeper")
        room = keep.call("create", game="amazons")["room"]
        # a client with a tiny receive window that asks for big replies
        # and never reads them
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.settimeout(WAIT)
        s.connect(("127.0.0.1", srv.port))
        s.sendall(b'{"cmd":"hello","name":"sleeper"}\n')
        reqs = b"".join(b'{"cmd":"games"}\n{"cmd":"state","room":"%s"}\n'
                        % room.encode() for _ in range(3000))
        t = send_in_background(s, reqs)
        # the others are served while (and after) it is dropped
        for i in range(5):
            is_ok(chk, keep.call("ping"), "not reading: keeper %d" % i)
            time.sleep(0.05)
        deadline = time.time() + WAIT
        dropped = False
        while time.time() < deadline and not dropped:
            dropped = "dropping it" in srv.logtext()
            time.sleep(0.05)
        chk.ok(dropped, "the server logs that it dropped the sleeper")
        # the dropped connection ends (after what had been sent already)
        total, closed = 0, False
        deadline = time.time() + WAIT
        while time.time() < deadline:
            try:
                chunk = s.recv(1 << 16)
            except socket.timeout:
                break
            except OSError:
                closed = True
                break
            if not chunk:
                closed = True
                break
            total += len(chunk)
        chk.ok(closed, "the sleeper's connection is closed (%d bytes read)"
               % total)
        chk.ok(total < 3000 * 2 * 1000,
               "the sleeper did not get every reply (%d bytes)" % total)
        t.join(WAIT)
        s.close()
        is_ok(chk, keep.call("state", room=room), "keeper after the drop")
        served(chk, srv.port, "not reading")
        finish(chk, srv, "not reading")


def test_max_clients(chk, build):
    with Server(build, extra=FAST + ["--max-clients", "3"]) as srv:
        cs = [Client(srv.port) for _ in range(3)]
        chk.ok(all(c.welcome.get("event") == "welcome" for c in cs),
               "three clients welcomed")
        d = Client(srv.port, welcome=False)
        lines, closed = read_all(d)
        chk.eq(len(lines), 1, "the fourth gets one line: %r" % lines)
        if lines:
            m = json.loads(lines[0])
            is_error(chk, m, "server_full", "the fourth client")
        chk.ok(closed, "the fourth is closed")
        d.close()
        is_ok(chk, cs[0].call("ping"), "the three are still served")
        cs[2].close()
        # once one has gone, a new one gets in (bounded retries: the
        # server notices the close asynchronously)
        welcomed = False
        deadline = time.time() + WAIT
        while time.time() < deadline and not welcomed:
            e = Client(srv.port, welcome=False)
            m = e.json()
            welcomed = m is not None and m.get("event") == "welcome"
            if not welcomed:
                e.close()
                time.sleep(0.05)
        chk.ok(welcomed, "a place freed is taken by a new client")
        if welcomed:
            is_ok(chk, e.call("ping"), "the new client is served")
            e.close()
        for c in cs[:2]:
            c.close()
        finish(chk, srv, "max clients")


def low_nofile():
    """In the server's child: 64 open files at most, soft and hard."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


def test_open_files(chk, build):
    """With 64 descriptors the server cannot take its 10000 default
    clients: it says so and takes 64 - 32 reserved - 1 listener, telling
    the next one server_full instead of failing to accept."""
    with Server(build, extra=FAST, preexec=low_nofile) as srv:
        chk.ok("open files are limited to 64: at most 31 clients" in
               srv.logtext(), "the log says how many clients fit: %r" %
               srv.logtext()[-400:])
        cs = [Client(srv.port) for _ in range(31)]
        chk.ok(all(c.welcome.get("event") == "welcome" for c in cs),
               "31 clients welcomed")
        d = Client(srv.port, welcome=False)
        lines, closed = read_all(d)
        m = json.loads(lines[0]) if len(lines) == 1 else None
        is_error(chk, m, "server_full", "the 32nd client")
        chk.ok(closed, "the 32nd is closed")
        d.close()
        is_ok(chk, cs[0].call("ping"), "the 31 are still served")
        for c in cs:
            c.close()
        finish(chk, srv, "open files")


def test_idle(chk, build):
    with Server(build, extra=FAST + ["--idle", "1"]) as srv:
        silent = Client(srv.port)
        games = Client(srv.port)
        games.call("games")  # allowed before hello, but not a hello
        named = login(srv.port, "awake")
        for what, c in (("silent", silent), ("games only", games)):
            lines, closed = read_all(c)
            msgs = [json.loads(x) for x in lines]
            chk.ok(len(msgs) == 1 and msgs[0].get("error") ==
                   "not_logged_in", "%s: not_logged_in on idle: %r" %
                   (what, msgs))
            chk.ok(closed, "%s: closed after idling" % what)
            c.close()
        # the one that said hello stays, past the idle time
        time.sleep(0.3)
        is_ok(chk, named.call("ping"), "a logged-in client is not idle-closed")
        named.close()
        finish(chk, srv, "idle")


def test_rooms_per_player(chk, build):
    extra = FAST + ["--max-rooms-per-player", "2"]
    with Server(build, extra=extra) as srv:
        a = login(srv.port, "many_a")
        b = login(srv.port, "many_b")
        r1 = a.call("create", game="stones")["room"]
        r2 = a.call("create", game="solitaire")["room"]
        is_error(chk, a.call("create", game="ataxx"), "limit_reached",
                 "a third unfinished room")
        rb = b.call("create", game="amazons")["room"]
        is_error(chk, a.call("join", room=rb), "limit_reached",
                 "joining a third room")
        # watching is not sitting: allowed
        is_ok(chk, a.call("watch", room=rb), "watching past the limit")
        # a finished game does not count
        a.call("resign", room=r2)
        r3 = a.call("create", game="ataxx")
        is_ok(chk, r3, "after one game ended, a new room")
        is_error(chk, a.call("create", game="ataxx"), "limit_reached",
                 "at the limit again")
        # a closed room does not count
        a.call("leave", room=r1)
        is_ok(chk, a.call("create", game="shifter"),
              "after leaving a waiting room, a new room")
        a.close()
        b.close()
        finish(chk, srv, "rooms per player")
    # rooms a player created count too, also when bots take every seat
    # (slow bots keep the games unfinished)
    extra = FAST + ["--max-rooms-per-player", "2", "--bot-delay", "60000"]
    with Server(build, extra=extra) as srv:
        a = login(srv.port, "botmaker")
        for i in range(2):
            is_ok(chk, a.call("create", game="amazons",
                              bots={"white": 1, "black": 1}),
                  "bot game %d" % (i + 1))
        is_error(chk, a.call("create", game="amazons",
                             bots={"white": 1, "black": 1}),
                 "limit_reached", "a third unfinished bot game")
        is_error(chk, a.call("create", game="stones"), "limit_reached",
                 "a room after two unfinished bot games")
        a.close()
        finish(chk, srv, "bot rooms per player")


def test_watchers(chk, build):
    with Server(build, extra=FAST + ["--max-watchers", "2"]) as srv:
        a = login(srv.port, "host")
        room = a.call("create", game="stones")["room"]
        ws = [login(srv.port, "w%d" % i) for i in range(3)]
        is_ok(chk, ws[0].call("watch", room=room), "first watcher")
        is_ok(chk, ws[1].call("watch", room=room), "second watcher")
        is_error(chk, ws[2].call("watch", room=room), "limit_reached",
                 "third watcher")
        is_ok(chk, ws[0].call("watch", room=room),
              "watching again when already watching")
        ws[1].call("leave", room=room)
        is_ok(chk, ws[2].call("watch", room=room),
              "a watcher's place freed by leaving")
        st = a.call("state", room=room)["state"]
        chk.eq(st.get("watchers"), 2, "two watchers")
        for c in ws + [a]:
            c.close()
        finish(chk, srv, "watchers")


def test_many_clients(chk, build):
    """Two hundred clients at once, each with its own room, all served.
    They all come from one address, so that address's own limits (made
    for abuse, tested in test_badclient_abuse.py) are opened up."""
    one_address = ["--addr-rate", "100000", "--addr-burst", "100000"]
    with Server(build, extra=one_address) as srv:
        n = 200
        cs = [Client(srv.port) for _ in range(n)]
        for i, c in enumerate(cs):
            c.raw('{"cmd":"hello","name":"crowd%d"}\n'
                  '{"cmd":"create","game":"stones"}\n' % i)
        reps = [(c.reply(), c.reply()) for c in cs]
        chk.ok(all(h and h.get("ok") and r and r.get("ok")
                   for h, r in reps), "200 hellos and creates answered")
        rooms = set(r.get("room") for _, r in reps if r)
        chk.eq(len(rooms), n, "200 different rooms")
        listed, cursor = set(), None
        for _ in range(n):  # pages of --rooms-page rooms
            r = cs[0].call("rooms", status="waiting", **(
                {"from": cursor} if cursor else {}))
            listed |= set(x.get("room") for x in (r or {}).get("rooms", []))
            cursor = r.get("next") if r and r.get("more") else None
            if cursor is None:
                break
        chk.ok(rooms <= listed, "rooms lists them all, page by page")
        for i in range(0, n, 2):
            cs[i + 1].raw('{"cmd":"join","room":"%s"}\n' % reps[i][1]["room"])
        joins = [cs[i + 1].reply() for i in range(0, n, 2)]
        chk.ok(all(j and j.get("ok") for j in joins), "100 joins answered")
        chk.ok(all(c.event("started") is not None for c in cs),
               "200 players see their game start")
        for c in cs:
            c.close()
        finish(chk, srv, "many clients")


def main():
    a = args()
    chk = Checks()
    run_parts(chk, [test_long_lines, test_garbage, test_flood,
                    test_not_reading, test_max_clients, test_open_files,
                    test_idle, test_rooms_per_player, test_watchers,
                    test_many_clients], a.build)
    chk.done()



if __name__ == "__main__":
    main()
