"""sbperf.charts — what the charts of `make report`, `make study` and `make perf-history`
share: matplotlib (Debian's python3-matplotlib) drawing into files, without a display (the
Agg backend); figures of a fixed pixel size (SIZES); numbers in engineering notation with
their unit (1.47 M/s, 250 ns); PNG files; SVG text with a tooltip (<title>) on chosen
points, for pages that show it inline; and the PNG check the tests use.

matplotlib is imported when a chart is drawn, not with this module, so the tools that draw
nothing (the gates, bisect) do not need it.

Usage: python3 -m sbperf.charts ready
         exit 0 when this interpreter can draw (matplotlib imports), else 2 with a message
       python3 -m sbperf.charts check FILE KIND [ROWS]
         exit 0 when FILE is a whole PNG file of the size of a KIND chart of ROWS rows
         (default 1), else 1 with what it is
"""

import html
import io
import math
import re
import struct
import sys

# Width and height in pixels of each kind of chart file; where a chart has a row of panels
# per corpus (study, history) the height is that of one row, and a file of N rows is N
# times as tall. The figures are laid out inside them (constrained layout) and saved
# without trimming, so a file has exactly its size.
SIZES = {
    "report": (1200, 720),   # scripts/report/report.py: throughput, guesses, simd, scaling
    "study": (1200, 420),    # scripts/report/study.py: the Pareto chart, a row per corpus
    "history": (1200, 320),  # sbperf.report: history.png, a row per corpus
    "history-corpus": (1000, 400),  # sbperf.report: one corpus's chart on the page (SVG)
}
DPI = 100
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"  # the last chunk of a whole PNG file
PREFIXES = {-12: "p", -9: "n", -6: "\u00b5", -3: "m", 0: "", 3: "k", 6: "M", 9: "G",
            12: "T", 15: "P"}


class ChartError(Exception):
    """A chart cannot be drawn (matplotlib is missing)."""


def pyplot():
    """Returns matplotlib.pyplot set up for files: the Agg backend, DejaVu Sans, text kept as
    text in SVG. Raises ChartError when matplotlib is not installed for this interpreter."""
    try:
        import matplotlib
    except ImportError:
        raise ChartError("matplotlib is not installed for %s (Debian package "
                         "python3-matplotlib: make deps)" % sys.executable)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.family": "DejaVu Sans", "font.size": 10,
                         "axes.titlesize": 11, "figure.titlesize": 13,
                         "axes.spines.top": False, "axes.spines.right": False,
                         "axes.grid": True, "grid.color": "#dddddd", "axes.axisbelow": True,
                         "svg.fonttype": "none", "legend.fontsize": 9})
    return plt


def palette():
    """Returns the ten colours the charts give their series, in order (matplotlib's tab10)."""
    pyplot()
    import matplotlib
    return list(matplotlib.colormaps["tab10"].colors)


def size(kind, rows=1):
    """Returns (width, height) in pixels of a chart of this kind with `rows` rows."""
    w, h = SIZES[kind]
    return w, h * rows


def figure(kind, rows=1):
    """Returns an empty figure of size(kind, rows) pixels with constrained layout (titles,
    tick labels and outside legends are fitted inside it, never clipped)."""
    plt = pyplot()
    w, h = size(kind, rows)
    return plt.figure(figsize=(w / DPI, h / DPI), dpi=DPI, layout="constrained")


def save_png(fig, path):
    """Writes fig as a PNG of its pixel size (no trimming) and closes it."""
    fig.savefig(path, dpi=DPI)
    pyplot().close(fig)


def eng(value, unit="", digits=3):
    """Returns value in engineering notation with `digits` significant digits, trailing
    zeros dropped, and the unit after its prefix: eng(1467120, "/s") is "1.47 M/s",
    eng(2.5e-7, "s") "250 ns", eng(203, "/s") "203/s", eng(0.25) "0.25", eng(0) "0"."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if value == 0:
        return "0" + ("" if not unit or unit.startswith("/") else " ") + unit
    exp = 3 * int(math.floor(math.log10(abs(value)) / 3))
    # a count without a unit has no sub-unit prefix: 0.25, not "250 m"
    exp = max(min(exp, max(PREFIXES)), min(PREFIXES) if unit else 0)
    mant = value / 10.0 ** exp
    text = _digits(mant, digits)
    if abs(float(text)) >= 1000 and exp + 3 in PREFIXES:  # 999.7 rounds up to 1000
        exp += 3
        text = _digits(value / 10.0 ** exp, digits)
    suffix = PREFIXES[exp] + unit
    # "203/s" but "2.57 k/s" and "250 ns"
    return text + (" " + suffix if suffix and not suffix.startswith("/") else suffix)


def _digits(x, digits):
    """Returns x with `digits` significant digits (at least its whole part), trailing
    zeros dropped."""
    whole = int(math.floor(math.log10(abs(x)))) + 1 if x else 1
    text = "%.*f" % (max(0, digits - whole), x)
    return text.rstrip("0").rstrip(".") if "." in text else text


def tick_format(axis, text):
    """Labels an axis's major ticks with text(value) and leaves its minor ticks unlabelled
    (on a log scale they would repeat the decade's label)."""
    from matplotlib import ticker
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _pos: text(v)))
    axis.set_minor_formatter(ticker.NullFormatter())


def eng_axis(axis, unit=""):
    """Labels an axis's major ticks in engineering notation with the unit (1 k/s, 10 k/s)."""
    tick_format(axis, lambda v: eng(v, unit))


def log_limits(lo, hi, room=1.0):
    """Returns log-axis limits from the decade at or below lo to hi * room (room for labels
    past the largest value), at least one decade apart, so that the axis always shows
    labelled ticks."""
    a = 10.0 ** math.floor(math.log10(max(lo, 1e-12)))
    return a, max(hi * room, a * 10)


def svg(fig, tips, prefix):
    """Returns fig as SVG text for a page (no XML prologue; width 100%, height from its
    viewBox) and closes it. tips maps an artist's gid to its tooltip: the text becomes a
    <title> in that artist's group, which browsers show on hover without any script. Every
    id of the SVG starts with prefix, so that several charts can share one page."""
    plt = pyplot()
    buf = io.StringIO()
    # the salt of the ids matplotlib hashes: the same chart gives the same text
    with plt.rc_context({"svg.hashsalt": prefix}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    return with_titles(buf.getvalue(), tips, prefix)


def with_titles(text, tips, prefix):
    """Returns SVG text without its prologue, sized to its container, with a <title>
    (escaped) first in the group of each gid of tips, and every id (and every reference to
    one) prefixed with PREFIX-."""
    for gid, tip in tips.items():
        group = '<g id="%s">' % gid
        text = text.replace(group, '%s<title>%s</title>' % (group, html.escape(tip)), 1)
    text = text[text.index("<svg"):]
    text = re.sub(r'\bid="([^"]+)"', r'id="%s-\1"' % prefix, text)
    text = re.sub(r'href="#([^"]+)"', r'href="#%s-\1"' % prefix, text)
    text = re.sub(r'url\(#([^)]+)\)', r'url(#%s-\1)' % prefix, text)
    return re.sub(r'^<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1 width="100%"',
                  text, count=1)


def png_size(path):
    """Returns (width, height) of a whole PNG file (signature, header chunk, end chunk),
    read from its header (bytes 16..24), or None when it is not one."""
    with open(path, "rb") as f:
        head = f.read(24)
        f.seek(0, 2)
        f.seek(max(0, f.tell() - len(PNG_END)))
        tail = f.read()
    if len(head) < 24 or head[:8] != PNG_SIGNATURE or head[12:16] != b"IHDR" or \
            tail != PNG_END:
        return None
    return struct.unpack(">II", head[16:24])


def check(path, kind, rows=1):
    """Returns None when path is a whole PNG file of size(kind, rows), else what is wrong
    with it."""
    try:
        got = png_size(path)
    except OSError as e:
        return "%s: %s" % (path, e.strerror)
    if got is None:
        return "%s: not a whole PNG file" % path
    if got != size(kind, rows):
        return "%s: %dx%d pixels, %s charts of %d rows are %dx%d" % (
            (path,) + got + (kind, rows) + size(kind, rows))
    return None


def main(argv):
    """The command line: ready, or check FILE KIND [ROWS]."""
    if argv == ["ready"]:
        try:
            pyplot()
        except ChartError as e:
            print(e, file=sys.stderr)
            return 2
        return 0
    rows = argv[3] if len(argv) == 4 else "1"
    if len(argv) not in (3, 4) or argv[0] != "check" or argv[2] not in SIZES or \
            not rows.isdigit():
        print("usage: python3 -m sbperf.charts ready | check FILE KIND [ROWS]   (KIND: %s)"
              % ", ".join(SIZES), file=sys.stderr)
        return 2
    problem = check(argv[1], argv[2], int(rows))
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
