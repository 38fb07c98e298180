// Files that are either the old version or the new one, never half of either: the text goes to a temporary file
// in the same folder, is flushed to disk (fsync), and is renamed over the target (atomic within a file system);
// the folder is synced so the rename survives a crash. A kill at any moment leaves the old file in place.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace evalsuite {

// Throws IoError naming the file that could not be written (the target is then unchanged).
void WriteFileAtomically(const std::filesystem::path& file, const std::string& text);

// Several files that belong together (report.json, .md, .html): every temporary file is written and synced
// first, then all are renamed in a row, so a kill while writing leaves every old file, and only a kill between
// two renames (microseconds) can leave a mix.
void WriteFilesAtomically(const std::vector<std::pair<std::filesystem::path, std::string>>& files);

// A seam for tests of kills mid-write (a slow disk): `hook` runs after each MiB written. Process-wide; the binary
// sets it once at start-up from its test hooks (cli/light/test_hooks.h), before any write. Empty (the default):
// nothing.
void SetAfterChunkWrittenForTests(std::function<void()> hook);

}  // namespace evalsuite
