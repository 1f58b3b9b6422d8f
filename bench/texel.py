#!/usr/bin/env python3
"""texel.py: tune the Ataxx evaluation's weights on self-play positions.

Texel's method: the evaluation, turned into an expected score by a
logistic curve, should predict each position's game result. The data are
the lines `bots texel GAMES DEPTH FIRST` prints (the result for the side to
move, its material, then the counts of the other terms in the engine's
order, ai/ataxx_engine.c's enum ax_weight); a file ending in .gz is read
compressed. Material stays at 100 a piece (the scale of every score); the
curve's steepness K is fitted first with the other weights at 0, then the
weights by gradient descent on the mean squared error, and printed as the
engine's weights (hundredths of a piece), with the error before and after
and the error on every fifth block of positions held out (to show the fit
is not learning noise).

    build/bots texel 1200 5 1 | gzip > ataxx-d5.csv.gz
    python3 bench/texel.py bench/texel/ataxx-d5.csv.gz   # the data used

--terms NAME,... fits those terms instead of the first four (the data
must have their columns): the piece-square terms were fitted by

    python3 bench/texel.py --terms exposed,reach,holes,tempo,edge,corner \
        bench/texel/ataxx-sq-d5.csv.gz

Python 3 standard library only; deterministic.
"""
import math
import sys

import fitlib

# The terms that can be fitted, by their place on a line after the
# material (enum ax_weight's order; the places between are the search's
# switches): exposed stones, clone reach, holes, tempo, edge stones,
# corner stones. TERMS: the ones fitted (--terms), the first four unless
# told.
COLUMN = {"exposed": 0, "reach": 1, "holes": 2, "tempo": 3, "edge": 12,
          "corner": 13}
TERMS = ["exposed", "reach", "holes", "tempo"]
# The engine's search settings that are on by default, by their place
# (reverse futility pruning 120 a ply, the endings solver from 5 empty
# squares), for the BOTS_WEIGHTS line printed.
SWITCHES = {9: 120, 10: 5}
# Gradient descent: steps and their size (in hundredths of a piece per
# unit of gradient, scaled by each term's spread).
STEPS = 400
RATE = 4.0


def read(path):
    """Rows of (result, material, terms), in file order."""
    places = [2 + COLUMN[name] for name in TERMS]
    return [(float(cols[0]), int(cols[1]), [int(cols[i]) for i in places])
            for cols in fitlib.columns(path, max(places) + 1)]


def error(rows, k, w):
    """Mean squared error of the logistic prediction against the results."""
    total = 0.0
    for r, mat, t in rows:
        e = 100 * mat + sum(wi * ti for wi, ti in zip(w, t))
        p = 1.0 / (1.0 + math.exp(-k * e / 100.0))
        total += (r - p) ** 2
    return total / len(rows)


def fit_k(rows):
    """The steepness that best predicts results from material alone."""
    w = [0.0] * len(TERMS)
    return fitlib.golden(lambda k: error(rows, k, w), 0.01, 5.0, 60)


def fit_weights(rows, k):
    """Gradient descent on the mean squared error, from all weights 0."""
    n = len(TERMS)
    w = [0.0] * n
    spread = []
    for i in range(n):
        mean = sum(t[i] for _, _, t in rows) / len(rows)
        var = sum((t[i] - mean) ** 2 for _, _, t in rows) / len(rows)
        spread.append(max(var, 1.0))
    for _ in range(STEPS):
        grad = [0.0] * n
        for r, mat, t in rows:
            e = 100 * mat + sum(wi * ti for wi, ti in zip(w, t))
            p = 1.0 / (1.0 + math.exp(-k * e / 100.0))
            g = (p - r) * p * (1 - p) * k / 100.0
            for i in range(n):
                grad[i] += g * t[i]
        for i in range(n):
            w[i] -= RATE * 1e4 * grad[i] / len(rows) / spread[i]
    return w


def main():
    global TERMS
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--terms":
        TERMS = args[1].split(",")
        if any(name not in COLUMN for name in TERMS):
            sys.exit("terms: " + ", ".join(COLUMN))
        args = args[2:]
    if len(args) != 1:
        sys.exit("usage: texel.py [--terms NAME,...] DATA[.gz]")
    rows = read(args[0])
    if not rows:
        sys.exit("no positions with those terms' columns")
    # hold out every fifth block of 50 positions (about one game's)
    train = [row for i, row in enumerate(rows) if (i // 50) % 5 != 4]
    test = [row for i, row in enumerate(rows) if (i // 50) % 5 == 4]
    k = fit_k(train)
    zero = [0.0] * len(TERMS)
    w = fit_weights(train, k)
    print("positions: %d (train %d, held out %d)" %
          (len(rows), len(train), len(test)))
    print("K = %.4f (material alone)" % k)
    print("error material alone: train %.5f, held out %.5f" %
          (error(train, k, zero), error(test, k, zero)))
    print("error with the terms: train %.5f, held out %.5f" %
          (error(train, k, w), error(test, k, w)))
    print("weights (hundredths of a piece): " +
          ", ".join("%s %d" % (name, round(x)) for name, x in zip(TERMS, w)))
    # in the engine's order, the search's settings at their defaults
    line = [0] * (1 + max(COLUMN.values()))
    for place, value in SWITCHES.items():
        line[place] = value
    for name, x in zip(TERMS, w):
        line[COLUMN[name]] = round(x)
    print("BOTS_WEIGHTS=" + ",".join(str(x) for x in line))


if __name__ == "__main__":
    main()
