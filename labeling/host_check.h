// Which addresses and Host headers the labeling server answers to. A Host header is parsed, never matched by
// prefix: "127.evil.example" is a name (one a DNS-rebinding page can point at 127.0.0.1), not a loopback address.
// Accepted: IP literals (loopback ones only when the server is loopback-only), "localhost", the bound address,
// and names the organizer allowed (--allow-host).
#pragma once

#include <optional>
#include <set>
#include <string>

namespace evalsuite::labeling {

// True when `address` is an IPv4 address in 127.0.0.0/8, the IPv6 loopback ::1 ("[::1]" too), or "localhost".
bool IsLoopbackAddress(const std::string& address);

// The host part of a Host header ("127.0.0.1:8080" -> "127.0.0.1", "[::1]:80" -> "::1"), lower-cased; nullopt
// when the header is not host[:port] with a numeric port.
std::optional<std::string> HostOfHeader(const std::string& header);

// True when a request with this Host header may be served. `loopback_only`: the server has no access token
// and answers only to loopback names. `allowed` holds lower-cased extra names.
bool HostAllowed(const std::string& header, const std::string& bind, const std::set<std::string>& allowed,
                 bool loopback_only);

}  // namespace evalsuite::labeling
