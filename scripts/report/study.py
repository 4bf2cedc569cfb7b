#!/usr/bin/env python3
"""scripts/report/study.py DIR — the tables and the chart of `make study` (scripts/report/study.sh)
from DIR/study/*.json.

Writes DIR/study.md (one table per run and a summary of what pays where, which it also
prints) and DIR/study.png (the Pareto chart: one panel per run, time per puzzle against
guesses per puzzle), drawn with matplotlib through sbperf.charts (PYTHONPATH must hold
scripts/, as study.sh sets it).

Costs, from the bench counters (docs/strategies.md "The study"), per puzzle:
  nodes         1 + guesses: the root and one search node per guess, each settled by the
                propagation (and, in a row with T, T's calls at its stalls);
  ns/node       usec * 1000 / nodes of a row: one guess of that row with its propagation;
  calls of T    bench's techniques[T].calls / puzzles: how many times T ran (found
                something or not), counted, not estimated;
  ns/call of T  in the row REF+T (REF = fast for fast+T, the base spec for BASE,T):
                (usec(REF+T) * 1000 - ns/node(REF) * nodes(REF+T)) / calls of T, i.e. the
                row's time less what REF's propagation costs on the nodes REF+T visits,
                per call of T. What it leaves out (the cost of a node is taken as REF's,
                though T's eliminations leave the propagation a little less to do) makes
                it a slight underestimate.
Spread: bench times each row as --repeat samples. ns/call of T and the time ratio are
computed for every pair of a sample of the row and a sample of REF: the median is printed
with the smallest and largest in brackets (sbperf.stats.pairwise). A range that holds 0 is
a difference of two timings below their spread: noise, printed as "< noise", never as a
negative cost; a range wholly below 0 is flagged (NOTE_BELOW_ZERO).
"""
import glob
import json
import os
import sys

from sbperf import charts
from sbperf.stats import pairwise

NOTE_NOISE = (
    "ns/call of T and the time ratio: the median over every pairing of one timed sample of "
    "the row with one of its reference (bench's `--repeat` samples), the smallest and "
    "largest in brackets. `< noise`: that range holds 0, i.e. the row's time and what its "
    "reference's propagation costs on the row's nodes differ by less than their spread over "
    "the samples, so T's cost per call is not told apart from nothing (a longer "
    "`STUDY_SECONDS` narrows the spread).")
NOTE_BELOW_ZERO = (
    "`(below 0)`: in every pairing the row ran faster than its reference's cost per node "
    "predicts for the row's nodes: T's eliminations saved more propagation than its calls "
    "cost. The estimate takes a node to cost what it costs in the reference and cannot "
    "split the two, so the figure is no cost of a call.")


def load(path):
    with open(path) as f:
        return json.load(f)


def tech_of(pipeline, base):
    """The technique a row adds: T of BASE,T or fast+T, else None."""
    if pipeline.startswith(base + ","):
        return pipeline[len(base) + 1:]
    if pipeline.startswith("fast+"):
        return pipeline[len("fast+"):]
    return None


def fmt(v, digits=1):
    return "-" if v is None else f"{v:,.{digits}f}"


def pareto(rows):
    """The rows no other row beats in both time and guesses, by time."""
    keep = []
    for r in rows:
        t, g = r["usec_per_puzzle"], r["guesses_per_puzzle"]
        if not any((o["usec_per_puzzle"] <= t and o["guesses_per_puzzle"] <= g) and
                   (o["usec_per_puzzle"] < t or o["guesses_per_puzzle"] < g) for o in rows):
            keep.append(r)
    return sorted(keep, key=lambda r: r["usec_per_puzzle"])


def nodes(row):
    """The root plus one node per guess, per puzzle."""
    return 1.0 + row["guesses_per_puzzle"]


def ns_per_node(row):
    return row["usec_per_puzzle"] * 1000.0 / nodes(row)


def ns_samples(row):
    """The row's timed samples as ns per puzzle (its median alone when the JSON has no
    samples)."""
    return [1e9 / pps for pps in (row.get("samples") or [row["puzzles_per_sec"]]) if pps > 0]


def ns_per_call(row, ref, t):
    """T's cost per call in row = ref + T (see the module's docstring) as (median, min, max)
    over the pairs of samples of row and ref, and T's calls per puzzle; (None, calls) without
    calls."""
    calls = row["techniques"][t]["calls"] / row["puzzles"]
    if calls <= 0:
        return None, calls
    scale = nodes(row) / nodes(ref)
    return pairwise(lambda a, b: (a - b * scale) / calls, ns_samples(row), ns_samples(ref)), \
        calls


def time_ratio(row, ref):
    """The row's time over its reference's, (median, min, max) over the pairs of samples."""
    return pairwise(lambda a, b: a / b, ns_samples(row), ns_samples(ref))


def cost_text(cost):
    """Formats ns/call of T (median, min, max): "< noise" when the range holds 0, flagged
    "(below 0)" when it lies wholly below 0."""
    if cost is None:
        return "-"
    mid, lo, hi = cost
    if lo <= 0 <= hi:
        return f"< noise ({fmt(lo)}..{fmt(hi)})"
    return f"{fmt(mid)} ({fmt(lo)}..{fmt(hi)})" + (" (below 0)" if hi < 0 else "")


def spread_pct(row):
    """The row's MAD in percent of its median puzzles/s (0 without samples)."""
    return 100.0 * row.get("mad", 0.0) / row["puzzles_per_sec"] if row["puzzles_per_sec"] else 0


def short_label(pipeline, base):
    """The label of a row in the chart: "+T" for a technique added to its reference, "base"
    for the base spec, else the pipeline."""
    t = tech_of(pipeline, base)
    return "+" + t if t else "base" if pipeline == base else pipeline


def place_labels(ax, points, fontsize=7):
    """Writes each (x, y, text) of points beside its point where it overlaps no other label,
    no point and not the axes' edge (the first free one of a few offsets); returns how
    many found no such place and were left out."""
    from matplotlib.transforms import Bbox
    renderer = ax.figure.canvas.get_renderer()
    ax.figure.canvas.draw()  # the layout fixes where the axes and the points are
    box = ax.get_window_extent(renderer)
    taken = []
    for x, y in ((p[0], p[1]) for p in points):
        px, py = ax.transData.transform((x, y))
        taken.append(Bbox.from_bounds(px - 4, py - 4, 8, 8))
    offsets = [(5, 3, "left", "bottom"), (5, -3, "left", "top"), (-5, 3, "right", "bottom"),
               (-5, -3, "right", "top"), (0, 7, "center", "bottom"), (0, -7, "center", "top"),
               (12, 10, "left", "bottom"), (12, -10, "left", "top"),
               (-12, 10, "right", "bottom"), (-12, -10, "right", "top")]
    left_out = 0
    for x, y, text in points:
        for dx, dy, ha, va in offsets:
            a = ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points",
                            ha=ha, va=va, fontsize=fontsize)
            a.set_in_layout(False)
            bb = a.get_window_extent(renderer)
            inside = box.x0 <= bb.x0 and bb.x1 <= box.x1 and box.y0 <= bb.y0 and bb.y1 <= box.y1
            if inside and not any(bb.overlaps(t) for t in taken):
                taken.append(bb)
                break
            a.remove()
        else:
            left_out += 1
    return left_out


def chart(path, runs, base):
    """Draws the Pareto chart: a row per corpus, its generic run (NAME) left and its fast
    run (NAME.fast) right; in each panel every row's time per puzzle (log scale, the bar
    its samples' min..max) against its guesses per puzzle, labelled where there is room,
    and the Pareto front joined."""
    corpora = sorted({name.split(".")[0] for name, _ in runs})
    cols = 2 if any(name.endswith(".fast") for name, _ in runs) else 1
    fig = charts.figure("study", len(corpora))
    fig.suptitle("What each technique costs (time) and buys (guesses): "
                 "+T = the reference with technique T added")
    axes = fig.subplots(len(corpora), cols, squeeze=False)
    panels = []
    for name, rows in runs:
        ax = axes[corpora.index(name.split(".")[0])][1 if name.endswith(".fast") else 0]
        panels.append((ax, name, rows))
        for kind, colour, marker, pick in (
                ("+T rows", "#1f5fa8", "o", lambda r: tech_of(r["pipeline"], base)),
                ("references", "#333333", "s", lambda r: not tech_of(r["pipeline"], base))):
            sel = [r for r in rows if pick(r)]
            if not sel:
                continue
            xs = [r["usec_per_puzzle"] * 1e-6 for r in sel]
            spread = [[x - min(ns_samples(r)) * 1e-9 for x, r in zip(xs, sel)],
                      [max(ns_samples(r)) * 1e-9 - x for x, r in zip(xs, sel)]]
            ax.errorbar(xs, [r["guesses_per_puzzle"] for r in sel], xerr=spread, fmt=marker,
                        color=colour, ms=5, capsize=2, lw=1, label=kind)
        front = pareto(rows)
        ax.plot([r["usec_per_puzzle"] * 1e-6 for r in front],
                [r["guesses_per_puzzle"] for r in front], color="#c00000", lw=1.5,
                label="Pareto front")
        ax.set_xscale("log")
        times = [r["usec_per_puzzle"] * 1e-6 for r in rows]
        ax.set_xlim(*charts.log_limits(min(times) / 1.5, max(times), 2.5))
        ax.margins(y=0.15)
        charts.eng_axis(ax.xaxis, "s")
        ax.set_xlabel("time per puzzle (log scale; bar: min..max of the samples)")
        ax.set_ylabel("guesses per puzzle")
        ax.set_title("%s: %s, %d puzzles" % (name.split(".")[0], "fast and fast+T"
                                             if name.endswith(".fast") else
                                             "the generic engine", rows[0]["puzzles"]))
        ax.legend(loc="best", fontsize=8)
    for ax in axes.flat:
        if not any(ax is p[0] for p in panels):
            ax.set_visible(False)
    for ax, name, rows in panels:
        left_out = place_labels(ax, [(r["usec_per_puzzle"] * 1e-6, r["guesses_per_puzzle"],
                                      short_label(r["pipeline"], base)) for r in rows])
        if left_out:
            ax.set_title("%s\n(%d labels left out for room: study.md has every row)"
                         % (ax.get_title(), left_out), fontsize=10)
    charts.save_png(fig, path)


def main(out):
    data = os.path.join(out, "study")
    info = {}
    with open(os.path.join(data, "build.txt")) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            info[k] = v
    base = info.get("base", "list:ns,hs,lc")
    md = ["# The strategies study", "",
          f"`{info.get('version', '?')}` ({info.get('git', '?')}) on {info.get('cpu', '?')}, "
          f"{info.get('date', '?')}: 1 thread, at least {info.get('seconds', '?')} s per row; "
          f"corpora {info.get('corpora', '?')}: the generic rows on the first "
          f"{info.get('puzzles', '?')} puzzles of each, `fast` and `fast+T` on "
          f"{info.get('fast_puzzles', '?')}. Base spec `{base}`; "
          "method and reading: docs/strategies.md \"The study\".", ""]
    summary = []
    runs = []
    for path in sorted(glob.glob(os.path.join(data, "*.json"))):
        name = os.path.basename(path)[:-len(".json")]
        doc = load(path)
        rows = [r for r in doc["rows"] if r["puzzles"] > 0]
        if not rows:
            continue
        runs.append((name, rows))
        by = {r["pipeline"]: r for r in rows}
        grid = doc["build"].get("grid", "9x9")
        md += [f"## {name} ({grid}, {rows[0]['puzzles']} puzzles)", "",
               "| pipeline | puzzles/s | usec/puzzle (±MAD) | guesses/puzzle | ns/node | "
               "calls/puzzle of T | ns/call of T (min..max) |",
               "|---|---:|---:|---:|---:|---:|---:|"]
        ref = by.get(base)
        for r in rows:
            t = tech_of(r["pipeline"], base)
            calls = cost = None
            against = by.get("fast") if r["pipeline"].startswith("fast+") else ref
            if t and t in r["techniques"] and against:
                cost, calls = ns_per_call(r, against, t)
                summary.append((name, r["pipeline"], t, time_ratio(r, against),
                                r["guesses_per_puzzle"] - against["guesses_per_puzzle"],
                                cost, ns_per_node(against)))
            md.append(f"| {r['pipeline']} | {fmt(r['puzzles_per_sec'])} | "
                      f"{fmt(r['usec_per_puzzle'], 3)} ±{spread_pct(r):.1f}% | "
                      f"{fmt(r['guesses_per_puzzle'], 3)} | {fmt(ns_per_node(r))} | "
                      f"{fmt(calls, 3)} | {cost_text(cost)} |")
        md += ["", "Pareto front (time, guesses): " +
               ", ".join(f"`{r['pipeline']}`" for r in pareto(rows)), ""]
        marks = [m for m, hit in (("`< noise`", lambda c: c[1] <= 0 <= c[2]),
                                  ("`(below 0)`", lambda c: c[2] < 0))
                 if any(s[0] == name and s[5] is not None and hit(s[5]) for s in summary)]
        if marks:
            md += [", ".join(marks) + ": the notes under \"What pays where\".", ""]
    costs = [s[5] for s in summary if s[5] is not None]
    notes = [NOTE_NOISE] + ([NOTE_BELOW_ZERO] if any(c[2] < 0 for c in costs) else [])
    if summary:
        table = ["| corpus | pipeline | T | time ratio (min..max) | guesses/puzzle change | "
                 "ns/call of T (min..max) | ns/node of the reference |",
                 "|---|---|---|---:|---:|---:|---:|"]
        for name, pipe, t, ratio, dg, cost, node in summary:
            table.append(f"| {name} | {pipe} | {t} | {ratio[0]:.2f} ({ratio[1]:.2f}.."
                         f"{ratio[2]:.2f}) | {dg:+.3f} | {cost_text(cost)} | {fmt(node)} |")
        md += ["## What pays where", "",
               "Time of the row over its reference (`fast` for fast+T, the base spec for "
               "BASE,T): below 1.00 the technique pays on that corpus; where the bracketed "
               "range holds 1.00 the difference is within the spread of the samples. One "
               "call of T against one node (a guess with its propagation) of the "
               "reference.", ""] + table + \
              [""] + notes + [""]
        print("\n".join(table + [""] + notes))
    md += ["![Pareto chart: time per puzzle against guesses per puzzle](study.png)", ""]
    with open(os.path.join(out, "study.md"), "w") as f:
        f.write("\n".join(md))
    if runs:
        chart(os.path.join(out, "study.png"), runs, base)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: study.py DIR")
    try:
        main(sys.argv[1])
    except charts.ChartError as e:
        sys.exit("study: %s" % e)
