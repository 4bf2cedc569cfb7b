"""Child process of the Ctrl-C tests (test_sudokubench.py): runs one long library call in
the main thread and sends itself SIGINT once the call is under way, then prints one JSON line
saying how the call ended.

Usage: python3 interrupt_child.py OP TICKS   (OP: solve, rate, generate, augment, and on
other geometries gsolve, grate, ggenerate)

"Under way" is read from the work itself, never from a clock: a helper thread waits until
the threads that did not exist before the call (the library's: the one running the C call and
its OpenMP team) have used TICKS clock ticks of CPU, so the signal cannot land before the
call (the arguments are built before), and the call cannot have finished (each OP is many
times TICKS of work). Printed: interrupted (KeyboardInterrupt came out of the call), frames
(the traceback's functions), before (CPU seconds of the library's threads when the signal was
sent) and after (CPU seconds of the whole process from the signal to the exception: a call
that abandons its work spends little; one that ignores the flag spends the rest of its work).
"""
import json
import os
import signal
import sys
import threading
import time
import traceback
from pathlib import Path

import numpy as np

import sudokubench as sb

SAMPLES = Path(__file__).resolve().parents[2] / "datasets" / "samples"
DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


def ops():
    """The long calls, each built here (before the baseline) and returned unstarted."""
    op = sys.argv[1]
    if op == "solve":  # counting every grid never ends
        empty = np.zeros((4, 81), np.uint8)
        return lambda: sb.solve(empty, limit=0, threads=2)
    if op == "rate":  # 100,000 hard puzzles: thousands of ticks
        hard = np.tile(sb.read(SAMPLES / "hardest_11plus_1000.txt"), (100, 1))
        return lambda: sb.rate(hard, threads=2)
    if op == "generate":  # 200,000 minimal puzzles: hundreds of ticks
        return lambda: sb.generate(200_000, minimal=True, threads=2)
    if op == "augment":  # 2,000,000 rows: the most memory allows (162 MB), tens of ticks
        base = sb.read(SAMPLES / "17_clue_2000.txt")[:7]
        return lambda: sb.augment(base, 2_000_000, threads=2)
    if op == "bench":  # timed passes over 1,000 hard puzzles for an hour
        hard = sb.read(SAMPLES / "hardest_11plus_1000.txt")
        return lambda: sb.bench(hard, seconds=3600, threads=2)
    if op == "gsolve":  # counting every 16x16 grid never ends: one search per thread
        empty = sb.parse(["." * 256] * 2, grid="4x4")
        return lambda: sb.solve(empty, limit=0, grid="4x4", threads=2)
    if op == "grate":  # 20,000 ratings of minimal 16x16 puzzles: thousands of ticks
        many = np.tile(sb.read(DATA / "minimal16.txt", grid="4x4"), (2_000, 1))
        return lambda: sb.rate(many, grid="4x4", threads=2)
    if op == "ggenerate":  # 100,000 minimal 16x16 puzzles: thousands of ticks
        return lambda: sb.generate(100_000, grid="4x4", threads=2)
    raise SystemExit(f"unknown op {op}")


def ticks_of_new_threads(known):
    """CPU clock ticks (user + system) of this process's threads whose ids are not in known."""
    total = 0
    for tid in os.listdir("/proc/self/task"):
        if tid in known:
            continue
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # it ended meanwhile
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total


def main():
    # Python leaves a SIGINT it inherits ignored (a test run started by nohup or as a
    # background job) ignored, and then Ctrl-C would never reach the call.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    call = ops()
    ticks = int(sys.argv[2])
    known = set(os.listdir("/proc/self/task"))
    ready = threading.Event()
    sent = {}

    def trigger():
        mine = known | {str(threading.get_native_id())}
        ready.set()
        while ticks_of_new_threads(mine) < ticks:
            time.sleep(0.005)
        sent["before"] = ticks_of_new_threads(mine) / os.sysconf("SC_CLK_TCK")
        sent["cpu"] = time.process_time()
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=trigger, daemon=True).start()
    ready.wait()
    try:
        call()
    except KeyboardInterrupt as e:
        after = time.process_time() - sent["cpu"]
        frames = [f.name for f in traceback.extract_tb(e.__traceback__)]
        print(json.dumps({"interrupted": True, "frames": frames, "before": sent["before"],
                          "after": after}), flush=True)
        return
    print(json.dumps({"interrupted": False, "signal_sent": bool(sent)}), flush=True)


if __name__ == "__main__":
    main()
