#!/usr/bin/env python3
"""amazons_texel.py: fit the Amazons evaluation's weights on self-play.

Texel's method, as bench/texel.py does for Ataxx: the evaluation, turned
into an expected score by a logistic curve, should predict each
position's game result. The data are the lines
`bots texel amazons GAMES DEPTH FIRST` prints: the result for the side to
move (1 or 0), the arrows on the board, then the terms' counts in
ai/amazons_engine.c's enum am_weight order (queen territory, king
territory, ties, mobility, four search settings that are 0 here,
restricted amazons, decided regions); a file ending in .gz is read
compressed.

The fit is a logistic regression (maximum likelihood, by Newton's
method: deterministic, a dozen steps) of the result on the terms, with
no constant (the engine has none: every score it compares is from the
same side's view). The engine's scores are integers with queen territory
at 10 a square, so the coefficients are printed scaled to that: the
weights, and K, the curve's steepness per unit of the engine's score.
Every fifth block of 50 positions (about a game's) is held out and the
mean squared error (Texel's measure) and log loss are printed for it:
with queen territory alone, with the engine's defaults, with the fit.
The fit is repeated on each half of the training positions: a weight
that differs much between them is not settled by the data (positions of
one game are not independent, so their count overstates the evidence).
With --phase, each phase (by the arrows on the board) gets a fit of its
own, to see whether early and late positions want different weights.

    build/bots texel amazons 800 2 1 | gzip -9 > amazons-d2.csv.gz
    python3 bench/amazons_texel.py bench/texel/amazons-d2.csv.gz

Python 3 standard library only; deterministic.
"""
import math
import sys

import fitlib

# The terms fitted: their names and places in enum am_weight (the columns
# after the result and the arrows).
TERMS = [("queen", 0), ("king", 1), ("tie", 2), ("mobility", 3),
         ("restricted", 8), ("decided", 9)]
# The engine's defaults for them (am_weights), to compare with the fit.
DEFAULTS = [10, 4, 2, 3, 0, 0]
# The queen territory's weight in the engine: the scale of every score.
QUEEN = 10
# Newton's method: steps (it converges in far fewer) and a ridge so
# small it only keeps a term that never varies from making the system
# singular.
STEPS = 25
RIDGE = 1e-6
# The held-out part: every HOLD-th block of BLOCK positions.
BLOCK = 50
HOLD = 5
# The phases --phase fits apart: arrows on the board, from and below.
PHASES = [(0, 20), (20, 30), (30, 40), (40, 50), (50, 100)]


def read(path):
    """Rows of (result, arrows, terms), in file order."""
    least = 2 + max(i for _, i in TERMS) + 1
    return [(float(cols[0]), int(cols[1]), [int(cols[2 + i]) for _, i in TERMS])
            for cols in fitlib.columns(path, least)]


def sigmoid(z):
    if z < -500:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def solve(a, b):
    """x with a x = b (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [a[i][:] + [b[i]] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) \
            / m[r][r]
    return x


def fit(rows):
    """Logistic regression coefficients (no constant) by Newton's method
    on the log loss."""
    xs = [r[2] for r in rows]
    n = len(xs[0])
    beta = [0.0] * n
    for _ in range(STEPS):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for (r, _, _), x in zip(rows, xs):
            p = sigmoid(sum(b * xi for b, xi in zip(beta, x)))
            g = p - r
            h = p * (1 - p)
            for i in range(n):
                grad[i] += g * x[i]
                hi = h * x[i]
                row = hess[i]
                for j in range(i + 1):
                    row[j] += hi * x[j]
        for i in range(n):
            hess[i][i] += RIDGE * len(rows)
            for j in range(i):
                hess[j][i] = hess[i][j]
        step = solve(hess, grad)
        beta = [b - s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return beta


def errors(rows, beta):
    """Mean squared error and mean log loss of the prediction."""
    se = ll = 0.0
    for row in rows:
        p = sigmoid(sum(b * xi for b, xi in zip(beta, row[2])))
        p = min(max(p, 1e-12), 1 - 1e-12)
        se += (row[0] - p) ** 2
        ll -= row[0] * math.log(p) + (1 - row[0]) * math.log(1 - p)
    return se / len(rows), ll / len(rows)


def fit_k(rows, w):
    """The steepness that best predicts the results from the engine's
    score with weights w (log loss, golden-section search)."""
    scores = [(r[0], sum(wi * ti for wi, ti in zip(w, r[2]))) for r in rows]

    def loss(k):
        total = 0.0
        for res, e in scores:
            p = min(max(sigmoid(k * e), 1e-12), 1 - 1e-12)
            total -= res * math.log(p) + (1 - res) * math.log(1 - p)
        return total

    return fitlib.golden(loss, 1e-5, 1.0, 80)


def fit_phases(train, test, w):
    """Whether the weights should change with the phase (PHASES: arrows
    on the board). Every leaf one search compares has the same arrows (one
    a move), so only the weights' ratios matter within a phase, not the
    curve's steepness K, which grows as the board fills. So: the held-out
    error of the weights w with a K fitted for each phase, against a
    whole fit for each phase; each phase's weights scaled to queen's."""
    sums = [[0.0, 0.0], [0.0, 0.0]]
    lines = []
    for lo, hi in PHASES:
        tr = [r for r in train if lo <= r[1] < hi]
        te = [r for r in test if lo <= r[1] < hi]
        if len(tr) < 100 or not te:
            continue
        k = fit_k(tr, w)
        e0 = errors(te, [k * x for x in w])
        beta = fit(tr)
        e1 = errors(te, beta)
        for i, e in enumerate((e0, e1)):
            sums[i][0] += e[0] * len(te)
            sums[i][1] += e[1] * len(te)
        lines.append("  arrows %2d-%2d (%5d, %4d): held out %.5f, %.5f; %s"
                     % (lo, hi - 1, len(tr), len(te), e0[0], e1[0],
                        weights(beta)))
    print("%-28s held out %.5f (log loss %.4f)" % (
        "the fit, K for each phase", sums[0][0] / len(test),
        sums[0][1] / len(test)))
    print("%-28s held out %.5f (log loss %.4f)" % (
        "a fit for each phase", sums[1][0] / len(test),
        sums[1][1] / len(test)))
    print("  phase (positions: train, held out): held-out error of the fit"
          " with its own K, of the phase's fit; its weights")
    for line in lines:
        print(line)


def weights(beta):
    """Coefficients as the engine's weights (queen at QUEEN), or the raw
    coefficients when queen's is too small to scale by."""
    if abs(beta[0]) < 1e-3:
        return "queen's coefficient %.1e: no scale (raw x1000: %s)" % (
            beta[0], ", ".join("%.2f" % (1000 * b) for b in beta))
    return ", ".join("%s %.2f" % (name, QUEEN * b / beta[0])
                     for (name, _), b in zip(TERMS, beta))


def report(name, train, test, beta):
    tr = errors(train, beta)
    te = errors(test, beta)
    print("%-28s train %.5f (log loss %.4f), held out %.5f (log loss %.4f)"
          % (name, tr[0], tr[1], te[0], te[1]))


def main():
    args = [a for a in sys.argv[1:] if a != "--phase"]
    phase = "--phase" in sys.argv[1:]
    if len(args) != 1:
        sys.exit("usage: amazons_texel.py [--phase] DATA[.gz]")
    rows = read(args[0])
    train = [r for i, r in enumerate(rows) if (i // BLOCK) % HOLD != HOLD - 1]
    test = [r for i, r in enumerate(rows) if (i // BLOCK) % HOLD == HOLD - 1]
    nt = len(TERMS)
    print("positions: %d (train %d, held out %d)" %
          (len(rows), len(train), len(test)))
    queen = [QUEEN] + [0] * (nt - 1)
    k = fit_k(train, queen)
    report("queen territory alone", train, test, [k * w for w in queen])
    k = fit_k(train, DEFAULTS)
    report("the defaults " + ",".join(map(str, DEFAULTS)), train, test,
           [k * w for w in DEFAULTS])
    beta = fit(train)
    report("the fit", train, test, beta)
    k = beta[0] / QUEEN
    w = [b / k for b in beta]
    print("K = %.5f per unit of score (queen %d a square)" % (k, QUEEN))
    print("weights: " + weights(beta))
    # the same fit on each half of the training positions (the first
    # games, the last): how far each weight is from settled
    half = len(train) // 2
    for name, part in (("first", train[:half]), ("second", train[half:])):
        print("  on the %s half: %s" % (name, weights(fit(part))))
    print("BOTS_WEIGHTS=%s,12,14,40,15,%s" % (
        ",".join(str(round(x)) for x in w[:4]),
        ",".join(str(round(x)) for x in w[4:])))
    if phase:
        fit_phases(train, test, w)

if __name__ == "__main__":
    main()
