#!/usr/bin/env bash
# tests/cli/paths.sh — the one rule for paths (docs/cli.md, "Outputs and inputs"): nothing a
# run writes is something it reads, and every file it writes is whole or absent.
#
#   1. The property, over every (writer, reader, name) triple: a writer is -o FILE of each
#      command, the --resume side file FILE.resume, bench --json FILE, and standard output
#      redirected with `>>` and `>`; a reader is a puzzle FILE operand, standard input and
#      --geometry FILE; the name under which the writer reaches the reader's file is the same
#      name, ./NAME, a hard link, a symbolic link and /dev/fd/N. Every triple is refused with
#      exit 2 and a message naming both files, and no byte of the input changes (with `>` the
#      shell has emptied the file before the run starts: the run must add nothing to it).
#   2. Temporaries cannot be inputs: an input named like the old side file temporary
#      (FILE.resume.tmp) is read, never written.
#   3. A side file or a --json file that cannot be written whole is a write error (exit 2),
#      and nothing torn is left: no temporary, the old file as it was.
#   4. --resume names a run by the meaning of its options, not their spelling or order, and
#      refuses an input that cannot be read again (a FIFO, a pipe) before FILE is touched.
#
# Usage: tests/cli/paths.sh [BINARY]    (default build/sudokubench; run from the repo root)
# Prints `ok - NAME` / `not ok - NAME` per case and ends with `N passed, M failed`. Faults are
# injected at a byte count by the fault shim (tests/fault/shim.c), never at a point in time.

set -u

BIN=${1:-build/sudokubench}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}

# scratch directory, environment, tcase, sb and with_shim: the shared CLI test harness
. "$ROOT/tests/cli/harness.sh" paths

# Puzzles with known answers (checked with tests/dlx.c): P1 and P2 are unique.
P1='..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..'
S1='425186379317952486986743215163874952279531648548629137652418793791365824834297561'
P2='.4.7.28........2.9928.4......38.7.1.....2.....7.9.14......5.1935.6........91.4.85'
S2='145792836367518249928643571453867912891425367672931458784256193516389724239174685'
printf '# two unique puzzles\n%s\n%s\n' "$P1" "$P2" >puzzles.orig
printf '%s\n%s\n' "$S1" "$S2" >solutions.expected
cp "$ROOT/tests/data/jigsaw6.txt" geometry.orig

# restore NAME ORIG: puts ORIG's bytes back into NAME in place (its links kept)
restore() { cat "$2" >"$1"; }
# unchanged NAME ORIG: complains unless NAME holds ORIG's bytes
unchanged() {
    cmp -s "$1" "$2" || echo "the input $1 changed: $(stat -c %s "$1") bytes, was $(stat -c %s "$2")"
}
# err_has E TEXT: complains unless stderr file E has a line containing TEXT
err_has() { grep -qF -- "$2" "$1" || echo "stderr lacks '$2': $(head -n 3 "$1")"; }
# no_temporaries: complains about any temporary (*.tmp) left in the scratch directory
no_temporaries() {
    local left
    left=$(find . -maxdepth 1 -name '*.tmp' ! -name 'keep.resume.tmp' | head -n 3)
    [ -z "$left" ] || echo "temporaries left behind: $left"
}

# ---- 1. the property ------------------------------------------------------------------------
# alias KIND FILE: prints the name under which a writer reaches FILE as KIND (same: FILE,
# dot: ./FILE, hard: a hard link, sym: a symbolic link, fd: /dev/fd/3, opened by the runner)
alias_of() {
    rm -f alias-"$2"
    case $1 in
    same) printf '%s' "$2" ;;
    dot) printf './%s' "$2" ;;
    hard) ln "$2" alias-"$2" && printf 'alias-%s' "$2" ;;
    sym) ln -s "$2" alias-"$2" && printf 'alias-%s' "$2" ;;
    fd) printf '/dev/fd/3' ;;
    esac
}

# check_triple WRITER READER KIND: runs WRITER aimed, through a KIND name, at the file that
# READER reads; complains unless the run is refused (exit 2, a message naming the option)
# and the file keeps every byte.
check_triple() {
    local writer=$1 reader=$2 kind=$3 file=in.txt orig=puzzles.orig
    local input=(in.txt) geo=() args=() name want rc
    [ "$reader" = geometry ] && { file=geo.txt; orig=geometry.orig; geo=(--geometry geo.txt); }
    [ "$writer" = resume ] && [ "$kind" = fd ] && return 0 # a side file is FILE.resume: no /dev/fd name
    if [ "$writer" = resume ]; then
        # the writer is -o BASE's side file BASE.resume: the file under test gets that name
        case $kind in
        same | dot) file=r.resume ;;
        hard | sym) file=$file ;;
        esac
        [ "$reader" = geometry ] && geo=(--geometry "$file") || input=("$file")
    fi
    rm -f in.txt geo.txt r.resume r
    cp puzzles.orig in.txt
    cp "$orig" "$file"
    [ "$reader" = stdin ] && input=()
    name=$(alias_of "$kind" "$file")
    case $writer in
    solve-o) args=(solve -t 2 -o "$name") want="for -o" ;;
    validate-o) args=(validate -o "$name") want="for -o" ;;
    rate-o) args=(rate -o "$name") want="for -o" ;;
    augment-o) args=(augment -n 2 -o "$name") want="for -o" ;;
    json) args=(bench --seconds 0 --pipelines fast --json "$name") want="for --json" ;;
    resume)
        case $kind in
        same) args=(solve --resume -o r) ;;
        dot) args=(solve --resume -o ./r) ;;
        hard | sym) args=(solve --resume -o "${name%.txt}") && mv "$name" "${name%.txt}.resume" ;;
        esac
        want="for --resume"
        ;;
    append | truncate) args=(solve) want="standard output is the" ;;
    esac
    [ "$writer" = json ] && [ "$reader" = stdin ] && input=(-)
    args+=("${geo[@]}" "${input[@]}")
    local stdin=/dev/null
    [ "$reader" = stdin ] && stdin=$file
    case $writer/$kind in
    append/fd) exec 4>>"$file" ;;
    append/*) exec 4>>"$name" ;;
    truncate/fd) exec 4>"$file" ;;
    truncate/*) exec 4>"$name" ;;
    *) exec 4>o.txt ;;
    esac
    timeout "$TIMEOUT" "$BIN" "${args[@]}" 3<"$file" <"$stdin" >&4 2>e.txt
    rc=$?
    exec 4>&-
    [ "$rc" = 2 ] || echo "$writer/$reader/$kind: exit $rc, not 2 ($(head -n 2 e.txt))"
    # `> GEOMETRY` leaves an empty geometry, refused as such before any path is looked at
    [ "$writer/$reader" = truncate/geometry ] || err_has e.txt "$want"
    if [ "$writer" = truncate ]; then
        # the shell emptied it before the run; the run must have written nothing into it
        [ ! -s "$file" ] || echo "$writer/$reader/$kind: the run wrote $(stat -c %s "$file") bytes into its input"
    else
        cmp -s "$file" "$orig" || echo "$writer/$reader/$kind: $file changed ($(stat -c %s "$file") bytes)"
    fi
    no_temporaries
    return 0
}

for writer in solve-o validate-o rate-o augment-o resume json append truncate; do
    for reader in operand stdin geometry; do
        property() {
            local kind
            for kind in same dot hard sym fd; do
                check_triple "$writer" "$reader" "$kind"
            done
        }
        tcase "no input byte changes: $writer aimed at the $reader's file (same name, ./, hard link, symlink, /dev/fd/3)" property
    done
done

# ---- 2. temporaries are never inputs --------------------------------------------------------
resume_tmp_input() {
    rm -f keep keep.resume
    cp puzzles.orig keep.resume.tmp
    local rc
    rc=$(sb o e solve -o keep --resume keep.resume.tmp)
    [ "$rc" = 0 ] || echo "solve: exit $rc ($(head -n 2 e))"
    unchanged keep.resume.tmp puzzles.orig
    cmp -s keep solutions.expected || echo "keep: $(head -n 2 keep)"
    rm -f v v.resume
    rc=$(sb o e validate -o v --resume keep.resume.tmp)
    [ "$rc" = 0 ] || echo "validate: exit $rc ($(head -n 2 e))"
    unchanged keep.resume.tmp puzzles.orig
    [ "$(cat v)" = "2 puzzles: 2 unique, 0 multiple, 0 unsolvable, 0 invalid lines" ] ||
        echo "v: $(cat v)"
    rc=$(sb o e rate -o r --resume keep.resume.tmp)
    [ "$rc" = 0 ] || echo "rate: exit $rc ($(head -n 2 e))"
    unchanged keep.resume.tmp puzzles.orig
    no_temporaries
}
tcase "an input named FILE.resume.tmp is read, never written (solve, validate, rate --resume)" resume_tmp_input

json_symlink_geometry() {
    restore geo.txt geometry.orig
    rm -f link.json
    ln -s geo.txt link.json
    local rc
    rc=$(sb o e bench --seconds 0 --pipelines fast --geometry geo.txt --json link.json puzzles.orig)
    [ "$rc" = 2 ] || echo "exit $rc"
    err_has e "sudokubench: cannot open 'link.json' for --json: it is also the input 'geo.txt'"
    unchanged geo.txt geometry.orig
}
tcase "bench --json through a symbolic link to the --geometry FILE: exit 2, geometry intact" json_symlink_geometry

append_self() {
    restore in.txt puzzles.orig
    local rc
    rc=$(timeout "$TIMEOUT" "$BIN" solve -t 1 in.txt 2>e >>in.txt; echo $?)
    [ "$rc" = 2 ] || echo "exit $rc"
    err_has e "sudokubench: standard output is the input 'in.txt': an input is never written to"
    unchanged in.txt puzzles.orig
}
tcase "solve F >> F: refused with exit 2, F not grown" append_self

# ---- 3. whole or absent ---------------------------------------------------------------------
json_torn() {
    printf 'old\n' >bench.json
    cp bench.json bench.json.orig
    local rc
    rc=$(SB_FAULT_PATH=.tmp SB_FAULT_WRITE_AFTER=100 with_shim bench --seconds 0 --pipelines fast \
        --json bench.json puzzles.orig >o 2>e; echo $?)
    [ "$rc" = 2 ] || echo "exit $rc ($(head -n 2 e))"
    err_has e "sudokubench: write error: bench.json: No space left on device"
    unchanged bench.json bench.json.orig
    no_temporaries
    rm -f fresh.json
    rc=$(SB_FAULT_PATH=.tmp SB_FAULT_WRITE_AFTER=100 with_shim bench --seconds 0 --pipelines fast \
        --json fresh.json puzzles.orig >o 2>e; echo $?)
    [ "$rc" = 2 ] || echo "fresh: exit $rc"
    [ ! -e fresh.json ] || echo "a torn fresh.json was left: $(stat -c %s fresh.json) bytes"
    no_temporaries
    rc=$(sb o e bench --seconds 0 --pipelines fast --json fresh.json puzzles.orig)
    [ "$rc" = 0 ] || echo "unfaulted: exit $rc"
    python3 -c 'import json,sys; json.load(open("fresh.json"))' 2>/dev/null || echo "fresh.json is not JSON"
}
tcase "bench --json that cannot be written whole: exit 2, the old file as it was, no temporary" json_torn

side_unwritable() {
    # The side file's first write (its identity) goes through; the checkpoint's fails (a disk
    # filling up between the two).
    rm -f v v.resume
    local rc id
    rc=$(sb o e validate -o v --resume puzzles.orig)
    [ "$rc" = 0 ] || echo "reference run: exit $rc"
    id=$(sed '/^at /,$d' v.resume | wc -c)
    rm -f v v.resume
    rc=$(SB_FAULT_PATH=.tmp SB_FAULT_WRITE_AFTER=$((id + 4)) with_shim validate -o v --resume \
        puzzles.orig >o 2>e; echo $?)
    [ "$rc" = 2 ] || echo "exit $rc ($(head -n 2 e))"
    err_has e "sudokubench: --resume: write error: cannot update 'v.resume': No space left on device"
    no_temporaries
    [ "$(sed '/^at /,$d' v.resume | wc -c)" = "$id" ] || echo "v.resume is not the identity alone: $(cat v.resume)"
    grep -q '^done' v.resume && echo "v.resume says done after a failed checkpoint"
    # solve: the closing "done" line cannot be written
    rm -f s s.resume
    rc=$(sb o e solve -o s --resume puzzles.orig)
    id=$(grep -v '^done' s.resume | wc -c)
    rm -f s s.resume
    rc=$(SB_FAULT_PATH=.tmp SB_FAULT_WRITE_AFTER=$((id + 2)) with_shim solve -o s --resume \
        puzzles.orig >o 2>e; echo $?)
    [ "$rc" = 2 ] || echo "solve: exit $rc ($(head -n 2 e))"
    err_has e "sudokubench: --resume: write error: cannot update 's.resume': No space left on device"
    no_temporaries
    return 0
}
tcase "a side file that cannot be updated: exit 2, no temporary left, the last whole side file kept" side_unwritable

# ---- 4. --resume's promises -----------------------------------------------------------------
resume_meaning() {
    rm -f R R.resume
    local rc
    rc=$(sb o e solve -l 5 -f csv -t 2 -o R --resume puzzles.orig)
    [ "$rc" = 0 ] || echo "first run: exit $rc"
    local spelling
    for spelling in "--resume --output=R --format=csv --limit 5" "-fcsv --resume -l5 -oR -t1" \
        "--limit=5 --out R --resume --form csv --simd scalar"; do
        # shellcheck disable=SC2086 # a word list on purpose
        rc=$(sb o e solve $spelling puzzles.orig)
        [ "$rc" = 0 ] || echo "'$spelling': exit $rc ($(head -n 1 e))"
        err_has e "sudokubench: 'R' is complete: nothing to resume"
    done
    rc=$(sb o e solve --resume -o R -f csv -l 6 puzzles.orig)
    [ "$rc" = 2 ] || echo "another limit: exit $rc"
    err_has e "was written by another command, other options or other input"
}
tcase "--resume: the same options in another order or spelling are the same run; another value is not" resume_meaning

resume_fifo() {
    rm -f Q Q.resume fifo
    mkfifo fifo
    local rc
    rc=$(sb o e solve -o Q --resume fifo)
    [ "$rc" = 2 ] || echo "FIFO: exit $rc"
    err_has e "sudokubench: --resume needs inputs that can be read again: 'fifo' is not a regular file (a pipe or a FIFO)"
    [ ! -e Q ] || echo "Q was created"
    rc=$(timeout "$TIMEOUT" "$BIN" validate -o Q --resume <(cat puzzles.orig) 2>e >o; echo $?)
    [ "$rc" = 2 ] || echo "pipe: exit $rc"
    err_has e "--resume needs inputs that can be read again"
    [ ! -e Q ] || echo "Q was created"
}
tcase "--resume on a FIFO or <(...): refused up front with the reason, FILE not created" resume_fifo

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
