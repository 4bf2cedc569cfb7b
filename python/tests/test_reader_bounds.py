"""pytest cases of the package's readers against long comment lines: read() and parse() go
through the library's readers, which skip a comment line of any length as they skip a short
one (a long line that is no comment stays "line too long"), on 9x9 and on other geometries.

Run by `make test-python` (PYTHONPATH the built package)."""
import os
import threading

import numpy as np
import pytest

import sudokubench as sb

P1 = "..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5.."
P2 = ".4.7.28........2.9928.4......38.7.1.....2.....7.9.14......5.1935.6........91.4.85"
S44 = "0000002130040000"


def cells(puzzle):
    """The cells of a puzzle written one character a cell ('.' and '0' blank)."""
    return [0 if ch in ".0" else int(ch, 36) for ch in puzzle]


def test_read_skips_a_5000_byte_comment_on_9x9(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(f"{P1}\n#{'c' * 4999}\n{P2}\n  # {'x' * 5000}\n{P1}\n")
    got = sb.read(path)
    assert got.tolist() == [cells(P1), cells(P2), cells(P1)]


def test_read_skips_a_200000_byte_comment_on_9x9(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(f"#{'=' * 199999}\n{P1}\n")
    assert sb.read(path).tolist() == [cells(P1)]


def test_parse_skips_a_long_comment_in_a_text():
    got = sb.parse(f"{P1}\n#{'c' * 4999}\n{P2}\n")
    assert got.tolist() == [cells(P1), cells(P2)]


def test_a_long_line_that_is_no_comment_stays_line_too_long(tmp_path):
    path = tmp_path / "l.txt"
    path.write_text(f"{P1}\n{'1' * 2000}\n{P2}\n")
    with pytest.raises(sb.ParseError) as e:
        sb.read(path)
    assert (e.value.line, e.value.column, e.value.reason) == (2, 1025, "line too long")


@pytest.mark.parametrize("grid", ["2x2", None])
def test_read_skips_a_comment_past_the_bound_of_other_geometries(tmp_path, grid):
    # 40,000 bytes: past SB_GEO_MAX_LINE (32,000), which bounds every other line there
    path = tmp_path / "c44.txt"
    path.write_text(f"{S44}\n#{'c' * 39999}\n{S44}\n")
    got = sb.read(path, grid=grid)
    assert got.dtype == np.uint8
    assert got.tolist() == [cells(S44), cells(S44)]


def _comments_then_4x4(n):
    """n comment lines (the last one 70,000 bytes long), then two 2x2-boxed puzzles."""
    return "".join(f"# comment {i}\n" for i in range(n - 1)) + f"#{'c' * 70000}\n{S44}\n{S44}\n"


def test_detect_reads_past_any_number_of_comment_lines(tmp_path):
    path = tmp_path / "c44.txt"
    path.write_text(_comments_then_4x4(100000))
    assert sb.detect(path).name == "2x2"
    assert sb.read(path).tolist() == [cells(S44), cells(S44)]
    assert sb.parse(_comments_then_4x4(100000)).tolist() == [cells(S44), cells(S44)]


def test_detect_on_a_pipe_keeps_every_byte_it_read(tmp_path):
    path = tmp_path / "c44.txt"
    path.write_text(_comments_then_4x4(100000))
    r, w = os.pipe()
    writer = threading.Thread(target=lambda: (os.write(w, path.read_bytes()), os.close(w)))
    writer.start()
    try:
        got = sb.read(f"/dev/fd/{r}")
    finally:
        writer.join()
        os.close(r)
    assert got.tolist() == [cells(S44), cells(S44)]


def test_a_geometry_that_cannot_be_told_names_the_line_past_the_comments(tmp_path):
    path = tmp_path / "c27.txt"
    path.write_text("".join(f"# {i}\n" for i in range(100000)) + "1" * 27 + "\n")
    with pytest.raises(ValueError, match=r"c27\.txt:100001: cannot tell the geometry"):
        sb.read(path)
