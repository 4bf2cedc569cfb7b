# mk/plugins.mk — solver and technique plug-ins (include/sudokubench_plugin.h,
# docs/plugins.md): the example plug-ins, the faulty ones the tests load, and their suite.
#   make plugins        build/plugins/naive.so, xwing.so, forcing.so, test-FAULT.so and
#                       test-tech-FAULT.so
#   make test-plugins   tests/cli/plugins.sh: a good plug-in cross-checked on 9x9 and 16x16,
#                       every fault of tests/plugins/faulty.c named with its exit code
#   make test-techniques  tests/cli/techniques.sh: the example X-wing held to the built-in xw,
#                       every fault of tests/plugins/faulty_tech.c named with its exit code
#   make test-rate-plugins  tests/cli/rate_plugins.sh: rate with technique plug-ins as rungs of
#                       the ladder (tests/plugins/forcing.c reaches its rung), every fault named
#   make tdoku-plugin   tdoku from ../shared/peers as a plug-in (scripts/measure/tdoku-plugin.sh)
# Plug-ins are built without the sanitizers of SAN=1: they are outside code to the program,
# loaded as a user's would be. Under CROSS= they are built by the cross compiler and loaded
# under qemu like the program.
PLUGIN_DIR := $(BUILD)/plugins
PLUGIN_FAULTS := wrong count crash slow over abi noentry name geometry
PLUGIN_TECH_FAULTS := lie silent fail crash abi name classname geometry
PLUGIN_SOS := $(PLUGIN_DIR)/naive.so $(PLUGIN_DIR)/xwing.so $(PLUGIN_DIR)/forcing.so \
              $(PLUGIN_FAULTS:%=$(PLUGIN_DIR)/test-%.so) \
              $(PLUGIN_TECH_FAULTS:%=$(PLUGIN_DIR)/test-tech-%.so)
PLUGIN_CFLAGS := -O2 -g $(WARN) -fPIC -shared -Iinclude

$(PLUGIN_DIR)/%.so: examples/plugins/%.c include/sudokubench_plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -o $@ $<

# A technique the built-in rating ladder lacks: the rung the rate tests reach.
$(PLUGIN_DIR)/forcing.so: tests/plugins/forcing.c include/sudokubench_plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -o $@ $<

$(PLUGIN_DIR)/test-tech-%.so: tests/plugins/faulty_tech.c tests/plugins/faulty.h include/sudokubench_plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -DFAULT_$(shell echo $* | tr a-z A-Z) -o $@ $<

$(PLUGIN_DIR)/test-%.so: tests/plugins/faulty.c tests/plugins/faulty.h include/sudokubench_plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -DFAULT_$(shell echo $* | tr a-z A-Z) -o $@ $<

.PHONY: plugins test-plugins test-techniques test-rate-plugins tdoku-plugin
plugins: $(PLUGIN_SOS) ## the example plug-ins (a solver, a technique) and the tests' faulty ones (build/plugins)

test-plugins: $(BIN) $(BIN_RUN) $(PLUGIN_SOS) $(GCHECK) $(GCHECK_RUN) ## plug-ins: loading errors, cross-checked answers, crashes, budget and stop (tests/cli/plugins.sh)
	bash tests/cli/plugins.sh $(BIN_RUN) $(PLUGIN_DIR) $(GCHECK_RUN)
TEST_EXTRA += test-plugins

test-techniques: $(BIN) $(BIN_RUN) $(PLUGIN_SOS) ## technique plug-ins: the example X-wing held to the built-in xw, every broken technique named (tests/cli/techniques.sh)
	bash tests/cli/techniques.sh $(BIN_RUN) $(PLUGIN_DIR)
TEST_EXTRA += test-techniques

# The fault shim (mk/reliability.mk, read after this file: hence $$) kills a run for --resume.
test-rate-plugins: $(BIN) $(BIN_RUN) $(PLUGIN_SOS) $$(FAULT_SHIM) ## rate --plugin: technique plug-ins as rungs of the ladder, the built-in classes kept, every broken one named (tests/cli/rate_plugins.sh)
	SB_SHIM=$(abspath $(FAULT_SHIM)) bash tests/cli/rate_plugins.sh $(BIN_RUN) $(PLUGIN_DIR)
TEST_EXTRA += test-rate-plugins

tdoku-plugin: ## tdoku (../shared/peers) built as a plug-in: build/peers/tdoku-plugin-native.so
	scripts/measure/tdoku-plugin.sh $(BUILD)/peers native

# The Python suite loads them too (python/tests/test_plugins.py, $SB_PLUGINS), and so do the
# MPI cases (tests/cli/mpi.sh, $PLUGIN_DIR).
test-python: $(PLUGIN_SOS)
ifeq ($(MPI_SKIP),)
$(call shards,test-mpi,$(MPI_SHARDS)): $(PLUGIN_SOS)
endif
