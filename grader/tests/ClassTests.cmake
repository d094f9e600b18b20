# Tests of class grading and of the grader's integrity (see docs/integrity.md):
#   adversarial.<case>      each submission of grader/tests/adversarial gets no
#                           credit for what it cheats (its expect.txt)
#   adversarial.class       the same folder graded as a class: zero points in
#                           grades.csv for every cheated exercise
#   determinism.<lesson>    solutions and bug zoo graded 3 times with different
#                           seeds: no verdict may flip (GPU)
#   policy.<lesson>.<kind>  the submission policy accepts starters and solutions
#   grading.points_file     grading/points.ini lists every exercise's default
#   grading.inputs          syncgrade inputs replays a seed's inputs
#   grading.sweep           the lesson sweep saves tool runs, changes no verdict (GPU)
set(SYNCLAB_ADVERSARIAL_DIR ${CMAKE_CURRENT_SOURCE_DIR}/adversarial)
include(${CMAKE_SOURCE_DIR}/cmake/TestLabels.cmake)

file(GLOB _cases LIST_DIRECTORIES true ${SYNCLAB_ADVERSARIAL_DIR}/*)
foreach(dir IN LISTS _cases)
  if(NOT IS_DIRECTORY ${dir} OR NOT EXISTS ${dir}/expect.txt)
    continue()
  endif()
  get_filename_component(case ${dir} NAME)
  file(GLOB sources ${dir}/*.cu)
  list(GET sources 0 source)
  get_filename_component(lesson ${source} NAME_WE)
  synclab_verdicts_in(verdicts ${dir}/expect.txt "")
  synclab_label_of_verdicts(label ${verdicts})
  add_test(NAME adversarial.${case}
           COMMAND $<TARGET_FILE:syncgrade> expect --policy --lesson ${lesson} --source ${source}
                   --expect ${dir}/expect.txt --out ${CMAKE_BINARY_DIR}/adversarial)
  set_tests_properties(adversarial.${case} PROPERTIES SKIP_RETURN_CODE 77
                       LABELS "${label};adversarial" TIMEOUT 1800)
  if(label STREQUAL "gpu")
    set_tests_properties(adversarial.${case} PROPERTIES PROCESSORS ${SYNCLAB_GPU_TEST_PROCESSORS})
  endif()
endforeach()

add_test(NAME adversarial.class
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/class_adversarial.sh $<TARGET_FILE:syncgrade>
                 ${SYNCLAB_ADVERSARIAL_DIR} ${CMAKE_BINARY_DIR}/adversarial-class)
# static: it passes without a GPU; with one it grades the dynamic cases too.
set_tests_properties(adversarial.class PROPERTIES LABELS "static;adversarial;class" TIMEOUT 3600
                     PROCESSORS ${SYNCLAB_GPU_TEST_PROCESSORS})

add_test(NAME grading.points_file
         COMMAND ${CMAKE_COMMAND} -DSYNCGRADE=$<TARGET_FILE:syncgrade>
                 -DPOINTS=${CMAKE_SOURCE_DIR}/grading/points.ini
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/points_file.cmake)
set_tests_properties(grading.points_file PROPERTIES LABELS "static;grader")

# Per-lesson tests, once every synclab_add_lesson() has run.
function(_synclab_class_tests)
  get_property(lessons GLOBAL PROPERTY SYNCLAB_LESSONS)
  foreach(l IN LISTS lessons)
    foreach(kind starter solutions)
      add_test(NAME policy.${l}.${kind}
               COMMAND $<TARGET_FILE:syncgrade> policy --lesson ${l}
                       --source ${CMAKE_SOURCE_DIR}/${kind}/${l}.cu)
      set_tests_properties(policy.${l}.${kind} PROPERTIES LABELS "static;${l}" TIMEOUT 600)
    endforeach()
    file(GLOB zoo ${CMAKE_SOURCE_DIR}/lessons/${l}/zoo/*.cu)
    set(args "")
    foreach(src ${CMAKE_SOURCE_DIR}/solutions/${l}.cu ${zoo})
      list(APPEND args --source ${src})
    endforeach()
    add_test(NAME determinism.${l}
             COMMAND $<TARGET_FILE:syncgrade> determinism --lesson ${l} --runs 3 --jobs 2 ${args}
                     --out ${CMAKE_BINARY_DIR}/determinism)
    set_tests_properties(determinism.${l} PROPERTIES PROCESSORS ${SYNCLAB_GPU_TEST_PROCESSORS})
    set_tests_properties(determinism.${l} PROPERTIES SKIP_RETURN_CODE 77
                         LABELS "gpu;determinism;${l}" TIMEOUT 14400)
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL _synclab_class_tests)

add_test(NAME grading.inputs
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/inputs_cmd.sh $<TARGET_FILE:syncgrade>
                 ${CMAKE_BINARY_DIR}/inputs)
set_tests_properties(grading.inputs PROPERTIES LABELS "static;grader")

add_test(NAME grading.sweep
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/sweep.sh $<TARGET_FILE:syncgrade>
                 ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/sweep)
set_tests_properties(grading.sweep PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu;grader" TIMEOUT 900
                     PROCESSORS ${SYNCLAB_GPU_TEST_PROCESSORS})
