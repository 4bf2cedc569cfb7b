#!/usr/bin/env bash
# tests/install/run.sh — make install into a fresh DESTDIR, then use the installed tree as an
# outside project would: file list, soname and exported symbols of the shared library,
# pkg-config, the examples built with pkg-config against the shared and the static library
# and run, the man pages (man sudokubench-COMMAND shows every option of COMMAND --help), the
# bash completion; then make uninstall removes exactly those files.
#
# Usage (from mk/install.mk, target test-install): run.sh MAKE [MAKE-VARIABLES...]
# Environment: CC, EX_CFLAGS (sanitizer flags of a SAN=1 build), CROSS and QEMU_RUN (a cross
# build: programs run under qemu), PREFIX, BIN_RUN (the CLI, or its qemu wrapper),
# PY_INSTALLED (the Python package's installed files, absolute, empty when make install leaves
# it out) and PYTHON (the interpreter that imports it).
set -euo pipefail
cd "$(dirname "$0")/../.."
make_cmd=$1
shift
PREFIX=${PREFIX:-/usr/local}
CC=${CC:-cc}
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
D=$work/root
mkdir -p "$D"
"$make_cmd" --no-print-directory "$@" install DESTDIR="$D" PREFIX="$PREFIX" > "$work/install.log" ||
    { cat "$work/install.log"; fail "make install"; }
P=$D$PREFIX

# --- the file list: exactly what the issue names, one man page per command
version=$(sed -n 's/^#define SB_VERSION "\(.*\)"/\1/p' include/sudokubench.h)
major=${version%%.*}
commands=$("$BIN_RUN" --help | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
[ -n "$commands" ] || fail "no commands in sudokubench --help"
{
    echo "bin/sudokubench"
    echo "include/sudokubench.h"
    echo "include/sudokubench_plugin.h"
    echo "lib/libsudokubench.a"
    echo "lib/libsudokubench.so"
    echo "lib/libsudokubench.so.$major"
    echo "lib/libsudokubench.so.$version"
    echo "lib/pkgconfig/sudokubench.pc"
    echo "share/bash-completion/completions/sudokubench"
    echo "share/man/man1/sudokubench.1"
    for c in $commands; do echo "share/man/man1/sudokubench-$c.1"; done
    for f in ${PY_INSTALLED:-}; do
        case $f in "$PREFIX"/*) echo "${f#"$PREFIX"/}" ;; *) fail "Python file $f is not under PREFIX $PREFIX" ;; esac
    done
} | sort > "$work/expected"
(cd "$P" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort) > "$work/installed"
diff -u "$work/expected" "$work/installed" || fail "installed files differ from the expected list"
[ "$(readlink "$P/lib/libsudokubench.so")" = "libsudokubench.so.$major" ] || fail ".so link"
[ "$(readlink "$P/lib/libsudokubench.so.$major")" = "libsudokubench.so.$version" ] || fail ".so.$major link"
cmp -s include/sudokubench.h "$P/include/sudokubench.h" || fail "installed header differs"
cmp -s include/sudokubench_plugin.h "$P/include/sudokubench_plugin.h" || fail "installed plug-in header differs"

# --- the shared library: soname, and exactly the header's functions exported
readelf=${CROSS}readelf
nm=${CROSS}nm
"$readelf" -d "$P/lib/libsudokubench.so.$version" | grep -q "(SONAME).*\[libsudokubench.so.$major\]" ||
    fail "soname is not libsudokubench.so.$major"
grep -E '^[a-z]' include/sudokubench.h | grep -v '^typedef' | grep -oE '\bsb_[a-z0-9_]+ *\(' |
    sed -E 's/ *\($//' | sort -u > "$work/declared"
"$nm" -D --defined-only "$P/lib/libsudokubench.so.$version" | awk '{print $3}' |
    sed 's/@.*//' | grep -v '^SUDOKUBENCH_' | sort -u > "$work/exported"
diff -u "$work/declared" "$work/exported" || fail "exported symbols differ from the header's functions"
echo "test-install: $(wc -l < "$work/exported") functions exported, all declared in the header"

# --- pkg-config over the DESTDIR
export PKG_CONFIG_SYSROOT_DIR=$D PKG_CONFIG_LIBDIR=$P/lib/pkgconfig PKG_CONFIG_PATH=
[ "$(pkg-config --modversion sudokubench)" = "$version" ] || fail "pkg-config --modversion"
flags=$(echo $(pkg-config --cflags --libs sudokubench))
[ "$flags" = "-I$P/include -L$P/lib -lsudokubench" ] || fail "pkg-config --cflags --libs gave '$flags'"
cflags=$(pkg-config --cflags sudokubench)
libdirs=$(pkg-config --libs-only-L sudokubench)
libnames=$(pkg-config --libs-only-l sudokubench)
private=$(pkg-config --static --libs-only-other sudokubench)

# run PROGRAM [ARGS]: natively, or under qemu with the installed library directory
run() {
    if [ -n "${CROSS:-}" ]; then
        $QEMU_RUN --libs "$P/lib" "$@"
    else
        LD_LIBRARY_PATH=$P/lib "$@"
    fi
}
run_static() {
    if [ -n "${CROSS:-}" ]; then $QEMU_RUN "$@"; else env -u LD_LIBRARY_PATH "$@"; fi
}

# --- the examples, shared then static
# shellcheck disable=SC2086
for ex in solve_one count_file batch_file; do
    $CC ${EX_CFLAGS:-} -Wall -Wextra -Werror -o "$work/$ex-shared" "examples/$ex.c" $flags -pthread
    $CC ${EX_CFLAGS:-} -Wall -Wextra -Werror -o "$work/$ex-static" "examples/$ex.c" $cflags \
        $libdirs -Wl,-Bstatic $libnames -Wl,-Bdynamic $private -pthread
    "$readelf" -d "$work/$ex-shared" | grep -q "(NEEDED).*\[libsudokubench.so.$major\]" ||
        fail "$ex-shared does not need libsudokubench.so.$major"
    if "$readelf" -d "$work/$ex-static" | grep -q "libsudokubench"; then
        fail "$ex-static needs the shared library"
    fi
done

# solve_one: the solution the CLI gives, unique
puzzle=4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
want=$(echo "$puzzle" | "$BIN_RUN" solve -t 1)
for kind in shared static; do
    if [ $kind = shared ]; then got=$(run "$work/solve_one-$kind"); else got=$(run_static "$work/solve_one-$kind"); fi
    case $got in "$want unique ("*) ;; *) fail "solve_one-$kind printed '$got', want '$want unique (...'" ;; esac
done
set +e
run "$work/solve_one-shared" "4.....8.5.3..x" 2> "$work/err"
rc=$?
set -e
[ $rc = 2 ] && grep -q "column 14: unexpected character 'x'" "$work/err" || fail "solve_one on a bad puzzle (exit $rc)"
# the quick start in the header's manual is solve_one.c from its first #include on, so the
# code the manual shows is the code built and run above
sed -n '/^ \*     #include/,/^ \*\//{/^ \*\//!p}' "$P/include/sudokubench.h" |
    sed -E 's/^ \*( {5}|$)//' > "$work/quick_start.c"
sed -n '/^#include/,$p' examples/solve_one.c | diff -u - "$work/quick_start.c" ||
    fail "the quick start in sudokubench.h differs from examples/solve_one.c"

# count_file: tallies equal the CLI's csv records on the same file, for 1 and 3 threads
sample=$work/sample.txt
{ head -n 120 datasets/samples/top1465.txt; echo "................................................................................."; \
  echo "11..............................................................................."; } > "$sample"
"$BIN_RUN" solve -f csv -t 1 "$sample" | awk -F, 'NR > 1 {n++; v[$2]++; g += $4}
    END {printf "puzzles %d unsolvable %d unique %d multiple %d invalid 0 guesses %d\n",
         n, v["unsolvable"], v["solved"], v["multiple"], g}' > "$work/want"
for ex in count_file batch_file; do
    for kind in shared static; do
        for t in 1 3; do
            if [ $kind = shared ]; then run "$work/$ex-$kind" "$sample" $t; else run_static "$work/$ex-$kind" "$sample" $t; fi > "$work/got"
            diff -u "$work/want" "$work/got" || fail "$ex-$kind with $t threads"
        done
    done
done
grep -q " unsolvable 1 .* multiple 1 " "$work/want" || fail "the sample should hold one unsolvable and one multiple puzzle: $(cat "$work/want")"
echo "test-install: examples built with pkg-config (shared and static) agree with the CLI: $(cat "$work/want")"

# --- the example plug-in, built from the installed header alone, loaded by the installed
# program: its records are the built-in solver's, and bench gives it a cross-checked row
# shellcheck disable=SC2086
$CC ${EX_CFLAGS:-} -Wall -Wextra -Werror -fPIC -shared $cflags -o "$work/naive.so" examples/plugins/naive.c
head -n 40 "$sample" > "$work/plug.txt"
"$BIN_RUN" solve -t 1 -f tdoku "$work/plug.txt" > "$work/want-plug"
run "$P/bin/sudokubench" solve -t 1 -f tdoku --plugin "$work/naive.so" -s naive "$work/plug.txt" > "$work/got-plug" ||
    fail "solve --plugin naive.so"
diff -u "$work/want-plug" "$work/got-plug" || fail "the naive plug-in's records differ from the CLI's"
# shellcheck disable=SC2086
$CC ${EX_CFLAGS:-} -Wall -Wextra -Werror -fPIC -shared $cflags -o "$work/xwing.so" examples/plugins/xwing.c
run "$P/bin/sudokubench" bench --seconds 0 -t 1 --plugin "$work/naive.so" --plugin "$work/xwing.so" \
    "$work/plug.txt" > "$work/bench-plug" 2>/dev/null || fail "bench --plugin naive.so --plugin xwing.so"
grep -q '^| plug.txt | naive |' "$work/bench-plug" || fail "bench --plugin printed no naive row: $(cat "$work/bench-plug")"
grep -q '^| plug.txt | fast+xwing |' "$work/bench-plug" || fail "bench --plugin printed no fast+xwing row: $(cat "$work/bench-plug")"
echo "test-install: examples/plugins/naive.c and xwing.c built with pkg-config, loaded by solve and bench"

# --- man pages: titles, and every option of COMMAND --help in man sudokubench-COMMAND
render() { # PAGE: the page as text (man when present, else the source with escapes undone)
    if command -v man > /dev/null; then
        MANPATH=$P/share/man MANWIDTH=250 man --no-hyphenation --no-justification "$1" 2>/dev/null | col -b
    else
        sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\,//g; s/\\\///g' "$P/share/man/man1/$1.1"
    fi
}
grep -q '^\.TH SUDOKUBENCH "1"' "$P/share/man/man1/sudokubench.1" || fail "sudokubench.1 title"
# (rendered to files: grep -q would close the pipe early, and pipefail would see man's SIGPIPE)
render sudokubench > "$work/man-top.txt"
grep -q "sudokubench - solve, count" "$work/man-top.txt" || fail "man sudokubench NAME"
for c in $commands; do
    upper=$(echo "$c" | tr a-z A-Z)
    grep -q "^\.TH SUDOKUBENCH-$upper \"1\"" "$P/share/man/man1/sudokubench-$c.1" || fail "sudokubench-$c.1 title"
    render "sudokubench-$c" > "$work/man.txt"
    grep -q "sudokubench-$c(1)" "$work/man-top.txt" || fail "man sudokubench does not refer to sudokubench-$c(1)"
    opts=$("$BIN_RUN" "$c" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+')
    [ -n "$opts" ] || fail "no options in $c --help"
    for o in $opts; do
        grep -qe "$o" "$work/man.txt" || fail "man sudokubench-$c lacks $o"
    done
    echo "test-install: man sudokubench-$c shows all $(echo $opts | wc -w) options of $c --help"
done

# --- bash completion (installed file), run against the CLI
comp() { # WORDS...: the completions of the last word
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _sudokubench; echo "${COMPREPLY[*]}"' \
        comp "$P/share/bash-completion/completions/sudokubench" "$@"
}
[ "$(comp "$BIN_RUN" so)" = solve ] || fail "completion of 'so'"
[ "$(comp "$BIN_RUN" "")" = "$(echo $commands) --help --version" ] || fail "completion of commands: $(comp "$BIN_RUN" "")"
[ "$(comp "$BIN_RUN" solve -f "")" = "solution tdoku csv json pretty" ] || fail "completion of solve -f: $(comp "$BIN_RUN" solve -f "")"
[ "$(comp "$BIN_RUN" solve --li)" = "--limit" ] || fail "completion of solve --li"
[ "$(comp "$BIN_RUN" generate --symmetry r)" = "rot180 rot90" ] || fail "completion of --symmetry r"
[ "$(comp "$BIN_RUN" solve -s li)" = "list" ] || fail "completion of solve -s li: $(comp "$BIN_RUN" solve -s li)"
[ "$(comp "$BIN_RUN" bench --pipelines al)" = "all" ] || fail "completion of bench --pipelines al"
comp "$BIN_RUN" bench --pipelines fast+ | grep -qw "fast+xw" || fail "completion of --pipelines fast+: $(comp "$BIN_RUN" bench --pipelines fast+)"
[ "$(comp "$BIN_RUN" solve --simd avx5)" = "avx512 avx512bw" ] || fail "completion of solve --simd avx5: $(comp "$BIN_RUN" solve --simd avx5)"
[ "$(comp "$BIN_RUN" solve --res)" = "--resume" ] || fail "completion of solve --res: $(comp "$BIN_RUN" solve --res)"
echo "test-install: bash completion ok"

# --- the Python package: imported from the installed tree alone (not the build's copy), it
# solves as the CLI does
if [ -n "${PY_INSTALLED:-}" ]; then
    first=${PY_INSTALLED%% *}
    site=$D$(dirname "$(dirname "$first")")
    got=$(cd "$work" && env -u PYTHONPATH PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 "${PYTHON:-python3}" -c '
import sys
import sudokubench as sb
assert sb.__file__.startswith(sys.argv[1]), sb.__file__
r = sb.solve([sys.argv[2]], threads=1)
assert int(r.counts[0]) == 1, r.counts
print("".join(str(int(v)) for v in r.solutions[0]))
' "$site" "$puzzle") || fail "the installed Python package did not import or solve"
    [ "$got" = "$want" ] || fail "installed Python package solved '$puzzle' as '$got', the CLI as '$want'"
    echo "test-install: Python package imports from $(dirname "$first" | sed "s|^$PREFIX/||") and solves as the CLI"
else
    echo "test-install: Python package not installed in this build (PY_INSTALL=no)"
fi

# --- uninstall removes exactly the installed files (a foreign file in lib/ stays)
echo keep > "$P/lib/other-project.txt"
"$make_cmd" --no-print-directory "$@" uninstall DESTDIR="$D" PREFIX="$PREFIX" > "$work/uninstall.log" ||
    { cat "$work/uninstall.log"; fail "make uninstall"; }
left=$(cd "$P" && find . \( -type f -o -type l \) | sed 's|^\./||')
[ "$left" = "lib/other-project.txt" ] || fail "after uninstall left: $left"
echo "test-install: ok (install, pkg-config, examples shared + static, man, completion, uninstall)"
