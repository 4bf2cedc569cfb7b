"""sbperf.guess_model — an independent model of the fast pipeline's search, in plain Python.

It reimplements, from their documented rules and nothing of the C code, what decides the
guesses of the generic pipelines `list:ns,hs,lc`, `array:...` and `restart:...`, and with
`--triad both --triad-depth root --triad-open 50` those of `sudokubench solve -s fast` at
every SIMD level (fast adds the triad rules at the root when its other rules leave at least
SBT3_OPEN = 50 cells open, src/kernel/triad.h):

  propagation   naked singles, hidden singles and locked candidates (pointing and claiming,
                rows and columns) to their fixpoint; the fixpoint of these rules does not
                depend on their order, so neither does anything below;
  branch rule   src/kernel/branch.h: among the open cells with the fewest candidates, the one
                whose digits reach the most open peers, bivalue peers counted three times,
                the first in cell order on a tie;
  search        src/search/search.h's DFS: take one of the cell's digits (one guess, one
                board pushed), and when that subtree is done drop the digit and propagate
                again, then choose afresh; count solutions up to the limit. The digit is the
                lowest by default; the 9x9 engines take --digit most's (branch.h).

So `make test-guesses` can hold every kernel's per-puzzle guess count and solution count to
it (tests/guesses/check.sh). It is also a study tool (docs/performance.md, make
guess-study): which stronger rules and which branching would cut the guesses, in minutes
and before any kernel is written:

  --triad naked|hidden|both   add the triad rules to the propagation (a triad is the three
                cells where a row or column crosses a box: it holds exactly three digits);
                naked: three digits left in a triad leave the rest of its line and box;
                hidden: three digits confined to the triad by its line or by its box leave
                its cells no other digit (more than three is a contradiction);
  --triad-depth N|root  the triad rules only on boards at most N guesses deep, or on the
                root alone: where in the tree a stronger rule pays; the
                summary counts the settles and those that ran the triad rules (the cost side);
  --triad-open N  a board that takes the triad rules settles without them first, and goes on
                with them only when at least N cells are still open;
  --branch band  branch as tdoku does, on one digit's configuration in a band (the row, or
                column, it takes in each of the band's three boxes): the band with the fewest
                configurations over its digits, then its digit with the fewest (two or more),
                each configuration one child (k configurations cost k - 1 guesses). tdoku
                keeps configurations as its state, so its "not this configuration" branch is
                stronger than any cell elimination; this counts one child per configuration.
  --branch pair  the cell rule, except that when its cell has three candidates or more, a
                digit with two places left in a house is branched on instead (the house and
                digit whose two cells hold the fewest candidates, first wins): a two-way guess
                where the cell rule's is three-way or more.
  --branch line  the cell rule, or a digit with two places left in a row or column, the two
                in different boxes, when that pair reaches further: its reach is the cell
                rule's score taken over both places' peers (the open cells holding the digit,
                bivalue ones three times), and the pair wins when the rule's cell has three
                candidates or more, or when 10 x its reach beats 7 x the cell's. Its digit
                goes first to the place more of whose open peers hold it; the alternative
                takes the digit from that place (one guess, as a cell's). Pairs are looked
                for only once the search has made N guesses on the puzzle (--line-after N:
                the hard puzzles reach it, the generator's seldom do), where the rule's cell
                has 3+ candidates or scores below N (--line-below N: a weak cell, where a
                pair wins most), or on boards with N open cells or more (--line-open N).

  --digit most  the branch cell's digit to try first: the one held by the most of its open
                peers (the most constraining; the lowest such on a tie) instead of the
                lowest. On puzzles with one solution the guesses barely move (at limit 2 the
                whole tree is searched; only a cell of three or more candidates changes its
                shape); on puzzles with several the second solution comes sooner.

  --study       every combination above that the tables of docs/performance.md show (nine
                searches) on every FILE, in parallel, as one Markdown table on stdout;
                --tdoku EXE adds tdoku's own guesses (its run_benchmark, -r 0: the puzzles as
                given), --json OUT all rows as JSON (`make guess-study`).

Output: one line `count guesses` a puzzle with --per-puzzle, then a summary on stderr (or
JSON on stdout with --json). Input: 81-character lines ('.' or '0' blank, '1'-'9' given),
'#' comments and blank lines skipped; anything else is an error naming file and line.
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor

from .compare import parse_tdoku  # tdoku's CSV row, read once for both

ALL = 0x1FF
POP = [bin(i).count("1") for i in range(1 << 9)]
ROWS = [[r * 9 + c for c in range(9)] for r in range(9)]
COLS = [[r * 9 + c for r in range(9)] for c in range(9)]
BOXES = [[(3 * (b // 3) + i) * 9 + 3 * (b % 3) + j for i in range(3) for j in range(3)]
         for b in range(9)]
HOUSES = ROWS + COLS + BOXES
PEERS = [sorted({x for h in HOUSES if c in h for x in h} - {c}) for c in range(81)]


def _triads():
    """Every triad as (its 3 cells, the rest of its line, the rest of its box)."""
    out = []
    for b, box in enumerate(BOXES):
        for k in range(3):
            for line in (ROWS[3 * (b // 3) + k], COLS[3 * (b % 3) + k]):
                cells = [x for x in line if x in box]
                out.append((cells, [x for x in line if x not in cells],
                            [x for x in box if x not in cells]))
    return out


TRIADS = _triads()


def _bands():
    """Every band (3 horizontal, then 3 vertical) as tri[box][line] = that triad's cells."""
    out = []
    for lines in (ROWS, COLS):
        for i in range(3):
            tri = []
            for k in range(3):
                box = BOXES[3 * i + k] if lines is ROWS else BOXES[3 * k + i]
                tri.append([[x for x in lines[3 * i + l] if x in box] for l in range(3)])
            out.append(tri)
    return out


BANDS = _bands()
PERMS = list(itertools.permutations(range(3)))  # configuration: box k takes line p[k]


def settle(b, triad):
    """Propagates board b (81 candidate masks, bit d = digit d+1) in place to the fixpoint.
    @return False on a contradiction (an empty cell, a digit without a place in a house, a
    triad with more than three digits it must hold or fewer than three in all)."""
    placed = [False] * 81
    while True:
        changed = False
        for c in range(81):  # naked singles: a one-digit cell's digit leaves its peers
            m = b[c]
            if m == 0:
                return False
            if not placed[c] and m & (m - 1) == 0:
                placed[c] = True
                for p in PEERS[c]:
                    if b[p] & m:
                        b[p] &= ~m
                        changed = True
        if changed:
            continue
        for h in HOUSES:  # hidden singles
            for d in range(9):
                bit = 1 << d
                places = [c for c in h if b[c] & bit]
                if not places:
                    return False
                if len(places) == 1 and b[places[0]] != bit:
                    b[places[0]] = bit
                    changed = True
        if changed:
            continue
        for cells, line, box in TRIADS:  # locked candidates, then the triad rules
            u = b[cells[0]] | b[cells[1]] | b[cells[2]]
            rest_line = rest_box = 0
            for x in line:
                rest_line |= b[x]
            for x in box:
                rest_box |= b[x]
            pointing = u & ~rest_box  # confined to the triad in its box: leaves the line
            claiming = u & ~rest_line  # confined to the triad in its line: leaves the box
            if triad != "none":
                must = pointing | claiming
                if POP[u] < 3 or POP[must] > 3:
                    return False
                if triad in ("naked", "both") and POP[u] == 3:
                    pointing |= u
                    claiming |= u
                if triad in ("hidden", "both") and POP[must] == 3:
                    for x in cells:
                        if b[x] & ~must:
                            b[x] &= must
                            changed = True
            for x in line:
                if b[x] & pointing:
                    b[x] &= ~pointing
                    changed = True
            for x in box:
                if b[x] & claiming:
                    b[x] &= ~claiming
                    changed = True
        if not changed:
            return all(b)


BOX_OF = [3 * (c // 27) + c % 9 // 3 for c in range(81)]


def reach(b, cells, digits):
    """The open cells among cells holding one of digits, bivalue ones three times: the branch
    rule's measure of what a guess there takes from the board."""
    score = 0
    for p in cells:
        q = b[p]
        if q & digits and q & (q - 1):
            score += 3 if POP[q] == 2 else 1
    return score


def branch_cell(b):
    """branch.h's rule: the fewest candidates, then the best open-peer score, first wins."""
    fewest = min(POP[m] for m in b if m & (m - 1))
    best, best_score = -1, -1
    for c, m in enumerate(b):
        if POP[m] != fewest:
            continue
        score = reach(b, PEERS[c], m)
        if score > best_score:
            best, best_score = c, score
    return best


# --branch line: a line pair is taken over the cell rule's cell when 10 x its score beats
# 7 x the cell's (the ratio measured best on the hardest sample; docs/performance.md).
LINE_RATIO = (7, 10)


def line_pairs(b):
    """Yields (digit bit, p, q) for every digit with exactly two places p < q in a row or a
    column, the two in different boxes, neither placed: rows 1-9, then columns 1-9, each
    house's digits in order."""
    for h in ROWS + COLS:
        for d in range(9):
            bit = 1 << d
            places = [x for x in h if b[x] & bit]
            if (len(places) == 2 and BOX_OF[places[0]] != BOX_OF[places[1]]
                    and all(b[x] != bit for x in places)):
                yield bit, places[0], places[1]


def reach_count(b, cells, bit, other=None):
    """The open cells among cells, other (if given) aside, that hold digit bit."""
    return sum(1 for x in cells if x != other and b[x] & bit and b[x] & (b[x] - 1))


def open_cells(b):
    """The cells of b with two candidates or more."""
    return sum(m & (m - 1) != 0 for m in b)


def branch_line(b, c):
    """(cell, digit bit) of --branch line on the settled board b whose cell rule chose c, or
    None to keep c: the line pair (line_pairs) whose places' peers hold the digit most (the
    branch rule's reach over both places' peers, the places aside; the first best wins),
    when c has three candidates or more or the pair's reach beats LINE_RATIO of c's. The
    place that takes the digit first is the one more of whose open peers hold it (the other
    place aside), the first on a tie; the alternative takes the digit from it, which leaves
    the other place the digit's only one in the line."""
    best, best_score = None, -1
    for bit, p, q in line_pairs(b):
        score = reach(b, (set(PEERS[p]) | set(PEERS[q])) - {p, q}, bit)
        if score > best_score:
            best, best_score = (bit, p, q), score
    if best is None:
        return None
    if POP[b[c]] == 2 and LINE_RATIO[1] * best_score <= LINE_RATIO[0] * reach(b, PEERS[c], b[c]):
        return None
    bit, p, q = best
    more_q = reach_count(b, PEERS[q], bit, p) > reach_count(b, PEERS[p], bit, q)
    return (q if more_q else p), bit


def branch_pair(b):
    """(cell, digit bit) of --branch pair: a digit with two open places in a house, the pair
    whose two cells hold the fewest candidates, first in house and digit order on a tie; the
    first of its two cells takes the digit. None when no house has such a digit."""
    best, fewest = None, None
    for h in HOUSES:
        for d in range(9):
            bit = 1 << d
            places = [x for x in h if b[x] & bit]
            if len(places) != 2 or any(b[x] == bit for x in places):
                continue
            n = POP[b[places[0]]] + POP[b[places[1]]]
            if fewest is None or n < fewest:
                best, fewest = (places[0], bit), n
    return best


def configurations(b, tri, d):
    """Digit d's configurations in band tri: permutations p with a place for d in every
    triad (box k, line p[k])."""
    bit = 1 << d
    has = [[any(b[x] & bit for x in tri[k][l]) for l in range(3)] for k in range(3)]
    return [p for p in PERMS if has[0][p[0]] and has[1][p[1]] and has[2][p[2]]]


def branch_band(b):
    """(band, digit, its configurations): the band with the fewest configurations over its
    digits among those not fixed, then its digit with the fewest (two or more), first wins."""
    best = None
    for tri in BANDS:
        confs = [configurations(b, tri, d) for d in range(9)]
        total = sum(len(x) for x in confs)
        if total > 9 and (best is None or total < best[0]):
            best = (total, tri, confs)
    _, tri, confs = best
    d = min((d for d in range(9) if len(confs[d]) >= 2), key=lambda d: len(confs[d]))
    return tri, d, confs[d]


def take_configuration(b, tri, d, p):
    """Digit d leaves every triad of band tri that configuration p does not use."""
    for k in range(3):
        for l in range(3):
            if l != p[k]:
                for x in tri[k][l]:
                    b[x] &= ~(1 << d)


def first_digit(b, c):
    """--digit most: the digit bit of cell c held by the most open peers (the lowest on a
    tie)."""
    best, best_n = 0, -1
    for d in range(9):
        bit = 1 << d
        if b[c] & bit:
            n = reach_count(b, PEERS[c], bit)
            if n > best_n:
                best, best_n = bit, n
    return best


class Search:
    """One puzzle's search: solutions counted up to limit (0 = all), guesses as search.h.
    depth: None (the triad rules, if any, on every board), "root" (on the root only) or N
    (on the boards at most N guesses deep; the root is depth 0, a guess's child one deeper,
    the board that drops the guessed digit as deep as the board it was taken from). opening:
    a board that takes the triad rules takes them only when at least that many cells are open
    at the fixpoint of the other rules (0: always). line_open, line_after, line_below: with
    branch "line", the pairs only on boards with that many open cells, once the search has
    made that many guesses, where the rule's cell scores below that (0: no such limit)."""

    def __init__(self, limit, triad, branch, depth=None, opening=0, digit="low", line_open=0,
                 line_after=0, line_below=0):
        self.limit, self.triad, self.branch, self.depth = limit, triad, branch, depth
        self.opening, self.digit = opening, digit
        self.line_open, self.line_after, self.line_below = line_open, line_after, line_below
        self.count = self.guesses = self.settles = self.triad_settles = 0

    def done(self):
        return self.limit and self.count >= self.limit

    def rule(self, depth):
        """The triad rule of a board depth guesses deep, or of the root ("root")."""
        if self.depth is None:
            return self.triad
        if self.depth == "root":
            return self.triad if depth == "root" else "none"
        return self.triad if depth == "root" or depth <= self.depth else "none"

    def settle(self, b, depth):
        """settle() with the triad rule of depth, counted (the cost side of a depth study)."""
        rule = self.rule(depth)
        self.settles += 1
        if rule != "none" and self.opening:
            if not settle(b, "none"):
                return False
            if open_cells(b) < self.opening:
                return True
        self.triad_settles += rule != "none"
        return settle(b, rule)

    def run(self, b, depth=0):
        """Searches the settled board b (which it may change), depth guesses deep."""
        while True:
            if all(m & (m - 1) == 0 for m in b):
                self.count += 1
                return
            if self.branch == "band":
                tri, d, confs = branch_band(b)
                self.guesses += len(confs) - 1
                for p in confs:
                    child = b[:]
                    take_configuration(child, tri, d, p)
                    if self.settle(child, depth + 1):
                        self.run(child, depth + 1)
                        if self.done():
                            return
                return
            c = branch_cell(b)
            digit = first_digit(b, c) if self.digit == "most" else b[c] & -b[c]
            if self.branch == "pair" and POP[b[c]] >= 3:
                c, digit = branch_pair(b) or (c, digit)
            if (self.branch == "line" and self.guesses >= self.line_after
                    and self.line_open <= open_cells(b)
                    and (not self.line_below or POP[b[c]] > 2
                         or reach(b, PEERS[c], b[c]) < self.line_below)):
                c, digit = branch_line(b, c) or (c, digit)
            child = b[:]
            child[c] = digit
            self.guesses += 1
            if self.settle(child, depth + 1):
                self.run(child, depth + 1)
                if self.done():
                    return
            b[c] &= ~digit
            if not self.settle(b, depth):
                return


def puzzle_lines(path):
    """Yields (line number, text) of every puzzle line of path, checked."""
    with open(path, encoding="ascii", errors="replace") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            if len(s) != 81 or any(ch not in ".0123456789" for ch in s):
                raise ValueError(f"{path}:{n}: not an 81-cell puzzle line")
            yield n, s


def parse(path):
    """Yields (line number, board) of every puzzle line of path."""
    for n, s in puzzle_lines(path):
        yield n, [ALL if ch in ".0" else 1 << (int(ch) - 1) for ch in s]


def solve(b, limit=2, triad="none", branch="cell", depth=None, opening=0, digit="low",
          line_open=0, line_after=0, line_below=0):
    """The finished Search of the puzzle board b (count up to limit, guesses, settles); the
    other arguments as Search's."""
    s = Search(limit, triad, branch, depth, opening, digit, line_open, line_after, line_below)
    if s.settle(b, "root"):
        s.run(b)
    return s


def run_file(path, limit=2, triad="none", branch="cell", most=0, per_puzzle=False, depth=None,
             opening=0, digit="low", line_open=0, line_after=0, line_below=0):
    """One search over the puzzles of path: its summary row (and the per-puzzle lines)."""
    puzzles = guesses = settles = triad_settles = 0
    lines = []
    for _, b in parse(path):
        if most and puzzles >= most:
            break
        s = solve(b, limit, triad, branch, depth, opening, digit, line_open, line_after,
                  line_below)
        if per_puzzle:
            lines.append(f"{s.count} {s.guesses}")
        puzzles += 1
        guesses += s.guesses
        settles += s.settles
        triad_settles += s.triad_settles
    n = puzzles or 1
    return {"file": path, "puzzles": puzzles, "guesses": guesses,
            "guesses_per_puzzle": guesses / n, "settles_per_puzzle": settles / n,
            "triad_settles_per_puzzle": triad_settles / n,
            "triad": triad, "triad_depth": "all" if depth is None else depth,
            "triad_open": opening, "branch": branch, "line_open": line_open,
            "line_after": line_after, "line_below": line_below, "digit": digit,
            "limit": limit}, lines


# fast's gate: src/kernel/triad.h's SBT3_OPEN (make test-guesses runs the model with the
# header's value and holds the study's fast row to it).
FAST_OPEN = 50
# fast's line pairs: src/kernel/line.h's SBL_AFTER (the guesses a search makes before they
# join the rule) and SBL_BELOW (the cell score below which they are looked for), held to the
# header as FAST_OPEN is.
FAST_LINE_AFTER = 8
FAST_LINE_BELOW = 13

# The study's searches, in the order of its table: (label, triad, branch, triad depth, open,
# digit, line pairs after, line pairs below). The cell rule tries the 9x9 engines' first
# digit; band branching has no branch cell.
STUDY = [
    ("cell rule, no triads (ns,hs,lc)", "none", "cell", None, 0, "most", 0, 0),
    ("cell rule + line pairs + both at the root (fast)", "both", "line", "root", FAST_OPEN,
     "most", FAST_LINE_AFTER, FAST_LINE_BELOW),
    ("cell rule + both at the root", "both", "cell", "root", FAST_OPEN, "most", 0, 0),
    ("cell rule + naked triads", "naked", "cell", None, 0, "most", 0, 0),
    ("cell rule + hidden triads", "hidden", "cell", None, 0, "most", 0, 0),
    ("cell rule + both", "both", "cell", None, 0, "most", 0, 0),
    ("band branching, no triads", "none", "band", None, 0, "low", 0, 0),
    ("band branching + hidden triads", "hidden", "band", None, 0, "low", 0, 0),
    ("band branching + both", "both", "band", None, 0, "low", 0, 0),
]


def tdoku_guesses(exe, path, most):
    """Guesses a puzzle of tdoku's run_benchmark on path as given (-r 0), its CSV's last field;
    on the first `most` puzzles (0 = all) as the model's rows, through a temporary file."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as tmp:
        if most:
            for _, s in itertools.islice(puzzle_lines(path), most):
                tmp.write(s + "\n")
            tmp.flush()
        out = subprocess.run([exe, "-s", "tdoku", "-t", "1", "-w", "1", "-c", "1", "-r", "0",
                              tmp.name if most else path],
                             capture_output=True, text=True, check=True).stdout
    return parse_tdoku(out)["guesses_per_puzzle"]


def study(files, limit, most, tdoku):
    """The STUDY table over files (Markdown lines) and its rows."""
    jobs = [(f, label, triad, branch, depth, opening, digit, after, below)
            for label, triad, branch, depth, opening, digit, after, below in STUDY
            for f in files]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        futures = [pool.submit(run_file, f, limit, triad, branch, most, False, depth, opening,
                               digit, 0, after, below)
                   for f, _, triad, branch, depth, opening, digit, after, below in jobs]
        rows = []
        for (f, label, *_), fut in zip(jobs, futures):
            row = fut.result()[0]
            row["search"] = label
            rows.append(row)
    names = [os.path.basename(f) for f in files]
    md = ["| search | " + " | ".join(names) + " |", "|---|" + "---:|" * len(files)]
    for label, *_ in STUDY:
        got = {r["file"]: r for r in rows if r["search"] == label}
        md.append(f"| {label} | " +
                  " | ".join(f"{got[f]['guesses_per_puzzle']:.2f}" for f in files) + " |")
    if tdoku:
        peer = []
        for f in files:
            g = tdoku_guesses(tdoku, f, most)
            peer.append(f"{g:.2f}")
            rows.append({"file": f, "search": "tdoku", "exe": tdoku, "guesses_per_puzzle": g})
        md.append("| tdoku (run_benchmark -r 0) | " + " | ".join(peer) + " |")
    puzzles = {r["file"]: r["puzzles"] for r in rows if "puzzles" in r}
    md.append("")
    md.append("Guesses a puzzle, limit " + str(limit) + "; puzzles: " +
              ", ".join(f"{os.path.basename(f)} {puzzles[f]}" for f in files) + ".")
    return md, rows


def main():
    head, _, rest = __doc__.partition("\n\n")
    ap = argparse.ArgumentParser(description=head, epilog=rest,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", metavar="FILE")
    ap.add_argument("-l", "--limit", type=int, default=2,
                    help="count solutions up to N, 0 = all (default %(default)s)")
    ap.add_argument("-n", "--max", type=int, default=0,
                    help="the first N puzzles of each file only (default all)")
    ap.add_argument("--triad", choices=["none", "naked", "hidden", "both"], default="none",
                    help="triad rules added to the propagation (default %(default)s)")
    ap.add_argument("--triad-depth", metavar="N|root",
                    help="with --triad: the rules only on boards at most N guesses deep (0: the "
                         "root and the boards that drop its guessed digits), or on the root "
                         "alone (default every board)")
    ap.add_argument("--triad-open", metavar="N", type=int, default=0,
                    help="with --triad: a board that takes the rules settles without them "
                         "first and goes on with them only when at least N cells are still "
                         "open (fast: "
                         f"{FAST_OPEN}; default %(default)s, always)")
    ap.add_argument("--branch", choices=["cell", "band", "pair", "line"], default="cell",
                    help="branching: branch.h's cell rule, a digit's band configuration, "
                         "the cell rule with a digit's two places in a house for its 3+ cells, "
                         "or the cell rule with a digit's two places in a line where they "
                         "reach further (default %(default)s)")
    ap.add_argument("--line-open", metavar="N", type=int, default=0,
                    help="with --branch line: the line pairs only on boards with at least N "
                         "open cells (default %(default)s, every board)")
    ap.add_argument("--line-after", metavar="N", type=int, default=0,
                    help="with --branch line: the line pairs only once the search has made N "
                         "guesses on the puzzle (fast: "
                         f"{FAST_LINE_AFTER}; default %(default)s, from the first)")
    ap.add_argument("--line-below", metavar="N", type=int, default=0,
                    help="with --branch line: the line pairs only where the cell rule's cell "
                         "has three candidates or more or scores below N (fast: "
                         f"{FAST_LINE_BELOW}; default %(default)s, everywhere)")
    ap.add_argument("--digit", choices=["low", "most"], default="low",
                    help="with --branch cell, pair or line: the branch cell's digit tried "
                         "first, its lowest or the one most of its open peers hold (default "
                         "%(default)s)")
    ap.add_argument("--per-puzzle", action="store_true",
                    help="print `count guesses` for every puzzle")
    ap.add_argument("--json", nargs="?", const="-", metavar="OUT",
                    help="the summary as JSON on stdout, or into OUT with --study")
    ap.add_argument("--study", action="store_true",
                    help="the nine searches of the study on every FILE, as a Markdown table")
    ap.add_argument("--tdoku", metavar="EXE",
                    help="with --study: tdoku's run_benchmark, whose guesses make one more row")
    a = ap.parse_args()
    if a.tdoku and not a.study:
        ap.error("--tdoku goes with --study")
    if a.tdoku and not os.access(a.tdoku, os.X_OK):
        ap.error(f"--tdoku {a.tdoku}: not an executable file")
    depth = None
    if a.triad_depth is not None:
        if a.triad == "none":
            ap.error("--triad-depth goes with --triad")
        if a.triad_depth == "root":
            depth = "root"
        elif a.triad_depth.isdigit():
            depth = int(a.triad_depth)
        else:
            ap.error(f"--triad-depth {a.triad_depth}: not a depth (0, 1, ...) or root")
    if a.digit != "low" and a.branch == "band":
        ap.error("--digit goes with --branch cell, pair or line")
    if (a.line_open or a.line_after or a.line_below) and a.branch != "line":
        ap.error("--line-open, --line-after and --line-below go with --branch line")
    if a.line_below < 0:
        ap.error(f"--line-below {a.line_below}: not a score (0 or more)")
    if a.line_after < 0:
        ap.error(f"--line-after {a.line_after}: not a guess count (0 or more)")
    if not 0 <= a.line_open <= 82:
        ap.error(f"--line-open {a.line_open}: not a cell count (0 to 82)")
    if a.triad_open and a.triad == "none":
        ap.error("--triad-open goes with --triad")
    if not 0 <= a.triad_open <= 82:
        ap.error(f"--triad-open {a.triad_open}: not a cell count (0 to 82)")
    if a.study and a.json == "-":
        ap.error("--study writes its JSON into a file: --json OUT")
    summary = []
    try:
        if a.study:
            for path in a.files:  # every file readable and well formed before the long run
                for _ in parse(path):
                    pass
            md, rows = study(a.files, a.limit, a.max, a.tdoku)
            print("\n".join(md))
            if a.json:
                with open(a.json, "w") as f:
                    json.dump(rows, f, indent=1)
                    f.write("\n")
            return
        for path in a.files:
            row, lines = run_file(path, a.limit, a.triad, a.branch, a.max, a.per_puzzle, depth,
                                  a.triad_open, a.digit, a.line_open, a.line_after,
                                  a.line_below)
            if lines:
                print("\n".join(lines))
            summary.append(row)
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        sys.exit(f"guess_model.py: {e}")
    if a.json:
        json.dump(summary, sys.stdout, indent=1)
        print()
    else:
        for s in summary:
            print(f"{s['file']}: {s['puzzles']} puzzles, {s['guesses_per_puzzle']:.2f} guesses a "
                  f"puzzle, {s['settles_per_puzzle']:.2f} settles ({s['triad_settles_per_puzzle']:.2f} "
                  f"with triads; triad {s['triad']}"
                  + (f" at depth {s['triad_depth']}" if s['triad'] != "none" else "")
                  + (f", {s['triad_open']}+ open" if s['triad_open'] else "")
                  + f", branch {s['branch']}"
                  + (f" at {s['line_open']}+ open" if s['line_open'] else "")
                  + (f" after {s['line_after']} guesses" if s['line_after'] else "")
                  + (f" below a cell score of {s['line_below']}" if s['line_below'] else "")
                  + (f", digit {s['digit']}" if s['digit'] != "low" else "")
                  + f", limit {s['limit']})",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
