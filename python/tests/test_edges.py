"""pytest suite of the package's argument checks: every public call refuses a value of the
wrong type (TypeError) or out of range (ValueError) before the library sees it, with a
message naming the argument and the value, and never turns one into another value (a cell
wrapped into uint8, a float truncated, an array read as NUL bytes, a duration that never
ends). Where the CLI refuses the same value, the reason is the CLI's.

Run by `make test-python` (SB_CLI names the CLI binary, PYTHONPATH the built package)."""
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

import sudokubench as sb

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("SB_CLI", str(ROOT / "build" / "sudokubench"))
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def cli_error(*args):
    """Runs the CLI expecting a refusal; returns its stderr."""
    p = subprocess.run([CLI, *args], capture_output=True, text=True, check=False)
    assert p.returncode != 0, p.stdout
    return p.stderr


def cells(value, width=81, dtype=np.int64):
    """One row of width cells, cell 0 holding value and the rest blank."""
    row = np.zeros((1, width), dtype=dtype)
    row[0, 0] = value
    return row


@pytest.mark.parametrize("value", [257, -255, 12, 10])
def test_to_strings_refuses_cells_outside_0_to_9(value):
    """257 and -255 would wrap to '1' in a cast to uint8 and 12 print as '<': each is named,
    as on any grid."""
    with pytest.raises(ValueError) as e:
        sb.to_strings(cells(value))
    assert str(e.value) == f"grids: puzzle 0: cells must be 0..9, not {value} (cell 0)"


def test_to_strings_refuses_a_uint8_cell_above_9():
    """A uint8 200 is no character to print (its byte is no ASCII): the row and cell of the
    first bad value are named."""
    grids = np.ones((3, 81), dtype=np.uint8)
    grids[2, 40] = 200
    with pytest.raises(ValueError) as e:
        sb.to_strings(grids)
    assert str(e.value) == "grids: puzzle 2: cells must be 0..9, not 200 (cell 40)"


def test_to_strings_checks_every_geometry_alike():
    with pytest.raises(ValueError) as e:
        sb.to_strings(cells(257, 256), grid="4x4")
    assert str(e.value) == "grids: puzzle 0: cells must be 0..16, not 257 (cell 0)"
    with pytest.raises(ValueError) as e:
        sb.to_strings(cells(5, 16, np.uint8), grid="2x2")
    assert str(e.value) == "grids: puzzle 0: cells must be 0..4, not 5 (cell 0)"
    # the bounds themselves format: 0 and N
    assert sb.to_strings(cells(9)) == ["9" + "." * 80]
    assert sb.to_strings(cells(16, 256), grid="4x4")[0][:2] == "G."
    assert sb.to_strings(sb.parse([SOLUTION]).astype(np.int64)) == [SOLUTION]


@pytest.mark.parametrize("grid,width", [(None, 81), ("4x4", 256)])
def test_float_cells_are_a_type_error(grid, width):
    """Floats (1.9 would truncate to '1') are refused, not truncated, on every grid and in
    every call taking cells."""
    floats = np.full((1, width), 1.9)
    with pytest.raises(TypeError) as e:
        sb.to_strings(floats, grid=grid)
    assert str(e.value) == "grids must be an integer array (uint8), not float64"
    with pytest.raises(TypeError) as e:
        sb.solve(floats, grid=grid)
    assert str(e.value) == "puzzles must be an integer array (uint8), not float64"
    with pytest.raises(TypeError, match="puzzles must be an integer array .*, not bool"):
        sb.rate(np.zeros((1, width), dtype=bool), grid=grid)


def test_is_solution_names_its_arguments():
    g = sb.Geometry("2x2")
    with pytest.raises(TypeError) as e:
        g.is_solution(np.zeros((1, 16)))
    assert str(e.value) == "solutions must be an integer array (uint8), not float64"
    with pytest.raises(ValueError) as e:
        g.is_solution(cells(1, 16), cells(7, 16))
    assert str(e.value) == "puzzles: puzzle 0: cells must be 0..4, not 7 (cell 0)"


@pytest.mark.parametrize("threads", [2**63, 1025, -1])
def test_threads_out_of_range_are_a_value_error(threads):
    """A count past C's int (2**63) or past the CLI's -t bound is refused before any thread
    starts, 0 meaning every core, in every call."""
    want = f"threads must be an integer 0 .. 1024 (0: every core), not {threads}"
    calls = [lambda: sb.solve([PUZZLE], threads=threads),
             lambda: sb.validate([PUZZLE], threads=threads),
             lambda: sb.rate([PUZZLE], threads=threads),
             lambda: sb.generate(1, threads=threads),
             lambda: sb.augment([PUZZLE], 1, threads=threads),
             lambda: sb.bench([PUZZLE], seconds=0, threads=threads)]
    for call in calls:
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == want


def test_threads_of_another_type_are_a_type_error_and_0_is_every_core():
    for bad in (1.0, True, "2", None):
        with pytest.raises(TypeError) as e:
            sb.solve([PUZZLE], threads=bad)
        assert str(e.value) == f"threads must be an integer, not {bad!r}"
    assert sb.to_strings(sb.solve([PUZZLE], threads=0).solutions) == [SOLUTION]
    assert sb.to_strings(sb.solve([PUZZLE], threads=np.int64(1)).solutions) == [SOLUTION]


def test_generate_clue_bounds_give_the_cli_reason():
    """A clue bound out of reach is refused with the CLI's reason, not "invalid argument"."""
    with pytest.raises(ValueError) as e:
        sb.generate(1, max_clues=10)
    reason = "is infeasible: no puzzle with fewer than 17 clues has exactly one solution"
    assert str(e.value) == f"max_clues 10 {reason}"
    assert f"--clues 10 {reason}" in cli_error("generate", "-n", "1", "--clues", "10")
    with pytest.raises(ValueError) as e:
        sb.generate(1, max_clues=82)
    assert str(e.value) == "max_clues 82 is outside 1..81, the cells of 9x9"
    with pytest.raises(ValueError) as e:
        sb.generate(1, grid="2x3", max_clues=4)
    reason = "is infeasible on 2x3: a puzzle with fewer than 5 clues lacks two digits"
    assert str(e.value) == f"max_clues 4 {reason}, which could swap"
    assert f"--clues 4 {reason}" in cli_error("generate", "--grid", "2x3", "-n", "1",
                                              "--clues", "4")
    with pytest.raises(TypeError) as e:
        sb.generate(1, max_clues=17.9)
    assert str(e.value) == "max_clues must be an integer, not 17.9"


@pytest.mark.parametrize("grid,clues", [(None, 17), ("2x2", 3)])
def test_generate_running_out_of_attempts_says_so(grid, clues):
    """A clue bound no candidate meets is no "guess budget": the error names the puzzle, the
    bound and the attempts, as the CLI's does. No 9x9 puzzle digs down to 17 clues
    in 3 random candidates, and no 4x4 puzzle has 3 clues."""
    with pytest.raises(sb.SudokuError) as e:
        sb.generate(2, max_clues=clues, attempts=3, first=5, grid=grid)
    reason = f"puzzle 5: no candidate met {{}} {clues} in 3 attempts"
    assert str(e.value) == "generate: " + reason.format("max_clues")
    grid_opt = ["--grid", grid] if grid else []
    assert reason.format("--clues") in cli_error(
        "generate", *grid_opt, "-n", "2", "--first", "5", "--clues", str(clues),
        "--attempts", "3")
    for bad, err in ((0, ValueError), (2**64, ValueError), (2.0, TypeError)):
        with pytest.raises(err, match="^attempts must be an integer"):
            sb.generate(1, attempts=bad, grid=grid)


def test_a_bound_met_within_the_attempts_generates():
    made = sb.generate(2, max_clues=30, attempts=1000, seed=3)
    assert (np.count_nonzero(made.puzzles, axis=1) <= 30).all()
    assert sb.validate(made.puzzles).all()
    assert made.puzzles.tolist() == sb.generate(2, max_clues=30, seed=3).puzzles.tolist()


@pytest.mark.parametrize("arg,value", [("simd", None), ("simd", b"auto"),
                                       ("pipeline", b"fast"), ("pipeline", None),
                                       ("pair", None), ("pair", 1)])
def test_names_of_another_type_are_a_type_error(arg, value):
    """Names are strings: simd's default is "auto", and None is refused rather than taken for
    it; bytes are no name either."""
    for call in (sb.solve, sb.bench):
        with pytest.raises(TypeError) as e:
            call([PUZZLE], **{arg: value})
        assert str(e.value) == f"{arg} must be a string, not {value!r}"


def test_generate_names_are_strings_without_nul():
    for kw, value in (("symmetry", None), ("simd", None)):
        with pytest.raises(TypeError) as e:
            sb.generate(1, **{kw: value})
        assert str(e.value) == f"{kw} must be a string, not None"
    with pytest.raises(ValueError) as e:
        sb.generate(1, symmetry="rot180\0x")
    assert str(e.value) == "symmetry must not contain a NUL character: 'rot180\\x00x'"
    with pytest.raises(ValueError) as e:  # C would read "2x2" and take it
        sb.Geometry("2x2\0zz")
    assert str(e.value) == "spec must not contain a NUL character: '2x2\\x00zz'"
    with pytest.raises(ValueError, match="^pipeline must not contain a NUL character"):
        sb.solve([PUZZLE], pipeline="fast\0junk")


@pytest.mark.parametrize("wrap", [bytes, bytearray, lambda b: memoryview(b)])
def test_bytes_like_text_reads_as_text(wrap):
    """Every bytes-like object is text, as a whole and as list items (not a sequence of
    integers, nor the NUL bytes bytes() makes of one)."""
    text = (PUZZLE + "\n" + PUZZLE[::-1] + "\n").encode()
    want = sb.parse([PUZZLE, PUZZLE[::-1]])
    assert sb.parse(wrap(text)).tolist() == want.tolist()
    assert sb.solve(wrap(PUZZLE.encode())).counts.tolist() == [1]
    assert sb.to_strings(sb.solve([wrap(PUZZLE.encode())]).solutions) == [SOLUTION]
    assert sb.parse([wrap(PUZZLE.encode()), PUZZLE[::-1]]).tolist() == want.tolist()
    assert sb.detect([wrap(b"." * 16)]).name == "2x2"


def test_a_list_mixing_text_and_arrays_is_a_type_error():
    row = np.zeros(81, dtype=np.uint8)
    with pytest.raises(TypeError) as e:
        sb.solve([PUZZLE, row])
    assert str(e.value) == ("puzzles must hold either texts or rows of cell values, not both: "
                            "puzzles[0] is str, puzzles[1] is ndarray")
    with pytest.raises(TypeError) as e:
        sb.rate([row, PUZZLE])
    assert str(e.value).endswith("puzzles[0] is ndarray, puzzles[1] is str")
    with pytest.raises(TypeError) as e:  # parse takes text only
        sb.parse([PUZZLE, row])
    assert str(e.value) == "lines[1] must be text (str or bytes), not ndarray"
    with pytest.raises(TypeError) as e:
        sb.parse(np.zeros((2, 81), dtype=np.uint8))
    assert str(e.value) == "lines[0] must be text (str or bytes), not ndarray"
    with pytest.raises(TypeError) as e:  # its bytes are int32 values, not characters
        sb.solve(memoryview(np.zeros(81, dtype=np.int32)))
    assert str(e.value) == "puzzles must be text (str or bytes), not a memoryview of format 'i'"
    with pytest.raises(TypeError) as e:
        sb.detect([row])
    assert str(e.value) == "source[0] must be text (str or bytes), not ndarray"
    # rows of cell values alone, and texts alone, still work
    assert sb.solve([row, row], limit=1).counts.tolist() == [1, 1]
    assert sb.solve([PUZZLE, PUZZLE.encode()]).counts.tolist() == [1, 1]


def test_puzzles_that_are_no_input_are_refused():
    for bad in (None, 5):
        with pytest.raises(TypeError) as e:
            sb.solve(bad)
        assert str(e.value) == ("puzzles must be text, a list of puzzle strings or an array of "
                                f"cells, not {type(bad).__name__}")
    with pytest.raises(ValueError, match=r"^puzzles must be an array \(n, 81\) of cell values"):
        sb.solve([[0] * 81, [0] * 80])
    with pytest.raises(ValueError) as e:  # a cast to uint8 would make it 0
        sb.solve(cells(2**63, dtype=np.uint64))
    assert str(e.value) == f"puzzles: puzzle 0: cells must be 0..9, not {2**63} (cell 0)"


@pytest.mark.parametrize("seconds", [float("inf"), 1e300, float("nan"), -1, -0.5, 1_000_000.5,
                                     10**400, np.float64("inf")])
def test_bench_durations_out_of_range_are_a_value_error(seconds):
    """inf or 1e300 seconds would time forever, NaN never compares: the bound is the CLI's
    --seconds bound."""
    with pytest.raises(ValueError) as e:
        sb.bench([PUZZLE], seconds=seconds)
    assert str(e.value) == f"seconds must be a number 0 .. 1000000, not {seconds!r}"


def test_bench_durations_of_another_type_are_a_type_error():
    for bad in ("1", None, True, [1]):
        with pytest.raises(TypeError) as e:
            sb.bench([PUZZLE], seconds=bad)
        assert str(e.value) == f"seconds must be a number, not {bad!r}"
    assert "0..1000000" in cli_error("bench", "--seconds", "inf", "/dev/null")
    r = sb.bench([PUZZLE], seconds=np.float32(0))
    assert r.passes >= 1 and r.verdicts.tolist() == [1]


@pytest.mark.parametrize("call,name", [
    (lambda v: sb.generate(v), "n"),
    (lambda v: sb.augment([PUZZLE], v), "n"),
    (lambda v: sb.generate(1, seed=v), "seed"),
    (lambda v: sb.augment([PUZZLE], 1, seed=v), "seed"),
    (lambda v: sb.generate(1, first=v), "first"),
    (lambda v: sb.augment([PUZZLE], 1, first=v), "first"),
    (lambda v: sb.solve([PUZZLE], limit=v), "limit"),
    (lambda v: sb.bench([PUZZLE], seconds=0, limit=v), "limit"),
    (lambda v: sb.Geometry("2x2").peers(v), "cell"),
])
def test_counts_seeds_indices_and_limits_are_checked(call, name):
    """Every whole-number argument: a float, bool or string is a TypeError (never truncated),
    a negative or one past its C type (or numpy's array size) a ValueError naming it."""
    for bad in (1.0, True, "1", None):
        with pytest.raises(TypeError) as e:
            call(bad)
        assert str(e.value) == f"{name} must be an integer, not {bad!r}"
    for bad in (-1, 2**70):
        with pytest.raises(ValueError) as e:
            call(bad)
        assert re.fullmatch(rf"{name} must be an integer 0 \.\. \d+( \(.+\))?, not {bad}",
                            str(e.value)), str(e.value)
