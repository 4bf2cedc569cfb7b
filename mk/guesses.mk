# mk/guesses.mk — the guess counts held to an independent model (issue 28, seventeenth
# session): scripts/guess_model.py reimplements the fast pipeline's propagation, branch.h's
# branch rule and search.h's DFS in plain Python, so the same-guesses-at-every-level contract
# is checked against the documented rule, not only level against level. The model also
# takes stronger rules and other branching (--triad, --branch) for the guess studies of
# docs/performance.md.
#
#   make test-guesses   every SIMD level this CPU runs (the guest's under CROSS=) and the
#                       generic pipelines with the same techniques, per puzzle on slices of
#                       the committed corpora (tests/guesses/check.sh); part of make test

.PHONY: test-guesses
TEST_EXTRA += test-guesses

test-guesses: $(BIN) $(BIN_RUN) ## every SIMD level's per-puzzle counts and guesses against scripts/guess_model.py, an independent model of the search (part of make test)
	bash tests/guesses/check.sh $(BIN_RUN)
