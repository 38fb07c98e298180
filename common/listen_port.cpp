#include "common/listen_port.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace evalsuite {

void SetListenSocketOptions(int socket_fd) {
  int yes = 1;
  setsockopt(socket_fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
}

std::string ListenProblem(const std::string& host, int port) {
  const std::string where = "port " + std::to_string(port) + " on " + host;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (const int code = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found); code != 0) {
    return "cannot listen on " + where + ": " + gai_strerror(code);
  }
  int error = 0;
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) {
      error = errno;
      continue;
    }
    SetListenSocketOptions(fd);
    const bool bound = bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 1) == 0;
    error = bound ? 0 : errno;
    close(fd);
    if (bound || error == EADDRINUSE) break;
  }
  freeaddrinfo(found);
  if (error == 0) return "";
  if (error == EADDRINUSE) {
    return where +
           " is already in use (another `evalsuite label serve`, or another program, listens there): stop "
           "it, or choose another --port (0: any free port)";
  }
  if (error == EACCES) return "cannot listen on " + where + ": permission denied (ports below 1024 need privileges)";
  if (error == EADDRNOTAVAIL) return "cannot listen on " + where + ": " + host + " is not an address of this machine";
  return "cannot listen on " + where + ": " + std::strerror(error);
}

}  // namespace evalsuite
