"""test_web_embedded.py: tablerod serves its own page wherever it runs.

Issue 30, finding 11: an installed `tablerod --web-port 8080` served 404
for its own page unless started in the source tree or given --web-dir
(the default was the relative path "web"). Here tablerod runs in an
empty folder without --web-dir and serves the page built into it: every
file of web/ (index.html, style.css, favicon.svg, js/*.js) byte for byte,
js/rules.wasm as built, and nothing of web/tests/. With --web-dir it
serves that folder's files instead, read at start (a file changed afterwards is not seen), with
FILE.gz beside FILE as its gzip copy, and a
--web-dir that is no folder stops the server at start with a message
naming it.
"""

import gzip
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Checks, Server  # noqa: E402
from web_lib import web_ports  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(
    os.path.abspath(__file__)), "..", ".."))


def fetch(port, path, extra=""):
    """(head, body) of GET path (extra: more header lines)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    try:
        s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                   "%s\r\n" % (path, extra)).encode())
        got = b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            got += b
    finally:
        s.close()
    head, _, body = got.partition(b"\r\n\r\n")
    return head, body


def get(port, path, extra=""):
    """(status, body) of GET path (extra: more header lines)."""
    head, body = fetch(port, path, extra)
    try:
        return int(head.split()[1]), body
    except (IndexError, ValueError):
        return None, head + body


def page_files():
    """The page's files: path under web/ -> bytes."""
    out = {}
    web = os.path.join(ROOT, "web")
    names = ["index.html", "style.css", "favicon.svg"] + \
        ["js/" + n for n in sorted(os.listdir(os.path.join(web, "js")))
         if n.endswith(".js")]
    for n in names:
        with open(os.path.join(web, n), "rb") as f:
            out[n] = f.read()
    return out


def test_embedded(chk, build, tmp):
    here = os.getcwd()
    os.chdir(tmp)  # no web/ here
    try:
        srv = Server(build, extra=["--web-port", "0"]).start()
    finally:
        os.chdir(here)
    try:
        port, _ = web_ports(srv)
        if not chk.ok(port, "the web port is logged"):
            return
        status, body = get(port, "/")
        chk.ok(status == 200 and b"<html" in body.lower(),
               "GET / outside the source tree is the page: %r" % status)
        for name, want in page_files().items():
            status, body = get(port, "/" + name)
            chk.ok(status == 200 and body == want,
                   "/%s is web/%s byte for byte (%r, %d bytes of %d)"
                   % (name, name, status, len(body), len(want)))
        # the games' rules, built from rules/ (issue 32): the build's copy
        # byte for byte, with the type WebAssembly is compiled from
        with open(os.path.join(build, "web", "js", "rules.wasm"), "rb") as f:
            wasm = f.read()
        head, body = fetch(port, "/js/rules.wasm")
        chk.ok(head.startswith(b"HTTP/1.1 200") and
               b"Content-Type: application/wasm" in head and body == wasm
               and wasm[:4] == b"\0asm",
               "/js/rules.wasm is the build's, as application/wasm "
               "(%d bytes of %d)" % (len(body), len(wasm)))
        chk.ok(b"script-src 'self' 'wasm-unsafe-eval';" in head,
               "the page may compile it, and run no other eval")
        status, _ = get(port, "/tests/lib.mjs")
        chk.eq(status, 404, "nothing of web/tests/")
    finally:
        harness.stopped_cleanly(chk, srv)
        os.unlink(srv.log.name)


def test_web_dir(chk, build, tmp):
    d = os.path.join(tmp, "site")
    os.makedirs(os.path.join(d, "js"))
    with open(os.path.join(d, "index.html"), "w") as f:
        f.write("<!doctype html><html><title>another</title></html>\n")
    with open(os.path.join(d, "js", "x.js"), "w") as f:
        f.write("export const x = 1;\n")
    big = b"export const y = 'yyyyyyyy';\n" * 100
    with open(os.path.join(d, "js", "y.js"), "wb") as f:
        f.write(big)
    # One copy: gzip.compress writes the time into its header, so a
    # second call a second later gives other bytes.
    gz = gzip.compress(big)
    with open(os.path.join(d, "js", "y.js.gz"), "wb") as f:
        f.write(gz)
    srv = Server(build, extra=["--web-port", "0", "--web-dir", d]).start()
    try:
        port, _ = web_ports(srv)
        if not chk.ok(port, "the web port is logged"):
            return
        status, body = get(port, "/")
        chk.ok(status == 200 and b"another" in body,
               "--web-dir's page is served: %r %r" % (status, body[:60]))
        status, body = get(port, "/js/x.js")
        chk.eq((status, body), (200, b"export const x = 1;\n"),
               "--web-dir's js/x.js")
        status, _ = get(port, "/js/app.js")
        chk.eq(status, 404, "the built-in files are not mixed in")
        status, body = get(port, "/js/y.js", "Accept-Encoding: gzip\r\n")
        chk.ok(status == 200 and body == gz,
               "FILE.gz beside FILE is its gzip copy: %r %d bytes"
               % (status, len(body)))
        status, body = get(port, "/js/y.js")
        chk.ok(status == 200 and body == big, "and FILE itself without gzip")
        with open(os.path.join(d, "index.html"), "w") as f:
            f.write("changed\n")
        status, body = get(port, "/")
        chk.ok(b"another" in body, "the files were read at start")
    finally:
        harness.stopped_cleanly(chk, srv)
        os.unlink(srv.log.name)


def test_missing_dir(chk, build, tmp):
    missing = os.path.join(tmp, "no-such-folder")
    log = os.path.join(tmp, "missing.log")
    with open(log, "w") as f:
        p = subprocess.Popen([os.path.join(build, "tablerod"), "--listen",
                              "127.0.0.1", "--port", "0", "--db", ":memory:",
                              "--web-port", "0", "--web-dir", missing],
                             stdout=subprocess.DEVNULL, stderr=f)
    try:
        rc = p.wait(harness.WAIT)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = p.wait(harness.WAIT)
        rc = "still running"
    with open(log) as f:
        text = f.read()
    chk.ok(rc not in (0, "still running"),
           "a missing --web-dir stops the server at start: %r" % rc)
    chk.ok(missing in text, "and the log names it: %r" % text[-300:])


def main():
    a = harness.args()
    build = os.path.abspath(a.build)
    chk = Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-embed-")
    try:
        harness.run_parts(chk, [test_embedded, test_web_dir,
                                test_missing_dir], build, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
