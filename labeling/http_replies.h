// The labeling server's replies: JSON answers and refusals, strict POST bodies, access-token comparison and
// cookie reading, and image files served with their content type. Every handler answers through these, so a
// refusal always has the same JSON shape ({"error": reason}) and status.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace evalsuite::labeling {

void Refuse(httplib::Response& response, int status, const std::string& reason);
void Reply(httplib::Response& response, const nlohmann::json& body);

// Compares secrets in time independent of where they differ (OpenSSL's CRYPTO_memcmp).
bool ConstantTimeEquals(const std::string& a, const std::string& b);

// One cookie value out of a Cookie header ("a=1; evalsuite_token=..."); "" when absent.
std::string CookieValue(const std::string& header, const std::string& name);

// Parses a POST body as a JSON object with only the allowed fields, or refuses it (400) and returns nothing.
std::optional<nlohmann::json> ParseBody(const httplib::Request& request, httplib::Response& response,
                                        const std::set<std::string>& allowed);

// Content type of an image file by its extension; nothing for a file that is not an image the page shows.
std::optional<std::string> ImageContentType(const std::filesystem::path& file);

// Serves an image file (403 for a non-image, 404 when unreadable); returns its bytes' SHA-256, "" when nothing
// was served.
std::string ServeFile(const std::filesystem::path& file, httplib::Response& response);

}  // namespace evalsuite::labeling
