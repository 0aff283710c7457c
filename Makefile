# SPDX-License-Identifier: GPL-2.0
#
# make                 build the modules (build/stock) against KDIR
# make install         install them into /lib/modules/<kver>/extra and run depmod
# make sparse          sparse (C=2) over every module source, zero findings
# make checkpatch      checkpatch.pl --no-tree over every kernel source
# make shellcheck      shellcheck over every shell script, zero findings
# make tools           the C++ user-space tools (CMake, build/tools)
# make debug-kernel    build or reuse the debug test kernel (cached)
# make run             boot two guests and show the modules working
# make check           everything; ends with "N passed, N failed"
# make bench           benchmarks (figures as ratios against baselines; lst
#                      against a Lustre 2.17.0 node, ours and mixed)
# make interop         against a real Lustre 2.17.0 LNet node in guests
# make deb             Debian packages lnet-dkms and lnet-utils (build/deb)
#
# KDIR defaults to the running kernel's build tree when it has one, else to
# Debian's stock 6.1 headers (linux-headers-amd64).

TOP := $(CURDIR)
# kbuild's M= takes no whitespace: build through a space-free alias of the
# tree when its path has some (scripts/kbuild-top.sh).
KTOP := $(shell "$(TOP)/scripts/kbuild-top.sh")
SRC_DIRS := Kbuild include lnet klnds tests/selfcheck tests/bench tests/lndtest \
	tests/vectors

RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
ifeq ($(origin KDIR),undefined)
  ifneq ($(wildcard $(RUNNING_KDIR)/Makefile),)
    KDIR := $(RUNNING_KDIR)
  else
    KDIR := /usr/src/linux-headers-$(shell "$(TOP)/scripts/stock-kernel.sh")
  endif
endif

STOCK_BUILD := $(KTOP)/build/stock
DEBUG_BUILD := $(KTOP)/build/debug

# Copy the sources next to each kernel's objects; rsync keeps mtimes, so
# kbuild's incremental rebuilds still work, and excluded build products are
# left alone by --delete.
define sync_tree
	@mkdir -p $(1)
	@rsync -aR --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
		--exclude='.*.cmd' --exclude='modules.order' --exclude='Module.symvers' \
		--exclude='*.a' --exclude='.tmp_*' \
		$(foreach d,$(wildcard $(SRC_DIRS)),$(d)) $(1)/
endef

.PHONY: all modules modules-debug install sparse checkpatch shellcheck tools tools-test \
	debug-kernel check check-long run bench interop deb deps clean

all: modules

deps:
	@"$(TOP)/scripts/install-deps.sh"

modules:
	$(call sync_tree,$(STOCK_BUILD))
	$(MAKE) -C $(KDIR) M=$(STOCK_BUILD) W=1 modules

# The debug flavour also builds the KUnit suites and the bench self-checks.
modules-debug:
	$(call sync_tree,$(DEBUG_BUILD))
	$(MAKE) -C $$("$(TOP)/scripts/build-debug-kernel.sh" | tail -n1) \
		M=$(DEBUG_BUILD) W=1 LNET_KUNIT=1 modules

install: modules
	$(MAKE) -C $(KDIR) M=$(STOCK_BUILD) INSTALL_MOD_DIR=extra modules_install

sparse:
	@"$(TOP)/scripts/static-checks.sh" sparse $(KDIR)

checkpatch:
	@"$(TOP)/scripts/static-checks.sh" checkpatch

shellcheck:
	@"$(TOP)/scripts/static-checks.sh" shellcheck

# ccache (shared with the debug kernel's cache) when present: a warm
# machine rebuilds the tools in seconds instead of minutes. Paths are
# hashed relative to the tree, so a fresh clone elsewhere (CI) hits too.
tools:
	cmake -S tools -B build/tools -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		$$(command -v ccache >/dev/null && echo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache) >/dev/null
	CCACHE_DIR=$${LNET_CACHE:-$$HOME/.cache/lnet-dev}/ccache \
		CCACHE_BASEDIR=$(TOP) CCACHE_NOHASHDIR=1 \
		cmake --build build/tools -j$$(nproc)

tools-test: tools
	cd build/tools && ctest --output-on-failure

debug-kernel:
	@"$(TOP)/scripts/build-debug-kernel.sh"

check:
	@"$(TOP)/scripts/check.sh"

check-long:
	@"$(TOP)/scripts/check.sh" long

run:
	@"$(TOP)/scripts/run.sh"

bench:
	@"$(TOP)/scripts/bench.sh"

interop:
	@"$(TOP)/scripts/interop.sh"

deb:
	@"$(TOP)/scripts/make-deb.sh"

clean:
	rm -rf build
