"""sbperf.compare_ir — instruction counts beside the timed comparison (`make compare-ir`).

scripts/measure/compare_ir.sh drives it (python3 -m sbperf.compare_ir, PYTHONPATH=scripts):
  slice FILE N OUT   writes FILE's first N puzzle lines to OUT (what the readers would not
                     skip: sbperf.measure.puzzle_lines)
  count ...          counts instructions per puzzle under callgrind for every configuration
                     of the timed comparison (scripts/measure/compare.sh's JSON) that
                     valgrind runs, on the same slices, and writes the table: instructions a
                     puzzle, median puzzles/s, their product (instructions a second), and
                     for each sudokubench level the ratios to its tdoku peer
                     (sbperf.compare.fastest_peer): fewer instructions (peer's / ours),
                     speed (ours / peer's) and rate.

Counting (one callgrind process per configuration and slice, as many at once as CPUs):
  sudokubench  SB_PERF_MANY=auto perf_driver fast LEVEL 0 SLICE: the inclusive instructions
               of sb_solve_many over the slice's puzzles, in blocks of 64 under the default
               pair policy: what bench solves with and what the timing ran (at avx2 the
               paired search where the policy chose it);
  tdoku        run_benchmark -s tdoku -t 1 -w 0 -v 0 -e 1 -r 0 -c 1 -n N SLICE (N: the
               slice's puzzles, so its test set is the slice): the inclusive instructions of
               TdokuSolverDpllTriadSimd over its calls (without warm-up it takes its slow
               path: the slice in one seeded random order, repeated for 2 s of valgrind time).
Since speed = rate / instructions, the speed ratio is the product of the other two.
"""

import argparse
import concurrent.futures
import json
import os
import sys

from . import compare  # fastest_peer: the pairing of levels with tdoku builds; the writer
from . import measure  # callgrind runs and parsing, the driver's registry, puzzle lines

SB_FUNCTION = "sb_solve_many"
TD_FUNCTION = "TdokuSolverDpllTriadSimd"


def write_slice(path, n, out):
    """Writes the first n puzzle lines of path to out; returns how many there were."""
    lines = measure.puzzle_lines(path)[:n]
    if not lines:
        raise measure.PerfError("%s: no puzzle lines" % path)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def count_sudokubench(driver, level, corpus, out):
    """Instructions a puzzle and guesses a puzzle of sudokubench LEVEL on corpus."""
    cmd = measure.callgrind(out, [driver, "fast", level, "0", corpus])
    p = measure.run(cmd, env=dict(os.environ, SB_PERF_MANY="auto"))
    figures = json.loads(p.stdout.strip().splitlines()[-1])
    inclusive, _, _ = measure.parse_callgrind_calls(out, SB_FUNCTION)
    if inclusive == 0 or figures["puzzles"] == 0:
        raise measure.PerfError("%s: no cost inside %s" % (out, SB_FUNCTION))
    return inclusive / figures["puzzles"], figures["guesses"] / figures["puzzles"]


def count_tdoku(exe, corpus, out):
    """Instructions a call (a puzzle) and guesses a puzzle of one tdoku build on corpus."""
    n = len(measure.puzzle_lines(corpus))  # the test set is the slice itself, no copies
    cmd = measure.callgrind(out, [exe, "-s", "tdoku", "-t", "1", "-w", "0", "-v", "0", "-e", "1",
                                  "-r", "0", "-c", "1", "-n", str(n), corpus])
    p = measure.run(cmd)
    guesses = float(p.stdout.strip().splitlines()[-1].split(",")[-1])
    inclusive, calls, _ = measure.parse_callgrind_calls(out, TD_FUNCTION)
    if calls == 0:
        raise measure.PerfError("%s: no call of %s" % (out, TD_FUNCTION))
    return inclusive / calls, guesses


def join_rows(medians, counts):
    """The table rows: each timed median with its count (None when not counted), the
    instructions a second, and for sudokubench rows the ratios to the peer's row."""
    rows = []
    for m in medians:
        c = counts.get((m["corpus"], m["solver"], m["level"]))
        row = {k: m[k] for k in ("corpus", "dataset", "solver", "level", "puzzles_per_sec",
                                 "guesses_per_puzzle")}
        row["instr_per_puzzle"] = c["instr_per_puzzle"] if c and "instr_per_puzzle" in c else None
        row["not_counted"] = c.get("why") if c else "not counted"
        row["instr_per_sec"] = (row["instr_per_puzzle"] * m["puzzles_per_sec"]
                                if row["instr_per_puzzle"] else None)
        rows.append(row)
    for r in rows:
        if r["solver"] != "sudokubench":
            continue
        p = compare.fastest_peer(r["level"], lambda level: next(
            (q for q in rows if q["corpus"] == r["corpus"] and q["solver"] == "tdoku"
             and q["level"] == level), None))
        r["peer"] = "tdoku " + p["level"] if p else None
        r["speed_ratio"] = r["puzzles_per_sec"] / p["puzzles_per_sec"] if p else None
        both = p and r["instr_per_puzzle"] and p["instr_per_puzzle"]
        r["instr_ratio"] = p["instr_per_puzzle"] / r["instr_per_puzzle"] if both else None
        r["rate_ratio"] = r["instr_per_sec"] / p["instr_per_sec"] if both else None
    return rows


def markdown(meta, rows):
    """The report: the timed run's facts, then one table per corpus."""
    md = ["# Instructions and instruction rates: sudokubench and tdoku", ""]
    md.append("- CPU: %s (%s logical CPUs); %s at commit %s" % (
        meta.get("cpu", "?"), meta.get("cpus", "?"), meta.get("version", "?"),
        meta.get("commit", "?")))
    md.append("- timed: %s round(s) of %s s per run, medians (compare-ir-timed.md); counted: "
              "callgrind on the same slices, sudokubench inside `%s` over the puzzles, tdoku "
              "inside `%s` over its calls" % (meta.get("rounds"), meta.get("seconds"),
                                             SB_FUNCTION, TD_FUNCTION))
    md.append("- puzzles: the same slice for both solvers, %s (tdoku -r 0)"
              % meta.get("orientation", "as given"))
    md.append("- instr ratio: the peer's instructions a puzzle over ours (above 1: fewer "
              "here); rate ratio: our instructions a second over the peer's; their product "
              "is the speed ratio")
    for s in meta.get("skipped", []):
        md.append("- skipped: " + s)

    def num(x, fmt):
        return fmt.format(x) if x is not None else ""

    for corpus in dict.fromkeys(r["corpus"] for r in rows):
        md += ["", "## %s" % os.path.basename(corpus), ""]
        md.append("| configuration | instr/puzzle | puzzles/s | instr/s | guesses/puzzle | peer "
                  "| instr ratio | rate ratio | speed ratio |")
        md.append("|---|---:|---:|---:|---:|---|---:|---:|---:|")
        for r in (r for r in rows if r["corpus"] == corpus):
            instr = (num(r["instr_per_puzzle"], "{:,.0f}") if r["instr_per_puzzle"]
                     else "(%s)" % r["not_counted"])
            rate = num(r["instr_per_sec"] and r["instr_per_sec"] / 1e9, "{:.2f} G")
            md.append("| %s %s | %s | %s | %s | %.2f | %s | %s | %s | %s |" % (
                r["solver"], r["level"], instr, num(r["puzzles_per_sec"], "{:,.0f}"), rate,
                r["guesses_per_puzzle"], r.get("peer") or "",
                num(r.get("instr_ratio"), "{:.2f}x"), num(r.get("rate_ratio"), "{:.2f}x"),
                num(r.get("speed_ratio"), "{:.2f}x")))
    return "\n".join(md) + "\n"


def count_all(medians, driver, peers, work):
    """Counts every configuration of medians valgrind runs; returns {(corpus, solver, level):
    {"instr_per_puzzle", "guesses_per_puzzle"} or {"why"}}."""
    _, emulated = measure.registry(driver, under_valgrind=True)
    os.makedirs(work, exist_ok=True)
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for m in medians:
            key = (m["corpus"], m["solver"], m["level"])
            out = os.path.join(work, "%s-%s-%s.callgrind" % (m["dataset"], m["solver"], m["level"]))
            if m["solver"] == "tdoku-plugin":  # tdoku's own count is the tdoku native row's
                jobs[key] = "timed only: tdoku through the plug-in harness"
                continue
            if m["solver"] == "sudokubench":
                if m["level"] not in emulated:
                    jobs[key] = "valgrind cannot run it"
                    continue
                jobs[key] = pool.submit(count_sudokubench, driver, m["level"], m["corpus"], out)
            else:
                exe = os.path.join(peers, "tdoku-" + m["level"], "run_benchmark")
                jobs[key] = pool.submit(count_tdoku, exe, m["corpus"], out)
        counts = {}
        for key, job in jobs.items():
            if isinstance(job, str):
                counts[key] = {"why": job}
                continue
            try:
                instr, guesses = job.result()
                counts[key] = {"instr_per_puzzle": instr, "guesses_per_puzzle": guesses}
            except measure.PerfError as e:
                # tdoku -march=native on an AVX-512 CPU: valgrind stops at the first AVX-512
                # instruction; any other failure is reported the same way, with its reason kept
                # in the JSON.
                counts[key] = {"why": "valgrind cannot run it", "error": str(e)[-300:]}
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("slice")
    s.add_argument("file")
    s.add_argument("n", type=int)
    s.add_argument("out")
    c = sub.add_parser("count")
    for name in ("--timed", "--driver", "--peers", "--work", "--json", "--md"):
        c.add_argument(name, required=True)
    args = ap.parse_args()
    try:
        if args.cmd == "slice":
            write_slice(args.file, args.n, args.out)
            return 0
        with open(args.timed) as f:
            timed = json.load(f)
        counts = count_all(timed["medians"], args.driver, args.peers, args.work)
        rows = join_rows(timed["medians"], counts)
    except measure.PerfError as e:
        print("compare-ir: %s" % e, file=sys.stderr)
        return 2
    doc = {"meta": timed["meta"], "rows": rows,
           "counts": [dict(corpus=k[0], solver=k[1], level=k[2], **v) for k, v in counts.items()]}
    compare.write_reports(doc, markdown(timed["meta"], rows), args.json, args.md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
