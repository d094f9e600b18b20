# The archs this nvcc builds for (SYNCLAB_NVCC_ARCHS, "75;80;86;...": the
# grader never asks nvcc for an arch it lacks) and the lesson harnesses'
# (SYNCLAB_HARNESS_ARCHITECTURES): a harness must run on whatever GPU grades
# (a class is often built on a node without one). SASS of sm_XY runs on
# every GPU of major X with minor >= Y, so the oldest arch of each major
# from sm_75 on covers every GPU the toolkit knows; PTX of the newest lets
# the driver JIT it for a GPU newer than the toolkit. Six SASS and one PTX
# with nvcc 13 (75 80 90 100 110 120, compute_121).
execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-arch OUTPUT_VARIABLE _synclab_list
                RESULT_VARIABLE _synclab_rc ERROR_QUIET TIMEOUT 60)
string(REGEX MATCHALL "compute_[0-9]+" _synclab_list "${_synclab_list}")
set(SYNCLAB_NVCC_ARCHS "")
foreach(_a IN LISTS _synclab_list)
  string(REPLACE "compute_" "" _a "${_a}")
  list(APPEND SYNCLAB_NVCC_ARCHS ${_a})
endforeach()
list(SORT SYNCLAB_NVCC_ARCHS COMPARE NATURAL)
list(REMOVE_DUPLICATES SYNCLAB_NVCC_ARCHS)

if(NOT DEFINED SYNCLAB_HARNESS_ARCHITECTURES)
  set(_synclab_harness "")
  set(_synclab_majors "")
  set(_synclab_newest "")
  foreach(_a IN LISTS SYNCLAB_NVCC_ARCHS)
    if(_a LESS 75)
      continue()
    endif()
    math(EXPR _major "${_a} / 10")
    if(NOT _major IN_LIST _synclab_majors)
      list(APPEND _synclab_majors ${_major})
      list(APPEND _synclab_harness ${_a}-real)
    endif()
    set(_synclab_newest ${_a})
  endforeach()
  if(_synclab_newest)
    list(APPEND _synclab_harness ${_synclab_newest}-virtual)
  else() # an nvcc without --list-gpu-arch: the default arch only
    set(_synclab_harness ${CMAKE_CUDA_ARCHITECTURES})
  endif()
  set(SYNCLAB_HARNESS_ARCHITECTURES "${_synclab_harness}" CACHE STRING
      "CUDA archs of the lesson harnesses (CMake list: 75-real;80-real;...;121-virtual)")
endif()
message(STATUS "Lesson harnesses for: ${SYNCLAB_HARNESS_ARCHITECTURES}")

# synclab_harness_archs(<out> <min>): the harness archs from sm_<min> on
# (a lesson whose header needs sm_80: cuda::barrier's hardware path).
function(synclab_harness_archs out min)
  set(kept "")
  foreach(a IN LISTS SYNCLAB_HARNESS_ARCHITECTURES)
    string(REGEX MATCH "^[0-9]+" n "${a}")
    if("${n}" STREQUAL "" OR "${n}" GREATER_EQUAL "${min}")
      list(APPEND kept ${a})
    endif()
  endforeach()
  set(${out} "${kept}" PARENT_SCOPE)
endfunction()
