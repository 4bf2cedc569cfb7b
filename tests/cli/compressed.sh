#!/usr/bin/env bash
# tests/cli/compressed.sh — compressed inputs (docs/cli.md "Input"): a gzip, zstd or xz file
# (told by its first bytes, whatever its name) reads exactly as the plain file: the same
# records, messages (but the name), exit codes for solve, validate, rate, augment and bench
# (its counts and notes), on 9x9 and 16x16 (--grid and detected), from a file or a pipe, with
# any -t, and for --resume; a truncated file is one error naming it, exit 2; a zip archive or a
# NUL byte is one error line, exit 2.
#
# Usage: tests/cli/compressed.sh [BINARY]   (default build/sudokubench; run from the repo root)
#
# The compressed files are made here with gzip, zstd and xz (Debian: gzip, zstd, xz-utils);
# a format whose tool is missing, or that this build reads not (built without its library:
# the binary says so), has its cases skipped with a note.

set -u

BIN=${1:-build/sudokubench}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}

# shellcheck source=tests/cli/harness.sh
. "$ROOT/tests/cli/harness.sh" compressed
# want_rc GOT WANT WHAT
want_rc() { [ "$1" = "$2" ] || echo "$3: exit $1, want $2"; }
# want_same A B WHAT: files A and B hold the same bytes
want_same() { cmp -s "$1" "$2" || { echo "$3: $1 and $2 differ:"; diff "$1" "$2" | head -n 10; }; }
# want_lines FILE N: FILE holds exactly N lines
want_lines() { [ "$(wc -l <"$1")" = "$2" ] || { echo "$1: $(wc -l <"$1") lines, want $2:"; head -n 5 "$1"; }; }
# want_grep FILE PATTERN
want_grep() { grep -q -- "$2" "$1" || { echo "$1 lacks '$2':"; head -n 5 "$1"; }; }

# ---- inputs, made before the first case --------------------------------------------------
# 9x9: the golden mixed file (puzzles, invalid lines, comments, a CSV-like line) and the
# first 300 lines of top1465; 16x16: puzzles of the generator with a comment line first.
cat "$ROOT/tests/cli/golden/mixed.txt" >plain.txt
head -n 300 "$ROOT/datasets/samples/top1465.txt" >>plain.txt
{
    echo "# sixteen"
    "$BIN" generate --grid 4x4 -n 8 --seed 5 2>/dev/null
} >g16.txt
# KINDS: the formats this run checks (tool present, build reads it)
KINDS=
printf '1\n' | gzip -c >probe.gz
for k in gz zst xz; do
    case $k in
    gz) tool="gzip -c" lib=zlib ;;
    zst) tool="zstd -q -c" lib=libzstd ;;
    xz) tool="xz -c" lib=liblzma ;;
    esac
    if ! command -v "${tool%% *}" >/dev/null; then
        echo "# note: ${tool%% *} is not installed: .$k cases skipped"
        continue
    fi
    $tool <plain.txt >"plain.$k"
    $tool <g16.txt >"g16.$k"
    if "$BIN" validate "plain.$k" 2>&1 >/dev/null | grep -q "built without $lib"; then
        echo "# note: this build reads no .$k (built without $lib): its cases check that message"
        MISSING="${MISSING:-} $k"
        continue
    fi
    KINDS="$KINDS $k"
done

# same_run NAME ARGS...: runs ARGS... on plain.txt and on plain.K for each kind: stdout and
# exit code the same, stderr the same once the input's name is made the plain one
same_run() {
    local name=$1 k rc0 rc
    shift
    rc0=$(sb plain.out plain.err "$@" plain.txt)
    for k in $KINDS; do
        rc=$(sb "$k.out" "$k.err" "$@" "plain.$k")
        want_rc "$rc" "$rc0" "$name .$k"
        want_same plain.out "$k.out" "$name .$k stdout"
        # --stats: the time and rate are no part of what must match
        sed "s/plain\\.$k/plain.txt/g; s/, [0-9.]* s, [0-9.]* puzzles\/s\$//" "$k.err" >"$k.err.named"
        sed -i 's/, [0-9.]* s, [0-9.]* puzzles\/s$//' plain.err
        want_same plain.err "$k.err.named" "$name .$k stderr"
    done
}

c_solve() { same_run solve solve; }
c_solve_csv() { same_run "solve -f csv" solve -f csv --stats; }
c_validate() { same_run validate validate; }
c_rate() { same_run rate rate; }
c_augment() { same_run augment augment -n 2 --seed 3; }
c_threads() {
    local k rc1 rc2
    for k in $KINDS; do
        rc1=$(sb t1.out t1.err solve -t 1 "plain.$k")
        rc2=$(sb t2.out t2.err solve -t 2 "plain.$k")
        want_rc "$rc2" "$rc1" "-t 2 vs -t 1 .$k"
        want_same t1.out t2.out "-t 1 vs -t 2 .$k stdout"
        want_same t1.err t2.err "-t 1 vs -t 2 .$k stderr"
    done
}
# bench: the puzzles per row and the deterministic columns (%no_guess, guesses/puzzle), not
# the speed; the dataset is named after the file
c_bench() {
    local k rc0 rc
    rc0=$(sb b0.out b0.err bench --seconds 0.01 --pipelines fast,restart plain.txt)
    awk -F'|' '/^\| plain/ { print $3, $4, $7, $8 }' b0.out >b0.rows
    [ -s b0.rows ] || echo "bench plain: no rows"
    for k in $KINDS; do
        rc=$(sb b.out b.err bench --seconds 0.01 --pipelines fast,restart "plain.$k")
        want_rc "$rc" "$rc0" "bench .$k"
        awk -F'|' '/^\| plain/ { print $3, $4, $7, $8 }' b.out >b.rows
        want_same b0.rows b.rows "bench .$k rows"
        sed "s/plain\\.$k/plain.txt/g" b.err >b.err.named
        want_same b0.err b.err.named "bench .$k notes"
    done
}
c_grid16() {
    local k rc0 rc
    rc0=$(sb g0.out g0.err solve --grid 4x4 g16.txt)
    want_rc "$rc0" 0 "16x16 plain"
    want_lines g0.out 8
    for k in $KINDS; do
        rc=$(sb g.out g.err solve --grid 4x4 "g16.$k")
        want_rc "$rc" 0 "16x16 --grid .$k"
        want_same g0.out g.out "16x16 --grid .$k"
        # no option: the geometry is told from the decompressed first puzzle line
        rc=$(sb g.out g.err solve "g16.$k")
        want_rc "$rc" 0 "16x16 detected .$k"
        want_same g0.out g.out "16x16 detected .$k"
    done
}
c_stdin() {
    local k rc0 rc
    rc0=$(sb s0.out s0.err solve - <plain.txt)
    for k in $KINDS; do
        rc=$(cat "plain.$k" | timeout "$TIMEOUT" "$BIN" solve - 2>s.err >s.out; echo $?)
        want_rc "$rc" "$rc0" "pipe .$k"
        want_same s0.out s.out "pipe .$k stdout"
        want_same s0.err s.err "pipe .$k stderr"
        rc=$(sb s.out s.err solve - <"plain.$k")
        want_rc "$rc" "$rc0" "stdin file .$k"
        want_same s0.out s.out "stdin file .$k stdout"
        rc=$(cat "g16.$k" | timeout "$TIMEOUT" "$BIN" solve 2>s.err >s.out; echo $?)
        want_rc "$rc" 0 "pipe 16x16 detected .$k"
        sb g0.out g0.err solve --grid 4x4 g16.txt >/dev/null
        want_same g0.out s.out "pipe 16x16 detected .$k"
    done
}
# several gzip members (pigz, cat a.gz b.gz) read as their concatenation
c_members() {
    case " $KINDS " in *" gz "*) ;; *) return 0 ;; esac
    head -n 100 plain.txt | gzip -c >two.gz
    tail -n +101 plain.txt | gzip -c >>two.gz
    local rc0 rc
    rc0=$(sb m0.out m0.err solve plain.txt)
    rc=$(sb m.out m.err solve two.gz)
    want_rc "$rc" "$rc0" "two members"
    want_same m0.out m.out "two members"
}
# a cut file: the records decoded before the cut (a prefix of the plain run's: a decoder may
# hold a whole block back), then one message naming it, exit 2
c_truncated() {
    local k n rc
    sb p.out p.err solve plain.txt >/dev/null
    for k in $KINDS; do
        n=$(wc -c <"plain.$k")
        head -c $((n - 9)) "plain.$k" >"cut.$k"
        rc=$(sb c.out c.err solve "cut.$k")
        want_rc "$rc" 2 "truncated .$k"
        cmp -s -n "$(wc -c <c.out)" c.out p.out || echo "truncated .$k: not a prefix of the records"
        [ "$(grep -c 'read error' c.err)" = 1 ] || { echo "truncated .$k: not one read error:"; cat c.err; }
        want_grep c.err "cut\\.$k: read error: compressed data is truncated or corrupt"
    done
    # a file that stops inside the gzip header
    case " $KINDS " in *" gz "*)
        head -c 5 plain.gz >short.gz
        rc=$(sb c.out c.err validate short.gz)
        want_rc "$rc" 2 "5-byte .gz"
        want_lines c.err 1
        want_grep c.err "short\\.gz: read error: compressed data is truncated or corrupt"
        ;;
    esac
}
# binary that is no puzzle text: one line naming the file and what it seems to be, exit 2,
# and the other inputs read all the same
c_binary() {
    local rc
    printf 'PK\003\004\024\000\000\000plain.txt\n' >arch.zip
    printf '1...\000....\n2...\n3...\n' >nul.txt
    printf 'BZh91AY&SY\n' >data.bz2
    rc=$(sb z.out z.err solve arch.zip)
    want_rc "$rc" 2 "zip"
    want_lines z.err 1
    want_grep z.err "arch\\.zip: a zip archive, not puzzle text"
    rc=$(sb z.out z.err validate nul.txt)
    want_rc "$rc" 2 "NUL byte"
    want_lines z.err 1
    want_grep z.err "nul\\.txt: binary"
    rc=$(sb z.out z.err rate data.bz2)
    want_rc "$rc" 2 "bzip2"
    want_grep z.err "data\\.bz2: bzip2-compressed, not puzzle text"
    [ "$(grep -c . z.err)" -le 2 ] || { echo "bzip2: more than one message:"; cat z.err; }
    rc=$(sb z.out z.err solve arch.zip "$ROOT/tests/cli/golden/mixed.txt")
    want_rc "$rc" 2 "zip then text"
    want_lines z.out "$(wc -l <"$ROOT/tests/cli/golden/mixed.solution.out")"
    rc=$(sb z.out z.err solve --grid 4x4 nul.txt)
    want_rc "$rc" 2 "NUL byte, 16x16"
    want_lines z.err 1
}
# --resume reads a compressed input again and skips the records already written
c_resume() {
    local k rc
    for k in $KINDS; do
        rm -f r.out r.out.resume
        rc=$(sb r.stdout r.err solve -o r.out --resume "plain.$k")
        want_rc "$rc" 1 "resume first run .$k"
        cp r.out r.full
        head -n 40 r.full >r.out # as if killed after 40 records
        sed -i '/^done /d' r.out.resume
        rc=$(sb r.stdout r.err solve -o r.out --resume "plain.$k")
        want_rc "$rc" 1 "resumed .$k"
        want_same r.full r.out "resumed .$k"
    done
}
# a build without a decompressor names the library, once, exit 2
c_missing() {
    local k rc
    for k in ${MISSING:-}; do
        rc=$(sb x.out x.err solve "plain.$k")
        want_rc "$rc" 2 "no .$k reader"
        want_lines x.err 1
        want_grep x.err "and this build reads no"
    done
}

tcase "solve: compressed = plain" c_solve
tcase "solve -f csv --stats: compressed = plain" c_solve_csv
tcase "validate: compressed = plain" c_validate
tcase "rate: compressed = plain" c_rate
tcase "augment: compressed = plain" c_augment
tcase "-t 1 and -t 2: the same bytes" c_threads
tcase "bench: the same counts and notes" c_bench
tcase "16x16: --grid 4x4 and detected" c_grid16
tcase "standard input: a pipe and a file" c_stdin
tcase "gzip: several members" c_members
tcase "truncated: one error naming the file, exit 2" c_truncated
tcase "zip, bzip2, NUL byte: one error, exit 2" c_binary
tcase "--resume on a compressed input" c_resume
tcase "a decompressor not built in: said once" c_missing

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
