#!/bin/sh
# misuse-names.sh LIB TEST HEADER — checks that the misuse test covers the whole library: every
# function LIB exports (nm: a defined global text symbol sb_*) must be, when HEADER declares
# it, called in TEST ("NAME(" outside a longer name), and otherwise listed in TEST's table of
# internal symbols (as the string "NAME"). Prints each one missing; exits 1 if any is.
# NM names the nm to run (default nm; a cross build passes its own).
set -eu
lib=$1 test=$2 header=$3
nm=${NM:-nm}
names=$("$nm" -g --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^sb_/ { print $3 }' | sort -u)
[ -n "$names" ] || { echo "misuse-names: no sb_ functions found in $lib" >&2; exit 1; }
bad=0 n=0
for f in $names; do
    n=$((n + 1))
    if grep -qE "(^|[^A-Za-z0-9_])$f\(" "$header"; then
        grep -qE "(^|[^A-Za-z0-9_])$f\(" "$test" ||
            { echo "misuse-names: $f is public (in $header) but not called in $test" >&2; bad=1; }
    else
        grep -qF "\"$f\"" "$test" ||
            { echo "misuse-names: $f is exported but not in $header nor in the internal_symbols table of $test" >&2; bad=1; }
    fi
done
[ "$bad" = 0 ] && echo "misuse-names: all $n exported sb_ functions covered by $test"
exit "$bad"
