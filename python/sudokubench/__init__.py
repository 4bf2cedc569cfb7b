"""sudokubench — solve, count, rate, generate and augment Sudoku of any geometry from Python
and numpy.

A thin layer over libsudokubench (include/sudokubench.h): every function takes whole arrays
and runs the library's OpenMP batch calls (sb_solve_batch, sb_gsolve_batch, ...) with one
solver per thread, without the GIL, so Python pays per call, not per puzzle. Ctrl-C stops
every call (the library polls a stop flag, even inside one long search).

Puzzles are given as a numpy uint8 array of shape (n, cells) (0 blank, 1..N given; cells in
the geometry's order, row-major for square grids), or as a list of strings in any one-line
form the library reads, or as one string of such lines. ``read(path)`` reads a file in every
form the CLI accepts, nine-line grids included. A line that is not a puzzle raises
ParseError naming it, and so does a pencilmark line that eliminates more than its givens
imply (an (n, 81) row holds givens only; the CLI solves such lines, docs/cli.md).

Geometries. Every call takes ``grid=``: None (the default) is the 9x9 grid on its fastest
path, (n, 81) arrays; a string is what the CLI's ``--grid`` takes: "RxC" boxed grids ("2x2"
is 4x4 Sudoku, "4x4" is 16x16, "3x3" the 9x9 grid through the general engine), "latin:N",
"cube:K", "x:RxC" (diagonals); a Geometry (``Geometry(spec)``, or ``Geometry.load(path)``
for a jigsaw or house-list file, docs/geometry.md) is any of these. Arrays are then
(n, geometry.cells). Text given without ``grid=`` (read, parse, and strings passed to the
other calls) takes its geometry from the first puzzle line's cell count as the CLI does:
81 is 9x9, 16 is "2x2", 256 is "4x4", ...; ``detect()`` says which.

Arguments are checked before the library sees them, each error naming the argument: text is
a str or bytes-like (bytes, bytearray, memoryview), and a list holds texts or rows of cell
values, not both; cell arrays hold integers (TypeError for floats) within 0..N of the geometry
(ValueError naming the puzzle, cell and value: nothing wraps around); names (pipeline, simd,
pair, symmetry, grid specs) are strings (TypeError otherwise: simd=None is refused, its
default is "auto"); counts, seeds, indices and limits are integers (TypeError for a float or
bool) in range (ValueError: negative, past 2**64-1, threads past 1024 as the CLI's -t); bench
seconds are a number 0..1000000 as the CLI's --seconds (ValueError for NaN or an infinity).

    >>> import sudokubench as sb
    >>> counts, guesses, solutions = sb.solve(["4.....8.5.3..........7......2.....6....."
    ...                                        "8.4......1.......6.3.7.5..2.....1.4......"])
    >>> int(counts[0]), sb.to_strings(solutions)[0][:9]
    (1, '417369825')
    >>> r = sb.solve(["1.3..2.........."], grid="2x2", limit=0)   # 4x4 Sudoku: 16 cells
    >>> int(r.counts[0]), sb.to_strings(r.solutions, grid="2x2")[0]
    (6, '1432321421434321')
"""
import errno
import io
import itertools
import os
import threading
from collections import namedtuple

import numpy as np

from ._sb import ffi, lib

__all__ = ["solve", "validate", "rate", "generate", "augment", "bench", "read", "iread", "parse",
           "detect", "to_strings", "Geometry", "Plugin", "ParseError", "SudokuError", "SolveResult",
           "GenerateResult", "RateResult", "BenchResult", "VERDICTS", "CLASSES", "PIPELINES", "SYMMETRIES", "TECHNIQUES",
           "PAIR_POLICIES", "__version__"]

__version__ = "1.0.0"
CELLS = lib.SB_CELLS  # the 9x9 path's cells (grid=None)
#: rate() codes index this tuple (the library's sb_class order)
#: (sb_class_name answers "?" past the last class, so the list follows the library's)
CLASSES = tuple(itertools.takewhile(
    lambda name: name != "?", (ffi.string(lib.sb_class_name(i)).decode() for i in range(64))))
#: the registry's pipeline names (custom specs such as "list:ns,hs" are accepted too)
PIPELINES = ("fast", "list", "array", "restart", "singles", "none")
#: generate()'s clue symmetries
SYMMETRIES = ("none", "rot180", "rot90", "mirror", "diagonal")
#: the columns of rate(..., counters=True).eliminations (the library's sb_technique order)
TECHNIQUES = tuple(ffi.string(lib.sb_techniques(ffi.new("size_t *"))[t].name).decode()
                   for t in range(lib.SB_TECH_COUNT))

SolveResult = namedtuple("SolveResult", "counts guesses solutions")
SolveResult.__doc__ = """solve()'s result: counts (uint64, n), guesses (uint64, n), solutions
(uint8, (n, cells), the first solution found, zeros when there is none)."""
GenerateResult = namedtuple("GenerateResult", "puzzles solutions guesses")
GenerateResult.__doc__ = """generate()'s result: puzzles and solutions (uint8, (n, cells)),
guesses (uint64, n: what solve reports with limit 2)."""
RateResult = namedtuple("RateResult", "classes eliminations")
RateResult.__doc__ = """rate(..., counters=True)'s result: classes (int8, n) as rate() returns,
eliminations (uint64, (n, len(TECHNIQUES))): what each technique removed in the rating run."""
BenchResult = namedtuple(
    "BenchResult", "verdicts verdict_counts guesses no_guess eliminations passes seconds "
    "puzzles_per_second simd calls paired")
BenchResult.__doc__ = """bench()'s result, what `sudokubench bench` reports for one row:
verdicts (uint8, n: each puzzle's VERDICTS index from the checked warm-up pass),
verdict_counts (uint64, 3: puzzles per verdict), guesses and no_guess (over the warm-up pass:
guesses, puzzles solved without one), eliminations (uint64, len(TECHNIQUES): what each
technique removed in the warm-up pass), passes and seconds (the timed passes, monotonic
clock), puzzles_per_second (passes * n / seconds), simd (the level that ran) and calls
(uint64, len(TECHNIQUES): how many times each technique ran in the warm-up pass, whether or not
it found anything: the CLI's `calls`) and paired (how many puzzles of the warm-up pass went to
a paired kernel, two searched side by side: what the pair policy chose; 0 where no paired
kernel exists; the CLI's `paired_pct` as a count). New fields come last, so the fields before
keep their places."""
#: the pair policies solve(pair=) and bench(pair=) take (the library's sb_pair order)
PAIR_POLICIES = tuple(ffi.string(lib.sb_pair_name(p)).decode() for p in range(3))
#: bench() verdicts index this tuple (the library's sb_verdict order)
VERDICTS = ("unsolvable", "unique", "multiple")

# The library's generator and augmenter of any geometry; a build against a header without
# them (see _build.py) has neither, and generate/augment then refuse grid=.
_HAVE_GDATASET = hasattr(lib, "sb_ggenerate_batch")
# ... and its options (symmetry, clue bound on any geometry), newer still.
_HAVE_GGEN_OPTS = hasattr(lib, "sb_ggenerate_batch_opts")


def _cfile(opened, path):
    """A C FILE* of its own over the file Python opened (a dup of its descriptor, so closing
    either leaves the other open); raises OSError naming path when fdopen fails."""
    fd = os.dup(opened.fileno())
    f = lib.fdopen(fd, b"rb")
    if f == ffi.NULL:
        err = ffi.errno
        os.close(fd)
        raise OSError(err, os.strerror(err), path)
    return f

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


# ------------------------------------------------------------------------------------------
# Solver plug-ins
# ------------------------------------------------------------------------------------------

class Plugin:
    """A solver or technique plug-in (docs/plugins.md): a shared object built against
    sudokubench_plugin.h. ``Plugin(path)`` loads it (ValueError naming the file and the reason
    when it cannot be loaded or its ABI, name or calls are wrong). Pass a solver plug-in as
    ``plugin=`` to solve() to count with it instead of a pipeline; pass a technique plug-in
    the same way and name it in the pipeline ("fast+NAME", "restart:ns,hs,lc,NAME"). It
    stays loaded while this object lives.

    Attributes: name (the row's or the technique's name), about (one line), one_thread
    (True when it keeps global state: solve() then runs on one thread), technique (True for
    a technique plug-in)."""

    __slots__ = ("_ptr", "name", "about", "one_thread", "technique", "path")

    def __init__(self, path):
        self.path = os.fspath(path)
        out = ffi.new("sb_plugin **")
        why = ffi.new("char[]", lib.SB_PLUGIN_WHY)
        st = lib.sb_plugin_open(os.fsencode(self.path), out, why, len(why))
        if st == lib.SB_ERR_PLUGIN:
            raise ValueError(f"{self.path}: {ffi.string(why).decode(errors='replace')}")
        _check(st, "Plugin")
        self._ptr = ffi.gc(out[0], lib.sb_plugin_close)
        self.name = ffi.string(lib.sb_plugin_name(out[0])).decode()
        self.about = ffi.string(lib.sb_plugin_about(out[0])).decode()
        self.one_thread = bool(lib.sb_plugin_one_thread(out[0]))
        self.technique = bool(lib.sb_plugin_is_technique(out[0]))

    def accepts(self, grid=None):
        """True when the plug-in solves grids of this geometry (None: 9x9)."""
        g = _geometry(grid)
        return bool(lib.sb_plugin_accepts(self._ptr, _gptr(g)))

    def __repr__(self):
        return f"Plugin({self.path!r}: {self.name})"


# ------------------------------------------------------------------------------------------
# Geometries
# ------------------------------------------------------------------------------------------

_KINDS = ("boxed", "latin", "cube", "x", "jigsaw", "houses")


def _why_buffer():
    return ffi.new("char[]", lib.SB_GEO_WHY_LEN)


class Geometry:
    """A grid's cells, digits and houses (sb_geometry), immutable. ``Geometry("4x4")`` makes a
    built-in one from the CLI's --grid word ("RxC", "latin:N", "cube:K", "x:RxC"; ValueError
    naming the valid forms otherwise); ``Geometry.load(path)`` reads a geometry file (jigsaw
    or house list, docs/geometry.md). Pass either as ``grid=`` to every call.

    Attributes: name ("4x4", "jigsaw:6", ...), kind (boxed, latin, cube, x, jigsaw, houses),
    cells, digits (N: every house holds 1..N once), houses (a read-only uint16 array of shape
    (number of houses, N): the cells of each house, ascending), layout (rows, cols, box_rows,
    box_cols of the printed grid)."""

    __slots__ = ("_ptr", "name", "kind", "cells", "digits", "_houses")

    def __init__(self, spec):
        if not isinstance(spec, str):
            raise TypeError(f"a geometry spec is a string such as '4x4', not {spec!r} "
                            "(Geometry.load(path) reads a file)")
        out = ffi.new("sb_geometry **")
        why = _why_buffer()
        st = lib.sb_geometry_parse(_name(spec, "spec"), out, why, len(why))
        if st == lib.SB_ERR_ARG:
            raise ValueError(ffi.string(why).decode(errors="replace"))
        _check(st, "Geometry")
        self._own(out[0])

    @classmethod
    def load(cls, path):
        """Reads a geometry file ("jigsaw N" and N rows of region letters, or "houses CELLS N"
        and one house per line). Raises ValueError (FILE:LINE: reason) for a malformed file,
        OSError naming the path when it cannot be read."""
        path = os.fspath(path)
        with open(path, "rb") as opened:  # Python's checks and errors, as read() does
            f = _cfile(opened, path)
        out = ffi.new("sb_geometry **")
        why = _why_buffer()
        try:
            st = lib.sb_geometry_read(f, os.fsencode(path), out, why, len(why))
            err = ffi.errno
        finally:
            lib.fclose(f)
        if st == lib.SB_ERR_ARG:
            raise ValueError(ffi.string(why).decode(errors="replace"))
        if st == lib.SB_ERR_IO:
            raise OSError(err, os.strerror(err) if err else "read error", path)
        _check(st, "Geometry.load")
        obj = cls.__new__(cls)
        obj._own(out[0])
        return obj

    @classmethod
    def _adopt(cls, ptr):
        """Wraps a geometry the library made (it is freed with this object)."""
        obj = cls.__new__(cls)
        obj._own(ptr)
        return obj

    def _own(self, ptr):
        self._ptr = ffi.gc(ptr, lib.sb_geometry_free)
        self.name = ffi.string(lib.sb_geometry_name(ptr)).decode()
        self.kind = _KINDS[lib.sb_geometry_kind_of(ptr)]
        self.cells = lib.sb_geometry_cells(ptr)
        self.digits = lib.sb_geometry_digits(ptr)
        self._houses = None

    @property
    def houses(self):
        if self._houses is None:
            n, nh = self.digits, lib.sb_geometry_houses(self._ptr)
            h = np.empty((nh, n), dtype=np.uint16)
            for i in range(nh):
                h[i] = np.frombuffer(ffi.buffer(lib.sb_geometry_house(self._ptr, i), 2 * n),
                                     dtype=np.uint16)
            h.setflags(write=False)
            self._houses = h
        return self._houses

    @property
    def layout(self):
        out = ffi.new("sb_geometry_layout *")
        lib.sb_geometry_layout_of(self._ptr, out)
        return (out.rows, out.cols, out.box_rows, out.box_cols)

    def peers(self, cell):
        """The cells sharing a house with cell (0 .. cells-1), ascending, as a list."""
        cell = _int(cell, "cell", 0, self.cells - 1)
        count = ffi.new("int *")
        p = lib.sb_geometry_peers(self._ptr, cell, count)
        return [p[i] for i in range(count[0])]

    def is_solution(self, solutions, puzzles=None):
        """A bool array: True where row i of solutions (n, cells) fills every house with
        1..N once and keeps every given of row i of puzzles (when given) (sb_gsolution_check)."""
        sol = _cells_array(solutions, self, "solutions")
        puz = None if puzzles is None else _cells_array(puzzles, self, "puzzles")
        if puz is not None and puz.shape != sol.shape:
            raise ValueError(f"puzzles {puz.shape} and solutions {sol.shape} differ in shape")
        out = np.zeros(len(sol), dtype=bool)
        for i in range(len(sol)):
            p = ffi.NULL if puz is None else ffi.from_buffer(puz[i])
            out[i] = bool(lib.sb_gsolution_check(self._ptr, p, ffi.from_buffer(sol[i])))
        return out

    def __repr__(self):
        nh = lib.sb_geometry_houses(self._ptr)
        return (f"<Geometry {self.name}: {self.cells} cells, {self.digits} digits, "
                f"{nh} houses>")


# The built-in geometries by spec word, each made once: a geometry is immutable and shared.
_BY_SPEC = {}
_BY_SPEC_LOCK = threading.Lock()


def _geometry(grid):
    """The Geometry grid= names (None stays None: the 9x9 path)."""
    if grid is None or isinstance(grid, Geometry):
        return grid
    if isinstance(grid, str):
        with _BY_SPEC_LOCK:
            g = _BY_SPEC.get(grid)
            if g is None:
                g = _BY_SPEC[grid] = Geometry(grid)
        return g
    raise TypeError(f"grid must be None (9x9), a spec such as '4x4' or a Geometry, not {grid!r}")


_PEEK = 1 << 16  # bytes past the first puzzle line looked at to tell the geometry (as the CLI)
_BOM = b"\xef\xbb\xbf"


def _look(f, keep):
    """Reads binary file f up to _PEEK bytes past its first line that is neither blank nor a
    comment, however far that is (comment lines of any length are skipped, as every reader
    skips them). Returns (head, skipped, more, kept): head the bytes from that line on (at most
    _PEEK), skipped the lines before it, more whether f goes on past head, kept every byte
    read when keep (a pipe cannot give them back), else None."""
    kept = [] if keep else None
    skipped = 0
    while True:
        line = f.readline(_PEEK)
        if keep:
            kept.append(line)
        if not line:
            return b"", skipped, False, (b"".join(kept) if keep else None)
        body = line[len(_BOM):] if skipped == 0 and line.startswith(_BOM) else line
        stripped = body.lstrip(b" \t")
        if stripped.startswith(b"#") or not stripped.strip(b"\r\n"):
            while not line.endswith(b"\n"):  # the rest of a comment longer than _PEEK
                line = f.readline(_PEEK)
                if keep:
                    kept.append(line)
                if not line:
                    break
            skipped += 1
            continue
        rest = f.read(_PEEK - len(line) + 1)
        if keep:
            kept.append(rest)
        head = line + rest
        return (head[:_PEEK], skipped, len(head) > _PEEK,
                (b"".join(kept) if keep else None))


def _detect(text, more, source, skipped=0):
    """The geometry of an input whose first puzzle line starts text (bytes; more: it goes on
    past them; skipped: the lines before it), as the CLI picks it without --grid: None for
    9x9, else a Geometry. Raises ValueError when the cell count fits another shape than a
    boxed grid ("27 cells ...: pass grid='cube:3'")."""
    out = ffi.new("sb_geometry **")
    line = ffi.new("uint64_t *")
    why = _why_buffer()
    st = lib.sb_geometry_detect(text, len(text), 1 if more else 0, out, line, why, len(why))
    if st == lib.SB_ERR_ARG:
        reason = ffi.string(why).decode(errors="replace")
        head, sep, spec = reason.partition("say ")
        reason = f"{head}pass grid='{spec}'" if sep else f"{reason} (pass grid=)"
        at = line[0] + skipped
        where = f"{source}:{at}" if source else f"line {at}"
        raise ValueError(f"{where}: cannot tell the geometry: {reason}")
    _check(st, "detect")
    return None if out[0] == lib.sb_geometry_9x9() else Geometry._adopt(out[0])


def detect(source):
    """The geometry read() and parse() give puzzles without grid=, as the CLI picks it from the
    first puzzle line's cell count: None for 9x9 (81 cells, or anything the 9x9 reader takes),
    else the square boxed Geometry of that count (16 cells: "2x2", 256: "4x4"). source is a
    file's path, or a list of puzzle strings (its first decides). ValueError when the count
    fits another shape ("27 cells is not an N x N grid: pass grid='cube:3'")."""
    if isinstance(source, (list, tuple)):
        first = _text(source[0], "source[0]") if source else b""
        return _detect(first, False, None)
    path = os.fspath(source)
    with open(path, "rb") as f:
        head, skipped, more, _ = _look(f, False)
    return _detect(head, more, os.fsdecode(path), skipped)


# ------------------------------------------------------------------------------------------
# Arguments
# ------------------------------------------------------------------------------------------

_U64_MAX = (1 << 64) - 1
# Rows of an array (a count to make): what numpy can index, and a C size_t holds.
_MAX_ROWS = int(np.iinfo(np.intp).max)
# Threads of a call: the CLI's -t bound (1..1024), 0 meaning every core.
_MAX_THREADS = 1024
# bench(seconds=): what sb_bench_time takes, the CLI's --seconds bound (0..1000000).
_MAX_SECONDS = lib.SB_BENCH_MAX_SECONDS


def _int(value, name, lo=None, hi=None, note=""):
    """Checks a whole number lo .. hi (both None: any; the caller checks the range) and
    returns it as an int: TypeError for anything but an int or numpy integer (bool, float and
    str included), ValueError out of range. Every count, index, seed and size argument goes
    through here, so no C conversion can overflow and none is reinterpreted (a float
    truncated, a negative wrapped)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, not {value!r}")
    v = int(value)
    if lo is not None and not lo <= v <= hi:
        raise ValueError(f"{name} must be an integer {lo} .. {hi}{note}, not {v}")
    return v


def _u64(value, name):
    """A seed or an index: 0 .. 2**64-1."""
    return _int(value, name, 0, _U64_MAX)


def _count(n):
    """A number of rows to make: 0 .. what an array can hold."""
    return _int(n, "n", 0, _MAX_ROWS)


def _indices(first, n):
    """Refuses indices first .. first+n-1 that pass 2**64-1 (the library's streams would wrap
    to 0), as `sudokubench generate --first` does."""
    if n and first > _U64_MAX - (n - 1):
        raise ValueError(f"first {first} with n {n} passes the last index ({_U64_MAX})")


def _threads(threads):
    """A thread count: 0 (every core) .. the CLI's bound."""
    return _int(threads, "threads", 0, _MAX_THREADS, " (0: every core)")


def _seconds(value, name="seconds"):
    """A duration in seconds, 0 .. the CLI's --seconds bound, as a float: TypeError for a
    non-number, ValueError for NaN, an infinity, a negative or a larger one (each would keep
    the timing loop from ending, or end it at once)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, not {value!r}")
    if not 0 <= value <= _MAX_SECONDS:  # False for NaN; exact for a huge int
        raise ValueError(f"{name} must be a number 0 .. {_MAX_SECONDS}, not {value!r}")
    return float(value)


def _name(value, name):
    """A name or spec argument (pipeline, simd, pair, symmetry, a geometry spec) as bytes for
    C: TypeError for anything but a str, ValueError for a NUL character (C would read the
    name cut there)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, not {value!r}")
    if "\0" in value:
        raise ValueError(f"{name} must not contain a NUL character: {value!r}")
    return value.encode()


_TEXT_TYPES = (str, bytes, bytearray, memoryview)


def _is_text(value):
    """True for one text: a str or a bytes-like object (bytes, bytearray, memoryview)."""
    return isinstance(value, _TEXT_TYPES)


def _items(values, name):
    """values, a list, tuple or other iterable of puzzles, as a list; TypeError naming the
    argument for a value that is none of them."""
    if isinstance(values, list):
        return values
    try:
        return list(values)
    except TypeError:
        raise TypeError(f"{name} must be text, a list of puzzle strings or an array of cells, "
                        f"not {type(values).__name__}") from None


def _all_str(items):
    """True when every item is a str (one pass in C over the items' types)."""
    return set(map(type, items)) <= {str}


def _text(value, name):
    """value, one text, as bytes: a str (UTF-8) or a bytes-like object (bytes, bytearray, a
    memoryview of bytes); TypeError naming the argument for anything else (an array or a
    number is no text, and bytes() of one would be its raw or NUL bytes)."""
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, memoryview) and value.ndim == 1 and value.format in ("B", "b", "c"):
        return value.tobytes()
    what = (f"a memoryview of format {value.format!r}" if isinstance(value, memoryview)
            else type(value).__name__)
    raise TypeError(f"{name} must be text (str or bytes), not {what}")


# ------------------------------------------------------------------------------------------
# Reading
# ------------------------------------------------------------------------------------------

# Byte value -> cell value for the one-line 81-character form; 255 marks anything else.
_CELL_OF = np.full(256, 255, dtype=np.uint8)
_CELL_OF[ord("1"):ord("9") + 1] = np.arange(1, 10, dtype=np.uint8)
for _blank in ".0-_":
    _CELL_OF[ord(_blank)] = 0


def _parse_one(text, lineno, out):
    """Parses one line with the library (every one-line form) into out. Returns False for a
    line the library skips (blank, comment), raises ParseError for an invalid one."""
    raw = _text(text, f"line {lineno}")
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


def _memfile(data):
    """An open read-only FILE over bytes data (which must outlive it), or NULL when empty."""
    return lib.fmemopen(ffi.from_buffer(data), len(data), b"r") if data else ffi.NULL


def parse(lines, grid=None):
    """Parses puzzles from a list of strings (or bytes-like: bytes, bytearray, memoryview),
    one puzzle each in a one-line form, or from one such text of lines in every form the CLI
    reads (nine-line grids included; blank and '#' lines skipped), into a uint8 array
    (n, cells). Without grid= the first line's cell count picks the geometry (detect()): 81
    is 9x9. Raises ParseError naming the 1-based line (list index + 1, or line of the
    string), TypeError naming an item that is no text (an array: pass it to the other calls
    as it is)."""
    return _parse(lines, _geometry(grid), grid is None, "lines")[0]


def _parse(lines, g, may_detect, name):
    """parse() returning (cells, geometry): g None is 9x9 unless may_detect and the first
    line says another geometry. name is the argument lines came as, for a TypeError."""
    if _is_text(lines):
        data = _text(lines, name)
        if may_detect:
            head, skipped, more, _ = _look(io.BytesIO(data), False)
            g = _detect(head, more, None, skipped)
        f = _memfile(data)
        if f == ffi.NULL:
            return np.empty((0, g.cells if g else CELLS), dtype=np.uint8), g
        return (_read_stream(f, None) if g is None else _read_gstream(f, g, None)), g
    items = _items(lines, name)
    if not _all_str(items):  # each other item as bytes, or a TypeError naming it
        items = [s if isinstance(s, str) else _text(s, f"{name}[{i}]")
                 for i, s in enumerate(items)]
    n = len(items)
    if may_detect and n and not (isinstance(items[0], str) and len(items[0]) == CELLS):
        first = items[0]
        g = _detect(first.encode() if isinstance(first, str) else first, False, None)
    if g is not None:
        return _parse_items(items, g), g
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
                return cells, None
    for i, s in enumerate(items):
        if not _parse_one(s, i + 1, out[i]):
            raise ParseError(None, i + 1, 1, "not a puzzle (blank or comment)")
    return out, None


def _parse_items(items, g):
    """Parses a list of one-line puzzles of geometry g with the geometry's reader (the
    clash check included): item i is line i+1 of one text."""
    raws = [_text(s, f"item {i}") for i, s in enumerate(items)]
    for i, raw in enumerate(raws):
        k = raw.find(b"\n")
        if k >= 0:
            raise ParseError(None, i + 1, k + 1, "a line break inside one puzzle")
    data = b"\n".join(raws) + b"\n" if raws else b""
    f = _memfile(data)
    if f == ffi.NULL:
        return np.empty((0, g.cells), dtype=np.uint8)
    cells, lines = _read_gstream(f, g, None, with_lines=True)
    if len(cells) != len(raws):  # the reader skipped a blank or comment item
        missing = next(i for i, ln in enumerate(list(lines) + [0]) if ln != i + 1)
        raise ParseError(None, missing + 1, 1, "not a puzzle (blank or comment)")
    return cells


def read(path, grid=None):
    """Reads every puzzle of a file into a uint8 array (n, cells): for 9x9, every form the
    CLI accepts (one per line, Kaggle CSV, puzzle:count:solution, pencilmarks, nine-line
    grids, ...); for another geometry one puzzle per line, a character per cell or integers
    separated by commas or spaces. Without grid= the first puzzle line's cell count picks the
    geometry (detect(); 81 is 9x9). Raises ParseError (FILE:LINE:COL) at the first invalid
    record (a clash of two givens in a house is one on other geometries); OSError (its
    subclass for the errno: FileNotFoundError, IsADirectoryError, ...) naming the path when
    unreadable; ValueError for a path with a NUL byte, as open() does, or when the geometry
    cannot be told."""
    f, g, source, data = _open_input(path, grid)
    if f is None:
        return np.empty((0, g.cells if g else CELLS), dtype=np.uint8)
    cells = _read_stream(f, source) if g is None else _read_gstream(f, g, source)
    del data  # a pipe's bytes, read by f until here
    return cells


def _open_input(path, grid):
    """Opens path for the library's readers: returns (FILE, geometry or None for 9x9, the
    path as text for messages, the bytes a pipe's FILE reads, which must outlive it, or
    None), the FILE None for an empty pipe. Without grid the first puzzle line's cell count
    picks the geometry."""
    path = os.fspath(path)
    source = os.fsdecode(path)
    g = _geometry(grid)
    # Python's open() makes the checks C's fopen would get wrong: it refuses a path with a NUL
    # byte (C would open the path cut there) and a directory (fopen accepts one; the first
    # read fails), and names the path and errno. The library reads a duplicate descriptor.
    with open(path, "rb") as opened:
        if grid is None:
            seekable = opened.seekable()
            head, skipped, more, kept = _look(opened, not seekable)
            g = _detect(head, more, source, skipped)
            if not seekable:  # a pipe: what was looked at is gone from it, so read it all
                data = kept + opened.read()
                f = _memfile(data)
                return (None if f == ffi.NULL else f), g, source, data
            opened.seek(0)
        return _cfile(opened, path), g, source, None


def iread(path, grid=None, chunk=1 << 16):
    """Yields the puzzles of a file as read() reads them, as uint8 arrays of up to chunk rows
    (n, cells), in file order, holding one chunk at a time: constant memory for any file
    size. A file is a path; a pipe without grid= is read whole first (the geometry is told
    from its first line, which a pipe cannot give back), with grid= it streams too. Raises
    as read() does, when the chunk that holds the fault is reached."""
    chunk = _int(chunk, "chunk", 1, 1 << 24)
    f, g, source, data = _open_input(path, grid)  # data lives in this frame while f reads it
    if f is None:
        return
    if g is None:
        yield from _iter_stream(f, source, chunk)
    else:
        yield from (cells for cells, _ in _iter_gstream(f, g, source, chunk))
    del data


def _read_stream(f, source):
    """Reads every record of an open FILE with sb_reader, then closes it."""
    chunks = list(_iter_stream(f, source, 1 << 16))
    return np.concatenate(chunks) if chunks else np.empty((0, CELLS), dtype=np.uint8)


def _iter_stream(f, source, cap):
    """Yields the records of an open FILE read with sb_reader, up to cap rows a chunk (one C
    call each), then closes it (also when the caller stops early)."""
    reader = ffi.new("sb_reader **")
    try:
        _check(lib.sb_reader_open(reader, lib.sb_geometry_9x9(), f), "sb_reader_open")
        bad = ffi.new("sb_record *")
        got_n = ffi.new("size_t *")
        while True:
            buf = np.empty((cap, CELLS), dtype=np.uint8)
            got = lib.sb_reader_read_cells(reader[0], _ptr("uint8_t *", buf), cap, got_n, bad)
            if got_n[0]:
                yield buf[:got_n[0]]
            if got == 2:
                raise ParseError(source, int(bad.line), int(bad.col),
                                 ffi.string(bad.why).decode(errors="replace"))
            if got < 0:
                err = ffi.errno
                why = os.strerror(err) if err else ffi.string(lib.sb_strerror(got)).decode()
                raise OSError(err, why, source)
            if got == 0:
                return
    finally:
        lib.sb_reader_close(reader[0])
        lib.fclose(f)


def _read_gstream(f, g, source, with_lines=False):
    """Reads every record of an open FILE with the reader of geometry g (sb_reader), then
    closes it. Returns the cells (n, g.cells), and with with_lines also each row's line."""
    parts = list(_iter_gstream(f, g, source, 1 << 14))
    cells = (np.concatenate([c for c, _ in parts]) if parts
             else np.empty((0, g.cells), dtype=np.uint8))
    lines = (np.concatenate([l for _, l in parts]) if parts else np.empty(0, dtype=np.uint64))
    return (cells, lines) if with_lines else cells


def _iter_gstream(f, g, source, cap):
    """Yields (cells, lines) chunks of up to cap records of an open FILE read with the reader
    of geometry g (sb_reader), then closes it (also when the caller stops early)."""
    reader = ffi.new("sb_reader **")
    nc = g.cells
    try:
        _check(lib.sb_reader_open(reader, g._ptr, f), "sb_reader_open")
        rec = ffi.new("sb_record *")
        n = 0
        buf = np.empty((cap, nc), dtype=np.uint8)
        lines = np.empty(cap, dtype=np.uint64)
        base = ffi.cast("uint8_t *", ffi.from_buffer(buf))
        while True:
            if n == cap:  # a full chunk goes out; the next one is new memory
                yield buf, lines
                n = 0
                buf = np.empty((cap, nc), dtype=np.uint8)
                lines = np.empty(cap, dtype=np.uint64)
                base = ffi.cast("uint8_t *", ffi.from_buffer(buf))
            got = lib.sb_reader_next(reader[0], rec, base + n * nc, ffi.NULL)
            if got == 0:
                break
            if got < 0:
                err = ffi.errno
                if got == lib.SB_ERR_IO and err == errno.EINTR:
                    continue  # nothing consumed: Python runs its signal handlers, then again
                why = os.strerror(err) if err else ffi.string(lib.sb_strerror(got)).decode()
                raise OSError(err, why, source)
            if rec.kind == lib.SB_LINE_INVALID:
                raise ParseError(source, int(rec.line), int(rec.col),
                                 ffi.string(rec.why).decode(errors="replace"))
            lines[n] = rec.line
            n += 1
        if n:
            yield buf[:n], lines[:n]
    finally:
        lib.sb_reader_close(reader[0])
        lib.fclose(f)


def _grid_hint(ncells):
    """Says which grid= fits rows of ncells cells, for an error message."""
    out = ffi.new("sb_geometry **")
    if lib.sb_geometry_for_cells(ncells, out, ffi.NULL, 0) == 0:
        name = ffi.string(lib.sb_geometry_name(out[0])).decode()
        lib.sb_geometry_free(out[0])
        return f"pass grid='{name}' for {ncells} cells"
    return "pass grid= for another geometry"


def _cells_array(values, g, name="puzzles"):
    """Returns an array-like of cell values as a C-contiguous uint8 array (n, cells) of
    geometry g (None: 9x9) with cells 0..N, or raises ValueError naming the argument (name)
    and the first bad value (a wrong shape, a cell outside 0..N: never wrapped into uint8) or
    TypeError for an array of non-integers (floats are never truncated)."""
    nc, nd = (g.cells, g.digits) if g is not None else (CELLS, 9)
    try:
        arr = np.asarray(values)
    except ValueError as e:  # rows of different lengths
        raise ValueError(f"{name} must be an array (n, {nc}) of cell values: {e}") from None
    if arr.ndim == 0:
        raise TypeError(f"{name} must be an array (n, {nc}) of cell values, not "
                        f"{type(values).__name__}")
    if arr.ndim == 1 and arr.size == nc:
        arr = arr.reshape(1, nc)
    if arr.ndim != 2 or arr.shape[1] != nc:
        what = f"geometry {g.name}" if g is not None else "9x9 (grid=None)"
        hint = "" if g is not None else f": {_grid_hint(arr.shape[-1])}"
        raise ValueError(f"{name} must have shape (n, {nc}) for {what}, not {arr.shape}{hint}")
    if arr.size == 0:
        return np.zeros(arr.shape, dtype=np.uint8)
    if arr.dtype != np.uint8 and (arr.dtype == np.bool_ or
                                  not np.issubdtype(arr.dtype, np.integer)):
        raise TypeError(f"{name} must be an integer array (uint8), not {arr.dtype}")
    if arr.max() > nd or (arr.dtype != np.uint8 and arr.min() < 0):
        row, col = (int(k) for k in np.argwhere((arr < 0) | (arr > nd))[0])
        raise ValueError(f"{name}: puzzle {row}: cells must be 0..{nd}, not "
                         f"{int(arr[row, col])} (cell {col})")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def _input(puzzles, grid):
    """Returns (cells, geometry) for a call's puzzles: an array of grid's width, or text
    parsed as parse() does (its geometry detected from the first line when grid is None).
    A list holds either texts or rows of cell values: TypeError for a mix, which has no
    one meaning."""
    g = _geometry(grid)
    if isinstance(puzzles, np.ndarray):
        return _cells_array(puzzles, g), g
    if _is_text(puzzles):
        return _parse(puzzles, g, grid is None, "puzzles")
    items = _items(puzzles, "puzzles")
    kinds = {issubclass(t, _TEXT_TYPES) for t in set(map(type, items))}
    if kinds == {True, False}:
        i = next(k for k, s in enumerate(items) if _is_text(s) != _is_text(items[0]))
        raise TypeError(f"puzzles must hold either texts or rows of cell values, not both: "
                        f"puzzles[0] is {type(items[0]).__name__}, puzzles[{i}] is "
                        f"{type(items[i]).__name__}")
    if kinds == {False}:
        return _cells_array(items, g), g  # rows of cell values, not text
    return _parse(items, g, grid is None, "puzzles")


def _ptr(ctype, arr):
    """A C pointer of type ctype to a contiguous numpy array's data (NULL when empty)."""
    return ffi.cast(ctype, ffi.from_buffer(arr)) if arr.size else ffi.NULL


def _gptr(g):
    """The library's geometry pointer for g (None: the 9x9 grid, sb_geometry_9x9)."""
    return lib.sb_geometry_9x9() if g is None else g._ptr


# ------------------------------------------------------------------------------------------
# The batch calls
# ------------------------------------------------------------------------------------------

def _simd(simd):
    """The level a name ("auto", "scalar", "avx2", ...) says; TypeError for a non-string
    (None included: the default is "auto"), ValueError for an unknown name."""
    level = lib.sb_simd_parse(_name(simd, "simd"))
    if level < -1:
        raise ValueError(f"unknown SIMD level {simd!r}")
    return level


def _pair(pair):
    _name(pair, "pair")
    if pair not in PAIR_POLICIES:
        raise ValueError(f"unknown pair policy {pair!r} (policies: {', '.join(PAIR_POLICIES)})")
    return PAIR_POLICIES.index(pair)


def _options(limit, pipeline, simd, pair="auto", techniques=()):
    """Builds sb_options from Python arguments, raising ValueError (TypeError) for a bad
    value (type); techniques (Plugins) name tokens the pipeline may use. Returns opt and what
    must stay alive while it is used."""
    opt = ffi.new("sb_options *")
    lib.sb_options_default(opt)
    opt.limit = _int(limit, "limit", 0, _U64_MAX, " (0: count all)")
    tlist = ffi.new("const sb_plugin *[]", [t._ptr for t in techniques] or [ffi.NULL])
    if techniques:
        opt.techniques = tlist
        opt.ntechniques = len(techniques)
    spec = ffi.new("char[]", _name(pipeline, "pipeline"))
    if lib.sb_options_pipeline(opt, spec) != 0:
        raise ValueError(f"unknown pipeline {pipeline!r} (names: {', '.join(PIPELINES)}, "
                         "or a spec ORDER:T1,T2,...; a technique plug-in's name is a token "
                         "once passed as plugin=)")
    opt.simd = _simd(simd)
    opt.pair = _pair(pair)
    return opt, (spec, tlist)


def solve(puzzles, limit=2, pipeline="fast", threads=0, simd="auto", grid=None, pair="auto",
          plugin=None):
    """Solves (counts) every puzzle: limit 1 first solution, 2 uniqueness (default), 0 all.
    Returns SolveResult(counts, guesses, solutions) as numpy arrays; the work runs on
    `threads` threads (0: every core; at most 1024) without the GIL. On another geometry
    (grid=) "fast" is the general solver and the other pipelines its generic ones, as
    `sudokubench solve --grid` runs them: the same counts, guesses and solutions. pair
    (PAIR_POLICIES) is whether the fast pipeline's avx2 search takes two puzzles side by
    side: "on" does, "auto" (one board, the faster; or $SUDOKUBENCH_PAIR when set) and "off"
    do not; every policy gives the same results, only the speed differs. plugin (a Plugin)
    counts with that solver plug-in instead of the pipeline (one thread when it keeps
    global state); plugin may also be a technique plug-in, or a list of plug-ins, whose
    names the pipeline then uses as techniques ("fast+xwing"). A plug-in breaking its
    contract raises SudokuError."""
    plugins = list(plugin) if isinstance(plugin, (list, tuple)) else \
        [] if plugin is None else [plugin]
    for p in plugins:
        if not isinstance(p, Plugin):
            raise TypeError(f"plugin is a sudokubench.Plugin, not {p!r}")
    techniques = [p for p in plugins if p.technique]
    solvers = [p for p in plugins if not p.technique]
    if len(solvers) > 1:
        raise ValueError("plugin: at most one solver plug-in")
    plugin = solvers[0] if solvers else None
    opt, keep = _options(limit, pipeline, simd, pair, techniques)
    nthreads = _threads(threads)
    cells, g = _input(puzzles, grid)
    for p in plugins:
        if not p.accepts(g):
            raise ValueError(f"plug-in {p.name!r} does not "
                             f"{'work on' if p.technique else 'solve'} "
                             f"{g.name if g is not None else '9x9'} grids")
        nthreads = 1 if p.one_thread else nthreads
    if plugin is not None:
        opt.plugin = plugin._ptr
    n = len(cells)
    nc = g.cells if g is not None else CELLS
    counts = np.zeros(n, dtype=np.uint64)
    guesses = np.zeros(n, dtype=np.uint64)
    solutions = np.zeros((n, nc), dtype=np.uint8)
    status = np.zeros(n, dtype=np.int8)
    stop = ffi.new("sig_atomic_t *")
    opt.stop = stop
    args = (_ptr("uint8_t *", cells), n, nthreads, _ptr("uint64_t *", counts),
            _ptr("uint64_t *", guesses), _ptr("uint8_t *", solutions), _ptr("int8_t *", status))

    def call():
        if g is None and plugin is None:
            return lib.sb_solve_batch(opt, *args)
        # a plug-in is an engine row on 9x9 too, which the geometry batch runs
        return lib.sb_gsolve_batch(_gptr(g), opt, *args)

    # A few puzzles with the fast kernel and a bounded count take microseconds: not worth a
    # helper thread (every other call may run long enough for Ctrl-C to matter, and so may
    # any search on a board larger than 9x9).
    quick = n < 32 and limit != 0 and pipeline == "fast" and nc <= CELLS and plugin is None
    st, err = _batch(call, stop, quick)
    del keep
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


def validate(puzzles, threads=0, simd="auto", grid=None):
    """Returns a bool array: True where the puzzle is proper (exactly one solution)."""
    return solve(puzzles, limit=2, threads=threads, simd=simd, grid=grid).counts == 1


def rate(puzzles, threads=0, grid=None, counters=False):
    """Rates every puzzle: an int8 array of class codes, CLASSES[code] naming each (singles,
    hidden, locked, tuples, fish, wings, chains, search: the weakest technique set that solves
    it), as `sudokubench rate` does on any geometry. counters=True returns RateResult(classes, eliminations) with
    what each technique (TECHNIQUES) removed in that rating."""
    nthreads = _threads(threads)
    cells, g = _input(puzzles, grid)
    n = len(cells)
    classes = np.zeros(n, dtype=np.int8)
    elim = np.zeros((n, len(TECHNIQUES)), dtype=np.uint64) if counters else None
    stop = ffi.new("sig_atomic_t *")

    def call():
        if g is None and not counters:
            return lib.sb_rate_batch_stop(_ptr("uint8_t *", cells), n, nthreads,
                                          _ptr("int8_t *", classes), stop)
        return lib.sb_grate_batch(_gptr(g), _ptr("uint8_t *", cells), n, nthreads,
                                  _ptr("int8_t *", classes),
                                  ffi.NULL if elim is None else _ptr("uint64_t *", elim), stop)

    # below 64 puzzles of at most 81 cells: a few milliseconds
    st, err = _batch(call, stop, quick=n < 64 and cells.shape[1] <= CELLS)
    _check(st, "rate", err)
    return RateResult(classes, elim) if counters else classes


def bench(puzzles, pipeline="fast", threads=0, simd="auto", grid=None, seconds=1.0, limit=2,
          pair="auto"):
    """Measures throughput as `sudokubench bench` does, with the library's sb_bench calls:
    every puzzle solved once on `threads` threads (0: OpenMP's default team) with each first
    solution checked against its givens and the rules (the warm-up pass), then whole passes
    over the puzzles without checks until `seconds` have elapsed (at least one pass; 0: one;
    at most 1000000, as the CLI's --seconds). limit and pair as solve()'s (limit 2:
    uniqueness, as the CLI's bench). Returns a BenchResult; raises SudokuError when a first
    solution was wrong, ValueError (TypeError) for a bad argument value (type)."""
    seconds = _seconds(seconds)
    opt, spec = _options(limit, pipeline, simd, pair)
    team = _threads(threads) or lib.omp_get_max_threads()
    cells, g = _input(puzzles, grid)
    n = len(cells)
    if n == 0:  # a pass over nothing measures nothing
        raise ValueError("bench needs at least one puzzle")
    stop = ffi.new("sig_atomic_t *")
    opt.stop = stop
    # The OpenMP runtime exits the process when it cannot start a team: check first (the
    # batch calls check theirs themselves).
    st = lib.sb_threads_check(team, ffi.NULL, 0)
    _check(st, "bench", ffi.errno)
    out = ffi.new("sb_bench **")
    _check(lib.sb_bench_new(_gptr(g), out), "bench")
    b = ffi.gc(out[0], lib.sb_bench_free)
    base = _ptr("uint8_t *", cells)
    for i in range(n):
        _check(lib.sb_bench_add(b, base + i * cells.shape[1]), "bench")
    _check(lib.sb_bench_prepare(b, opt, team), "bench")
    verdicts = np.zeros(n, dtype=np.uint8)
    warm = ffi.new("sb_bench_warmup *")
    passes = ffi.new("uint64_t *")
    took = ffi.new("double *")
    st, err = _batch(lambda: lib.sb_bench_warm(b, _ptr("uint8_t *", verdicts), warm), stop,
                     quick=False)
    _check(st, "bench", err)
    if warm.wrong < n:
        raise SudokuError(f"bench: wrong solution for puzzle {int(warm.wrong)}")
    st, err = _batch(lambda: lib.sb_bench_time(b, float(seconds), passes, took), stop,
                     quick=False)
    _check(st, "bench", err)
    del spec
    elim = np.array([warm.counts[t].eliminations for t in range(len(TECHNIQUES))],
                    dtype=np.uint64)
    calls = np.array([warm.counts[t].calls for t in range(len(TECHNIQUES))], dtype=np.uint64)
    return BenchResult(verdicts, np.array(list(warm.verdicts), dtype=np.uint64),
                       int(warm.guesses), int(warm.no_guess), elim, int(passes[0]),
                       float(took[0]),
                       passes[0] * n / took[0] if took[0] > 0 else 0.0,
                       ffi.string(lib.sb_simd_name(lib.sb_bench_simd(b))).decode(), calls,
                       int(warm.paired))


def _need_gdataset(what):
    if not _HAVE_GDATASET:
        raise NotImplementedError(
            f"{what}(grid=...): this build of the library has no generator and augmenter for "
            "other geometries (sb_ggenerate_batch); only 9x9 (grid=None) is available")


def _symmetry(symmetry):
    """The sb_symmetry of a name in SYMMETRIES; ValueError for another."""
    sym = lib.sb_symmetry_parse(_name(symmetry, "symmetry"))
    if sym < 0:
        raise ValueError(f"unknown symmetry {symmetry!r} (one of {', '.join(SYMMETRIES)})")
    return sym


def _max_clues(max_clues, g):
    """The clue bound of generate() on geometry g (None: 9x9) as an int, 0 for None (no
    bound), with the CLI's --clues checks and reasons: 1..cells, and no fewer than a puzzle
    with one solution can have (17 on 9x9, N-1 elsewhere)."""
    if max_clues is None:
        return 0
    k = _int(max_clues, "max_clues")
    nc, name = (g.cells, g.name) if g is not None else (CELLS, "9x9")
    if not 1 <= k <= nc:  # 0 would mean no bound to the library
        raise ValueError(f"max_clues {k} is outside 1..{nc}, the cells of {name}")
    if g is None and k < lib.SB_MIN_CLUES:
        raise ValueError(f"max_clues {k} is infeasible: no puzzle with fewer than "
                         f"{lib.SB_MIN_CLUES} clues has exactly one solution")
    floor = max(g.digits - 1, 1) if g is not None else 0
    if k < floor:
        raise ValueError(f"max_clues {k} is infeasible on {name}: a puzzle with fewer than "
                         f"{floor} clues lacks two digits, which could swap")
    return k


def _gave_up(puzzles, solutions, first, max_clues, attempts, g):
    """Raises SudokuError with the CLI's reason for the first row a batch left unmade
    (SB_ERR_BUDGET): its candidates all had more than max_clues clues (the row holds the
    last one), or on geometry g no full grid turned up (the row untouched). Returns when no
    row shows either."""
    missed = np.count_nonzero(puzzles, axis=1) > (max_clues or puzzles.shape[1])
    empty = ~solutions.any(axis=1) if g is not None else False  # 9x9 always has a grid
    bad = np.flatnonzero(missed | empty)
    if not bad.size:
        return
    i = int(bad[0])
    if not missed[i]:
        raise SudokuError(f"generate: no full grid of {g.name} found in 100000 random fills: "
                          "it likely has none")
    raise SudokuError(f"generate: puzzle {first + i}: no candidate met max_clues {max_clues} "
                      f"in {attempts} attempts")


def generate(n, seed=0, symmetry="none", minimal=False, max_clues=None, first=0, threads=0,
             simd="auto", grid=None, attempts=None):
    """Makes puzzles first .. first+n-1 of the seed (the same as `sudokubench generate
    -n N --seed S --first I --symmetry SYM [--minimal] [--clues K] [--attempts A]
    [--grid SPEC]` prints). Returns GenerateResult(puzzles, solutions, guesses). max_clues
    None is no bound; on 9x9 it is 17..81 (ValueError below 17: no such puzzle has one
    solution). attempts (None: the library's default, 100000) is how many candidates a
    puzzle gets to meet max_clues. On another geometry (grid=) every puzzle is unique and
    minimal; symmetry must map its houses onto houses (ValueError with the reason otherwise,
    e.g. "rot90 does not suit 2x3: ...") and max_clues is N-1..cells. A puzzle no candidate
    fits raises SudokuError naming it, the bound and the attempts, as the CLI says it."""
    n = _count(n)
    first = _u64(first, "first")
    seed = _u64(seed, "seed")
    _indices(first, n)
    nthreads = _threads(threads)
    g = _geometry(grid)
    sym = _symmetry(symmetry)
    level = _simd(simd)
    k = _max_clues(max_clues, g)
    tries = None if attempts is None else _int(attempts, "attempts", 1, _U64_MAX)
    if g is not None:
        # the generator's solver picks its own kernel: simd is checked, not used
        return _ggenerate(g, n, seed, sym, k, tries, first, nthreads)
    opt = ffi.new("sb_gen_options *")
    lib.sb_gen_options_default(opt)
    opt.seed = seed
    opt.symmetry = sym
    opt.minimal = 1 if minimal else 0
    opt.max_clues = k or CELLS
    if tries is not None:
        opt.max_attempts = tries
    opt.simd = level
    puzzles = np.zeros((n, CELLS), dtype=np.uint8)
    solutions = np.zeros((n, CELLS), dtype=np.uint8)
    guesses = np.zeros(n, dtype=np.uint64)
    stop = ffi.new("sig_atomic_t *")

    def call():
        return lib.sb_generate_batch_stop(opt, first, n, nthreads, _ptr("uint8_t *", puzzles),
                                          _ptr("uint8_t *", solutions),
                                          _ptr("uint64_t *", guesses), stop)

    # The flag is read between puzzles, not inside one: a handful is quick with the default
    # bounds, and no faster to stop otherwise.
    st, err = _batch(call, stop, quick=n < 16)
    if st == lib.SB_ERR_BUDGET:
        _gave_up(puzzles, solutions, first, k, opt.max_attempts, None)
    _check(st, "generate", err)
    return GenerateResult(puzzles, solutions, guesses)


def _ggenerate(g, n, seed, sym, max_clues, attempts, first, nthreads):
    """generate() on geometry g (sb_ggenerate_batch_opts: a symmetry of g's own, a clue
    bound (0: none) and attempts (None: the default)), every argument checked."""
    _need_gdataset("generate")
    if not _HAVE_GGEN_OPTS:
        if sym != 0 or max_clues or attempts is not None:
            raise NotImplementedError(
                "generate(grid=..., symmetry=, max_clues=, attempts=): this build of the "
                "library has no generator options for other geometries "
                "(sb_ggenerate_batch_opts)")
        opt = ffi.NULL
    else:
        opt = ffi.new("sb_ggen_options *")
        lib.sb_ggen_options_default(opt)
        opt.seed = seed
        opt.symmetry = sym
        opt.max_clues = max_clues
        if attempts is not None:
            opt.max_attempts = attempts
    puzzles = np.zeros((n, g.cells), dtype=np.uint8)
    solutions = np.zeros((n, g.cells), dtype=np.uint8)
    guesses = np.zeros(n, dtype=np.uint64)
    stop = ffi.new("sig_atomic_t *")

    def call():
        args = (first, n, nthreads, _ptr("uint8_t *", puzzles), _ptr("uint8_t *", solutions),
                _ptr("uint64_t *", guesses), stop)
        if opt == ffi.NULL:
            return lib.sb_ggenerate_batch(g._ptr, seed, *args)
        return lib.sb_ggenerate_batch_opts(g._ptr, opt, *args)

    st, err = _batch(call, stop, quick=False)  # one puzzle of a large grid can take seconds
    if st == lib.SB_ERR_ARG:  # the generator says why (bad options, no full grid)
        gen = ffi.new("sb_ggenerator **")
        why = _why_buffer()
        made = (lib.sb_ggenerator_new(g._ptr, seed, gen, why, len(why)) if opt == ffi.NULL
                else lib.sb_ggenerator_new_opts(g._ptr, opt, gen, why, len(why)))
        if made == lib.SB_ERR_ARG:
            raise ValueError(f"generate: {ffi.string(why).decode(errors='replace')}")
        lib.sb_ggenerator_free(gen[0])
    if st == lib.SB_ERR_BUDGET:
        _gave_up(puzzles, solutions, first, max_clues,
                 opt.max_attempts if opt != ffi.NULL else None, g)
    _check(st, "generate", err)
    return GenerateResult(puzzles, solutions, guesses)


def augment(puzzles, n, seed=0, first=0, threads=0, grid=None):
    """Returns n random validity-preserving transforms (uint8, (n, cells)): row i is puzzle
    (first+i) mod P under the transform drawn from (seed, first+i), the same lines
    `sudokubench augment -n N --seed S [--grid SPEC]` writes for the same P puzzles. On
    another geometry the transforms are its own symmetries (docs/geometry.md)."""
    n = _count(n)
    seed = _u64(seed, "seed")
    first = _u64(first, "first")
    _indices(first, n)
    nthreads = _threads(threads)
    cells, g = _input(puzzles, grid)
    if len(cells) == 0:
        raise ValueError("augment needs at least one puzzle")
    if g is not None:
        _need_gdataset("augment")
    out = np.zeros((n, cells.shape[1]), dtype=np.uint8)
    stop = ffi.new("sig_atomic_t *")

    def call():
        if g is None:
            return lib.sb_augment_batch_stop(_ptr("uint8_t *", cells), len(cells), seed, first,
                                             n, nthreads, _ptr("uint8_t *", out), stop)
        return lib.sb_gaugment_batch(g._ptr, _ptr("uint8_t *", cells), len(cells), seed, first,
                                     n, nthreads, _ptr("uint8_t *", out), stop)

    # ~100 ns a 9x9 row: milliseconds below 65536 rows
    st, err = _batch(call, stop, quick=n * cells.shape[1] < 65536 * CELLS)
    _check(st, "augment", err)
    return out


def to_strings(grids, grid=None):
    """Formats a uint8 array (n, cells) as strings: 9x9 (grid=None) 81 characters with '.'
    for blanks; another geometry as the CLI writes it (sb_gformat): a character per cell
    ('1'-'9', 'A'-'Z', '.') up to 35 digits, else integers separated by ','. grids is
    checked as every call's cell arrays are: integers 0..N (TypeError for floats, ValueError
    naming the puzzle, cell and value otherwise), shape (n, cells) or one row (cells,)."""
    g = _geometry(grid)
    arr = _cells_array(grids, g, "grids")
    if g is None:
        chars = np.where(arr == 0, ord("."), arr + ord("0")).astype(np.uint8)
        return [row.tobytes().decode("ascii") for row in chars]
    form = 0 if g.digits <= 35 else 1  # SB_GFORM_CHARS, else SB_GFORM_INTS
    room = 3 * g.cells + 1
    out = ffi.new("char[]", room)
    texts = []
    for row in arr:
        k = lib.sb_gformat(g._ptr, ffi.from_buffer(row), form, out, room)
        _check(k, "to_strings")
        texts.append(ffi.string(out, k).decode("ascii"))
    return texts
