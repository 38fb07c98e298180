// Who may talk to the labeling server: the checks every request passes before routing. The Host header (DNS
// rebinding), a body bounded before a byte of it is read, the access token when the server has one (header,
// bearer, cookie or ?token=, which then sets the cookie), and for POSTs the page token (CSRF), the origin and the
// content type. Serving what was admitted is label_server.h's.
#pragma once

#include <string>

#include "labeling/server_options.h"

namespace evalsuite::labeling {

// True when the request may be routed; false after writing the refusal (a 4xx with its reason) into `response`.
// Sets Cache-Control: no-store on every response.
bool AdmitLabelingRequest(const ServerOptions& options, const std::string& page_token, const httplib::Request& request,
                          httplib::Response& response);

}  // namespace evalsuite::labeling
