# mk/compressed.mk — compressed inputs (docs/cli.md "Input"): tests/cli/compressed.sh checks
# that a gzip, zstd or xz file reads exactly as the plain one for every command that reads
# puzzles, on 9x9 and 16x16, and that truncated or binary inputs are one error, exit 2. The
# files are made by the command-line tools, hence their packages here.
DEB_PKGS_ALL += gzip zstd xz-utils

.PHONY: test-compressed
TEST_EXTRA += test-compressed

test-compressed: $(BIN) $(BIN_RUN) ## compressed inputs (.gz .zst .xz) read as the plain file by every command; truncated, zip and NUL-byte inputs one error (tests/cli/compressed.sh)
	bash tests/cli/compressed.sh $(BIN_RUN)
