#include "labeling/http_replies.h"

#include <httplib.h>
#include <openssl/crypto.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "common/json_guard.h"
#include "common/sha256.h"

namespace evalsuite::labeling {
namespace fs = std::filesystem;
using nlohmann::json;

void Refuse(httplib::Response& response, int status, const std::string& reason) {
  response.status = status;
  response.set_content(json{{"error", reason}}.dump(), "application/json");
}

void Reply(httplib::Response& response, const json& body) {
  response.status = 200;
  response.set_content(body.dump(), "application/json");
}

bool ConstantTimeEquals(const std::string& a, const std::string& b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::optional<std::string> ImageContentType(const fs::path& file) {
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".jpg" || extension == ".jpeg") return "image/jpeg";
  if (extension == ".png") return "image/png";
  if (extension == ".gif") return "image/gif";
  if (extension == ".webp") return "image/webp";
  if (extension == ".bmp") return "image/bmp";
  return std::nullopt;
}

std::string CookieValue(const std::string& header, const std::string& name) {
  std::istringstream stream(header);
  std::string part;
  while (std::getline(stream, part, ';')) {
    const std::size_t start = part.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    part = part.substr(start);
    if (part.compare(0, name.size() + 1, name + "=") == 0) return part.substr(name.size() + 1);
  }
  return "";
}

// Parses a POST body as a JSON object with only the allowed fields, or refuses it.
std::optional<json> ParseBody(const httplib::Request& request, httplib::Response& response,
                              const std::set<std::string>& allowed) {
  std::string parse_error;
  json body = TryParseUserJson(request.body, parse_error);  // nesting refused before a tree is built
  if (body.is_discarded() || !body.is_object()) {
    Refuse(response, 400, "the body must be a JSON object");
    return std::nullopt;
  }
  for (const auto& [key, value] : body.items()) {
    if (!allowed.count(key)) {
      Refuse(response, 400, "unknown field '" + key + "'");
      return std::nullopt;
    }
  }
  return body;
}

std::string ServeFile(const fs::path& file, httplib::Response& response) {
  const auto content_type = ImageContentType(file);
  if (!content_type) {
    Refuse(response, 403, "only image files are served");
    return "";
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    Refuse(response, 404, "cannot read the image");
    return "";
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::string sha256 = Sha256Hex(bytes.str());
  response.set_header("Cache-Control", "private, max-age=3600");
  response.set_content(bytes.str(), content_type->c_str());
  return sha256;
}

}  // namespace evalsuite::labeling
