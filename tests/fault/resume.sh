#!/usr/bin/env bash
# tests/fault/resume.sh — `solve`/`rate`/`validate -o FILE --resume` (
# docs/reliability.md). solve: SIGKILL at ten points of a run, each followed by a resume, then a
# final resume; the finished FILE must be byte-identical to an uninterrupted run. Every kill
# comes from inside the run (the shim, tests/fault/shim.c, sends it once the run has written K
# bytes of FILE), so it lands mid-run on a machine of any speed and usually inside a record;
# a torn tail is also made on purpose once. Also: a finished FILE is left alone, another
# command line or input is refused, output without its side file is refused, standard input
# is refused.
# validate (one summary line at the end; its side file checkpoints the counts): SIGKILL at
# ten points of its stderr, then the same summary and exit code as an uninterrupted run, and
# the last run's stderr a tail of that run's; also SIGTERM then resume, a kill between the
# summary and "done", a finished file, refusals.
# An input failing part-way (read EIO): the side file is marked and a resume refused.
# Other geometries (16x16, 6x6): solve, rate and validate killed and resumed the same way;
# solve --all --resume is refused.
# No case sleeps or signals a pid from outside: nothing here depends on the machine's speed.
#
# Usage: tests/fault/resume.sh BINARY SHIM
# Prints `ok - NAME` / `not ok - NAME` and `N passed, M failed`; exits 1 on a failure.

set -u
BIN=${1:?usage: resume.sh BINARY SHIM}
SHIM=${2:?usage: resume.sh BINARY SHIM}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $SHIM in /*) ;; *) SHIM=$PWD/$SHIM ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SAMPLES=$ROOT/datasets/samples
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}
# scratch directory, environment, tcase and sb: the shared CLI test harness
. "$ROOT/tests/cli/harness.sh" resume

{ cat "$SAMPLES/17_clue_2000.txt"; echo "not a puzzle"; cat "$SAMPLES/hardest_11plus_1000.txt"; } >in.txt
ARGS=(solve -f csv -t 2 -o out.csv in.txt)
"$BIN" solve -f csv -t 2 in.txt >full.csv 2>/dev/null

# killed_run K: the resumable run, killed by the shim (tests/fault/shim.c) from inside itself
# once it has written K more bytes of out.csv: a point in the work, so the kill lands mid-run
# on a machine of any speed (the write crossing K is cut there, a torn record whenever K falls
# inside one). Runs in the foreground, bounded; prints its exit status.
killed_run() {
    LD_PRELOAD="$SHIM" SB_FAULT_PATH=/out.csv SB_FAULT_SIGNAL=KILL SB_FAULT_SIGNAL_WRITE="$1" \
        timeout "$TIMEOUT" "$BIN" "${ARGS[@]}" --resume >/dev/null 2>>err
    echo $?
}

kills() {
    rm -f out.csv out.csv.resume err
    local i rc torn=0 size left want live=0 total
    total=$(stat -c %s full.csv)
    RANDOM=16 # the same ten points every run
    size=0
    for ((i = 1; i <= 10; i++)); do
        # 1 byte to a tenth of what is left: every run is cut before its end, whatever the speed
        left=$((total - size))
        want=$((1 + (RANDOM * 32768 + RANDOM) % (left / 10)))
        rc=$(killed_run "$want")
        [ "$rc" = 137 ] || echo "run $i: exit $rc, not 137 (SIGKILL after $want bytes)"
        grep -q '^done' out.csv.resume 2>/dev/null || live=$((live + 1))
        size=$(stat -c %s out.csv 2>/dev/null || echo 0)
        [ ! -e out.csv ] || cmp -s -n "$size" out.csv full.csv || echo "after kill $i: out.csv is not a prefix of the full output"
        [ "$size" -gt 0 ] && [ "$(tail -c 1 out.csv)" != "" ] && torn=$((torn + 1))
        if [ "$i" = 5 ] && [ "$size" -gt 100 ]; then
            # a torn record made on purpose (the run has not finished: checked above)
            truncate -s $((size - 37)) out.csv
            size=$((size - 37))
        fi
    done
    "$BIN" "${ARGS[@]}" --resume >/dev/null 2>>err
    local rc=$?
    [ "$rc" = 1 ] || echo "final resume: exit $rc, not 1 (one invalid line): $(tail -n 3 err)"
    cmp -s out.csv full.csv || echo "resumed output differs: $(cmp out.csv full.csv 2>&1)"
    [ "$live" = 10 ] || echo "only $live of the 10 kills hit a run before it finished"
    [ "$torn" -ge 5 ] || echo "only $torn of the 10 kills tore a record"
    echo "# $live kills of unfinished runs; $torn of them left a torn last record (and one is torn on purpose)" >&3
}
exec 3>&1
tcase "SIGKILL at ten points of the output, resume, byte-identical" kills

rate_torn() {
    local fmt want
    for fmt in csv json; do
        rm -f rate.out rate.out.resume
        "$BIN" rate -f $fmt in.txt >want.$fmt 2>/dev/null
        "$BIN" rate -f $fmt -o rate.out --resume in.txt 2>/dev/null
        sed -i '$d' rate.out.resume # as if killed before the end
        truncate -s $(($(stat -c %s want.$fmt) / 3)) rate.out # a torn record
        "$BIN" rate -f $fmt -o rate.out --resume in.txt 2>/dev/null
        [ $? = 1 ] || echo "rate -f $fmt resumed: exit not 1"
        cmp -s rate.out want.$fmt || echo "rate -f $fmt resumed differs: $(cmp rate.out want.$fmt 2>&1)"
    done
}
tcase "rate (csv, json): a torn run resumed is byte-identical" rate_torn

finished() {
    cp out.csv before.csv
    "$BIN" "${ARGS[@]}" --resume >/dev/null 2>e
    local rc=$?
    [ "$rc" = 1 ] || echo "resuming a finished file: exit $rc, not the run's 1"
    grep -qF "'out.csv' is complete: nothing to resume" e || echo "no 'complete' note: $(cat e)"
    cmp -s out.csv before.csv || echo "a finished file changed"
}
tcase "a finished file: nothing done, the run's exit code" finished

mismatch() {
    cp out.csv before.csv
    "$BIN" solve -f json -t 2 -o out.csv --resume in.txt >/dev/null 2>e
    [ $? = 2 ] || echo "other options: exit not 2"
    grep -qF "was written by another command, other options or other input" e || echo "message: $(cat e)"
    cmp -s out.csv before.csv || echo "a refused resume changed the file"
    touch -d '2001-01-01' in.txt
    "$BIN" "${ARGS[@]}" --resume >/dev/null 2>e
    [ $? = 2 ] || echo "changed input: exit not 2"
    grep -qF "other input" e || echo "message: $(cat e)"
    echo "x" >other.csv
    "$BIN" solve -f csv -o other.csv --resume in.txt >/dev/null 2>e
    [ $? = 2 ] || echo "output without side file: exit not 2"
    grep -qF "holds output but no side file" e || echo "message: $(cat e)"
    [ "$(cat other.csv)" = x ] || echo "output without side file was changed"
    "$BIN" solve -o new.csv --resume - <in.txt >/dev/null 2>e
    [ $? = 2 ] || echo "stdin: exit not 2"
    grep -qF "needs named input files" e || echo "message: $(cat e)"
    "$BIN" solve -f pretty -o p.txt --resume in.txt >/dev/null 2>e
    [ $? = 2 ] || echo "pretty: exit not 2"
}
tcase "refused: other options, changed input, output without side file, stdin, pretty" mismatch

# validate writes one summary line at the end; its side file checkpoints the counts. Input:
# an invalid line, 16-given puzzles (multiple), conflicting givens, proper puzzles, twice.
for _ in 1 2; do
    grep -hv '^#' "$SAMPLES/17_clue_2000.txt" | sed 's/[1-9]/./'
    echo "not a puzzle"
    grep -hv '^#' "$SAMPLES/hardest_11plus_1000.txt" | sed 's/^../11/'
    grep -hv '^#' "$SAMPLES/top1465.txt" "$SAMPLES/hardest_11plus_1000.txt"
done >vin.txt
VARGS=(validate -t 2 -o v.txt vin.txt)
"$BIN" validate -t 2 vin.txt >vfull.txt 2>vfull.err
VRC=$?

# validate_final LABEL RC OUT FULL FULLERR ARGS...: the last `ARGS --resume` of a killed
# validate -o OUT: exit RC, OUT equal to FULL, and its stderr (the problems after its
# checkpoint) a tail of the uninterrupted run's FULLERR, shorter than it.
validate_final() {
    local label=$1 want=$2 out=$3 full=$4 fullerr=$5 rc
    shift 5
    "$BIN" "$@" --resume >/dev/null 2>last.err
    rc=$?
    [ "$rc" = "$want" ] || echo "$label: final resume: exit $rc, not $want: $(tail -n 3 last.err)"
    cmp -s "$out" "$full" || echo "$label: resumed summary differs: $(cat "$out") / $(cat "$full")"
    tail -n "$(grep -c '' last.err)" "$fullerr" | cmp -s - last.err ||
        echo "$label: the last run's stderr is not a tail of the uninterrupted run's"
    [ "$(grep -c '' last.err)" -lt "$(grep -c '' "$fullerr")" ] ||
        echo "$label: the last run started from the beginning"
}

# validate_kills: as kills, for validate; its stderr (a problem line for most records) goes
# through the shim, which kills the run once it has written K more bytes there. Checkpoints
# after every committed chunk (SUDOKUBENCH_CHECKPOINT_MS=0), so what a kill leaves depends on
# K alone, not on the clock.
validate_kills() {
    rm -f v.txt v.txt.resume verr
    local i size live=0 at=0 records=0 last rc want
    [ "$VRC" = 1 ] || echo "the uninterrupted validate exits $VRC, not 1"
    [ "$(cat vfull.txt)" = "10930 puzzles: 4930 unique, 4000 multiple, 2000 unsolvable, 2 invalid lines" ] ||
        echo "uninterrupted validate: $(cat vfull.txt)"
    RANDOM=17
    for ((i = 1; i <= 10; i++)); do
        # 1 to 30,000 bytes of stderr (of 327,033 in a whole run): ten runs stay short of the end
        want=$((1 + RANDOM % 30000))
        LD_PRELOAD="$SHIM" SB_FAULT_PATH=/verr SB_FAULT_SIGNAL=KILL SB_FAULT_SIGNAL_WRITE=$want \
            SUDOKUBENCH_CHECKPOINT_MS=0 timeout "$TIMEOUT" "$BIN" "${VARGS[@]}" --resume >/dev/null 2>>verr
        rc=$?
        [ "$rc" = 137 ] || echo "run $i: exit $rc, not 137 (SIGKILL after $want bytes of stderr)"
        grep -q '^done' v.txt.resume 2>/dev/null || live=$((live + 1))
        # FILE gets its summary only at the end: until then it is empty (or absent)
        size=$(stat -c %s v.txt 2>/dev/null || echo 0)
        if ! grep -q '^done' v.txt.resume 2>/dev/null && [ "$size" != 0 ]; then
            grep -q '^at' v.txt.resume || echo "after kill $i: v.txt holds $size bytes before the end"
        fi
        # the side file is replaced whole: the identity, then at most a checkpoint
        last=$(grep -c '' v.txt.resume 2>/dev/null || echo 0)
        [ ! -e v.txt.resume ] || [ "$last" -ge 5 ] || echo "after kill $i: side file of $last lines"
        if grep -q '^at ' v.txt.resume 2>/dev/null; then
            at=$((at + 1))
            last=$(sed -n 's/^at \([0-9]*\) .*/\1/p' v.txt.resume)
            [ "$last" -ge "$records" ] || echo "after kill $i: checkpoint went back from $records to $last"
            records=$last
        fi
    done
    validate_final "validate (checkpoint $records)" "$VRC" v.txt vfull.txt vfull.err "${VARGS[@]}"
    [ "$live" = 10 ] || echo "only $live of the 10 kills hit a run before it finished"
    [ "$at" -ge 3 ] || echo "only $at of the 10 kills came after a checkpoint"
    echo "# validate: $live kills of unfinished runs, $at after a checkpoint (the last at record $records of 10932)" >&3
}
tcase "validate: SIGKILL at ten points, resume from the checkpoint, same summary and exit code" validate_kills

validate_more() {
    local rc
    cp v.txt before.txt
    "$BIN" "${VARGS[@]}" --resume >/dev/null 2>e
    rc=$?
    [ "$rc" = 1 ] || echo "resuming a finished validate: exit $rc, not the run's 1"
    grep -qF "'v.txt' is complete: nothing to resume" e || echo "no 'complete' note: $(cat e)"
    cmp -s v.txt before.txt || echo "a finished file changed"
    "$BIN" validate -t 2 --grid 3x3 -o v.txt --resume vin.txt >/dev/null 2>e
    [ $? = 2 ] || echo "other options: exit not 2"
    grep -qF "was written by another command, other options or other input" e || echo "message: $(cat e)"
    cmp -s v.txt before.txt || echo "a refused resume changed the file"
    # SIGTERM: a clean stop checkpoints every record written (its partial summary goes)
    rm -f v.txt v.txt.resume
    # SIGTERM from inside the run, once it has written 100,000 bytes of problems (of 327,033)
    LD_PRELOAD="$SHIM" SB_FAULT_PATH=/verr SB_FAULT_SIGNAL=TERM SB_FAULT_SIGNAL_WRITE=100000 \
        timeout "$TIMEOUT" "$BIN" "${VARGS[@]}" --resume >/dev/null 2>verr
    rc=$?
    [ "$rc" = 130 ] || echo "SIGTERM: exit $rc, not 130"
    grep -q '^at [1-9]' v.txt.resume || echo "SIGTERM: no checkpoint: $(tail -n 1 v.txt.resume)"
    ! grep -q '^done' v.txt.resume || echo "SIGTERM: the side file says done"
    "$BIN" "${VARGS[@]}" --resume >/dev/null 2>e
    rc=$?
    [ "$rc" = 1 ] || echo "resumed after SIGTERM: exit $rc: $(tail -n 2 e)"
    cmp -s v.txt vfull.txt || echo "resumed after SIGTERM: $(cat v.txt)"
    # killed after the summary, before "done": the last checkpoint covers every record
    sed -i '/^done /d' v.txt.resume
    "$BIN" "${VARGS[@]}" --resume >/dev/null 2>e
    rc=$?
    [ "$rc" = 1 ] || echo "resumed after the summary: exit $rc: $(tail -n 2 e)"
    cmp -s v.txt vfull.txt || echo "resumed after the summary: $(cat v.txt)"
    [ ! -s e ] || echo "resumed after the summary: it reported again: $(head -n 2 e)"
    "$BIN" validate -o v2.txt --resume - <vin.txt >/dev/null 2>e
    [ $? = 2 ] || echo "stdin: exit not 2"
    grep -qF "needs named input files" e || echo "message: $(cat e)"
}
tcase "validate: finished file left alone, SIGTERM then resume, killed before done, other options / stdin refused" validate_more

# An input that fails part-way shifts the records after it: the side file says "broken" and a
# resume (here with the input readable again) is refused, FILE left as it is.
broken_input() {
    local cmd rc
    head -n 500 vin.txt >a.txt
    sed -n '501,1000p' vin.txt >b.txt
    for cmd in "solve -f csv" validate "rate -f csv"; do
        rm -f x.out x.out.resume
        # shellcheck disable=SC2086 # cmd is a command and its options
        LD_PRELOAD="$SHIM" SB_FAULT_PATH=/a.txt SB_FAULT_READ_EIO=5000 "$BIN" $cmd -t 2 \
            -o x.out --resume a.txt b.txt >/dev/null 2>e
        rc=$?
        [ "$rc" = 2 ] || echo "$cmd: read error: exit $rc, not 2"
        grep -qF "a.txt: read error: Input/output error" e || echo "$cmd: message: $(cat e)"
        [ "$(tail -n 1 x.out.resume)" = broken ] || echo "$cmd: side file ends with $(tail -n 1 x.out.resume)"
        cp x.out x.before
        # shellcheck disable=SC2086
        "$BIN" $cmd -t 2 -o x.out --resume a.txt b.txt >/dev/null 2>e
        rc=$?
        [ "$rc" = 2 ] || echo "$cmd: resume after a read error: exit $rc, not 2"
        grep -qF "an input of the run that wrote 'x.out' failed part-way" e || echo "$cmd: message: $(cat e)"
        cmp -s x.out x.before || echo "$cmd: a refused resume changed the file"
    done
}
tcase "an input failing part-way marks the side file; solve, validate, rate refuse to resume it" broken_input

# Every geometry resumes as 9x9 does. Inputs: a 16x16 (4x4 boxes, found
# from the cell count) and a 6x6 (--grid 2x3) with puzzles made ambiguous, an invalid line, a
# blank and a comment line. Each run is killed by the shim at several points of FILE (or of
# stderr for validate), each time resumed; the finished FILE is byte-identical to an
# uninterrupted run and the last run exits with that run's code.
"$BIN" generate --grid 4x4 -n 120 --seed 5 -t 2 >g16.txt 2>/dev/null
# (16 rounds of 121 records: validate checkpoints once per committed chunk of 256 records)
for _ in $(seq 16); do
    echo "# a comment"; head -n 60 g16.txt; echo; echo "not a 16x16 line"
    sed -n '61,120p' g16.txt | sed 's/[1-9A-G]/./'
done >g16in.txt
"$BIN" generate --grid 2x3 -n 3000 --seed 5 -t 2 >g6.txt 2>/dev/null
{ head -n 1500 g6.txt; echo "# a comment"; echo "123"; echo
  sed -n '1501,3000p' g6.txt | sed 's/[1-6]/./'; } >g6in.txt

# kill_resume OUT FULL RC N ARGS...: N runs of `ARGS -o OUT --resume`, each SIGKILLed by the
# shim once it has written 1 byte to a tenth of what is left of FULL into OUT (mid-run
# whatever the speed, usually inside a record), then one more resume: OUT equals FULL and the
# last run exits RC.
kill_resume() {
    local out=$1 full=$2 want_rc=$3 n=$4 i rc size=0 total left want
    shift 4
    rm -f "$out" "$out.resume"
    total=$(stat -c %s "$full")
    [ "$total" -gt 100 ] || echo "$*: the uninterrupted output is only $total bytes"
    for ((i = 1; i <= n; i++)); do
        left=$((total - size))
        want=$((1 + (RANDOM * 32768 + RANDOM) % (left / 10)))
        LD_PRELOAD="$SHIM" SB_FAULT_PATH="/$out" SB_FAULT_SIGNAL=KILL SB_FAULT_SIGNAL_WRITE=$want \
            timeout "$TIMEOUT" "$BIN" "$@" -o "$out" --resume >/dev/null 2>>gerr
        rc=$?
        [ "$rc" = 137 ] || echo "$*: run $i: exit $rc, not 137 (SIGKILL after $want bytes)"
        size=$(stat -c %s "$out" 2>/dev/null || echo 0)
        cmp -s -n "$size" "$out" "$full" || echo "$*: after kill $i: not a prefix of the full output"
    done
    "$BIN" "$@" -o "$out" --resume >/dev/null 2>>gerr
    rc=$?
    [ "$rc" = "$want_rc" ] || echo "$*: final resume: exit $rc, not $want_rc: $(tail -n 2 gerr)"
    cmp -s "$out" "$full" || echo "$*: resumed output differs: $(cmp "$out" "$full" 2>&1)"
}

geometry_kills() {
    local f in rc
    RANDOM=24
    for in in g16in.txt g6in.txt; do
        set -- "$in"
        [ "$in" = g6in.txt ] && set -- --grid 2x3 "$in"
        for f in solution csv json tdoku; do
            "$BIN" solve -f $f -t 2 "$@" >gfull.out 2>/dev/null
            rc=$?
            [ "$rc" = 1 ] || echo "$in -f $f: the uninterrupted run exits $rc, not 1 (an invalid line)"
            kill_resume g.out gfull.out "$rc" 4 solve -f $f -t 2 "$@"
        done
        "$BIN" rate -f csv -t 2 "$@" >gfull.out 2>/dev/null
        kill_resume g.out gfull.out "$?" 3 rate -f csv -t 2 "$@"
    done
}
tcase "16x16 and 6x6: solve (4 formats) and rate killed at several points, resumed, byte-identical" geometry_kills

# validate on a geometry: killed three times at a fifth to a quarter of the uninterrupted
# run's stderr (a problem line per ambiguous puzzle: every kill lands after a checkpoint and
# before the end), checkpointing after every committed chunk, then resumed: the same summary,
# exit code and the tail of the stderr.
geometry_validate() {
    local in i rc want
    RANDOM=25
    for in in g16in.txt g6in.txt; do
        set -- "$in"
        [ "$in" = g6in.txt ] && set -- --grid 2x3 "$in"
        "$BIN" validate -t 2 "$@" >gvfull.txt 2>gvfull.err
        local vrc=$? total
        total=$(stat -c %s gvfull.err)
        rm -f gv.txt gv.txt.resume gverr
        for ((i = 1; i <= 3; i++)); do
            want=$((total / 5 + RANDOM % (total / 20)))
            LD_PRELOAD="$SHIM" SB_FAULT_PATH=/gverr SB_FAULT_SIGNAL=KILL SB_FAULT_SIGNAL_WRITE=$want \
                SUDOKUBENCH_CHECKPOINT_MS=0 timeout "$TIMEOUT" "$BIN" validate -t 2 "$@" -o gv.txt \
                --resume >/dev/null 2>>gverr
            rc=$?
            [ "$rc" = 137 ] || echo "validate $in: run $i: exit $rc, not 137"
        done
        grep -q '^at [1-9]' gv.txt.resume || echo "validate $in: no checkpoint after 3 kills"
        validate_final "validate $in" "$vrc" gv.txt gvfull.txt gvfull.err validate -t 2 "$@" -o gv.txt
    done
}
tcase "16x16 and 6x6: validate killed at points of stderr, resumed from its checkpoint, same summary" geometry_validate

geometry_all() {
    "$BIN" solve --all -o ga.out --resume g6in.txt --grid 2x3 >/dev/null 2>e
    [ $? = 2 ] || echo "solve --all --resume: exit not 2"
    grep -qF -- "--resume: not with --all" e || echo "solve --all --resume: message: $(cat e)"
    [ ! -s ga.out ] || echo "solve --all --resume wrote output"
}
tcase "solve --all --resume is refused with a message" geometry_all

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
