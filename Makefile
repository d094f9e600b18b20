# Thin wrapper over CMake/CTest so the usual commands work from the root.
#   make            configure and build everything (grader, starters, solutions, bug zoo)
#   make test       the test suite (GPU tests skip cleanly without a GPU)
#   make grade      grade starter/ (or SUBMISSION=dir) on the GPU
#   make check LESSON=barriers   one lesson, with hints (the student loop)
#   make deps       install the Debian packages the build needs (root)
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_ARGS ?=

.PHONY: all configure build test grade check deps clean

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_ARGS)

configure: $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

grade: build
	$(BUILD)/syncgrade grade $(if $(SUBMISSION),--submission $(SUBMISSION)) $(if $(LESSON),--lesson $(LESSON)) $(GRADE_ARGS)

check: build
	@test -n "$(LESSON)" || { echo "usage: make check LESSON=<name>  (see: $(BUILD)/syncgrade list)"; exit 2; }
	$(BUILD)/syncgrade check --lesson $(LESSON) $(if $(SUBMISSION),--submission $(SUBMISSION))

deps:
	scripts/install-deps.sh

clean:
	rm -rf $(BUILD)
