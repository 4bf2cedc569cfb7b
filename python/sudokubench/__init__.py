"""sudokubench — solve, count, rate, generate and augment 9x9 Sudoku from Python and numpy.

A thin layer over libsudokubench (include/sudokubench.h): every function takes whole arrays
and runs the library's OpenMP batch calls (sb_solve_batch, ...) with one solver per thread,
without the GIL, so Python pays per call, not per puzzle.

Puzzles are given as a numpy uint8 array of shape (n, 81) (0 blank, 1..9 given; row-major
cells), or as a list of strings in any one-line form the library reads (81 cells with
``.0-_`` blanks, Kaggle ``puzzle,solution``, ``puzzle:count:solution``, ...), or as one
string of such lines. ``read(path)`` reads a file in every form the CLI accepts, nine-line
grids included. A line that is not a puzzle raises ParseError naming it, and so does a pencilmark
line that eliminates more than its givens imply (an (n, 81) row holds givens only; the CLI
solves such lines, docs/cli.md).

    >>> import sudokubench as sb
    >>> counts, guesses, solutions = sb.solve(["4.....8.5.3..........7......2.....6....."
    ...                                        "8.4......1.......6.3.7.5..2.....1.4......"])
    >>> int(counts[0]), sb.to_strings(solutions)[0][:9]
    (1, '417369825')
"""
import os
import threading
from collections import namedtuple

import numpy as np

from ._sb import ffi, lib

__all__ = ["solve", "validate", "rate", "generate", "augment", "read", "parse", "to_strings",
           "ParseError", "SudokuError", "SolveResult", "GenerateResult", "CLASSES",
           "PIPELINES", "SYMMETRIES", "__version__"]

__version__ = "0.1.0"
CELLS = 81
#: rate() codes index this tuple (the library's sb_class order)
CLASSES = tuple(ffi.string(lib.sb_class_name(i)).decode() for i in range(5))
#: the registry's pipeline names (custom specs such as "list:ns,hs" are accepted too)
PIPELINES = ("fast", "list", "array", "restart", "singles", "none")
#: generate()'s clue symmetries
SYMMETRIES = ("none", "rot180", "rot90", "mirror", "diagonal")

SolveResult = namedtuple("SolveResult", "counts guesses solutions")
SolveResult.__doc__ = """solve()'s result: counts (uint64, n), guesses (uint64, n), solutions
(uint8, (n, 81), the first solution found, zeros when there is none)."""
GenerateResult = namedtuple("GenerateResult", "puzzles solutions guesses")
GenerateResult.__doc__ = """generate()'s result: puzzles and solutions (uint8, (n, 81)),
guesses (uint64, n: what solve reports with limit 2)."""


class SudokuError(RuntimeError):
    """A library call failed (bad options, out of memory, threads that could not start, ...):
    the message is sb_strerror's, with the system's reason when there is one."""


class ParseError(ValueError):
    """An input line is not a puzzle. Attributes: source (file name or None), line (1-based),
    column (1-based, of the first offending byte) and reason (the library's words)."""

    def __init__(self, source, line, column, reason):
        self.source, self.line, self.column, self.reason = source, line, column, reason
        where = f"{source}:{line}:{column}" if source else f"line {line}, column {column}"
        super().__init__(f"{where}: invalid puzzle: {reason}")


def _check(status, what, err=0):
    """Returns status, or raises SudokuError naming it when it is a library error (< 0); err is
    the call's errno, named for SB_ERR_THREADS (why the threads could not start)."""
    if status < 0:
        text = ffi.string(lib.sb_strerror(status)).decode()
        if status == lib.SB_ERR_THREADS and err:
            text += f": {os.strerror(err)}"
        raise SudokuError(f"{what}: {text}")
    return status


_U64_MAX = (1 << 64) - 1


def _u64(value, name):
    """Checks a whole number 0 .. 2**64-1 (a seed or an index) and returns it as an int."""
    if not isinstance(value, (int, np.integer)) or not 0 <= value <= _U64_MAX:
        raise ValueError(f"{name} must be an integer 0 .. {_U64_MAX}, not {value!r}")
    return int(value)


def _count(n):
    """Checks a number of rows to make (n >= 0) and returns it as an int."""
    if not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be an integer >= 0, not {n!r}")
    return int(n)


def _indices(first, n):
    """Refuses indices first .. first+n-1 that pass 2**64-1 (the library's streams would wrap
    to 0), as `sudokubench generate --first` does."""
    if n and first > _U64_MAX - (n - 1):
        raise ValueError(f"first {first} with n {n} passes the last index ({_U64_MAX})")


def _threads(threads):
    """Checks a thread count (0: every core) and returns it as an int."""
    if not isinstance(threads, (int, np.integer)) or threads < 0:
        raise ValueError(f"threads must be an integer >= 0 (0: every core), not {threads!r}")
    return int(threads)


# Byte value -> cell value for the one-line 81-character form; 255 marks anything else.
_CELL_OF = np.full(256, 255, dtype=np.uint8)
_CELL_OF[ord("1"):ord("9") + 1] = np.arange(1, 10, dtype=np.uint8)
for _blank in ".0-_":
    _CELL_OF[ord(_blank)] = 0


def _parse_one(text, lineno, out):
    """Parses one line with the library (every one-line form) into out. Returns False for a
    line the library skips (blank, comment), raises ParseError for an invalid one."""
    raw = text.encode() if isinstance(text, str) else bytes(text)
    grid = ffi.new("sb_grid *")
    why = ffi.new("char[64]")
    col = ffi.new("size_t *")
    kind = lib.sb_parse_line(raw, len(raw), grid, why, col)
    if kind == lib.SB_LINE_INVALID:
        raise ParseError(None, lineno, int(col[0]), ffi.string(why).decode(errors="replace"))
    if kind == lib.SB_LINE_SKIP:
        return False
    out[:] = np.frombuffer(ffi.buffer(grid.cell), dtype=np.uint8)
    return True


def parse(lines):
    """Parses puzzles from a list of strings (or bytes), one puzzle each in a one-line form,
    or from one string of lines in every form the CLI reads (nine-line grids included;
    blank and '#' lines skipped), into a uint8 array (n, 81). Raises ParseError naming the
    1-based line (list index + 1, or line of the string)."""
    if isinstance(lines, (str, bytes)):
        data = lines.encode() if isinstance(lines, str) else bytes(lines)
        buf = ffi.from_buffer(data)
        f = lib.fmemopen(buf, len(data), b"r") if data else ffi.NULL
        if f == ffi.NULL:
            return np.empty((0, CELLS), dtype=np.uint8)
        return _read_stream(f, None)
    items = list(lines)
    n = len(items)
    out = np.empty((n, CELLS), dtype=np.uint8)
    # Fast path: every item exactly 81 cell characters, mapped in one vector pass.
    if n and all(isinstance(s, str) and len(s) == CELLS for s in items):
        try:
            raw = np.frombuffer("".join(items).encode("ascii"), dtype=np.uint8)
        except UnicodeEncodeError:
            raw = None
        if raw is not None and raw.size == n * CELLS:
            cells = _CELL_OF[raw].reshape(n, CELLS)
            if not (cells == 255).any():
                return cells
    for i, s in enumerate(items):
        if not _parse_one(s, i + 1, out[i]):
            raise ParseError(None, i + 1, 1, "not a puzzle (blank or comment)")
    return out


def read(path):
    """Reads every puzzle of a file in every form the CLI accepts (one per line, Kaggle CSV,
    puzzle:count:solution, pencilmarks, nine-line grids, ...) into a uint8 array (n, 81).
    Raises ParseError (FILE:LINE:COL) at the first invalid record; OSError (its subclass for
    the errno: FileNotFoundError, IsADirectoryError, ...) naming the path when unreadable;
    ValueError for a path with a NUL byte, as open() does."""
    path = os.fspath(path)
    # Python's open() makes the checks C's fopen would get wrong: it refuses a path with a NUL
    # byte (C would open the path cut there) and a directory (fopen accepts one; the first
    # read fails), and names the path and errno. The library reads a duplicate descriptor.
    with open(path, "rb") as opened:
        fd = os.dup(opened.fileno())
    f = lib.fdopen(fd, b"rb")
    if f == ffi.NULL:
        err = ffi.errno
        os.close(fd)
        raise OSError(err, os.strerror(err), path)
    return _read_stream(f, os.fsdecode(path))


def _read_stream(f, source):
    """Reads every record of an open FILE with sb_reader, a chunk of rows per C call, then
    closes it."""
    reader = ffi.new("sb_reader **")
    try:
        _check(lib.sb_reader_open(reader, f), "sb_reader_open")
        bad = ffi.new("sb_record *")
        got_n = ffi.new("size_t *")
        chunks, cap = [], 1 << 16
        while True:
            buf = np.empty((cap, CELLS), dtype=np.uint8)
            got = lib.sb_reader_read_cells(reader[0], _ptr("uint8_t *", buf), cap, got_n, bad)
            chunks.append(buf[:got_n[0]])
            if got == 2:
                raise ParseError(source, int(bad.line), int(bad.col),
                                 ffi.string(bad.why).decode(errors="replace"))
            if got < 0:
                err = ffi.errno
                why = os.strerror(err) if err else ffi.string(lib.sb_strerror(got)).decode()
                raise OSError(err, why, source)
            if got == 0:
                return np.concatenate(chunks)
    finally:
        lib.sb_reader_close(reader[0])
        lib.fclose(f)


def _puzzles(puzzles):
    """Returns puzzles as a C-contiguous uint8 array (n, 81) with cells 0..9."""
    if isinstance(puzzles, (list, tuple)) and puzzles and not isinstance(puzzles[0], (str, bytes)):
        puzzles = np.asarray(puzzles)  # rows of cell values, not text
    if isinstance(puzzles, np.ndarray):
        arr = puzzles
        if arr.ndim == 1 and arr.size == CELLS:
            arr = arr.reshape(1, CELLS)
        if arr.ndim != 2 or arr.shape[1] != CELLS:
            raise ValueError(f"puzzles must have shape (n, 81), not {arr.shape}")
        if arr.dtype != np.uint8:
            if not np.issubdtype(arr.dtype, np.integer):
                raise TypeError(f"puzzles must be an integer array (uint8), not {arr.dtype}")
            if arr.size and (arr.min() < 0 or arr.max() > 9):
                raise ValueError("cells must be 0..9")
            arr = arr.astype(np.uint8)
        arr = np.ascontiguousarray(arr)
        if arr.size and arr.max() > 9:
            row = int(np.flatnonzero((arr > 9).any(axis=1))[0])
            raise ValueError(f"puzzle {row}: cells must be 0..9")
        return arr
    return parse(puzzles)


def _ptr(ctype, arr):
    """A C pointer of type ctype to a contiguous numpy array's data (NULL when empty)."""
    return ffi.cast(ctype, ffi.from_buffer(arr)) if arr.size else ffi.NULL


def _options(limit, pipeline, simd):
    """Builds sb_options from Python arguments, raising ValueError for a bad one."""
    opt = ffi.new("sb_options *")
    lib.sb_options_default(opt)
    if not isinstance(limit, (int, np.integer)) or limit < 0:
        raise ValueError(f"limit must be an integer >= 0 (0: count all), not {limit!r}")
    opt.limit = int(limit)
    spec = ffi.new("char[]", pipeline.encode())
    if lib.sb_options_pipeline(opt, spec) != 0:
        raise ValueError(f"unknown pipeline {pipeline!r} (names: {', '.join(PIPELINES)}, "
                         "or a spec ORDER:T1,T2,...)")
    level = lib.sb_simd_parse(simd.encode())
    if level < -1:
        raise ValueError(f"unknown SIMD level {simd!r}")
    opt.simd = level
    return opt, spec  # spec must stay alive while opt is used


def solve(puzzles, limit=2, pipeline="fast", threads=0, simd="auto"):
    """Solves (counts) every puzzle: limit 1 first solution, 2 uniqueness (default), 0 all.
    Returns SolveResult(counts, guesses, solutions) as numpy arrays; the work runs on
    `threads` threads (0: every core) without the GIL."""
    cells = _puzzles(puzzles)
    n = len(cells)
    opt, spec = _options(limit, pipeline, simd)
    counts = np.zeros(n, dtype=np.uint64)
    guesses = np.zeros(n, dtype=np.uint64)
    solutions = np.zeros((n, CELLS), dtype=np.uint8)
    status = np.zeros(n, dtype=np.int8)
    stop = ffi.new("sig_atomic_t *")
    opt.stop = stop
    nthreads = _threads(threads)

    def call():
        return lib.sb_solve_batch(opt, _ptr("uint8_t *", cells), n, nthreads,
                                  _ptr("uint64_t *", counts), _ptr("uint64_t *", guesses),
                                  _ptr("uint8_t *", solutions), _ptr("int8_t *", status))

    # A few puzzles with the fast kernel and a bounded count take microseconds: not worth a
    # helper thread (every other call may run long enough for Ctrl-C to matter).
    quick = n < 32 and limit != 0 and pipeline == "fast"
    st, err = _batch(call, stop, quick)
    del spec
    _check(st, "solve", err)
    bad = np.flatnonzero(status)
    if bad.size:
        i = int(bad[0])
        _check(int(status[i]), f"solve: puzzle {i}")
    return SolveResult(counts, guesses, solutions)


def _batch(call, stop, quick):
    """Runs call(), a library batch call that polls *stop, and returns its status with the
    errno it left (read on the thread that made the call): directly when quick (too small
    for Ctrl-C to matter), else through _interruptible."""
    def measured():
        status = call()
        return status, ffi.errno

    return measured() if quick else _interruptible(measured, stop)


def _interruptible(call, stop):
    """Runs call() (a C call that polls *stop) so that Ctrl-C ends it: in the main thread the
    call runs on a helper thread while this one waits, so KeyboardInterrupt, which Python
    delivers only to the main thread between bytecodes, raises the stop flag, waits for the
    library to abandon the work (within milliseconds, even inside one long search) and is
    raised again. Elsewhere, or for a call too small to matter, call() runs directly."""
    if threading.current_thread() is not threading.main_thread():
        return call()
    box = []
    worker = threading.Thread(target=lambda: box.append(call()), daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except KeyboardInterrupt:
        stop[0] = 1
        worker.join()
        raise
    return box[0]


def validate(puzzles, threads=0, simd="auto"):
    """Returns a bool array: True where the puzzle is proper (exactly one solution)."""
    return solve(puzzles, limit=2, threads=threads, simd=simd).counts == 1


def rate(puzzles, threads=0):
    """Rates every puzzle: an int8 array of class codes, CLASSES[code] naming each (singles,
    hidden, locked, tuples, search: the weakest technique set that solves it)."""
    cells = _puzzles(puzzles)
    n = len(cells)
    classes = np.zeros(n, dtype=np.int8)
    nthreads = _threads(threads)
    stop = ffi.new("sig_atomic_t *")

    def call():
        return lib.sb_rate_batch_stop(_ptr("uint8_t *", cells), n, nthreads,
                                      _ptr("int8_t *", classes), stop)

    st, err = _batch(call, stop, quick=n < 64)  # below 64 puzzles: a few milliseconds
    _check(st, "rate", err)
    return classes


def generate(n, seed=0, symmetry="none", minimal=False, max_clues=81, first=0, threads=0,
             simd="auto"):
    """Makes puzzles first .. first+n-1 of the seed (the same as `sudokubench generate
    -n N --seed S --first I --symmetry SYM [--minimal] [--clues K]` prints). Returns
    GenerateResult(puzzles, solutions, guesses)."""
    n = _count(n)
    first = _u64(first, "first")
    _indices(first, n)
    opt = ffi.new("sb_gen_options *")
    lib.sb_gen_options_default(opt)
    opt.seed = _u64(seed, "seed")
    sym = lib.sb_symmetry_parse(symmetry.encode())
    if sym < 0:
        raise ValueError(f"unknown symmetry {symmetry!r} (one of {', '.join(SYMMETRIES)})")
    opt.symmetry = sym
    opt.minimal = 1 if minimal else 0
    opt.max_clues = int(max_clues)
    level = lib.sb_simd_parse(simd.encode())
    if level < -1:
        raise ValueError(f"unknown SIMD level {simd!r}")
    opt.simd = level
    puzzles = np.zeros((n, CELLS), dtype=np.uint8)
    solutions = np.zeros((n, CELLS), dtype=np.uint8)
    guesses = np.zeros(n, dtype=np.uint64)
    nthreads = _threads(threads)
    stop = ffi.new("sig_atomic_t *")

    def call():
        return lib.sb_generate_batch_stop(opt, first, n, nthreads, _ptr("uint8_t *", puzzles),
                                          _ptr("uint8_t *", solutions),
                                          _ptr("uint64_t *", guesses), stop)

    # The flag is read between puzzles, not inside one: a handful is quick with the default
    # bounds, and no faster to stop otherwise.
    st, err = _batch(call, stop, quick=n < 16)
    _check(st, "generate", err)
    return GenerateResult(puzzles, solutions, guesses)


def augment(puzzles, n, seed=0, first=0, threads=0):
    """Returns n random validity-preserving transforms (uint8, (n, 81)): row i is puzzle
    (first+i) mod P under the transform drawn from (seed, first+i), the same lines
    `sudokubench augment -n N --seed S` writes for the same P puzzles."""
    cells = _puzzles(puzzles)
    if len(cells) == 0:
        raise ValueError("augment needs at least one puzzle")
    n = _count(n)
    seed = _u64(seed, "seed")
    first = _u64(first, "first")
    _indices(first, n)
    out = np.zeros((n, CELLS), dtype=np.uint8)
    nthreads = _threads(threads)
    stop = ffi.new("sig_atomic_t *")

    def call():
        return lib.sb_augment_batch_stop(_ptr("uint8_t *", cells), len(cells), seed, first, n,
                                         nthreads, _ptr("uint8_t *", out), stop)

    st, err = _batch(call, stop, quick=n < 65536)  # ~100 ns a row: milliseconds below that
    _check(st, "augment", err)
    return out


def to_strings(grids):
    """Formats a uint8 array (n, 81) as 81-character strings, '.' for blanks."""
    arr = np.asarray(grids, dtype=np.uint8).reshape(-1, CELLS)
    chars = np.where(arr == 0, ord("."), arr + ord("0")).astype(np.uint8)
    return [row.tobytes().decode("ascii") for row in chars]
