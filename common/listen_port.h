// The listening sockets of every server evalsuite starts (today `label serve`), set up in one place. A port another
// process already listens on is an error naming the port: sockets get SO_REUSEADDR only (a restarted server binds
// while the old connections sit in TIME_WAIT), never SO_REUSEPORT, with which a second server on the same port
// started silently and the kernel handed each connection to either one (a labeler's decisions went to two stores).
#pragma once

#include <string>

namespace evalsuite {

// The socket options for a listening socket (cpp-httplib's set_socket_options takes it).
void SetListenSocketOptions(int socket_fd);

// Why `host`:`port` cannot be listened on, found by binding it the same way and letting go: "port 8080 on 127.0.0.1
// is already in use (another `evalsuite label serve`, or another program, listens there): stop it, or choose another
// --port (0: any free port)", or the system's reason (not an address of this machine, permission denied below 1024);
// empty when it can. A server asks before it creates anything (a store), and again when its own bind fails.
std::string ListenProblem(const std::string& host, int port);

}  // namespace evalsuite
