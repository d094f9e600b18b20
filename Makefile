# Thin wrapper over CMake/CTest so the usual commands work from the root.
#   make            configure and build everything (grader, starters, solutions, bug zoo)
#   make test       the test suite (GPU tests skip cleanly without a GPU)
#
# Students (docs/students.md):
#   make check LESSON=barriers            one lesson, with hints (the student loop)
#   make hint LESSON=barriers [EXERCISE=halo_diff]   the last verdict explained
#   make progress                         what passes, what is next
#   make grade [SUBMISSION=dir]           every lesson of starter/ (or dir)
#
# Instructors (docs/instructors.md):
#   make grade SUBMISSIONS=dir            a whole class: one folder per student;
#        writes $(CLASS_OUT)/grades.csv and per-student reports. Options:
#        CLASS_OUT=dir  GRADE_JOBS=n (students at once)  POINTS=file  LESSON=name
#
#   make deps       install the Debian packages the build needs (root)
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_ARGS ?=
CLASS_OUT ?= $(BUILD)/class

.PHONY: all configure build grader test grade check hint progress deps clean

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_ARGS)

configure: $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# syncgrade alone: enough to read results (hint, progress)
grader: configure
	cmake --build $(BUILD) -j $(JOBS) --target syncgrade

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

grade: build
	$(if $(SUBMISSIONS), \
	  $(BUILD)/syncgrade class --submissions $(SUBMISSIONS) --out $(CLASS_OUT) \
	    $(if $(GRADE_JOBS),--jobs $(GRADE_JOBS)) $(if $(POINTS),--points $(POINTS)) \
	    $(if $(LESSON),--lesson $(LESSON)) $(GRADE_ARGS), \
	  $(BUILD)/syncgrade grade $(if $(SUBMISSION),--submission $(SUBMISSION)) \
	    $(if $(LESSON),--lesson $(LESSON)) $(if $(POINTS),--points $(POINTS)) $(GRADE_ARGS))

check: build
	@test -n "$(LESSON)" || { echo "usage: make check LESSON=<name>  (see: $(BUILD)/syncgrade list)"; exit 2; }
	$(BUILD)/syncgrade check --lesson $(LESSON) $(if $(SUBMISSION),--submission $(SUBMISSION))

hint: grader
	@test -n "$(LESSON)" || { echo "usage: make hint LESSON=<name> [EXERCISE=<name>]"; exit 2; }
	@$(BUILD)/syncgrade hint --lesson $(LESSON) $(if $(EXERCISE),--exercise $(EXERCISE)) \
	  $(if $(SUBMISSION),--submission $(SUBMISSION))

progress: grader
	@$(BUILD)/syncgrade progress $(if $(SUBMISSION),--submission $(SUBMISSION))

deps:
	scripts/install-deps.sh

clean:
	rm -rf $(BUILD)
