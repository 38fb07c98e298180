// cpp-httplib's Server with the limits a server facing many browsers needs, enforced on the socket before the
// library parses anything: a byte budget per request (the head included: Debian's compiled 0.11 limits each
// header line but not their number), a deadline for reading one request (slowloris), a bounded keep-alive wait,
// TCP_NODELAY on every accepted connection (a response written in two pieces otherwise waits for the client's
// delayed ACK, ~40 ms), and a worker pool sized for the expected labelers instead of the library's 8 threads.
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstddef>

namespace evalsuite::labeling {

struct HttpLimits {
  std::size_t worker_threads = 64;                    // connections served at once (idle keep-alives hold one each)
  std::size_t max_request_bytes = 64 * 1024;          // request line, headers and body together
  std::chrono::milliseconds request_deadline{10000};  // from a request's first byte to its last
  std::chrono::milliseconds read_timeout{5000};       // one silent gap inside a request
  std::chrono::milliseconds write_timeout{5000};
  std::chrono::milliseconds keep_alive_timeout{5000};  // idle wait for the next request on a connection
  std::size_t keep_alive_max_requests = 1000;
};

class GuardedHttpServer : public httplib::Server {
 public:
  explicit GuardedHttpServer(HttpLimits limits);

  // True on the thread that is answering a request whose bytes went past max_request_bytes (httplib then
  // answers 400; the error handler uses this to say 431 and why).
  static bool CurrentRequestOverBudget();
  // Called from a handler: close the connection once this response is written (a refused request whose body
  // was not read).
  static void CloseAfterResponse();

 private:
  // Replaces the library's per-connection loop (same structure: wait for a request, process_request, repeat
  // while keep-alive allows) with one reading through a BudgetedStream.
  bool process_and_close_socket(socket_t sock) override;

  HttpLimits limits_;
};

}  // namespace evalsuite::labeling
