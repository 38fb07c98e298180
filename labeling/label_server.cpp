#include "labeling/label_server.h"

#include <httplib.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/environment.h"
#include "common/error.h"
#include "common/json_guard.h"
#include "common/listen_port.h"
#include "common/sha256.h"
#include "labeling/admin_page.h"
#include "labeling/http_replies.h"
#include "labeling/label_page.h"
#include "labeling/label_views.h"
#include "labeling/request_admission.h"

namespace evalsuite::labeling {
namespace fs = std::filesystem;
using nlohmann::json;

std::string RandomToken() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) throw ExternalError("OpenSSL", "RAND_bytes failed");
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

LabelServer::LabelServer(datasets::CandidateManifest manifest, fs::path candidates_dir, LabelStore& store,
                         ServerOptions options)
    : manifest_(std::move(manifest)), store_(store), options_(std::move(options)), page_token_(RandomToken()) {
  if (!IsLoopbackAddress(options_.bind)) {
    if (options_.access_token.size() < kMinAccessTokenChars) {
      throw UsageError("--token", "binding " + options_.bind + " (not loopback) requires an access token of at least " +
                                      std::to_string(kMinAccessTokenChars) + " characters");
    }
  }
  if (!options_.default_labeler.empty()) {
    std::string problem;
    const auto name = NormalizeLabelerName(options_.default_labeler, problem);
    if (!name) throw UsageError("--labeler", problem);
    options_.default_labeler = *name;
  }
  CheckAssignmentPlan(options_.assignment);
  if (!options_.default_labeler.empty()) options_.default_labeler = SpellingOf(options_.default_labeler);
  try {
    (void)json(options_.instructions).dump();
  } catch (const json::exception&) {
    throw UsageError("--instructions", "the instructions are not valid UTF-8 text");
  }
  std::error_code error;
  candidates_root_ = fs::canonical(candidates_dir, error);
  if (error) throw IoError(candidates_dir.string(), "cannot open the candidate folder: " + error.message());
  if (!options_.examples_dir.empty()) {
    examples_root_ = fs::canonical(options_.examples_dir, error);
    if (error || !fs::is_directory(examples_root_)) {
      throw IoError(options_.examples_dir.string(), "cannot open the folder of example images");
    }
  }
  for (std::size_t i = 0; i < manifest_.items.size(); ++i) {
    const datasets::Candidate& item = manifest_.items[i];
    if (!item_index_.emplace(item.id, i).second) {
      throw InputError("items[" + std::to_string(i) + "].id", "duplicate item id '" + item.id + "'");
    }
    image_paths_.insert(item.path);
  }
  server_ = std::make_unique<GuardedHttpServer>(options_.http);
  // Not httplib's default options, which add SO_REUSEPORT: a second server on this port must fail (listen_port.h).
  server_->set_socket_options(SetListenSocketOptions);
  Routes();
}

LabelServer::~LabelServer() = default;

int LabelServer::Bind() {
  if (options_.port == 0) {
    port_ = server_->bind_to_any_port(options_.bind);
  } else if (server_->bind_to_port(options_.bind, options_.port)) {
    port_ = options_.port;
  }
  if (port_ <= 0) {
    std::string problem = ListenProblem(options_.bind, options_.port);
    if (problem.empty()) problem = "cannot listen on port " + std::to_string(options_.port) + " on " + options_.bind;
    throw IoError("--port", problem);
  }
  return port_;
}

void LabelServer::Run() {
  if (port_ <= 0) Bind();
  server_->listen_after_bind();
}

void LabelServer::Stop() { server_->stop(); }

bool LabelServer::running() const { return server_->is_running(); }

void LabelServer::Routes() {
  httplib::Server& server = *server_;
  server.set_payload_max_length(options_.max_body_bytes);
  server.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                              {"Referrer-Policy", "no-referrer"},
                              {"X-Frame-Options", "DENY"},
                              {"Cross-Origin-Resource-Policy", "same-origin"}});
  server.set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
    return AdmitLabelingRequest(options_, page_token_, request, response) ? httplib::Server::HandlerResponse::Unhandled
                                                                          : httplib::Server::HandlerResponse::Handled;
  });
  // httplib's own refusals (413 oversized body, 404 no route, 400 bad request line) get a JSON reason too.
  server.set_error_handler([](const httplib::Request& request, httplib::Response& response) {
    if (!response.body.empty()) return;
    std::string reason = "refused";
    if (response.status == 413) reason = "the request body is too large";
    if (response.status == 404) reason = "no such endpoint: " + request.method + " " + request.path;
    if (response.status == 400) reason = "malformed request";
    if (response.status == 400 && GuardedHttpServer::CurrentRequestOverBudget()) {
      response.status = 431;
      reason = "the request headers are too large";
    }
    if (response.status == 414) reason = "the request URI is too long";
    Refuse(response, response.status, reason);
  });
  server.set_exception_handler([](const httplib::Request&, httplib::Response& response, std::exception_ptr error) {
    std::string message = "internal error";
    try {
      std::rethrow_exception(error);
    } catch (const Error& e) {
      message = e.what();
    } catch (const std::exception& e) {
      message = std::string("internal error: ") + e.what();
    }
    Refuse(response, 500, message);
  });

  server.Get("/", [this](const httplib::Request& q, httplib::Response& r) { ServePage(q, r); });
  server.Get("/favicon.ico", [](const httplib::Request&, httplib::Response& r) { r.status = 204; });
  server.Get("/api/queue", [this](const httplib::Request& q, httplib::Response& r) { ServeQueue(q, r); });
  server.Get("/api/examples", [this](const httplib::Request& q, httplib::Response& r) { ServeExamples(q, r); });
  server.Get(R"(/images/(.*))", [this](const httplib::Request& q, httplib::Response& r) { ServeImage(q, r); });
  server.Get(R"(/examples/(.*))", [this](const httplib::Request& q, httplib::Response& r) { ServeExampleImage(q, r); });
  server.Get("/admin", [this](const httplib::Request& q, httplib::Response& r) { ServeAdmin(q, r); });
  server.Post("/api/label", [this](const httplib::Request& q, httplib::Response& r) { PostLabel(q, r); });
  server.Post("/api/undo", [this](const httplib::Request& q, httplib::Response& r) { PostUndo(q, r); });
  for (const char* path : {"/api/label", "/api/undo"}) {
    server.Get(path, [](const httplib::Request&, httplib::Response& r) {
      r.set_header("Allow", "POST");
      Refuse(r, 405, "state-changing requests must be POSTs");
    });
  }
}

std::optional<std::string> LabelServer::LabelerOf(bool given, const std::string& requested,
                                                  httplib::Response& response) const {
  if (!given) {
    if (options_.default_labeler.empty()) {
      Refuse(response, 400, "no labeler: add ?labeler=NAME (or start the server with --labeler)");
      return std::nullopt;
    }
    return options_.default_labeler;
  }
  std::string problem;
  auto labeler = NormalizeLabelerName(requested, problem);  // an empty name is refused, never the default
  if (!labeler) {
    Refuse(response, 400, problem);
    return labeler;
  }
  return SpellingOf(*labeler);
}

std::string LabelServer::SpellingOf(const std::string& labeler) const {
  // One labeler, one spelling in the store: the roster's, else the first one recorded, else the server's --labeler.
  if (!options_.assignment.roster.empty()) return RosterSpelling(options_.assignment, labeler);
  const std::string key = LabelerKey(labeler);
  for (const std::string& known : store_.Labelers()) {
    if (LabelerKey(known) == key) return known;
  }
  if (!options_.default_labeler.empty() && LabelerKey(options_.default_labeler) == key) {
    return options_.default_labeler;
  }
  return labeler;
}

std::optional<std::string> LabelServer::LabelerOfBody(const nlohmann::json& body, httplib::Response& response) const {
  if (body.contains("labeler") && !body["labeler"].is_string()) {
    Refuse(response, 400, "'labeler' must be a string");
    return std::nullopt;
  }
  const bool given = body.contains("labeler");
  return LabelerOf(given, given ? body["labeler"].get<std::string>() : std::string(), response);
}

void LabelServer::ServePage(const httplib::Request& request, httplib::Response& response) {
  (void)request;
  // A fresh nonce per response: the only scripts and styles that run are the page's own.
  const std::string nonce = RandomToken().substr(0, 32);
  std::string page(LabelPageHtml());
  auto replace_all = [&page](const std::string& from, const std::string& to) {
    for (std::size_t at = page.find(from); at != std::string::npos; at = page.find(from, at + to.size())) {
      page.replace(at, from.size(), to);
    }
  };
  replace_all("__PAGE_TOKEN__", page_token_);
  replace_all("__NONCE__", nonce);
  response.set_header("Content-Security-Policy",
                      "default-src 'none'; img-src 'self'; connect-src 'self'; script-src 'nonce-" + nonce +
                          "'; style-src 'nonce-" + nonce +
                          "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  response.set_content(page, "text/html; charset=utf-8");
}

void LabelServer::ServeQueue(const httplib::Request& request, httplib::Response& response) {
  const auto labeler = LabelerOf(request.has_param("labeler"), request.get_param_value("labeler"), response);
  if (!labeler) return;
  if (!OnRoster(options_.assignment, *labeler)) {
    Refuse(response, 403, "'" + *labeler + "' is not on this job's roster (--labelers)");
    return;
  }
  const auto decisions = CurrentDecisions(store_.EventsOf(*labeler));
  json classes = json::array();
  for (const auto& [wnid, c] : manifest_.classes) {
    classes.push_back(
        {{"wnid", wnid}, {"index", c.index}, {"name", ClassName(c)}, {"synonyms", c.synonyms}, {"gloss", c.gloss}});
  }
  json items = json::array();
  for (std::size_t index : AssignedTo(*labeler)) {
    const datasets::Candidate& item = manifest_.items[index];
    // `control` stays on the server: a labeler must not tell controls from ordinary candidates.
    items.push_back({{"id", item.id},
                     {"wnid", item.wnid},
                     {"class_index", item.class_index},
                     {"query", item.query},
                     {"rank", item.rank},
                     {"image", "/images/" + PercentEncode(item.path, /*keep_slash=*/true)},
                     {"label", StandingLabel(decisions, item.id, *labeler)},
                     {"near_duplicates", NearDuplicateFlags(item, manifest_, item_index_)}});
  }
  Reply(response, {{"labeler", *labeler},
                   {"examples", !examples_root_.empty()},
                   {"instructions", options_.instructions},
                   {"classes", classes},
                   {"items", items}});
}

const std::vector<std::string>& LabelServer::ExamplesOf(const std::string& wnid) {
  std::lock_guard<std::mutex> lock(examples_mutex_);
  auto found = examples_.find(wnid);
  if (found != examples_.end()) return found->second;
  std::vector<std::string> paths;
  std::error_code error;
  // DIR/<wnid>/* (ImageNet's train layout) first, then DIR/<wnid>_* files.
  const fs::path folder = examples_root_ / wnid;
  if (fs::is_directory(folder, error)) {
    for (const auto& entry : fs::directory_iterator(folder, error)) {
      if (ImageContentType(entry.path())) paths.push_back(wnid + "/" + entry.path().filename().string());
    }
  }
  for (const auto& entry : fs::directory_iterator(examples_root_, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(wnid + "_", 0) == 0 && ImageContentType(entry.path())) paths.push_back(name);
  }
  std::sort(paths.begin(), paths.end());
  if (paths.size() > options_.examples_per_class) paths.resize(options_.examples_per_class);
  example_paths_.insert(paths.begin(), paths.end());
  return examples_.emplace(wnid, std::move(paths)).first->second;
}

void LabelServer::ServeExamples(const httplib::Request& request, httplib::Response& response) {
  const std::string wnid = request.get_param_value("wnid");
  if (!manifest_.classes.count(wnid)) {
    Refuse(response, 404, "unknown class '" + wnid + "'");
    return;
  }
  json images = json::array();
  if (!examples_root_.empty()) {
    for (const std::string& path : ExamplesOf(wnid))
      images.push_back("/examples/" + PercentEncode(path, /*keep_slash=*/true));
  }
  Reply(response, {{"wnid", wnid}, {"images", images}});
}

void LabelServer::ServeImage(const httplib::Request& request, httplib::Response& response) {
  const std::string relative = request.matches[1];
  const auto file = ResolveInside(candidates_root_, relative);
  if (!file) {
    Refuse(response, 403, "the path does not name a file inside the candidate folder");
    return;
  }
  if (!image_paths_.count(relative)) {
    Refuse(response, 404, "not a candidate image: " + relative);
    return;
  }
  const std::string sha256 = ServeFile(*file, response);
  if (!sha256.empty()) {
    std::lock_guard<std::mutex> lock(served_mutex_);
    served_sha256_[relative] = sha256;
  }
}

std::string LabelServer::ShownSha256(const datasets::Candidate& item) {
  {
    std::lock_guard<std::mutex> lock(served_mutex_);
    const auto found = served_sha256_.find(item.path);
    if (found != served_sha256_.end()) return found->second;
  }
  const auto file = ResolveInside(candidates_root_, item.path);
  std::ifstream in(file ? *file : fs::path(), std::ios::binary);
  if (!file || !in) return "";
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return Sha256Hex(bytes.str());
}

void LabelServer::ServeExampleImage(const httplib::Request& request, httplib::Response& response) {
  if (examples_root_.empty()) {
    Refuse(response, 404, "no example folder was given (--examples DIR)");
    return;
  }
  const std::string relative = request.matches[1];
  const auto file = ResolveInside(examples_root_, relative);
  if (!file) {
    Refuse(response, 403, "the path does not name a file inside the examples folder");
    return;
  }
  bool listed = false;
  {
    std::lock_guard<std::mutex> lock(examples_mutex_);
    listed = example_paths_.count(relative) > 0;
  }
  if (!listed) {
    Refuse(response, 404, "not a listed example image: " + relative);
    return;
  }
  ServeFile(*file, response);
}

void LabelServer::PostLabel(const httplib::Request& request, httplib::Response& response) {
  const auto body = ParseBody(request, response, {"labeler", "item", "label", "seconds", "displayed_at"});
  if (!body) return;
  const auto labeler = LabelerOfBody(*body, response);
  if (!labeler) return;
  if (!body->contains("item") || !(*body)["item"].is_string()) {
    Refuse(response, 400, "'item' must be a string (an item id)");
    return;
  }
  const std::string item = (*body)["item"];
  if (!item_index_.count(item)) {
    Refuse(response, 400, "unknown item id '" + item.substr(0, 200) + "'");
    return;
  }
  if (!OnRoster(options_.assignment, *labeler)) {
    Refuse(response, 403, "'" + *labeler + "' is not on this job's roster (--labelers)");
    return;
  }
  if (options_.assignment.Excludes(*labeler, item)) {
    Refuse(response, 403, "'" + *labeler + "' judged item '" + item + "' in pass 1: pass 2 asks other labelers");
    return;
  }
  if (options_.assignment.overlap > 0) {
    const std::vector<std::size_t> mine = AssignedTo(*labeler);
    if (std::find(mine.begin(), mine.end(), item_index_.at(item)) == mine.end()) {
      Refuse(response, 403, "item '" + item + "' is not assigned to " + *labeler);
      return;
    }
  }
  if (!body->contains("label") || !(*body)["label"].is_string()) {
    Refuse(response, 400, "'label' must be one of correct, incorrect, unsure");
    return;
  }
  const auto label = ParseLabel((*body)["label"].get<std::string>());
  if (!label) {
    Refuse(
        response, 400,
        "label '" + (*body)["label"].get<std::string>().substr(0, 100) + "' is not one of correct, incorrect, unsure");
    return;
  }
  double seconds = 0;
  if (body->contains("seconds")) {
    const json& value = (*body)["seconds"];
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0 ||
        value.get<double>() > kMaxSecondsPerItem) {
      Refuse(response, 400, "'seconds' must be a number between 0 and 86400");
      return;
    }
    seconds = value.get<double>();
  }
  ShownImage shown;
  if (body->contains("displayed_at")) {
    const json& value = (*body)["displayed_at"];
    const double now_ms =
        std::chrono::duration<double, std::milli>(std::chrono::system_clock::now().time_since_epoch()).count();
    if (!value.is_number() || !std::isfinite(value.get<double>()) ||
        std::fabs(value.get<double>() - now_ms) > kMaxSecondsPerItem * 1000) {
      Refuse(response, 400, "'displayed_at' must be the display time in Unix milliseconds (within a day of now)");
      return;
    }
    shown.displayed_at = evalsuite::UtcIso8601Millis(value.get<double>());
  }
  shown.image_sha256 = ShownSha256(manifest_.items[item_index_.at(item)]);
  if (shown.image_sha256.empty() && *label == Label::kCorrect) {
    Refuse(response, 409, "the image of '" + item + "' cannot be read: it cannot be judged correct");
    return;
  }
  // Committed (and fsynced) before the 200 goes out: an acknowledged decision survives a kill.
  const LabelEvent event = store_.AppendLabel(item, *labeler, *label, seconds, shown);
  Reply(response, {{"event", EventJson(event)}});
}

void LabelServer::PostUndo(const httplib::Request& request, httplib::Response& response) {
  const auto body = ParseBody(request, response, {"labeler", "item"});
  if (!body) return;
  const auto labeler = LabelerOfBody(*body, response);
  if (!labeler) return;
  std::optional<std::string> item;
  if (body->contains("item")) {
    if (!(*body)["item"].is_string() || !item_index_.count((*body)["item"].get<std::string>())) {
      Refuse(response, 400, "unknown item id");
      return;
    }
    item = (*body)["item"].get<std::string>();
  }
  const auto undo = store_.AppendUndo(*labeler, item);
  if (!undo) {
    Refuse(response, 409, "nothing to undo");
    return;
  }
  const auto decisions = CurrentDecisions(store_.EventsOf(*labeler));
  Reply(response, {{"event", EventJson(*undo)}, {"label_now", StandingLabel(decisions, undo->item_id, *labeler)}});
}

std::vector<std::size_t> LabelServer::AssignedTo(const std::string& labeler) {
  std::lock_guard<std::mutex> lock(assigned_mutex_);
  auto found = assigned_.find(labeler);
  if (found == assigned_.end()) {
    found = assigned_.emplace(labeler, AssignedItems(manifest_, options_.assignment, labeler)).first;
  }
  return found->second;
}

void LabelServer::ServeAdmin(const httplib::Request& request, httplib::Response& response) {
  if (options_.admin_token.empty()) {
    Refuse(response, 404, "no admin page: start the server with an admin token");
    return;
  }
  std::string presented = request.get_header_value("X-Admin-Token");
  if (presented.empty()) presented = request.get_param_value("admin");
  if (!ConstantTimeEquals(presented, options_.admin_token)) {
    Refuse(response, 403, "missing or wrong admin token (?admin=...)");
    return;
  }
  const auto progress = ComputeProgress(manifest_, options_.assignment, store_.Events());
  response.set_header("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  response.set_content(RenderAdminPage(progress, manifest_.items.size()), "text/html; charset=utf-8");
}

}  // namespace evalsuite::labeling
