#!/usr/bin/env python3
"""report.py — turns the bench JSON of scripts/report/report.sh into report.md and its charts.

Usage: report.py DIR   (reads DIR/data/{slice,simd_*,threads_*}.json and DIR/data/build.txt;
writes DIR/report.md and the charts DIR/{throughput,guesses,simd,scaling}.png, drawn with
matplotlib through sbperf.charts: PYTHONPATH must hold scripts/, as report.sh sets it)

The bar charts have one panel per corpus with a horizontal bar per pipeline or SIMD level,
its value written at its end; the scaling chart draws the speedup over 1 thread against
linear scaling and says so in red, in the chart and in report.md, where a speedup is below 1.
"""

import glob
import json
import os
import sys

from sbperf import charts

# The order of the SIMD levels in tables and charts, narrowest first.
LEVELS = ("scalar", "sse4", "avx2", "avx512bw", "avx512", "neon")


def load_rows(path):
    """Returns the rows of one `bench --json` file."""
    return load_doc(path)["rows"]


def load_doc(path):
    """Returns one `bench --json` document ({"build":{...},"rows":[...]})."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def short(dataset):
    """Returns the display name of a dataset (file name without .txt)."""
    return dataset[:-4] if dataset.endswith(".txt") else dataset


def ordered(values):
    """Returns the distinct values in first-seen order."""
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


def md_table(header, rows):
    """Returns a Markdown table; columns after the first two are right-aligned."""
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" if i < 2 else "---:" for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def rate(v):
    """Formats puzzles/sec for a table."""
    return "{:,.0f}".format(v) if v >= 100 else "{:,.1f}".format(v)


def bar_panels(path, title, panels, xlabel, scale):
    """Draws path: one panel per corpus, a horizontal bar per (label, value, text) of its
    list, text written at the bar's end. scale: "log" (shared by the panels), "symlog"
    (shared; a linear stretch below 1 shows zeros) or "linear" (each panel from 0)."""
    fig = charts.figure("report")
    fig.suptitle(title)
    cols = 1 if len(panels) <= 3 else 2 if len(panels) <= 8 else 3
    rows = -(-len(panels) // cols)
    axes = fig.subplots(rows, cols, squeeze=False, sharex=(scale != "linear"))
    names = ordered(label for _, bars in panels for label, _, _ in bars)
    colours = dict(zip(names, charts.palette() * -(-len(names) // 10)))
    values = [v for _, bars in panels for _, v, _ in bars]
    for ax, (name, bars) in zip(axes.flat, panels):
        ys = range(len(bars))
        rects = ax.barh(ys, [v for _, v, _ in bars], color=[colours[b[0]] for b in bars],
                        height=0.7)
        ax.set_yticks(ys, [label for label, _, _ in bars])
        ax.invert_yaxis()
        ax.bar_label(rects, labels=[text for _, _, text in bars], padding=3, fontsize=8)
        ax.set_title(name)
        ax.grid(axis="y", visible=False)
        if scale == "log":
            ax.set_xscale("log")
            # room on the right for the labels
            ax.set_xlim(*charts.log_limits(min(v for v in values if v > 0), max(values), 8))
        elif scale == "symlog":
            ax.set_xscale("symlog", linthresh=1)
            ax.set_xlim(0, max(10.0, max(values)) * 8)
        else:
            ax.set_xlim(0, max(v for _, v, _ in bars) * 1.35)
        charts.eng_axis(ax.xaxis, "")
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    # the axis is labelled under the lowest panel of each column (panels fill rows first)
    for col in range(min(cols, len(panels))):
        low = axes[(len(panels) - 1 - col) // cols][col]
        low.set_xlabel(xlabel)
        low.tick_params(axis="x", labelbottom=True)
    charts.save_png(fig, path)


def slow_scaling(threads, counts, tsets):
    """Returns [(corpus, threads, speedup)] of every thread count above 1 whose speedup over
    1 thread is below 1: more threads ran slower."""
    return [(d, t, threads[(t, d)]["puzzles_per_sec"] / threads[(1, d)]["puzzles_per_sec"])
            for d in tsets for t in counts
            if t > 1 and (t, d) in threads and (1, d) in threads and
            threads[(t, d)]["puzzles_per_sec"] < threads[(1, d)]["puzzles_per_sec"]]


def slow_words(slow):
    """Returns the list of slow (corpus, threads, speedup) in words."""
    return "; ".join("%s at %d threads: %.2fx" % s for s in slow)


def scaling_chart(path, threads, counts, tsets, slow):
    """Draws the speedup over 1 thread per corpus against the thread count, linear scaling
    dashed; below 1 is shaded and, when a corpus is there, a red warning heads the chart."""
    fig = charts.figure("report")
    fig.suptitle("Thread scaling of pipeline fast (whole corpora, best SIMD level)")
    ax = fig.subplots()
    top = max(counts)
    ax.plot([1, top], [1, top], ls="--", color="#888888", label="linear scaling")
    for d in tsets:
        ts = [t for t in counts if (t, d) in threads and (1, d) in threads]
        ax.plot(ts, [threads[(t, d)]["puzzles_per_sec"] / threads[(1, d)]["puzzles_per_sec"]
                     for t in ts], marker="o", lw=2, label=d)
    ax.axhspan(0, 1, color="#f6d5d5", alpha=0.6, lw=0, label="slower than 1 thread")
    if slow:
        low = min(slow, key=lambda s: s[2])
        ax.set_title("\u26a0 Speedup below 1 on %d of %d corpora (lowest %.2fx: %s at %d "
                     "threads):\nmore threads ran slower than one (report.md says why)"
                     % (len({s[0] for s in slow}), len(tsets), low[2], low[0], low[1]),
                     color="#b00000", fontweight="bold", loc="left")
    ax.set_xlim(0.8, top + 0.2)
    ax.set_ylim(0, max(top, max(s for _, _, s in slow) if slow else 0) + 0.5)
    ax.set_xticks(counts)
    ax.set_xlabel("threads (-t)")
    ax.set_ylabel("speedup over 1 thread (x)")
    charts.tick_format(ax.yaxis, lambda v: "%gx" % v)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    charts.save_png(fig, path)


def main(out):
    """Builds the report in directory out; returns the exit code."""
    data = os.path.join(out, "data")
    with open(os.path.join(data, "build.txt"), encoding="utf-8") as f:
        build = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
    slice_rows = load_rows(os.path.join(data, "slice.json"))
    datasets = ordered(short(r["dataset"]) for r in slice_rows)
    pipelines = ordered(r["pipeline"] for r in slice_rows)
    by = {(short(r["dataset"]), r["pipeline"]): r for r in slice_rows}

    simd = {}
    for path in sorted(glob.glob(os.path.join(data, "simd_*.json"))):
        for r in load_rows(path):
            simd[(short(r["dataset"]), r["simd"])] = r
    levels = [lv for lv in LEVELS if any(k[1] == lv for k in simd)]
    full = ordered(k[0] for k in simd)

    threads = {}
    for path in glob.glob(os.path.join(data, "threads_*.json")):
        for r in load_rows(path):
            threads[(r["threads"], short(r["dataset"]))] = r
    counts = sorted({k[0] for k in threads})
    tsets = ordered(k[1] for k in sorted(threads))
    slow = slow_scaling(threads, counts, tsets)

    slice_n = build.get("slice", "?")
    bar_panels(os.path.join(out, "throughput.png"),
               "Throughput per pipeline (first %s puzzles of each corpus, 1 thread, log scale)"
               % slice_n,
               [(d, [(p, by[(d, p)]["puzzles_per_sec"],
                      charts.eng(by[(d, p)]["puzzles_per_sec"], "/s"))
                     for p in pipelines if (d, p) in by]) for d in datasets],
               "throughput (puzzles/s)", "log")
    bar_panels(os.path.join(out, "guesses.png"),
               "Guesses per puzzle (same runs; fewer = stronger propagation)",
               [(d, [(p, by[(d, p)]["guesses_per_puzzle"],
                      charts.eng(by[(d, p)]["guesses_per_puzzle"]))
                     for p in pipelines if (d, p) in by]) for d in datasets],
               "guesses per puzzle (log scale above 1)", "symlog")
    bar_panels(os.path.join(out, "simd.png"),
               "Pipeline fast on the whole corpora, per SIMD level (1 thread)",
               [(d, [(lv, simd[(d, lv)]["puzzles_per_sec"],
                      "%s  (%.2fx %s)" % (charts.eng(simd[(d, lv)]["puzzles_per_sec"], "/s"),
                                          simd[(d, lv)]["puzzles_per_sec"]
                                          / simd[(d, levels[0])]["puzzles_per_sec"], levels[0])
                      if (d, levels[0]) in simd else charts.eng(simd[(d, lv)]
                                                                ["puzzles_per_sec"], "/s"))
                     for lv in levels if (d, lv) in simd]) for d in full],
               "throughput (puzzles/s)", "linear")
    scaling_chart(os.path.join(out, "scaling.png"), threads, counts, tsets, slow)

    md = ["# sudokubench performance report", "",
          "Generated by `make report` (scripts/report/report.sh) on %s in %s s. Every figure is "
          "`sudokubench bench --json` output: a checked warm-up pass, then timed passes for at "
          "least %s s, limit 2 (uniqueness check). Figures from one short run on a shared "
          "machine: compare within the report, not across machines."
          % (build.get("date", "?"), build.get("elapsed", "?"), build.get("seconds", "?")), "",
          "## Build", "",
          md_table(["what", "value"], [
              ["program", "`%s`" % build.get("version", "?")],
              ["source", "`%s`" % build.get("git", "?")],
              ["compiler", "`%s`" % build.get("compiler", "?")],
              ["flags", "`%s`" % load_doc(os.path.join(data, "slice.json"))["build"]
               .get("flags", "?")],
              ["CPU", "%s, %s cores" % (build.get("cpu", "?"), build.get("nproc", "?"))],
              ["SIMD levels", build.get("levels", "?")],
              ["corpora", ", ".join("`%s`" % f for f in build.get("files", "").split())]]), "",
          "## Pipelines: throughput per pipeline x corpus", "",
          "Every registry pipeline on the same puzzles: the first %s of each corpus (the "
          "generic pipelines take up to ~70 ms a puzzle), 1 thread, best SIMD level (only "
          "`fast` uses it). Log scale: the pipelines differ by four orders of magnitude." % slice_n,
          "", "![throughput per pipeline and corpus](throughput.png)", "",
          md_table(["corpus (first %s)" % slice_n, "pipeline", "puzzles/sec", "usec/puzzle",
                    "%no_guess", "guesses/puzzle"],
                   [[d, p, rate(by[(d, p)]["puzzles_per_sec"]),
                     "%.1f" % by[(d, p)]["usec_per_puzzle"], "%.1f" % by[(d, p)]["no_guess_pct"],
                     "%.2f" % by[(d, p)]["guesses_per_puzzle"]]
                    for d in datasets for p in pipelines if (d, p) in by]), "",
          "## Guesses per puzzle", "",
          "Same runs. Guesses count search states pushed (the field's convention); stronger "
          "propagation means fewer guesses but costlier nodes. The scale is linear from 0 to 1 and "
          "logarithmic above, so that a pipeline that never guesses still has its 0.",
          "", "![guesses per puzzle](guesses.png)", "",
          "## fast on the whole corpora, per SIMD level", "",
          "Pipeline `fast`, 1 thread, each kernel level this CPU runs (the scalar kernel is the "
          "reference; guess counts are identical at every level).", "",
          "![fast per SIMD level](simd.png)", "",
          md_table(["corpus", "level", "puzzles", "puzzles/sec", "usec/puzzle",
                    "guesses/puzzle"],
                   [[d, lv, "{:,}".format(simd[(d, lv)]["puzzles"]),
                     rate(simd[(d, lv)]["puzzles_per_sec"]),
                     "%.2f" % simd[(d, lv)]["usec_per_puzzle"],
                     "%.2f" % simd[(d, lv)]["guesses_per_puzzle"]]
                    for d in full for lv in levels if (d, lv) in simd]), "",
          "## Thread scaling", "",
          "Pipeline `fast`, best level, `-t 1..%s` on the whole corpora: speedup over 1 thread "
          "(the dashed line is linear scaling)." % build.get("nproc", "?"), "",
          "![thread scaling](scaling.png)", ""] + ([
          "> **Warning: speedup below 1** (%s). More threads ran slower than one: each "
          "thread had too little work to pay for starting it (a small corpus or a short "
          "`REPORT_SECONDS`), or other work held the cores. These rows say nothing about how "
          "the solver scales on large inputs." % slow_words(slow), ""] if slow else []) + [
          md_table(["corpus", "threads", "puzzles/sec", "speedup"],
                   [[d, str(t), rate(threads[(t, d)]["puzzles_per_sec"]),
                     "%.2fx" % (threads[(t, d)]["puzzles_per_sec"]
                                / threads[(1, d)]["puzzles_per_sec"])]
                    for d in tsets for t in counts if (t, d) in threads and (1, d) in threads]),
          "", "Raw JSON: `data/*.json`; the charts are drawn by `scripts/report/report.py` "
          "(matplotlib).", ""]
    with open(os.path.join(out, "report.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: report.py DIR")
    sys.exit(main(sys.argv[1]))
