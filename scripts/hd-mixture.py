#!/usr/bin/python3
"""A Gaussian mixture in [0,1]^d for the high-dimensional comparison of issue 36.

Usage: hd-mixture.py N D K SD SEED OUT.csv
Means uniform in [0.15, 0.85]^D, each point a mean plus N(0, SD^2) per coordinate, clipped
to the box; the CSV dpclust batch and scripts/peers.py read (header x1..xD, then label).
Public randomness only (numpy's generator from SEED): it is test data, not a DP mechanism.
"""
import sys

import numpy as np


def main():
    if len(sys.argv) != 7:
        print("hd-mixture.py: usage: N D K SD SEED OUT.csv", file=sys.stderr)
        sys.exit(2)
    n, d, k = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    sd, seed, out = float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
    rng = np.random.default_rng(seed)
    means = rng.uniform(0.15, 0.85, size=(k, d))
    label = rng.integers(0, k, size=n)
    x = np.clip(means[label] + rng.normal(0, sd, size=(n, d)), 0, 1)
    with open(out, "w") as f:
        f.write(",".join(f"x{j + 1}" for j in range(d)) + ",label\n")
        for i in range(n):
            f.write(",".join(f"{v:.6f}" for v in x[i]) + f",{label[i]}\n")


if __name__ == "__main__":
    main()
