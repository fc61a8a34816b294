# The lab: build, boot and test the ftrace direct-call series for Linux 6.1
# on x86_64, arm64, riscv64, ppc64el, s390x and mips64el under QEMU.
# 'make help' lists the targets.

ARCH ?= x86_64
# riscv64 first: its guest is the slowest, and each guest runs while the
# next architecture builds (mips64el and s390x build beside them all:
# CHECK_BESIDE in their arches/ARCH.env).
ARCHS ?= riscv64 x86_64 arm64 ppc64el mips64el s390x
# The architecture blocks a distribution may leave out, alone and all at
# once: make series-check applies the series without each, make
# check-subset also runs make check on what is left (scripts/series/subset.sh).
SUBSETS ?= riscv64 mips64el s390x ppc64el riscv64+mips64el+s390x+ppc64el
# Built and tested by make check-extra, not by make check: an architecture
# on its way in (docs/architectures.md); none at present.
EXTRA_ARCHS ?=
BENCH_ARCHS ?= x86_64 arm64 riscv64
DEBUG_ARCHS ?= x86_64 arm64 riscv64 s390x
# the fault-injection sweeps (make check-faults)
FAULT_ARCHS ?= x86_64 arm64 riscv64
# the storms at full length: the three with two CPUs (mips64el has one)
STORM_ARCHS ?= riscv64 x86_64 arm64
# single-stepped guests for the preemption windows (riscv64's)
PREEMPT_ARCHS ?= riscv64
VARIANTS ?= arm64:os arm64:cfi riscv64:os
DISTRO_ARCHS ?= x86_64 arm64 riscv64
S := scripts

.PHONY: help deps tree export export-check build initramfs boot check \
	series-check export-debian rebase-base check-extra check-bisect samecode check-subset check-storm check-smc check-preempt check-debug check-faults check-variants check-distro \
	deb check-system bench bench-attach icount demo fixes-audit judge config-show clean

help:
	@echo "make demo [ARCH=x86_64]        install, build, boot, show a direct call at work"
	@echo "make check [ARCHS='...']       series checks + build + boot + every guest suite"
	@echo "make check-extra EXTRA_ARCHS=... the same on architectures outside make check"
	@echo "make deps | tree | export | export-check"
	@echo "make build | initramfs | boot ARCH=x86_64|arm64|riscv64|s390x|mips64el"
	@echo "make config-show ARCH= [VARIANT=] the layers a kernel's config is made from, in order"
	@echo "make judge NAME=x86_64         judge a saved guest run again (build/results/NAME.raw, .console, .run)"
	@echo "make series-check              patches apply, checkpatch --strict, the fixes-audit answers"
	@echo "make export-debian             patches/ as debian/patches (DEP-3), tried on Debian's own linux source"
	@echo "make rebase-base [VERSION=V]   move the series to linux-source-6.1 V (default: the newest apt serves)"
	@echo "make fixes-audit MAINLINE_GIT=DIR  upstream fixes of the counterparts: carried, answered or missing"
	@echo "make check-subset [SUBSETS=] [ARCHS=] make check on the series without the architecture blocks a distribution may drop"
	@echo "make check-bisect ARCH=...     build after each patch (BOOT=1: and boot; IN_TREE=1: in build/linux; VARIANT=nopreempt; OWN=1)"
	@echo "make samecode ARCH=... FROM=N TO=M  the functions whose code patches N..M change; fails if a traced call runs one"
	@echo "make check-storm [STORM_ARCHS=] the KUnit and BPF storms at full length (make check shortens them), 1000 fentry detached under calls"
	@echo "make check-smc [SMC_ARCHS=]   does a vCPU run code another rewrote? (QEMU's multi-threaded TCG: not always)"
	@echo "make check-preempt [PREEMPT_ARCHS=] the preemption-window storms in single-stepped guests (riscv64)"
	@echo "make check-debug [DEBUG_ARCHS=] the guest suites on KASAN/lockdep/kmemleak kernels (x86_64 arm64 riscv64 s390x)"
	@echo "make check-faults [FAULT_ARCHS=] every direct-call entry point and BPF attach path with each allocation failed in turn (fail-nth)"
	@echo "make check-variants [VARIANTS=] the guest suites on other builders' configs (arm64: -Os; clang kCFI/SCS/BTI/PAC)"
	@echo "make check-distro [DISTRO_ARCHS=] the guest suites on Debian's own 6.1 configs (riscv64: defconfig + trixie's tracing)"
	@echo "make deb ARCH=...              Debian packages of the patched kernel (check-distro's config), in build/deb/ARCH"
	@echo "make check-system ARCH=...     the packages installed on a Debian system under systemd, the users' tools run"
	@echo "make bench [BENCH_ARCHS='...'] cost of a traced call, ours against mainline 6.12: tables and a chart"
	@echo "make bench-attach [BENCH_ARCHS='...'] [ATTACH_SIZES=10,100,1000] [BENCH_ICOUNT=1] time to attach and detach fentry on N functions, ours against 6.12"
	@echo "make icount [BENCH_ARCHS='...'] [ICOUNT_MODES=a,b] instructions of a traced call, ours against mainline 6.12, by function"

deps:
	@$(S)/deps.sh $(ARCHS)

tree:
	@$(S)/series/tree.sh

export:
	@$(S)/series/export.sh

export-check:
	@$(S)/series/export-check.sh

build:
	@$(S)/build.sh $(ARCH)

initramfs:
	@$(S)/initramfs.sh $(ARCH)

boot:
	@$(S)/boot.sh $(ARCH)

config-show:
	@$(S)/config-show.sh $(ARCH) $(VARIANT)

judge:
	@[ -n "$(NAME)" ] || { echo "make judge: NAME= names a run in build/results (x86_64, arm64-debug, ...)" >&2; exit 2; }
	@$(S)/judge.sh $(NAME)

series-check:
	@$(S)/series/check.sh
	@$(S)/series/subset.sh

export-debian:
	@$(S)/series/export-debian.sh
	@$(S)/series/export-debian-test.sh

rebase-base:
	@$(S)/series/rebase-base.sh $(VERSION)

fixes-audit:
	@[ -n "$(MAINLINE_GIT)" ] || { echo "make fixes-audit: MAINLINE_GIT=DIR names a mainline (or stable) git tree" >&2; exit 2; }
	@MAINLINE_GIT="$(MAINLINE_GIT)" $(S)/series/fixes-audit.sh

check:
	@$(S)/check.sh $(ARCHS)

check-extra:
	@[ -n "$(EXTRA_ARCHS)" ] || { echo "make check-extra: EXTRA_ARCHS is empty (every lab architecture is in make check)" >&2; exit 2; }
	@$(S)/check.sh $(EXTRA_ARCHS)

check-bisect:
	@$(S)/series/bisect.sh $(ARCH)

samecode:
	@FROM=$(FROM) TO=$(TO) $(S)/series/samecode.sh $(ARCH)

check-subset:
	@CHECK=1 $(S)/series/subset.sh $(SUBSETS)

check-storm:
	@$(S)/check-storm.sh $(STORM_ARCHS)

check-smc:
	@$(S)/check-smc.sh $(SMC_ARCHS)

check-preempt:
	@$(S)/check-preempt.sh $(PREEMPT_ARCHS)

check-debug:
	@$(S)/check-debug.sh $(DEBUG_ARCHS)

check-faults:
	@$(S)/check-faults.sh $(FAULT_ARCHS)

check-variants:
	@$(S)/check-variants.sh $(VARIANTS)

check-distro:
	@$(S)/check-variants.sh $(addsuffix :distro,$(DISTRO_ARCHS))

deb:
	@$(S)/system/deb.sh $(ARCH)

check-system:
	@$(S)/system/check.sh $(ARCH)

bench:
	@$(S)/bench/bench.sh $(BENCH_ARCHS)

bench-attach:
	@BENCH_SUITE=attach $(S)/bench/bench.sh $(BENCH_ARCHS)

icount:
	@$(S)/bench/icount.sh $(BENCH_ARCHS)

demo:
	@$(S)/demo.sh $(ARCH)

clean:
	rm -rf build/out build/results build/logs
