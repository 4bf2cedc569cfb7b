#!/bin/sh
# app-private.sh SHLIB LIB HEADER APP_HEADER — the programs' layer (src/app/, declared in
# APP_HEADER) stays out of the library: the shared library SHLIB exports none of its
# functions (nm -D), the static library LIB defines none of them (nm), and the public HEADER
# names none of its functions or types. What counts as the layer's: every function and type
# APP_HEADER declares, and any sb_stream_, sb_segment_, sb_side_, sb_source, sb_gsource or
# sb_rsolver name whatever the header says. Prints each one found; exits 1 if any is.
# NM names the nm to run (default nm).
set -eu
shlib=$1 lib=$2 header=$3 app=$4
nm=${NM:-nm}
for f in "$shlib" "$lib" "$header" "$app"; do
    [ -f "$f" ] || { echo "app-private: no file $f (build first)" >&2; exit 2; }
done
prefixes='^sb_(stream_|segment_|side_|source|gsource|rsolver)'

# Functions: declarations start at column 0 (as the version script reads the public header);
# types: "} NAME;", "typedef struct X NAME;" and function pointer types "(*NAME)".
names=$({
    grep -E '^[a-z]' "$app" | grep -v '^typedef' | grep -oE '\bsb_[a-z0-9_]+ *\(' | sed -E 's/ *\($//'
    grep -oE '^\} sb_[a-z0-9_]+;' "$app" | sed -E 's/^\} //; s/;$//'
    grep -E '^typedef' "$app" | grep -oE '\bsb_[a-z0-9_]+;$' | sed 's/;$//'
    grep -E '^typedef' "$app" | grep -oE '\(\*sb_[a-z0-9_]+\)' | tr -d '(*)'
} | sort -u)
[ -n "$names" ] || { echo "app-private: no declarations found in $app" >&2; exit 1; }

bad=0
# report WHERE SYMBOLS: each of SYMBOLS (one a line) that is the layer's.
report() {
    where=$1
    for n in $(printf '%s\n' "$2" | sort -u); do
        if printf '%s\n' "$n" | grep -qE "$prefixes" || printf '%s\n' "$names" | grep -qx "$n"; then
            echo "app-private: $where has $n, a name of the programs' layer ($app)" >&2
            bad=1
        fi
    done
}
report "$shlib (exported)" "$("$nm" -D --defined-only "$shlib" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//')"
report "$lib (defined)" "$("$nm" -g --defined-only "$lib" | awk 'NF >= 3 { print $3 }')"
report "$header" "$(grep -oE '\bsb_[a-z0-9_]+' "$header")"

[ "$bad" = 0 ] && echo "app-private: none of the $(echo "$names" | wc -l) names of $app in $shlib, $lib or $header"
exit "$bad"
