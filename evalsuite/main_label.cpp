// evalsuite-label: the labeling commands (`label serve|agreement|export|debias`), with the HTTP server's libraries
// (cpp-httplib, OpenSSL, ICU) that the front binary leaves out so that its own commands start faster. Users run
// `evalsuite label ...`, which the front hands to this binary (main.cpp); calling it directly works the same.
#include "evalsuite/cli/label/label_binary.h"

int main(int argc, char** argv) { return evalsuite::cli::LabelBinaryMain(argc, argv); }
