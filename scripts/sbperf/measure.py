"""sbperf.measure — callgrind measurement of the perf driver, shared by the gate, the history,
the AVX-512 gate and the tdoku instruction counts (stdlib only).

Callgrind counts the instructions executed inside one function of the library (sb_solve by
default), callees included: the same binary on the same input gives the same count on every
run, so a small threshold needs no repetitions. The workload is a slice of a committed
corpus: its first N puzzle lines, identified by their sha256 so that a changed corpus is
noticed instead of measured.
"""

import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import tempfile

MEASURED_FUNCTION = "sb_solve"
# A solver plug-in (docs/plugins.md) is measured through the library's engine row: the
# driver's `--plugin` mode calls sb_engine_solve per puzzle, whose inclusive count is the
# harness and the plug-in. Its entries have the level PLUGIN_LEVEL (the row runs none of the
# library's kernels) and the plug-in's name as their pipeline.
PLUGIN_FUNCTION = "sb_engine_solve"
PLUGIN_LEVEL = "plugin"


class PerfError(Exception):
    """A condition under which no comparison can be made (exit 2)."""


def run(cmd, **kw):
    """Runs cmd, returning the CompletedProcess; raises PerfError with its stderr on
    failure."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    except OSError as e:
        raise PerfError("cannot run %s: %s" % (cmd[0], e))
    if p.returncode != 0:
        raise PerfError("%s exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p


def registry(driver, under_valgrind):
    """Returns (pipelines [(name, generic)], supported SIMD level names) as the driver lists
    them; under valgrind the levels are those of the CPU valgrind emulates."""
    cmd = [driver, "--list"]
    if under_valgrind:
        cmd = ["valgrind", "-q", "--tool=none"] + cmd
    out = run(cmd).stdout
    pipelines, levels = [], []
    for line in out.splitlines():
        row = json.loads(line)
        if "pipeline" in row:
            pipelines.append((row["pipeline"], bool(row["generic"])))
        elif row.get("supported"):
            levels.append(row["simd"])
    return pipelines, levels


def puzzle_lines(path):
    """Returns the file's puzzle lines, stripped, in order: what the reader would not skip
    (comments and blank lines out; the committed samples hold nothing else)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return [s for s in (line.strip() for line in f) if s and not s.startswith("#")]


def slice_sha256(path, n):
    """Returns the sha256 of the slice's first n puzzle lines joined by newlines: a baseline
    whose slice no longer hashes the same measures different work and is stale."""
    lines = puzzle_lines(path)
    return hashlib.sha256("\n".join(lines[:n]).encode()).hexdigest()


def dataset_name(path):
    """Returns the short name of a corpus file (basename without .txt)."""
    base = os.path.basename(path)
    return base[:-4] if base.endswith(".txt") else base


def callgrind(out, cmd):
    """Returns cmd run under callgrind, writing its profile to out in the uncompressed form
    the parsers read."""
    return ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
            "--compress-strings=no", "--compress-pos=no"] + cmd


def parse_callgrind_calls(path, function=MEASURED_FUNCTION):
    """Returns (inclusive Ir of every call to `function`, the number of those calls, total Ir)
    from a callgrind profile written with --compress-strings=no --compress-pos=no. The
    inclusive cost of a call is the cost line that follows its `calls=` line under
    `cfn=function`; summing those over all callers is exact as long as the function does not
    call itself (sb_solve, sb_solve_many and tdoku's solver entry do not)."""
    events, total, inclusive, calls = None, None, 0, 0
    positions = 1  # "positions: line" unless the profile says otherwise
    called = None
    expect_cost = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if expect_cost:
                expect_cost = False
                parts = line.split()
                inclusive += int(parts[positions + events.index("Ir")])
                continue
            if line.startswith("positions:"):
                positions = len(line.split()) - 1
            elif line.startswith("events:"):
                events = line.split()[1:]
            elif (line.startswith("totals:") or line.startswith("summary:")) and events:
                total = int(line.split()[1 + events.index("Ir")])
            elif line.startswith("cfn="):
                called = line[4:].strip()
            elif line.startswith("fn="):
                called = None
            elif line.startswith("calls=") and called == function:
                calls += int(line[6:].split()[0])
                expect_cost = True
    if events is None or total is None:
        raise PerfError("%s: not a complete callgrind profile" % path)
    if "Ir" not in events:
        raise PerfError("%s: the profile has no Ir event" % path)
    return inclusive, calls, total


def parse_callgrind(path, function=MEASURED_FUNCTION):
    """Returns (inclusive Ir of every call to `function`, total Ir): parse_callgrind_calls
    without the call count."""
    inclusive, _, total = parse_callgrind_calls(path, function)
    return inclusive, total


def driver_cmd(driver, pipeline, simd, puzzles, dataset, plugin=None):
    """Returns the driver's command line for one slice: a pipeline at a level, or with
    plugin (a path) the plug-in's row (`--plugin`; pipeline and simd are then its entry's)."""
    if plugin:
        return [driver, "--plugin", plugin, str(puzzles), dataset]
    return [driver, pipeline, simd, str(puzzles), dataset]


def plugin_name(driver, plugin):
    """Returns the name of the solver plug-in at path plugin as the driver loads it; raises
    PerfError with the loader's reason (not a solver, refuses 9x9, another ABI, ...)."""
    p = subprocess.run([driver, "--plugin-name", plugin], capture_output=True, text=True)
    if p.returncode != 0:
        raise PerfError("cannot load the plug-in %s: %s" % (plugin, p.stderr.strip()))
    return json.loads(p.stdout.strip().splitlines()[-1])["plugin"]


def verify_plugin(driver, plugin, name, entries):
    """Runs each dataset's largest slice of entries natively through the plug-in with every
    answer checked (`--plugin-verify`: solutions against the givens and the rules, counts
    against the library's own solver); raises PerfError naming the plug-in and the puzzle
    at the first wrong one. The gate calls it before any counting."""
    largest = {}
    for e in entries:
        largest[e["dataset"]] = max(largest.get(e["dataset"], 0), e["puzzles"])
    for dataset, n in sorted(largest.items()):
        p = subprocess.run([driver, "--plugin-verify", plugin, str(n), dataset],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise PerfError("plug-in '%s' answered wrongly (every answer is checked before "
                            "any counting; nothing was measured):\n%s"
                            % (name, p.stderr.strip() or "exit code %d" % p.returncode))


def measure_one(driver, entry, workdir, function, plugin=None):
    """Runs one entry under callgrind (through the plug-in at path plugin when given);
    returns the entry with solve_ir (the inclusive cost of function), total_ir and the
    driver's own figures (puzzles, guesses, verdict counts) filled in."""
    out = os.path.join(workdir, entry["id"].replace("/", "__") + ".callgrind")
    p = run(callgrind(out, driver_cmd(driver, entry["pipeline"], entry["simd"],
                                      entry["puzzles"], entry["dataset"], plugin)))
    figures = json.loads(p.stdout.strip().splitlines()[-1])
    if figures["puzzles"] != entry["puzzles"]:
        raise PerfError("%s: driver solved %d puzzles, the slice has %d"
                        % (entry["id"], figures["puzzles"], entry["puzzles"]))
    solve_ir, total_ir = parse_callgrind(out, function)
    if solve_ir == 0:
        raise PerfError("%s: no cost inside %s (symbol missing? stripped binary?)"
                        % (entry["id"], function))
    result = dict(entry)
    result.update(solve_ir=solve_ir, total_ir=total_ir, guesses=figures["guesses"],
                  solved=figures["solved"], unsolvable=figures["unsolvable"],
                  multiple=figures["multiple"])
    return result


def measure(driver, entries, jobs, function=MEASURED_FUNCTION, plugin=None):
    """Measures every entry (jobs callgrind processes at a time: each is one thread and the
    counts do not depend on what runs beside it), through the plug-in at path plugin when
    given; returns them in the given order."""
    if shutil.which("valgrind") is None:
        raise PerfError("valgrind not found (Debian package valgrind; run 'make deps-perf')")
    with tempfile.TemporaryDirectory(prefix="perf_check.") as workdir:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = [pool.submit(measure_one, driver, e, workdir, function, plugin)
                       for e in entries]
            return [f.result() for f in futures]


def tool_versions(compiler_cmd):
    """Returns the toolchain facts that make counts comparable: compiler, valgrind."""
    def first_line(cmd):
        try:
            return run(cmd).stdout.splitlines()[0].strip()
        except (PerfError, IndexError):
            return "unknown"
    return {"compiler": first_line(compiler_cmd + ["--version"]),
            "valgrind": first_line(["valgrind", "--version"])}


def cpu_model():
    """Returns this machine's CPU model name (Linux), else 'unknown'."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"

