# mk/misuse.mk — the misuse test covers the whole API: tests/test_misuse.c (in the unit binary)
# calls every public function with bad arguments, and `make test-misuse-names` fails when a
# function the library exports is neither called there (public) nor listed in its table of
# internal symbols (scripts/guards/misuse-names.sh, reading $(LIB) with nm). The programs' layer
# ($(APP_LIB), declared in src/app/app.h) is held to the same rule: every function it defines
# is called there. Part of make test; native builds only, as make file-graph: the host's nm
# reads the archives.

.PHONY: test-misuse-names

test-misuse-names: $(LIB) $(APP_LIB) tests/test_misuse.c include/sudokubench.h src/app/app.h ## every exported sb_ function (library and app layer) is called (or listed as internal) in tests/test_misuse.c
	sh scripts/guards/misuse-names.sh $(LIB) tests/test_misuse.c include/sudokubench.h
	sh scripts/guards/misuse-names.sh $(APP_LIB) tests/test_misuse.c src/app/app.h

TEST_EXTRA += $(if $(CROSS),,test-misuse-names)
