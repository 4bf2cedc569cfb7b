"""pytest suite of the Python package: results against the CLI (same library, other path),
against independent checks written here (solution rules, brute-force counts), and the
package's own contracts (input forms, errors naming the line, GIL released while solving).

Run by `make test-python` (SB_CLI names the CLI binary, PYTHONPATH the built package)."""
import errno
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import sudokubench as sb

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "datasets" / "samples"
from pencilmarks import pencilmarks  # noqa: E402  (tests/pencilmarks.py on PYTHONPATH, shared with forms.sh)
CLI = os.environ.get("SB_CLI", str(ROOT / "build" / "sudokubench"))
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def cli(*args, stdin=None):
    """Runs the CLI, returns its stdout (text); fails the test on an unexpected exit."""
    p = subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, check=False)
    assert p.returncode in (0, 1), p.stderr
    return p.stdout


def valid_solution(puzzle, solution):
    """Independent check: every house a permutation of 1..9 and every given kept."""
    g = solution.reshape(9, 9)
    want = set(range(1, 10))
    houses = [g[r, :] for r in range(9)] + [g[:, c] for c in range(9)]
    houses += [g[3 * (b // 3):3 * (b // 3) + 3, 3 * (b % 3):3 * (b % 3) + 3].ravel() for b in range(9)]
    if any(set(h.tolist()) != want for h in houses):
        return False
    given = puzzle != 0
    return bool((solution[given] == puzzle[given]).all())


def brute_count(puzzle):
    """Counts solutions by plain backtracking over the blanks (for puzzles with few blanks)."""
    g = [int(v) for v in puzzle]

    def ok(c, d):
        r, k = divmod(c, 9)
        for i in range(9):
            if g[9 * r + i] == d or g[9 * i + k] == d:
                return False
        br, bk = 3 * (r // 3), 3 * (k // 3)
        return all(g[9 * (br + i) + bk + j] != d for i in range(3) for j in range(3))

    def count():
        try:
            c = g.index(0)
        except ValueError:
            return 1
        total = 0
        for d in range(1, 10):
            if ok(c, d):
                g[c] = d
                total += count()
                g[c] = 0
        return total

    return count()


def sample(name, n):
    return sb.read(SAMPLES / name)[:n]


def test_solve_one_string():
    counts, guesses, solutions = sb.solve([PUZZLE])
    assert counts.tolist() == [1]
    assert solutions.shape == (1, 81) and solutions.dtype == np.uint8
    assert valid_solution(sb.parse([PUZZLE])[0], solutions[0])
    assert counts.dtype == np.uint64 and guesses.dtype == np.uint64


def test_solve_matches_cli_and_rules():
    path = SAMPLES / "top1465.txt"
    puzzles = sb.read(path)
    res = sb.solve(puzzles, limit=2)
    rows = cli("solve", "-f", "csv", "-l", "2", "-t", "1", str(path)).splitlines()[1:]
    assert len(rows) == len(puzzles) == 1465
    for i, row in enumerate(rows):
        line, status, count, guesses, solution = row.split(",")
        assert int(count) == res.counts[i] and int(guesses) == res.guesses[i], row
        if status == "solved":
            assert sb.to_strings(res.solutions[i])[0] == solution
            assert valid_solution(puzzles[i], res.solutions[i])
        else:
            assert not res.solutions[i].any()


def test_strings_and_numpy_and_threads_agree():
    puzzles = sample("hardest_11plus_1000.txt", 200)
    strings = sb.to_strings(puzzles)
    a = sb.solve(strings, threads=1)
    b = sb.solve(puzzles, threads=2)
    c = sb.solve(puzzles.astype(np.int64), threads=0)
    d = sb.solve([list(row) for row in puzzles], threads=3)
    for x, y in ((a, b), (a, c), (a, d)):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)


def test_counts_against_brute_force():
    rng = np.random.default_rng(7)
    full = sb.solve([PUZZLE]).solutions[0]
    for trial in range(12):
        p = full.copy()
        p[rng.choice(81, size=7 + trial % 5, replace=False)] = 0
        counts = sb.solve(p, limit=0).counts
        assert counts[0] == brute_count(p)
    r = sb.solve(np.zeros((1, 81), np.uint8), limit=5)
    assert r.counts[0] == 5 and valid_solution(np.zeros(81, np.uint8), r.solutions[0])


def test_unsolvable_and_multiple():
    bad = "11" + "." * 79  # two 1s in row 0
    multi = "." * 81
    r = sb.solve([bad, multi, PUZZLE], limit=2)
    assert r.counts.tolist() == [0, 2, 1]
    assert not r.solutions[0].any()
    assert sb.validate([bad, multi, PUZZLE]).tolist() == [False, False, True]


def test_pipelines_agree_and_bad_ones_refused():
    puzzles = sample("top1465.txt", 100)
    fast = sb.solve(puzzles)
    for name in ("list", "restart", "array:ns,hs"):
        other = sb.solve(puzzles, pipeline=name)
        np.testing.assert_array_equal(fast.counts, other.counts)
        np.testing.assert_array_equal(fast.solutions, other.solutions)
    with pytest.raises(ValueError, match="unknown pipeline 'nope'"):
        sb.solve(puzzles, pipeline="nope")
    with pytest.raises(ValueError, match="unknown SIMD level"):
        sb.solve(puzzles, simd="mmx")


def test_parse_errors_name_the_line():
    with pytest.raises(sb.ParseError) as e:
        sb.solve([PUZZLE, PUZZLE, PUZZLE[:40] + "x" + PUZZLE[41:]])
    assert e.value.line == 3 and e.value.column == 41
    assert str(e.value) == "line 3, column 41: invalid puzzle: unexpected character 'x'"
    with pytest.raises(sb.ParseError, match=r"line 2, column 12: invalid puzzle: too few cells \(11 of 81\)"):
        sb.parse(PUZZLE + "\n12345678912\n")
    with pytest.raises(ValueError, match="shape"):
        sb.solve(np.zeros((2, 80), np.uint8))
    with pytest.raises(ValueError, match="puzzle 1: cells must be 0..9"):
        sb.solve(np.array([[0] * 81, [10] + [0] * 80], np.uint8))


def test_read_reports_file_line_column(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(f"# a comment\n{PUZZLE}\n\n{PUZZLE[:80]}z\n")
    with pytest.raises(sb.ParseError) as e:
        sb.read(f)
    assert str(e.value) == f"{f}:4:81: invalid puzzle: unexpected character 'z'"
    with pytest.raises(OSError):
        sb.read(tmp_path / "missing.txt")


def test_one_string_of_lines_skips_comments():
    text = f"# header\n{PUZZLE}\n\n{PUZZLE}\r\n"
    arr = sb.parse(text)
    assert arr.shape == (2, 81)
    assert sb.to_strings(arr) == [PUZZLE, PUZZLE]


def test_rate_matches_cli():
    path = SAMPLES / "top1465.txt"
    puzzles = sb.read(path)[:300]
    classes = sb.rate(puzzles)
    text = "\n".join(sb.to_strings(puzzles)) + "\n"
    rows = cli("rate", "-f", "csv", "-t", "1", stdin=text).splitlines()
    header = rows[0].split(",")
    col = header.index("class")
    names = [row.split(",")[col] for row in rows[1:]]
    assert [sb.CLASSES[c] for c in classes] == names


def test_generate_matches_cli_and_is_proper():
    g = sb.generate(40, seed=11, symmetry="rot180", threads=2)
    want = cli("generate", "-n", "40", "--seed", "11", "--symmetry", "rot180").split()
    assert sb.to_strings(g.puzzles) == want
    assert sb.validate(g.puzzles).all()
    for p, s in zip(g.puzzles, g.solutions):
        assert valid_solution(p, s)
        given = (p != 0).reshape(9, 9)
        assert (given == given[::-1, ::-1]).all()  # rot180 clue pattern
    np.testing.assert_array_equal(g.guesses, sb.solve(g.puzzles).guesses)
    again = sb.generate(10, seed=11, symmetry="rot180", first=30, threads=1)
    np.testing.assert_array_equal(again.puzzles, g.puzzles[30:])
    with pytest.raises(ValueError, match="unknown symmetry"):
        sb.generate(1, symmetry="spiral")


def test_augment_matches_cli_and_keeps_counts():
    base = sample("17_clue_2000.txt", 7)
    out = sb.augment(base, 50, seed=5)
    text = "\n".join(sb.to_strings(base)) + "\n"
    assert sb.to_strings(out) == cli("augment", "-n", "50", "--seed", "5", stdin=text).split()
    base_counts = sb.solve(base, limit=0).counts
    np.testing.assert_array_equal(sb.solve(out, limit=0).counts, np.resize(base_counts, 50))
    for i in range(50):  # same number of givens as the source puzzle
        assert (out[i] != 0).sum() == (base[i % 7] != 0).sum()


def test_gil_released_while_solving():
    hard = np.tile(sample("hardest_11plus_1000.txt", 1000), (4, 1))
    state = {"in_call": False, "ticks": 0}

    def work():
        state["in_call"] = True
        sb.solve(hard, threads=1)
        state["in_call"] = False

    t = threading.Thread(target=work)
    t.start()
    while t.is_alive():
        if state["in_call"]:
            state["ticks"] += 1
    t.join()
    # With the GIL held through the call this thread would run a few switch intervals at most.
    assert state["ticks"] > 1000, state


def test_read_forms_round_trip(tmp_path):
    """The CLI's own -f pretty and -f tdoku output read back to the same puzzles, as do
    nine-line grids and tdoku lines given to parse()."""
    puzzles = sample("top1465.txt", 40)
    src = tmp_path / "p.txt"
    src.write_text("\n".join(sb.to_strings(puzzles)) + "\n")
    for fmt in ("pretty", "tdoku"):
        out = tmp_path / f"p.{fmt}"
        out.write_text(cli("solve", "-f", fmt, str(src)))
        np.testing.assert_array_equal(sb.read(out), puzzles)
    rows = "\n".join(PUZZLE[i:i + 9] for i in range(0, 81, 9))
    assert sb.to_strings(sb.parse(rows + "\n\n" + rows)) == [PUZZLE, PUZZLE]
    tdoku = cli("solve", "-f", "tdoku", stdin=PUZZLE + "\n").strip()
    assert sb.to_strings(sb.parse([tdoku])) == [PUZZLE]


def test_pencilmarks_read_as_their_givens_or_refused(tmp_path):
    """A pencilmark line that says no more than its givens is that puzzle (in a list, a
    string and a file, and as the CLI's tdoku record of it); one that eliminates more cannot
    be an (n, 81) row: ParseError naming the line and the first such mark (the CLI solves
    those, docs/cli.md)."""
    line = pencilmarks(PUZZLE)
    assert sb.to_strings(sb.parse([line])) == [PUZZLE]
    assert sb.to_strings(sb.parse(line + "\n" + PUZZLE + "\n")) == [PUZZLE, PUZZLE]
    f = tmp_path / "pm.tdoku"
    f.write_text(cli("solve", "-f", "tdoku", stdin=line + "\n"))
    assert f.read_text().startswith(line + ":1:")
    assert sb.to_strings(sb.read(f)) == [PUZZLE]
    cell = PUZZLE.index(".")
    digit = next(d for d in range(1, 10) if line[9 * cell + d - 1] != ".")
    extra = pencilmarks(PUZZLE, {(cell, digit)})
    with pytest.raises(sb.ParseError) as e:
        sb.parse([PUZZLE, extra])
    assert e.value.line == 2 and e.value.column == 9 * cell + digit
    assert e.value.reason == f"pencilmarks: elimination beyond the givens (r1c{cell + 1})"
    f.write_text(PUZZLE + "\n" + extra + "\n")
    with pytest.raises(sb.ParseError, match=f":2:{9 * cell + digit}: invalid puzzle: pencilmarks"):
        sb.read(f)


def test_threads_that_cannot_start_raise_sudoku_error():
    """With too little address space for 1024 thread stacks (the most a call takes), every
    batch call raises SudokuError naming the cause (the OpenMP runtime would have ended the
    interpreter), and the interpreter goes on: the same calls on 2 threads still work under that limit."""
    code = """
import resource, numpy as np, sudokubench as sb
vm = next(int(l.split()[1]) << 10 for l in open('/proc/self/status') if l.startswith('VmSize:'))
resource.setrlimit(resource.RLIMIT_AS, (vm + (512 << 20), resource.RLIM_INFINITY))
cells = sb.read(%r)[:2000]
calls = {'solve': lambda t: sb.solve(cells, threads=t), 'rate': lambda t: sb.rate(cells, threads=t),
         'generate': lambda t: sb.generate(2000, threads=t),
         'augment': lambda t: sb.augment(cells, 2000, threads=t),
         'bench': lambda t: sb.bench(cells, threads=t, seconds=0)}
for name, call in calls.items():
    try:
        call(1024)
        print(name, 'no error')
    except sb.SudokuError as e:
        print(e)
    call(2)
print('survived')
""" % str(SAMPLES / "17_clue_2000.txt")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300, env=dict(os.environ, OPENBLAS_NUM_THREADS="1"), check=False)
    assert p.returncode == 0, p.stderr
    why = os.strerror(errno.EAGAIN)
    assert p.stdout.splitlines() == [f"{name}: could not start the threads: {why}"
                                     for name in ("solve", "rate", "generate", "augment",
                                                  "bench")] + [
        "survived"], p.stdout + p.stderr


def test_bench_verdicts_are_the_counts_verdicts():
    """bench() (the library's sb_bench calls) gives every puzzle the verdict of its count by
    solve(limit=2) (unsolvable, unique, multiple) and the same guesses, for the fused kernel
    and a generic pipeline on several thread counts, and times at least one whole pass."""
    puzzles = np.concatenate([sample("top1465.txt", 300),
                              sb.parse(["11" + "." * 79, "." * 81, PUZZLE])])
    for pipeline, threads in (("fast", 1), ("fast", 3), ("list", 2)):
        res = sb.solve(puzzles, limit=2, pipeline=pipeline, threads=1)
        want = np.minimum(res.counts, 2).astype(np.int64)
        r = sb.bench(puzzles, pipeline=pipeline, threads=threads, seconds=0)
        assert r.verdicts.tolist() == want.tolist(), pipeline
        assert r.verdict_counts.tolist() == np.bincount(want, minlength=3).tolist()
        assert r.verdict_counts.tolist()[0] >= 1 and r.verdict_counts.tolist()[2] >= 1
        assert r.guesses == int(res.guesses.sum()), pipeline
        assert r.no_guess == int((res.guesses == 0).sum()), pipeline
        assert r.passes >= 1 and r.seconds > 0 and r.puzzles_per_second > 0
        assert r.simd in ("scalar", "sse4", "avx2", "avx512bw", "avx512", "neon")
        assert r.eliminations.shape == (len(sb.TECHNIQUES),)
    assert r.eliminations.sum() > 0  # the generic pipeline's techniques did the work
    # limit 1 stops at the first solution, as solve(limit=1): the empty grid counts one
    r = sb.bench([PUZZLE, "." * 81], limit=1, seconds=0)
    assert r.verdicts.tolist() == np.minimum(sb.solve([PUZZLE, "." * 81], limit=1).counts,
                                             2).tolist() == [1, 1]


def test_bench_counts_technique_calls(tmp_path):
    """bench().calls: how many times each technique ran, equal to the CLI's `calls` in
    `bench --json` on the same puzzles; in fast+xw,sky (restart order) sky runs only when xw
    found nothing, no other technique runs, and plain fast runs none."""
    puzzles = sample("hardest_11plus_1000.txt", 20)
    names = list(sb.TECHNIQUES)
    r = sb.bench(puzzles, pipeline="fast+xw,sky", threads=1, seconds=0)
    assert r.calls.shape == (len(names),) and r.calls.dtype == np.uint64
    xw, sky = r.calls[names.index("xw")], r.calls[names.index("sky")]
    assert xw >= sky > 0
    assert r.eliminations[names.index("sky")] > 0
    assert sum(int(c) for t, c in zip(names, r.calls) if t not in ("xw", "sky")) == 0
    path = tmp_path / "hard.txt"
    path.write_text("".join("".join(str(v) if v else "." for v in p) + "\n" for p in puzzles))
    cli("bench", "-t", "1", "--seconds", "0", "--pipeline", "fast+xw,sky", "--json",
        str(tmp_path / "b.json"), str(path))
    row = json.loads((tmp_path / "b.json").read_text())["rows"][0]
    assert [row["techniques"][t]["calls"] for t in names] == r.calls.tolist()
    assert not sb.bench(puzzles, pipeline="fast", threads=1, seconds=0).calls.any()


def test_pair_policies_give_the_same_results_and_bench_counts_what_they_paired(tmp_path,
                                                                           monkeypatch):
    """pair= ("auto", "on", "off") changes how the fast pipeline's avx2 search is scheduled,
    never what it finds: counts, guesses and solutions equal the scalar reference's at every
    level this CPU runs. bench().paired counts the puzzles handed to the paired kernel: every
    one under "on" at avx2, none under "auto", "off" or at another level, as the CLI's bench
    reports (paired_pct) on the same puzzles under "auto"."""
    monkeypatch.delenv("SUDOKUBENCH_PAIR", raising=False)  # "auto" would read it
    assert sb.PAIR_POLICIES == ("auto", "on", "off")
    puzzles = np.concatenate([sample("17_clue_2000.txt", 130),
                              sample("hardest_11plus_1000.txt", 70)])
    n = len(puzzles)
    ref = sb.solve(puzzles, threads=1, simd="scalar", pair="off")
    for level in ("sse4", "avx2", "avx512bw", "avx512", "neon"):
        try:
            sb.solve([PUZZLE], simd=level)
        except sb.SudokuError:
            continue  # not on this CPU
        for pair in sb.PAIR_POLICIES:
            got = sb.solve(puzzles, threads=1, simd=level, pair=pair)
            what = f"{level} pair={pair}"
            assert got.counts.tolist() == ref.counts.tolist(), what
            assert got.guesses.tolist() == ref.guesses.tolist(), what
            assert np.array_equal(got.solutions, ref.solutions), what
            r = sb.bench(puzzles, threads=1, simd=level, pair=pair, seconds=0)
            assert r.guesses == int(ref.guesses.sum()), what
            assert r.paired == (n if level == "avx2" and pair == "on" else 0), what
            if level == "avx2" and pair == "auto":
                path = tmp_path / "p.txt"
                path.write_text("\n".join(sb.to_strings(puzzles)) + "\n")
                cli("bench", "-t", "1", "--seconds", "0", "--simd", "avx2", "--pipelines",
                    "fast", "--json", str(tmp_path / "b.json"), str(path))
                row = json.loads((tmp_path / "b.json").read_text())["rows"][0]
                assert row["paired_pct"] == 0, what
    with pytest.raises(ValueError, match="unknown pair policy 'yes'"):
        sb.solve([PUZZLE], pair="yes")
    with pytest.raises(TypeError, match="pair must be a string, not None"):
        sb.bench([PUZZLE], pair=None)


def test_bench_refuses_bad_arguments():
    with pytest.raises(ValueError, match="at least one puzzle"):
        sb.bench(np.zeros((0, 81), np.uint8))
    with pytest.raises(ValueError, match="seconds"):
        sb.bench([PUZZLE], seconds=-1)
    with pytest.raises(ValueError, match="unknown pipeline"):
        sb.bench([PUZZLE], pipeline="nope")
    with pytest.raises(ValueError, match="shape"):
        sb.bench(np.zeros((1, 16), np.uint8))


def test_generate_and_augment_refuse_indices_past_2_64():
    """first + n - 1 must stay below 2**64, as `generate --first` demands: no silent wrap."""
    last = 2**64 - 1
    with pytest.raises(ValueError, match=f"first {last - 1} with n 3 passes the last index"):
        sb.generate(3, first=last - 1)
    with pytest.raises(ValueError, match="passes the last index"):
        sb.augment([PUZZLE], 2, first=last)
    with pytest.raises(ValueError, match="first must be an integer"):
        sb.generate(1, first=2**64)
    with pytest.raises(ValueError, match="seed must be an integer"):
        sb.generate(1, seed=-1)
    g = sb.generate(2, first=last - 1)  # the last two indices are fine
    assert sb.to_strings(g.puzzles) == cli("generate", "-n", "2", "--first", str(last - 1)).split()
    assert sb.augment([PUZZLE], 1, first=last).shape == (1, 81)


def test_read_refuses_what_open_refuses(tmp_path):
    """A path with a NUL byte is refused (C would open the path cut at the NUL), a directory
    says so with its errno and name, a missing file too."""
    f = tmp_path / "p.txt"
    f.write_text(PUZZLE + "\n")
    with pytest.raises(ValueError, match="null byte"):
        sb.read(str(f) + "\0zz")
    with pytest.raises(IsADirectoryError) as e:
        sb.read(tmp_path)
    assert e.value.errno == errno.EISDIR and e.value.filename == str(tmp_path)
    with pytest.raises(FileNotFoundError) as e:
        sb.read(tmp_path / "missing.txt")
    assert e.value.filename == str(tmp_path / "missing.txt")
    assert sb.to_strings(sb.read(os.fsencode(f))) == [PUZZLE]


# Ticks of library CPU before the signal: a fraction of each call's work (interrupt_child.py),
# and many times what a prompt stop costs after it. augment does least work per byte, so its
# call is the shortest the memory allows and its trigger comes earliest.
INTERRUPT_TICKS = {"solve": 10, "rate": 10, "generate": 10, "augment": 3, "bench": 10}


@pytest.mark.parametrize("op", ["solve", "rate", "generate", "augment", "bench"])
def test_ctrl_c_stops_a_long_call(op):
    """Ctrl-C in the middle of a long call (an endless count, 100,000 ratings, 200,000
    minimal puzzles, 2,000,000 transforms) ends it with KeyboardInterrupt out of that call,
    having abandoned the work: the CPU spent after the signal is less than the library had
    spent before it (a call that finished its work first would spend many times more). The
    signal is sent from inside the work (the library's threads have done INTERRUPT_TICKS of
    it), never after a sleep; the timeout only guards against a hang."""
    p = subprocess.run([sys.executable, "-X", "faulthandler",
                        str(Path(__file__).with_name("interrupt_child.py")), op,
                        str(INTERRUPT_TICKS[op])], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, OPENBLAS_NUM_THREADS="1"), check=False)
    # A crash shows every thread's Python stack (faulthandler) and how far the child got:
    # once (clang build, ggenerate) it died by SIGSEGV after printing its result.
    assert p.returncode == 0, f"exit {p.returncode}, stdout {p.stdout!r}, stderr:\n{p.stderr}"
    res = json.loads(p.stdout.strip().splitlines()[-1])
    assert res["interrupted"], f"{op} ran to its end: {res}"
    assert op in res["frames"], f"KeyboardInterrupt did not come out of sb.{op}: {res['frames']}"
    assert res["after"] < res["before"], f"{op} went on working after Ctrl-C: {res}"
