#!/usr/bin/env python3
"""scripts/report/study.py DIR — the tables of `make study` (scripts/report/study.sh) from DIR/study/*.json.

Writes DIR/study.md (one table per corpus and a summary of what pays where) and, per corpus,
DIR/study/NAME.dat (usec/puzzle, guesses/puzzle, label) and NAME.pareto.dat (the rows no
other row beats in both) for scripts/study.gp.

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


def ns_per_call(row, ref, t):
    """T's cost per call in row = ref + T (see the module's docstring); None without calls."""
    calls = row["techniques"][t]["calls"] / row["puzzles"]
    if calls <= 0:
        return None, calls
    return (row["usec_per_puzzle"] * 1000.0 - ns_per_node(ref) * nodes(row)) / calls, calls


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
    for path in sorted(glob.glob(os.path.join(data, "*.json"))):
        name = os.path.basename(path)[:-len(".json")]
        doc = load(path)
        rows = [r for r in doc["rows"] if r["puzzles"] > 0]
        if not rows:
            continue
        by = {r["pipeline"]: r for r in rows}
        grid = doc["build"].get("grid", "9x9")
        md += [f"## {name} ({grid}, {rows[0]['puzzles']} puzzles)", "",
               "| pipeline | puzzles/s | usec/puzzle | guesses/puzzle | ns/node | "
               "calls/puzzle of T | ns/call of T |",
               "|---|---:|---:|---:|---:|---:|---:|"]
        ref = by.get(base)
        for r in rows:
            t = tech_of(r["pipeline"], base)
            calls = cost = None
            against = by.get("fast") if r["pipeline"].startswith("fast+") else ref
            if t and t in r["techniques"] and against:
                cost, calls = ns_per_call(r, against, t)
                summary.append((name, r["pipeline"], t,
                                r["usec_per_puzzle"] / against["usec_per_puzzle"],
                                r["guesses_per_puzzle"] - against["guesses_per_puzzle"],
                                cost, ns_per_node(against)))
            md.append(f"| {r['pipeline']} | {fmt(r['puzzles_per_sec'])} | "
                      f"{fmt(r['usec_per_puzzle'], 3)} | {fmt(r['guesses_per_puzzle'], 3)} | "
                      f"{fmt(ns_per_node(r))} | {fmt(calls, 3)} | {fmt(cost)} |")
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
               "BASE,T): below 1.00 the technique pays on that corpus. One call of T against "
               "one node (a guess with its propagation) of the reference.", "",
               "| corpus | pipeline | T | time ratio | guesses/puzzle change | ns/call of T | "
               "ns/node of the reference |",
               "|---|---|---|---:|---:|---:|---:|"]
        for name, pipe, t, ratio, dg, cost, node in summary:
            md.append(f"| {name} | {pipe} | {t} | {ratio:.2f} | {dg:+.3f} | {fmt(cost)} | "
                      f"{fmt(node)} |")
        md.append("")
    md += ["![Pareto chart: usec/puzzle against guesses/puzzle](study.png)", ""]
    with open(os.path.join(out, "study.md"), "w") as f:
        f.write("\n".join(md))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: study.py DIR")
    main(sys.argv[1])
