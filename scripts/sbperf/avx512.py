"""sbperf.avx512 — the timed gate for the AVX-512 kernel, part of `make perf-check`.

Valgrind 3.19 cannot run AVX-512 code, so the instruction-count gate (sbperf.gate) cannot
see the kernel that machines with AVX-512 run by default. Where the CPU has it, this gate
times it instead, the way Google Benchmark's compare.py judges two builds: a statistical
test plus a minimum effect size.

  - Two perf drivers: BASE (built from a base revision in its own worktree, by default the
    revision that last changed the counts baseline: the gate's reference) and HEAD (this
    tree's build). Both solve the same slices (the baseline's `fast` slices) with pipeline
    fast at level avx512, one thread.
  - ROUNDS interleaved rounds; in each round every slice runs once under each driver, the
    order alternating (base first in even rounds, head first in odd ones), so drift in the
    machine's load falls on both sides alike. One sample per round and side: the summed CPU
    time (user + system, from wait4) of its runs. CPU time rather than elapsed time: on a
    shared 2-core machine elapsed time mostly measures the queue for a core (a run that
    needs 30 ms of CPU takes 30 to 400 ms to finish); both are printed.
  - Mann-Whitney U (two-sided, sbperf.stats.mann_whitney_u: exact distribution without ties
    for n1*n2 <= 400) on the ROUNDS samples of each side. A REGRESSION needs both p < ALPHA
    and the median's increase above MIN_EFFECT percent; "faster" likewise the other way.

--summary FILE appends the outcome (verdict, exit code, table) as Markdown, --export
junit:FILE as a JUnit test case (sbperf.publish), as the count gate does.

Exit codes: 0 pass (or not run: no AVX-512 here, said so), 1 regression, 2 cannot compare
(a driver fails, the base revision does not build). The false-alarm rate and the detection
of a 5% slowdown on this machine are in docs/ci.md.

Usage: python3 -m sbperf.avx512 gate --head DRIVER (--base DRIVER | --base-rev REV) [options]
"""

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import time

from . import gate, publish, stats, worktree
from .measure import PerfError, dataset_name, registry
from .table import print_table

LEVEL = "avx512"
SUITE = "perf-check avx512 (timed)"  # its JUnit suite
EXIT_PASS, EXIT_REGRESSION, EXIT_ERROR = 0, 1, 2


def native_levels(driver):
    """Returns the SIMD levels this CPU runs, as the driver lists them (natively)."""
    _, levels = registry(driver, under_valgrind=False)
    return levels


def slices(baseline, pipeline="fast"):
    """Returns [(dataset, puzzles)] of the baseline's entries of pipeline, one per dataset
    (its largest slice: the slices differ per level only when calibrated separately)."""
    out = {}
    for e in gate.load(baseline)["entries"]:
        if e["pipeline"] == pipeline:
            out[e["dataset"]] = max(out.get(e["dataset"], 0), e["puzzles"])
    return sorted(out.items())


def timed_run(driver, dataset, puzzles, env):
    """Runs the driver once; returns (cpu seconds, wall seconds, guesses)."""
    start = time.perf_counter()
    # wait4 reaps the child itself, for its resource usage; the driver's output (one line,
    # or a message) fits in the pipes, so it is read afterwards.
    p = subprocess.Popen([driver, "fast", LEVEL, str(puzzles), dataset],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    out, err = p.stdout.read(), p.stderr.read()
    p.stdout.close()
    p.stderr.close()
    if p.returncode != 0:
        raise PerfError("%s fast %s %d %s exited %d: %s" % (
            driver, LEVEL, puzzles, dataset, p.returncode,
            err.decode(errors="replace").strip()))
    figures = json.loads(out.decode().strip().splitlines()[-1])
    return usage.ru_utime + usage.ru_stime, wall, figures["guesses"]


def measure(base, head, work, rounds, env=None, progress=None):
    """Runs the interleaved rounds; returns {"base": {"cpu": [...], "wall": [...]}, "head":
    ...} with one sample per round (the sum over the slices)."""
    env = dict(os.environ if env is None else env)
    env.pop("SUDOKUBENCH_SIMD", None)
    sides = {"base": base, "head": head}
    guesses = {}
    # One unrecorded warm-up run of each: page cache, dynamic loader, CPU frequency.
    for side, drv in sides.items():
        for ds, n in work:
            _, _, g = timed_run(drv, ds, n, env)
            guesses.setdefault(ds, {})[side] = g
    samples = {s: {"cpu": [], "wall": []} for s in sides}
    for r in range(rounds):
        order = ["base", "head"] if r % 2 == 0 else ["head", "base"]
        acc = {s: [0.0, 0.0] for s in sides}
        for k in range(len(work)):
            ds, n = work[(k + r) % len(work)]  # rotate the slice order too
            for side in order:
                cpu, wall, _ = timed_run(sides[side], ds, n, env)
                acc[side][0] += cpu
                acc[side][1] += wall
        for s in sides:
            samples[s]["cpu"].append(acc[s][0])
            samples[s]["wall"].append(acc[s][1])
        if progress:
            progress(r + 1, rounds)
    return samples, guesses


def decide(base, head, alpha, min_effect):
    """Returns (verdict, p, median change in percent) for two sample lists: "REGRESSION"
    when head is slower with p < alpha and by more than min_effect percent, "faster" when
    the mirror holds, else "ok"."""
    _, p = stats.mann_whitney_u(head, base)
    d = stats.median_change(head, base)
    if p < alpha and d > min_effect:
        return "REGRESSION", p, d
    if p < alpha and d < -min_effect:
        return "faster", p, d
    return "ok", p, d


def build_base(repo, rev, workdir, cc):
    """Builds rev's perf driver with the history's cache of built revisions; returns its
    path."""
    repo = os.path.abspath(repo)
    sha = worktree.resolve(repo, rev)
    _, tool_id = worktree.toolchain(cc)
    status, what = worktree.build(repo, sha, os.path.abspath(workdir), cc, os.cpu_count() or 1,
                            tool_id)
    if status != "ok":
        raise PerfError("base %s (%s): %s: %s" % (rev, sha[:8], status, what))
    return what, sha


def default_base_rev(repo, baseline):
    """Returns the revision that last changed the counts baseline (the gate's reference)."""
    p = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%H", "--", baseline],
                       capture_output=True, text=True)
    return p.stdout.strip() or "HEAD"


def published(args, word, code, text, table=None, seconds=0.0):
    """Writes the gate's outcome where --summary and --export junit: ask: word is PASS,
    FAIL, NOT GATED or ERROR; text says why; table is the Markdown table of a run."""
    if args.summary:
        body = "### perf-check avx512 (timed): %s, exit code %d\n\n%s\n" % (word, code, text)
        if table:
            body += "\n" + table
        publish.append_summary(args.summary, body)
    for _, path in args.exports:
        case = {"name": "fast/avx512", "classname": "perf-check.avx512"}
        if word == "FAIL":
            case.update(failure=text, type="REGRESSION")
        elif word == "NOT GATED":
            case["skipped"] = text
        elif word == "ERROR":
            case.update(error="cannot compare", type="ERROR", detail=text)
        publish.write_junit(path, SUITE, [case], seconds)
    return code


def cmd_gate(args):
    """Runs the gate and publishes its outcome; returns the exit code."""
    try:
        return run_gate(args)
    except PerfError as e:  # publishing failed: the outcome cannot be handed on
        print("perf-check avx512: error: %s" % e, file=sys.stderr)
        return EXIT_ERROR


def run_gate(args):
    """Runs the gate; returns the exit code."""
    try:
        levels = native_levels(args.head)
    except (PerfError, ValueError) as e:
        print("perf-check avx512: error: %s" % e, file=sys.stderr)
        return published(args, "ERROR", EXIT_ERROR, str(e))
    if LEVEL not in levels:
        why = ("this CPU has no AVX-512 (levels %s); the kernel is gated only where it runs"
               % ", ".join(levels))
        print("perf-check avx512: NOT GATED: " + why)
        return published(args, "NOT GATED", EXIT_PASS, why)
    try:
        if args.base:
            base, label = args.base, args.base
        else:
            rev = args.base_rev or default_base_rev(args.repo, args.baseline)
            if subprocess.run(["git", "-C", args.repo, "rev-parse", "--verify", "-q",
                               rev + "^{commit}"], capture_output=True).returncode != 0:
                why = ("the base revision %s is not in this repository (no git history? a "
                       "shallow clone?); PERF_AVX512_BASE=REV names another" % rev)
                print("perf-check avx512: NOT GATED: " + why)
                return published(args, "NOT GATED", EXIT_PASS, why)
            base, sha = build_base(args.repo, rev, args.workdir, args.cc)
            label = "%s (%s)" % (sha[:10], "the baseline's revision" if not args.base_rev
                                 else args.base_rev)
        if LEVEL not in native_levels(base):
            print("perf-check avx512: NOT GATED: the base driver has no avx512 level")
            return published(args, "NOT GATED", EXIT_PASS, "the base driver has no avx512 level")
        work = slices(args.baseline)
        if not work:
            raise PerfError("%s has no fast entries to take the slices from"
                                    % args.baseline)
        what = ("fast at avx512, %d interleaved rounds over %s; base %s; Mann-Whitney U p < %g "
                "and median change > +%g%% fails" % (args.rounds, ", ".join(
                    "%s[:%d]" % (dataset_name(d), n) for d, n in work), label, args.alpha,
                    args.min_effect))
        print("perf-check avx512: timed gate (valgrind cannot count AVX-512): " + what)
        start = time.perf_counter()

        def progress(r, total):
            if sys.stderr.isatty():
                sys.stderr.write("\rperf-check avx512: round %d/%d" % (r, total))
                if r == total:
                    sys.stderr.write("\r\033[K")
                sys.stderr.flush()
        samples, guesses = measure(base, args.head, work, args.rounds, progress=progress)
    except PerfError as e:
        print("perf-check avx512: cannot compare: %s" % e)
        return published(args, "ERROR", EXIT_ERROR, str(e))
    rows = [("clock", "base median ms", "CV", "head median ms", "CV", "delta", "p (MWU)",
             "verdict")]
    results = {}
    for clock in ("cpu", "wall"):
        b, h = samples["base"][clock], samples["head"][clock]
        verdict, p, d = decide(b, h, args.alpha, args.min_effect)
        results[clock] = (verdict, p, d)
        rows.append((clock + (" (gated)" if clock == args.clock else " (information)"),
                     "%.2f" % (1000 * statistics.median(b)), "%.1f%%" % stats.cv(b),
                     "%.2f" % (1000 * statistics.median(h)), "%.1f%%" % stats.cv(h),
                     "%+.2f%%" % d, "%.3g" % p,
                     verdict if clock == args.clock else "(" + verdict + ")"))
    table = io.StringIO()
    print_table(rows, table)
    notes = ["%s: guesses %s -> %s: the search itself changed"
             % (dataset_name(ds), g.get("base"), g.get("head"))
             for ds, g in guesses.items() if g.get("base") != g.get("head")]
    sys.stdout.write(table.getvalue())
    for n in notes:
        print("note: " + n)
    verdict, p, d = results[args.clock]
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"verdict": verdict, "p": p, "delta_pct": d, "clock": args.clock,
                       "alpha": args.alpha, "min_effect": args.min_effect,
                       "samples": samples}, f)
    seconds = time.perf_counter() - start
    word = "FAIL" if verdict == "REGRESSION" else "PASS"
    print("perf-check avx512: %s (%s time %+.2f%%, p=%.3g; %.0f s)"
          % (word, args.clock, d, p, seconds))
    code = EXIT_REGRESSION if verdict == "REGRESSION" else EXIT_PASS
    text = ("%s time %+.2f%%, p=%.3g: %s. Timed gate (valgrind cannot count AVX-512): %s."
            % (args.clock, d, p, "REGRESSION" if code else verdict, what))
    return published(args, word, code, text,
                     table.getvalue() + "".join("- %s\n" % n for n in notes), seconds)


def main(argv):
    """Parses the command line; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gate", help="time base and head at avx512 and decide")
    g.add_argument("--head", required=True, help="this tree's perf driver")
    g.add_argument("--base", help="the base perf driver (else built from --base-rev)")
    g.add_argument("--base-rev", help="base revision (default: the last commit that changed "
                   "--baseline)")
    g.add_argument("--repo", default=".")
    g.add_argument("--workdir", default="build/history", help="worktrees of built revisions")
    g.add_argument("--cc", default="cc")
    g.add_argument("--baseline", default="bench/baseline.json",
                   help="the counts baseline: its fast slices are timed")
    g.add_argument("--rounds", type=int, default=20)
    g.add_argument("--alpha", type=float, default=0.05)
    g.add_argument("--min-effect", type=float, default=3.0,
                   help="smallest median slowdown in percent that can fail (default 3)")
    g.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    g.add_argument("--json", help="write the samples and the verdict here")
    g.add_argument("--summary", metavar="FILE",
                   help="append the verdict, exit code and table as Markdown to FILE")
    g.add_argument("--export", metavar="junit:FILE", action="append", default=[],
                   help="also write the verdict as a JUnit report (merged into FILE)")
    g.set_defaults(func=cmd_gate)
    args = ap.parse_args(argv)
    try:
        args.exports = publish.parse_exports(args.export, allowed=("junit",))
    except PerfError as e:
        print("perf-check avx512: error: %s" % e, file=sys.stderr)
        return EXIT_ERROR
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
