// The HTTP seam of the Flickr crawl: one GET, its status, the headers the crawl acts on and the body, or how
// the transport failed. CurlHttpClient is the real one (libcurl easy handle, kept alive between calls so
// connections are reused); it is not thread-safe: one client per thread.
// Nothing here ever formats the URL into a message: URLs of API calls carry the API key.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace evalsuite::flickr {

struct HttpRequestOptions {
  double timeout_seconds = 30;  // whole transfer; a slower response counts as a timeout
  double connect_timeout_seconds = 10;
  bool follow_redirects = false;               // true for image downloads (static hosts redirect), never for the API
  bool accept_gzip = false;                    // API responses: JSON compresses ~5x; images (JPEG) do not
  int64_t max_body_bytes = 100 * 1024 * 1024;  // a larger body aborts the transfer (kTooLarge)
  const std::atomic<bool>* cancel = nullptr;   // set to abort a transfer in progress (kCancelled)
};

enum class TransportStatus {
  kOk,  // an HTTP response arrived (any status code)
  kTimeout,
  kConnection,  // refused, reset, DNS, TLS, or the body ended early
  kTooLarge,
  kCancelled,
  kOther,
};
const char* TransportStatusName(TransportStatus status);

struct HttpResponse {
  TransportStatus transport = TransportStatus::kOk;
  std::string transport_error;  // libcurl's message (names host and port at most, never the query string)
  long status = 0;              // HTTP status when transport == kOk
  std::string content_type;
  std::string retry_after;  // the Retry-After header, raw
  std::string body;
  double seconds = 0;  // wall time of the transfer: time spent waiting on the network
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  virtual HttpResponse Get(const std::string& url, const HttpRequestOptions& options) = 0;
};

class CurlHttpClient : public HttpClient {
 public:
  CurlHttpClient();
  ~CurlHttpClient() override;
  CurlHttpClient(const CurlHttpClient&) = delete;
  CurlHttpClient& operator=(const CurlHttpClient&) = delete;

  HttpResponse Get(const std::string& url, const HttpRequestOptions& options) override;

 private:
  void* curl_;  // CURL*
};

// Percent-encodes one query-string value (RFC 3986 unreserved characters stay as they are).
std::string UrlEncode(const std::string& value);

}  // namespace evalsuite::flickr
