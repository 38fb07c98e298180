#include "datasets/flickr/http_client.h"

#include <curl/curl.h>

#include <chrono>
#include <mutex>

#include "common/environment.h"
#include "common/error.h"

namespace evalsuite::flickr {
namespace {

struct Transfer {
  HttpResponse* response;
  int64_t max_body_bytes;
  const std::atomic<bool>* cancel;
  bool too_large = false;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  if (static_cast<int64_t>(transfer->response->body.size() + bytes) > transfer->max_body_bytes) {
    transfer->too_large = true;
    return 0;  // makes libcurl fail the transfer with CURLE_WRITE_ERROR
  }
  transfer->response->body.append(data, bytes);
  return bytes;
}

std::string TrimmedHeaderValue(const std::string& line, size_t colon) {
  std::string value = line.substr(colon + 1);
  const size_t begin = value.find_first_not_of(" \t");
  const size_t end = value.find_last_not_of(" \t\r\n");
  return begin == std::string::npos ? "" : value.substr(begin, end - begin + 1);
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::string line(data, size * count);
  const size_t colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == "retry-after") transfer->response->retry_after = TrimmedHeaderValue(line, colon);
    if (name == "content-type") transfer->response->content_type = TrimmedHeaderValue(line, colon);
  } else if (line.rfind("HTTP/", 0) == 0) {
    // A new response (after a redirect or a 100 Continue): forget the previous one's headers.
    transfer->response->retry_after.clear();
    transfer->response->content_type.clear();
  }
  return size * count;
}

int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* transfer = static_cast<Transfer*>(user);
  return transfer->cancel != nullptr && transfer->cancel->load() ? 1 : 0;
}

TransportStatus Classify(CURLcode code) {
  switch (code) {
    case CURLE_OK:
      return TransportStatus::kOk;
    case CURLE_OPERATION_TIMEDOUT:
      return TransportStatus::kTimeout;
    case CURLE_ABORTED_BY_CALLBACK:
      return TransportStatus::kCancelled;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_BAD_CONTENT_ENCODING:
      return TransportStatus::kConnection;
    default:
      return TransportStatus::kOther;
  }
}

void GlobalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
      throw ExternalError("libcurl", "curl_global_init failed");
    }
  });
}

}  // namespace

const char* TransportStatusName(TransportStatus status) {
  switch (status) {
    case TransportStatus::kOk:
      return "ok";
    case TransportStatus::kTimeout:
      return "timeout";
    case TransportStatus::kConnection:
      return "connection error";
    case TransportStatus::kTooLarge:
      return "response too large";
    case TransportStatus::kCancelled:
      return "cancelled";
    case TransportStatus::kOther:
      return "transfer error";
  }
  return "transfer error";
}

CurlHttpClient::CurlHttpClient() {
  GlobalInitOnce();
  curl_ = curl_easy_init();
  if (curl_ == nullptr) throw ExternalError("libcurl", "curl_easy_init failed");
}

CurlHttpClient::~CurlHttpClient() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

HttpResponse CurlHttpClient::Get(const std::string& url, const HttpRequestOptions& options) {
  CURL* curl = static_cast<CURL*>(curl_);
  HttpResponse response;
  Transfer transfer{&response, options.max_body_bytes, options.cancel};
  char error_buffer[CURL_ERROR_SIZE] = {0};
  curl_easy_reset(curl);  // keeps the connection cache, drops the previous call's options
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: safe in worker threads
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout_seconds * 1000));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout_seconds * 1000));
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, options.follow_redirects ? 1L : 0L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  // gzip only: what Flickr serves, and cheap to produce (a server offered "br" may compress at its slowest).
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, options.accept_gzip ? "gzip" : nullptr);
  const std::string user_agent = "evalsuite/" + EvalsuiteVersion() + " (holdout crawl)";
  curl_easy_setopt(curl, CURLOPT_USERAGENT, user_agent.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);
  if (options.cancel != nullptr) {
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, OnProgress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  }
  const auto start = std::chrono::steady_clock::now();
  const CURLcode code = curl_easy_perform(curl);
  response.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
  if (code == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
  }
  response.transport = transfer.too_large ? TransportStatus::kTooLarge : Classify(code);
  response.transport_error = error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(code);
  response.body.clear();
  return response;
}

std::string UrlEncode(const std::string& value) {
  GlobalInitOnce();
  // libcurl ignores the handle argument since 7.82.
  char* escaped = curl_easy_escape(nullptr, value.data(), static_cast<int>(value.size()));
  if (escaped == nullptr) throw ExternalError("libcurl", "curl_easy_escape failed");
  std::string out(escaped);
  curl_free(escaped);
  return out;
}

}  // namespace evalsuite::flickr
