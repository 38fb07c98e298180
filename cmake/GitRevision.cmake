# Writes the checkout's git revision into a header at build time, so that --version and every report's environment
# name the code that was built, not the commit that was current when CMake last configured (a rebuild after new
# commits does not configure again). "-dirty" follows the hash when tracked files differ from it; "unknown" outside
# a git checkout. The header is rewritten only when its text changes, so a build with nothing new recompiles nothing.
# Run as a script: cmake -DSOURCE_DIR=... -DOUTPUT=... -P cmake/GitRevision.cmake
execute_process(COMMAND git rev-parse --short HEAD WORKING_DIRECTORY "${SOURCE_DIR}"
                OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR NOT revision)
  set(revision "unknown")
else()
  # --no-optional-locks: a build never takes the index lock a user's own git command may be waiting on.
  execute_process(COMMAND git --no-optional-locks diff --quiet HEAD -- WORKING_DIRECTORY "${SOURCE_DIR}"
                  RESULT_VARIABLE differs OUTPUT_QUIET ERROR_QUIET)
  if(differs)
    string(APPEND revision "-dirty")
  endif()
endif()
set(text "// Written by cmake/GitRevision.cmake at build time; not in the source tree.\n#define EVALSUITE_GIT_REVISION \"${revision}\"\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old_text)
endif()
if(NOT text STREQUAL old_text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
