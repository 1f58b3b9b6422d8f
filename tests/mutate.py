#!/usr/bin/env python3
"""mutate.py: do the tests fail when they should? (issue 28, point 6)

Each row of MUTATIONS is a small, realistic bug: an exact text in one
file and what replaces it, and the tests that must then fail. For each
row this script copies the working tree (the files git tracks or would
track: `git ls-files -co --exclude-standard`, as they are on disk, so an
uncommitted change is mutated too) and the build folder into a scratch
folder, applies the mutation there, rebuilds only what the row's tests
need, runs only those tests and says "caught" (every named test failed) or
"MISSED" (one of them passed). The real checkout is never written.

First every test the table names runs once on the unmutated copy: a
test that fails already would "catch" anything, so the run stops there.

Rows whose tests need PostgreSQL (service "pg") or the cluster's
services (service "cluster") run inside contrib/clustertest.sh, which
this script starts itself (once, around the whole run); the others run
with those variables removed, as `make test` runs them (SQLite). When
the services cannot start, those rows are skipped with a note.

Exit status: 0 when every row ran was caught; 1 when one was MISSED, no
longer applies (its text is not in its file any more: fix the row, see
docs/HACKING.md "Mutation tests"), did not build, or a test failed
before any mutation; 2 on a usage error.

Usage: python3 tests/mutate.py [--build DIR] [--list] [--check] [--keep]
                               [N ...]
  N ...     run only these rows (numbers as --list shows them)
  --build   the build folder to start from (default build; copied, so
            only the mutated file and what links it are rebuilt)
  --list    print the table and exit
  --check   only say whether every row still applies (nothing built)
  --keep    keep the scratch folder (its path is printed)
Standard library only.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# No test may run longer than this many seconds (run.sh's limit).
LIMIT = 600

# The variables contrib/clustertest.sh (and pgtest.sh) set: removed for
# the rows that need no service, so that their tests use SQLite.
SERVICE_VARS = (
    "TABLERO_TEST_PG", "TABLERO_TEST_REDIS", "TABLERO_TEST_REDIS_PID",
    "TABLERO_TEST_HAPROXY", "TABLERO_TEST_HAPROXY_SOCK",
    "TABLERO_TEST_NODE_PORTS", "TABLERO_TEST_WEB_PORTS",
    "TABLERO_TEST_HAPROXY_WEB", "TABLERO_TEST_PROXY_FROM",
    "TABLERO_TEST_REDIS_BIN", "TABLERO_TEST_HAPROXY_BIN")

# Set (to a file) when this script runs again inside clustertest.sh: it
# writes "started" there first, so that the outer run can tell services
# that never started from a run that failed.
INNER = "TABLERO_MUTATE_INNER"
# Set when the services could not start: their rows are skipped.
NO_SERVICES = "TABLERO_MUTATE_NO_SERVICES"


class M:
    """One mutation: in file, the exact text old becomes new; tests
    (unit binaries "test_x", black-box scripts "test_x.py", cluster
    scripts "cluster/test_x.py") must then fail; service: None, "pg" or
    "cluster"; why: the bug it stands for."""

    def __init__(self, file, old, new, tests, why, service=None):
        self.file, self.old, self.new = file, old, new
        self.tests, self.why, self.service = list(tests), why, service


# The table. Keep each old text exact and unique in its file: a row whose
# text is gone (the code moved or changed) fails loudly ("no longer
# applies"), to be updated, not deleted, so that the bug it stands for
# stays tested.
MUTATIONS = [
    # rules/
    M("rules/ataxx.c",
      "out->winner = x > o ? ATAXX_WHITE : ATAXX_BLACK;",
      "out->winner = x < o ? ATAXX_WHITE : ATAXX_BLACK;",
      ["test_ataxx"],
      "Ataxx: the side with fewer pieces wins"),
    M("rules/stones.c",
      "0x111, 0x054,",
      "0x111, 0x045,",
      ["test_stones"],
      "Stones: a diagonal's mask mistyped (A3-B2-C1 no longer a line)"),
    M("rules/amazons.c",
      "occ = (occ & ~amazons_bit(sq[0])) | amazons_bit(sq[1]);",
      "occ = occ | amazons_bit(sq[1]);",
      ["test_amazons"],
      "Amazons: the square the amazon left still blocks its arrow"),
    # protocol/
    M("protocol/framer.c",
      "if (n == 0 || n > f->limit)\n\t\treturn 0;",
      "if (n == 0 || n > f->limit + 1)\n\t\treturn 0;",
      ["test_protocol"],
      "framer: a line one byte over the limit is taken whole"),
    # server/store/: the ops
    M("server/store/sqlite.c",
      '" WHERE NOT EXISTS (SELECT 1 FROM games WHERE room = ?1"',
      '" WHERE NOT EXISTS (SELECT 1 FROM games WHERE room = ?2"',
      ["test_store"],
      "SQLite: the finished games' key broken: a retried group keeps "
      "its game twice"),
    M("server/store/sqlite.c",
      '" ON CONFLICT (room, game_no, ply) DO UPDATE SET seat ="',
      '" ON CONFLICT (room, game_no, ply) DO NOTHING --"',
      ["test_store"],
      "SQLite: a move put again keeps the first, not the later"),
    M("server/store/pg.c",
      '" AND game_no = $2 AND ended_ms = $13)",',
      '" AND game_no = $2 AND ended_ms = $12)",',
      ["test_pgstore"],
      "PostgreSQL: the finished games' key broken: a retried group "
      "keeps its game twice", service="pg"),
    # the fence (server/store/pg.c)
    M("server/store/pg.c",
      '" WHERE owner_epoch > epoch",',
      '" WHERE owner_epoch > epoch + 1000000",',
      ["cluster/test_cluster_fence_held.py"],
      "the fence: the commit's epoch check disabled, a stale node's "
      "group is stored", service="cluster"),
    M("server/store/pg.c",
      "if (op->epoch <= 0 || (id = store_op_room(op)) == NULL)",
      "if (op->epoch <= 1 || (id = store_op_room(op)) == NULL)",
      ["cluster/test_cluster_fence_held.py"],
      "the fence: ops of a room's first epoch (its creator's node) "
      "not fenced", service="cluster"),
    # ratings
    M("server/club/glicko.c",
      "out->rating = GLICKO_SCALE * (mu + phi_new * phi_new * sum_d) +",
      "out->rating = GLICKO_SCALE * (mu + phi_new * sum_d) +",
      ["test_glicko"],
      "Glicko-2 step 8 without phi squared"),
    M("server/club/rating.c",
      "after[s].wins += winner == s;",
      "after[s].wins += winner != s;",
      ["test_ratings.py"],
      "ratings: the loser is counted a win"),
    # limits, held output
    M("server/net/limit.c",
      "if (left >= 1.0)\n\t\treturn 1;",
      "if (left >= 0.0)\n\t\treturn 1;",
      ["test_badclient_abuse.py"],
      "limits: one failed login more than --login-fails let through"),
    M("server/net/held.c",
      "if (tag == 0 && (c->held == NULL ||",
      "if ((tag == 0 || !c->replying) && (c->held == NULL ||",
      ["test_badclient_store.py"],
      "held output: events go out before the change they tell of is "
      "stored (only replies held)"),
    # accounts (issue 31)
    M("server/core/password.c",
      "j->res.ok = crypto_pwhash_str_verify(",
      "j->res.ok = 1 || crypto_pwhash_str_verify(",
      ["test_accounts.py"],
      "accounts: any password logs in"),
    M("server/core/password.c",
      '" FROM tokens WHERE name = $1 ORDER BY made_ms DESC, hash "',
      '" FROM tokens WHERE name = $1 ORDER BY made_ms ASC, hash "',
      ["test_accounts.py"],
      "accounts: past 8 password logins the newest token goes, not the "
      "oldest"),
    # client-cli/: the end of each game as the player reads it
    M("client-cli/game_ataxx.c",
      "strcmp(w->valuestring, r->rg->seat_names[0]) == 0 ? 0 : 1,",
      "strcmp(w->valuestring, r->rg->seat_names[0]) == 0 ? 1 : 0,",
      ["test_client_ataxx.py", "test_client_mark.py"],
      "the client names the Ataxx loser the winner"),
    M("client-cli/game_amazons.c",
      'int seat = cJSON_IsString(w) && strcmp(w->valuestring, "black") == 0;',
      'int seat = cJSON_IsString(w) && strcmp(w->valuestring, "black") != 0;',
      ["test_client_amazons.py", "test_client_amazons_end.py",
       "test_client_mark.py"],
      "the client names the Amazons loser the winner"),
    M("client-cli/game_stones.c",
      'snprintf(buf, len, "Player %c wins!",\n'
      '\t\t    stones_player_no(w->valuestring));',
      'snprintf(buf, len, "Player %c wins!",\n'
      '\t\t    stones_player_no(w->valuestring) ^ 3);',
      ["test_client_stones.py"],
      "the client names the Stones loser the winner (three in a row)"),
    M("client-cli/game_stones.c",
      'snprintf(buf, len, "Player %c wins! (%s)",\n'
      '\t\t    stones_player_no(w->valuestring), why);',
      'snprintf(buf, len, "Player %c wins! (%s)",\n'
      '\t\t    stones_player_no(w->valuestring) ^ 3, why);',
      ["test_client_words.py"],
      "the client names the Stones loser the winner (resignation)"),
    M("client-cli/game_solitaire.c",
      'strcmp(res->valuestring, "solved") == 0)\n'
      '\t\tsnprintf(buf, len, "You won',
      'strcmp(res->valuestring, "solved") != 0)\n'
      '\t\tsnprintf(buf, len, "You won',
      ["test_client_solitaire.py"],
      "the client says a solved solitaire is lost, a blocked one won"),
    M("client-cli/game_shifter.c",
      'strcmp(res->valuestring, "solved") == 0)\n'
      '\t\tsnprintf(buf, len, "Level %d won!"',
      'strcmp(res->valuestring, "solved") != 0)\n'
      '\t\tsnprintf(buf, len, "Level %d won!"',
      ["test_client_shifter.py", "test_client_words.py"],
      "the client says a won Shape Shifter level lost, a lost one won"),
]


def sh(cmd, cwd, env=None, timeout=LIMIT):
    """Run cmd (a list); (exit code, stdout and stderr together)."""
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout,
                           check=False)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return 124, out + "\n(timed out after %d s)" % timeout


def tracked_files():
    """The working tree's files git tracks or would track."""
    rc, out = sh(["git", "ls-files", "-z", "-co", "--exclude-standard"],
                 ROOT)
    if rc != 0:
        sys.exit("mutate.py: git ls-files failed: " + out)
    return [f for f in out.split("\0") if f]


def copy_tree(dst, build):
    """The working tree's files (mtimes kept) and, when there is one,
    the build folder's objects, libraries and binaries into dst/build."""
    for f in tracked_files():
        src = os.path.join(ROOT, f)
        if not os.path.isfile(src) or os.path.islink(src):
            continue
        os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, f))
    if build and os.path.isdir(build):
        out = os.path.join(dst, "build")
        os.makedirs(out, exist_ok=True)
        for name in os.listdir(build):
            p = os.path.join(build, name)
            # the sanitizer, fuzz and native builds are not needed
            if os.path.isdir(p) and name in ("obj", "gen", "tests"):
                shutil.copytree(p, os.path.join(out, name), symlinks=True)
            elif os.path.isfile(p):
                shutil.copy2(p, os.path.join(out, name))


def clone(base, dst):
    """A copy of the built base (cp -a: mtimes kept, so make rebuilds
    only what the mutation touches)."""
    rc, out = sh(["cp", "-a", base, dst], ROOT)
    if rc != 0:
        sys.exit("mutate.py: cp -a failed: " + out)


def targets(tests):
    """The make targets the tests need."""
    out = set()
    for t in tests:
        if t.endswith(".py"):
            out.update(("build/tablerod", "build/tablero"))
        else:
            out.add("build/tests/" + t)
    return sorted(out)


def build(tree, tests):
    """Build what tests need in tree; (ok, output). Not with the flags
    of a make this script runs under (make mutate's jobserver, its
    variables)."""
    env = dict(os.environ)
    for v in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        env.pop(v, None)
    rc, out = sh(["make", "-j2", "BUILD=build"] + targets(tests), tree,
                 env=env)
    return rc == 0, out


def test_env(service):
    """The environment a row's tests run in."""
    env = dict(os.environ)
    env.pop(INNER, None)
    env.pop(NO_SERVICES, None)
    if service is None:
        for v in SERVICE_VARS:
            env.pop(v, None)
    # the browser's tests are not run here; no screens printed
    env["TABLERO_WEB"] = "0"
    env.pop("TABLERO_SHOW_SCREENS", None)
    return env


def run_test(tree, t, service):
    """Run one test in tree; (passed, output)."""
    if t.endswith(".py"):
        path = ("tests/" + t if t.startswith("cluster/")
                else "tests/blackbox/" + t)
        cmd = ["python3", path, "--build", "build"]
    else:
        cmd = ["build/tests/" + t]
    rc, out = sh(cmd, tree, env=test_env(service))
    last = re.findall(r"^(\d+) passed, (\d+) failed", out, re.M)
    failed = int(last[-1][1]) if last else 1
    return rc == 0 and failed == 0 and bool(last), out


def fails(out, n=6):
    """The first n FAIL lines of a test's output (its evidence)."""
    lines = [l for l in out.splitlines() if l.startswith("FAIL")]
    return lines[:n] or out.strip().splitlines()[-n:]


def apply(tree, m):
    """Apply m in tree; None, or why it does not apply."""
    path = os.path.join(tree, m.file)
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        return "cannot read %s: %s" % (m.file, e)
    n = text.count(m.old)
    if n != 1:
        return "%s holds the text %d times (want exactly once): %r" % (
            m.file, n, m.old)
    with open(path, "w") as f:
        f.write(text.replace(m.old, m.new))
    return None


def check(rows):
    """Does every row still apply to the working tree (its text once in
    its file)? Nothing is written, built or run."""
    bad = 0
    for i, m in rows:
        try:
            with open(os.path.join(ROOT, m.file)) as f:
                n = f.read().count(m.old)
        except OSError:
            n = 0
        if n != 1:
            bad += 1
            print("mutation %d no longer applies: %s holds its text %d "
                  "times (want exactly once): %r" % (i, m.file, n, m.old))
    print("%d of %d rows apply" % (len(rows) - bad, len(rows)))
    return 1 if bad else 0


def services_ok():
    """Can clustertest.sh start PostgreSQL, Redis and HAProxy here?"""
    return os.environ.get("TABLERO_TEST_PG") is not None and \
        os.environ.get("TABLERO_TEST_REDIS") is not None


def listing(rows):
    for i, m in rows:
        print("%2d  %-26s %-40s %s%s" % (
            i, m.file, " ".join(m.tests), m.why,
            "" if m.service is None else " [%s]" % m.service))


def main():
    p = argparse.ArgumentParser(usage=__doc__.split("Usage: ")[1])
    p.add_argument("--build", default="build")
    p.add_argument("--list", action="store_true")
    p.add_argument("--keep", action="store_true")
    p.add_argument("--check", action="store_true")
    p.add_argument("rows", nargs="*", type=int)
    a = p.parse_args()
    rows = list(enumerate(MUTATIONS, 1))
    if a.rows:
        bad = [n for n in a.rows if not 1 <= n <= len(MUTATIONS)]
        if bad:
            print("mutate.py: no row %s (1 to %d)" % (bad, len(MUTATIONS)))
            return 2
        rows = [(i, m) for i, m in rows if i in a.rows]
    if a.list:
        listing(rows)
        return 0
    if a.check:
        return check(rows)
    wants = any(m.service for _, m in rows)
    if os.environ.get(NO_SERVICES):
        return run(a, rows, False)
    if wants and not services_ok() and INNER not in os.environ:
        return outer(a)
    if INNER in os.environ:
        with open(os.environ[INNER], "w") as f:
            f.write("started")
    return run(a, rows, services_ok())


def outer(a):
    """Run this script again inside contrib/clustertest.sh (the services
    for the rows that need them); without them when they cannot start."""
    mark = tempfile.NamedTemporaryFile(prefix="tablero-mutate-mark-",
                                       delete=False)
    mark.close()
    env = dict(os.environ)
    env[INNER] = mark.name
    args = [sys.executable, os.path.abspath(__file__), "--build", a.build]
    args += ["--keep"] if a.keep else []
    args += [str(n) for n in a.rows]
    try:
        rc = subprocess.call(["sh", "contrib/clustertest.sh", "run"] + args,
                             cwd=ROOT, env=env)
        with open(mark.name) as f:
            started = f.read() == "started"
    finally:
        os.unlink(mark.name)
    if started:
        return rc
    print("mutate.py: the services (PostgreSQL, Redis, HAProxy) did not "
          "start: the rows that need them are skipped", flush=True)
    env.pop(INNER)
    env[NO_SERVICES] = "1"
    return subprocess.call(args, cwd=ROOT, env=env)


def run(a, rows, have_services):
    build_dir = os.path.abspath(os.path.join(ROOT, a.build))
    scratch = tempfile.mkdtemp(prefix="tablero-mutate-")
    base = os.path.join(scratch, "base")
    t0 = time.time()
    results = []
    try:
        print("mutate.py: copying the tree into %s" % scratch, flush=True)
        copy_tree(base, build_dir)
        runnable = []
        for i, m in rows:
            if m.service and not have_services:
                results.append((i, m, "skipped", "needs %s: the services "
                                "did not start" % m.service))
            else:
                runnable.append((i, m))
        alltests = sorted({t for _, m in runnable for t in m.tests})
        ok, out = build(base, alltests) if runnable else (True, "")
        if not ok:
            print(out[-3000:])
            print("mutate.py: the unmutated tree does not build")
            return 1
        # Every named test passes before any mutation, with the services
        # of the rows that name it.
        service = {}
        for _, m in runnable:
            for t in m.tests:
                service.setdefault(t, set()).add(m.service)
        for t in alltests:
            for s in sorted(service[t], key=str):
                good, out = run_test(base, t, s)
                print("baseline %-36s %s" % (
                    t + ("" if s is None else " [%s]" % s),
                    "passes" if good else "FAILS"), flush=True)
                if not good:
                    print("\n".join(out.strip().splitlines()[-30:]))
                    print("mutate.py: %s fails without any mutation: "
                          "nothing it catches would mean anything" % t)
                    return 1
        for i, m in runnable:
            tree = os.path.join(scratch, "m%d" % i)
            clone(base, tree)
            why = apply(tree, m)
            if why is not None:
                results.append((i, m, "NO LONGER APPLIES", why))
                print("mutation %d no longer applies: %s" % (i, why),
                      flush=True)
                shutil.rmtree(tree, ignore_errors=True)
                continue
            ok, out = build(tree, m.tests)
            if not ok:
                results.append((i, m, "DOES NOT BUILD",
                                "\n".join(out.strip().splitlines()[-8:])))
                print("mutation %d does not build" % i, flush=True)
                shutil.rmtree(tree, ignore_errors=True)
                continue
            caught, evidence = [], []
            for t in m.tests:
                good, out = run_test(tree, t, m.service)
                if not good:
                    caught.append(t)
                    evidence += ["  %s: %s" % (t, l) for l in fails(out)]
            # every test named must catch it: a row whose test no
            # longer fails is a gap, even when another test still does
            verdict = "caught" if len(caught) == len(m.tests) else "MISSED"
            results.append((i, m, verdict, "\n".join(evidence)))
            passed = [t for t in m.tests if t not in caught]
            if passed:
                evidence.append("  passed all the same: " +
                                " ".join(passed))
            print("mutation %2d %-7s %s: %s (%s)" % (
                i, verdict, m.file, m.why,
                "failed: " + " ".join(caught) if caught
                else "every test passed"), flush=True)
            for line in evidence[:4]:
                print(line[:300])
            if not a.keep:
                shutil.rmtree(tree, ignore_errors=True)
    finally:
        if a.keep:
            print("mutate.py: kept %s" % scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print()
    print("%-3s %-17s %-28s %s" % ("N", "result", "file", "the bug: tests"))
    for i, m, verdict, _ in sorted(results, key=lambda r: r[0]):
        print("%-3d %-17s %-28s %s: %s" % (i, verdict, m.file, m.why,
                                          " ".join(m.tests)))
    bad = [r for r in results if r[2] not in ("caught", "skipped")]
    skipped = [r for r in results if r[2] == "skipped"]
    print("%d caught, %d missed or broken, %d skipped (%.0f s)" % (
        len([r for r in results if r[2] == "caught"]), len(bad),
        len(skipped), time.time() - t0))
    for i, m, verdict, why in bad:
        print("mutation %d %s: %s" % (i, verdict, why))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
