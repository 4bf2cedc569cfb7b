#!/usr/bin/env bash
# tests/cli/batch.sh — black-box tests of the batch engine (docs/cli.md, "Threads, progress
# and interrupts"): output independent of -t, input order across windows and files, stdin
# streaming, interrupts, progress, bench and validate with threads.
#
# Usage: tests/cli/batch.sh [BINARY]    (default build/sudokubench; run from the repo root)
#
# Prints `ok - NAME` / `not ok - NAME` per case and ends with `N passed, M failed`; exits 1 if
# any case failed. Scratch files live in a mktemp -d directory removed on exit.
#
# Inputs are built from the samples committed in datasets/samples/ (never ../shared). The
# thread counts 1, 2 and 7 are compared with each other (7 > cores on most machines, so
# threads share cores and chunks finish out of order); what each record should say is
# checked by tests/cli/run.sh and the unit suite. Sizes are chosen so that a run spans
# several windows (8192 records with 1-2 threads, 4096 per thread above) and the whole file
# stays well under 30 s, also under ASan.

set -u

BIN=${1:-build/sudokubench}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SAMPLES=$ROOT/datasets/samples
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}

# scratch directory, environment, tcase and sb: the shared CLI test harness
. "$ROOT/tests/cli/harness.sh" batch
# same A B: complains unless files A and B are identical
same() { cmp -s "$1" "$2" || echo "$1 and $2 differ: $(cmp "$1" "$2" 2>&1 | head -n 1)"; }

if [ ! -x "$BIN" ] || [ ! -d "$SAMPLES" ]; then
    echo "not ok - binary $BIN and $SAMPLES exist"
    echo "0 passed, 1 failed"
    exit 1
fi

# ---- inputs --------------------------------------------------------------------------------
grep -hv '^#' "$SAMPLES/17_clue_2000.txt" >c17.txt
grep -hv '^#' "$SAMPLES/top1465.txt" | head -n 1000 >top.txt
grep -hv '^#' "$SAMPLES/hardest_11plus_1000.txt" >hard1k.txt

# mix.txt: ~3,150 puzzles of three kinds with every sort of skipped and invalid line mixed in.
cat c17.txt top.txt <(head -n 150 hard1k.txt) | awk '
    BEGIN { long = sprintf("%1500s", ""); gsub(/ /, "7", long) }
    { print }
    NR % 97 == 0 { k = (NR / 97) % 5 }
    NR % 97 == 0 && k == 0 { print "xyz" }
    NR % 97 == 0 && k == 1 { print $0 "9" }
    NR % 97 == 0 && k == 2 { print "123456789012" }
    NR % 97 == 0 && k == 3 { print substr($0, 1, 40) ":" substr($0, 42) }
    NR % 97 == 0 && k == 4 { print long }
    NR % 50 == 0 { print "# comment " NR }
    NR % 70 == 0 { print "" }
    NR % 113 == 0 { print $0 "\r" }' >mix.txt
head -n 300 hard1k.txt | awk '{ print } NR % 61 == 0 { print "bad line " NR }' >mix2.txt

# easy.txt: 60,000 easy puzzles (every third cell of a solution blanked) and 12 invalid lines,
# to span many windows quickly.
"$BIN" solve -t 2 -f tdoku c17.txt 2>/dev/null | awk -F: -v reps=30 '
    { sol[n++] = $3 }
    END {
        for (r = 0; r < reps; r++)
            for (i = 0; i < n; i++) {
                s = sol[i]
                o = ""
                sh = (i + r) % 3 # which cell of each triple is blanked
                for (c = 1; c <= 81; c += 3) {
                    if (sh == 0) o = o "." substr(s, c + 1, 2)
                    if (sh == 1) o = o substr(s, c, 1) "." substr(s, c + 2, 1)
                    if (sh == 2) o = o substr(s, c, 2) "."
                }
                print o
                if ((r * n + i) % 5003 == 0) print "not a puzzle " r " " i
            }
    }' >easy.txt
# A broken input would make every comparison below pass vacuously: check the sizes first.
for f in c17.txt:2000 top.txt:1000 hard1k.txt:1000 mix.txt:3317 easy.txt:60012; do
    if [ "$(wc -l <"${f%%:*}" | tr -d ' ')" != "${f##*:}" ]; then
        echo "not ok - test input ${f%%:*} has ${f##*:} lines"
        echo "0 passed, 1 failed"
        exit 1
    fi
done

# ---- cases ---------------------------------------------------------------------------------
FORMATS="solution tdoku csv json pretty"

same_for_threads() {
    local f t rc
    for f in $FORMATS; do
        for t in 1 2 7; do
            rc=$(sb "o.$f.$t" "e.$f.$t" solve -t "$t" -f "$f" mix.txt mix2.txt)
            [ "$rc" = 1 ] || echo "-t $t -f $f: exit $rc, want 1 (invalid lines)"
        done
        [ -s "o.$f.1" ] || echo "-f $f: no output"
        for t in 2 7; do
            same "o.$f.1" "o.$f.$t"
            same "e.$f.1" "e.$f.$t"
        done
    done
    local recs msgs
    recs=$(wc -l <o.solution.1)
    want=$(grep -cv -e '^#' -e '^$' mix.txt mix2.txt | awk -F: '{ s += $2 } END { print s }')
    [ "$recs" = "$want" ] || echo "solution records: $recs, want $want (one per non-skipped line)"
    msgs=$(grep -c ': invalid puzzle: ' e.solution.1)
    [ "$msgs" = "$(grep -c '^invalid$' o.solution.1)" ] ||
        echo "stderr has $msgs invalid-puzzle messages for $(grep -c '^invalid$' o.solution.1) invalid records"
    # stderr keeps input order: line numbers of mix.txt's messages ascend
    grep -o 'mix\.txt:[0-9]*' e.solution.1 | cut -d: -f2 | sort -nc 2>/dev/null ||
        echo "invalid-line messages are not in input order"
}
tcase "same bytes for -t 1, 2, 7 in every format (stdout, stderr, exit code)" same_for_threads

many_windows() {
    local t rc
    for t in 1 2 7; do
        rc=$(sb "w.$t" "we.$t" solve -t "$t" -f csv easy.txt)
        [ "$rc" = 1 ] || echo "-t $t: exit $rc, want 1"
    done
    same w.1 w.2
    same w.1 w.7
    same we.1 we.2
    same we.1 we.7
    local n
    n=$(($(wc -l <w.1) - 1))
    [ "$n" = 60012 ] || echo "csv records: $n, want 60012"
    # csv line numbers are the input's: strictly ascending, the last one the file's last line
    awk -F, 'NR > 2 && $1 + 0 <= prev { print "line " $1 " after " prev; exit } { prev = $1 + 0 }' w.1
    [ "$(tail -n 1 w.1 | cut -d, -f1)" = "$(wc -l <easy.txt)" ] || echo "last csv line number is not the input's last line"
    # the same through a pipe (stdin polled before each read)
    cat easy.txt | timeout "$TIMEOUT" "$BIN" solve -t 2 -f csv >w.pipe 2>we.pipe
    same w.1 w.pipe
}
tcase "60,012 records over many windows: same for -t 1, 2, 7 and through a pipe" many_windows

files_in_order() {
    printf '%s\n' "$(head -n 1 c17.txt)" "bad-a" >a.txt
    printf '%s\n' "bad-b" "$(head -n 1 top.txt)" >b.txt
    local t rc
    for t in 1 7; do
        rc=$(sb "f.$t" "fe.$t" solve -t "$t" -f csv a.txt missing.txt b.txt)
        [ "$rc" = 2 ] || echo "-t $t: exit $rc, want 2 (unreadable file)"
        printf '%s\n' "sudokubench: a.txt:2:1: invalid puzzle: unexpected character 'b'" \
            "sudokubench: cannot open 'missing.txt': No such file or directory" \
            "sudokubench: b.txt:1:1: invalid puzzle: unexpected character 'b'" >fe.want
        same fe.want "fe.$t"
        [ "$(cut -d, -f1-3 "f.$t" | tr '\n' ' ')" = "file,line,status a.txt,1,solved a.txt,2,invalid b.txt,1,invalid b.txt,2,solved " ] ||
            echo "-t $t: csv records $(cut -d, -f1-3 "f.$t" | tr '\n' ' ')"
    done
}
tcase "several files: records and messages (cannot open included) in input order" files_in_order

validate_threads() {
    local t rc1 rc
    rc1=$(sb v.1 ve.1 validate -t 1 mix.txt)
    [ "$rc1" = 1 ] || echo "validate -t 1: exit $rc1, want 1"
    grep -q ': multiple solutions$\|: no solution$\|invalid puzzle' ve.1 || echo "validate printed no problem"
    for t in 2 7; do
        rc=$(sb "v.$t" "ve.$t" validate -t "$t" mix.txt)
        [ "$rc" = "$rc1" ] || echo "validate -t $t: exit $rc, want $rc1"
        same v.1 "v.$t"
        same ve.1 "ve.$t"
    done
}
tcase "validate: same summary and diagnostics for -t 1, 2, 7" validate_threads

# hard.txt: 20 copies of the hardest sample (20,000 records, 1.64 MB). The interrupting
# signals below come from points in the work, so its length does not depend on any speed.
for i in $(seq 20); do cat hard1k.txt; done >hard.txt

# interrupt SIG THREADS FORMAT: a run that sends itself SIG once it has written 300,000 bytes
# of output (the fault shim: a point in the work, so the signal lands mid-run on a machine of
# any speed, and no test signals a process that may have finished), then checks exit 130, the
# message and that stdout is exactly the output of the first N records.
interrupt() {
    local sig=$1 t=$2 f=$3 n line rc
    SB_FAULT_PATH=/int.out SB_FAULT_SIGNAL=$sig SB_FAULT_SIGNAL_WRITE=300000 \
        with_shim solve -t "$t" -f "$f" --progress always hard.txt >int.out 2>int.err
    rc=$?
    [ "$rc" = 130 ] || { echo "exit $rc after SIG$sig, want 130"; return; }
    line=$(tail -n 1 int.err)
    [[ $line =~ ^sudokubench:\ interrupted\ after\ ([0-9]+)\ records\ \(hard\.txt:([0-9]+)\)$ ]] ||
        { echo "last stderr line: '$line'"; return; }
    n=${BASH_REMATCH[1]}
    [ "${BASH_REMATCH[2]}" = "$n" ] || echo "position hard.txt:${BASH_REMATCH[2]}, want line $n"
    [ "$n" -gt 0 ] && [ "$n" -lt 20000 ] || echo "interrupted after $n records: not mid-run"
    [ "$(stat -c %s int.out)" -ge 300000 ] || echo "only $(stat -c %s int.out) bytes written before the signal's point"
    head -n "$n" hard.txt >head.txt
    timeout "$TIMEOUT" "$BIN" solve -t 2 -f "$f" head.txt >int.want 2>/dev/null
    sed -i 's/^# head\.txt:/# hard.txt:/' int.want # pretty headers name the file
    same int.want int.out
    grep -q $'\r' int.err || echo "no progress line (\\r) on stderr"
    [ "$(grep -c 'interrupted' int.err)" = 1 ] || echo "the interrupt message is not on a line of its own"
}
interrupt_int() { interrupt INT 2 csv; }
interrupt_term() { interrupt TERM 1 pretty; }
tcase "SIGINT mid-run (-t 2, csv): exit 130, message, stdout = first N records exactly" interrupt_int
tcase "SIGTERM mid-run (-t 1, pretty): exit 130, whole records only" interrupt_term

# summary_after_interrupt CMD: `CMD -t 2` on hard.txt, sending itself SIGINT once it has read
# 800,000 bytes of the file's 1,640,000; the summary must count exactly the N records of "interrupted after N
# records" (with two threads the other thread has handled records of later chunks that are
# never written).
summary_after_interrupt() {
    local cmd=$1 rc n got
    SB_FAULT_PATH=/hard.txt SB_FAULT_SIGNAL=INT SB_FAULT_SIGNAL_READ=800000 \
        with_shim "$cmd" -t 2 --progress always hard.txt >sum.out 2>sum.err
    rc=$?
    [ "$rc" = 130 ] || { echo "exit $rc after SIGINT, want 130"; return; }
    n=$(sed -n 's/^sudokubench: interrupted after \([0-9]*\) records.*/\1/p' sum.err)
    [ -n "$n" ] || { echo "no interrupted message: $(tail -n 2 sum.err)"; return; }
    [ "$n" -lt 20000 ] || echo "interrupted after $n records: not mid-run"
    if [ "$cmd" = validate ]; then
        got=$(sed -n 's/^\([0-9]*\) puzzles: .*/\1/p' sum.out)
    else
        got=$(sed -n 's/^rate: hard\.txt: \([0-9]*\) puzzles:.*/\1/p' sum.err)
        [ "$(($(wc -l <sum.out) - 1))" = "$n" ] || echo "rate wrote $(($(wc -l <sum.out) - 1)) records, message says $n"
    fi
    [ "$got" = "$n" ] || echo "$cmd summary counts ${got:-nothing} puzzles after 'interrupted after $n records'"
}
summary_validate() { summary_after_interrupt validate; }
summary_rate() { summary_after_interrupt rate; }
tcase "validate -t 2, SIGINT: the summary counts exactly the records written" summary_validate
tcase "rate -t 2, SIGINT: the per-file summary counts exactly the records written" summary_rate

# resume_other_threads CMD FORMAT INPUT OTHER FAULT...: `CMD -o r.out --resume` at -t 2, --simd scalar
# and --progress always, killed by the fault shim at a point of its work (FAULT: the SB_FAULT_*
# settings), then resumed at -t 1, the best SIMD level and --progress never (spelt
# --threads=1 --simd=auto): the options that cannot change FILE's bytes are no part of the side
# file's identity, so the resume goes on and FILE ends byte-identical to an uninterrupted run,
# with its exit code. A run that differs in an option that does change the bytes is still
# refused (OTHER: such an option), with exit 2 and the message.
resume_other_threads() {
    local cmd=$1 fmt=$2 in=$3 other=$4 rc want
    shift 4
    rm -f r.out r.out.resume
    want=$(sb r.want r.wante "$cmd" $fmt -t 1 "$in")
    rc=$(
        export SUDOKUBENCH_CHECKPOINT_MS=0 SB_FAULT_SIGNAL=KILL "$@"
        with_shim "$cmd" $fmt -t 2 --simd scalar --progress always -o r.out --resume "$in" \
            >/dev/null 2>r.err1
        echo $?
    )
    [ "$rc" = 137 ] || { echo "$cmd: the interrupted run exits $rc, not 137: $(tail -n 2 r.err1)"; return; }
    grep -q '^done' r.out.resume && { echo "$cmd: the run finished before the kill"; return; }
    # something to resume from: records in FILE, or a checkpoint of counts past record 0
    [ -s r.out ] || grep -q '^at [1-9]' r.out.resume || echo "$cmd: the kill came before any record was kept"
    rc=$(sb r.o2 r.err2 "$cmd" $fmt --threads=1 --simd=auto --progress never -o r.out --resume "$in")
    [ "$rc" = "$want" ] || echo "$cmd: the resume at -t 1 exits $rc, want $want: $(head -n 2 r.err2)"
    grep -q 'not resuming' r.err2 && echo "$cmd: the resume was refused: $(head -n 1 r.err2)"
    same r.want r.out
    rc=$(sb r.o3 r.err3 "$cmd" $other -o r.out --resume "$in")
    [ "$rc" = 2 ] || echo "$cmd: a resume with $other exits $rc, want 2"
    [ "$(cat r.err3)" = "sudokubench: --resume: 'r.out' was written by another command, other options or other input (see 'r.out.resume'); not resuming" ] ||
        echo "$cmd $other resume: stderr '$(cat r.err3)'"
}
# rate --help says which options a resume may change (solve's and validate's help: solve.c)
resume_help() {
    "$BIN" rate --help | tr -s ' \n' ' ' | grep -qF 'the same arguments but -t, --simd and --progress, and the same inputs' ||
        echo "rate --help does not say that -t, --simd and --progress may change on a resume"
}
tcase "rate --help: a resume may change -t, --simd and --progress" resume_help
resume_solve() {
    resume_other_threads solve "-f csv" hard.txt "-f json" SB_FAULT_PATH=/r.out SB_FAULT_SIGNAL_WRITE=400000
}
resume_rate() {
    resume_other_threads rate "-f csv" hard1k.txt "-f json" SB_FAULT_PATH=/r.out SB_FAULT_SIGNAL_WRITE=40000
}
resume_validate() {
    resume_other_threads validate "" easy.txt "--grid 3x3" SB_FAULT_PATH=/easy.txt SB_FAULT_SIGNAL_READ=3000000
}
tcase "solve --resume killed at -t 2 --simd scalar, resumed at -t 1: the full run's bytes" resume_solve
tcase "rate --resume killed at -t 2 --simd scalar, resumed at -t 1: the full run's bytes" resume_rate
tcase "validate --resume killed mid-input at -t 2, resumed at -t 1: the full run's summary" resume_validate

streaming() {
    local line rc p1 p2 s1
    p1=$(head -n 1 c17.txt)
    p2=$(head -n 1 top.txt)
    s1=$(grep -m1 -F "$p1" <("$BIN" solve -t 1 -f tdoku c17.txt 2>/dev/null) | cut -d: -f3)
    coproc SBCO { exec "$BIN" solve -t 2 -f tdoku 2>&1; }
    printf '%s\n' "$p1" >&"${SBCO[1]}"
    if read -t "$TIMEOUT" -r line <&"${SBCO[0]}"; then
        [ "$line" = "$p1:1:$s1" ] || echo "first record: '$line'"
    else
        echo "no record within $TIMEOUT s of writing one puzzle (stdin still open)"
    fi
    printf '%s\n' "oops" >&"${SBCO[1]}"
    read -t "$TIMEOUT" -r line <&"${SBCO[0]}"
    [ "${line:-}" = "sudokubench: <stdin>:2:1: invalid puzzle: unexpected character 'o'" ] ||
        echo "message for line 2: '${line:-}'"
    read -t "$TIMEOUT" -r line <&"${SBCO[0]}"
    [ "${line:-}" = "oops:invalid:" ] || echo "record for line 2: '${line:-}'"
    printf '%s\n' "$p2" >&"${SBCO[1]}"
    read -t "$TIMEOUT" -r line <&"${SBCO[0]}"
    [[ ${line:-} == "$p2:1:"* ]] || echo "record for line 3: '${line:-}'"
    exec {SBCO[1]}>&-
    wait "$SBCO_PID"
    rc=$?
    [ "$rc" = 1 ] || echo "exit $rc after stdin closed, want 1"
}
tcase "stdin streams: each record comes out before stdin is closed" streaming

progress() {
    local rc
    rc=$(sb p.out p.err solve -t 2 --progress always c17.txt)
    [ "$rc" = 0 ] || echo "exit $rc"
    grep -qE $'^(\r.*)?\rsudokubench: 2000 puzzles, [0-9]+/s, [0-9]+:[0-9]{2} *$' p.err ||
        echo "no final progress line '\\rsudokubench: 2000 puzzles, R/s, M:SS': $(cat -A p.err | head -c 300)"
    [ "$(tail -c 1 p.err | od -An -c | tr -d ' ')" = '\n' ] || echo "progress does not end with a newline"
    rc=$(sb p2.out p2.err solve -t 2 --progress never c17.txt)
    [ ! -s p2.err ] || echo "--progress never wrote to stderr"
    rc=$(sb p3.out p3.err solve -t 2 c17.txt)
    [ ! -s p3.err ] || echo "--progress auto wrote to stderr that is a file"
    same p.out p2.out
    rc=$(sb p4.out p4.err solve --progress sometimes c17.txt)
    [ "$rc" = 2 ] || echo "--progress sometimes: exit $rc, want 2"
    grep -qF "bad --progress 'sometimes'" p4.err || echo "no message for --progress sometimes"
}
tcase "progress: --progress always/never/auto, final line and newline, bad value" progress

threads_option() {
    local rc c
    for c in solve validate bench; do
        OMP_NUM_THREADS=3 timeout "$TIMEOUT" "$BIN" "$c" --help >h.out 2>&1
        grep -qE -- '-t, --threads N .*\(default 3' h.out || echo "$c --help does not show default 3 under OMP_NUM_THREADS=3"
    done
    for v in 0 1025 x; do
        rc=$(sb t.out t.err solve -t "$v" c17.txt)
        [ "$rc" = 2 ] || echo "-t $v: exit $rc, want 2"
        grep -qF "bad thread count '$v'" t.err || echo "-t $v: message '$(head -c 200 t.err)'"
    done
}
tcase "-t: default from the code in --help, out-of-range values rejected" threads_option

bench_threads() {
    head -n 200 c17.txt >b.txt
    local t rc
    for t in 1 2; do
        rc=$(sb "b.$t" "be.$t" bench -t "$t" --pipelines fast --seconds 0.05 --json "b.$t.json" b.txt)
        [ "$rc" = 0 ] || echo "bench -t $t: exit $rc: $(head -c 200 "be.$t")"
        grep -q "| threads $t |" "b.$t" || echo "bench -t $t: header lacks 'threads $t'"
        grep -q "\"threads\":$t," "b.$t.json" || echo "bench -t $t: JSON lacks \"threads\":$t"
    done
    # puzzles, %no_guess and guesses/puzzle (columns 4, 7, 8) do not depend on threads
    [ "$(grep '| fast |' b.1 | cut -d'|' -f4,7,8)" = "$(grep '| fast |' b.2 | cut -d'|' -f4,7,8)" ] ||
        echo "bench rows differ beyond timing: $(grep '| fast |' b.1) vs $(grep '| fast |' b.2)"
}
tcase "bench -t 2: threads in header and JSON, same counts as -t 1" bench_threads

# bench --seconds takes a decimal number only, as the whole-number options take digits only:
# hex (strtod read 0x10 as 16 seconds), inf, nan, an exponent, a sign or a space is a usage error
bench_seconds() {
    head -n 20 c17.txt >s.txt
    local v rc
    for v in 0x1p-9 0x0 inf nan 1e-3 +0 -0 ' 0' . 1000001; do
        rc=$(sb s.out s.err bench --seconds "$v" --pipelines fast s.txt)
        [ "$rc" = 2 ] || echo "--seconds '$v': exit $rc, want 2"
        [ "$(cat s.err)" = "sudokubench: bad --seconds '$v' (a decimal number, 0..1000000)
Try 'sudokubench bench --help'." ] || echo "--seconds '$v': stderr '$(cat s.err)'"
        [ ! -s s.out ] || echo "--seconds '$v': output on stdout"
    done
    for v in 0 0.01 .01 0. 000.010; do
        rc=$(sb s.out s.err bench --seconds "$v" --pipelines fast s.txt)
        [ "$rc" = 0 ] || echo "--seconds '$v': exit $rc, want 0: $(head -c 200 s.err)"
        grep -q '^| s.txt | fast | 20 |' s.out || echo "--seconds '$v': no row for 20 puzzles: $(cat s.out)"
    done
}
tcase "bench --seconds: hex, inf, nan, exponent, sign refused (message, Try line, exit 2)" bench_seconds

bounded_memory() {
    command -v python3 >/dev/null 2>&1 || return 0
    head -n 6000 easy.txt >small.txt
    local small big
    rss() {
        python3 -c 'import os, resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=int(os.environ.get("SUDOKUBENCH_TEST_TIMEOUT", "120")))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$BIN" solve -t 2 -f pretty "$1"
    }
    small=$(rss small.txt)
    big=$(rss easy.txt)
    # 10x the records, pretty (the largest format, ~750 bytes a record with the givens beside
    # the solution): windows bound the growth (two windows of 8192 records and their output,
    # ~14 MiB; ASan's quarantine keeps the buffers' outgrown blocks too, up to twice that),
    # however long the input. An unbounded engine grows by the whole output, ~45 MiB here.
    [ $((big - small)) -lt 32768 ] || echo "max RSS $big KiB for 60k records vs $small KiB for 6k"
}
tcase "memory: 10x the records do not grow max RSS by more than the windows" bounded_memory

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" -eq 0 ]
