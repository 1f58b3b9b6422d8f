#!/usr/bin/env python3
"""ataxx_net.py: train the Ataxx engine's small neural evaluation.

The data are the lines `bots texel GAMES DEPTH FIRST` prints (the result
for the side to move, its material, the counts of the engine's terms in
enum ax_weight's order, then the empty squares), as for bench/texel.py;
a file ending in .gz is read compressed. The net (ai/ataxx_net.c) sees
five counts, each the side to move's minus the other's: material,
exposed stones, clone reach, edge stones, corner stones (not the holes:
they count the same as the reach), and the share of
the board's squares still empty. Its value, in hundredths of a piece, is
100 a piece of material plus

    sum_i L_i x_i + sum_j v_j (relu(W_j.x + u_j p + c_j)
                               - relu(-W_j.x + u_j p + c_j)) + b

(x: the counts over their scales, p: the empty share), odd in the counts
but for the side to move's bias b. The bias is not fitted: it is the
engine's tempo weight (TEMPO), which was tuned by matches together with
the search's pruning; fitted, it comes out at 603 (six pieces), and the
engine's reverse futility pruning, whose margin assumes a node's own
evaluation is about what a search of it finds, then cuts nearly every
node an odd number of plies from the leaves. As in Texel's method, that value
turned into an expected score by the logistic curve of steepness K
(fitted on material alone, as bench/texel.py does) should predict each
position's result: the weights minimise the mean squared error, by Adam
on mini-batches in a fixed order from a fixed seed, holding out every
fifth block of positions as bench/texel.py does. The weights are written
as the C table ai/ataxx_net_table.h.

    build/bots texel 900 5 1 | gzip -n -9 > bench/texel/ataxx-sq-d5.csv.gz
    python3 bench/ataxx_net.py bench/texel/ataxx-sq-d5.csv.gz \\
        > ai/ataxx_net_table.h

Python 3 standard library only; deterministic (the report goes to
standard error).
"""
import math
import random
import sys

import fitlib

# The counts' places on a line after the result (material first, then
# the terms at 2 + their enum ax_weight place), and the empty squares'.
PLACES = [1, 2 + 0, 2 + 1, 2 + 12, 2 + 13]
NAMES = ["material", "exposed", "reach", "edge", "corner"]
EMPTY_PLACE = 2 + 16
# `bots texel` plays the default board, 7x7 without gaps.
SQUARES = 49
# Hidden pairs of units: small, as every leaf of the search pays for it.
HIDDEN = 8
# Training: passes over the data, positions a step, Adam's step sizes for
# the weights in hundredths of a piece (L, v, b) and the others.
EPOCHS = 12
BATCH = 256
RATE_OUT = 2.0
RATE_IN = 0.01
SEED = 23
# The side to move's bias: the engine's tempo weight (AX_W_TEMPO's
# default in ai/ataxx_engine.c), which the engine adds to the net.
TEMPO = 300


def read(path):
    """Rows of (result, counts, empty share), in file order."""
    rows = []
    for cols in fitlib.columns(path, EMPTY_PLACE + 1):
        empty = int(cols[EMPTY_PLACE])
        if empty > SQUARES:
            sys.exit("a position with more empty squares than 7x7")
        rows.append((float(cols[0]), [int(cols[i]) for i in PLACES],
                     empty / SQUARES))
    return rows


def predict(net, k, x, phase):
    """The value in hundredths and its expected score, with the units'
    inputs (for the gradient)."""
    lin, w, u, c, v, b, scale = net
    xin = [xi / s for xi, s in zip(x, scale)]
    value = 100 * x[0] + b + sum(li * xi for li, xi in zip(lin, xin))
    zs = []
    for j in range(HIDDEN):
        a = sum(wi * xi for wi, xi in zip(w[j], xin))
        zp = a + u[j] * phase + c[j]
        zm = -a + u[j] * phase + c[j]
        value += v[j] * ((zp if zp > 0 else 0) - (zm if zm > 0 else 0))
        zs.append((zp, zm))
    p = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, k * value / 100.0))))
    return value, p, xin, zs


def error(rows, k, net):
    """Mean squared error of the prediction against the results."""
    total = 0.0
    for r, x, phase in rows:
        total += (r - predict(net, k, x, phase)[1]) ** 2
    return total / len(rows)


def fit_k(rows):
    """The steepness that best predicts results from material alone."""
    zero = blank([1.0] * len(PLACES), 0.0)
    return fitlib.golden(lambda k: error(rows, k, zero), 0.01, 5.0, 60)


def blank(scale, bias):
    """A net worth material alone, and the bias for the side to move."""
    n = len(PLACES)
    return ([0.0] * n, [[0.0] * n for _ in range(HIDDEN)], [0.0] * HIDDEN,
            [0.0] * HIDDEN, [0.0] * HIDDEN, bias, scale)


def flat(net):
    """The trainable numbers of a net, in one list."""
    lin, w, u, c, v, b, _ = net
    return lin + [x for row in w for x in row] + u + c + v + [b]


def unflat(vals, scale):
    """A net from flat()'s list."""
    n = len(PLACES)
    lin = vals[:n]
    pos = n
    w = []
    for _ in range(HIDDEN):
        w.append(vals[pos:pos + n])
        pos += n
    u = vals[pos:pos + HIDDEN]
    c = vals[pos + HIDDEN:pos + 2 * HIDDEN]
    v = vals[pos + 2 * HIDDEN:pos + 3 * HIDDEN]
    b = vals[pos + 3 * HIDDEN]
    return (lin, w, u, c, v, b, scale)


def gradient(net, k, batch):
    """The mean squared error's gradient over a batch, flat()'s order."""
    lin, w, u, c, v, b, scale = net
    n = len(PLACES)
    g_lin = [0.0] * n
    g_w = [[0.0] * n for _ in range(HIDDEN)]
    g_u = [0.0] * HIDDEN
    g_c = [0.0] * HIDDEN
    g_v = [0.0] * HIDDEN
    g_b = 0.0
    for r, x, phase in batch:
        _, p, xin, zs = predict(net, k, x, phase)
        d = 2 * (p - r) * p * (1 - p) * k / 100.0
        g_b += d
        for i in range(n):
            g_lin[i] += d * xin[i]
        for j in range(HIDDEN):
            zp, zm = zs[j]
            on_p = 1.0 if zp > 0 else 0.0
            on_m = 1.0 if zm > 0 else 0.0
            g_v[j] += d * ((zp if zp > 0 else 0) - (zm if zm > 0 else 0))
            dv = d * v[j]
            g_u[j] += dv * (on_p - on_m) * phase
            g_c[j] += dv * (on_p - on_m)
            da = dv * (on_p + on_m)
            if da != 0.0:
                row = g_w[j]
                for i in range(n):
                    row[i] += da * xin[i]
    m = float(len(batch))
    g = g_lin + [x for row in g_w for x in row] + g_u + g_c + g_v + [g_b]
    return [x / m for x in g]


def rates():
    """Adam's step size for each number, flat()'s order."""
    n = len(PLACES)
    return ([RATE_OUT] * n + [RATE_IN] * (n * HIDDEN) +
            [RATE_IN] * (2 * HIDDEN) + [RATE_OUT] * HIDDEN + [0.0])


def train(rows, k, scale):
    """Adam on mini-batches from a seeded start; the net."""
    rng = random.Random(SEED)
    start = blank(scale, float(TEMPO))
    lin, w, u, c, v, b, _ = start
    for j in range(HIDDEN):
        w[j] = [rng.gauss(0.0, 0.7) for _ in PLACES]
        u[j] = rng.gauss(0.0, 0.7)
        c[j] = rng.gauss(0.0, 0.3)
        v[j] = rng.gauss(0.0, 10.0)
    vals = flat(start)
    lr = rates()
    m1 = [0.0] * len(vals)
    m2 = [0.0] * len(vals)
    order = list(range(len(rows)))
    t = 0
    for epoch in range(EPOCHS):
        rng.shuffle(order)
        for s in range(0, len(order), BATCH):
            batch = [rows[i] for i in order[s:s + BATCH]]
            g = gradient(unflat(vals, scale), k, batch)
            t += 1
            for i, gi in enumerate(g):
                m1[i] = 0.9 * m1[i] + 0.1 * gi
                m2[i] = 0.999 * m2[i] + 0.001 * gi * gi
                mh = m1[i] / (1 - 0.9 ** t)
                vh = m2[i] / (1 - 0.999 ** t)
                vals[i] -= lr[i] * mh / (math.sqrt(vh) + 1e-12)
        print("epoch %d: train error %.5f" %
              (epoch + 1, error(rows[::7], k, unflat(vals, scale))),
              file=sys.stderr)
    return unflat([float("%.6g" % x) for x in vals], scale)


def c_table(net, source):
    """The net as the C table ai/ataxx_net.c includes."""
    lin, w, u, c, v, b, scale = net

    def arr(xs):
        return "{" + ", ".join("%.6g" % x for x in xs) + "}"

    def unscaled(xs):  # weights of the counts themselves, not scaled
        return [x / s for x, s in zip(xs, scale)]

    out = ["/*",
           " * ataxx_net_table.h: the weights of the Ataxx engine's small",
           " * neural evaluation (ai/ataxx_net.c), generated by",
           " * `python3 bench/ataxx_net.py %s`:" % source,
           " * do not edit. Inputs, in order: %s (the" % ", ".join(NAMES),
           " * weights are those of the counts themselves: the trainer's",
           " * scales %s are folded in)." % arr(scale),
           " */",
           "/* clang-format off */",
           "#define AX_NET_HIDDEN %d" % HIDDEN,
           "static const double ataxx_net_lin[AI_ATAXX_NET_IN] = %s;" %
           arr(unscaled(lin)),
           "static const double ataxx_net_w[AX_NET_HIDDEN][AI_ATAXX_NET_IN] "
           "= {"]
    out += ["    %s," % arr(unscaled(row)) for row in w]
    out += ["};",
            "static const double ataxx_net_u[AX_NET_HIDDEN] = %s;" % arr(u),
            "static const double ataxx_net_c[AX_NET_HIDDEN] = %s;" % arr(c),
            "static const double ataxx_net_v[AX_NET_HIDDEN] = %s;" % arr(v)]
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ataxx_net.py DATA[.gz] > ai/ataxx_net_table.h")
    rows = read(sys.argv[1])
    if not rows:
        sys.exit("no positions with the net's columns")
    # hold out every fifth block of 50 positions (about one game's)
    train_rows = [row for i, row in enumerate(rows) if (i // 50) % 5 != 4]
    test_rows = [row for i, row in enumerate(rows) if (i // 50) % 5 == 4]
    scale = []
    for i in range(len(PLACES)):
        mean = sum(x[i] for _, x, _ in train_rows) / len(train_rows)
        var = sum((x[i] - mean) ** 2 for _, x, _ in train_rows)
        scale.append(float("%.3g" % max(1.0, math.sqrt(var /
                                                       len(train_rows)))))
    k = fit_k(train_rows)
    zero = blank(scale, 0.0)
    tempo = blank(scale, float(TEMPO))
    net = train(train_rows, k, scale)
    report = [
        "positions: %d (train %d, held out %d)" %
        (len(rows), len(train_rows), len(test_rows)),
        "K = %.4f (material alone)" % k,
        "error material alone: train %.5f, held out %.5f" %
        (error(train_rows, k, zero), error(test_rows, k, zero)),
        "error material and the tempo %d: train %.5f, held out %.5f" %
        (TEMPO, error(train_rows, k, tempo), error(test_rows, k, tempo)),
        "error with the net: train %.5f, held out %.5f" %
        (error(train_rows, k, net), error(test_rows, k, net))]
    print("\n".join(report), file=sys.stderr)
    sys.stdout.write(c_table(net, sys.argv[1]))


if __name__ == "__main__":
    main()
