# corpora.sh — sourced by the measurement scripts (hyperfine.sh, report.sh): the corpus list
# they share with `make bench`.

# corpora LIST: sets the array FILES to the words of LIST when it is not empty, else to the
# standard corpora in ../shared/datasets when they are there, else to the embedded samples
# in datasets/samples (the project never needs ../shared), and in both cases the corpus of
# puzzles with several solutions in datasets/multi (the Makefile's BENCH_FILES, the same).
corpora() {
    if [ -n "${1:-}" ]; then
        read -r -a FILES <<<"$1"
    else
        FILES=(../shared/datasets/puzzles*)
        [ -e "${FILES[0]}" ] || FILES=(datasets/samples/*.txt)
        FILES+=(datasets/multi/*.txt)
    fi
}
