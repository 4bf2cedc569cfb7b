#!/usr/bin/env bash
# tests/cli/threads.sh — threads that cannot start: every command that opens a parallel region
# (solve, rate, generate through the batch engine; bench on 9x9 and on a geometry) ends with
# "sudokubench: cannot start N threads: REASON" and exit 2, with no record written, where the
# OpenMP runtime would have exited the process by itself (libgomp: exit 1, the code of
# "invalid lines"). And threads that can start change nothing. Sourced by tests/cli/run.sh
# (its harness and puzzles, tests/cli/run_lib.sh); run alone, it runs its own cases.
#
# The failures come from `ulimit -v` in a subshell: 63 extra threads with 8 MiB stacks need
# more address space than 400 MB, 1 extra thread does not. ASan reserves terabytes of address
# space for its shadow memory, so those cases are skipped in an ASan build.

# Run alone (tests/cli/threads.sh BINARY), it sets up the harness itself and runs its own cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    # shellcheck source=tests/cli/run_lib.sh
    . "$(dirname "$0")/run_lib.sh" "$@"
fi

THREADS_DIR=$T/threads
mkdir -p "$THREADS_DIR" && cd "$THREADS_DIR" || exit 1

# 20,000 puzzles: 79 chunks of the batch engine, so -t 64 gets a 64-thread team.
for i in $(seq 10000); do printf '%s\n%s\n' "$P1" "$P2"; done >many.txt
AS_LIMIT_KB=400000
NO_AS_LIMIT=''
if is_asan; then
    NO_AS_LIMIT="address-space limits do not apply under ASan (it reserves terabytes of shadow memory)"
elif [ "${BIN%-qemu}" != "$BIN" ]; then
    NO_AS_LIMIT="under qemu the address-space limit binds the emulator's own memory, not the guest's threads"
elif ! (ulimit -S -s 8192) 2>/dev/null; then
    NO_AS_LIMIT="cannot set an 8 MiB stack limit here (ulimit -s 8192)"
fi

# limited ARGS...: runs the binary with 8 MiB default thread stacks and AS_LIMIT_KB of address
# space, stdout -> out, stderr -> err, code -> RC.
limited() {
    (ulimit -S -s 8192 && ulimit -v "$AS_LIMIT_KB" && exec timeout "$TIMEOUT" "$BIN" "$@") >out 2>err
    RC=$?
}

# expect_no_threads N: the run ended on the check of an N-thread team: exit 2, the message
# with the system's reason, nothing from the OpenMP runtime.
expect_no_threads() {
    expect_rc 2
    expect_err_line "sudokubench: cannot start $1 threads: Resource temporarily unavailable"
    grep -q 'libgomp\|OMP:' err && fail "the OpenMP runtime spoke:"$'\n'"$(show err)"
}

# ---- 1. threads that can start: nothing changes ----------------------------------------------
begin "threads: solve -t 64 where the threads can start writes what -t 1 writes"
timeout "$TIMEOUT" "$BIN" solve -t 1 many.txt >want.txt 2>/dev/null
run solve -t 64 many.txt
expect_rc 0
expect_err_empty
expect_file want.txt out
end

begin "threads: under the address-space limit -t 2 still runs: every record, the same bytes"
if [ -n "$NO_AS_LIMIT" ]; then
    skip "$NO_AS_LIMIT"
else
    limited solve -t 2 many.txt
    expect_rc 0
    expect_err_empty
    expect_file want.txt out
fi
end

# ---- 2. threads that cannot start: a message and exit 2, from every kind of region -----------
begin "threads: solve -t 64 past the address-space limit: message with the reason, 2, no records"
if [ -n "$NO_AS_LIMIT" ]; then
    skip "$NO_AS_LIMIT"
else
    limited solve -t 64 many.txt
    expect_no_threads 64
    expect_out_empty
    expect_err_count 1
fi
end

begin "threads: OMP_STACKSIZE=64M makes -t 8 too many under the same limit (the runtime's stack size is checked)"
if [ -n "$NO_AS_LIMIT" ]; then
    skip "$NO_AS_LIMIT"
else
    OMP_STACKSIZE=64M limited solve -t 8 many.txt
    expect_no_threads 8
    expect_out_empty
    OMP_STACKSIZE=1M limited solve -t 64 many.txt
    expect_rc 0
    expect_file want.txt out
fi
end

begin "threads: generate -n 100000 -t 64 past the limit: message, 2, no puzzles"
if [ -n "$NO_AS_LIMIT" ]; then
    skip "$NO_AS_LIMIT"
else
    limited generate -n 100000 -t 64
    expect_no_threads 64
    expect_out_empty
fi
end

begin "threads: rate -t 64 past the limit: message, 2, no record after the csv header"
if [ -n "$NO_AS_LIMIT" ]; then
    skip "$NO_AS_LIMIT"
else
    limited rate -t 64 many.txt
    expect_no_threads 64
    [ "$(wc -l <out | tr -d ' ')" -le 1 ] && ! grep -q '^[0-9]' out || fail "records written:"$'\n'"$(show out)"
fi
end

begin "threads: bench -t 64 past the limit: message, 2, no table"
if [ -n "$NO_AS_LIMIT" ]; then
    skip "$NO_AS_LIMIT"
else
    limited bench -t 64 --seconds 0.1 --pipelines fast many.txt
    expect_no_threads 64
    expect_out_empty
fi
end

begin "threads: bench --grid 3x3 -t 64 past the limit: message, 2, no table"
if [ -n "$NO_AS_LIMIT" ]; then
    skip "$NO_AS_LIMIT"
else
    limited bench --grid 3x3 -t 64 --seconds 0.1 many.txt
    expect_no_threads 64
    expect_out_empty
fi
end

cd "$T" || exit 1

# Run alone: the total of this part's cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
fi
