#!/bin/bash
# Dev-only: makes variant sources of the solution and builds perf binaries.
set -e
cd "$(dirname "$0")"
R=/work/main
mkdir -p var bin
S=$R/solutions/scan.cu
mk() { # name sed-script
  sed -e "$2" $S > var/$1.cu
  nvcc -std=c++17 -arch=sm_90 -O3 -I$R/lessons/scan -I$R/grader/runner -DVARIANT_FILE="\"var/$1.cu\"" -DVARIANT_NAME="\"$1\"" perf.cu -o bin/perf_$1 &
}
mk base ''
#mk t128v8 's/^#define ANY_THREADS 256/#define ANY_THREADS 128/; s/^#define ANY_VECS 4 /#define ANY_VECS 8 /'
wait
#mk t512v2 's/^#define ANY_THREADS 256/#define ANY_THREADS 512/; s/^#define ANY_VECS 4 /#define ANY_VECS 2 /'
#mk plainld 's/__ldcs(&in4\[r \* ANY_THREADS + threadIdx.x\])/in4[r * ANY_THREADS + threadIdx.x]/; s/__stcs(&out4\[r \* ANY_THREADS + threadIdx.x\], v\[r\])/out4[r * ANY_THREADS + threadIdx.x] = v[r]/'
wait
mk forward 's/unsigned tile = gridDim.x - 1 - blockIdx.x;/unsigned tile = blockIdx.x;/'
wait
grep -c "gridDim.x - 1" var/reverse.cu; grep -c "__ldcs\|__stcs" var/plainld.cu
ls bin
