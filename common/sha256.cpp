#include "common/sha256.h"

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>

#include "common/error.h"

namespace evalsuite {
namespace {

using DigestContext = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

std::string ToHex(const unsigned char* digest, unsigned int size) {
  static const char* kDigits = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (unsigned int i = 0; i < size; ++i) {
    hex.push_back(kDigits[digest[i] >> 4]);
    hex.push_back(kDigits[digest[i] & 0xf]);
  }
  return hex;
}

DigestContext NewContext() {
  DigestContext context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1) {
    throw Error(ErrorKind::kInternal, "sha256", "OpenSSL could not initialise SHA-256");
  }
  return context;
}

std::string Finish(EVP_MD_CTX* context) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_DigestFinal_ex(context, digest.data(), &size);
  return ToHex(digest.data(), size);
}

}  // namespace

std::string Sha256Hex(std::string_view bytes) {
  DigestContext context = NewContext();
  EVP_DigestUpdate(context.get(), bytes.data(), bytes.size());
  return Finish(context.get());
}

std::string Sha256FileHex(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot open file to hash it");
  DigestContext context = NewContext();
  std::array<char, 1 << 16> buffer{};
  while (in) {
    in.read(buffer.data(), buffer.size());
    EVP_DigestUpdate(context.get(), buffer.data(), static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) throw IoError(file.string(), "read error while hashing");
  return Finish(context.get());
}

}  // namespace evalsuite
