// Rows of a query on a run store, opened read-only with plain SQLite (what any other tool would see).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace evalsuite::testing {

// `quiet`: a failing query gives no rows instead of a test failure (the store may not have its tables yet).
std::vector<std::vector<std::string>> Query(const std::filesystem::path& db, const std::string& sql,
                                            bool quiet = false);

}  // namespace evalsuite::testing
