# Thin wrapper over CMake/CTest so the usual commands work from the root.
# A fresh machine needs the CUDA toolkit only: the first build installs the
# libraries it lacks (apt as root or with sudo, else unpacked into .deps).
#   make            configure and build everything (grader, starters, solutions, bug zoo)
#   make test       the test suite (GPU tests skip cleanly without a GPU)
#
# Students (docs/students.md): quiet, only the grader's table and explanations.
#   make check LESSON=barriers            one lesson, with hints (the student loop)
#   make watch LESSON=barriers            the same on every save of the file; Ctrl-C stops
#   make hint LESSON=barriers [EXERCISE=halo_diff]   one more hint step per call
#   make run LESSON=barriers EXERCISE=tile_reverse N=40 BLOCK=32 [SEED=s] [INPUT=file]
#            [TOOL=racecheck]             your kernel on a tiny input, beside the expected
#   make progress                         what passes, what is next
#   make grade [SUBMISSION=dir]           every lesson of starter/ (or dir)
#
# Instructors (docs/instructors.md):
#   make grade SUBMISSIONS=dir            a whole class: one folder per student;
#        writes $(CLASS_OUT)/grades.csv and per-student reports. Options:
#        CLASS_OUT=dir  GRADE_JOBS=n (students at once)  POINTS=file  LESSON=name
#   make handout OUT=dir                  the repository students get (no solutions, no zoo)
#   make gradescope OUT=autograder.zip    Gradescope's autograder, from HEAD; options:
#        NO_GPU=static|error  GRADE_ARGS="--visibility ..."  POINTS=file
#   make deps       install the Debian packages the build needs (root)
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_ARGS ?=
CLASS_OUT ?= $(BUILD)/class
export BUILD JOBS CMAKE_ARGS

.PHONY: all configure build grader test grade check hint progress run watch handout gradescope deps clean

# The student commands run while make reads this file, so that a failing
# check ends make without its "make: *** [...] Error" line: make -q (set
# below) exits 1 in silence. Their output goes to make's own stdout.
STUDENT_GOALS := check hint progress grade run watch handout
student_goal := $(filter $(STUDENT_GOALS),$(MAKECMDGOALS))
ifneq ($(student_goal),)
  ifneq ($(words $(MAKECMDGOALS)),1)
    $(error make $(student_goal) runs alone, not with other goals)
  endif
  student_status := $(shell LESSON='$(LESSON)' EXERCISE='$(EXERCISE)' \
    SUBMISSION='$(SUBMISSION)' SUBMISSIONS='$(SUBMISSIONS)' SEED='$(SEED)' N='$(N)' \
    BLOCK='$(BLOCK)' INPUT='$(INPUT)' TOOL='$(TOOL)' OUT='$(OUT)' CLASS_OUT='$(CLASS_OUT)' \
    GRADE_JOBS='$(GRADE_JOBS)' POINTS='$(POINTS)' GRADE_ARGS='$(GRADE_ARGS)' \
    BUILD='$(BUILD)' JOBS='$(JOBS)' CMAKE_ARGS='$(CMAKE_ARGS)' \
    scripts/student.sh $(student_goal) >>/proc/$$PPID/fd/1; echo $$?)
  ifneq ($(student_status),0)
    MAKEFLAGS += -q
  endif
$(STUDENT_GOALS):
	@:
endif

all: build

configure:
	@scripts/build-quiet.sh help >/dev/null

build:
	@scripts/build-quiet.sh

# syncgrade alone: enough to read results (hint, progress)
grader:
	@scripts/build-quiet.sh syncgrade

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

deps:
	scripts/install-deps.sh

gradescope:
	@NO_GPU='$(NO_GPU)' GRADE_ARGS='$(GRADE_ARGS)' POINTS='$(POINTS)' \
	  scripts/make-gradescope.sh '$(if $(OUT),$(OUT),autograder.zip)'

clean:
	rm -rf $(BUILD)
