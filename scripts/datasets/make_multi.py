#!/usr/bin/env python3
"""scripts/datasets/make_multi.py — the benchmark corpus of puzzles with several solutions.

Usage: scripts/datasets/make_multi.py BINARY [--count N] [--seed S] [--remove K] [-o FILE]

Runs `BINARY generate -n N --minimal --seed S` and removes K givens from each puzzle. A
minimal puzzle has one solution and loses it the moment any given goes: every given is
needed, so without one the puzzle keeps its old solution and gains at least one more. Every
output puzzle therefore has two solutions or more, by construction; tests/datasets/multi.sh
checks it with the dancing-links oracle. K = 1 (the default) keeps them just short of unique:
few solutions, so counting to 2 must search most of the tree, the class where the second
solution dominates the time.

Deterministic: generate's puzzle i depends only on the seed and i (any thread count), and
the givens removed from puzzle i are picked by sha256 of "SEED:i:j" (j = 0..K-1), so the
output depends on nothing else (no PRNG whose sequence could change with the Python
version) and its first lines are the first lines of any larger run with the same seed.
Output: a '#' header naming the command, then one 81-character puzzle per line ('.' blank).
Exit: 0 done; 2 usage error or the generator failed.
"""
import argparse
import hashlib
import subprocess
import sys


def remove_givens(puzzle, seed, index, k):
    """The puzzle with k of its givens blanked, chosen by sha256 of (seed, index, j)."""
    cells = list(puzzle)
    for j in range(k):
        givens = [c for c, ch in enumerate(cells) if ch != "."]
        digest = hashlib.sha256(("%d:%d:%d" % (seed, index, j)).encode()).digest()
        cells[givens[int.from_bytes(digest[:8], "big") % len(givens)]] = "."
    return "".join(cells)


def write_corpus(lines, path):
    """Writes the corpus lines (header and puzzles) to path, or to stdout when path is None."""
    text = "\n".join(lines) + "\n"
    if path:
        with open(path, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--remove", type=int, default=1)
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    if a.count < 1 or a.seed < 0 or not 1 <= a.remove <= 16:
        ap.error("need --count >= 1, --seed >= 0 and 1 <= --remove <= 16 (a minimal puzzle has 17+ givens)")
    cmd = [a.binary, "generate", "-n", str(a.count), "--minimal", "--seed", str(a.seed)]
    try:
        run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        print("make_multi: cannot run %s: %s" % (a.binary, e.strerror), file=sys.stderr)
        sys.exit(2)
    lines = run.stdout.split()
    if run.returncode != 0 or len(lines) != a.count:
        print("make_multi: '%s' failed (exit %d, %d of %d puzzles): %s"
              % (" ".join(cmd), run.returncode, len(lines), a.count, run.stderr.strip()), file=sys.stderr)
        sys.exit(2)
    out = ["# puzzles with two solutions or more: %d minimal puzzles of `sudokubench generate -n %d"
           " --minimal --seed %d`," % (a.count, a.count, a.seed),
           "# each less %d given(s) picked by sha256 (scripts/datasets/make_multi.py --count %d --seed %d"
           " --remove %d; datasets/README.md)" % (a.remove, a.count, a.seed, a.remove)]
    out += [remove_givens(p, a.seed, i, a.remove) for i, p in enumerate(lines)]
    write_corpus(out, a.output)


if __name__ == "__main__":
    main()
