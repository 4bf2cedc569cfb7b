#!/usr/bin/env python3
"""scripts/study.py DIR — the tables of `make study` (scripts/study.sh) from DIR/study/*.json.

Writes DIR/study.md (one table per corpus and a summary of what pays where) and, per corpus,
DIR/study/NAME.dat (usec/puzzle, guesses/puzzle, label) and NAME.pareto.dat (the rows no
other row beats in both) for scripts/study.gp.

Costs, from the bench counters (docs/strategies.md "The study"):
  ns/guess      usec/puzzle * 1000 / guesses/puzzle of the row: an upper bound of one
                guess's cost, since the propagation after each guess is in it;
  ns/app (est.) what one application of T cost in the row BASE,T: the time it added over
                BASE, less the guesses it saved at BASE's ns/guess, per application of T
                (bench counts applications, not calls: a call that finds nothing is paid
                for but not counted, so this is the cost of a useful call).
"""
import glob
import json
import os
import sys


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


def ns_per_guess(row):
    g = row["guesses_per_puzzle"]
    return row["usec_per_puzzle"] * 1000.0 / g if g > 0 else None


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
          f"{info.get('date', '?')}: 1 thread, the first {info.get('puzzles', '?')} puzzles of "
          f"each corpus, at least {info.get('seconds', '?')} s per row. Base spec `{base}`; "
          "method and reading: docs/strategies.md \"The study\".", ""]
    summary = []
    for path in sorted(glob.glob(os.path.join(data, "*.json"))):
        name = os.path.basename(path)[:-len(".json")]
        doc = load(path)
        rows = [r for r in doc["rows"] if r["puzzles"] > 0]
        if not rows:
            continue
        by = {r["pipeline"]: r for r in rows}
        grid = doc["build"].get("grid", "9x9")
        md += [f"## {name} ({grid}, {rows[0]['puzzles']} puzzles)", "",
               "| pipeline | puzzles/s | usec/puzzle | guesses/puzzle | ns/guess | "
               "applications/puzzle of T | ns/app of T (est.) |",
               "|---|---:|---:|---:|---:|---:|---:|"]
        ref = by.get(base)
        for r in rows:
            t = tech_of(r["pipeline"], base)
            apps = est = None
            if t and t in r["techniques"]:
                apps = r["techniques"][t]["applications"] / r["puzzles"]
                against = by.get("fast") if r["pipeline"].startswith("fast+") else ref
                if against and apps > 0:
                    saved = against["guesses_per_puzzle"] - r["guesses_per_puzzle"]
                    g_ns = ns_per_guess(against) or 0.0
                    added = (r["usec_per_puzzle"] - against["usec_per_puzzle"]) * 1000.0
                    est = (added + saved * g_ns) / apps
                if against:
                    summary.append((name, r["pipeline"], t,
                                    r["usec_per_puzzle"] / against["usec_per_puzzle"],
                                    r["guesses_per_puzzle"] - against["guesses_per_puzzle"]))
            md.append(f"| {r['pipeline']} | {fmt(r['puzzles_per_sec'])} | "
                      f"{fmt(r['usec_per_puzzle'], 3)} | {fmt(r['guesses_per_puzzle'], 3)} | "
                      f"{fmt(ns_per_guess(r))} | {fmt(apps, 3)} | {fmt(est)} |")
        front = pareto(rows)
        md += ["", "Pareto front (time, guesses): " +
               ", ".join(f"`{r['pipeline']}`" for r in front), ""]
        with open(os.path.join(data, name + ".dat"), "w") as f:
            for r in rows:
                f.write(f"{r['usec_per_puzzle']} {r['guesses_per_puzzle']} "
                        f"\"{r['pipeline']}\"\n")
        with open(os.path.join(data, name + ".pareto.dat"), "w") as f:
            for r in front:
                f.write(f"{r['usec_per_puzzle']} {r['guesses_per_puzzle']}\n")
    if summary:
        md += ["## What pays where", "",
               "Time of the row over its reference (`fast` for fast+T, the base spec for "
               "BASE,T): below 1.00 the technique pays on that corpus.", "",
               "| corpus | pipeline | T | time ratio | guesses/puzzle change |",
               "|---|---|---|---:|---:|"]
        for name, pipe, t, ratio, dg in summary:
            md.append(f"| {name} | {pipe} | {t} | {ratio:.2f} | {dg:+.3f} |")
        md.append("")
    md += ["![Pareto chart: usec/puzzle against guesses/puzzle](study.png)", ""]
    with open(os.path.join(out, "study.md"), "w") as f:
        f.write("\n".join(md))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: study.py DIR")
    main(sys.argv[1])
