#!/usr/bin/python3
"""dpclust's rows of the high-dimensional family (issue 36; docs/results/utility/high-dim-family.md).

Usage: hd-family.py JAR OUT.jsonl CELLS EPSILONS SECRETS METHODS [WORKDIR]

  CELLS     'D,K,SD;D,K,SD;...'  e.g. '100,64,0.02;32,16,0.1'
  EPSILONS  '0.3,1,3'
  SECRETS   how many: secret i = 0..SECRETS-1 is SHA-256("dpclust/h-family/secret/i") in hex
  METHODS   'auto,stats-proj,stats-proj-refine,stats-nested'

For each cell it writes (once, in WORKDIR, default .) the data of `hd-mixture.py 10000 D K SD 7`,
then runs `java -Xmx1g -jar JAR batch --algorithm M --input ... --k K --epsilon E --bounds [0,1]^D`
for every (epsilon, method, secret) and appends one JSON row per run to OUT.jsonl: the SSE of the
released centroids over every point (each to its nearest centroid) and that SSE relative to the
SSE at the cell's true mixture means (the `ref_sse` of the committed rows), with the jar's commit
(`java -jar JAR --version`) as `build`. Rows of the same build already in OUT.jsonl are skipped, so an
interrupted run resumes; another build's rows stay beside them. Progress: one line per run on stdout.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def sse(x, c):
    best = np.full(len(x), np.inf)
    for ci in c:
        best = np.minimum(best, ((x - ci) ** 2).sum(1))
    return float(best.sum())


def main():
    if len(sys.argv) not in (7, 8):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    jar, out_path = sys.argv[1], sys.argv[2]
    cells = [tuple(c.split(",")) for c in sys.argv[3].split(";")]
    epsilons = sys.argv[4].split(",")
    secrets = int(sys.argv[5])
    methods = sys.argv[6].split(",")
    work = sys.argv[7] if len(sys.argv) == 8 else "."
    version = subprocess.run(["java", "-jar", jar, "--version"], capture_output=True, text=True, check=True).stdout
    build = next((w.strip(",") for line in version.splitlines() for i, w in enumerate(line.split())
                  if i == 1 and line.startswith("commit")), "unknown")
    done = set()
    if os.path.exists(out_path):
        for line in open(out_path):
            r = json.loads(line)
            done.add((r["d"], r["k"], r["sd"], r["epsilon"], r["method"], r["secret_or_seed"], r.get("build")))
    out = open(out_path, "a")
    for d, k, sd in cells:
        data = os.path.join(work, f"d{d}k{k}s{sd}.csv")
        if not os.path.exists(data):
            subprocess.run([sys.executable, os.path.join(HERE, "hd-mixture.py"), "10000", d, k, sd, "7", data],
                           check=True)
        x = np.loadtxt(data, delimiter=",", skiprows=1)[:, :-1]
        means = np.random.default_rng(7).uniform(0.15, 0.85, size=(int(k), int(d)))  # as hd-mixture.py draws them
        ref = sse(x, means)
        bounds = ",".join(["0"] * int(d)) + ";" + ",".join(["1"] * int(d))
        for e in epsilons:
            for m in methods:
                for i in range(secrets):
                    key = (int(d), int(k), float(sd), float(e), "dpclust-" + m, i, build)
                    if key in done:
                        continue
                    secret = hashlib.sha256(f"dpclust/h-family/secret/{i}".encode()).hexdigest()
                    outdir = tempfile.mkdtemp(prefix="hd-family-")
                    try:
                        t0 = time.time()
                        r = subprocess.run(["java", "-Xmx1g", "-jar", jar, "batch", "--algorithm", m, "--input",
                                            data, "--k", k, "--epsilon", e, "--bounds", bounds, "--output",
                                            outdir + "/"],
                                           env=dict(os.environ, DPCLUST_SECRET=secret), capture_output=True, text=True)
                        seconds = round(time.time() - t0, 2)
                        if r.returncode != 0:
                            print(r.stderr[-2000:], file=sys.stderr)
                            sys.exit(1)
                        c = np.loadtxt(os.path.join(outdir, "centroids.csv"), delimiter=",", skiprows=1, ndmin=2)
                    finally:
                        shutil.rmtree(outdir, ignore_errors=True)
                    c = c[:, -int(d):]
                    s = sse(x, c)
                    row = dict(d=int(d), k=int(k), sd=float(sd), n=10000, data_seed=7, method="dpclust-" + m,
                               guarantee="epsilon-DP", epsilon=float(e), delta=0.0, secret_or_seed=i, sse=s,
                               relative_sse=s / ref, seconds=seconds, centroids_returned=len(c), ref_sse=ref,
                               build=build)
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    print(f"d={d} k={k} sd={sd} eps={e} {m} secret {i}: relative SSE {s / ref:.4g} ({seconds} s)",
                          flush=True)


if __name__ == "__main__":
    main()
