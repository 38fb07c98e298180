// Opens one fresh file from many threads at the same instant, round after round, and collects what the opens
// threw: the race of two processes (a crawl and its twin, a study and a report, two labeling servers) creating
// the same SQLite file. SQLite locks by file, so connections in threads contend as processes do.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace evalsuite::testing {

// `open` is called with `rounds` fresh paths (folder made), by `threads` threads at once per path. Returns the
// messages of the exceptions, empty when every open succeeded.
std::vector<std::string> ErrorsOpeningAtOnce(int threads, int rounds,
                                             const std::function<void(const std::filesystem::path&)>& open);

}  // namespace evalsuite::testing
