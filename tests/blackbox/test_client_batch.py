"""test_client_batch.py: tablero --batch, for scripts: every lobby command
(games, rooms, create with options, a clock and privacy, join, watch,
leave, chat, say, who, help, state, ping, JSON lines as they are, the
client's own load and save) gives one JSON reply line in input order;
refused lines are JSON error lines too; the token is kept between runs;
--help, --version and the documented exit codes."""

import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402


def replies(out):
    """The reply lines of a batch's output, as dicts."""
    msgs = [json.loads(l) for l in out]
    return [m for m in msgs if "re" in m], msgs


def check_ana(chk, build, port, env, tmp):
    """Ana's lobby, a line at a time: the lines after the creates use the
    ids the server gave (a private room's is random). Her two rooms' ids
    (private, public), for bob."""
    saved = os.path.join(tmp, "saved.txt")
    b = client_lib.Batch(build, port, "ana", env=env)
    for line in ["games", "rooms",
                 "create ataxx size=5 time=60 inc=2 private=yes",
                 "create stones"]:
        b.send(line)
    reps, _ = replies(b.out)
    priv = reps[3].get("room", "?") if len(reps) > 3 else "?"
    pub = reps[4].get("room", "?") if len(reps) > 4 else "?"
    for line in ["chat hello lobby",
                 "say hello room",
                 "who",
                 "help",
                 "ping",
                 "state " + priv,
                 '{"cmd":"rooms","id":7,"status":"waiting"}',
                 "save %s %s" % (saved, priv),
                 "leave " + pub,
                 "frobnicate now",
                 "load %s/none.txt" % tmp,
                 "load " + saved]:
        b.send(line)
    rc, out, err = b.close()
    chk.eq(rc, 0, "ana's batch exit code")
    reps, msgs = replies(out)
    want = ["hello", "games", "rooms", "create", "create", "chat", "say",
            "who", "help", "ping", "state", "rooms", "save", "leave",
            "frobnicate", "load", "create"]
    chk.eq([r["re"] for r in reps], want, "one reply per line, in order")
    oks = [r.get("ok") for r in reps]
    chk.eq(oks, [True] * 14 + [False, False, True], "which succeeded")
    if len(reps) != len(want):
        return priv, pub
    chk.ok(re.match(r"^p[a-z2-7]{12}$", priv) is not None,
           "a private room's id is p and 12 base32 letters: %r" % priv)
    chk.eq(pub, "r1", "the first public room is r1 (the private one took "
           "no number)")
    games = [g["name"] for g in reps[1]["games"]]
    chk.eq(sorted(games), ["amazons", "ataxx", "shifter", "solitaire",
                           "stones"], "games listed")
    chk.ok(any(g["options"] for g in reps[1]["games"]),
           "games come with their options")
    st = reps[3]["state"]
    chk.eq(st["clock"], {"initial": 60, "increment": 2}, "the clock")
    chk.eq(st["options"].get("size"), "5", "the size option")
    chk.eq(st["private"], True, "private")
    chk.ok(any(m.get("event") == "chat" and m.get("text") == "hello lobby"
               for m in msgs), "the lobby chat event")
    chk.ok(any(m.get("event") == "chat" and m.get("text") == "hello room"
               and m.get("room") == pub for m in msgs), "the room chat")
    chk.eq(reps[7]["players"][0]["name"], "ana", "who")
    chk.ok(len(reps[8]["verbs"]) > 20, "help lists the verbs")
    chk.eq(reps[10]["state"]["room"], priv, "state of the private room")
    chk.eq(reps[11].get("id"), 7, "a JSON line goes as it is (its id)")
    chk.eq([r["room"] for r in reps[11]["rooms"]], [pub],
           "a private room is not listed")
    chk.eq(reps[12].get("file"), saved, "save names the file")
    with open(saved) as f:
        chk.eq(f.read(), "x3o/5/5/5/o3x x 0 1", "the saved position")
    chk.eq(reps[14]["error"], "unknown_cmd", "an unknown verb")
    chk.eq(reps[15]["error"], "local", "a missing file")
    chk.ok("No such file" in reps[15]["message"], "it says why")
    chk.ok("ataxx" in json.dumps(reps[16]), "the loaded position's room")
    return priv, pub


def check_bob(chk, build, port, env, priv, pub):
    """Bob joins ana's private room by its id; her public room is gone
    (she left it while it waited)."""
    rc, out, err = client_lib.batch(build, port, [
        "rooms waiting",
        "join " + priv,
        "watch " + pub,
        "leave " + priv,
        "leave " + pub,
    ], name="bob", env=env)
    chk.eq(rc, 0, "bob's batch exit code")
    reps, msgs = replies(out)
    chk.eq([(r["re"], r["ok"]) for r in reps],
           [("hello", True), ("rooms", True), ("join", True),
            ("watch", False), ("leave", True), ("leave", False)],
           "bob's replies")
    chk.ok(any(m.get("event") == "started" for m in msgs),
           "the private room started")
    chk.ok(any(m.get("event") == "ended" and m.get("reason") ==
               "resignation" for m in msgs), "leaving resigned")


def check_exits(chk, build, port, env):
    rc, out, err = client_lib.batch(build, port, ["who"], name="ana",
                                    env=env)
    reps, _ = replies(out)
    chk.eq((rc, reps[0].get("new")), (0, False),
           "ana logs in again with her kept token")
    other = dict(env, XDG_CONFIG_HOME=tempfile.mkdtemp())
    rc, out, err = client_lib.batch(build, port, ["who"], name="ana",
                                    env=other)
    chk.eq(rc, 3, "a name taken without its token: exit 3")
    rc, out, err = client_lib.batch(build, harness.free_port(), ["who"], name="x",
                                    env=env)
    chk.eq(rc, 2, "no server: exit 2")
    for args, code, text in ((["--help"], 0, "usage: tablero"),
                             (["--version"], 0, "tablero 0.1.0"),
                             (["--frob"], 1, "usage: tablero"),
                             (["a", "b"], 1, "usage: tablero"),
                             (["host:99999"], 1, "usage: tablero")):
        import subprocess
        p = subprocess.run([client_lib.tablero(build)] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=10, check=False)
        chk.eq(p.returncode, code, "exit code of %s" % args)
        chk.ok(text in p.stdout.decode(), "%s says %r" % (args, text))


def check_piped(chk, build, port, env):
    """Without --batch, piped lines are a person's and the output is for
    people (no JSON, no prompts)."""
    import subprocess
    p = subprocess.run([client_lib.tablero(build), "127.0.0.1:%d" % port,
                        "--name", "pip"],
                       input=b"who\ncreate ataxx size=5 bot=1\nb4\n",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, **env), timeout=10, check=False)
    out = p.stdout.decode("utf-8", "replace")
    chk.eq(p.returncode, 0, "piped input: exit 0 at its end")
    chk.ok("Online: " in out, "piped input: who for people")
    chk.ok("White player clones at b4." in out,
           "piped input: a move typed as in a game")
    chk.ok("{" not in out, "piped input: no JSON")
    script = os.path.join(env["XDG_CONFIG_HOME"] + "-script.txt")
    with open(script, "w") as f:
        f.write("who\nping")
    with open(script) as f:
        p = subprocess.run([client_lib.tablero(build), "127.0.0.1:%d" % port,
                            "--name", "pip", "--batch"], stdin=f,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=dict(os.environ, **env), timeout=10,
                           check=False)
    reps = [json.loads(l) for l in p.stdout.decode().splitlines()]
    chk.eq([(m.get("re"), p.returncode) for m in reps if "re" in m],
           [("hello", 0), ("who", 0), ("ping", 0)],
           "a script in a file (not a pipe), its last line unended")
    chk.eq(p.stderr, b"", "nothing on stderr")


def main():
    a = harness.args()
    chk = harness.Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-batch-")
    env = {"XDG_CONFIG_HOME": os.path.join(tmp, "config")}
    with harness.Server(a.build) as srv:
        priv, pub = check_ana(chk, a.build, srv.port, env, tmp)
        check_bob(chk, a.build, srv.port,
                  {"XDG_CONFIG_HOME": os.path.join(tmp, "bob")}, priv, pub)
        check_exits(chk, a.build, srv.port, env)
        check_piped(chk, a.build, srv.port,
                    {"XDG_CONFIG_HOME": os.path.join(tmp, "pip")})
    chk.done()


if __name__ == "__main__":
    main()
