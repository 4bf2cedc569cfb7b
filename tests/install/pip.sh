#!/usr/bin/env bash
# tests/install/pip.sh — the offline pip recipe of docs/python.md, on this machine's
# interpreters, with no package index and no wheel directory (PIP_NO_INDEX, no find-links):
#
#   1. Debian's python3: `python3 -m venv --system-site-packages V` and `V/bin/pip install
#      --no-index --no-build-isolation ./python` (cffi and numpy come from Debian's packages);
#      V's python imports the package from V and solves a 9x9 puzzle; the build tool
#      _build.py is not installed; pip knows the version, the library's SB_VERSION.
#   2. Each other interpreter given (a pyenv or python.org CPython), in a venv that sees its
#      own site-packages: with cffi, `pip install --no-index --no-build-isolation --no-deps
#      ./python` builds with no setuptools or wheel package involved; the extension then
#      solves the puzzle through cffi (through the package when numpy is there too). Without
#      cffi the build stops with the message naming what to install.
#
# --config-settings build-dir=BUILD makes the library's archive in the tree's build
# directory, already built by make (the recipe's default, a temporary build of the whole
# library, is what python/tests/test_geometry.py's pip test runs), so each install compiles
# the extension alone.
#
# Usage: tests/install/pip.sh DEBIAN_PYTHON BUILD [OTHER_PYTHON...]   (CC from the environment)
set -u
PY=$1
BUILD=$(cd "$2" && pwd)
shift 2
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/sb-pip.XXXXXX")
trap 'rm -rf "$T"' EXIT
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
unset PYTHONPATH PIP_FIND_LINKS MAKEFLAGS MFLAGS MAKELEVEL
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL - $1"; [ $# -lt 2 ] || tail -n 25 "$2" | sed 's/^/  /'; }

P2=000000010400000000020000000000050407008000300001090000300400200050100000000806000
S2=693784512487512936125963874932651487568247391741398625319475268856129743274836159
VERSION=$(sed -n 's/^#define SB_VERSION "\(.*\)"/\1/p' "$ROOT/include/sudokubench.h")

if ! "$PY" -m pip --version >/dev/null 2>&1 || ! "$PY" -c 'import venv, ensurepip' 2>/dev/null; then
    echo "test-pip: skipped: no pip or venv for $PY (Debian: python3-pip python3-venv)"
    exit 0
fi

# install NAME PYTHON [PIP_ARGS...]: a venv T/NAME of PYTHON that sees its site-packages, and
# ./python installed into it offline; the exit code of pip, its output in T/NAME.log
install() {
    local name=$1 py=$2
    shift 2
    "$py" -m venv --system-site-packages "$T/$name" >"$T/$name.log" 2>&1 || return 99
    "$T/$name/bin/pip" install --no-index --no-build-isolation --config-settings build-dir="$BUILD" "$@" \
        "$ROOT/python" >>"$T/$name.log" 2>&1
}

# site NAME: the venv's site-packages
site() { "$T/$NAME/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'; }

# 1. Debian's python3
NAME=debian
if install "$NAME" "$PY"; then
    ok "Debian $("$PY" -V 2>&1): pip install --no-index --no-build-isolation ./python in a --system-site-packages venv"
    SITE=$(site)
    got=$(cd "$T" && "$T/$NAME/bin/python" -c "
import sudokubench as sb
r = sb.solve(['$P2'])
print(sb.__file__)
print(int(r.counts[0]), sb.to_strings(r.solutions)[0])" 2>&1)
    if [ "$got" = "$SITE/sudokubench/__init__.py
1 $S2" ]; then
        ok "Debian venv: imports the installed package and solves a 9x9 puzzle"
    else
        echo "$got" >"$T/got"
        bad "Debian venv: import and solve" "$T/got"
    fi
    if [ ! -e "$SITE/sudokubench/_build.py" ]; then
        ok "Debian venv: the build tool _build.py is not installed"
    else
        bad "Debian venv: _build.py installed"
    fi
    shown=$("$T/$NAME/bin/pip" show sudokubench 2>/dev/null | sed -n 's/^Version: //p')
    if [ "$shown" = "$VERSION" ]; then
        ok "Debian venv: pip shows version $VERSION (SB_VERSION)"
    else
        bad "Debian venv: pip shows version '$shown', want '$VERSION'"
    fi
else
    bad "Debian $PY: pip install failed" "$T/$NAME.log"
fi

# 2. other interpreters
k=0
for other in "$@"; do
    exe=$("$other" -c 'import sys; print(sys.executable)' 2>/dev/null) || { echo "test-pip: $other does not run: skipped"; continue; }
    if [ "$(readlink -f "$exe")" = "$(readlink -f "$PY")" ]; then continue; fi
    k=$((k + 1))
    NAME=other$k
    ver=$("$exe" -V 2>&1)
    if ! "$exe" -c 'import sysconfig, os, sys; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
        echo "test-pip: $exe ($ver) has no headers: skipped"
        continue
    fi
    if "$exe" -c 'import cffi' 2>/dev/null; then
        if install "$NAME" "$exe" --no-deps; then
            ok "$ver ($exe): builds the package with no setuptools or wheel package"
            SITE=$(site)
            if "$T/$NAME/bin/python" -c 'import numpy' 2>/dev/null; then
                code="import sudokubench as sb; r = sb.solve(['$P2']); print(int(r.counts[0]), sb.to_strings(r.solutions)[0])"
                how="the package"
            else
                # numpy is missing here: the extension alone, through cffi
                code="
import glob, importlib.util
path = glob.glob('$SITE/sudokubench/_sb*.so')[0]
spec = importlib.util.spec_from_file_location('_sb', path)
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
ffi, lib = m.ffi, m.lib
opt = ffi.new('sb_options *'); lib.sb_options_default(opt)
cells = ffi.new('uint8_t[81]', [int(c) for c in '$P2'])
counts, guesses = ffi.new('uint64_t[1]'), ffi.new('uint64_t[1]')
sol, status = ffi.new('uint8_t[81]'), ffi.new('int8_t[1]')
rc = lib.sb_solve_batch(opt, cells, 1, 1, counts, guesses, sol, status)
print(int(counts[0]), ''.join(str(sol[i]) for i in range(81)))"
                how="the extension through cffi (no numpy for it)"
            fi
            got=$(cd "$T" && "$T/$NAME/bin/python" -c "$code" 2>&1)
            if [ "$got" = "1 $S2" ]; then
                ok "$ver: $how solves a 9x9 puzzle"
            else
                echo "$got" >"$T/got"
                bad "$ver: solve through $how" "$T/got"
            fi
        else
            bad "$ver ($exe): pip install failed" "$T/$NAME.log"
        fi
    else
        install "$NAME" "$exe" --no-deps
        rc=$?
        if [ "$rc" != 0 ] && grep -q "sudokubench: cannot build: cffi is not installed for" "$T/$NAME.log"; then
            ok "$ver ($exe), no cffi: the build stops, naming cffi"
        else
            bad "$ver ($exe) without cffi: exit $rc, not the message" "$T/$NAME.log"
        fi
    fi
done

echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
