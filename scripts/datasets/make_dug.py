#!/usr/bin/env python3
"""scripts/datasets/make_dug.py — the generator-class corpus: full grids dug at random.

Usage: scripts/datasets/make_dug.py BINARY [--count N] [--seed S] [--givens LO-HI] [-o FILE]

What a puzzle generator checks most: a candidate dug out of a full grid, still far from
minimal, whose uniqueness test stops at the second solution. Full grid i is the solution of
`BINARY generate --seed S` puzzle i; it keeps between LO and HI givens (default 30-40: the
number, then the cells blanked, picked by sha256 of "SEED:i:..."), and the candidate is kept
when `BINARY solve -l 2` counts two solutions or more (tests/datasets/multi.sh checks that
with the dancing-links oracle). Grids are tried in index order until N are kept.

Deterministic: grid i depends only on the seed and i (any thread count), the digging only on
the seed and i (sha256, no PRNG whose sequence could change with the Python version), so the
output depends on nothing else and its first lines are those of any larger run.
Output: a '#' header naming the command, then one 81-character puzzle per line ('.' blank).
Exit: 0 done; 2 usage error or the binary failed.
"""
import argparse
import hashlib
import subprocess
import sys

from make_multi import write_corpus  # the sibling script: its folder is on the path

BATCH = 1024  # grids generated and checked per round


def draw(seed, index, what, bound):
    """A number in 0..bound-1 from sha256 of (seed, index, what)."""
    digest = hashlib.sha256(("%d:%d:%s" % (seed, index, what)).encode()).digest()
    return int.from_bytes(digest[:8], "big") % bound


def dig(grid, seed, index, lo, hi):
    """grid with all but a drawn number (lo..hi) of its cells blanked, the cells drawn too."""
    keep = lo + draw(seed, index, "givens", hi - lo + 1)
    cells = list(range(81))
    for j in range(81 - keep):  # a partial Fisher-Yates: the first 81-keep cells go blank
        k = j + draw(seed, index, "cell%d" % j, 81 - j)
        cells[j], cells[k] = cells[k], cells[j]
    out = list(grid)
    for c in cells[:81 - keep]:
        out[c] = "."
    return "".join(out)


def run(cmd, stdin=None):
    """Runs cmd; returns its stdout lines, or exits 2 naming it."""
    try:
        done = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    except OSError as e:
        print("make_dug: cannot run %s: %s" % (cmd[0], e.strerror), file=sys.stderr)
        sys.exit(2)
    if done.returncode != 0:
        print("make_dug: '%s' failed (exit %d): %s" % (" ".join(cmd), done.returncode,
                                                        done.stderr.strip()), file=sys.stderr)
        sys.exit(2)
    return done.stdout.split()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--givens", default="30-40")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    lo, _, hi = a.givens.partition("-")
    if not (lo.isdigit() and hi.isdigit() and 17 <= int(lo) <= int(hi) <= 80):
        ap.error("--givens takes LO-HI with 17 <= LO <= HI <= 80")
    lo, hi = int(lo), int(hi)
    if a.count < 1 or a.seed < 0:
        ap.error("need --count >= 1 and --seed >= 0")
    kept = []
    first = 0
    while len(kept) < a.count:
        recs = run([a.binary, "generate", "-n", str(BATCH), "--first", str(first), "--seed",
                    str(a.seed), "-f", "tdoku"])
        grids = [r.split(":")[2] for r in recs]
        dug = [dig(g, a.seed, first + i, lo, hi) for i, g in enumerate(grids)]
        counts = run([a.binary, "solve", "-l", "2", "-f", "tdoku"], "\n".join(dug) + "\n")
        kept += [d for d, r in zip(dug, counts) if int(r.split(":")[1]) >= 2]
        first += BATCH
    out = ["# generator-class candidates: the solutions of `sudokubench generate --seed %d` in "
           "index order, dug to %d-%d givens; the first %d with two solutions or more"
           % (a.seed, lo, hi, a.count),
           "# (scripts/datasets/make_dug.py --count %d --seed %d --givens %d-%d; "
           "datasets/README.md)" % (a.count, a.seed, lo, hi)]
    write_corpus(out + kept[:a.count], a.output)


if __name__ == "__main__":
    main()
