# issuewatt -- GNU Makefile.
#   make            build issuewatt and libissuewatt.a (installs missing Debian packages first)
#   make check      build and run every test (CUnit) and validate every shipped XML
#   make run        build and run the default job into out/default.h5
#   make bench      run the benchmarks (speed goals live here, not in tests)
#   make install PREFIX=/usr/local
#   make fuzz       run every parser's libFuzzer target FUZZ_SECONDS (default 30) each
# Options: SAN=1 (address+undefined sanitizers, in build-san/), SAN=thread (ThreadSanitizer, in build-tsan/),
# MPI=1 (Open MPI sweeps), BUILD=dir, DEBUG=1.

# The sanitizer build gets its own folder so it never mixes with the normal one.
BUILD ?= $(if $(filter 1,$(SAN)),build-san,$(if $(filter thread,$(SAN)),build-tsan,build))
PREFIX ?= /usr/local
SAN ?= 0
MPI ?= 0
export SAN MPI

PUBLIC_TARGETS := all check run bench install fuzz calibrate-fpga man

ifndef IW_INNER
# The outer make only ensures the Debian packages are there, then runs the real
# rules in a second make, whose pkg-config queries then find them.
.DEFAULT_GOAL := all
$(PUBLIC_TARGETS): deps
	@$(MAKE) --no-print-directory IW_INNER=1 $@
deps:
	@sh mk/deps.sh
clean:
	rm -rf $(BUILD) build build-san build-tsan build-fuzz out
.PHONY: $(PUBLIC_TARGETS) deps clean
else

PKGS := gsl libxml-2.0 hdf5 cunit liblzma zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
# Debian's hdf5.pc names libhdf5 only; the high-level library sits beside it.
PKG_LIBS := $(shell pkg-config --libs-only-L hdf5) -lhdf5_hl $(shell pkg-config --libs $(PKGS)) -lm

CC := $(if $(filter 1,$(MPI)),mpicc,$(CC))
OPT := $(if $(DEBUG),-O0 -g3,-O2 -g)
SAN_ON := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SANFLAGS := $(if $(filter 1,$(SAN)),$(SAN_ON),$(if $(filter thread,$(SAN)),-fsanitize=thread -fno-omit-frame-pointer))
# The fuzz build (rule `fuzz`): clang, coverage for libFuzzer, address+undefined.
ifeq ($(IW_FUZZ),1)
SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
INCS := -Icore -Iperf -Ipower -Iarea -Itech -Icalib -Ireports -Icli
CFLAGS += -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) $(SANFLAGS) $(INCS) $(PKG_CFLAGS) $(if $(filter 1,$(MPI)),-DIW_MPI=1,)
LDFLAGS += $(SANFLAGS)
# Link-time optimisation of the simulator in release builds: perf/sim.c keeps
# one copy of the tick per built-in scheme, and at link time the compiler
# calls and inlines that scheme's hooks directly (-5 to -8% host instructions
# per simulated instruction).  Fat objects keep libissuewatt.a usable by
# programs linked without -flto.
LTO := $(if $(or $(DEBUG),$(filter 1 thread,$(SAN)),$(filter 1,$(IW_FUZZ))),,-flto=auto -ffat-lto-objects)
LDFLAGS += $(if $(LTO),-flto=auto $(OPT))
# Profile-guided optimisation of those objects too (PGO=1, the default where
# LTO is on, except with MPI=1; PGO=0 rebuilds quicker while developing): they
# are first built with counters into $(PGO_DIR), that program runs a training
# job (mk/pgo-train.sh, about 7 s), and the release objects are compiled with
# the counts, which steer inlining and code layout only: every number the
# program prints is the same.  Host instructions per simulated instruction:
# -8 to -10% for every scheme (callgrind; perf/README.md).
PGO ?= $(if $(and $(LTO),$(filter-out 1,$(MPI))),1,0)
PGO_DIR := $(BUILD)/pgo

MODULES := core perf power area tech calib reports
LIB_SRCS := $(filter-out core/embed.c,$(foreach m,$(MODULES),$(wildcard $(m)/*.c)))
CLI_SRCS := $(wildcard cli/*.c)
TEST_SRCS := $(wildcard tests/*.c)
# The fuzz targets' bodies are also linked into the test runner, which replays
# their regression inputs (tests/test_fuzz_regress.c).
TEST_SRCS += $(filter-out tests/fuzz/driver.c,$(wildcard tests/fuzz/*.c))
BENCH_SRCS := $(wildcard bench/*.c)
# Data compiled into the program: presets, technology/device files, schemas.
RESOURCES := $(sort $(wildcard perf/presets/*.xml perf/*.xsd tech/*.xml tech/*.xsd calib/*.xsd reports/*.xsd))
SHIPPED_XML := $(wildcard perf/presets/*.xml tech/*.xml examples/*.xml)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))
LIB_OBJS := $(call obj,$(LIB_SRCS)) $(BUILD)/resources.o
SIM_OBJS := $(call obj,$(filter-out core/embed.c,$(wildcard perf/*.c core/*.c)))
$(SIM_OBJS): CFLAGS += $(LTO)
ifeq ($(PGO),1)
$(SIM_OBJS): private CFLAGS += -fprofile-use -fprofile-partial-training -Wno-missing-profile
$(SIM_OBJS): $(PGO_DIR)/trained
# The instrumented program: its own make, so its objects never mix with these
# (it runs every time; its own rules decide what is out of date).  Its objects
# take these objects' names for their counts (-dumpbase): GCC 12 tells a
# file's static functions apart by that name, so $(BUILD)/perf/sim.o must read
# counts written as $(BUILD)/perf/sim.gcda.
$(PGO_DIR)/issuewatt: FORCE
	@$(MAKE) --no-print-directory IW_INNER=1 PGO=0 PGO_FOR=$(BUILD) BUILD=$(PGO_DIR) \
		OPT='$(OPT) -fprofile-generate -fprofile-update=single' $@
$(PGO_DIR)/trained: $(PGO_DIR)/issuewatt mk/pgo-train.sh
	@echo "  PGO     training $(PGO_DIR)/issuewatt (mk/pgo-train.sh)"
	@find $(BUILD) -name '*.gcda' -delete
	@sh mk/pgo-train.sh $(PGO_DIR)/issuewatt
	@touch $@
endif
.PHONY: FORCE
LIB := $(BUILD)/libissuewatt.a
BIN := $(BUILD)/issuewatt
TESTBIN := $(BUILD)/test_runner
BENCHBIN := $(BUILD)/bench_runner

all: $(BIN) $(LIB)
	@if [ "$(BUILD)" = build ] && [ "$(MPI)" != 1 ]; then ln -sf $(BIN) issuewatt; fi

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) $(if $(PGO_FOR),-dumpbase $(PGO_FOR)/$*) -MMD -MP -c $< -o $@

$(BUILD)/embed: core/embed.c
	@mkdir -p $(dir $@)
	cc -O1 -o $@ $<
$(BUILD)/resources.c: $(BUILD)/embed $(RESOURCES)
	$(BUILD)/embed $@ $(RESOURCES)
$(BUILD)/resources.o: $(BUILD)/resources.c
	$(CC) $(CFLAGS) -Wno-missing-prototypes -c $< -o $@

$(LIB): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(call obj,$(CLI_SRCS)) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(call obj,$(CLI_SRCS)) $(LIB) $(PKG_LIBS)

# One CUnit runner: every tests/test_NAME.c defines suite_NAME(); the list is
# generated from the file names so adding a suite touches one file.
$(BUILD)/suites.h: $(TEST_SRCS)
	@mkdir -p $(dir $@)
	@for f in $(sort $(notdir $(basename $(filter tests/test_%,$(TEST_SRCS))))); do \
		echo "IW_SUITE($${f#test_})"; done > $@.tmp && mv $@.tmp $@
$(BUILD)/tests/runner.o: $(BUILD)/suites.h
$(BUILD)/tests/runner.o: CFLAGS += -I$(BUILD) -Itests
$(call obj,$(TEST_SRCS)): CFLAGS += -Itests -Wno-missing-prototypes -DIW_SRCDIR='"$(CURDIR)"'
$(TESTBIN): $(call obj,$(TEST_SRCS)) $(filter-out $(BUILD)/cli/main.o,$(call obj,$(CLI_SRCS))) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

check: $(TESTBIN) $(BIN)
	@echo "== validating shipped XML against its schema"
	@set -e; for f in $(SHIPPED_XML); do \
		xsd=$$(sed -n 's/.*noNamespaceSchemaLocation="\([^"]*\)".*/\1/p' $$f | head -1); \
		[ -n "$$xsd" ] || { echo "$$f: names no schema (xsi:noNamespaceSchemaLocation)"; exit 1; }; \
		xmllint --noout --nonet --schema $$(dirname $$f)/$$xsd $$f 2>&1 | grep -v ' validates$$' || true; \
		xmllint --noout --nonet --schema $$(dirname $$f)/$$xsd $$f 2>/dev/null; \
	done
	@echo "== unit and integration tests"
	IW_BIN=$(CURDIR)/$(BIN) $(TESTBIN)

run: $(BIN)
	@mkdir -p out
	$(BIN) run -o out/default.h5

# Benchmarks: every bench/bench_NAME.c defines bench_NAME(); one runner prints
# measured figures (speed goals are checked here, never in timed tests).
$(BUILD)/benches.h: $(BENCH_SRCS)
	@mkdir -p $(dir $@)
	@for f in $(sort $(notdir $(basename $(filter bench/bench_%,$(BENCH_SRCS))))); do \
		echo "IW_BENCH($${f#bench_})"; done > $@.tmp && mv $@.tmp $@
$(BUILD)/bench/runner.o: $(BUILD)/benches.h
$(BUILD)/bench/runner.o: CFLAGS += -I$(BUILD)
$(call obj,$(BENCH_SRCS)): CFLAGS += -Ibench -Wno-missing-prototypes -DIW_SRCDIR='"$(CURDIR)"'
$(BENCHBIN): $(call obj,$(BENCH_SRCS)) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)
bench: $(BENCHBIN) $(BIN)
	IW_BIN=$(CURDIR)/$(BIN) $(BENCHBIN) $(BENCH)

# Regenerate the xcu50 device coefficients from Yosys syntheses of calib/rtl.
calibrate-fpga: $(BIN)
	sh calib/calibrate-fpga.sh $(CURDIR)/$(BIN) $(if $(REDUCED),--reduced)

man: $(BUILD)/issuewatt.1
# Each other command's --help as a section of its own (the commands are those
# the top-level --help names), set verbatim: every line starts with \& so
# none reads as a roff request, and backslashes and hyphens are escaped.
$(BUILD)/issuewatt.h2m: $(BIN)
	@set -e; cmds=$$($(BIN) --help | sed -n 's/^Other commands: issuewatt \([^ ]*\) .*/\1/p' | tr '|' ' '); \
	[ -n "$$cmds" ] || { echo "$(BIN) --help: no 'Other commands:' line to take the commands from"; exit 1; }; \
	{ echo '[COMMANDS]'; for c in $$cmds; do \
		echo ".SS \"issuewatt $$c\""; echo '.nf'; \
		$(BIN) $$c --help | sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e 's/^/\\\&/'; \
		echo '.fi'; \
	done; } > $@.tmp && mv $@.tmp $@
$(BUILD)/issuewatt.1: $(BIN) $(BUILD)/issuewatt.h2m
	help2man --no-info --name="cost and gain of GPU instruction-issue schemes" --include=$(BUILD)/issuewatt.h2m \
		--version-string="$$($(BIN) --version | head -1 | awk '{print $$2}')" -o $@ $(BIN)

install: $(BIN) $(LIB) $(BUILD)/issuewatt.1
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/issuewatt
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/issuewatt
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libissuewatt.a
	install -m 644 $(BUILD)/issuewatt.1 $(DESTDIR)$(PREFIX)/share/man/man1/issuewatt.1
	@# the source layout, so each file's xsi:noNamespaceSchemaLocation (../config.xsd) resolves
	@set -e; for f in $(RESOURCES); do \
		echo "install -D -m 644 $$f $(DESTDIR)$(PREFIX)/share/issuewatt/$$f"; \
		install -D -m 644 $$f $(DESTDIR)$(PREFIX)/share/issuewatt/$$f; \
	done
	install -d $(DESTDIR)$(PREFIX)/include/issuewatt
	install -m 644 $(foreach m,$(MODULES),$(wildcard $(m)/$(m).h)) core/iw.h $(DESTDIR)$(PREFIX)/include/issuewatt/

# Fuzzing with libFuzzer: one binary per tests/fuzz/fuzz_NAME.c, built with
# clang into $(FUZZ_BUILD); seeds from the fixtures (tests/fuzz/seed.sh); each
# target runs FUZZ_SECONDS; a crash, leak or hang stops the rule and leaves
# its input as $(FUZZ_BUILD)/crash-NAME-* (then add it to tests/fuzz/regress/NAME/).
FUZZ_SECONDS ?= 30
FUZZ_BUILD ?= build-fuzz
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
ifneq ($(IW_FUZZ),1)
fuzz:
	@$(MAKE) --no-print-directory IW_INNER=1 IW_FUZZ=1 CC=clang SAN=0 MPI=0 BUILD=$(FUZZ_BUILD) fuzz-run
else
$(BUILD)/fuzz/%: tests/fuzz/driver.c $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/common.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/fuzz -DIW_FUZZ_FN=iw_fuzz_$* -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)
fuzz-run: $(addprefix $(BUILD)/fuzz/,$(FUZZ_NAMES))
	@set -e; for t in $(FUZZ_NAMES); do \
		c=$(BUILD)/corpus/$$t; mkdir -p $$c; sh tests/fuzz/seed.sh $$t $$c; \
		printf '== fuzz %-18s %4s s: ' $$t $(FUZZ_SECONDS); \
		ASAN_OPTIONS=detect_leaks=1 $(BUILD)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
			-artifact_prefix=$(BUILD)/crash-$$t- $$c > $(BUILD)/fuzz-$$t.log 2>&1 \
			|| { echo FAILED; tail -60 $(BUILD)/fuzz-$$t.log; exit 1; }; \
		sed -n 's/^stat::number_of_executed_units: *//p' $(BUILD)/fuzz-$$t.log | tr '\n' ' '; \
		echo "executions, corpus $$(ls $$c | wc -l) inputs"; \
	done
endif
.PHONY: fuzz-run

-include $(wildcard $(BUILD)/*/*.d $(BUILD)/*/*/*.d)
.PHONY: $(PUBLIC_TARGETS)
endif
