# Tests of class grading and of the grader's integrity (see docs/integrity.md):
#   adversarial.<case>      each submission of grader/tests/adversarial gets no
#                           credit for what it cheats (its expect.txt)
#   adversarial.class       the same folder graded as a class: zero points in
#                           grades.csv for every cheated exercise
#   adversarial.class_dedup the same, every case twice with one seed: identical
#                           files judged once, each twin its original's row
#   sandbox.<case>          the raw-system-call cases without the policy: the
#                           sandbox stops the attack (GPU)
#   class.static_share      an untouched starter judged once without --seed
#   class.shards            shards of a class merged equal one run
#   class.slurm             the same through a Slurm job array (77: no Slurm)
#   class.folders           folders as an LMS names them: a row each, notes on
#                           what was found, no machine paths, work files
#                           dropped, check --submission beside build/grade
#   determinism.<lesson>.<k> solutions and bug zoo, 12 files a part, graded
#                           twice more with new seeds: no verdict may flip, and
#                           each run gets the file's EXPECT verdict (GPU)
#   grading.determinism_expect  a steady verdict its EXPECT line refuses fails
#   policy.<lesson>.<kind>  the submission policy accepts starters and solutions
#   grading.points_file     grading/points.ini lists every exercise's default
#   grading.run_autograder  Gradescope gets only this grading's results file
#   grading.gradescope_zip  make gradescope's zip sets up in a clean folder
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
           COMMAND ${SYNCLAB_ON_GPU} $<TARGET_FILE:syncgrade> expect --policy --lesson ${lesson} --source ${source}
                   --expect ${dir}/expect.txt --out ${CMAKE_BINARY_DIR}/adversarial)
  set_tests_properties(adversarial.${case} PROPERTIES SKIP_RETURN_CODE 77
                       LABELS "${label};adversarial" TIMEOUT 1800)
  if(label STREQUAL "gpu")
    set_tests_properties(adversarial.${case} PROPERTIES ${SYNCLAB_GPU_TEST})
  endif()
endforeach()

# The static analysis' budget (grader/static/ptx_budget.h): its verdict in
# seconds, compile included, where it ran past 10 minutes without one.
set_tests_properties(adversarial.static_analysis_bomb PROPERTIES TIMEOUT 120)

# The cases whose attack is raw system calls, graded without the submission
# policy: the object check would refuse them (BUILD), so here the attack
# runs and the sandbox must stop it (sandbox.h). The same expect.txt less
# its `static` marks: those say the policy decides, and here there is none,
# so without a GPU these skip rather than count a SKIP as a MISMATCH.
foreach(case plants_results empties_ptx holds_turn_lock many_big_files protocol_exit_codes
             detects_tool reads_other_students fifo_outputs forged_no_gpu_exit
             forged_cuda_error_line)
  file(READ ${SYNCLAB_ADVERSARIAL_DIR}/${case}/expect.txt _sandbox_expect)
  string(REGEX REPLACE "[ \t]+static([ \t]*\n)" "\\1" _sandbox_expect "${_sandbox_expect}")
  file(WRITE ${CMAKE_BINARY_DIR}/sandbox-expect/${case}.txt "${_sandbox_expect}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${SYNCLAB_ADVERSARIAL_DIR}/${case}/expect.txt)
  add_test(NAME sandbox.${case}
           COMMAND ${SYNCLAB_ON_GPU} $<TARGET_FILE:syncgrade> expect --lesson reduction
                   --source ${SYNCLAB_ADVERSARIAL_DIR}/${case}/reduction.cu
                   --expect ${CMAKE_BINARY_DIR}/sandbox-expect/${case}.txt
                   --out ${CMAKE_BINARY_DIR}/sandbox-cases)
  set_tests_properties(sandbox.${case} PROPERTIES SKIP_RETURN_CODE 77
                       LABELS "gpu;adversarial;sandbox" TIMEOUT 1800
                       ${SYNCLAB_GPU_TEST})
endforeach()

add_test(NAME adversarial.class
         COMMAND ${SYNCLAB_ON_GPU} bash ${CMAKE_CURRENT_SOURCE_DIR}/class_adversarial.sh $<TARGET_FILE:syncgrade>
                 ${SYNCLAB_ADVERSARIAL_DIR} ${CMAKE_BINARY_DIR}/adversarial-class)
# static: it passes without a GPU; with one it grades the dynamic cases too.
set_tests_properties(adversarial.class PROPERTIES LABELS "static;adversarial;class" TIMEOUT 3600
                     ${SYNCLAB_GPU_TEST})

# The same cases twice each, one seed, identical files judged once
# (class/dedup.h): each case as its expect.txt says, each twin its
# original's row.
add_test(NAME adversarial.class_dedup
         COMMAND ${SYNCLAB_ON_GPU} bash ${CMAKE_CURRENT_SOURCE_DIR}/class_dedup.sh $<TARGET_FILE:syncgrade>
                 ${SYNCLAB_ADVERSARIAL_DIR} ${CMAKE_BINARY_DIR}/adversarial-class-dedup)
set_tests_properties(adversarial.class_dedup PROPERTIES LABELS "static;adversarial;class"
                     TIMEOUT 3600 ${SYNCLAB_GPU_TEST})

# Files whose verdicts are all static (an untouched starter) are judged once
# in a class without --seed (a seed per student): class/dedup.h.
add_test(NAME class.static_share
         COMMAND ${SYNCLAB_ON_GPU} bash ${CMAKE_CURRENT_SOURCE_DIR}/class_static_share.sh $<TARGET_FILE:syncgrade>
                 ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/class-static-share)
set_tests_properties(class.static_share PROPERTIES LABELS "static;class" TIMEOUT 900
                     ${SYNCLAB_GPU_TEST})

# The builds lever: a student's lessons built at once give the same
# grades.csv and reports as built one by one, and a file that built is
# compiled once (class_builds.sh). Static verdicts without a GPU.
add_test(NAME class.builds
         COMMAND ${SYNCLAB_ON_GPU} bash ${CMAKE_CURRENT_SOURCE_DIR}/class_builds.sh $<TARGET_FILE:syncgrade>
                 ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/class-builds)
set_tests_properties(class.builds PROPERTIES LABELS "static;class" TIMEOUT 900
                     ${SYNCLAB_GPU_TEST})

# Shards 1/3, 2/3, 3/3 merged equal one run of the class (static verdicts
# without a GPU; with one, the dynamic ones too).
add_test(NAME class.shards
         COMMAND ${SYNCLAB_ON_GPU} bash ${CMAKE_CURRENT_SOURCE_DIR}/class_shards.sh $<TARGET_FILE:syncgrade>
                 ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/class-shards)
set_tests_properties(class.shards PROPERTIES LABELS "static;class" TIMEOUT 3600
                     ${SYNCLAB_GPU_TEST})

add_test(NAME class.folders
         COMMAND ${SYNCLAB_ON_GPU} bash ${CMAKE_CURRENT_SOURCE_DIR}/class_folders.sh $<TARGET_FILE:syncgrade>
                 ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/class-folders)
set_tests_properties(class.folders PROPERTIES LABELS "static;class" TIMEOUT 1800
                     ${SYNCLAB_GPU_TEST})

add_test(NAME class.slurm
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/class_slurm.sh $<TARGET_FILE:syncgrade>
                 ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/class-slurm)
set_tests_properties(class.slurm PROPERTIES SKIP_RETURN_CODE 77 LABELS "static;class;slurm"
                     TIMEOUT 1800 PROCESSORS ${SYNCLAB_GPU_TEST_PROCESSORS} RUN_SERIAL TRUE)

# A shard graded on the node's own disk (SCRATCH) and copied to OUT, without
# Slurm: runs everywhere, CI included.
add_test(NAME class.slurm_scratch
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/slurm_scratch.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR}/class-slurm-scratch)
set_tests_properties(class.slurm_scratch PROPERTIES LABELS "static;class;slurm" TIMEOUT 120)

# A file the static stages let through, expected BUILD: a MISMATCH (exit 1),
# never a skip (77), with or without a GPU.
add_test(NAME grading.expect_static_mismatch
         COMMAND sh -c "\"$0\" expect --policy --lesson barriers --source \"$1\" --all BUILD --out \"$2\"; test $? -eq 1"
                 $<TARGET_FILE:syncgrade> ${CMAKE_SOURCE_DIR}/solutions/barriers.cu
                 ${CMAKE_BINARY_DIR}/expect-static-mismatch)
set_tests_properties(grading.expect_static_mismatch PROPERTIES LABELS "static;grader" TIMEOUT 600)
# determinism holds every run to the source's EXPECT line (static verdicts:
# decided without a GPU too)
add_test(NAME grading.determinism_expect
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/determinism_expect.sh $<TARGET_FILE:syncgrade>
                 ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/determinism-expect)
set_tests_properties(grading.determinism_expect PROPERTIES LABELS "static;grader" TIMEOUT 600)
# The same for "SYNC static" (a verdict the PTX check must give).
add_test(NAME grading.expect_static_sync_mismatch
         COMMAND sh -c "\"$0\" expect --lesson barriers --source \"$1\" --expect \"$2\" --out \"$3\"; test $? -eq 1"
                 $<TARGET_FILE:syncgrade> ${CMAKE_SOURCE_DIR}/solutions/barriers.cu
                 ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/expect/solution_sync_static.txt
                 ${CMAKE_BINARY_DIR}/expect-static-sync-mismatch)
set_tests_properties(grading.expect_static_sync_mismatch PROPERTIES LABELS "static;grader" TIMEOUT 600)

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
      # its own build folder: the lesson's expect tests build the same file
      # at the same time, and two nvcc -keep runs in one folder clobber
      # each other's intermediate files
      add_test(NAME policy.${l}.${kind}
               COMMAND $<TARGET_FILE:syncgrade> policy --lesson ${l}
                       --source ${CMAKE_SOURCE_DIR}/${kind}/${l}.cu
                       --out ${CMAKE_BINARY_DIR}/policy)
      set_tests_properties(policy.${l}.${kind} PROPERTIES LABELS "static;${l}" TIMEOUT 600)
    endforeach()
    # In parts of 12 files: one test of a whole lesson took past 555 s on an
    # H100 under ctest -j16 (barriers: 48 files, 3 runs each), longer than a
    # slice of scripts/ctest-resume.sh, which then ran it again forever.
    # Two runs, not three: each must give the file's EXPECT verdict, and the
    # zoo test (<lesson>.zoo.<name>) or the solution test is a third seed held
    # to the same verdict. These tests were half of the suite's GPU time (four
    # H200s, both suites at once: about 450 s a part against 21 s a zoo test).
    file(GLOB zoo ${CMAKE_SOURCE_DIR}/lessons/${l}/zoo/*.cu)
    set(sources ${CMAKE_SOURCE_DIR}/solutions/${l}.cu ${zoo})
    list(LENGTH sources n)
    set(part 0)
    foreach(first RANGE 0 ${n} 12)
      if(first EQUAL n)
        break()
      endif()
      math(EXPR part "${part} + 1")
      list(SUBLIST sources ${first} 12 chunk)
      set(args "")
      foreach(src ${chunk})
        list(APPEND args --source ${src})
      endforeach()
      set(name determinism.${l}.${part})
      add_test(NAME ${name}
               COMMAND ${SYNCLAB_ON_GPU} $<TARGET_FILE:syncgrade> determinism --lesson ${l} --runs 2 --jobs 2 ${args}
                       --out ${CMAKE_BINARY_DIR}/determinism-${l}-${part})
      set_tests_properties(${name} PROPERTIES ${SYNCLAB_GPU_TEST}
                           SKIP_RETURN_CODE 77 LABELS "gpu;determinism;${l}" TIMEOUT 14400)
    endforeach()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL _synclab_class_tests)

# run_autograder passes on only this grading's file; syncgrade fails loudly
# when a planted file sits where its result goes (docs/integrity.md)
add_test(NAME grading.run_autograder
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/run_autograder.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE:syncgrade> ${CMAKE_BINARY_DIR}/run_autograder)
set_tests_properties(grading.run_autograder PROPERTIES LABELS "static;grader;class" TIMEOUT 600)
# make gradescope: the zip from HEAD, and its setup.sh builds syncgrade in a
# clean folder, over a stale build/, without apt or root
string(REPLACE ";" "\\;" _zip_archs "${CMAKE_CUDA_ARCHITECTURES}")
add_test(NAME grading.gradescope_zip
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/gradescope_zip.sh ${CMAKE_SOURCE_DIR}
                 -DCMAKE_CUDA_ARCHITECTURES=${_zip_archs}
                 $<$<BOOL:${SYNCLAB_DEPS_ROOT}>:-DSYNCLAB_DEPS_ROOT=${SYNCLAB_DEPS_ROOT}>)
set_tests_properties(grading.gradescope_zip PROPERTIES LABELS "static;grader" TIMEOUT 900)

add_test(NAME grading.inputs
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/inputs_cmd.sh $<TARGET_FILE:syncgrade>
                 ${CMAKE_BINARY_DIR}/inputs)
set_tests_properties(grading.inputs PROPERTIES LABELS "static;grader")

add_test(NAME grading.sweep
         COMMAND ${SYNCLAB_ON_GPU} bash ${CMAKE_CURRENT_SOURCE_DIR}/sweep.sh $<TARGET_FILE:syncgrade>
                 ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/sweep)
set_tests_properties(grading.sweep PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu;grader" TIMEOUT 900
                     ${SYNCLAB_GPU_TEST})

# The machine's want of memory on the runner side, with a kernel that
# really kills (a cgroup v2 of the test's own: root only, else skipped).
add_test(NAME grader.memory_out_gpu
         COMMAND ${SYNCLAB_ON_GPU} bash ${CMAKE_CURRENT_SOURCE_DIR}/memory_out_gpu.sh
                 $<TARGET_FILE:syncgrade> ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/memory-out-gpu)
set_tests_properties(grader.memory_out_gpu PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu;grader"
                     TIMEOUT 600 ${SYNCLAB_GPU_TEST})

# A GPU whose memory another process holds: ERROR, never the student's.
add_executable(synclab_test_gpu_holder fixtures/gpu_holder.cu)
add_test(NAME grader.gpu_memory_held
         COMMAND ${SYNCLAB_ON_GPU} bash ${CMAKE_CURRENT_SOURCE_DIR}/gpu_memory_held.sh
                 $<TARGET_FILE:syncgrade> ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/gpu-memory-held
                 $<TARGET_FILE:synclab_test_gpu_holder>)
# RUN_SERIAL: the GPU it fills is every other GPU test's too
set_tests_properties(grader.gpu_memory_held PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu;grader"
                     TIMEOUT 600 RUN_SERIAL TRUE ${SYNCLAB_GPU_TEST})

# The together lever (judge/together.h): a student's lessons swept in one
# runner give the grades each lesson's own sweep gives, with several
# lessons wrong at once (a hang, memcheck, a race, a launch error).
add_test(NAME class.together
         COMMAND ${SYNCLAB_ON_GPU} bash ${CMAKE_CURRENT_SOURCE_DIR}/class_together.sh $<TARGET_FILE:syncgrade>
                 ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/class-together)
set_tests_properties(class.together PROPERTIES LABELS "gpu;class" TIMEOUT 1200
                     SKIP_RETURN_CODE 77 ${SYNCLAB_GPU_TEST})
