#include "study/execution/json_record_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <fstream>
#include <string>
#include <system_error>

#include "common/error.h"

namespace evalsuite::study {

namespace fs = std::filesystem;

void WriteJsonFileAtomically(const fs::path& file, const nlohmann::json& json) {
  const fs::path temporary = file.string() + ".tmp";
  const std::string text = json.dump(2) + "\n";
  int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw IoError(temporary.string(), "cannot write");
  std::size_t written = 0;
  while (written < text.size()) {
    ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n <= 0) {
      close(fd);
      throw IoError(temporary.string(), "cannot write (disk full?)");
    }
    written += static_cast<std::size_t>(n);
  }
  fsync(fd);
  close(fd);
  std::error_code ec;
  fs::rename(temporary, file, ec);
  if (ec) throw IoError(file.string(), "cannot write: " + ec.message());
}

std::optional<nlohmann::json> ReadJsonFile(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  auto json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) return std::nullopt;
  return json;
}

}  // namespace evalsuite::study
