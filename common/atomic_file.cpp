#include "common/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;

std::function<void()>& AfterChunkWritten() {
  static std::function<void()> hook;
  return hook;
}

fs::path TemporaryFor(const fs::path& file) {
  return file.parent_path() / ("." + file.filename().string() + ".tmp-" + std::to_string(getpid()));
}

void WriteAndSync(const fs::path& temporary, const std::string& text) {
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw IoError(temporary.string(), std::string("cannot write: ") + std::strerror(errno));
  const std::function<void()>& after_chunk = AfterChunkWritten();
  size_t done = 0;
  while (done < text.size()) {
    const size_t chunk = std::min<size_t>(text.size() - done, 1 << 20);
    const ssize_t n = write(fd, text.data() + done, chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string reason = std::strerror(errno);
      close(fd);
      unlink(temporary.c_str());
      throw IoError(temporary.string(), "write failed: " + reason);
    }
    done += static_cast<size_t>(n);
    if (after_chunk) after_chunk();
  }
  if (fsync(fd) != 0 || close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    unlink(temporary.c_str());
    throw IoError(temporary.string(), "cannot flush to disk: " + reason);
  }
}

void SyncFolder(const fs::path& folder) {
  const int fd = open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // best effort: the data is synced, only the rename's durability is at stake
  fsync(fd);
  close(fd);
}

}  // namespace

void SetAfterChunkWrittenForTests(std::function<void()> hook) { AfterChunkWritten() = std::move(hook); }

void WriteFilesAtomically(const std::vector<std::pair<fs::path, std::string>>& files) {
  std::vector<fs::path> temporaries;
  try {
    for (const auto& [file, text] : files) {
      if (file.has_parent_path()) {
        std::error_code ec;
        fs::create_directories(file.parent_path(), ec);
      }
      temporaries.push_back(TemporaryFor(file));
      WriteAndSync(temporaries.back(), text);
    }
  } catch (...) {
    for (const fs::path& t : temporaries) unlink(t.c_str());
    throw;
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (rename(temporaries[i].c_str(), files[i].first.c_str()) != 0) {
      const std::string reason = std::strerror(errno);
      for (size_t j = i; j < temporaries.size(); ++j) unlink(temporaries[j].c_str());
      throw IoError(files[i].first.string(), "cannot replace: " + reason);
    }
  }
  for (const auto& [file, text] : files) SyncFolder(file.parent_path());
}

void WriteFileAtomically(const fs::path& file, const std::string& text) { WriteFilesAtomically({{file, text}}); }

}  // namespace evalsuite
