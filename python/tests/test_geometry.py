"""pytest suite of the Python package on other geometries (grid=): results against the CLI
(`sudokubench ... --grid`, the same library through another path), against a solution check
written here from the geometry's houses, and the package's contracts for grid= (detection,
errors, Ctrl-C, threads that cannot start, `pip install`).

Run by `make test-python` (SB_CLI names the CLI binary, PYTHONPATH the built package)."""
import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sudokubench as sb

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
JIGSAW = DATA / "jigsaw6.txt"
CLI = os.environ.get("SB_CLI", str(ROOT / "build" / "sudokubench"))

# The geometries checked, each as the CLI's option and as grid=, with how many puzzles to
# generate for it (larger grids take longer to generate).
GEOMETRIES = {
    "2x2": (["--grid", "2x2"], "2x2", 40),
    "2x3": (["--grid", "2x3"], "2x3", 30),
    "4x4": (["--grid", "4x4"], "4x4", 4),
    "latin:5": (["--grid", "latin:5"], "latin:5", 30),
    "cube:3": (["--grid", "cube:3"], "cube:3", 30),
    "x:3x3": (["--grid", "x:3x3"], "x:3x3", 8),
    "jigsaw6": (["--geometry", str(JIGSAW)], None, 30),
}


def cli(*args, stdin=None):
    """Runs the CLI, returns its stdout (text); fails the test on an unexpected exit."""
    p = subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, check=False)
    assert p.returncode in (0, 1), p.stderr
    return p.stdout


def grid_of(name):
    """The grid= value of a geometry of GEOMETRIES (a Geometry object for the jigsaw file)."""
    spec = GEOMETRIES[name][1]
    return spec if spec is not None else sb.Geometry.load(JIGSAW)


def csv_rows(text):
    """The records of the CLI's -f csv output, header dropped, as lists of fields."""
    return [line.split(",") for line in text.splitlines()[1:]]


_PUZZLES = {}


def puzzles_of(name, tmp_path_factory):
    """A file of puzzles of geometry name and its lines: the CLI's unique minimal puzzles,
    then the same with every other given removed (most with several solutions); made once
    per session."""
    if name not in _PUZZLES:
        opt, _, n = GEOMETRIES[name]
        made = cli("generate", *opt, "-n", str(n), "--seed", "7").split()
        thinned = []
        for line in made:
            keep, out = True, []
            for ch in line:
                if ch != ".":
                    out.append(ch if keep else ".")
                    keep = not keep
                else:
                    out.append(ch)
            thinned.append("".join(out))
        path = tmp_path_factory.mktemp("geo") / f"{name.replace(':', '_')}.txt"
        path.write_text("\n".join(made + thinned) + "\n")
        _PUZZLES[name] = (path, made + thinned)
    return _PUZZLES[name]


def houses_check(geometry, puzzle, solution):
    """Independent check: every house holds 1..N once and every given of puzzle is kept."""
    want = list(range(1, geometry.digits + 1))
    for house in geometry.houses:
        if sorted(solution[house].tolist()) != want:
            return False
    given = puzzle != 0
    return bool((solution[given] == puzzle[given]).all())


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_solve_matches_cli_and_houses(name, tmp_path_factory):
    """Counts, guesses and solutions equal the CLI's `solve -f csv --grid` (limit 5, so the
    thinned puzzles show several solutions), for threads 1 and 3; every first solution
    fills the houses and keeps the givens (checked here and by the library)."""
    path, lines = puzzles_of(name, tmp_path_factory)
    opt, _, _ = GEOMETRIES[name]
    grid = grid_of(name)
    g = grid if isinstance(grid, sb.Geometry) else sb.Geometry(grid)
    cells = sb.read(path, grid=grid)
    assert cells.shape == (len(lines), g.cells)
    res = sb.solve(cells, limit=5, grid=grid, threads=1)
    want = csv_rows(cli("solve", *opt, "-f", "csv", "-l", "5", str(path)))
    assert res.counts.tolist() == [int(r[2]) for r in want]
    assert res.guesses.tolist() == [int(r[3]) for r in want]
    # the CLI writes the solution of a unique puzzle only
    texts = sb.to_strings(res.solutions, grid=grid)
    assert [t if c == 1 else "" for t, c in zip(texts, res.counts)] == [r[4] for r in want]
    assert (res.counts[: len(lines) // 2] == 1).all()  # the generated puzzles are unique
    assert (res.counts[len(lines) // 2:] > 1).any()
    for p, s in zip(cells, res.solutions):
        assert houses_check(g, p, s)
    assert g.is_solution(res.solutions, cells).all()
    again = sb.solve(cells, limit=5, grid=grid, threads=3)
    for a, b in zip(res, again):
        assert np.array_equal(a, b)
    assert np.array_equal(sb.validate(cells, grid=grid, threads=3), res.counts == 1)


@pytest.mark.parametrize("name", ["2x2", "latin:5", "jigsaw6"])
def test_count_all_and_pipelines_match_cli(name, tmp_path_factory):
    """limit=0 counts every solution; the generic pipelines (list, a custom spec) give the
    CLI's counts and guesses on the geometry too."""
    path, _ = puzzles_of(name, tmp_path_factory)
    opt, _, _ = GEOMETRIES[name]
    grid = grid_of(name)
    for pipeline in ("fast", "list", "restart:ns,hs"):
        res = sb.solve(path.read_text().split(), limit=0, pipeline=pipeline, grid=grid)
        want = csv_rows(cli("solve", *opt, "-f", "csv", "-l", "0", "-s", pipeline, str(path)))
        assert res.counts.tolist() == [int(r[2]) for r in want], pipeline
        assert res.guesses.tolist() == [int(r[3]) for r in want], pipeline


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_bench_verdicts_are_the_counts_verdicts(name, tmp_path_factory):
    """bench(grid=) on the geometry's sb_bench: each puzzle's verdict is that of its count
    by solve(limit=2) (the generated puzzles unique, thinned ones mostly multiple), the
    guesses are solve's, on 1 and 2 threads, and at least one pass is timed."""
    path, lines = puzzles_of(name, tmp_path_factory)
    grid = grid_of(name)
    cells = sb.read(path, grid=grid)
    res = sb.solve(cells, limit=2, grid=grid, threads=1)
    want = np.minimum(res.counts, 2).astype(np.int64)
    assert (want[: len(lines) // 2] == 1).all() and (want == 2).any()
    for threads in (1, 2):
        r = sb.bench(cells, grid=grid, threads=threads, seconds=0)
        assert r.verdicts.tolist() == want.tolist()
        assert r.verdict_counts.tolist() == np.bincount(want, minlength=3).tolist()
        assert r.guesses == int(res.guesses.sum())
        assert r.passes >= 1 and r.puzzles_per_second > 0


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_rate_matches_cli(name, tmp_path_factory):
    """Classes equal the CLI's `rate -f csv --grid` (search where it says multiple);
    counters=True gives the same classes, and eliminations only by each class's techniques."""
    path, lines = puzzles_of(name, tmp_path_factory)
    opt, _, _ = GEOMETRIES[name]
    grid = grid_of(name)
    cells = sb.read(path, grid=grid)
    classes = sb.rate(cells, grid=grid, threads=2)
    want = csv_rows(cli("rate", *opt, "-f", "csv", str(path)))
    # the CLI names no class for a puzzle with several solutions; the library calls it search
    assert [sb.CLASSES[c] if r[1] == "solved" else r[1] for c, r in zip(classes, want)] == [
        r[2] if r[1] == "solved" else r[1] for r in want]
    assert all(sb.CLASSES[c] == "search" for c, r in zip(classes, want) if r[1] != "solved")
    assert sum(r[1] == "solved" for r in want) >= len(lines) // 2
    res = sb.rate(cells, grid=grid, counters=True, threads=1)
    assert np.array_equal(res.classes, classes)
    assert res.eliminations.shape == (len(lines), len(sb.TECHNIQUES))
    # a class's run uses its own technique set only: ns; ns,hs; ns,hs,lc; .. ht4; .. jf; .. ww;
    # all (search: the chains run)
    used = {"singles": 1, "hidden": 2, "locked": 3, "tuples": 9, "fish": 12, "wings": 15,
            "chains": 19, "search": 19}
    for c, row in zip(res.classes, res.eliminations):
        assert not row[used[sb.CLASSES[c]]:].any(), (sb.CLASSES[c], row)


def test_rate_counters_on_9x9_match_cli():
    """rate(counters=True) without grid= is the 9x9 rating with the CLI's counter columns, and
    grid="3x3" (the general path) gives the same."""
    path = ROOT / "datasets" / "samples" / "hardest_11plus_1000.txt"
    cells = sb.read(path)[:30]
    res = sb.rate(cells, counters=True)
    assert np.array_equal(res.classes, sb.rate(cells))
    text = "\n".join(sb.to_strings(cells)) + "\n"
    want = csv_rows(cli("rate", "-f", "csv", stdin=text))
    nt = len(sb.TECHNIQUES)  # the csv's eliminations; its calls columns follow
    assert res.eliminations.tolist() == [[int(v) for v in r[3:3 + nt]] for r in want]
    # the 3x3 geometry rates through the generic pipelines, with the same classes and counts
    geo = sb.rate(cells, grid="3x3", counters=True, threads=3)
    assert np.array_equal(geo.classes, res.classes)
    assert np.array_equal(geo.eliminations, res.eliminations)


@pytest.mark.parametrize("name", [n for n in GEOMETRIES if n != "4x4"])
def test_generate_and_augment_match_cli(name):
    """generate(grid=) and augment(grid=) write what `sudokubench generate/augment --grid`
    write for the same seed, for any thread count; the puzzles are unique and the augmented
    ones keep their solution counts."""
    if not sb._HAVE_GDATASET:
        with pytest.raises(NotImplementedError, match="generate"):
            sb.generate(2, grid=grid_of(name))
        pytest.skip("the library has no generator for other geometries (sb_ggenerate_batch)")
    opt, _, _ = GEOMETRIES[name]
    grid = grid_of(name)
    made = sb.generate(6, seed=11, first=3, grid=grid, threads=3)
    assert sb.to_strings(made.puzzles, grid=grid) == cli(
        "generate", *opt, "-n", "6", "--seed", "11", "--first", "3").split()
    one = sb.generate(6, seed=11, first=3, grid=grid, threads=1)
    assert np.array_equal(one.puzzles, made.puzzles)
    res = sb.solve(made.puzzles, grid=grid)
    assert (res.counts == 1).all() and np.array_equal(res.solutions, made.solutions)
    text = "\n".join(sb.to_strings(made.puzzles, grid=grid)) + "\n"
    out = sb.augment(made.puzzles, 9, seed=4, grid=grid, threads=2)
    assert sb.to_strings(out, grid=grid) == cli("augment", *opt, "-n", "9", "--seed", "4",
                                                stdin=text).split()
    assert (sb.solve(out, grid=grid).counts == 1).all()


def test_read_detects_the_geometry(tmp_path):
    """read() and parse() without grid= take the geometry from the first line's cell count
    (as the CLI), 81 staying 9x9; detect() names it; a count that fits no boxed grid asks for
    grid= by name; a geometry file is read with its Geometry."""
    made = cli("generate", "--grid", "4x4", "-n", "2", "--seed", "3").split()
    f = tmp_path / "p16.txt"
    f.write_text("# a comment first\n\n" + "\n".join(made) + "\n")
    cells = sb.read(f)
    assert cells.shape == (2, 256)
    assert sb.detect(f).name == "4x4"
    assert sb.to_strings(cells, grid="4x4") == made
    assert np.array_equal(sb.parse(f.read_text()), cells)
    assert np.array_equal(sb.parse(made), cells)
    # strings given to a call are read the same way: the 16x16 geometry, not an error
    assert (sb.solve(made).counts == 1).all()
    nine = ROOT / "datasets" / "samples" / "17_clue_2000.txt"
    assert sb.detect(nine) is None and sb.read(nine).shape[1] == 81
    cube = tmp_path / "c27.txt"
    cube.write_text("." * 27 + "\n")
    with pytest.raises(ValueError, match=r"c27.txt:1: cannot tell the geometry: 27 cells .*"
                                         r"pass grid='cube:3'"):
        sb.read(cube)
    assert sb.read(cube, grid="cube:3").shape == (1, 27)
    jig = tmp_path / "j.txt"
    lines = cli("generate", "--geometry", str(JIGSAW), "-n", "3").split()
    jig.write_text("\n".join(lines) + "\n")
    g = sb.Geometry.load(JIGSAW)
    assert g.name == "jigsaw:6" and g.kind == "jigsaw" and (g.cells, g.digits) == (36, 6)
    assert g.houses.shape == (18, 6)
    assert sb.to_strings(sb.read(jig, grid=g), grid=g) == lines


def test_geometry_object():
    """A Geometry's accessors say what the library made: houses rows, columns, boxes for
    RxC, peers, layout."""
    g = sb.Geometry("2x3")
    assert (g.name, g.kind, g.cells, g.digits) == ("2x3", "boxed", 36, 6)
    assert g.houses.shape == (18, 6)
    assert g.houses[0].tolist() == list(range(6))  # row 0
    assert g.houses[6].tolist() == list(range(0, 36, 6))  # column 0
    assert g.houses[12].tolist() == [0, 1, 2, 6, 7, 8]  # box 0: 2 rows by 3 columns
    assert g.peers(0) == sorted((set(range(6)) | set(range(0, 36, 6)) | {7, 8}) - {0})
    assert g.layout == (6, 6, 2, 3)
    assert not g.houses.flags.writeable
    assert sb.Geometry("cube:3").houses.shape == (9, 9)
    assert "2x3" in repr(g)


def test_errors_name_what_is_wrong(tmp_path):
    """A bad grid word names the valid forms; a wrong width or a cell above N is refused
    before the library sees it; a clash of givens is a ParseError naming the house; a bad
    geometry file names its line; a missing one raises FileNotFoundError."""
    for bad in ("5y5", "latin:0", "cube:9", "x:", ""):
        with pytest.raises(ValueError, match=r"RxC.*latin:N.*cube:K.*x:RxC"):
            sb.solve(np.zeros((1, 16), np.uint8), grid=bad)
    with pytest.raises(TypeError, match="grid must be"):
        sb.solve(np.zeros((1, 16), np.uint8), grid=16)
    with pytest.raises(ValueError, match=r"shape \(n, 16\) for geometry 2x2, not \(1, 81\)"):
        sb.solve(np.zeros((1, 81), np.uint8), grid="2x2")
    with pytest.raises(ValueError, match=r"not \(1, 16\): pass grid='2x2'"):
        sb.solve(np.zeros((1, 16), np.uint8))
    with pytest.raises(ValueError, match=r"shape \(n, 36\)"):
        sb.rate(np.zeros((2, 16), np.uint8), grid=sb.Geometry.load(JIGSAW))
    with pytest.raises(ValueError, match="cells must be 0..4"):
        sb.solve(np.full((1, 16), 5, np.uint8), grid="2x2")
    with pytest.raises(sb.ParseError, match=r"line 2, column 2: invalid puzzle: 1 twice in row 1"):
        sb.parse(["1" + "." * 15, "11" + "." * 14], grid="2x2")
    with pytest.raises(sb.ParseError, match="line 2, column 1: invalid puzzle: not a puzzle"):
        sb.parse(["." * 16, "", "." * 16], grid="2x2")
    with pytest.raises(sb.ParseError, match=r"too few cells \(15 of 16\)"):
        sb.parse(["." * 15], grid="2x2")
    bad = tmp_path / "bad.txt"
    bad.write_text("jigsaw 3\nAAB\n")
    with pytest.raises(ValueError, match="bad.txt:2: "):
        sb.Geometry.load(bad)
    with pytest.raises(FileNotFoundError):
        sb.Geometry.load(tmp_path / "missing.txt")
    with pytest.raises(ValueError, match="pipeline"):
        sb.solve(np.zeros((1, 16), np.uint8), grid="2x2", pipeline="nope")
    if sb._HAVE_GDATASET:
        with pytest.raises(ValueError, match="x:1x2 has no full grid"):
            sb.generate(1, grid="x:1x2")
    if sb._HAVE_GGEN_OPTS:
        with pytest.raises(ValueError, match="rot90 does not suit 2x3: it maps house"):
            sb.generate(1, grid="2x3", symmetry="rot90")
        with pytest.raises(ValueError, match="infeasible on 2x2"):
            sb.generate(1, grid="2x2", max_clues=2)
        with pytest.raises(ValueError, match="outside 1..16"):
            sb.generate(1, grid="2x2", max_clues=17)
        with pytest.raises(ValueError, match="unknown symmetry"):
            sb.generate(1, grid="2x2", symmetry="spiral")


@pytest.mark.parametrize("spec,sym,clues", [("2x2", "rot90", None), ("2x3", "mirror", 11),
                                            ("latin:5", "diagonal", 10), ("cube:3", "rot180", None)])
def test_generate_symmetry_and_clues_match_cli(spec, sym, clues):
    """generate(grid=, symmetry=, max_clues=) writes what `sudokubench generate --grid
    --symmetry --clues` writes, for any thread count; the puzzles are unique, within the
    bound, and their clue patterns are kept by the symmetry (checked here on the picture)."""
    if not sb._HAVE_GGEN_OPTS:
        pytest.skip("the library has no generator options (sb_ggenerate_batch_opts)")
    made = sb.generate(8, seed=5, first=2, grid=spec, symmetry=sym, max_clues=clues, threads=3)
    opt = ["--symmetry", sym] + ([] if clues is None else ["--clues", str(clues)])
    assert sb.to_strings(made.puzzles, grid=spec) == cli(
        "generate", "--grid", spec, "-n", "8", "--seed", "5", "--first", "2", *opt).split()
    one = sb.generate(8, seed=5, first=2, grid=spec, symmetry=sym, max_clues=clues, threads=1)
    assert np.array_equal(one.puzzles, made.puzzles)
    res = sb.solve(made.puzzles, grid=spec)
    assert (res.counts == 1).all() and np.array_equal(res.solutions, made.solutions)
    if clues is not None:
        assert ((made.puzzles != 0).sum(axis=1) <= clues).all()
    g = sb.Geometry(spec)
    side = round(g.cells ** (1 / 3)) if spec.startswith("cube") else g.digits
    given = (made.puzzles != 0).reshape(8, -1, side, side)  # planes of rows of columns
    turned = {"rot90": lambda a: np.rot90(a, k=-1, axes=(2, 3)),
              "rot180": lambda a: a[:, :, ::-1, ::-1],
              "mirror": lambda a: a[:, :, :, ::-1],
              "diagonal": lambda a: a.transpose(0, 1, 3, 2)}[sym](given)
    assert np.array_equal(turned, given)


def test_to_strings_and_parse_round_trip_in_both_forms():
    """Up to 35 digits a grid is written a character per cell; above, as integers, which
    parse() reads back."""
    g = sb.Geometry("latin:36")
    row = np.zeros((1, g.cells), np.uint8)
    row[0, :36] = np.arange(1, 37)
    text = sb.to_strings(row, grid=g)
    assert text[0].startswith("1,2,3,") and text[0].count(",") == g.cells - 1
    assert np.array_equal(sb.parse(text, grid=g), row)
    r = sb.solve(["....2.3..1.4...."], grid="2x2")
    assert sb.to_strings(r.solutions, grid="2x2") == ["1342243131244213"]
    with pytest.raises(ValueError, match=r"shape \(n, 81\).*pass grid='2x2'"):
        sb.to_strings(r.solutions)


def test_threads_that_cannot_start_raise_sudoku_error():
    """As on 9x9 (test_sudokubench.py): with too little address space for 1024 thread stacks
    the geometry calls raise SudokuError naming the cause, and the interpreter goes on."""
    code = """
import resource, numpy as np, sudokubench as sb
vm = next(int(l.split()[1]) << 10 for l in open('/proc/self/status') if l.startswith('VmSize:'))
resource.setrlimit(resource.RLIMIT_AS, (vm + (512 << 20), resource.RLIM_INFINITY))
cells = np.tile(sb.parse(['....2.3..1.4....'], grid='2x2'), (2000, 1))
calls = {'solve': lambda t: sb.solve(cells, grid='2x2', threads=t),
         'rate': lambda t: sb.rate(cells, grid='2x2', threads=t)}
if sb._HAVE_GDATASET:
    calls['generate'] = lambda t: sb.generate(2000, grid='2x2', threads=t)
    calls['augment'] = lambda t: sb.augment(cells, 2000, grid='2x2', threads=t)
for name, call in calls.items():
    try:
        call(1024)
        print(name, 'no error')
    except sb.SudokuError as e:
        print(e)
    call(2)
print('survived')
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300, env=dict(os.environ, OPENBLAS_NUM_THREADS="1"), check=False)
    assert p.returncode == 0, p.stderr
    why = os.strerror(errno.EAGAIN)
    names = ["solve", "rate"] + (["generate", "augment"] if sb._HAVE_GDATASET else [])
    assert p.stdout.splitlines() == [f"{name}: could not start the threads: {why}"
                                     for name in names] + ["survived"], p.stdout + p.stderr


# Ticks of library CPU before the signal (interrupt_child.py), as for the 9x9 calls.
GEO_INTERRUPT = {"gsolve": "solve", "grate": "rate", "ggenerate": "generate"}


@pytest.mark.parametrize("op", list(GEO_INTERRUPT))
def test_ctrl_c_stops_a_long_geometry_call(op):
    """Ctrl-C in the middle of an endless count of the empty 16x16 (two searches that never
    end: the solver itself must poll the flag), 20,000 16x16 ratings or 100,000 16x16
    puzzles ends the call with KeyboardInterrupt, having abandoned the work (the CPU after
    the signal is less than the library's before it). The signal comes from inside the work,
    never after a sleep; the timeout only guards against a hang."""
    if op == "ggenerate" and not sb._HAVE_GDATASET:
        pytest.skip("the library has no generator for other geometries (sb_ggenerate_batch)")
    p = subprocess.run([sys.executable, "-X", "faulthandler",
                        str(Path(__file__).with_name("interrupt_child.py")), op,
                        "10"], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, OPENBLAS_NUM_THREADS="1"), check=False)
    # A crash shows every thread's Python stack (faulthandler) and how far the child got:
    # once (clang build, ggenerate) it died by SIGSEGV after printing its result.
    assert p.returncode == 0, f"exit {p.returncode}, stdout {p.stdout!r}, stderr:\n{p.stderr}"
    res = json.loads(p.stdout.strip().splitlines()[-1])
    assert res["interrupted"], f"{op} ran to its end: {res}"
    assert GEO_INTERRUPT[op] in res["frames"], res["frames"]
    assert res["after"] < res["before"], f"{op} went on working after Ctrl-C: {res}"


def test_pip_install_builds_a_working_package(tmp_path):
    """`pip install --no-build-isolation --no-deps --target DIR ./python` builds the package
    from the sources against this interpreter (python/pyproject.toml, no network), and the
    installed copy solves a 16-cell puzzle."""
    if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True,
                      check=False).returncode != 0:
        pytest.skip(f"pip is not available for {sys.executable} (Debian: python3-pip)")
    if shutil.which(os.environ.get("CC", "cc")) is None or shutil.which("make") is None:
        pytest.skip("no C compiler or make to build the extension")
    # A copy of the sources, so the build writes nothing into the tree under test.
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", "build", "datasets",
                                                             "__pycache__", "*.egg-info"))
    target = tmp_path / "site"
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
               PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    p = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation",
                        "--no-deps", "--target", str(target), str(src / "python")],
                       capture_output=True, text=True, env=env, timeout=900, check=False)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-4000:]
    code = ("import sudokubench as sb; r = sb.solve(['....2.3..1.4....'], grid='2x2'); "
            "print(sb.__file__); print(int(r.counts[0]), sb.to_strings(r.solutions, grid='2x2')[0])")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(env, PYTHONPATH=str(target)), cwd=tmp_path, check=False)
    assert p.returncode == 0, p.stderr
    where, result = p.stdout.splitlines()
    assert where.startswith(str(target))
    assert result == "1 1342243131244213"


def test_module_docstring_examples_hold():
    """The examples in the package's docstring are what the package does."""
    import doctest
    res = doctest.testmod(sb, verbose=False, report=False)
    assert res.attempted >= 4 and res.failed == 0, res
