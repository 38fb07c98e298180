#include "labeling/request_admission.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "labeling/host_check.h"
#include "labeling/http_replies.h"

namespace evalsuite::labeling {
namespace {

constexpr const char* kPageTokenHeader = "X-CSRF-Token";
constexpr const char* kAccessTokenHeader = "X-Evalsuite-Token";
constexpr const char* kAccessCookie = "evalsuite_token";

}  // namespace

bool AdmitLabelingRequest(const ServerOptions& options, const std::string& page_token, const httplib::Request& request,
                          httplib::Response& response) {
  response.set_header("Cache-Control", "no-store");
  // DNS rebinding: a page on another site whose name now resolves to this machine still sends its own name as
  // Host. Checked in both modes (a token in a cookie would not travel to the rebound name, a query token might).
  const bool loopback_only = options.access_token.empty();
  if (!HostAllowed(request.get_header_value("Host"), options.bind, options.allow_hosts, loopback_only)) {
    Refuse(response, 403,
           "unexpected Host header '" + request.get_header_value("Host").substr(0, 200) + "': this server answers to " +
               (loopback_only ? "loopback addresses" : "IP addresses") +
               ", localhost and the names given with --allow-host");
    return false;
  }
  // Bodies are bounded before a byte of them is read: chunked ones (whose length the library would not
  // check) are refused outright; a browser's fetch of a JSON string always sends Content-Length.
  if (request.has_header("Transfer-Encoding")) {
    GuardedHttpServer::CloseAfterResponse();  // the unread body must not be parsed as the next request
    Refuse(response, 411, "chunked or encoded request bodies are refused: send Content-Length");
    return false;
  }
  if (request.has_header("Content-Length")) {
    const std::string length = request.get_header_value("Content-Length");
    const bool numeric = !length.empty() && length.size() < 19 &&
                         std::all_of(length.begin(), length.end(), [](unsigned char c) { return std::isdigit(c); });
    if (!numeric || std::stoull(length) > options.max_body_bytes) {
      GuardedHttpServer::CloseAfterResponse();
      Refuse(response, 413, "the request body is too large");
      return false;
    }
  }
  if (!options.access_token.empty()) {
    std::string presented = request.get_header_value(kAccessTokenHeader);
    const std::string authorization = request.get_header_value("Authorization");
    if (presented.empty() && authorization.rfind("Bearer ", 0) == 0) presented = authorization.substr(7);
    if (presented.empty()) presented = CookieValue(request.get_header_value("Cookie"), kAccessCookie);
    const bool from_query = presented.empty() && request.has_param("token");
    if (from_query) presented = request.get_param_value("token");
    if (presented.empty()) {
      Refuse(response, 401, "this server requires an access token (open the URL with ?token=...)");
      return false;
    }
    if (!ConstantTimeEquals(presented, options.access_token)) {
      Refuse(response, 403, "wrong access token");
      return false;
    }
    if (from_query) {
      response.set_header("Set-Cookie",
                          std::string(kAccessCookie) + "=" + presented + "; Path=/; HttpOnly; SameSite=Strict");
    }
  }
  if (request.method == "POST") {
    if (!ConstantTimeEquals(request.get_header_value(kPageTokenHeader), page_token)) {
      Refuse(response, 403, "missing or wrong page token (X-CSRF-Token): reload the page");
      return false;
    }
    const std::string origin = request.get_header_value("Origin");
    if (!origin.empty() && origin != "http://" + request.get_header_value("Host")) {
      Refuse(response, 403, "cross-origin request refused (Origin " + origin + ")");
      return false;
    }
    const std::string content_type = request.get_header_value("Content-Type");
    if (content_type.rfind("application/json", 0) != 0) {
      Refuse(response, 415, "the body must be application/json");
      return false;
    }
  } else if (request.method != "GET" && request.method != "HEAD") {
    Refuse(response, 405, "only GET and POST are served");
    return false;
  }
  return true;
}

}  // namespace evalsuite::labeling
