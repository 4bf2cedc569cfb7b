#!/usr/bin/env bash
# tests/cli/edges.sh — the contract at its edges: signals during long work,
# summaries after an interrupt, whole records from generate/augment, write errors, multi-file
# runs, early failures, messages, overflowing values, output hygiene, the docs against
# --help, and the options --max-guesses, the csv file column, generate -f pretty and pretty
# givens. Sourced by tests/cli/run.sh (its harness and puzzles); run alone, it runs its own
# cases.
#
# Signal cases never race the process and never depend on its speed. A run that could finish
# sends itself the signal from a point of its work (the fault shim, tests/fault/shim.c:
# SB_FAULT_SIGNAL after K bytes written or read). Only runs that cannot end by themselves (an
# endless search, a bench of 100,000 s) are signalled from outside, once the run has shown
# that its handlers are in (a byte of output, or its input fifo opened) and has done work
# (tests/cli/signals.sh). No case has a wall-clock threshold.

# Run alone (tests/cli/edges.sh BINARY), it sets up the harness itself and runs its own cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    # shellcheck source=tests/cli/run_lib.sh
    . "$(dirname "$0")/run_lib.sh" "$@"
fi

EDGE_DIR=$T/edges
mkdir -p "$EDGE_DIR" && cd "$EDGE_DIR" || exit 1
EMPTY=$(repeat . 81)

# ---- helpers -------------------------------------------------------------------------------
# stop_if_ready SIG CHECK...: runs CHECK... (a wait until the background run BG_PID has its
# handlers and is busy, signals.sh); then signals BG_PID and reaps it, or after a failed
# check kills it. Sets RC.
stop_if_ready() {
    local sig=$1
    shift
    if "$@"; then
        sb_signal "$sig" "$BG_PID"
    else
        kill -KILL "$BG_PID"
        sb_reap "$BG_PID" KILL
    fi
    RC=$BG_RC
}

# ---- 1. a signal stops any work promptly ---------------------------------------------------
printf '%s\n%s\n%s\n' "$P1" "$P2" "$EMPTY" >long.txt
for sig in TERM INT; do
    begin "signal: SIG$sig during one endless search (-l 0, empty grid): records before it, message, 130"
    sb_bg out err solve -t 1 -l 0 -f csv long.txt
    stop_if_ready "$sig" sb_ready "$BG_PID" out
    expect_rc 130
    norm_csv out >got.txt
    printf '%s\n' "line,status,count,guesses,solution" "1,solved,1,G,$S1" "2,solved,1,G,$S2" >expected.txt
    expect_file expected.txt got.txt
    expect_err_line "sudokubench: interrupted after 2 records (long.txt:2)"
    end
done

begin "signal: SIGTERM while an endless line is skipped (/dev/zero): message, 130"
# the run sends itself SIGTERM once it has read 10 MB of the endless line (the fault shim)
SB_FAULT_PATH=/zero SB_FAULT_SIGNAL=TERM SB_FAULT_SIGNAL_READ=10000000 with_shim solve /dev/zero >out 2>err
RC=$?
expect_rc 130
expect_out_empty
expect_err_line "sudokubench: interrupted after 0 records"
end

# ---- 2. summaries count exactly the records written ------------------------------------------
# 600 easy records, the endless one at 300, 600 more: with -t 2 the other thread handles later
# chunks that are never written.
{ for i in $(seq 300); do echo "$P1"; done; echo "$EMPTY"; for i in $(seq 600); do echo "$P2"; done; } >stall.txt
begin "signal: solve --stats after SIGTERM (-t 2) counts only the records written"
# -f csv: the header is out before the records, which are held until the stop
sb_bg out err solve -t 2 -l 0 -f csv --stats stall.txt
stop_if_ready TERM sb_ready "$BG_PID" out 40
expect_rc 130
expect_records 301
expect_err_line "sudokubench: interrupted after 300 records (stall.txt:300)"
expect_err_re '^stats: 300 puzzles \(300 solved, 0 unsolvable, 0 multiple\), 0 invalid lines, 0 guesses, '
end

# ---- 3. generate, augment and bench end on a record boundary -------------------------------
for sig in INT TERM; do
    begin "signal: generate -n 10000000, SIG$sig: whole records, message, 130"
    # the run sends itself the signal once it has written 200,000 bytes (the fault shim)
    SB_FAULT_PATH=/out SB_FAULT_SIGNAL=$sig SB_FAULT_SIGNAL_WRITE=200000 \
        with_shim generate -n 10000000 -t 2 >out 2>err
    RC=$?
    expect_rc 130
    [ "$(stat -c %s out)" -ge 200000 ] || fail "stopped before the signal's point"
    n=$(wc -l <out | tr -d ' ')
    [ "$(tail -c 1 out | od -An -c | tr -d ' ')" = '\n' ] || fail "output does not end on a record boundary"
    awk 'length($0) != 81 { print "line " NR " has " length($0) " characters"; exit 1 }' out >awk.txt || fail "$(cat awk.txt)"
    expect_err_line "sudokubench: interrupted after $n records"
    timeout "$TIMEOUT" "$BIN" generate --first $((n - 1)) -n 1 >last.txt 2>/dev/null
    [ "$(tail -n 1 out)" = "$(cat last.txt)" ] || fail "last record is not puzzle $((n - 1))"
    end
done

printf '%s\n%s\n' "$P1" "$P2" >two.txt
begin "signal: augment -n 1000000000, SIGTERM: whole records, message, 130"
SB_FAULT_PATH=/out SB_FAULT_SIGNAL=TERM SB_FAULT_SIGNAL_WRITE=2000000 \
    with_shim augment -n 1000000000 two.txt >out 2>err
RC=$?
expect_rc 130
[ "$(stat -c %s out)" -ge 2000000 ] || fail "stopped before the signal's point"
n=$(wc -l <out | tr -d ' ')
[ "$(tail -c 1 out | od -An -c | tr -d ' ')" = '\n' ] || fail "output does not end on a record boundary"
[ "$(stat -c %s out)" = $((82 * n)) ] || fail "output is not $n whole records"
expect_err_line "sudokubench: interrupted after $n records"
end

begin "signal: bench, SIGTERM mid-row: message, 130, the JSON holds the finished rows (none)"
# the input is a fifo: bench opens it only once its handlers are in
rm -f in.fifo && mkfifo in.fifo
sb_bg out err bench -t 1 --pipelines fast --seconds 100000 --json b.json in.fifo
fed_and_busy() { sb_feed two.txt in.fifo && sb_busy "$BG_PID" 20; }
stop_if_ready TERM fed_and_busy
expect_rc 130
expect_err_line "sudokubench: bench: interrupted after 0 rows"
if [ "$HAVE_PY" = 1 ]; then
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["rows"] == [] else 1)' b.json ||
        fail "b.json is not valid JSON with no rows"
fi
end

# ---- 4. write errors are reported (exit 2) -------------------------------------------------
WFULL='sudokubench: write error: standard output: No space left on device'
WBADF='sudokubench: write error: standard output: Bad file descriptor'
while IFS='|' read -r name cmd; do
    begin "write error: $name >/dev/full: message, exit 2"
    # shellcheck disable=SC2086 # cmd is a word list on purpose
    timeout "$TIMEOUT" "$BIN" $cmd >/dev/full 2>err
    RC=$?
    expect_rc 2
    expect_err_line "$WFULL"
    end
done <<EOF
validate|validate two.txt
solve|solve two.txt
rate|rate two.txt
bench|bench --pipelines fast --seconds 0 two.txt
generate|generate -n 3
augment|augment -n 3 two.txt
--help|--help
--version|--version
solve --help|solve --help
EOF
begin "write error: validate >&- (stdout closed): message, exit 2"
timeout "$TIMEOUT" "$BIN" validate two.txt >&- 2>err
RC=$?
expect_rc 2
expect_err_line "$WBADF"
end
begin "write error: bench --json /dev/full: the path named, exit 2"
run bench --pipelines fast --seconds 0 --json /dev/full two.txt
expect_rc 2
expect_err_line "sudokubench: write error: /dev/full: No space left on device"
end

# ---- 5. several files: a missing one is reported, the others still run ---------------------
printf '%s\n' "$P2" >one.txt
begin "multi-file: bench A missing B: both rows, message, exit 2"
run bench --pipelines fast --seconds 0 two.txt missing.txt one.txt
expect_rc 2
expect_err_line "sudokubench: cannot open 'missing.txt': No such file or directory"
expect_out_re '^\| two\.txt \| fast \| 2 \|'
expect_out_re '^\| one\.txt \| fast \| 1 \|'
end
begin "multi-file: augment -n 2 A missing: output from A, message, exit 2"
run augment -n 2 two.txt missing.txt
expect_rc 2
expect_records 2
expect_err_line "sudokubench: cannot open 'missing.txt': No such file or directory"
end
begin "multi-file: rate A missing: a summary for A only"
run rate two.txt missing.txt
expect_rc 2
expect_err_line "sudokubench: cannot open 'missing.txt': No such file or directory"
expect_err_re '^rate: two\.txt: 2 puzzles:'
grep -q '^rate: missing\.txt' err && fail "a summary for the file that could not be opened"
end
begin "multi-file: rate A DIR: a directory opens, fails its first read, and gets no summary"
mkdir -p adir
run rate two.txt adir
expect_rc 2
expect_err_line "sudokubench: adir: read error: Is a directory"
expect_err_re '^rate: two\.txt: 2 puzzles:'
grep -q '^rate: adir' err && fail "a summary for the directory that could not be read"
end

# ---- 6. outputs are opened before the work -------------------------------------------------
begin "early failure: bench --json /no/such/dir/o.json fails before measuring, naming the path"
run bench --pipelines fast --seconds 100000 --json /no/such/dir/o.json two.txt
expect_rc 2
expect_out_empty
expect_err_line "sudokubench: cannot open '/no/such/dir/o.json' for --json: No such file or directory"
end

# ---- 6b. start-up survives another process's litter ------------------------------------------
# LLVM's OpenMP runtime (clang builds) trusts /dev/shm/__KMP_REGISTERED_LIB_<pid>_<uid> when it
# exists; an empty one, left by a process that died making it, used to kill the next process
# with that pid by SIGBUS (a CI run failed so). Pid 1 of a new pid namespace gets it on purpose.
begin "start-up: an empty OpenMP registration file left for our pid is removed, the run succeeds"
SHM_LITTER=/dev/shm/__KMP_REGISTERED_LIB_1_$(id -u)
if [ ! -d /dev/shm ] || [ -e "$SHM_LITTER" ] || ! unshare -p -f true 2>/dev/null; then
    skip "needs /dev/shm and a new pid namespace (unshare -p, as root), and no process of pid 1 registered"
else
    : >"$SHM_LITTER"
    timeout "$TIMEOUT" unshare -p -f sh -c 'exec "$0" solve -t 2 -o u.out two.txt' "$BIN" >out 2>err
    RC=$?
    expect_rc 0
    [ ! -e "$SHM_LITTER" ] || { fail "the stale file is still there"; rm -f "$SHM_LITTER"; }
    run solve -t 2 two.txt
    expect_rc 0
    [ -s out ] && cmp -s out u.out || fail "the run under pid 1 wrote other records than a plain run"
fi
end

# ---- 7. messages say what helps ------------------------------------------------------------
begin "messages: BFS out of memory says to lower --bfs-cap"
if is_asan; then
    skip "address-space limits do not apply under ASan"
else
    printf '%s\n' "$EMPTY" >empty.txt
    (ulimit -v 400000 && exec timeout "$TIMEOUT" "$BIN" solve -t 1 --search bfs --bfs-cap 4294967296 -l 0 -f json empty.txt) >out 2>err
    RC=$?
    expect_rc 2
    expect_err_line "sudokubench: empty.txt:1: out of memory (lower --bfs-cap)"
    expect_out '{"file":"empty.txt","line":1,"status":"invalid","error":"out of memory (lower --bfs-cap)","column":null}'
fi
end
begin "messages: BFS frontier over its cap says to raise it; its json record has column null"
printf '%s\n' "$EMPTY" >empty.txt
run solve --search bfs --bfs-cap 8 -l 0 -f json empty.txt
expect_rc 2
expect_err_line "sudokubench: empty.txt:1: BFS frontier outgrew its cap (raise --bfs-cap)"
expect_out '{"file":"empty.txt","line":1,"status":"invalid","error":"BFS frontier outgrew its cap (raise --bfs-cap)","column":null}'
end
begin "messages: generate gives up naming only the constraints given"
run generate -n 1 --guesses 1000000- --attempts 1
expect_rc 1
expect_err_line "sudokubench: generate: puzzle 0: no candidate met --guesses 1000000- in 1 attempts"
run generate -n 1 --clues 17 --guesses 0-0 --attempts 1
expect_rc 1
expect_err_line "sudokubench: generate: puzzle 0: no candidate met --clues 17 and --guesses 0-0 in 1 attempts"
end
begin "messages: an unsupported --simd level is a usage error with the Try line"
run solve --simd neon two.txt
if [ "$RC" = 0 ]; then
    skip "this CPU runs neon"
else
    expect_rc 2
    expect_err_line "sudokubench: SIMD level 'neon' is not supported by this CPU"
    expect_err_line "Try 'sudokubench solve --help'."
fi
end
begin "messages: a bad SUDOKUBENCH_SIMD is a usage error with the Try line"
SUDOKUBENCH_SIMD=bogus timeout "$TIMEOUT" "$BIN" validate two.txt >out 2>err
RC=$?
expect_rc 2
expect_err_line "sudokubench: SUDOKUBENCH_SIMD=bogus: unknown level or not supported by this CPU (scalar, sse4, avx2, avx512bw, avx512, neon)"
expect_err_line "Try 'sudokubench validate --help'."
end
begin "messages: a number past 2^64-1 is 'too large', not 'not a whole number'"
run solve -l 99999999999999999999 two.txt
expect_rc 2
expect_err_line "sudokubench: bad limit '99999999999999999999' (too large: at most 18446744073709551615)"
run generate -n 99999999999999999999
expect_rc 2
expect_err_line "sudokubench: bad count '99999999999999999999' (too large: at most 18446744073709551615)"
end

# ---- 8. no silent wrong values -------------------------------------------------------------
begin "values: generate --first near 2^64 with a count that wraps is refused"
run generate --first 18446744073709551615 -n 2
expect_rc 2
expect_err_line "sudokubench: --first 18446744073709551615 with -n 2 passes the last index (18446744073709551615)"
run generate --first 18446744073709551615 -n 1
expect_rc 0
expect_records 1
end
begin "values: bench --pipeline list --pipelines fast keeps both, in order"
run bench --seconds 0 --pipeline list --pipelines fast two.txt
expect_rc 0
[ "$(grep -c '^| two\.txt |' out)" = 2 ] || fail "want 2 rows, got: $(grep '^| two' out)"
[ "$(grep '^| two\.txt |' out | cut -d'|' -f3 | tr -d ' ' | tr '\n' ' ')" = "list fast " ] || fail "rows: $(grep '^| two' out)"
end
begin "values: bench --pipelines fast,,list is refused"
run bench --seconds 0 --pipelines fast,,list two.txt
expect_rc 2
expect_err_line "sudokubench: empty pipeline name in --pipelines 'fast,,list'"
expect_out_empty
end
begin "values: --version and --help refuse extra arguments"
run --version extra
expect_rc 2
expect_err_line "sudokubench: unexpected argument 'extra' after '--version'"
expect_out_empty
run --help extra
expect_rc 2
expect_err_line "sudokubench: unexpected argument 'extra' after '--help'"
end

# ---- 9. output hygiene ---------------------------------------------------------------------
NLNAME=$'new\nline.txt'
BADNAME=$'bad\xffname.txt'
printf '%s\n%s\n' "$P1" "oops" >"$NLNAME"
printf '%s\n' "$P2" >"$BADNAME"
begin "hygiene: a newline in a file name does not split a message line"
run solve "$NLNAME"
expect_rc 1
expect_err_line "sudokubench: new\\x0aline.txt:2:1: invalid puzzle: unexpected character 'o'"
expect_err_count 1
end
begin "hygiene: control bytes and invalid UTF-8 in file names give valid JSON"
if [ "$HAVE_PY" = 1 ]; then
    run solve -f json "$NLNAME" "$BADNAME"
    expect_rc 1
    python3 - out >py.txt 2>&1 <<'EOF' || fail "$(cat py.txt)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
got = [r["file"] for r in recs]
want = ["new\nline.txt", "new\nline.txt", "bad\ufffdname.txt"]
if got != want:
    sys.exit("got %r want %r" % (got, want))
EOF
else
    skip "python3 not available"
fi
end
begin "hygiene: rate -f json invalid records carry error and column"
printf '%s\n%s\n' "$P1" "oops" >ro.txt
run rate -f json ro.txt
expect_rc 1
grep -qxF '{"file":"ro.txt","line":2,"status":"invalid","error":"unexpected character '"'o'"'","column":1}' out ||
    fail "rate json invalid record: $(sed -n 2p out)"
end
begin "hygiene: bench JSON build names the compiler and the SIMD level; '-' is <stdin>"
run bench --pipelines fast --seconds 0 --json b.json - <two.txt
expect_rc 0
expect_out_re '^\| <stdin> \| fast \| 2 \|'
expect_out_re '^# sudokubench [0-9.]+ \| compiler (gcc [0-9]|.*[Cc]lang)'
if [ "$HAVE_PY" = 1 ]; then
    python3 - b.json "$(sed -n 's/.*| simd \([a-z0-9]*\) |.*/\1/p' out)" >py.txt 2>&1 <<'EOF' || fail "$(cat py.txt)"
import json, re, sys
d = json.load(open(sys.argv[1]))
b = d["build"]
if not re.match(r"(gcc \d|.*[Cc]lang)", b["compiler"]):
    sys.exit("compiler %r lacks its name" % b["compiler"])
if b.get("simd") != sys.argv[2]:
    sys.exit("build simd %r, table says %r" % (b.get("simd"), sys.argv[2]))
if d["rows"][0]["dataset"] != "<stdin>":
    sys.exit("dataset %r" % d["rows"][0]["dataset"])
EOF
fi
end
begin "hygiene: csv file column quotes a name with a comma"
cp two.txt 'a,b.txt'
run solve -f csv 'a,b.txt' one.txt
expect_rc 0
norm_csv out >got.txt
printf '%s\n' "file,line,status,count,guesses,solution" "\"a,b.txt\",1,solved,1,G,$S1" "\"a,b.txt\",2,solved,1,G,$S2" "one.txt,1,solved,1,G,$S2" >expected.txt
expect_file expected.txt got.txt
end

# ---- 10. docs/cli.md lists every option --help prints --------------------------------------
for cmd in solve validate bench rate generate augment; do
    begin "docs: docs/cli.md's $cmd synopsis has every option of '$cmd --help'"
    timeout "$TIMEOUT" "$BIN" "$cmd" --help >help.txt 2>&1
    syn=$(grep -E "^sudokubench $cmd " "$HERE/../../docs/cli.md" | head -n 1)
    [ -n "$syn" ] || fail "no synopsis line for $cmd"
    # Each option line of --help: "  -t, --threads N" (either form may be in the synopsis)
    # or "      --stats".
    while read -r short long; do
        [ "$long" = --help ] && continue
        [[ " $syn" == *"$long"[\ \]]* ]] && continue
        [ "$short" != - ] && [[ "$syn" == *"[$short "* || "$syn" == *"[$short]"* || "$syn" == *" $short "* ]] && continue
        fail "$short $long is in '$cmd --help' but not in the synopsis: $syn"
    done < <(sed -nE 's/^ +(-[a-zA-Z]), (--[a-z][a-z-]*).*/\1 \2/p; s/^ +(--[a-z][a-z-]*).*/- \1/p' help.txt)
    end
done

# ---- options people expect -----------------------------------------------------------------
begin "--max-guesses: a search over budget says 'budget' in every format, exit 0"
printf '%s\n%s\n' "$P1" "$EMPTY" >bud.txt
run solve -l 0 --max-guesses 50 -f csv bud.txt
expect_rc 0
expect_records 3
expect_out_re "^1,solved,1,0,$S1\$"
expect_out_re '^2,budget,[0-9]+,50,$'
run solve -l 0 --max-guesses 50 bud.txt
expect_out "$S1"$'\n'budget
run solve -l 0 --max-guesses 50 -f tdoku bud.txt
expect_out "$P1:1:$S1"$'\n'"$EMPTY:budget:"
run solve -l 0 --max-guesses 50 -f json bud.txt
expect_out_re '^\{"file":"bud\.txt","line":2,"status":"budget","count":[0-9]+,"guesses":50,"puzzle":"\.{81}","solution":null\}$'
run solve -l 0 --max-guesses 50 -f pretty bud.txt
expect_out_re '^# bud\.txt:2 budget \(count [0-9]+, guesses 50\)$'
run solve -l 0 --max-guesses 50 --stats bud.txt
expect_err_re '^stats: 2 puzzles \(1 solved, 0 unsolvable, 0 multiple, 1 over budget\), 0 invalid lines, 50 guesses, '
end
begin "--max-guesses 0: puzzles that need a guess are over budget; bad values refused"
run solve --max-guesses 0 -f csv "$HERE/golden/mixed.txt"
grep -q ',budget,' out || fail "no budget record with --max-guesses 0"
grep -q ',solved,1,0,' out || fail "puzzles solved without guessing are no longer solved"
run solve --max-guesses x two.txt
expect_rc 2
expect_err_line "sudokubench: bad --max-guesses 'x' (a whole number >= 0)"
end
begin "generate -f pretty: a header and the puzzle beside its solution"
run generate -n 2 -f pretty
expect_rc 0
expect_records 30
expect_out_re '^# puzzle 1 \(clues [0-9]+, guesses [0-9]+\)$'
expect_out_re '^\+-------\+-------\+-------\+   \+-------\+-------\+-------\+$'
end
begin "generate --class: every puzzle is of that class by rate; same bytes for any -t; give-up names it"
run generate -n 12 --class locked -t 2
expect_rc 0
expect_records 12
cp out cls.txt
timeout "$TIMEOUT" "$BIN" rate cls.txt >rate.out 2>rate.err
[ "$(tail -n +2 rate.out | cut -d, -f2,3 | sort -u)" = "solved,locked" ] || fail "classes: $(tail -n +2 rate.out | cut -d, -f3 | sort | uniq -c | tr '\n' ' ')"
run generate -n 12 --class locked -t 1
expect_file cls.txt out
run generate -n 1 --class tuples --clues 17 --attempts 1
expect_rc 1
expect_err_line "sudokubench: generate: puzzle 0: no candidate met --clues 17 and --class tuples in 1 attempts"
run generate -n 1 --class hard
expect_rc 2
expect_err_line "sudokubench: unknown class 'hard' (singles, hidden, locked, tuples, fish, wings, chains, search)"
end

# Run alone: the total of this part's cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
fi
