// What the labeling server is started with: where it listens, who may reach it, the labelers' roster and the
// HTTP limits. A floor below the server (label_server.h) and the checks every request passes
// (request_admission.h), which both read it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <set>
#include <string>

#include "labeling/assignment.h"
#include "labeling/guarded_http_server.h"

namespace evalsuite::labeling {

struct ServerOptions {
  std::string bind = "127.0.0.1";      // any non-loopback address requires access_token
  int port = 8080;                     // 0 picks a free port (see LabelServer::Bind)
  std::string default_labeler;         // used when a request names no labeler
  std::string access_token;            // when set, every request must carry it (header, cookie or ?token=)
  std::filesystem::path examples_dir;  // optional: DIR/<wnid>/*.jpg or DIR/<wnid>_*.jpg
  std::size_t max_body_bytes = std::size_t{16} * 1024;  // a decision is ~200 bytes; anything larger is refused (413)
  std::size_t examples_per_class = 8;
  std::string instructions;           // what counts as correct, shown on the page ("" = the built-in text)
  AssignmentPlan assignment;          // roster, overlap target, per-labeler shuffled order
  std::string admin_token;            // GET /admin?admin=TOKEN shows progress; "" = no admin page
  std::set<std::string> allow_hosts;  // extra Host names served (lower case), besides IPs and localhost
  HttpLimits http;                    // worker pool, per-request byte budget and deadline, keep-alive
};

}  // namespace evalsuite::labeling
