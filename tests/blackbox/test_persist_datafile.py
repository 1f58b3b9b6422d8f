"""test_persist_datafile.py: bad data files and tokens.

A data file of random bytes, a path in a directory that does not exist, a
directory, another program's SQLite database, a tablero file of a newer
schema and a tablero file with damaged pages: tablerod refuses to start,
exits non-zero, names the file in its log, and leaves the file as it was.
Tokens: a wrong token is bad_token, a missing one name_taken, the right one
resumes (also after a restart, and it replaces an older connection); the
token never appears in the data file or its WAL.
"""

import os
import random
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (FAST, Checks, Server, done, harness,  # noqa: E402
                       login, req, server, shut, until)


def start_fails(ck, build, db, what, words=()):
    """tablerod on db must exit non-zero with db (and words) in its log."""
    s = Server(build, db=db, extra=FAST)
    try:
        s.start()
    except RuntimeError:
        pass
    if s.proc is not None and s.proc.poll() is None:
        ck.ok(False, "%s: tablerod started on it" % what)
        shut(s)
        return
    rc = s.proc.returncode if s.proc is not None else None
    log = s.logtext()
    s.proc = None
    shut(s)
    ck.ok(rc not in (None, 0), "%s: tablerod exits non-zero (%r)" %
          (what, rc))
    ck.ok(db in log, "%s: the log names the file: %r" % (what, log[-300:]))
    for w in words:
        ck.ok(w in log, "%s: the log says %r: %r" % (what, w, log[-300:]))
    ck.ok("listening" not in log, "%s: it never listened" % what)


def unchanged(ck, path, data, what):
    with open(path, "rb") as f:
        ck.ok(f.read() == data, "%s: the file is left as it was" % what)
    ck.ok(not os.path.exists(path + "-wal") or
          os.path.getsize(path + "-wal") == 0,
          "%s: no WAL written next to it" % what)


def bad_files(ck, build, tmp):
    rng = random.Random(6)
    path = os.path.join(tmp, "random.db")
    data = bytes(rng.getrandbits(8) for _ in range(16384))
    with open(path, "wb") as f:
        f.write(data)
    start_fails(ck, build, path, "random bytes")
    unchanged(ck, path, data, "random bytes")

    path = os.path.join(tmp, "text.db")
    data = b"these are my notes, not a database\n" * 200
    with open(path, "wb") as f:
        f.write(data)
    start_fails(ck, build, path, "a text file")
    unchanged(ck, path, data, "a text file")

    path = os.path.join(tmp, "no-such-dir", "sub", "tablero.db")
    start_fails(ck, build, path, "a path in a missing directory")
    ck.ok(not os.path.exists(os.path.join(tmp, "no-such-dir")),
          "a missing directory is not made")

    path = os.path.join(tmp, "adir")
    os.mkdir(path)
    start_fails(ck, build, path, "a directory")
    os.rmdir(path)

    path = os.path.join(tmp, "other.db")
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE recipes (name TEXT, steps TEXT)")
    con.execute("INSERT INTO recipes VALUES ('bread', 'knead')")
    con.commit()
    con.close()
    with open(path, "rb") as f:
        data = f.read()
    start_fails(ck, build, path, "another program's database")
    unchanged(ck, path, data, "another program's database")

    # A tablero file from a newer server.
    path = os.path.join(tmp, "newer.db")
    s = server(build, db=path)
    c = login(s.port, "nora")
    req(c, "create", game="stones")
    c.close()
    shut(s)
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 999")
    con.commit()
    con.close()
    with open(path, "rb") as f:
        data = f.read()
    start_fails(ck, build, path, "a newer schema", ("999",))
    unchanged(ck, path, data, "a newer schema")

    # A tablero file with garbage over its pages past the first.
    path = os.path.join(tmp, "damaged.db")
    s = server(build, db=path)
    c = login(s.port, "dora")
    for i in range(12):
        req(c, "create", game="ataxx", private=True)
    c.close()
    shut(s)
    with open(path, "r+b") as f:
        size = os.path.getsize(path)
        f.seek(size // 3)
        f.write(bytes(rng.getrandbits(8) for _ in range(size // 3)))
    with open(path, "rb") as f:
        data = f.read()
    start_fails(ck, build, path, "damaged pages")
    unchanged(ck, path, data, "damaged pages")


def tokens(ck, build, tmp):
    path = os.path.join(tmp, "tokens.db")
    s = server(build, db=path)
    a = login(s.port, "tess")
    tok = a.token
    ck.ok(isinstance(tok, str) and len(tok) == 32 and
          all(ch in "0123456789abcdef" for ch in tok),
          "hello gives a 32-hex-digit token: %r" % tok)
    ck.eq((a.hello or {}).get("new"), True, "a new name is new")
    wrong = ("0" if tok[0] != "0" else "1") + tok[1:]
    b = login(s.port, "tess", wrong)
    ck.eq((b.hello or {}).get("error"), "bad_token", "a wrong token")
    b.close()
    b = login(s.port, "tess")
    ck.eq((b.hello or {}).get("error"), "name_taken", "no token")
    b.close()
    # A room, so tess has something to resume.
    room = req(a, "create", game="amazons")["room"]
    # The right token from a new connection takes over.
    b = login(s.port, "tess", tok)
    ck.eq(((b.hello or {}).get("ok"), (b.hello or {}).get("new")),
          (True, False), "the right token logs in, not new")
    ck.eq((b.hello or {}).get("token"), tok, "a resume keeps the same "
          "token (PROTOCOL.md: the identity's token)")
    ev = until(a, lambda e: e.get("event") == "replaced")
    ck.ok(ev is not None, "the old connection hears it was replaced")
    ck.eq(a.read(), None, "the old connection is closed")
    ids = [r.get("room") for r in (b.hello or {}).get("rooms", [])]
    ck.eq(ids, [room], "hello lists tess's room")
    raw = harness.store_bytes(path)
    ck.ok(len(raw) > 0, "the data file has bytes")
    for form in (tok, tok.upper()):
        ck.ok(form.encode() not in raw, "the token (%s) is not in the data "
              "file or its WAL" % ("lower" if form == tok else "upper"))
    ck.ok(bytes.fromhex(tok) not in raw, "the token's raw bytes are not in "
          "the data file")
    ck.ok(b"tess" in raw, "the name is there (so the search is real)")
    b.close()
    ck.eq(shut(s), 0, "stops cleanly")
    raw = harness.store_bytes(path)
    ck.ok(tok.encode() not in raw and bytes.fromhex(tok) not in raw,
          "after the stop the token is not in the file either")
    s = server(build, db=path)
    c = login(s.port, "tess", wrong)
    ck.eq((c.hello or {}).get("error"), "bad_token", "after a restart a "
          "wrong token is still bad_token")
    c.close()
    c = login(s.port, "tess", tok)
    ck.eq((c.hello or {}).get("ok"), True, "after a restart the token "
          "still works")
    ids = [r.get("room") for r in (c.hello or {}).get("rooms", [])]
    ck.eq(ids, [room], "and the room is still tess's")
    c.close()
    shut(s)


def main():
    a = harness.args()
    ck = Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-datafile-")
    try:
        if harness.sqlite_only(ck, "bad data files"):
            bad_files(ck, a.build, tmp)
        tokens(ck, a.build, tmp)
    finally:
        for root, dirs, files in os.walk(tmp, topdown=False):
            for n in files:
                os.unlink(os.path.join(root, n))
            for n in dirs:
                os.rmdir(os.path.join(root, n))
        os.rmdir(tmp)
    done(ck)


if __name__ == "__main__":
    main()
