"""sbperf.report — the chart and the page of the performance history (stdlib only; gnuplot
draws).

Each entry is drawn as Ir per puzzle over the commits, around a reference: the baseline's
own figure when the slice is the baseline's, else the revision that wrote the baseline,
measured on the same slice (so the band is still the gate's), else the range's first
commit; the band is the gate's threshold. history.gp (beside this module) reads the data
files written here; history.html lists the commits with each entry's change against the
reference.
"""

import html
import os
import shutil
import subprocess
import sys

from .stats import pct
from .table import fmt_int
from .worktree import commit_info

HERE = os.path.dirname(os.path.abspath(__file__))


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


def chart(repo, commits, plan, store, tool_id, args):
    """Writes history.png, history.svg (history.gp) and history.html in outdir."""
    outdir = os.path.abspath(args.outdir or os.path.dirname(store.path))
    data = os.path.join(outdir, "data", "history")
    if os.path.isdir(data):
        shutil.rmtree(data)
    os.makedirs(data)
    ser = series(commits, plan, store, tool_id)
    infos = []
    for sha in commits:
        rec = next((r for r in store.records if r.get("commit") == sha), None)
        infos.append((rec["date"], rec["subject"]) if rec else commit_info(repo, sha))
    drawn = []
    for k, item in enumerate(plan):
        values = ser[item["entry"]]
        if not any(values):
            continue
        ref, label = reference(item, values, store, tool_id)
        name = "e%02d.dat" % k
        with open(os.path.join(data, name), "w", encoding="utf-8") as f:
            f.write("x ir_per_puzzle\n")
            for i, r in enumerate(values, 1):
                f.write("%d %s\n" % (i, ("%.1f" % r["ir_per_puzzle"]) if r else "-"))
        drawn.append((item, name, ref, label))
    with open(os.path.join(data, "commits.dat"), "w", encoding="utf-8") as f:
        for i, sha in enumerate(commits, 1):
            f.write("%d %s\n" % (i, sha[:7]))
    # gnuplot reads its parameters from this generated file (data, not code).
    with open(os.path.join(data, "vars.gp"), "w", encoding="utf-8") as f:
        f.write("n_entries = %d\nn_commits = %d\nthreshold = %g\n"
                % (len(drawn), len(commits), args.threshold))
        for j, (item, name, ref, label) in enumerate(drawn, 1):
            f.write('file_%d = "%s"\ntitle_%d = "%s"\nref_%d = %r\nreflabel_%d = "%s"\n'
                    % (j, name, j, item["entry"], j, ref, j, label))
    status = 0
    if not drawn:
        print("perf-history: no entry was measured in this range: no chart", file=sys.stderr)
    elif shutil.which("gnuplot") is None:
        print("perf-history: gnuplot not found (Debian package gnuplot-nox: make deps-all); "
              "no chart", file=sys.stderr)
        status = 2
    else:
        for term in ("png", "svg"):
            p = subprocess.run(["gnuplot", "-e", "dir='%s'; term='%s'" % (outdir, term),
                                os.path.join(HERE, "history.gp")],
                               capture_output=True, text=True)
            if p.returncode != 0:
                print("perf-history: gnuplot failed:\n" + p.stderr, file=sys.stderr)
                status = 2
    write_html(os.path.join(outdir, "history.html"), commits, infos, drawn, ser, args,
               tool_id)
    print("perf-history: chart %s/history.{png,svg}, page %s/history.html"
          % (os.path.relpath(outdir), os.path.relpath(outdir)), file=sys.stderr)
    return status


def write_html(path, commits, infos, drawn, ser, args, tool_id):
    """Writes the page: the chart, the commits with their subjects, and per entry the change
    of each commit against the reference (above the threshold highlighted)."""
    e = html.escape
    rows = []
    for i, sha in enumerate(commits):
        cells = []
        for item, _, ref, _ in drawn:
            r = ser[item["entry"]][i]
            if r is None or not ref:
                cells.append("<td>-</td>")
                continue
            d = pct(r["ir_per_puzzle"], ref)
            cls = ' class="up"' if d > args.threshold else ' class="down"' \
                if d < -args.threshold else ""
            cells.append('<td%s title="%s Ir/puzzle">%+.2f%%</td>'
                         % (cls, fmt_int(int(r["ir_per_puzzle"])), d))
        rows.append("<tr><td>%d</td><td><code>%s</code></td><td>%s</td><td>%s</td>%s</tr>"
                    % (i + 1, sha[:10], e(infos[i][0][:10]), e(infos[i][1]), "".join(cells)))
    head = "".join("<th>%s<br><small>vs %s</small></th>" % (e(item["entry"]), e(label))
                   for item, _, _, label in drawn)
    page = """<!doctype html>
<html><head><meta charset="utf-8"><title>sudokubench performance history</title>
<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse;font-size:80%%}
td,th{border:1px solid #ccc;padding:2px 5px;text-align:right}td:nth-child(4){text-align:left}
.up{background:#f4b6b6}.down{background:#b6e3b6}img{max-width:100%%}</style></head><body>
<h1>Performance history</h1>
<p>Callgrind instructions inside the gated function per puzzle, one panel per entry, over
%d commits (x axis: the numbers of the table below). Dashed line: the reference (the
baseline's figure when the slice is the baseline's, else the revision that wrote the
baseline measured on the same slice, else the first commit measured); band:
&plusmn;%g%%, the gate's threshold. Toolchain %s. Generated by <code>make perf-history</code>
(scripts/sbperf/history.py; docs/ci.md).</p>
<p><img src="history.svg" alt="trend chart (history.png)"></p>
<table><tr><th>#</th><th>commit</th><th>date</th><th>subject</th>%s</tr>
%s
</table></body></html>
""" % (len(commits), args.threshold, e(tool_id), head, "\n".join(rows))
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
