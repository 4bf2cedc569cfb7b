"""The 729-character pencilmark form of a 9x9 puzzle (an input form of docs/cli.md), written for the
tests so that the CLI tests (tests/cli/forms.sh) and the Python tests
(python/tests/test_sudokubench.py) build their inputs the same way, independently of the
library's own parser.

Usage as a script: python3 tests/pencilmarks.py PUZZLE  (prints the line)."""
import sys


def pencilmarks(puzzle, drop=()):
    """The pencilmark line of puzzle (81 characters, '.' or '0' blank): every candidate its
    givens allow, less the (cell, digit) pairs in drop; a given keeps only its digit."""
    g = [0 if ch in ".0" else int(ch) for ch in puzzle]
    out = []
    for c in range(81):
        r, k = divmod(c, 9)
        peers = {g[9 * r + i] for i in range(9)} | {g[9 * i + k] for i in range(9)}
        peers |= {g[9 * (3 * (r // 3) + i) + 3 * (k // 3) + j] for i in range(3) for j in range(3)}
        for d in range(1, 10):
            keep = d == g[c] if g[c] else d not in peers and (c, d) not in drop
            out.append(str(d) if keep else ".")
    return "".join(out)


if __name__ == "__main__":
    print(pencilmarks(sys.argv[1]))
