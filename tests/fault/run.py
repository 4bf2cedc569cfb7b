#!/usr/bin/env python3
"""tests/fault/run.py — the CLI under injected faults (docs/reliability.md).

A read that fails with EIO after K bytes, writes that fail with ENOSPC, EIO or EPIPE after K
bytes, short writes, a real closed pipe, and every allocation of the program failing in turn
(the LD_PRELOAD shim tests/fault/shim.c does the injecting).

Usage: tests/fault/run.py BINARY SHIM [--no-malloc] [--quick]
  --no-malloc leaves out the allocation faults (an ASan build owns malloc);
  --quick injects at fewer offsets K (for slow builds: ASan).

Every fault must end the run with exit 2 and a message naming the file and the operation
("write error: standard output: No space left on device", "FILE: read error: ...", "out of
memory"), and the output written so far must be a prefix of the fault-free output made of
whole records (empty, or ending at a line end). The one exception: an allocation the program
can do without (a look-ahead buffer, a guess at the input's shape) may fail unnoticed when
the output, the messages and the exit code are exactly those of the fault-free run. A read fault must keep exactly the records of
the lines read whole before it; short writes must change nothing.

Prints `ok - NAME` / `not ok - NAME` per case, the number of faulty runs and
`N passed, M failed`; exits 1 on a failure. A Python driver, not a shell script: hundreds of
runs, each checked without forking helpers, keep the suite within seconds.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

QUICK = False  # --quick: fewer offsets K
TIMEOUT = int(os.environ.get("SUDOKUBENCH_TEST_TIMEOUT", "120"))
STRERROR = {"ENOSPC": "No space left on device", "EIO": "Input/output error",
            "EPIPE": "Broken pipe"}

# The commands whose output is checked: name, arguments, whether the input file is appended.
COMMANDS = [
    ("solution", ["solve"], True),
    ("csv", ["solve", "-f", "csv"], True),
    ("json", ["solve", "-f", "json"], True),
    ("tdoku", ["solve", "-f", "tdoku", "-t", "1"], True),
    ("rate", ["rate"], True),
    ("generate", ["generate", "-n", "1200", "--seed", "7", "-t", "2"], False),
    ("augment", ["augment", "-n", "3000", "--seed", "3"], True),
]
# The other solve formats allocate as csv does.
MALLOC_COMMANDS = [c for c in COMMANDS if c[0] in ("csv", "rate", "generate", "augment")] + [
    ("validate", ["validate"], True), ("solve --all", ["solve", "--all"], True)]


class Suite:
    """Runs the cases, counts passes, failures and faulty runs."""

    def __init__(self, binary, shim, tmp):
        self.binary, self.shim, self.tmp = binary, shim, tmp
        self.passed = self.failed = self.faults = 0
        self.graceful = 0  # allocation faults the program did without, output unchanged

    def case(self, name, fn):
        """Runs fn(problems) and reports it: every string it appends is a failure."""
        problems = []
        try:
            fn(problems)
        except Exception as exc:  # a crash of the harness is a failure, not a stack trace
            problems.append(f"harness error: {exc!r}")
        if problems:
            print(f"not ok - {name}")
            for p in problems[:30]:
                print(f"#   {p}")
            self.failed += 1
        else:
            print(f"ok - {name}")
            self.passed += 1
        sys.stdout.flush()

    def run(self, args, out_path, fault=None, cwd=None):
        """Runs the binary (with the shim and the fault settings when fault is a dict),
        stdout to out_path. @return (exit code, stderr text)."""
        env = dict(os.environ)
        if fault is not None:
            env["LD_PRELOAD"] = self.shim
            env.update(fault)
            self.faults += 1
        with open(out_path, "wb") as out:
            p = subprocess.run([self.binary] + args, stdout=out, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, env=env, cwd=cwd or self.tmp,
                               timeout=TIMEOUT)
        return p.returncode, p.stderr.decode("utf-8", "replace")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def whole_prefix(got, ref):
    """@return why got is not a prefix of ref made of whole records, or None."""
    if not ref.startswith(got):
        i = next((k for k in range(len(got)) if got[k] != ref[k]), len(got))
        return f"not a prefix of the fault-free output: differs at byte {i}"
    if got and not got.endswith(b"\n"):
        return f"ends inside a record ({len(got)} bytes): ...{got[-40:]!r}"
    return None


def make_inputs(tmp, samples):
    """Writes in.txt: 1200 puzzles (unique, hard, invalid lines, a comment), about 98 KB, so
    outputs span several 256-record chunks and reads several 64 KiB buffers; small.txt, its
    first 400 lines, for the allocation faults and short writes."""
    def lines(name, n):
        with open(os.path.join(samples, name)) as f:
            return [l for l in f.read().splitlines() if l][:n]
    text = ["# fault test input"] + lines("17_clue_2000.txt", 1000) + ["not a puzzle"] + \
        lines("hardest_11plus_1000.txt", 200) + ["12345678"]
    with open(os.path.join(tmp, "in.txt"), "w") as f:
        f.write("\n".join(text) + "\n")
    with open(os.path.join(tmp, "small.txt"), "w") as f:
        f.write("\n".join(text[:400]) + "\n")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, shim = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    malloc = "--no-malloc" not in sys.argv[3:]
    global QUICK
    QUICK = "--quick" in sys.argv[3:]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    samples = os.path.join(root, "datasets", "samples")
    for k in ("SUDOKUBENCH_SIMD", "OMP_NUM_THREADS"):
        os.environ.pop(k, None)
    # An ASan binary refuses to start when another library is preloaded before its runtime;
    # the shim's read and write wrappers pass on to ASan's.
    asan = os.environ.get("ASAN_OPTIONS")
    os.environ["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "verify_asan_link_order=0"
    tmp = tempfile.mkdtemp(prefix="sudokubench-fault.")
    try:
        make_inputs(tmp, samples)
        suite = Suite(binary, shim, tmp)
        cases(suite, malloc)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"# {suite.faults} faulty runs ({suite.graceful} allocation faults done without: "
          "the same output, exit code and messages as without the fault)")
    print(f"{suite.passed} passed, {suite.failed} failed")
    sys.exit(1 if suite.failed else 0)


def cases(s, malloc):
    tmp = s.tmp
    P = lambda *p: os.path.join(tmp, *p)
    argv = lambda cmd, f: cmd[1] + ([f] if cmd[2] else [])
    ref = {}

    def references(problems):
        for cmd in COMMANDS:
            rc, err = s.run(argv(cmd, "in.txt"), P("ref." + cmd[0]))
            if rc not in (0, 1):
                problems.append(f"fault-free {cmd[0]} failed ({rc}): {err[:300]}")
            ref[cmd[0]] = read(P("ref." + cmd[0]))
            if not ref[cmd[0]]:
                problems.append(f"fault-free {cmd[0]} wrote nothing")
    s.case("fault-free reference outputs", references)

    # ---- writes failing after K bytes: every K with ENOSPC, three with EIO and EPIPE ------
    def write_faults(cmd):
        def fn(problems):
            name = cmd[0]
            out = P("out." + name)
            # the csv header goes out through stdio, which the shim cannot see: K counts only
            # the bytes of the records the engine writes, so the last K is taken from those
            # (the rate header grows with its technique columns)
            head = len(ref[name].split(b"\n", 1)[0]) + 1 if name in ("csv", "rate") else 0
            size = len(ref[name]) - head
            for e in ("ENOSPC", "EIO", "EPIPE"):
                ks = [0, 1, 81, 82, 4096, 30000, size // 2, size - 100] if e == "ENOSPC" \
                    else [0, 4096, size // 2]
                if QUICK:
                    ks = [0, 82, size // 2] if e == "ENOSPC" else [4096]
                for k in ks:
                    rc, err = s.run(argv(cmd, "in.txt"), out, {
                        "SB_FAULT_PATH": out, "SB_FAULT_WRITE_AFTER": str(k),
                        "SB_FAULT_WRITE_ERRNO": e})
                    where = f"{name}, {e} after {k} bytes"
                    if rc != 2:
                        problems.append(f"{where}: exit {rc}, not 2")
                    msg = "sudokubench: write error: standard output: " + STRERROR[e]
                    if msg not in err:
                        problems.append(f"{where}: stderr lacks '{msg}': {err[-300:]}")
                    why = whole_prefix(read(out), ref[name])
                    if why:
                        problems.append(f"{where}: {why}")
        return fn
    for cmd in COMMANDS:
        s.case(f"write faults (ENOSPC, EIO, EPIPE after K bytes): {cmd[0]}", write_faults(cmd))

    # ---- short writes: every write moves 1..7 bytes; nothing may change ------------------
    def short_writes(problems):
        for cmd in COMMANDS:
            want, out = P("sref." + cmd[0]), P("out." + cmd[0])
            s.run(argv(cmd, "small.txt"), want)
            rc, err = s.run(argv(cmd, "small.txt"), out,
                            {"SB_FAULT_PATH": out, "SB_FAULT_SHORT": "7"})
            if rc not in (0, 1):
                problems.append(f"{cmd[0]} with short writes: exit {rc}: {err[-200:]}")
            if read(out) != read(want):
                problems.append(f"{cmd[0]} with short writes: output differs")
    s.case("short writes change nothing (every command)", short_writes)

    # ---- a real closed pipe, SIGPIPE ignored: EPIPE from the kernel ------------------------
    def real_epipe(problems):
        s.faults += 1
        p = subprocess.Popen([s.binary, "solve", "in.txt"], cwd=tmp, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                             preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
        head = p.stdout.read(1000)
        p.stdout.close()
        err = p.stderr.read().decode("utf-8", "replace")
        rc = p.wait(timeout=TIMEOUT)
        if rc != 2:
            problems.append(f"solve into a closed pipe: exit {rc}, not 2")
        if "sudokubench: write error: standard output: Broken pipe" not in err:
            problems.append(f"stderr lacks the Broken pipe message: {err[-300:]}")
        if head != ref["solution"][:1000]:
            problems.append("the pipe's reader saw other bytes")
    s.case("a closed pipe (SIGPIPE ignored): exit 2, 'Broken pipe'", real_epipe)

    # ---- reads failing with EIO after K bytes -----------------------------------------------
    # The records must be exactly those of the lines read whole before the fault: the
    # fault-free output of the input cut after its last '\n' in the first K bytes (written as
    # cut/in.txt, so json's file names match).
    data = read(P("in.txt"))
    os.makedirs(P("cut"), exist_ok=True)

    def read_faults(cmd):
        def fn(problems):
            name = cmd[0]
            ks = (0, 82, 5000, 65537, len(data) // 2, len(data) - 1)
            for k in ks[2:5] if QUICK else ks:
                head = data[:k]
                with open(P("cut", "in.txt"), "wb") as f:
                    f.write(head[:head.rfind(b"\n") + 1])
                s.run(argv(cmd, "in.txt"), P("want"), cwd=P("cut"))
                rc, err = s.run(argv(cmd, "in.txt"), P("got"),
                                {"SB_FAULT_PATH": "/in.txt", "SB_FAULT_READ_EIO": str(k)})
                where = f"{name}, EIO after {k} bytes"
                if rc != 2:
                    problems.append(f"{where}: exit {rc}, not 2")
                msg = "sudokubench: in.txt: read error: Input/output error"
                if msg not in err:
                    problems.append(f"{where}: stderr lacks '{msg}': {err[-300:]}")
                if read(P("got")) != read(P("want")):
                    problems.append(f"{where}: records differ from those of the whole lines")
        return fn
    for cmd in COMMANDS:
        if cmd[2]:
            s.case(f"read faults (EIO after K bytes): {cmd[0]}", read_faults(cmd))

    def read_fault_then_next(problems):
        lines = data.splitlines(keepends=True)
        a, b = b"".join(lines[:300]), b"".join(lines[300:700])
        for f, d in (("a.txt", a), ("b.txt", b)):
            with open(P(f), "wb") as fh:
                fh.write(d)
        with open(P("ab.txt"), "wb") as fh:
            fh.write(a[:a[:10000].rfind(b"\n") + 1] + b)
        s.run(["solve", "ab.txt"], P("want"))
        rc, err = s.run(["solve", "a.txt", "b.txt"], P("got"),
                        {"SB_FAULT_PATH": "/a.txt", "SB_FAULT_READ_EIO": "10000"})
        if rc != 2:
            problems.append(f"exit {rc}, not 2")
        if "sudokubench: a.txt: read error: Input/output error" not in err:
            problems.append(f"stderr lacks the read error of a.txt: {err[-300:]}")
        if read(P("got")) != read(P("want")):
            problems.append("records differ from a's whole lines then all of b")
    s.case("a read fault in the first file: the second file still runs, exit 2",
           read_fault_then_next)

    # ---- every allocation of the program failing in turn --------------------------------
    def malloc_faults(cmd):
        def fn(problems):
            name, args = cmd[0], argv(cmd, "small.txt")
            ref_rc, ref_err = s.run(args, P("mref"))
            mref = read(P("mref"))
            s.run(args, os.devnull, {"SB_FAULT_MALLOC_COUNT": P("count")})
            count = int(read(P("count")))
            if count <= 0:
                problems.append(f"{name}: no allocation counted")
            for i in range(1, count + 1):
                rc, err = s.run(args, P("mout"), {"SB_FAULT_MALLOC": str(i)})
                where = f"{name}, allocation {i} of {count} failing"
                if rc == ref_rc and err == ref_err and read(P("mout")) == mref:
                    s.graceful += 1  # an optional allocation (a cache, a look-ahead): done without
                    continue
                if rc != 2:
                    problems.append(f"{where}: exit {rc}, not 2: {err[-200:]}")
                if "out of memory" not in err:
                    problems.append(f"{where}: stderr lacks 'out of memory': {err[-200:]}")
                # validate's stdout is its summary of the records handled, not records
                why = None if name == "validate" else whole_prefix(read(P("mout")), mref)
                if why:
                    problems.append(f"{where}: {why}")
        return fn
    if malloc:
        for cmd in MALLOC_COMMANDS:
            s.case(f"allocation faults (each of the program's allocations fails in turn): "
                   f"{cmd[0]}", malloc_faults(cmd))
    else:
        print("ok - allocation faults # SKIP the ASan runtime owns malloc (SAN=1)")


if __name__ == "__main__":
    main()
