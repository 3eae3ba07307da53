# gpumem: GPU memory telemetry, from logs and captures to verdicts.
# GNU make.  `make` builds the programs into ./bin; `make check` runs the
# tests (normal build and ASan+UBSan build); `make demo` runs the main job
# on data gpumem makes itself.  See README.md.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANPREFIX ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
DOCDIR ?= $(DATADIR)/doc/gpumem
INSTALL ?= install
INSTALL_PROGRAM ?= $(INSTALL) -m 755
DESTDIR ?=
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/vendor-completions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
CC ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
FUZZCC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 2

# Build variants: `make SANITIZE=1` builds with ASan and UBSan into
# build/san and bin-san (the test suite runs both).  `make FUZZ=1` is the
# fuzzing build: clang, libFuzzer, ASan and UBSan, into build/fuzz (see
# `make fuzz` below).  `make COVERAGE=1` builds with gcov's counters,
# unoptimised so that lines and branches are the source's, into build/cov
# (see `make coverage` below).
ifeq ($(SANITIZE),1)
BUILD ?= build/san
BIN ?= build/san/bin
SAN = -fsanitize=address,undefined -fno-omit-frame-pointer \
      -fno-sanitize-recover=all
else ifeq ($(FUZZ),1)
CC = $(FUZZCC)
BUILD ?= build/fuzz
BIN ?= build/fuzz/bin
SAN = -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
      -fno-sanitize-recover=all
else ifeq ($(COVERAGE),1)
BUILD ?= build/cov
BIN ?= build/cov/bin
SAN = --coverage
CFLAGS = -O0 -g
else
BUILD ?= build/normal
BIN ?= bin
SAN =
endif

# libbz2 has no pkg-config file in Debian 12.
PKGS = libpcap zlib libzstd liblzma yaml-0.1 expat
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || \
	echo -lpcap -lz -lzstd -llzma -lyaml -lexpat) -lbz2

WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
       -Wvla -Wformat=2 -Wwrite-strings -Wpointer-arith -Wundef
ifeq ($(DEVELOPER),1)
WARN += -Werror
endif
# Library code lives in the subfolders of formats/, analyze/ and reports/;
# every folder that holds a header is on the include path.
SRCDIRS = formats analyze reports
LIBDIRS = $(sort $(patsubst %/,%,$(dir $(wildcard \
	$(addsuffix /*/*.[ch],$(SRCDIRS))))))
INCDIRS = $(SRCDIRS) $(LIBDIRS)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(PKG_CFLAGS) \
	-DGPUMEM_DATADIR='"$(DATADIR)/gpumem"' \
	$(addprefix -I,$(INCDIRS)) $(SAN) $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SAN) $(LDFLAGS)
LIBS = $(PKG_LIBS) -lm -pthread

# One binary per job: a .c at the top of formats/, analyze/ or reports/ is
# a command, gpumem-<name>, with its man page <name>.1 beside it;
# everything in their subfolders is library code (libgpumem.a).
TOOLS = $(basename $(wildcard $(addsuffix /*.c,$(SRCDIRS))))
TOOLSRC = $(addsuffix .c,$(TOOLS))
LIBSRC = $(filter-out $(TOOLSRC),$(wildcard $(addsuffix /*.c,$(SRCDIRS) \
	$(LIBDIRS))))
LIBOBJ = $(patsubst %.c,$(BUILD)/%.o,$(LIBSRC))
LIB = $(BUILD)/libgpumem.a
TOOLBINS = $(foreach t,$(TOOLS),$(BIN)/gpumem-$(notdir $(t)))
BINS = $(BIN)/gpumem $(TOOLBINS)
MANS = gpumem.1 $(addsuffix .1,$(TOOLS))

UNITSRC = $(wildcard tests/unit/*.c)
UNITBINS = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNITSRC))
TESTTOOLS = $(patsubst tests/tools/%.c,$(BUILD)/tools/%,\
	$(filter-out tests/tools/inject.c,$(wildcard tests/tools/*.c)))
# The fault injection shim (LD_PRELOAD): not with ASan, which must come
# first in a process and has its own malloc.
ifeq ($(filter 1,$(SANITIZE) $(FUZZ)),)
TESTTOOLS += $(BUILD)/tools/inject.so
endif

# A fuzz target per parser, tests/fuzz/fuzz_<name>.c.  Every variant
# builds them into $(BUILD)/fuzz/: with replay.c, a plain main that
# replays files (the test suite replays the seeds and the kept finds), or
# with libFuzzer in the FUZZ=1 variant.
FUZZSRC = $(wildcard tests/fuzz/fuzz_*.c)
FUZZBINS = $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZSRC))
FUZZOBJ = $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%.o,$(FUZZSRC)) \
	$(BUILD)/fuzz/fuzz.o $(BUILD)/fuzz/replay.o
ifeq ($(FUZZ),1)
FUZZMAIN =
FUZZLINK = -fsanitize=fuzzer
else
FUZZMAIN = $(BUILD)/fuzz/replay.o
FUZZLINK =
endif

# Plain `make` builds the programs; `make tests` what the test suite runs
# besides them (unit tests, test tools, fuzz replayers).
all: $(BINS)

tests: $(UNITBINS) $(TESTTOOLS) $(FUZZBINS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIBOBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $(LIBOBJ)

define tool_rule
$(BIN)/gpumem-$(notdir $(1)): $(BUILD)/$(1).o $(LIB)
	@mkdir -p $(BIN)
	$(CC) $(ALL_LDFLAGS) -o $$@ $(BUILD)/$(1).o $(LIB) $(LIBS)
endef
$(foreach t,$(TOOLS),$(eval $(call tool_rule,$(t))))

# The command list of the front (gpumem --help) comes from the tree: one
# line per command, its man page's .Nd, in the order of SRCDIRS (the
# pipeline: formats, analyze, reports).
CMDLIST = $(BUILD)/gen/cmdlist.h
$(CMDLIST): $(MANS) Makefile
	@mkdir -p $(dir $@)
	for c in $(TOOLS); do \
		printf '\t{"%s", "%s"},\n' "$$(basename $$c)" \
		    "$$(sed -n 's/["\\]/\\&/g; s/^\.Nd //p' $$c.1)"; \
	done > $@.tmp
	mv $@.tmp $@

$(BUILD)/gpumem.o: gpumem.c $(CMDLIST)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(BUILD)/gen -MMD -MP -c gpumem.c -o $@

$(BIN)/gpumem: $(BUILD)/gpumem.o $(LIB)
	@mkdir -p $(BIN)
	$(CC) $(ALL_LDFLAGS) -o $@ $(BUILD)/gpumem.o $(LIB) $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -MMD -MP -MF $@.d -o $@ $< $(LIB) \
	    $(LIBS) $(ALL_LDFLAGS)

$(BUILD)/tools/inject.so: tests/tools/inject.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -fPIC -shared -o $@ $< -ldl

$(BUILD)/tools/%: tests/tools/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -MF $@.d -o $@ $< $(LIB) $(LIBS) \
	    $(ALL_LDFLAGS)

$(BUILD)/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/fuzz -MMD -MP -c $< -o $@

$(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/fuzz_%.o $(BUILD)/fuzz/fuzz.o $(FUZZMAIN) $(LIB)
	$(CC) $(ALL_LDFLAGS) $(FUZZLINK) -o $@ $< $(BUILD)/fuzz/fuzz.o \
	    $(FUZZMAIN) $(LIB) $(LIBS)

# Keep the objects: make would delete them as intermediate files.
.SECONDARY: $(FUZZOBJ)

-include $(LIBOBJ:.o=.d) $(FUZZOBJ:.o=.d) $(UNITBINS:=.d) $(TESTTOOLS:=.d) $(BUILD)/gpumem.d $(addprefix $(BUILD)/,$(addsuffix .d,$(TOOLS)))

# Install the Debian packages the build and the tests need (where we can).
deps:
	@sh tests/deps.sh

# The whole test suite: unit and end-to-end tests on the normal build and
# on the ASan+UBSan build, after deps installed what the cases use (where
# it may); one closing line "N passed, N failed" (", N skipped" after it
# when cases were skipped: the line before names their groups, and the
# one before that, if any, the packages missing and how to install them).
check: deps
	@$(MAKE) --no-print-directory all tests
	@$(MAKE) --no-print-directory SANITIZE=1 all tests
	@sh tests/run.sh bin build/normal build/san/bin build/san

# Break the code on purpose, one rule at a time (tests/mutants/list), in a
# copy of the tree, and check that a test fails each time: "N killed, N
# survived".  Not part of check: it takes a while.  MUTANTS="a b" runs
# only those.
mutants:
	@sh tests/mutants/run.sh $(MUTANTS)

# Line and branch coverage of the whole suite: the COVERAGE=1 build, the
# suite on it, then lcov's report in build/cov/html and a table per folder
# on stdout (tests/coverage.sh).  Not part of check: it takes a while.
# COVERAGE_ONLY=PATTERN runs only those cases (tests/run.sh --only).
coverage:
	@sh tests/deps.sh --coverage
	@$(MAKE) --no-print-directory COVERAGE=1 all tests
	@sh tests/coverage.sh $(if $(COVERAGE_ONLY),--only $(COVERAGE_ONLY)) \
	    build/cov

# Run every fuzz target for FUZZ_SECONDS (FUZZ_JOBS at once), built with
# clang and libFuzzer into build/fuzz; finds go to build/fuzz/out/crash/.
# FUZZ_TARGETS="xml prom" runs only those.  tests/fuzz/README says more.
fuzz:
	@$(MAKE) --no-print-directory FUZZ=1 BUILD=build/fuzz fuzz-build
	@sh tests/fuzz/run.sh -t $(FUZZ_SECONDS) -j $(FUZZ_JOBS) build/fuzz \
	    $(FUZZ_TARGETS)

fuzz-build: $(FUZZBINS)

# The main job on data gpumem makes itself.
demo: deps all
	@sh tests/demo.sh

# Speed and memory, side by side with the tools a user would otherwise use;
# the table goes to bench/results.md, then the fleet's (bench/fleet.sh),
# then the goals' ratios from paired runs, with the load (bench/pairs.sh),
# then a fleet's report against tasks on the same logs (bench/report.sh).
bench: deps all tests
	@sh tests/deps.sh --bench
	@sh bench/run.sh
	@sh bench/fleet.sh | tee -a bench/results.md
	@sh bench/pairs.sh | tee -a bench/results.md
	@sh bench/report.sh | tee -a bench/results.md

install: $(BINS)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANPREFIX)/man1
	for b in $(BINS); do $(INSTALL_PROGRAM) $$b $(DESTDIR)$(BINDIR)/; done
	cp gpumem.1 $(DESTDIR)$(MANPREFIX)/man1/gpumem.1
	for t in $(TOOLS); do \
		cp $$t.1 $(DESTDIR)$(MANPREFIX)/man1/gpumem-$$(basename $$t).1; \
	done
	mkdir -p $(DESTDIR)$(DOCDIR)
	cp README.md docs/*.md $(DESTDIR)$(DOCDIR)/
	mkdir -p $(DESTDIR)$(DATADIR)/gpumem/wireshark
	cp contrib/wireshark/gmem.lua $(DESTDIR)$(DATADIR)/gpumem/wireshark/
	mkdir -p $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
	    $(DESTDIR)$(FISHCOMPDIR)
	cp contrib/completion/gpumem.bash $(DESTDIR)$(BASHCOMPDIR)/gpumem
	for t in $(TOOLS); do \
		ln -sf gpumem $(DESTDIR)$(BASHCOMPDIR)/gpumem-$$(basename $$t); \
	done
	cp contrib/completion/_gpumem $(DESTDIR)$(ZSHCOMPDIR)/_gpumem
	cp contrib/completion/gpumem.fish $(DESTDIR)$(FISHCOMPDIR)/gpumem.fish
	mkdir -p $(DESTDIR)$(DATADIR)/gpumem/maps
	cp formats/maps/*.yaml $(DESTDIR)$(DATADIR)/gpumem/maps/
	# The fleet recipes (docs/scale.md) beside the data, not on PATH: they
	# are run by path (sbatch, slurm.conf's Epilog) and find each other.
	mkdir -p $(DESTDIR)$(DATADIR)/gpumem/parallel $(DESTDIR)$(DATADIR)/gpumem/slurm
	$(INSTALL) -m 755 contrib/parallel/gpumem-fleet $(DESTDIR)$(DATADIR)/gpumem/parallel/
	for s in contrib/slurm/*; do \
		$(INSTALL) -m 755 $$s $(DESTDIR)$(DATADIR)/gpumem/slurm/; \
	done
	# The node recorder (docs/scale.md), its unit naming where it is.
	mkdir -p $(DESTDIR)$(DATADIR)/gpumem/systemd
	$(INSTALL) -m 755 contrib/systemd/gpumem-recorder $(DESTDIR)$(DATADIR)/gpumem/systemd/
	sed -e 's|^ExecStart=.*|ExecStart=$(DATADIR)/gpumem/systemd/gpumem-recorder|' \
	    -e 's|^Documentation=.*|Documentation=file://$(DOCDIR)/scale.md|' \
	    contrib/systemd/gpumem-recorder.service \
	    > $(DESTDIR)$(DATADIR)/gpumem/systemd/gpumem-recorder.service

# The same, with the programs stripped of their symbols.
install-strip:
	$(MAKE) INSTALL_PROGRAM='$(INSTALL) -m 755 -s' install

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gpumem
	for t in $(TOOLS); do \
		rm -f $(DESTDIR)$(BINDIR)/gpumem-$$(basename $$t) \
		    $(DESTDIR)$(MANPREFIX)/man1/gpumem-$$(basename $$t).1; \
	done
	rm -f $(DESTDIR)$(MANPREFIX)/man1/gpumem.1
	rm -rf $(DESTDIR)$(DATADIR)/gpumem $(DESTDIR)$(DOCDIR)
	rm -f $(DESTDIR)$(BASHCOMPDIR)/gpumem $(DESTDIR)$(BASHCOMPDIR)/gpumem-* \
	    $(DESTDIR)$(ZSHCOMPDIR)/_gpumem $(DESTDIR)$(FISHCOMPDIR)/gpumem.fish

clean:
	rm -rf build bin

.PHONY: all bench check coverage tests clean demo deps fuzz fuzz-build install \
	install-strip mutants uninstall
