"""test_i18n_catalogue.py: every sentence the server can send has Spanish.

Finds every format string given to the sentence helpers in server/,
protocol/ and rules/ (conn_error, proto_sentence, rules_seterr,
rules_said_set) and the error codes' own sentences (protocol/errors.c),
and checks that web/js/sentences_es.js has each one, with the same printf
conversions in the same order, and nothing it does not need. Reads the
sources only: --build is taken for the suite's sake.
"""

import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CATALOGUE = os.path.join(ROOT, "web", "js", "sentences_es.js")
# Each helper and the place of its format among its arguments.
HELPERS = {"conn_error": 3, "proto_sentence": 2, "rules_seterr": 2,
           "proto_errf": 2, "rules_say": 2, "conn_error_text": 3, "player_failed": 4,
           "cmd_moderate_close": 2, "cluster_tell": 2,
           "rules_said_set": 1}
# Helpers that also pass along a reason made before (by proto_errf, whose
# formats are found where it is called): a variable there is no format.
PASSERS = {"conn_error_text", "player_failed", "cmd_moderate_close",
           "cluster_tell"}
STR = re.compile(r'"(?:[^"\\\n]|\\.)*"')
RUN = re.compile(r'"(?:[^"\\\n]|\\.)*"(?:\s*"(?:[^"\\\n]|\\.)*")*')
CHR = re.compile(r"'(?:[^'\\]|\\.)*'")
# A printf conversion: flags, width, precision, length, letter.
CONV = re.compile(r"%[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|z|j|t)?"
                  r"[diouxXcsfgeE%]")


def strip_comments(src):
    """src without comments, its lines spliced at a backslash (as C's
    translation phases do before anything else)."""
    src = src.replace("\\\n", "")
    return re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), src,
                  flags=re.S)


def unquote(run):
    """A run of adjacent C string literals as one Python string."""
    out = ""
    for lit in STR.findall(run):
        out += (lit[1:-1].encode("latin-1", "backslashreplace")
                .decode("unicode_escape"))
    return out


def call_args(src, pos):
    """The top-level arguments of the call whose '(' ends at pos."""
    depth, cur, out, i = 1, "", [], pos
    while i < len(src):
        c = src[i]
        if c in "\"'":
            m = (STR if c == '"' else CHR).match(src, i)
            cur += m.group(0)
            i = m.end()
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                out.append(cur.strip())
                return out
        elif c == "," and depth == 1:
            out.append(cur.strip())
            cur = ""
            i += 1
            continue
        cur += c
        i += 1
    return out


def defines_in(paths):
    """Every #define NAME "literal" in the files at paths."""
    out = {}
    for path in paths:
        src = strip_comments(open(path, encoding="utf-8").read())
        out.update({m.group(1): unquote(m.group(2)) for m in re.finditer(
            r"#define\s+(\w+)\s+(" + RUN.pattern + ")", src)})
    return out


DEFINES = defines_in(sorted(
    glob.glob(os.path.join(ROOT, "server", "*", "*.[ch]")) +
    glob.glob(os.path.join(ROOT, "protocol", "*.[ch]")) +
    glob.glob(os.path.join(ROOT, "rules", "*.[ch]"))))


def formats_of(path):
    """Every format string given to a helper in the file at path, with
    the names of formats that are not literals (must be none)."""
    src = strip_comments(open(path, encoding="utf-8").read())
    defines = DEFINES
    found, odd = set(), []
    pat = re.compile(r"\b(" + "|".join(HELPERS) + r")\s*\(")
    for m in pat.finditer(src):
        # A declaration or the helper's own definition is no call.
        line_start = src.rfind("\n", 0, m.start()) + 1
        if src[line_start:m.start()].strip() in ("void", "int") or \
                src[line_start:m.start()] == "":
            if src[m.start() - 1:m.start()] in ("", "\n"):
                continue
        args = call_args(src, m.end())
        at = HELPERS[m.group(1)]
        if len(args) <= at:
            continue
        # a #define'd literal in the format is its text (C joins them)
        fmt = re.sub(r"\b[A-Z][A-Z0-9_]*\b", lambda d: json.dumps(
            DEFINES[d.group(0)]) if d.group(0) in DEFINES and
            d.group(0) != args[at] else d.group(0), args[at])
        runs = RUN.findall(fmt)
        if runs:
            found.update(unquote(r) for r in runs)
        elif fmt in defines:
            found.add(defines[fmt])
        elif fmt not in ("fmt",) and m.group(1) not in PASSERS:
            odd.append("%s: %s" % (os.path.relpath(path, ROOT), fmt))
    return found, odd


# Where a game's end gets its reason, a fixed phrase that is its own msgid
# (the ended event's "reason", and an argument of a one-player game's
# closing sentence): the games' statuses and the server's own ends; and
# why a game is not rated (the result's "unrated", when it is a phrase).
REASON_PATTERNS = [
    re.compile(r"\breason\s*=\s*(" + RUN.pattern + ")"),
    re.compile(r"\broom_end(?:_prepare)?\s*\([^;]*?,\s*(" + RUN.pattern +
               r")\s*\)\s*;"),
    re.compile(r'snprintf\(g->reason, sizeof g->reason, (' + RUN.pattern +
               r')\)'),
    # why a game is not rated (the result's "unrated")
    re.compile(r'(?<![>.])\bwhy = (' + RUN.pattern + r');'),
    # the same, printed with the player's name (stored as text when the
    # game starts: the page finds its msgid by matching, i18n.js)
    re.compile(r'\bsnprintf\(why, len,\s*(' + RUN.pattern + r')'),
]
# Functions whose every returned literal is such a phrase.
PHRASE_FUNCS = re.compile(r"\n(?:rating_unrated\w*|\w+_end_reason)\([^)]*\)\n\{"
                          r"(.*?)\n\}", re.S)
# Tables and functions that hold reasons in rules/.
REASON_BLOCKS = re.compile(r"_end_reason(?:\[\])?\s*(?:=\s*\{|\([^)]*\)\s*\{)"
                           r"(.*?)\n\}", re.S)


def reasons():
    found = set()
    files = sorted(glob.glob(os.path.join(ROOT, "server", "*", "*.c")) +
                   glob.glob(os.path.join(ROOT, "rules", "*.c")))
    for f in files:
        src = strip_comments(open(f, encoding="utf-8").read())
        for pat in REASON_PATTERNS:
            found.update(unquote(m.group(1)) for m in pat.finditer(src))
        for m in REASON_BLOCKS.finditer(src):
            found.update(unquote(r) for r in RUN.findall(m.group(1)))
        for m in PHRASE_FUNCS.finditer(src):
            found.update(unquote(r.group(1)) for r in re.finditer(
                r"\breturn\s+(" + RUN.pattern + ");", m.group(1)))
    found.discard("")
    return found


# A game option's help (the `games` reply's "help", shown by the page):
# the last string of each entry of a rules_optdesc table, or of one
# rules_optdesc made in a function; a fixed phrase, its own msgid.
OPTDESC_TABLE = re.compile(r"rules_optdesc \w+\[\] = \{(.*?)\n\};", re.S)
OPTDESC_ONE = re.compile(r"rules_optdesc \w+ = (\{.*?\});", re.S)


def option_helps():
    found = set()
    files = sorted(glob.glob(os.path.join(ROOT, "rules", "*.c")) +
                   glob.glob(os.path.join(ROOT, "server", "*", "*.c")))
    for f in files:
        src = strip_comments(open(f, encoding="utf-8").read())
        entries = [e for m in OPTDESC_TABLE.finditer(src)
                   for e in re.findall(r"\{[^{}]*\}", m.group(1))]
        entries += [m.group(1) for m in OPTDESC_ONE.finditer(src)]
        for e in entries:
            runs = RUN.findall(e)
            if len(runs) >= 2 or (runs and not e.lstrip("{ ").startswith('"')):
                found.add(unquote(runs[-1]))
    return found


def error_sentences():
    src = open(os.path.join(ROOT, "protocol", "errors.c")).read()
    return {unquote(m.group(1)) for m in re.finditer(
        r'\{"\w+",\s*(' + RUN.pattern + r")\}", src)}


def server_formats():
    files = sorted(glob.glob(os.path.join(ROOT, "server", "*", "*.c")) +
                   glob.glob(os.path.join(ROOT, "protocol", "*.c")) +
                   glob.glob(os.path.join(ROOT, "rules", "*.c")))
    found, odd = set(), []
    for f in files:
        fs, o = formats_of(f)
        found |= fs
        odd += o
    found |= error_sentences()
    found |= reasons()
    found |= option_helps()
    found.discard("%s")
    found.discard("ok")
    return found, odd


def load_catalogue():
    if not os.path.exists(CATALOGUE):
        return {}
    text = open(CATALOGUE, encoding="utf-8").read()
    return json.loads(text[text.index("{"):text.rindex("}") + 1])


def conversions(s):
    return [c for c in CONV.findall(s) if c != "%%"]


def main():
    chk = Checks()
    found, odd = server_formats()
    chk.ok(len(found) > 250, "the sources give %d formats" % len(found))
    chk.eq(odd, [], "every helper is given a literal format")
    es = load_catalogue()
    chk.ok(len(es) > 0, "the catalogue %s has sentences" % CATALOGUE)
    missing = sorted(f for f in found if f not in es)
    chk.eq(missing, [], "every format has Spanish")
    wrong = sorted(f for f in found if f in es and
                   conversions(f) != conversions(es[f]))
    chk.eq(wrong, [], "Spanish keeps each format's conversions in order")
    same = sorted(f for f in found if es.get(f) == f and CONV.sub("", f)
                  .strip(" :.,'()-"))
    chk.eq(same, [], "no Spanish is the English left as it was")
    extra = sorted(f for f in es if f not in found)
    chk.eq(extra, [], "the catalogue holds no format the server lost")
    chk.done()


if __name__ == "__main__":
    main()
