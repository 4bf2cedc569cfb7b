"""sudokubench.iread: the puzzles of a file in chunks, in file order, the same rows as read(),
on 9x9 (every input form read() takes) and on another geometry, from a file and a pipe, with
errors raised when the chunk that holds them is reached."""
import os
import subprocess

import numpy as np
import pytest

import sudokubench as sb

SOL = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def puzzles(n):
    """n distinct 9x9 puzzles: SOL relabelled, a third of its cells blanked."""
    out = []
    for i in range(n):
        out.append("".join("." if (c * 7 + i) % 3 == 0 else str((int(SOL[c]) + i) % 9 + 1)
                           for c in range(81)))
    return out


def test_chunks_are_read_in_order(tmp_path):
    p = tmp_path / "p.txt"
    p.write_text("# a comment\n" + "\n".join(puzzles(1000)) + "\n")
    whole = sb.read(p)
    chunks = list(sb.iread(p, chunk=300))
    assert [len(c) for c in chunks] == [300, 300, 300, 100]
    assert np.array_equal(np.concatenate(chunks), whole)
    assert all(c.dtype == np.uint8 and c.shape[1] == 81 for c in chunks)


def test_another_geometry_and_a_pipe(tmp_path):
    gen = sb.generate(50, seed=3, grid="2x2")
    text = "\n".join("".join(str(v) if v else "." for v in row) for row in gen.puzzles) + "\n"
    p = tmp_path / "g.txt"
    p.write_text(text)
    chunks = list(sb.iread(p, chunk=16))
    assert [len(c) for c in chunks] == [16, 16, 16, 2]
    assert np.array_equal(np.concatenate(chunks), gen.puzzles)
    r, w = os.pipe()
    writer = subprocess.Popen(["cat", str(p)], stdout=w)
    os.close(w)
    try:
        piped = list(sb.iread(f"/dev/fd/{r}", chunk=16))
    finally:
        os.close(r)
        writer.wait()
    assert np.array_equal(np.concatenate(piped), gen.puzzles)


def test_an_invalid_line_is_raised_at_its_chunk(tmp_path):
    p = tmp_path / "bad.txt"
    good = puzzles(10)
    p.write_text("\n".join(good[:5] + ["not a puzzle"] + good[5:]) + "\n")
    it = sb.iread(p, chunk=2)
    first = next(it)
    assert len(first) == 2
    with pytest.raises(sb.ParseError) as e:
        for _ in it:
            pass
    assert ":6:" in str(e.value)


def test_bad_arguments():
    with pytest.raises(FileNotFoundError):
        next(sb.iread("/nonexistent/p.txt"))
    with pytest.raises(ValueError):
        next(sb.iread(__file__, chunk=0))
