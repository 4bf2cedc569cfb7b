#!/usr/bin/env python3
"""make_easy.py — trivially easy puzzles for the end-to-end throughput target.

Reads `sudokubench solve -f tdoku` output (PUZZLE:COUNT:SOLUTION lines) and writes COUNT
puzzles, one per line, each made from a uniquely solved puzzle by revealing cells of its
solution until it has GIVENS givens. A superset of a unique puzzle's givens that agrees with
its solution keeps exactly that solution, so every output line is a proper puzzle; with 35+
givens almost all of them fall to naked and hidden singles (check with
`sudokubench solve -f csv` and the guesses column). Cycling over the inputs with a seeded
generator keeps the file reproducible: same arguments, same bytes.

Usage: make_easy.py [-n COUNT] [-g GIVENS] [--seed S] TDOKU_FILE > OUT
"""
import argparse
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", "--count", type=int, default=1000000, help="puzzles to write")
    ap.add_argument("-g", "--givens", type=int, default=40, help="givens per puzzle (35..80)")
    ap.add_argument("--seed", type=int, default=1, help="random seed")
    ap.add_argument("tdoku", help="sudokubench solve -f tdoku output")
    a = ap.parse_args()
    if not 35 <= a.givens <= 80:
        sys.exit("make_easy.py: --givens must be 35..80")

    bases = []  # (puzzle, solution) of every uniquely solved input line
    with open(a.tdoku) as f:
        for line in f:
            parts = line.rstrip("\n").split(":")
            if len(parts) == 3 and parts[1] == "1" and len(parts[0]) == 81:
                bases.append((parts[0], parts[2]))
    if not bases:
        sys.exit("make_easy.py: no solved puzzle in " + a.tdoku)

    rng = random.Random(a.seed)
    out = sys.stdout
    batch = []
    for i in range(a.count):
        puzzle, solution = bases[i % len(bases)]
        cells = list(puzzle)
        blanks = [c for c in range(81) if cells[c] == "."]
        # Reveal enough blanks to reach the target number of givens.
        for c in rng.sample(blanks, max(0, a.givens - (81 - len(blanks)))):
            cells[c] = solution[c]
        batch.append("".join(cells))
        if len(batch) == 65536:  # write in blocks: one write per block, not per line
            out.write("\n".join(batch) + "\n")
            batch = []
    if batch:
        out.write("\n".join(batch) + "\n")


if __name__ == "__main__":
    main()
