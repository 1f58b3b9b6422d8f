"""fitlib.py: what the tuning scripts (texel.py, amazons_texel.py,
ataxx_net.py) share: reading `bots texel`'s CSV, plain or gzipped, and a
golden-section search for the logistic curve's steepness. Standard library
only."""

import gzip


def columns(path, least):
    """Each line of the CSV at path split at its commas, in file order;
    lines with fewer than `least` columns (a cut-off last line) are left
    out."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            cols = line.strip().split(",")
            if len(cols) >= least:
                yield cols


def golden(loss, lo, hi, steps):
    """The point of [lo, hi] where a unimodal loss is least, by `steps`
    steps of golden-section search."""
    for _ in range(steps):
        a = hi - (hi - lo) / 1.618
        b = lo + (hi - lo) / 1.618
        if loss(a) < loss(b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2
