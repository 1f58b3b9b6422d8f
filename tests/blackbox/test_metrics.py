"""test_metrics.py: --metrics-port serves Prometheus's text format, and
its counters move with what happens.

Issue 30: "what an operator watches". The scrape is parsed as Prometheus
reads it (every sample under a HELP and a TYPE, histograms' buckets
cumulative, +Inf equal to the count); then two players log in, one
sends a line that is no JSON, they start an Ataxx game and make a move,
a browser fetches the page and opens a WebSocket that sends pings past
their rate, and the second scrape shows each of these: requests, the
bad_json error, the move, the room by game and status, connections by
transport, HTTP responses 200 and 101, the WebSocket's refused pings,
the store's commits. A scraper not in --metrics-from gets 403.
"""

import os
import re
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Checks, Server, is_ok, login  # noqa: E402
from web_lib import WS, frame, web_ports  # noqa: E402

SAMPLE = re.compile(r'^([a-z_]+)(\{[^}]*\})? (-?[0-9.e+-]+|\+Inf|NaN)$')


def metrics_port(srv):
    deadline = time.time() + harness.WAIT
    while time.time() < deadline:
        m = re.search(r"metrics on 127\.0\.0\.1:(\d+)", srv.logtext())
        if m:
            return int(m.group(1))
        time.sleep(0.02)
    return None


def fetch(port, path="/metrics"):
    """(status, body) of one scrape."""
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    try:
        s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nAccept: text/plain\r\n\r\n"
                   % path).encode())
        got = b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            got += b
    finally:
        s.close()
    head, _, body = got.partition(b"\r\n\r\n")
    try:
        return int(head.split()[1]), body.decode()
    except (IndexError, ValueError):
        return None, got.decode("latin1")


def parse(chk, text):
    """{'name{labels}': value}, checking the format as it goes."""
    out, typed, helped, bad = {}, {}, set(), []
    for line in text.splitlines():
        if line.startswith("# HELP "):
            helped.add(line.split()[2])
            continue
        if line.startswith("# TYPE "):
            typed[line.split()[2]] = line.split()[3]
            continue
        m = SAMPLE.match(line)
        if not m:
            bad.append(line)
            continue
        name = m.group(1)
        base = re.sub(r"_(bucket|sum|count)$", "", name)
        if name not in typed and base not in typed:
            bad.append(line)
        out[name + (m.group(2) or "")] = float(m.group(3))
    chk.ok(not bad, "every sample is well formed and typed: %r" % bad[:3])
    chk.ok(set(typed) <= helped, "every metric has its HELP")
    for name, kind in typed.items():
        if kind != "histogram":
            continue
        buckets = [v for k, v in out.items()
                   if k.startswith(name + "_bucket{")]
        chk.ok(buckets == sorted(buckets) and buckets and
               buckets[-1] == out.get(name + "_count"),
               "%s: cumulative buckets, +Inf is the count" % name)
    return out


def test_counters(chk, build):
    srv = Server(build, extra=["--web-port", "0", "--metrics-port",
                               "0"]).start()
    try:
        port = metrics_port(srv)
        web, _ = web_ports(srv)
        if not chk.ok(port and web, "the metrics and web ports are logged"):
            return
        status, text = fetch(port)
        chk.eq(status, 200, "GET /metrics")
        before = parse(chk, text)
        chk.eq(fetch(port, "/other")[0], 404, "another path is 404")
        a = login(srv.port, "meta")
        b = login(srv.port, "metb")
        a.raw("{this is no json\n")
        a.reply()
        r = a.call("create", game="ataxx")
        room = r.get("room")
        is_ok(chk, b.call("join", room=room), "the game starts")
        mv = a.call("moves", room=room)
        moves = mv.get("moves") or []
        if chk.ok(moves, "a legal move: %r" % mv):
            is_ok(chk, a.call("move", room=room, move=moves[0]), "a move")
        s = socket.create_connection(("127.0.0.1", web), timeout=harness.WAIT)
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        while s.recv(65536):
            pass
        s.close()
        w = WS(web)
        w.frame()  # the welcome
        w.s.sendall(b"".join(frame(b"x", opcode=9) for _ in range(30)))
        time.sleep(0.5)
        status, text = fetch(port)
        after = parse(chk, text)

        def grew(key, by=1):
            chk.ok(after.get(key, 0) - before.get(key, 0) >= by,
                   "%s grew by %d or more: %r -> %r" %
                   (key, by, before.get(key), after.get(key)))

        grew("tablerod_requests_total", 6)
        grew('tablerod_errors_total{code="bad_json"}')
        grew("tablerod_moves_total")
        grew('tablerod_connections_accepted_total{transport="tcp"}', 2)
        grew('tablerod_connections_accepted_total{transport="websocket"}')
        grew('tablerod_http_responses_total{code="200"}')
        grew('tablerod_http_responses_total{code="101"}')
        grew('tablerod_refused_total{limit="websocket_control"}')
        grew("tablerod_store_commit_seconds_count")
        grew("tablerod_store_group_ops_count")
        chk.eq(after.get('tablerod_rooms{game="ataxx",status="playing"}'),
               1.0, "one Ataxx room playing")
        chk.eq(after.get('tablerod_connections{transport="tcp"}'), 2.0,
               "two TCP connections open")
        chk.eq(after.get('tablerod_connections{transport="websocket"}'),
               1.0, "one WebSocket open")
        chk.ok(after.get("tablerod_players", 0) >= 2, "two players")
        chk.eq(after.get("tablerod_store_failing"), 0.0, "the store works")
        w.close()
        a.close()
        b.close()
    finally:
        harness.stopped_cleanly(chk, srv)
        os.unlink(srv.log.name)


def test_from(chk, build):
    srv = Server(build, extra=["--metrics-port", "0", "--metrics-from",
                               "10.0.0.0/8,2001:db8::/32"]).start()
    try:
        port = metrics_port(srv)
        if chk.ok(port, "the metrics port is logged"):
            # refused at once, before any request is read
            s = socket.create_connection(("127.0.0.1", port),
                                         timeout=harness.WAIT)
            got = b""
            try:
                while True:
                    b = s.recv(4096)
                    if not b:
                        break
                    got += b
            except OSError:
                pass
            s.close()
            chk.ok(got.startswith(b"HTTP/1.1 403"),
                   "a scraper not in --metrics-from gets 403: %r" % got[:40])
            chk.ok("not in --metrics-from" in srv.logtext(),
                   "and the log says so")
    finally:
        harness.stopped_cleanly(chk, srv)
        os.unlink(srv.log.name)


def main():
    a = harness.args()
    chk = Checks()
    harness.run_parts(chk, [test_counters, test_from], a.build)
    chk.done()


if __name__ == "__main__":
    main()
