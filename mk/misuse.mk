# mk/misuse.mk — the misuse test covers the whole API: tests/test_misuse.c (in the unit binary)
# calls every public function with bad arguments, and `make test-misuse-names` fails when a
# function the library exports is neither called there (public) nor listed in its table of
# internal symbols (scripts/guards/misuse-names.sh, reading $(LIB) with nm). Part of make test;
# native builds only, as make file-graph: the host's nm reads the archive.

.PHONY: test-misuse-names

test-misuse-names: $(LIB) tests/test_misuse.c include/sudokubench.h ## every exported sb_ function is called (or listed as internal) in tests/test_misuse.c
	sh scripts/guards/misuse-names.sh $(LIB) tests/test_misuse.c include/sudokubench.h

TEST_EXTRA += $(if $(CROSS),,test-misuse-names)
