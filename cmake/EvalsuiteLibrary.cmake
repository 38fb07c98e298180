# Unity builds (CMake's UNITY_BUILD), on by default: a target's .cpp files are compiled a batch at a time as one
# translation unit, so nlohmann/json, fmt, toml++, GoogleTest and, in training/ and generalization/, LibTorch's headers
# are parsed once per batch instead of once per file: most of a file's compile time here is those headers, and CI
# builds from scratch (scripts/run-tests.sh, scripts/run-default.sh). A batch of 16 holds every file of each target
# that includes LibTorch, so its headers are parsed once per target.
# What a batch shares: the files of one batch are one translation unit, so two files of a target must not both
# define a helper of the same name in an anonymous namespace (or as a file-level static), and a file's macros and
# using-directives reach the files after it. Rename such a helper to say what it does, or move a helper that two
# files share into a header. evalsuite_compile_alone() keeps a file out of the batches; each use says why.
# -DEVALSUITE_UNITY_BUILD=OFF builds file by file (a change to one file then recompiles only that file).
option(EVALSUITE_UNITY_BUILD "Compile each target's sources in batches (faster from scratch)" ON)
set(EVALSUITE_UNITY_BATCH 16 CACHE STRING "Source files per unity batch")

function(evalsuite_unity target)
  if(EVALSUITE_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${EVALSUITE_UNITY_BATCH})
  endif()
endfunction()

# Test code needs no -O3: a GoogleTest file compiles about a third faster at -O1 (the sanitizer build's level), and
# what the tests exercise, the libraries, keeps the build type's flags (-O3 in Release).
set(EVALSUITE_TEST_OPTIMIZATION "-O1" CACHE STRING "Optimization flag for the test binaries' own files in Release")

# Code whose speed no user waits on (the command line's glue, the labeling page's server, the Flickr crawler that
# waits on the network) builds faster at -O1: about a quarter of the main job's compile time is such code, and -O
# levels change no result (no -ffast-math anywhere). What is timed (training, statistics, reports, import) keeps -O3.
set(EVALSUITE_GLUE_OPTIMIZATION "-O1" CACHE STRING "Optimization flag in Release for code no one waits on")
function(evalsuite_glue_code target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:${EVALSUITE_GLUE_OPTIMIZATION}>)
endfunction()

# evalsuite_compile_alone(FILE ...): these files (relative to the calling CMakeLists) stay out of unity batches.
function(evalsuite_compile_alone)
  foreach(file ${ARGN})
    set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/${file} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endforeach()
endfunction()

# evalsuite_library(NAME DIR [DEPS ...]): one static library from every .cpp in DIR (globbed, so adding a
# file needs no CMake edit). The project root is the include root: #include "stats/proportion.h".
# DIR may be a list of folders ("a;b"): a library whose files a folder splits by job (study/).
function(evalsuite_library name dir)
  set(sources)
  set(headers)
  foreach(folder ${dir})
    file(GLOB folder_sources CONFIGURE_DEPENDS ${folder}/*.cpp)
    file(GLOB folder_headers CONFIGURE_DEPENDS ${folder}/*.h)
    list(APPEND sources ${folder_sources})
    list(APPEND headers ${folder_headers})
  endforeach()
  if(sources)
    add_library(${name} STATIC ${sources} ${headers})
    target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
    target_link_libraries(${name} PUBLIC ${ARGN})
  else()
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${PROJECT_SOURCE_DIR})
    target_link_libraries(${name} INTERFACE ${ARGN})
  endif()
  if(sources)
    target_compile_options(${name} PRIVATE -Wall -Wextra)
    evalsuite_unity(${name})
  endif()
endfunction()

# evalsuite_test(NAME DIR [DEPS ...]): one GoogleTest binary from every *_test.cpp in DIR, registered
# with CTest test by test. tests/support/test_support.h finds ../shared/data and the built binary.
function(evalsuite_test name dir)
  file(GLOB sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  if(NOT sources)
    return()
  endif()
  add_executable(${name} ${sources})
  target_link_libraries(${name} PRIVATE ${ARGN} GTest::gtest GTest::gtest_main GTest::gmock)
  target_compile_options(${name} PRIVATE $<$<CONFIG:Release>:${EVALSUITE_TEST_OPTIMIZATION}>)
  evalsuite_unity(${name})
  # Studies started by tests skip the few-second machine probe unless a test asks for it (--machine-ceilings).
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 120 PROPERTIES TIMEOUT 900
                       ENVIRONMENT EVALSUITE_MACHINE_CEILINGS=skip)
endfunction()
