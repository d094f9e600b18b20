# grading/points.ini must be exactly what `syncgrade points` writes: every
# lesson and exercise with its suite's default. Instructors edit a copy (or
# this file in their fork); here it documents the defaults.
execute_process(COMMAND ${SYNCGRADE} points OUTPUT_VARIABLE expected RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "syncgrade points failed (${rc})")
endif()
file(READ ${POINTS} actual)
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "${POINTS} is not the defaults of the lessons' suites "
                      "(an exercise was added, renamed or given other points).\n"
                      "Regenerate it: syncgrade points > grading/points.ini")
endif()
execute_process(COMMAND ${SYNCGRADE} points --points ${POINTS} RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "syncgrade cannot read ${POINTS}")
endif()
