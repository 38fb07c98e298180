#include "labeling/host_check.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>

namespace evalsuite::labeling {
namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string Unbracket(const std::string& address) {
  if (address.size() >= 2 && address.front() == '[' && address.back() == ']') {
    return address.substr(1, address.size() - 2);
  }
  return address;
}

bool IsIpLiteral(const std::string& address) {
  unsigned char bytes[16];
  return inet_pton(AF_INET, address.c_str(), bytes) == 1 || inet_pton(AF_INET6, address.c_str(), bytes) == 1;
}

}  // namespace

bool IsLoopbackAddress(const std::string& address) {
  const std::string plain = Lower(Unbracket(address));
  if (plain == "localhost") return true;
  unsigned char bytes[16];
  if (inet_pton(AF_INET, plain.c_str(), bytes) == 1) return bytes[0] == 127;
  if (inet_pton(AF_INET6, plain.c_str(), bytes) == 1) {
    static const unsigned char kLoopback6[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    return std::equal(bytes, bytes + 16, kLoopback6);
  }
  return false;
}

std::optional<std::string> HostOfHeader(const std::string& header) {
  std::string host = header;
  std::string port;
  if (!host.empty() && host.front() == '[') {
    const std::size_t close = host.find(']');
    if (close == std::string::npos) return std::nullopt;
    port = host.substr(close + 1);
    host = host.substr(1, close - 1);
    if (!port.empty() && port.front() != ':') return std::nullopt;
  } else {
    const std::size_t colon = host.find(':');
    if (colon != std::string::npos) {
      port = host.substr(colon);
      host = host.substr(0, colon);
    }
  }
  if (!port.empty()) {
    port = port.substr(1);
    if (port.empty() || port.size() > 5 || !std::all_of(port.begin(), port.end(), ::isdigit)) return std::nullopt;
  }
  if (host.empty()) return std::nullopt;
  return Lower(host);
}

bool HostAllowed(const std::string& header, const std::string& bind, const std::set<std::string>& allowed,
                 bool loopback_only) {
  const auto host = HostOfHeader(header);
  if (!host) return false;
  if (*host == "localhost" || *host == Lower(Unbracket(bind)) || allowed.count(*host)) return true;
  if (IsIpLiteral(*host)) return !loopback_only || IsLoopbackAddress(*host);
  return false;
}

}  // namespace evalsuite::labeling
