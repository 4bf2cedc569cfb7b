"""sbperf.report — the charts and the page of the performance history (matplotlib through
sbperf.charts).

Each entry is drawn as its change in percent over the commits against a reference: the
baseline's own figure when the slice is the baseline's, else the revision that wrote the
baseline, measured on the same slice (so the band is still the gate's), else the range's
first commit; the band is the gate's threshold. The entries are grouped by corpus: one chart
per corpus, one line per pipeline and SIMD level (and gated function), so that every line
of a chart shares the band.

history.html is self-contained and works offline: per corpus its chart as inline SVG, each
point's tooltip (an SVG <title>: no script) giving the commit, its subject, the Ir per puzzle
and the change; then a table of the commits with each line's change. history.png holds the
same charts in one image, a row per corpus. Both are named after the history file
(history-naive.jsonl: history-naive.html and history-naive.png), so that a plug-in's
history and the library's sit side by side.
"""

import html
import os
import sys

from . import charts
from .measure import PLUGIN_LEVEL
from .stats import pct
from .table import fmt_int
from .worktree import commit_info

# Marker of each SIMD level, so that a level looks the same in every chart.
MARKERS = {"scalar": "o", "sse4": "s", "avx2": "^", "avx512bw": "D", "avx512": "v",
           "neon": "P"}


def series(commits, plan, store, tool_id):
    """Returns {entry: [record or None per commit]} for the charted toolchain."""
    out = {}
    for item in plan:
        out[item["entry"]] = [(lambda r: r if r and r.get("status") == "ok" else None)
                              (store.find(sha, tool_id, item)) for sha in commits]
    return out


def reference(item, values, store=None, tool_id=None):
    """Returns (Ir per puzzle the band is drawn around, its label): the baseline's figure
    when the slice is the baseline's, else the baseline's revision measured on the same
    slice, else the first measured commit of the range."""
    if item["baseline_ir"] is not None:
        return item["baseline_ir"] / item["puzzles"], "baseline"
    if store is not None and item.get("baseline_rev"):
        r = store.find(item["baseline_rev"], tool_id, item)
        if r is not None and r.get("status") == "ok":
            return r["ir_per_puzzle"], "baseline rev %s" % item["baseline_rev"][:7]
    for r in values:
        if r is not None:
            return r["ir_per_puzzle"], "first commit"
    return None, None


def corpus(item):
    """Returns the corpus of an entry: its dataset's file name without .txt."""
    name = os.path.basename(item["dataset"])
    return name[:-4] if name.endswith(".txt") else name


def paired(item):
    """Returns whether an entry counts the paired search, sb_solve_many (drawn dash-dotted)."""
    return item.get("function") == "sb_solve_many"


def line_label(item):
    """Returns the name of an entry's line in its corpus's chart: pipeline and level, and the
    function when it is sb_solve_many; a plug-in's, its name."""
    if item["simd"] == PLUGIN_LEVEL:
        return "plug-in %s" % item["pipeline"]
    label = "%s %s" % (item["pipeline"], item["simd"])
    return "%s (%s)" % (label, item["function"]) if paired(item) else label


def by_corpus(drawn):
    """Returns [(corpus, [(item, ref, label)...])] in the order the corpora first appear."""
    groups = {}
    for d in drawn:
        groups.setdefault(corpus(d[0]), []).append(d)
    return list(groups.items())


def tooltip(n, sha, info, item, record, ref, label):
    """Returns the hover text of one point: the commit, its subject, the line's figure and
    its change against the reference."""
    return "#%d %s %s\n%s\n%s: %s Ir/puzzle, %+.2f%% vs %s" % (
        n, sha[:10], info[0][:10], info[1], line_label(item),
        fmt_int(int(record["ir_per_puzzle"])), pct(record["ir_per_puzzle"], ref), label)


def draw_corpus(ax, name, lines, commits, ser, threshold, tips=None, infos=None):
    """Draws one corpus on ax: per line the change against its reference over the commits
    (gaps where a commit has no measurement), the reference at 0 and the gate's band.
    With tips, each point is also an artist of its own (gid pt-LINE-COMMIT) and tips gets
    its tooltip."""
    xs = list(range(1, len(commits) + 1))
    ax.axhspan(-threshold, threshold, color="#d8e8f8", lw=0,
               label="gate's band: \u00b1%g%%" % threshold)
    refs = {label for _, _, label in lines}
    shared = refs.pop() if len(refs) == 1 else None  # one reference label for every line
    ax.axhline(0, color="#3060a0", ls="--", lw=1,
               label="reference: %s" % shared if shared else "reference")
    colours = charts.palette()
    top = threshold * 2
    for j, (item, ref, label) in enumerate(lines):
        ys = [pct(r["ir_per_puzzle"], ref) if r else float("nan") for r in ser[item["entry"]]]
        top = max([top] + [abs(y) * 1.15 for y in ys if y == y])
        style = dict(color=colours[j % len(colours)], marker=MARKERS.get(item["simd"], "o"),
                     ms=6)
        ax.plot(xs, ys, lw=1.6, ls="-." if paired(item) else "-",
                label=line_label(item) if shared else "%s (vs %s)" % (line_label(item), label),
                **style)
        if tips is None:
            continue
        for i, (x, y) in enumerate(zip(xs, ys)):
            if y != y:
                continue
            gid = "pt-%d-%d" % (j, i)
            ax.plot([x], [y], ls="none", gid=gid, **style)
            tips[gid] = tooltip(i + 1, commits[i], infos[i], item, ser[item["entry"]][i], ref,
                                label)
    ax.set_ylim(-top, top)
    ax.set_xlim(0.5, len(commits) + 0.5)
    step = max(1, -(-len(commits) // 25))
    ax.set_xticks(xs[::step], ["%d\n%s" % (x, commits[x - 1][:7]) for x in xs[::step]],
                  fontsize=8)
    charts.tick_format(ax.yaxis, lambda v: "%+g%%" % v if v else "0%")
    ax.set_ylabel("Ir per puzzle vs reference")
    ax.set_xlabel("commit (number in the table, hash)")
    ax.set_title("%s: callgrind instructions per puzzle inside the gated function" % name)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize=8)


def chart(repo, commits, plan, store, tool_id, args):
    """Writes STEM.png and STEM.html in outdir, STEM the history file's name without its
    extension (history.jsonl: history.png); returns 0, or 2 when the charts could not be
    drawn (the page is written all the same, with its tables). repo holds the commits."""
    outdir = os.path.abspath(args.outdir or os.path.dirname(store.path))
    stem = os.path.splitext(os.path.basename(store.path))[0]
    os.makedirs(outdir, exist_ok=True)
    ser = series(commits, plan, store, tool_id)
    infos = []
    for sha in commits:
        rec = next((r for r in store.records if r.get("commit") == sha), None)
        infos.append((rec["date"], rec["subject"]) if rec else commit_info(repo, sha))
    drawn = []
    for item in plan:
        values = ser[item["entry"]]
        ref, label = reference(item, values, store, tool_id)
        if any(values) and ref:
            drawn.append((item, ref, label))
    groups = by_corpus(drawn)
    svgs, status, problem = {}, 0, None
    if not drawn:
        print("perf-history: no entry was measured in this range: no chart", file=sys.stderr)
    else:
        try:
            for k, (name, lines) in enumerate(groups):
                fig = charts.figure("history-corpus")
                tips = {}
                draw_corpus(fig.subplots(), name, lines, commits, ser, args.threshold, tips,
                            infos)
                svgs[name] = charts.svg(fig, tips, "c%d" % k)
            fig = charts.figure("history", len(groups))
            for ax, (name, lines) in zip(fig.subplots(len(groups), 1, squeeze=False).flat,
                                         groups):
                draw_corpus(ax, name, lines, commits, ser, args.threshold)
            charts.save_png(fig, os.path.join(outdir, stem + ".png"))
        except charts.ChartError as e:
            problem = str(e)
            print("perf-history: %s; no chart" % problem, file=sys.stderr)
            status = 2
    write_html(os.path.join(outdir, stem + ".html"), commits, infos, groups, ser, args,
               tool_id, svgs, problem, plan[0].get("plugin"))
    print("perf-history: chart %s.png, page %s.html"
          % ((os.path.relpath(os.path.join(outdir, stem)),) * 2), file=sys.stderr)
    return status


def table(commits, infos, lines, ser, threshold):
    """Returns one corpus's table: a row per commit (number, hash, date, subject), a column
    per line with its change against the reference (above the threshold highlighted)."""
    e = html.escape
    rows = []
    for i, sha in enumerate(commits):
        cells = []
        for item, ref, _ in lines:
            r = ser[item["entry"]][i]
            if r is None:
                cells.append("<td>-</td>")
                continue
            d = pct(r["ir_per_puzzle"], ref)
            cls = ' class="up"' if d > threshold else ' class="down"' \
                if d < -threshold else ""
            cells.append('<td%s title="%s Ir/puzzle">%+.2f%%</td>'
                         % (cls, fmt_int(int(r["ir_per_puzzle"])), d))
        rows.append("<tr><td>%d</td><td><code>%s</code></td><td>%s</td><td>%s</td>%s</tr>"
                    % (i + 1, sha[:10], e(infos[i][0][:10]), e(infos[i][1]), "".join(cells)))
    head = "".join("<th>%s<br><small>vs %s: %s Ir</small></th>"
                   % (e(line_label(item)), e(label), fmt_int(int(ref)))
                   for item, ref, label in lines)
    return "<table><tr><th>#</th><th>commit</th><th>date</th><th>subject</th>%s</tr>\n%s\n" \
        "</table>" % (head, "\n".join(rows))


def write_html(path, commits, infos, groups, ser, args, tool_id, svgs, problem=None,
               plugin=None):
    """Writes the page: per corpus its chart (inline SVG, when drawn) and its table; plugin,
    the name of the plug-in whose commits these are, is said in the title."""
    e = html.escape
    sections = []
    for name, lines in groups:
        figure = '<figure class="chart">%s</figure>' % svgs[name] if name in svgs else \
            '<p class="missing">No chart: %s</p>' % e(problem or "not drawn")
        sections.append('<section id="%s"><h2>%s</h2>\n%s\n%s</section>'
                        % (e(name), e(name), figure,
                           table(commits, infos, lines, ser, args.threshold)))
    nav = " | ".join('<a href="#%s">%s</a>' % (e(n), e(n)) for n, _ in groups)
    of = " of plug-in %s" % e(plugin) if plugin else ""
    page = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sudokubench performance history%s</title>
<style>body{font-family:"DejaVu Sans",sans-serif;margin:1em;max-width:1400px}
table{border-collapse:collapse;font-size:80%%;margin:0.5em 0 2em}
td,th{border:1px solid #ccc;padding:2px 5px;text-align:right}
td:nth-child(3){white-space:nowrap}td:nth-child(4),th:nth-child(4){text-align:left;min-width:20em}
.up{background:#f4b6b6}.down{background:#b6e3b6}figure.chart{margin:0}
figure.chart svg{max-width:1000px;height:auto}.missing{color:#b00000}</style></head><body>
<h1>Performance history%s</h1>
<p>Callgrind instructions inside the gated function per puzzle, over %d commits, as the
change against a reference: the baseline's figure when the slice is the baseline's, else the
revision that wrote the baseline measured on the same slice, else the first commit measured.
One chart per corpus, one line per pipeline and SIMD level; the band is &plusmn;%g%%, the
gate's threshold. Hover over a point for its commit, subject and count. In the tables a
cell's tooltip gives the count; red: above the band, green: below it. Toolchain %s.
Generated by <code>make perf-history</code> (scripts/sbperf/history.py; docs/ci.md).</p>
<p>%s</p>
%s
</body></html>
""" % (of, of, len(commits), args.threshold, e(tool_id), nav, "\n".join(sections))
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
