# The exercises.h list ties suite.c and harness.cu together at compile time
# (grader/run/exercise_list.h): the fixture lesson compiles as written, and
# stops compiling, with a message naming the culprit, when one side
# misspells or leaves out an exercise.
#   cmake -DCC=... -DCXX=... -DSTAGES=<the grader's stage folders, ;-separated>
#         -DRUNNER=... -DCUDA_INCLUDE=...
#         -DFIXTURES=... -P exercise_list.cmake
set(c_args -std=c11 -fsyntax-only -Wall -Wextra -Werror -I${FIXTURES})
set(cxx_args -x c++ -std=c++17 -fsyntax-only -I${FIXTURES})
foreach(dir ${STAGES})
  list(APPEND c_args -I${dir})
  list(APPEND cxx_args -I${dir})
endforeach()
list(APPEND cxx_args -I${RUNNER})
foreach(dir ${CUDA_INCLUDE})
  list(APPEND cxx_args -I${dir})
endforeach()

# compile(<name> <0: must compile | 1: must fail> <text the error must hold> <compiler> <args>...)
function(compile name must_fail want compiler)
  execute_process(COMMAND ${compiler} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  if(must_fail AND rc EQUAL 0)
    message(FATAL_ERROR "${name}: compiled, but must not")
  elseif(NOT must_fail AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: does not compile:\n${out}")
  elseif(must_fail AND NOT out MATCHES "${want}")
    message(FATAL_ERROR "${name}: the error does not mention '${want}':\n${out}")
  endif()
  message(STATUS "${name}: ok")
endfunction()

compile("suite.c as written" 0 "" ${CC} ${c_args} ${FIXTURES}/suite.c)
compile("suite.c naming betta" 1 "SL_EX_betta" ${CC} ${c_args} -DMISSPELLED ${FIXTURES}/suite.c)
compile("suite.c without beta" 1 "another number of exercises than exercises.h lists"
        ${CC} ${c_args} -DLEFT_OUT ${FIXTURES}/suite.c)
compile("harness as written" 0 "" ${CXX} ${cxx_args} ${FIXTURES}/harness.cpp)
compile("harness without run_beta" 1 "run_beta" ${CXX} ${cxx_args} -DNO_RUN ${FIXTURES}/harness.cpp)
compile("harness without bench_beta" 1 "bench_beta" ${CXX} ${cxx_args} -DNO_BENCH_FN
        ${FIXTURES}/harness.cpp)
