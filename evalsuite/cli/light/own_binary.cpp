#include "evalsuite/cli/light/own_binary.h"

#include "common/error.h"

namespace evalsuite::cli {
namespace {

std::filesystem::path ReadOwnBinary() {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw IoError("/proc/self/exe", "cannot find the running evalsuite binary: " + ec.message());
  return self;
}

}  // namespace

const std::filesystem::path& OwnBinary() {
  static const std::filesystem::path self = ReadOwnBinary();
  return self;
}

}  // namespace evalsuite::cli
