# Whether a grader test needs a GPU, from the verdicts it expects: "static"
# when every one can be given without a GPU (such tests run, and must pass,
# in CI), else "gpu". Included by cmake/Lessons.cmake (bug-zoo tests) and
# grader/tests/ClassTests.cmake (adversarial tests).
include_guard(GLOBAL)

# synclab_verdicts_in(<out var> <file> <line prefix regex>): the verdicts of
# every "<prefix><exercise> <VERDICTS>" line: prefix "// EXPECT +" in a
# bug-zoo source, "" in an adversarial expect.txt.
function(synclab_verdicts_in out file prefix)
  file(STRINGS ${file} lines REGEX "^${prefix}[a-z_0-9]+ +[A-Z|]+")
  set(verdicts "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^${prefix}[^ ]+ +([^ ]+).*" "\\1" v "${line}")
    # "<exercise> SYNC static": a verdict the PTX checks give, so the test
    # needs no GPU (and must pass without one)
    if(line MATCHES "^${prefix}[^ ]+ +[^ ]+ +static( |$)")
      set(v static)
    endif()
    list(APPEND verdicts ${v})
  endforeach()
  set(${out} ${verdicts} PARENT_SCOPE)
endfunction()

# synclab_label_of_verdicts(<out var> <verdict>...): "A|B" alternatives allowed.
function(synclab_label_of_verdicts out)
  # in here, not a variable: include_guard would leave it in the first
  # includer's directory scope only
  set(static_verdicts BUILD TODO RULE static)
  set(label static)
  foreach(v IN LISTS ARGN)
    string(REPLACE "|" ";" alternatives "${v}")
    foreach(one IN LISTS alternatives)
      list(FIND static_verdicts ${one} i)
      if(i EQUAL -1)
        set(label gpu)
      endif()
    endforeach()
  endforeach()
  set(${out} ${label} PARENT_SCOPE)
endfunction()
