#!/usr/bin/env python3
"""Simulates a model with the nsdae Python module and plots its unknowns against time.

usage: plot_trajectory.py MODEL.nsm [OUT.png] [--steps N]

Needs matplotlib (Debian: python3-matplotlib) for the plot; without it, prints the last row and
says so, and exits 0."""
import argparse
import sys

import nsdae


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("out", nargs="?", default="trajectory.png")
    ap.add_argument("--steps", type=int, default=None)
    a = ap.parse_args()
    try:
        r = nsdae.simulate(a.model, steps=a.steps)
    except nsdae.NsdaeError as e:
        print("nsdae: %s" % e, file=sys.stderr)
        return 1
    plan = r["plan"]
    # the unknowns: the columns before the multipliers (MLCS) or q and der(q) (contact form)
    n = plan["ny"] if plan["form"] == "mlcs" else 2 * plan["ndof"]
    names = list(r["columns"])[:n]
    print("%s: %s scheme, %d steps of h = %g to t = %g" % (a.model, plan["scheme"], plan["steps"], plan["h"],
                                                           r["t"][-1]))
    print("last row: " + ", ".join("%s = %.6g" % (c, r["columns"][c][-1]) for c in names))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (Debian: apt-get install python3-matplotlib): no plot written")
        return 0
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for c in names:
        ax.plot(r["t"], r["columns"][c], label=c)
    ax.set_xlabel("t")
    ax.set_title("%s (%s, h = %g)" % (a.model, plan["scheme"], plan["h"]))
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print("plot written to %s" % a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
