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
  # Studies started by tests skip the few-second machine probe unless a test asks for it (--machine-ceilings).
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 120 PROPERTIES TIMEOUT 900
                       ENVIRONMENT EVALSUITE_MACHINE_CEILINGS=skip)
endfunction()
