#!/usr/bin/python3
"""Public DP k-means peers on a dpclust batch CSV, from their vendored public sources.

Usage: scripts/peers.py --input FILE.csv --bounds "lo1,..,lod;hi1,..,hid" --k K --epsilon E
                        [--delta 1e-6] [--seed 1] [--runs 1] [--peer all|google-lsh|diffprivlib|sklearn]
                        [--output FILE.jsonl] [--no-centroids]

Reads the CSV that `dpclust batch --input FILE.csv` reads (a header line, numeric columns, an optional
`label` column that is ignored; `.csv.gz` read through gzip) and the same declared box as
`batch --bounds`, then runs, for seeds SEED, SEED+1, ..., SEED+RUNS-1, each chosen peer with its own
documented conventions:
  * google-lsh: Google's LSH clustering (third_party/google-dp-clustering, github google/differential-privacy,
    learning/clustering), clustering_algorithm.private_lsh_clustering(k, Data(points, radius),
    DifferentialPrivacyParam(epsilon, delta)); (epsilon, delta)-DP. Its docs ask for points in the ball of
    radius `radius` about the origin and recommend centring the data: the script translates every point by
    the centre of the declared box (a public shift) and gives radius = half the box's diagonal, so the whole
    box lies in the ball (the library clips to it); centroids are shifted back. Its randomness is numpy's
    global generator, seeded with np.random.seed(seed).
  * diffprivlib: IBM diffprivlib's KMeans (third_party/diffprivlib, github IBM/differential-privacy-library),
    KMeans(n_clusters=k, epsilon=epsilon, bounds=(lower, upper), random_state=seed) with a fresh
    BudgetAccountant; pure epsilon-DP (delta is not used). It clips to the bounds itself.
  * sklearn: non-private reference, scikit-learn KMeans(k, init="k-means++", n_init=10, random_state=seed)
    on the unclipped data (the denominator of a relative SSE; not a DP release).
The vendored copies are put first on sys.path, so the run uses exactly the upstream commits recorded in
their README.md files (PYTHONPATH is not needed).

Prints one JSON line per (peer, seed) to stdout (and appends it to --output): peer, upstream commit,
guarantee, epsilon, delta, seed, n, d, k, sse (sum of squared Euclidean distances of every input point,
unclipped, to its nearest returned centroid), centroids_returned, seconds (the library call, including
Google's own non-private loss loop), points_outside_box, centroids (original coordinates). Bad arguments:
one line `peers.py: --option: problem` on stderr, exit 2.
Needs Debian's python3-numpy, python3-scipy, python3-sklearn, python3-absl, python3-attr (scripts/README.md).
"""
import argparse
import gzip
import json
import math
import os
import re
import sys
import time
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THIRD_PARTY = os.path.join(ROOT, "third_party")
VENDORED = {"google-lsh": "google-dp-clustering", "diffprivlib": "diffprivlib"}
UPSTREAM = {"google-lsh": "github.com/google/differential-privacy learning/clustering",
            "diffprivlib": "github.com/IBM/differential-privacy-library diffprivlib.models.KMeans",
            "sklearn": "scikit-learn KMeans (Debian python3-sklearn)"}
PEERS = ("google-lsh", "diffprivlib", "sklearn")


class ArgumentError(Exception):
    def __init__(self, option, problem):
        super().__init__(f"{option}: {problem}")


def fail(message):
    print(f"peers.py: {message}", file=sys.stderr)
    sys.exit(2)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(message)


def upstream_commit(peer):
    if peer not in VENDORED:
        return None
    readme = os.path.join(THIRD_PARTY, VENDORED[peer], "README.md")
    with open(readme, encoding="utf-8") as f:
        m = re.search(r"Commit: `([0-9a-f]{40})`", f.read())
    return m.group(1) if m else None


def parse_bounds(text):
    groups = text.split(";")
    if len(groups) != 2:
        raise ArgumentError("--bounds", f"expected \"lo1,..,lod;hi1,..,hid\" (two groups), got {text!r}")
    try:
        lo = [float(v) for v in groups[0].split(",")]
        hi = [float(v) for v in groups[1].split(",")]
    except ValueError:
        raise ArgumentError("--bounds", f"not numbers: {text!r}") from None
    if len(lo) != len(hi):
        raise ArgumentError("--bounds", f"{len(lo)} lower and {len(hi)} upper values")
    for j, (a, b) in enumerate(zip(lo, hi)):
        if not (math.isfinite(a) and math.isfinite(b)) or not a < b:
            raise ArgumentError("--bounds", f"coordinate {j + 1}: need finite lo < hi, got {a} and {b}")
    return lo, hi


def read_csv(path, np):
    if not os.path.isfile(path):
        raise ArgumentError("--input", f"{path}: no such file")
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8-sig") as f:
        header = f.readline().strip()
        if not header:
            raise ArgumentError("--input", f"{path}: line 1: empty file, expected a header x1..xd[,label]")
        names = [c.strip() for c in header.split(",")]
        try:
            [float(c) for c in names]
            raise ArgumentError("--input", f"{path}: line 1 is data, not a header x1..xd[,label]")
        except ValueError:
            pass
        labels = [c for c, name in enumerate(names) if name.lower() == "label"]
        if len(labels) > 1:
            raise ArgumentError("--input", f"{path}: line 1: more than one 'label' column")
        keep = [c for c in range(len(names)) if c not in labels]
        if not keep:
            raise ArgumentError("--input", f"{path}: line 1: no coordinate columns")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                x = np.loadtxt(f, delimiter=",", usecols=keep, ndmin=2, dtype=np.float64)
        except ValueError as e:
            raise ArgumentError("--input", f"{path}: {str(e).splitlines()[0]}") from None
    if x.shape[0] == 0:
        raise ArgumentError("--input", f"{path}: no data rows")
    if not np.all(np.isfinite(x)):
        raise ArgumentError("--input", f"{path}: non-finite value")
    return x


def sse(x, centers, np):
    """Sum over points of the squared distance to the nearest centre, in blocks."""
    c = np.asarray(centers, dtype=np.float64)
    cc = np.einsum("ij,ij->i", c, c)
    total = 0.0
    for start in range(0, x.shape[0], 8192):
        b = x[start:start + 8192]
        d2 = np.einsum("ij,ij->i", b, b)[:, None] - 2.0 * b @ c.T + cc[None, :]
        total += float(np.maximum(d2.min(axis=1), 0.0).sum())
    return total


def run_google(x, lo, hi, k, epsilon, delta, seed, np):
    from clustering import clustering_algorithm, clustering_params
    centre = (lo + hi) / 2.0
    radius = float(np.linalg.norm((hi - lo) / 2.0))
    np.random.seed(seed)
    data = clustering_params.Data(x - centre, radius)
    privacy = clustering_params.DifferentialPrivacyParam(epsilon=epsilon, delta=delta)
    result = clustering_algorithm.private_lsh_clustering(k, data, privacy)
    return np.asarray(result.centers, dtype=np.float64) + centre


def run_diffprivlib(x, lo, hi, k, epsilon, seed, np):
    from diffprivlib.accountant import BudgetAccountant
    from diffprivlib.models import KMeans
    model = KMeans(n_clusters=k, epsilon=epsilon, bounds=(lo, hi), random_state=seed,
                   accountant=BudgetAccountant())
    model.fit(x)
    return np.asarray(model.cluster_centers_, dtype=np.float64)


def run_sklearn(x, k, seed, np):
    from sklearn.cluster import KMeans
    model = KMeans(n_clusters=k, init="k-means++", n_init=10, random_state=seed).fit(x)
    return np.asarray(model.cluster_centers_, dtype=np.float64)


def main(argv=None):
    ap = Parser(prog="peers.py", description="Public DP k-means peers on a dpclust batch CSV.")
    ap.add_argument("--input", required=True, help="CSV as dpclust batch reads it (header, optional label)")
    ap.add_argument("--bounds", required=True, help='declared box "lo1,..,lod;hi1,..,hid" (as batch --bounds)')
    ap.add_argument("--k", required=True, type=int)
    ap.add_argument("--epsilon", required=True, type=float)
    ap.add_argument("--delta", type=float, default=1e-6, help="google-lsh only (default 1e-6)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=1, help="seeds SEED .. SEED+RUNS-1")
    ap.add_argument("--peer", default="all", help="all, or a comma list of " + ", ".join(PEERS))
    ap.add_argument("--output", help="also append the JSON lines to this file")
    ap.add_argument("--no-centroids", action="store_true", help="leave the centroids out of the lines")
    a = ap.parse_args(argv)
    try:
        peers = list(PEERS) if a.peer == "all" else [p.strip() for p in a.peer.split(",")]
        for p in peers:
            if p not in PEERS:
                raise ArgumentError("--peer", f"unknown peer {p!r} (known: all, {', '.join(PEERS)})")
        if not (math.isfinite(a.epsilon) and a.epsilon > 0):
            raise ArgumentError("--epsilon", f"must be finite and > 0, got {a.epsilon}")
        if "google-lsh" in peers and not (0 < a.delta < 1):
            raise ArgumentError("--delta", f"google-lsh needs 0 < delta < 1, got {a.delta}")
        if a.k < 1:
            raise ArgumentError("--k", f"must be >= 1, got {a.k}")
        if a.runs < 1:
            raise ArgumentError("--runs", f"must be >= 1, got {a.runs}")
        if not 0 <= a.seed < 2 ** 32 - a.runs:
            raise ArgumentError("--seed", f"must be in [0, 2^32 - runs), got {a.seed}")
        lo_list, hi_list = parse_bounds(a.bounds)
        import numpy as np
        x = read_csv(a.input, np)
        n, d = x.shape
        if len(lo_list) != d:
            raise ArgumentError("--bounds", f"{len(lo_list)} coordinates, the input has d = {d}")
        if a.k > n:
            raise ArgumentError("--k", f"k = {a.k} > n = {n} points")
    except ArgumentError as e:
        fail(str(e))
    lo, hi = np.array(lo_list), np.array(hi_list)
    outside = int(np.count_nonzero(np.any((x < lo) | (x > hi), axis=1)))
    for p in peers:
        if p in VENDORED:
            sys.path.insert(0, os.path.join(THIRD_PARTY, VENDORED[p]))
    warnings.simplefilter("ignore", FutureWarning)  # scikit-learn 1.2's n_init notice, inside Google's code
    out = open(a.output, "a", encoding="utf-8") if a.output else None
    for seed in range(a.seed, a.seed + a.runs):
        for p in peers:
            t0 = time.perf_counter()
            if p == "google-lsh":
                centers = run_google(x, lo, hi, a.k, a.epsilon, a.delta, seed, np)
                guarantee, delta = "(epsilon, delta)-DP", a.delta
            elif p == "diffprivlib":
                centers = run_diffprivlib(x, lo, hi, a.k, a.epsilon, seed, np)
                guarantee, delta = "epsilon-DP", 0.0
            else:
                centers = run_sklearn(x, a.k, seed, np)
                guarantee, delta = "non-private", None
            seconds = time.perf_counter() - t0
            row = {"peer": p, "upstream": UPSTREAM[p], "commit": upstream_commit(p), "guarantee": guarantee,
                   "epsilon": a.epsilon if p != "sklearn" else None, "delta": delta, "seed": seed,
                   "n": n, "d": d, "k": a.k, "sse": sse(x, centers, np), "centroids_returned": len(centers),
                   "seconds": round(seconds, 3), "points_outside_box": outside}
            if not a.no_centroids:
                row["centroids"] = centers.tolist()
            line = json.dumps(row)
            print(line, flush=True)
            if out:
                out.write(line + "\n")
                out.flush()
    if out:
        out.close()


if __name__ == "__main__":
    main()
