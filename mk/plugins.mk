# mk/plugins.mk — solver plug-ins (include/sudokubench_plugin.h, docs/plugins.md): the
# example plug-in, the faulty ones the tests load, and their suite.
#   make plugins        build/plugins/naive.so and build/plugins/test-FAULT.so
#   make test-plugins   tests/cli/plugins.sh: a good plug-in cross-checked on 9x9 and 16x16,
#                       every fault of tests/plugins/faulty.c named with its exit code
#   make tdoku-plugin   tdoku from ../shared/peers as a plug-in (scripts/measure/tdoku-plugin.sh)
# Plug-ins are built without the sanitizers of SAN=1: they are outside code to the program,
# loaded as a user's would be. Under CROSS= they are built by the cross compiler and loaded
# under qemu like the program.
PLUGIN_DIR := $(BUILD)/plugins
PLUGIN_FAULTS := wrong count crash slow over abi noentry name geometry
PLUGIN_SOS := $(PLUGIN_DIR)/naive.so $(PLUGIN_FAULTS:%=$(PLUGIN_DIR)/test-%.so)
PLUGIN_CFLAGS := -O2 -g $(WARN) -fPIC -shared -Iinclude

$(PLUGIN_DIR)/naive.so: examples/plugins/naive.c include/sudokubench_plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -o $@ $<

$(PLUGIN_DIR)/test-%.so: tests/plugins/faulty.c include/sudokubench_plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -DFAULT_$(shell echo $* | tr a-z A-Z) -o $@ $<

.PHONY: plugins test-plugins tdoku-plugin
plugins: $(PLUGIN_SOS) ## the example solver plug-in and the tests' faulty ones (build/plugins)

test-plugins: $(BIN) $(BIN_RUN) $(PLUGIN_SOS) $(GCHECK) $(GCHECK_RUN) ## plug-ins: loading errors, cross-checked answers, crashes, budget and stop (tests/cli/plugins.sh)
	bash tests/cli/plugins.sh $(BIN_RUN) $(PLUGIN_DIR) $(GCHECK_RUN)
TEST_EXTRA += test-plugins

tdoku-plugin: ## tdoku (../shared/peers) built as a plug-in: build/peers/tdoku-plugin-native.so
	scripts/measure/tdoku-plugin.sh $(BUILD)/peers native

# The Python suite loads them too (python/tests/test_plugins.py, $SB_PLUGINS).
test-python: $(PLUGIN_SOS)
