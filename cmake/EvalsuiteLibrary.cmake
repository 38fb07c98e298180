# Unity builds (CMake's UNITY_BUILD): a target's .cpp files are compiled a batch at a time as one translation unit,
# so nlohmann/json, fmt, toml++, GoogleTest and, in training/ and generalization/, LibTorch's headers are parsed once
# per batch instead of once per file: most of a file's compile time here is those headers. A file whose
# anonymous-namespace helper has the same name as another file's in the same target cannot share a batch with it:
# list it with evalsuite_compile_alone() in the target's CMakeLists (or rename the helper). OFF builds file by file.
option(EVALSUITE_UNITY_BUILD "Compile each target's sources in batches (faster from scratch)" OFF)
set(EVALSUITE_UNITY_BATCH 8 CACHE STRING "Source files per unity batch")

function(evalsuite_unity target)
  if(EVALSUITE_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${EVALSUITE_UNITY_BATCH})
  endif()
endfunction()

# evalsuite_compile_alone(FILE ...): these files (relative to the calling CMakeLists) stay out of unity batches.
function(evalsuite_compile_alone)
  foreach(file ${ARGN})
    set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/${file} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endforeach()
endfunction()

# evalsuite_library(NAME DIR [DEPS ...]): one static library from every .cpp in DIR (globbed, so adding a
# file needs no CMake edit). The project root is the include root: #include "stats/proportion.h".
function(evalsuite_library name dir)
  file(GLOB sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  file(GLOB headers CONFIGURE_DEPENDS ${dir}/*.h)
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
  evalsuite_unity(${name})
  # Studies started by tests skip the few-second machine probe unless a test asks for it (--machine-ceilings).
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 120 PROPERTIES TIMEOUT 900
                       ENVIRONMENT EVALSUITE_MACHINE_CEILINGS=skip)
endfunction()
