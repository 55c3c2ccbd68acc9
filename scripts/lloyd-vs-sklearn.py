#!/usr/bin/python3
"""Batch Lloyd in the JVM against scikit-learn's KMeans on the same points, in one run.

Usage: scripts/lloyd-vs-sklearn.py [--jar target/dpclust.jar] [--n 100000] [--reps 5]

Writes a 10-component Gaussian mixture (d = 10, means uniform in [0.2, 0.8]^10, sd 0.05; numpy seed
2027) to a temporary CSV, then times, interleaved in one process tree on the same machine:
  * the JVM: org.dpclust.bench.LloydFit (Lloyd.run: k-means++ seeding, 10 restarts, <= 300
    iterations, stops when no assignment changes), one warm-up fit then REPS timed fits;
  * scikit-learn KMeans(n_clusters=10, n_init=10, max_iter=300, init="k-means++",
    algorithm="lloyd") with its default tol=1e-4 (stops when the centres move less than 1e-4 of
    the mean variance) and with tol=0 (stops, like dpclust, when no assignment changes), one
    warm-up fit then REPS timed fits each.
Prints a Markdown table: fastest and median seconds, SSE (inertia), and the ratio JVM / sklearn.
Needs python3 with numpy and scikit-learn (Debian: python3-sklearn) and a built jar.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import sklearn
from sklearn.cluster import KMeans


def mixture(n, d=10, k=10, seed=2027):
    rng = np.random.default_rng(seed)
    means = 0.2 + 0.6 * rng.random((k, d))
    return means[np.arange(n) % k] + 0.05 * rng.standard_normal((n, d))


def time_sklearn(x, tol, reps):
    def fit(seed):
        return KMeans(n_clusters=10, n_init=10, max_iter=300, init="k-means++",
                      algorithm="lloyd", tol=tol, random_state=seed).fit(x)
    fit(0)
    seconds = []
    model = None
    for r in range(reps):
        t0 = time.perf_counter()
        model = fit(1 + r)
        seconds.append(time.perf_counter() - t0)
    seconds.sort()
    return {"fastest_s": seconds[0], "median_s": seconds[len(seconds) // 2],
            "sse": float(model.inertia_), "iterations": int(model.n_iter_)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jar", default="target/dpclust.jar")
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--heap", default="-Xmx1g")
    args = ap.parse_args()
    x = mixture(args.n)
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "mixture.csv")
        np.savetxt(csv, x, delimiter=",", header=",".join(f"x{i}" for i in range(x.shape[1])),
                   comments="", fmt="%.17g")
        out = subprocess.run(
            ["java", args.heap, "-cp", args.jar, "org.dpclust.bench.LloydFit", csv,
             "10", "10", "300", str(args.reps)],
            check=True, capture_output=True, text=True).stdout
    jvm = json.loads(out.strip().splitlines()[-1])
    default = time_sklearn(x, 1e-4, args.reps)
    strict = time_sklearn(x, 0.0, args.reps)
    load = os.getloadavg()
    print(f"n = {args.n}, d = 10, k = 10, 10 restarts, max 300 iterations; {os.cpu_count()} cores, "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; scikit-learn {sklearn.__version__}, "
          f"numpy {np.__version__}, python {sys.version.split()[0]}")
    print()
    print("| fit | fastest s | median s | SSE | iterations (best restart) | JVM / this (fastest) |")
    print("|---|---|---|---|---|---|")
    print(f"| dpclust Lloyd.run (JVM) | {jvm['fastest_s']:.3f} | {jvm['median_s']:.3f} | "
          f"{jvm['sse']:.4f} | {jvm['iterations']} | 1.00 |")
    for name, r in (("scikit-learn KMeans, tol=1e-4 (default)", default),
                    ("scikit-learn KMeans, tol=0 (dpclust's stopping rule)", strict)):
        print(f"| {name} | {r['fastest_s']:.3f} | {r['median_s']:.3f} | {r['sse']:.4f} | "
              f"{r['iterations']} | {jvm['fastest_s'] / r['fastest_s']:.2f} |")


if __name__ == "__main__":
    main()
