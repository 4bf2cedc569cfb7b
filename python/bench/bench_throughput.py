"""Python-from-numpy throughput against the CLI on the same file (docs/python.md).

Usage: python3 python/bench/bench_throughput.py --cli build/sudokubench [--n 1000000] [--rounds 3]
       (make bench-python does this with PYTHONPATH set)

Makes (once) N puzzles with `sudokubench generate -n N --seed 15` into build/bench-python/,
then in interleaved rounds times (a) `sudokubench solve -t T FILE > /dev/null` and (b)
sudokubench.solve(array, threads=T) on the same puzzles already in a numpy uint8 array,
all threads, limit 2; and once, sudokubench.read(FILE) (parsing into numpy). Prints the
medians and the ratio. Both paths run the same kernel and the same OpenMP threads: the
difference is what surrounds the solving (the CLI parses and formats text, Python does not).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import sudokubench as sb


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=0, help="0: every core (both paths)")
    ap.add_argument("--dir", default="build/bench-python")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    path = os.path.join(args.dir, f"gen{args.n}.txt")
    if not os.path.exists(path):
        t = time.perf_counter()
        with open(path + ".tmp", "wb") as out:
            subprocess.run([args.cli, "generate", "-n", str(args.n), "--seed", "15"],
                           stdout=out, check=True)
        os.replace(path + ".tmp", path)
        print(f"generated {args.n} puzzles in {time.perf_counter() - t:.1f} s: {path}")
    t = time.perf_counter()
    puzzles = sb.read(path)
    t_read = time.perf_counter() - t
    assert len(puzzles) == args.n, len(puzzles)
    cli_cmd = [args.cli, "solve", "-t", str(args.threads or os.cpu_count()), path]
    cli_times, py_times = [], []
    for r in range(args.rounds):
        t = time.perf_counter()
        subprocess.run(cli_cmd, stdout=subprocess.DEVNULL, check=True)
        cli_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        res = sb.solve(puzzles, threads=args.threads)
        py_times.append(time.perf_counter() - t)
        assert (res.counts == 1).all()
        print(f"round {r + 1}: cli {cli_times[-1]:.3f} s, python {py_times[-1]:.3f} s", flush=True)
    cli_m, py_m = statistics.median(cli_times), statistics.median(py_times)
    print(f"puzzles: {args.n} (generated, seed 15), threads: {args.threads or os.cpu_count()}")
    print(f"CLI    solve FILE > /dev/null : {cli_m:.3f} s  {args.n / cli_m:,.0f} puzzles/s (median of {args.rounds})")
    print(f"Python solve(numpy array)     : {py_m:.3f} s  {args.n / py_m:,.0f} puzzles/s (median of {args.rounds})")
    print(f"Python read(FILE) into numpy  : {t_read:.3f} s  {args.n / t_read:,.0f} puzzles/s (once)")
    print(f"Python / CLI throughput: {cli_m / py_m:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
