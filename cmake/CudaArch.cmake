# Chooses CMAKE_CUDA_ARCHITECTURES before project() enables CUDA. It is no
# longer the GPU a class is graded on: syncgrade asks the GPU that grades
# (nvidia-smi, grader/run/gpu_arch.h) and builds students' files for it.
# The first arch listed is the default when no GPU can be asked (CI, a
# login node, `syncgrade expect --static`): 90 (H100), whatever machine
# configures, so a build does not depend on where it was configured. The
# lesson harnesses are built for every GPU instead (cmake/HarnessArch.cmake).
# -DCMAKE_CUDA_ARCHITECTURES=80 (or CUDAARCHS) changes the default.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING
      "CUDA arch students' files are built for when no GPU can be asked")
endif()
