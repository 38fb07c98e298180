# Build-time step: turns a text file into a C++ source defining `const char* const SYMBOL` with its content,
# so the binary carries the data file and does not depend on the source tree at run time.
# Usage: cmake -DINPUT=file -DOUTPUT=file.cpp -DSYMBOL=name -DNAMESPACE=ns -P embed_text.cmake
file(READ "${INPUT}" content)
string(FIND "${content}" ")evs_embed\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter; pick another one in embed_text.cmake")
endif()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by embed_text.cmake at build time. Do not edit.\n"
  "namespace ${NAMESPACE} {\n"
  "extern const char* const ${SYMBOL};\n"
  "const char* const ${SYMBOL} = R\"evs_embed(${content})evs_embed\";\n"
  "}  // namespace ${NAMESPACE}\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
