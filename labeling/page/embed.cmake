# cmake -DINPUT=file -DOUTPUT=file.cpp -DSYMBOL=Name -DNAMESPACE=ns -P embed.cmake
# Turns a text file into a C++ function returning its bytes (a char array, so any content is safe: no raw
# string delimiter to collide with). Rewrites OUTPUT only when it changes, to keep rebuilds incremental.
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# Break the initializer into lines of 32 bytes so compilers and diffs stay comfortable.
string(REPEAT "0x[0-9a-f][0-9a-f]," 32 line_pattern)
string(REGEX REPLACE "(${line_pattern})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by embed.cmake at build time: do not edit.\n"
  "#include <string_view>\n\n"
  "namespace ${NAMESPACE} {\nnamespace {\nconstexpr unsigned char kBytes[] = {\n${bytes}0x00};\n}  // namespace\n\n"
  "std::string_view ${SYMBOL}() { return std::string_view(reinterpret_cast<const char*>(kBytes), sizeof(kBytes) - 1); }\n\n"
  "}  // namespace ${NAMESPACE}\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
file(REMOVE "${OUTPUT}.tmp")
