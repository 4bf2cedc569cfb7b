# mk/structure.mk — the shape of the source tree: `make file-graph` builds the
# file-level graph of src/ (calls from each object's undefined symbols to the object that
# defines them, and the #include "..." lines; a header shares its .c's node) for the plain
# program and, where MPI builds, the MPI one, and fails naming every circle between files.
# (After mk/mpi.mk in the sorted include order: it reads MPI_SKIP and MPI_BIN.)

.PHONY: file-graph

FILE_GRAPH_PROGRAMS = $(BUILD)/obj $(if $(MPI_SKIP),,$(BUILD)/mpi/obj$(comma)$(BUILD)/obj/src)

file-graph: $(BIN) $(if $(MPI_SKIP),,$(MPI_BIN)) ## the file-level call/include graph of src/: fails on any circle between files (scripts/guards/file-graph.py)
	python3 scripts/guards/file-graph.py $(FILE_GRAPH_PROGRAMS)

# A circle is a defect like any other, so `make test` checks for one (native builds only: the
# script reads the objects with the host's nm).
TEST_EXTRA += $(if $(CROSS),,file-graph)
