#!/bin/bash
# Dev-only: builds runners for the solution, the starter and every zoo mutant.
set -e
cd "$(dirname "$0")"
R=/work/main
mkdir -p bin obj
INC="-I$R/lessons/scan -I$R/grader/runner -I$R/grader/core"
NV="nvcc -std=c++17 -arch=sm_90 -lineinfo -O3 $INC"
for f in caseio exercise rng text; do gcc -O2 -std=gnu11 -I$R/grader/core -c $R/grader/core/$f.c -o obj/$f.o; done
gcc -O2 -std=c11 -I$R/grader/core -c $R/lessons/scan/suite.c -o obj/suite.o
gcc -O2 -std=c11 -I$R/grader/core -c $R/lessons/scan/reference.c -o obj/reference.o
gcc -O2 -std=c11 -I$R/grader/core -c drive.c -o obj/drive.o
gcc obj/drive.o obj/suite.o obj/reference.o obj/caseio.o obj/exercise.o obj/rng.o obj/text.o -lm -o bin/drive
$NV -c $R/grader/runner/runner_main.cu -o obj/runner_main.o
$NV -c $R/lessons/scan/harness.cu -o obj/harness.o
build_runner() { # name source
  $NV -c "$2" -o obj/$1.o
  nvcc -arch=sm_90 obj/$1.o obj/harness.o obj/runner_main.o obj/caseio.o -o bin/runner_$1
}
build_runner solution $R/solutions/scan.cu
build_runner starter $R/starter/scan.cu
for m in $R/lessons/scan/zoo/*.cu; do build_runner zoo_$(basename $m .cu) $m; done
ls -la bin
for m in early_return; do build_runner zoo_$m $m.cu; done
