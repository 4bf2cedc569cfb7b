# mk/structure.mk — the shape of the source tree: `make file-graph` builds the
# file-level graph of src/ (calls from each object's undefined symbols to the object that
# defines them, the calls written in headers' inline functions, and the #include "..." lines;
# a header shares its .c's node) for the plain
# program and, where MPI builds, the MPI one, and fails naming every circle between files and
# every dependency against the layers (src/cli/ -> src/app/ -> the library, never back).
# `make test-app-private` keeps the programs' layer out of the library's ABI. (After
# mk/install.mk and mk/mpi.mk in the sorted include order: it reads SHLIB, MPI_SKIP and
# MPI_BIN.)

.PHONY: file-graph

FILE_GRAPH_PROGRAMS = $(BUILD)/obj $(if $(MPI_SKIP),,$(BUILD)/mpi/obj$(comma)$(BUILD)/obj/src)

file-graph: $(BIN) $(if $(MPI_SKIP),,$(MPI_BIN)) ## the file-level call/include graph of src/: fails on any circle between files or edge against the layers (scripts/guards/file-graph.py)
	python3 scripts/guards/file-graph.py $(FILE_GRAPH_PROGRAMS)

# A circle is a defect like any other, so `make test` checks for one (native builds only: the
# script reads the objects with the host's nm).
TEST_EXTRA += $(if $(CROSS),,file-graph)

# The programs' layer (src/app/, $(APP_LIB)) is the programs' own, not the library's ABI:
# scripts/guards/app-private.sh fails when the shared library exports, or the static library
# defines, any of its functions, or when the public header names any of its functions or
# types (the sb_stream_, sb_segment_, sb_side_, sb_source/sb_gsource and sb_rsolver families
# and everything src/app/app.h declares). Native builds only, as file-graph: the host's nm.
.PHONY: test-app-private

test-app-private: $(SHLIB) $(LIB) include/sudokubench.h src/app/app.h ## the programs' layer (src/app/) is in neither libsudokubench.so nor .a, nor in the public header
	sh scripts/guards/app-private.sh $(SHLIB) $(LIB) include/sudokubench.h src/app/app.h

TEST_EXTRA += $(if $(CROSS),,test-app-private)
