"""test_accounts.py: passwords (issue 31, accounts).

A registered name sets a password with `password`; from a "second
machine" (a fresh connection with no token) `hello NAME password=...`
logs in and gets a token of its own, which logs in later as the first
token still does. A wrong password is bad_password; changing one needs
the old one; a name without a password works with its token as before
and refuses a password login; text mode (telnet) logs in with one too;
wrong passwords are throttled with the failed logins (rate_limited, even
for the right one); a password, and the tokens password logins gave, are
stored before the reply and survive a restart; the password is in
neither the store nor the log; a name keeps at most 8 such tokens.
"""

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import Checks, Client, harness, server, shut  # noqa: E402
from harness import is_error, is_ok  # noqa: E402

PW1 = "correct horse 1"
PW2 = "battery staple 2"


def hello(port, **fields):
    """A fresh connection (a second machine) saying hello; (client,
    reply)."""
    c = Client(port)
    return c, c.call("hello", **fields)


def fresh_login(ck, port, name, pw, what):
    """A password login from a fresh connection: its token, or None."""
    c, r = hello(port, name=name, password=pw)
    is_ok(ck, r, what)
    r = r or {}
    ck.eq(r.get("new"), False, what + ": not a new identity")
    tok = r.get("token")
    ck.ok(isinstance(tok, str) and re.fullmatch(r"[0-9a-f]{32}", tok),
          what + ": a token for next time: %r" % (tok,))
    c.close()
    return tok


def token_works(ck, port, name, tok, what, want=True):
    c, r = hello(port, name=name, token=tok)
    if want:
        is_ok(ck, r, what)
    else:
        is_error(ck, r, "bad_token", what)
    c.close()


def set_and_login(ck, s, db):
    port = s.port
    ana = Client(port)
    r = ana.call("hello", name="ana")
    tok1 = (r or {}).get("token")
    is_error(ck, ana.call("password", password="short"), "bad_request",
             "a 5-byte password", ["8"])
    is_ok(ck, ana.call("password", password=PW1), "ana sets a password")
    rows = harness.store_rows(
        db, "SELECT password_hash FROM identities WHERE name = 'ana'")
    stored = rows[0][0] if rows and rows[0] else None
    ck.ok(isinstance(stored, str) and stored.startswith("$argon2id$"),
          "stored (before the reply) as argon2id: %r" % (stored,))
    ck.ok(PW1.encode() not in harness.store_bytes(db),
          "the password itself is not in the store")

    c, r = hello(port, name="ana")
    is_error(ck, r, "name_taken", "no token, no password",
             ["password="])
    c.close()
    c, r = hello(port, name="ana", password="wrong password")
    is_error(ck, r, "bad_password", "a wrong password")
    c.close()
    c, r = hello(port, name="ANA", password=PW1, token=tok1)
    is_error(ck, r, "bad_request", "a token and a password at once")
    c.close()
    c, r = hello(port, name="nobody", password=PW1)
    is_error(ck, r, "bad_password", "a password for no identity")
    c.close()
    tok2 = fresh_login(ck, port, "ANA", PW1, "the right password (any case)")
    ck.ok(tok2 != tok1, "a password login gets a token of its own")
    token_works(ck, port, "ana", tok2, "that token logs in later")
    token_works(ck, port, "ana", tok1, "the first token still does")

    # Telnet: the shorthand, in words.
    t = Client(port)
    t.raw("hello ana password=\"%s\"\n" % PW1)
    text = t.line()
    ck.ok(text is not None and "ana" in text and "error" not in text,
          "text mode logs in with a password: %r" % (text,))
    t.close()

    # Changing it needs the old one. The connection a login replaced is
    # closed: ana logs in again for the change.
    ana.close()
    ana, r = hello(port, name="ana", token=tok1)
    is_error(ck, ana.call("password", password=PW2), "bad_password",
             "a change without the old password", ["OLD"])
    is_error(ck, ana.call("password", password=PW2, old="not it at all"),
             "bad_password", "a change with a wrong old password")
    is_ok(ck, ana.call("password", password=PW2, old=PW1),
          "a change with the old password")
    c, r = hello(port, name="ana", password=PW1)
    is_error(ck, r, "bad_password", "the old password after the change")
    c.close()
    tok3 = fresh_login(ck, port, "ana", PW2, "the new password")
    ana.close()

    # A name without a password: its token as ever, no password login.
    bob = Client(port)
    btok = (bob.call("hello", name="bob") or {}).get("token")
    bob.close()
    c, r = hello(port, name="bob", password=PW1)
    is_error(ck, r, "bad_password", "a password login to a name with "
             "none", ["no password"])
    c.close()
    token_works(ck, port, "bob", btok, "bob's token works as before")
    ck.ok(PW1 not in s.logtext() and PW2 not in s.logtext(),
          "no password in the log (debug level)")
    return tok2, tok3, btok


def restart_keeps(ck, build, db, toks):
    tok2, tok3, btok = toks
    s = server(build, db=db)
    try:
        fresh_login(ck, s.port, "ana", PW2, "after a restart: the password")
        c, r = hello(s.port, name="ana", password=PW1)
        is_error(ck, r, "bad_password", "after a restart: not the old one")
        c.close()
        token_works(ck, s.port, "ana", tok2, "after a restart: a device "
                    "token")
        token_works(ck, s.port, "bob", btok, "after a restart: bob's token")
        # At most 8 tokens from password logins: the oldest goes.
        last = []
        for i in range(8):
            last.append(fresh_login(ck, s.port, "ana", PW2,
                                    "login %d more" % (i + 1)))
        token_works(ck, s.port, "ana", tok2, "the tokens of older "
                    "password logins are no longer good", want=False)
        token_works(ck, s.port, "ana", tok3, "nor this one", want=False)
        token_works(ck, s.port, "ana", last[0], "the 8th newest still is")
    finally:
        shut(s)


def throttled(ck, build, tmp):
    db = os.path.join(tmp, "throttle.db")
    s = server(build, db=db, extra=["--login-fails", "3"])
    try:
        c = Client(s.port)
        c.call("hello", name="cai")
        is_ok(ck, c.call("password", password=PW1), "cai sets a password")
        c.close()
        codes = []
        for _ in range(4):
            c, r = hello(s.port, name="cai", password="guess guess")
            codes.append((r or {}).get("error"))
            c.close()
        ck.eq(codes[:2], ["bad_password"] * 2, "wrong passwords, within "
              "the budget (the set took one)")
        ck.eq(codes[2:], ["rate_limited"] * 2, "then throttled")
        c, r = hello(s.port, name="cai", password=PW1)
        is_error(ck, r, "rate_limited", "throttled even with the right "
                 "password", ["failed logins"])
        c.close()
    finally:
        shut(s)


def main():
    a = harness.args()
    ck = Checks()
    with tempfile.TemporaryDirectory(prefix="tablero-accounts-") as tmp:
        db = os.path.join(tmp, "accounts.db")
        s = server(a.build, db=db)
        try:
            toks = set_and_login(ck, s, db)
        finally:
            shut(s)
        restart_keeps(ck, a.build, db, toks)
        throttled(ck, a.build, tmp)
    ck.done()


if __name__ == "__main__":
    main()
