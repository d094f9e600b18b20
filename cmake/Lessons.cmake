# synclab_add_lesson(<name> [MIN_ARCH <sm>]): everything a lesson needs, from its files.
#   lessons/<name>/harness.cu   -> libsynclab_harness_<name>.a (runner side),
#       for SYNCLAB_HARNESS_ARCHITECTURES from sm_<MIN_ARCH> on (default 75),
#       and libsynclab_harness_<name>.archs, that list, which the grader
#       reads to tell whether a runner can run on the GPU (gpu_arch.h)
#   lessons/<name>/suite.c, reference.c -> compiled into syncgrade
#   starter/<name>.cu, solutions/<name>.cu, lessons/<name>/zoo/*.cu
#       -> built by `syncgrade build` (target lesson_<name>, part of ALL)
#       -> one CTest each: starter gets TODO, solution PASS, mutants their
#          // EXPECT verdicts
# The lessons registry and syncgrade itself are made once every lesson is in.

set(SYNCLAB_HARNESS_DIR ${CMAKE_BINARY_DIR}/harness)
set(SYNCLAB_EXPECT_DIR ${CMAKE_BINARY_DIR}/expect)
include(${CMAKE_CURRENT_LIST_DIR}/TestLabels.cmake)

function(_synclab_expect_test lesson source name)
  set(args ${ARGN})
  if(args)
    set(verdicts "${args}")
  else()
    synclab_verdicts_in(verdicts ${source} "// EXPECT +")
  endif()
  synclab_label_of_verdicts(label ${verdicts})
  set(cmd ${SYNCLAB_ON_GPU} $<TARGET_FILE:syncgrade> expect --lesson ${lesson} --source ${source}
          --out ${SYNCLAB_EXPECT_DIR})
  if(args)
    list(APPEND cmd --all ${args})
  endif()
  add_test(NAME ${lesson}.${name} COMMAND ${cmd})
  set_tests_properties(${lesson}.${name} PROPERTIES SKIP_RETURN_CODE 77 LABELS "${label};${lesson}"
                       TIMEOUT 1200)
  if(label STREQUAL "gpu")
    set_tests_properties(${lesson}.${name} PROPERTIES ${SYNCLAB_GPU_TEST})
  endif()
endfunction()

function(synclab_add_lesson name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "MIN_ARCH" "")
  if(NOT arg_MIN_ARCH)
    set(arg_MIN_ARCH 75)
  endif()
  set(dir ${CMAKE_SOURCE_DIR}/lessons/${name})
  if(NOT EXISTS ${dir}/suite.c OR NOT EXISTS ${dir}/harness.cu)
    message(WARNING "lesson ${name}: lessons/${name}/suite.c or harness.cu missing, skipped")
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY SYNCLAB_LESSONS ${name})

  # Runner side: the harness and the runner's main, linked later with a
  # student's object by `syncgrade build`.
  add_library(synclab_harness_${name} STATIC ${dir}/harness.cu
              ${CMAKE_SOURCE_DIR}/grader/runner/runner_main.cu
              ${CMAKE_SOURCE_DIR}/grader/runner/syscall_wall.c
              ${CMAKE_SOURCE_DIR}/grader/runner/input_files.c
              ${CMAKE_SOURCE_DIR}/grader/runner/driver_watch.c
              ${CMAKE_SOURCE_DIR}/grader/run/case.c)
  target_include_directories(synclab_harness_${name} PRIVATE ${dir}
                             ${CMAKE_SOURCE_DIR}/grader/runner ${CMAKE_SOURCE_DIR}/grader/run
                             ${CUDAToolkit_INCLUDE_DIRS})
  # headers only: build.c links the runner with libseccomp and CUPTI
  target_include_directories(synclab_harness_${name} PRIVATE
                             $<TARGET_PROPERTY:PkgConfig::SECCOMP,INTERFACE_INCLUDE_DIRECTORIES>)
  target_compile_options(synclab_harness_${name} PRIVATE
                         $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  synclab_harness_archs(archs ${arg_MIN_ARCH})
  set_target_properties(synclab_harness_${name} PROPERTIES
                        ARCHIVE_OUTPUT_DIRECTORY ${SYNCLAB_HARNESS_DIR}
                        POSITION_INDEPENDENT_CODE ON
                        CUDA_ARCHITECTURES "${archs}")
  file(CONFIGURE OUTPUT ${SYNCLAB_HARNESS_DIR}/libsynclab_harness_${name}.archs
       CONTENT "${archs}\n")
  # The same harness for a runner of a whole submission (build.h:
  # sl_build_lessons_runner): its table named sl_runner_exercises_<name>,
  # without the runner's main (libsynclab_runner_lessons.a has it).
  add_library(synclab_lesson_runner_${name} STATIC ${dir}/harness.cu)
  target_compile_definitions(synclab_lesson_runner_${name} PRIVATE
                             sl_runner_exercises=sl_runner_exercises_${name})
  target_include_directories(synclab_lesson_runner_${name} PRIVATE ${dir}
                             ${CMAKE_SOURCE_DIR}/grader/runner ${CMAKE_SOURCE_DIR}/grader/run
                             ${CUDAToolkit_INCLUDE_DIRS})
  target_compile_options(synclab_lesson_runner_${name} PRIVATE
                         $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  set_target_properties(synclab_lesson_runner_${name} PROPERTIES
                        ARCHIVE_OUTPUT_DIRECTORY ${SYNCLAB_HARNESS_DIR}
                        POSITION_INDEPENDENT_CODE ON
                        CUDA_ARCHITECTURES "${archs}")

  # Grader side: pure C.
  file(GLOB suite_sources ${dir}/*.c)
  add_library(synclab_lesson_${name} OBJECT ${suite_sources})
  target_link_libraries(synclab_lesson_${name} PRIVATE synclab_core)
  target_include_directories(synclab_lesson_${name} PRIVATE ${dir})

  # Every known submission of the lesson, built the way students' are.
  set(sources ${CMAKE_SOURCE_DIR}/starter/${name}.cu)
  set(solution ${CMAKE_SOURCE_DIR}/solutions/${name}.cu)
  if(EXISTS ${solution})   # a student's handout has none (make handout)
    list(APPEND sources ${solution})
  endif()
  file(GLOB zoo ${dir}/zoo/*.cu)
  list(APPEND sources ${zoo})
  set(commands "")
  foreach(src IN LISTS sources)
    get_filename_component(base ${src} NAME_WE)
    get_filename_component(parent ${src} DIRECTORY)
    get_filename_component(parent ${parent} NAME)
    list(APPEND commands COMMAND $<TARGET_FILE:syncgrade> build --lesson ${name} --source ${src}
         --out ${SYNCLAB_EXPECT_DIR}/${name}/${parent}-${base}/build)
  endforeach()
  add_custom_target(lesson_${name} ALL ${commands}
                    DEPENDS syncgrade synclab_harness_${name}
                    COMMENT "Building lesson ${name}: starter, solution, bug zoo")

  _synclab_expect_test(${name} ${CMAKE_SOURCE_DIR}/starter/${name}.cu starter TODO)
  if(EXISTS ${solution})
    _synclab_expect_test(${name} ${solution} solution PASS)
  endif()
  foreach(src IN LISTS zoo)
    get_filename_component(base ${src} NAME_WE)
    _synclab_expect_test(${name} ${src} zoo.${base})
  endforeach()
endfunction()

# Called once at the end of the top directory: registry + syncgrade.
function(_synclab_finish_lessons)
  get_property(lessons GLOBAL PROPERTY SYNCLAB_LESSONS)
  set(decls "")
  set(entries "")
  foreach(l IN LISTS lessons)
    string(APPEND decls "extern const sl_lesson sl_lesson_${l};\n")
    string(APPEND entries "    &sl_lesson_${l},\n")
  endforeach()
  file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/generated/lessons_registry.c CONTENT
"/* Generated by CMake from the synclab_add_lesson() lines. */
#include \"lesson_run.h\"
${decls}
const sl_lesson *const sl_lessons[] = {
${entries}    0,
};
")
  # The runner of a whole submission: the runner's main and the list of
  # the lessons' tables (runner.h), each weak: the lessons linked are the
  # ones a submission's runner has.
  set(decls "")
  set(entries "")
  foreach(l IN LISTS lessons)
    string(APPEND decls
           "extern const sl_runner_exercise sl_runner_exercises_${l}[] __attribute__((weak));\n")
    string(APPEND entries "    {\"${l}\", sl_runner_exercises_${l}},\n")
  endforeach()
  file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/generated/runner_lessons.cu CONTENT
"/* Generated by CMake from the synclab_add_lesson() lines. */
#include \"runner.h\"
${decls}
const sl_runner_exercise sl_runner_exercises[] = {{NULL, NULL, NULL}};
const sl_runner_lesson sl_runner_lessons[] = {
${entries}    {NULL, NULL},
};
")
  add_library(synclab_runner_lessons STATIC ${CMAKE_BINARY_DIR}/generated/runner_lessons.cu
              ${CMAKE_SOURCE_DIR}/grader/runner/runner_main.cu
              ${CMAKE_SOURCE_DIR}/grader/runner/syscall_wall.c
              ${CMAKE_SOURCE_DIR}/grader/runner/input_files.c
              ${CMAKE_SOURCE_DIR}/grader/runner/driver_watch.c
              ${CMAKE_SOURCE_DIR}/grader/run/case.c)
  target_include_directories(synclab_runner_lessons PRIVATE
                             ${CMAKE_SOURCE_DIR}/grader/runner ${CMAKE_SOURCE_DIR}/grader/run
                             ${CUDAToolkit_INCLUDE_DIRS}
                             $<TARGET_PROPERTY:PkgConfig::SECCOMP,INTERFACE_INCLUDE_DIRECTORIES>)
  target_compile_options(synclab_runner_lessons PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  synclab_harness_archs(archs 0)
  set_target_properties(synclab_runner_lessons PROPERTIES
                        ARCHIVE_OUTPUT_DIRECTORY ${SYNCLAB_HARNESS_DIR}
                        POSITION_INDEPENDENT_CODE ON
                        CUDA_ARCHITECTURES "${archs}")
  set(runner_libs synclab_runner_lessons)
  foreach(l IN LISTS lessons)
    list(APPEND runner_libs synclab_lesson_runner_${l})
  endforeach()
  add_dependencies(syncgrade ${runner_libs})

  set(objects "")
  foreach(l IN LISTS lessons)
    list(APPEND objects $<TARGET_OBJECTS:synclab_lesson_${l}>)
  endforeach()
  target_sources(syncgrade PRIVATE ${CMAKE_BINARY_DIR}/generated/lessons_registry.c ${objects})
  if(TARGET lesson_inputs_tests)   # grader/tests: the shapes every lesson's inputs promise
    target_sources(lesson_inputs_tests PRIVATE ${CMAKE_BINARY_DIR}/generated/lessons_registry.c
                   ${objects})
  endif()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL _synclab_finish_lessons)
