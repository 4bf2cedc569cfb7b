"""Solver plug-ins from Python (docs/plugins.md): sudokubench.Plugin loads the shared objects
`make plugins` builds (build/plugins, named by $SB_PLUGINS), and solve(plugin=) counts with
them: the same counts and solutions as the fast pipeline on 9x9 (puzzles with 0, 1 and 2+
solutions) and on 4x4 boxes (16x16); load errors and contract breaks are exceptions naming
the plug-in."""
import os
from pathlib import Path

import numpy as np
import pytest

import sudokubench as sb

PLUGINS = Path(os.environ.get("SB_PLUGINS", "build/plugins"))
pytestmark = pytest.mark.skipif(not (PLUGINS / "naive.so").exists(),
                                reason="make plugins builds build/plugins (SB_PLUGINS)")

SOL = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def mixed():
    """Puzzles with one solution (a quarter of SOL blanked, digits relabelled), several (the
    first band blanked; the empty grid) and none (two 1s in a row)."""
    out = []
    for i in range(12):
        out.append("".join("." if (c * 7 + i) % 4 == 0 else str((int(SOL[c]) + i - 1) % 9 + 1)
                           for c in range(81)))
    out.append("." * 27 + SOL[27:])
    out.append("." * 81)
    out.append("11" + "." * 79)
    return out


def test_naive_gives_fast_counts_and_solutions():
    p = sb.Plugin(PLUGINS / "naive.so")
    assert p.name == "naive" and not p.one_thread and "backtracking" in p.about
    puzzles = mixed()
    fast = sb.solve(puzzles, limit=2)
    mine = sb.solve(puzzles, limit=2, plugin=p, threads=2)
    assert list(mine.counts) == list(fast.counts)
    assert sorted(set(int(c) for c in fast.counts)) == [0, 1, 2]
    unique = fast.counts == 1
    assert np.array_equal(mine.solutions[unique], fast.solutions[unique])


def test_naive_on_16x16():
    p = sb.Plugin(PLUGINS / "naive.so")
    assert p.accepts("4x4") and p.accepts(None)
    # full grids of the generator with 40% of their cells blanked: easy for plain
    # backtracking (the generator's minimal puzzles are not), some with several solutions
    full = sb.generate(4, seed=5, grid="4x4").solutions
    rng = np.random.default_rng(7)
    puzzles = np.where(rng.random(full.shape) < 0.4, 0, full).astype(np.uint8)
    fast = sb.solve(puzzles, grid="4x4")
    mine = sb.solve(puzzles, grid="4x4", plugin=p)
    assert list(mine.counts) == list(fast.counts)
    unique = fast.counts == 1
    assert unique.any()
    assert np.array_equal(mine.solutions[unique], fast.solutions[unique])


@pytest.mark.parametrize("fault, reason", [
    ("abi", "built for plug-in ABI 1001"),
    ("noentry", "no symbol 'sb_plugin_entry'"),
    ("name", "is a built-in pipeline's"),
])
def test_load_errors_name_file_and_reason(fault, reason):
    path = PLUGINS / f"test-{fault}.so"
    with pytest.raises(ValueError, match=reason) as e:
        sb.Plugin(path)
    assert str(path) in str(e.value)


def test_refused_geometry_and_a_path_for_a_plugin():
    only16 = sb.Plugin(PLUGINS / "test-geometry.so")
    assert only16.accepts("4x4") and not only16.accepts(None)
    with pytest.raises(ValueError, match="does not solve 9x9 grids"):
        sb.solve(mixed(), plugin=only16)
    with pytest.raises(TypeError):
        sb.solve(mixed(), plugin=str(PLUGINS / "naive.so"))


def hard():
    """150 hard puzzles of top1465, where X-wings occur."""
    path = Path(__file__).resolve().parents[2] / "datasets" / "samples" / "top1465.txt"
    lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    return lines[:150]


def test_technique_plugin_is_the_builtin_xwing():
    xw = sb.Plugin(PLUGINS / "xwing.so")
    assert xw.technique and xw.name == "xwing" and "X-wing" in xw.about
    puzzles = hard()
    for builtin, mine in (("restart:ns,hs,lc,xw", "restart:ns,hs,lc,xwing"),
                          ("fast+xw", "fast+xwing")):
        want = sb.solve(puzzles, pipeline=builtin, threads=1)
        got = sb.solve(puzzles, pipeline=mine, plugin=xw, threads=2)
        assert list(got.counts) == list(want.counts) == [1] * len(puzzles)
        assert list(got.guesses) == list(want.guesses)
        assert np.array_equal(got.solutions, want.solutions)


def test_technique_plugin_on_16x16_beside_a_solver_plugin():
    xw = sb.Plugin(PLUGINS / "xwing.so")
    naive = sb.Plugin(PLUGINS / "naive.so")
    puzzles = sb.read(Path(__file__).resolve().parents[2] / "tests" / "data" / "minimal16.txt",
                      grid="4x4")
    want = sb.solve(puzzles, grid="4x4", pipeline="restart:ns,hs,lc,xw")
    got = sb.solve(puzzles, grid="4x4", pipeline="restart:ns,hs,lc,xwing", plugin=[xw])
    assert list(got.guesses) == list(want.guesses)
    assert np.array_equal(got.solutions, want.solutions)
    # a solver plug-in and a technique together: the solver counts, the technique is loaded
    # (full grids with 40% blanked: easy for plain backtracking, unlike minimal puzzles)
    full = sb.generate(3, seed=5, grid="4x4").solutions
    easy = np.where(np.random.default_rng(7).random(full.shape) < 0.4, 0, full).astype(np.uint8)
    both = sb.solve(easy, grid="4x4", plugin=[naive, xw], threads=1)
    assert list(both.counts) == list(sb.solve(easy, grid="4x4").counts)


def test_technique_plugin_errors():
    xw = sb.Plugin(PLUGINS / "xwing.so")
    with pytest.raises(ValueError, match="unknown pipeline 'restart:ns,xwing'"):
        sb.solve(hard()[:2], pipeline="restart:ns,xwing")
    lie = sb.Plugin(PLUGINS / "test-tech-fail.so")
    with pytest.raises(sb.SudokuError):
        sb.solve(hard()[:2], pipeline="restart:ns,hs,faulty", plugin=lie, threads=1)
    with pytest.raises(ValueError, match="at most one solver plug-in"):
        sb.solve(hard()[:2], plugin=[sb.Plugin(PLUGINS / "naive.so"),
                                     sb.Plugin(PLUGINS / "test-count.so")])
    assert xw.accepts("4x4") and not sb.Plugin(PLUGINS / "test-tech-geometry.so").accepts(None)
