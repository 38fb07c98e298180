// SHA-256 of bytes and of files (OpenSSL's EVP interface), as lowercase hex. Used to store images once,
// to version holdouts and to detect a modified holdout.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace evalsuite {

std::string Sha256Hex(std::string_view bytes);
// Throws IoError naming the file when it cannot be read.
std::string Sha256FileHex(const std::filesystem::path& file);

}  // namespace evalsuite
