#!/usr/bin/env bash
# datasets/fetch.sh — downloads the public Sudoku corpora listed in datasets/manifest into
# datasets/public/NAME/, each verified by sha256 before anything is installed.
#
# Fail closed: a corpus without a recorded sha256 is never installed, a checksum mismatch
# installs nothing, and a failed download (offline) leaves datasets/public/ untouched. Every
# download goes to a temporary directory first; only when all requested corpora have been
# verified and unpacked are they moved into place.
#
# Exit: 0 installed (or --list/--hash-only done); 1 a download failed (offline?);
#       2 usage error, unknown corpus or missing tool; 3 verification failed (no recorded
#       sha256, checksum or member mismatch, unreadable archive).
#
# Environment: FETCH_MANIFEST (default: the manifest beside this script), FETCH_DEST (default:
# public/ beside this script). The tests use both to run without touching the repository.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MANIFEST=${FETCH_MANIFEST:-$HERE/manifest}
DEST=${FETCH_DEST:-$HERE/public}

usage() {
    cat <<EOF
Usage: datasets/fetch.sh [NAME...]              download, verify and install (default: all)
       datasets/fetch.sh --file PATH NAME       verify and install a file downloaded by hand
       datasets/fetch.sh --hash-only NAME...    download to a temporary directory, print the
                                                sha256 and member checks, install nothing
       datasets/fetch.sh --list                 show the corpora and what is installed
Manifest: $MANIFEST
Destination: $DEST/NAME/
EOF
}

die() { # die CODE MESSAGE...
    local code=$1
    shift
    echo "fetch.sh: $*" >&2
    exit "$code"
}

# ---- the manifest ---------------------------------------------------------------------------
declare -A SHA FORMAT URL
NAMES=()
MEMBERS=() # "NAME PATH SHA256" entries
[ -r "$MANIFEST" ] || die 2 "cannot read manifest $MANIFEST"
lineno=0
while read -r kind a b c d rest || [ -n "${kind:-}" ]; do
    lineno=$((lineno + 1))
    case ${kind:-} in
    '' | '#'*) continue ;;
    archive)
        [[ -n ${d:-} && -z ${rest:-} ]] || die 2 "$MANIFEST:$lineno: want 'archive NAME SHA256 FORMAT URL'"
        case $c in zip | file) ;; *) die 2 "$MANIFEST:$lineno: unknown format '$c' (zip, file)" ;; esac
        [[ $b == - || $b =~ ^[0-9a-f]{64}$ ]] || die 2 "$MANIFEST:$lineno: sha256 must be 64 lowercase hex digits or '-'"
        NAMES+=("$a")
        SHA[$a]=$b
        FORMAT[$a]=$c
        URL[$a]=$d
        ;;
    member)
        [[ -n ${c:-} && -z ${d:-} ]] || die 2 "$MANIFEST:$lineno: want 'member NAME PATH SHA256'"
        [[ $c =~ ^[0-9a-f]{64}$ ]] || die 2 "$MANIFEST:$lineno: sha256 must be 64 lowercase hex digits"
        MEMBERS+=("$a $b $c")
        ;;
    *) die 2 "$MANIFEST:$lineno: unknown entry '$kind' (archive, member)" ;;
    esac
done <"$MANIFEST"

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# ---- arguments ------------------------------------------------------------------------------
MODE=install
FROM_FILE=''
WANT=()
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help) usage; exit 0 ;;
    --list) MODE=list ;;
    --hash-only) MODE='hash' ;;
    --file)
        [ $# -ge 2 ] || die 2 "--file needs a PATH"
        FROM_FILE=$2
        shift
        ;;
    -*) usage >&2; die 2 "unknown option '$1'" ;;
    *) WANT+=("$1") ;;
    esac
    shift
done
[ ${#WANT[@]} -gt 0 ] || WANT=("${NAMES[@]}")
for n in "${WANT[@]}"; do
    [ -n "${URL[$n]+set}" ] || die 2 "no corpus '$n' in $MANIFEST (known: ${NAMES[*]})"
done
if [ -n "$FROM_FILE" ]; then
    [ ${#WANT[@]} -eq 1 ] || die 2 "--file needs exactly one NAME"
    [ -r "$FROM_FILE" ] || die 2 "cannot read '$FROM_FILE'"
fi

if [ "$MODE" = list ]; then
    for n in "${WANT[@]}"; do
        state='not installed'
        [ -e "$DEST/$n" ] && state="installed in $DEST/$n"
        checksum=${SHA[$n]}
        [ "$checksum" = - ] && checksum='(no sha256 recorded: will not install)'
        printf '%-12s %s\n             %s %s\n             %s\n' "$n" "${URL[$n]}" "${FORMAT[$n]}" "$checksum" "$state"
    done
    exit 0
fi

# Fail closed before touching the network: nothing without a recorded checksum is installed.
if [ "$MODE" = install ]; then
    for n in "${WANT[@]}"; do
        [ "${SHA[$n]}" != - ] || die 3 "no sha256 recorded for '$n' in $MANIFEST; refusing to install an unverified download. A maintainer runs 'datasets/fetch.sh --hash-only $n', checks the file's provenance and records the sha256 in the manifest."
    done
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/sudokubench-fetch.XXXXXX") || die 2 "mktemp failed"
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

# download NAME OUT: the URL's bytes into OUT, or exit 1 with the reason.
download() {
    local n=$1 out=$2 url=${URL[$1]}
    if [ -n "$FROM_FILE" ]; then
        cp -- "$FROM_FILE" "$out" || die 2 "cannot copy '$FROM_FILE'"
        return
    fi
    echo "fetch.sh: downloading $n from $url" >&2
    if command -v curl >/dev/null 2>&1; then
        curl -fsSL --connect-timeout 20 --retry 1 -o "$out" "$url" 2>"$TMP/curl.err" ||
            die 1 "cannot download '$n' from $url ($(tail -n 1 "$TMP/curl.err")); offline? Nothing was installed."
    elif command -v wget >/dev/null 2>&1; then
        wget -q --timeout=20 -O "$out" "$url" ||
            die 1 "cannot download '$n' from $url (wget failed); offline? Nothing was installed."
    else
        die 2 "neither curl nor wget is installed"
    fi
}

# unpack NAME FILE DIR: the verified download into DIR (created).
unpack() {
    local n=$1 file=$2 dir=$3
    mkdir -p "$dir"
    if [ "${FORMAT[$n]}" = file ]; then
        cp -- "$file" "$dir/${URL[$n]##*/}"
    elif command -v unzip >/dev/null 2>&1; then
        unzip -q "$file" -d "$dir" || die 3 "'$n': not a readable zip archive"
    else
        python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$file" "$dir" ||
            die 3 "'$n': not a readable zip archive"
    fi
}

# check_members NAME DIR REPORT: compares the known member checksums; REPORT=1 prints each
# result instead of failing. Returns 1 if any member is missing or differs.
check_members() {
    local n=$1 dir=$2 report=$3 bad=0 m name path want got
    for m in "${MEMBERS[@]+"${MEMBERS[@]}"}"; do
        read -r name path want <<<"$m"
        [ "$name" = "$n" ] || continue
        if [ ! -f "$dir/$path" ]; then
            got=missing
        else
            got=$(sha256_of "$dir/$path")
        fi
        if [ "$got" = "$want" ]; then
            [ "$report" = 1 ] && echo "  member $path: sha256 matches the manifest"
        else
            bad=1
            if [ "$report" = 1 ]; then
                echo "  member $path: $got, manifest says $want"
            else
                echo "fetch.sh: '$n': member $path is $got, the manifest says $want" >&2
            fi
        fi
    done
    return $bad
}

for n in "${WANT[@]}"; do
    download "$n" "$TMP/$n.download"
    got=$(sha256_of "$TMP/$n.download")
    if [ "$MODE" = hash ]; then
        echo "$n sha256 $got ($(wc -c <"$TMP/$n.download") bytes from ${URL[$n]})"
        unpack "$n" "$TMP/$n.download" "$TMP/$n.d"
        check_members "$n" "$TMP/$n.d" 1 || true
        continue
    fi
    [ "$got" = "${SHA[$n]}" ] || die 3 "sha256 mismatch for '$n': expected ${SHA[$n]}, got $got. Nothing was installed."
    unpack "$n" "$TMP/$n.download" "$TMP/$n.d"
    check_members "$n" "$TMP/$n.d" 0 || die 3 "'$n': unpacked members do not match the manifest. Nothing was installed."
    printf 'name %s\nurl %s\nsha256 %s\nfetched %s\n' "$n" "${URL[$n]}" "$got" \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$TMP/$n.d/SOURCE"
done
[ "$MODE" = hash ] && exit 0

# Everything is verified: move into place. The copy goes to a hidden sibling first so the
# final step is a rename on DEST's own file system.
mkdir -p "$DEST"
for n in "${WANT[@]}"; do
    rm -rf "$DEST/.$n.new" "$DEST/.$n.old"
    cp -R "$TMP/$n.d" "$DEST/.$n.new"
    [ -e "$DEST/$n" ] && mv "$DEST/$n" "$DEST/.$n.old"
    mv "$DEST/.$n.new" "$DEST/$n"
    rm -rf "$DEST/.$n.old"
    echo "fetch.sh: installed $n into $DEST/$n (sha256 ${SHA[$n]})"
done
