#include "labeling/guarded_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace evalsuite::labeling {
namespace {

using Clock = std::chrono::steady_clock;

thread_local bool over_budget = false;
thread_local bool close_after = false;

// Waits until `fd` is ready for `events` or `timeout` passes; false on timeout or error.
bool WaitFor(int fd, short events, std::chrono::milliseconds timeout) {
  pollfd p{fd, events, 0};
  const int millis = static_cast<int>(std::max<int64_t>(0, timeout.count()));
  for (;;) {
    const int ready = ::poll(&p, 1, millis);
    if (ready < 0 && errno == EINTR) continue;
    return ready > 0;
  }
}

void Address(const sockaddr_storage& address, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = "";
  if (address.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&address);
    inet_ntop(AF_INET, &v4->sin_addr, text, sizeof(text));
    port = ntohs(v4->sin_port);
  } else if (address.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&address);
    inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof(text));
    port = ntohs(v6->sin6_port);
  }
  ip = text;
}

// A connection's socket as httplib's Stream, buffered (httplib reads request heads one byte at a time), with a
// byte budget and a deadline for the request being read.
class BudgetedStream : public httplib::Stream {
 public:
  BudgetedStream(int fd, const HttpLimits& limits) : fd_(fd), limits_(limits) {}

  // Starts the accounting for the next request on this connection.
  void StartRequest() {
    budget_ = limits_.max_request_bytes;
    deadline_ = Clock::now() + limits_.request_deadline;
    over_budget = false;
    close_after = false;
  }
  bool HasBuffered() const { return begin_ < end_; }

  bool is_readable() const override { return HasBuffered() || WaitFor(fd_, POLLIN, limits_.read_timeout); }
  bool is_writable() const override { return WaitFor(fd_, POLLOUT, limits_.write_timeout); }

  ssize_t read(char* ptr, size_t size) override {
    if (size == 0) return 0;
    if (budget_ == 0) {
      over_budget = true;
      return -1;
    }
    if (!HasBuffered()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
      if (left.count() <= 0 || !WaitFor(fd_, POLLIN, std::min(left, limits_.read_timeout))) return -1;
      ssize_t got;
      do {
        got = ::recv(fd_, buffer_, sizeof(buffer_), 0);
      } while (got < 0 && errno == EINTR);
      if (got <= 0) return got;
      begin_ = 0;
      end_ = static_cast<size_t>(got);
    }
    const size_t n = std::min({size, end_ - begin_, budget_});
    std::memcpy(ptr, buffer_ + begin_, n);
    begin_ += n;
    budget_ -= n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    ssize_t sent;
    do {
      sent = ::send(fd_, ptr, size, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof(address);
    if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) Address(address, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof(address);
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) Address(address, ip, port);
  }
  socket_t socket() const override { return fd_; }

 private:
  int fd_;
  const HttpLimits& limits_;
  char buffer_[4096];
  size_t begin_ = 0;
  size_t end_ = 0;
  size_t budget_ = 0;
  Clock::time_point deadline_;
};

// Closes after letting the client read the response: stop sending, then discard what it is still sending
// (briefly and in bounded memory) so that closing does not reset the connection under an unread reply.
void LingeringClose(int fd) {
  ::shutdown(fd, SHUT_WR);
  char discard[4096];
  const auto until = Clock::now() + std::chrono::milliseconds(500);
  size_t drained = 0;
  while (drained < (4u << 20)) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0 || !WaitFor(fd, POLLIN, left)) break;
    const ssize_t got = ::recv(fd, discard, sizeof(discard), 0);
    if (got <= 0) break;
    drained += static_cast<size_t>(got);
  }
  ::close(fd);
}

}  // namespace

GuardedHttpServer::GuardedHttpServer(HttpLimits limits) : limits_(limits) {
  const size_t threads = std::max<size_t>(1, limits_.worker_threads);
  new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  set_tcp_nodelay(true);
  set_keep_alive_max_count(limits_.keep_alive_max_requests);
  set_keep_alive_timeout(std::max<time_t>(1, limits_.keep_alive_timeout.count() / 1000));
  set_read_timeout(std::chrono::duration_cast<std::chrono::microseconds>(limits_.read_timeout));
  set_write_timeout(std::chrono::duration_cast<std::chrono::microseconds>(limits_.write_timeout));
  set_payload_max_length(limits_.max_request_bytes);
}

bool GuardedHttpServer::CurrentRequestOverBudget() { return over_budget; }

void GuardedHttpServer::CloseAfterResponse() { close_after = true; }

bool GuardedHttpServer::process_and_close_socket(socket_t sock) {
  const int on = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
  BudgetedStream stream(sock, limits_);
  bool ok = false;
  for (size_t served = 0; served < limits_.keep_alive_max_requests && svr_sock_ != INVALID_SOCKET; ++served) {
    if (!stream.HasBuffered() && !WaitFor(sock, POLLIN, limits_.keep_alive_timeout)) break;
    stream.StartRequest();
    bool connection_closed = false;
    const bool last = served + 1 == limits_.keep_alive_max_requests;
    ok = process_request(stream, last, connection_closed, nullptr);
    if (!ok || connection_closed || over_budget || close_after) break;
  }
  over_budget = false;
  close_after = false;
  LingeringClose(sock);
  return ok;
}

}  // namespace evalsuite::labeling
