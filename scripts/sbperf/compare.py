"""sbperf.compare — the tables of `make compare`: medians over rounds, ratios to tdoku.

scripts/measure/compare.sh runs it (python3 -m sbperf.compare). Reads RAW/meta.tsv
(key<TAB>value lines) and RAW/runs.tsv (round, corpus, kind, level, output file: tdoku's CSV
output or sudokubench's bench JSON), writes the JSON (every run and the medians) and the
Markdown (one table per corpus), and prints the Markdown.

Ratio: sudokubench puzzles/s over the tdoku build of the same vector width — avx512 and
avx512bw vs the faster (per corpus, medians) of tdoku native and tdoku avx512 (-mavx512vl
-mavx512bitalg: tdoku's AVX-512 path whatever -march=native makes of the CPU, which depends on
the compiler), avx2 vs tdoku avx2, sse4 vs tdoku sse4.2, scalar vs tdoku sse4.2 (tdoku has no
scalar build; its lowest is the fair floor); neon has no peer (tdoku is x86-only).

The row "tdoku-plugin native" is tdoku's native build run through sudokubench's harness as a
solver plug-in (bench --plugin, scripts/measure/tdoku-plugin.sh): its ratio to tdoku native
(run_benchmark) is what the harness costs a plug-in, 1.00 being nothing.
"""

import argparse
import json
import os
import statistics

# Each level's candidate peers; the fastest of those measured is the one it is divided by.
PEERS = {"avx512": ["native", "avx512"], "avx512bw": ["native", "avx512"], "avx2": ["avx2"],
         "sse4": ["sse4.2"], "scalar": ["sse4.2"]}
# The other levels of each one's architecture, for "auto at least as fast as every other one"
# (auto's order depends on the CPU family: on AMD Zen 4 avx512bw comes before avx512).
OTHERS = {"avx512": ["avx512bw", "avx2", "sse4", "scalar"],
          "avx512bw": ["avx512", "avx2", "sse4", "scalar"],
          "avx2": ["sse4", "scalar"], "sse4": ["scalar"],
          "scalar": [], "neon": ["scalar"]}
TD_ORDER = ["native", "avx512", "avx2", "sse4.2"]
SB_ORDER = ["avx512", "avx512bw", "avx2", "sse4", "scalar", "neon"]


def fastest_peer(level, find):
    """The tdoku row a sudokubench level is divided by: the fastest (puzzles_per_sec) of its
    candidate peers (PEERS) that find(tdoku_level) returns, or None when none was measured."""
    found = [p for p in (find(t) for t in PEERS.get(level, [])) if p]
    return max(found, key=lambda p: p["puzzles_per_sec"]) if found else None


def read_meta(path):
    meta, skipped = {}, []
    with open(path) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("\t")
            if key == "skipped":
                skipped.append(value)
            else:
                meta[key] = value
    meta["skipped"] = skipped
    for key in ("rounds", "seconds", "cpus"):
        if meta.get(key, "").isdigit():
            meta[key] = int(meta[key])
    return meta


def parse_tdoku(text):
    """tdoku's -c 1 row (the last line of text): compiler id, version, flags, file, solver,
    then four numbers."""
    row = text.strip().splitlines()[-1].split(",")
    pps, usec, no_guess, guesses = (float(x) for x in row[-4:])
    return {
        "puzzles_per_sec": pps, "usec_per_puzzle": usec, "no_guess_pct": no_guess,
        "guesses_per_puzzle": guesses, "build": " ".join(" ".join(row[:3]).split()),
    }


def read_tdoku(path):
    """parse_tdoku on the file path."""
    with open(path) as f:
        return parse_tdoku(f.read())


def read_sudokubench(path):
    with open(path) as f:
        doc = json.load(f)
    row = doc["rows"][0]
    keys = ("puzzles_per_sec", "usec_per_puzzle", "no_guess_pct", "guesses_per_puzzle",
            "puzzles", "seconds", "simd")
    out = {k: row[k] for k in keys}
    out["build"] = "gcc %s %s" % (doc["build"]["compiler"], doc["build"]["flags"])
    return out


def write_reports(doc, text, json_path, md_path):
    """Writes doc as JSON to json_path and the Markdown text to md_path, then prints text."""
    for path in (json_path, md_path):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(json_path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(md_path, "w") as f:
        f.write(text)
    print(text, end="")


def fmt_rate(x):
    return "{:,.0f}".format(x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--raw", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--md", required=True)
    args = ap.parse_args()

    meta = read_meta(os.path.join(args.raw, "meta.tsv"))
    runs = []
    with open(os.path.join(args.raw, "runs.tsv")) as f:
        for line in f:
            rnd, corpus, kind, level, path = line.rstrip("\n").split("\t")
            # the plug-in row is a bench JSON like sudokubench's
            row = read_tdoku(path) if kind == "tdoku" else read_sudokubench(path)
            row.update(round=int(rnd), corpus=corpus, dataset=os.path.basename(corpus),
                       solver=kind, level=level)
            runs.append(row)

    corpora = list(dict.fromkeys(r["corpus"] for r in runs))
    medians = []
    for corpus in corpora:
        for kind, levels in (("tdoku", TD_ORDER), ("tdoku-plugin", ["native"]),
                             ("sudokubench", SB_ORDER)):
            for level in levels:
                rows = [r for r in runs if r["corpus"] == corpus and r["solver"] == kind
                        and r["level"] == level]
                if not rows:
                    continue
                rates = [r["puzzles_per_sec"] for r in rows]
                m = {
                    "corpus": corpus, "dataset": os.path.basename(corpus), "solver": kind,
                    "level": level, "runs": len(rows),
                    "puzzles_per_sec": statistics.median(rates),
                    "puzzles_per_sec_min": min(rates), "puzzles_per_sec_max": max(rates),
                    "usec_per_puzzle": statistics.median(r["usec_per_puzzle"] for r in rows),
                    "no_guess_pct": statistics.median(r["no_guess_pct"] for r in rows),
                    "guesses_per_puzzle": statistics.median(r["guesses_per_puzzle"] for r in rows),
                    "build": rows[0]["build"],
                }
                if kind == "sudokubench":
                    m["puzzles"] = rows[0]["puzzles"]
                medians.append(m)

    def median_of(corpus, kind, level):
        for m in medians:
            if m["corpus"] == corpus and m["solver"] == kind and m["level"] == level:
                return m
        return None

    for m in medians:
        if m["solver"] == "tdoku-plugin":
            pm = median_of(m["corpus"], "tdoku", m["level"])
            m["peer"] = "tdoku " + m["level"] if pm else None
            m["ratio"] = round(m["puzzles_per_sec"] / pm["puzzles_per_sec"], 3) if pm else None
            continue
        if m["solver"] != "sudokubench":
            continue
        pm = fastest_peer(m["level"], lambda level: median_of(m["corpus"], "tdoku", level))
        m["peer"] = "tdoku " + pm["level"] if pm else None
        m["ratio"] = round(m["puzzles_per_sec"] / pm["puzzles_per_sec"], 3) if pm else None

    auto = meta.get("auto", "?")
    auto_checks = []
    for corpus in corpora:
        am = median_of(corpus, "sudokubench", auto)
        others = [m for m in medians if m["corpus"] == corpus and m["solver"] == "sudokubench"
                  and m["level"] in OTHERS.get(auto, [])]
        if am is None:
            continue
        slower = [m["level"] for m in others if m["puzzles_per_sec"] > am["puzzles_per_sec"]]
        auto_checks.append({"corpus": corpus, "auto": auto,
                            "others": [m["level"] for m in others],
                            "at_least_as_fast": not slower, "faster": slower})

    md = ["# Same-run comparison: sudokubench and tdoku", ""]
    md.append("- CPU: %s (%s logical CPUs)" % (meta.get("cpu", "?"), meta.get("cpus", "?")))
    md.append("- gcc: %s; %s at commit %s" % (meta.get("gcc", "?"), meta.get("version", "?"),
                                              meta.get("commit", "?")))
    td_builds = sorted({m["level"] + ": " + m["build"] for m in medians if m["solver"] == "tdoku"})
    if td_builds:
        md.append("- tdoku builds: " + "; ".join(td_builds))
    md.append("- date: %s" % meta.get("date", "?"))
    md.append("- method: 1 thread, limit 2 (uniqueness check); %s round(s), each running every "
              "configuration once per corpus (rotating order); %s s timed per run (tdoku "
              "`-t %s -w 1 -c 1 -r 0`, sudokubench `bench --seconds %s --pipelines fast` after "
              "its validating warm-up); medians over the rounds, min-max beside them"
              % (meta.get("rounds"), meta.get("seconds"), meta.get("seconds"), meta.get("seconds")))
    md.append("- puzzles: the same file for both solvers, %s (tdoku's own random transform "
              "of each puzzle, its default -r 1, is off)" % meta.get("orientation", "as given"))
    md.append("- ratio: sudokubench puzzles/s over the tdoku build of the same vector width "
              "(avx512 and avx512bw vs the faster of tdoku native and tdoku avx512, avx2 vs "
              "tdoku avx2, sse4 vs tdoku sse4.2); "
              "scalar is against tdoku sse4.2 (tdoku has no scalar build); neon has no peer")
    if any(m["solver"] == "tdoku-plugin" for m in medians):
        md.append("- tdoku-plugin native: tdoku's native build as a solver plug-in, measured by "
                  "`bench --plugin` like the sudokubench rows; its ratio to tdoku native "
                  "(run_benchmark) is what the harness costs a plug-in (1.00: nothing)")
    for s in meta["skipped"]:
        md.append("- skipped: " + s)
    md.append("")
    md.append("auto-chosen level: %s" % auto)
    for c in auto_checks:
        if not c["others"]:
            verdict = "no other level measured"
        elif c["at_least_as_fast"]:
            verdict = "yes, at least as fast as every other level (%s)" % ", ".join(c["others"])
        else:
            verdict = "NO: slower than %s" % ", ".join(c["faster"])
        md.append("- %s: %s" % (os.path.basename(c["corpus"]), verdict))

    for corpus in corpora:
        rows = [m for m in medians if m["corpus"] == corpus]
        puzzles = next((m["puzzles"] for m in rows if "puzzles" in m), None)
        md += ["", "## %s%s" % (os.path.basename(corpus),
                                 " (%s puzzles)" % "{:,}".format(puzzles) if puzzles else ""), ""]
        md.append("| configuration | puzzles/s (median) | min-max | usec/puzzle | %no_guess "
                  "| guesses/puzzle | peer | ratio |")
        md.append("|---|---:|---:|---:|---:|---:|---|---:|")
        for m in rows:
            name = "%s %s" % (m["solver"], m["level"])
            if m["solver"] == "sudokubench" and m["level"] == auto:
                name += " (auto)"
            ratio = "%.2fx" % m["ratio"] if m.get("ratio") else ""
            md.append("| %s | %s | %s-%s | %.2f | %.1f | %.2f | %s | %s |" % (
                name, fmt_rate(m["puzzles_per_sec"]), fmt_rate(m["puzzles_per_sec_min"]),
                fmt_rate(m["puzzles_per_sec_max"]), m["usec_per_puzzle"], m["no_guess_pct"],
                m["guesses_per_puzzle"], m.get("peer") or "", ratio))
    text = "\n".join(md) + "\n"

    write_reports({"meta": meta, "auto": auto_checks, "medians": medians, "runs": runs}, text,
                  args.json, args.md)


if __name__ == "__main__":
    main()
