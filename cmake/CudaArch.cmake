# Chooses CMAKE_CUDA_ARCHITECTURES before project() enables CUDA: the
# visible GPU's compute capability, or 90 (H100) when none can be detected
# (CI and build hosts have no GPU). -DCMAKE_CUDA_ARCHITECTURES=... overrides.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(_synclab_arch 90)
  find_program(_synclab_smi nvidia-smi)
  if(_synclab_smi)
    execute_process(COMMAND ${_synclab_smi} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE _cap RESULT_VARIABLE _rc ERROR_QUIET TIMEOUT 20)
    if(_rc EQUAL 0 AND _cap MATCHES "^([0-9]+)\\.([0-9]+)")
      set(_synclab_arch "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
    endif()
  endif()
  set(CMAKE_CUDA_ARCHITECTURES ${_synclab_arch} CACHE STRING "CUDA architectures to build for")
endif()
