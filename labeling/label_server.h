// The labeling web server: one embedded page (labeling/page/index.html) and a small JSON API over the candidate
// manifest and the label store. Loopback only unless an access token guards every request; state changes are
// POSTs carrying the page's token; every request is validated and refused with a 4xx and a reason.
//
//   GET  /                     the page (?labeler=NAME picks the labeler; ?token=T sets the access cookie)
//   GET  /api/queue?labeler=   classes and items in labeling order, with this labeler's standing labels
//   GET  /api/examples?wnid=   example images of a class (from --examples DIR)
//   GET  /images/<path>        a candidate image (only manifest paths, never outside the candidate folder)
//   GET  /examples/<path>      an example image (only listed examples, never outside the examples folder)
//   POST /api/label            {"labeler", "item", "label": correct|incorrect|unsure, "seconds", "displayed_at"}
//                              (displayed_at: the page's clock when the image appeared, Unix milliseconds); the
//                              event records the SHA-256 of the image bytes served for the item
//   GET  /admin?admin=TOKEN    per-labeler progress, speed, agreement, control accuracy (admin token)
//   POST /api/undo             {"labeler", "item"?}: retracts the labeler's latest standing decision
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "datasets/images/candidate_manifest.h"
#include "labeling/assignment.h"
#include "labeling/guarded_http_server.h"
#include "labeling/host_check.h"
#include "labeling/label_store.h"
#include "labeling/labeler_name.h"
#include "labeling/safe_path.h"
#include "labeling/server_options.h"

namespace evalsuite::labeling {

constexpr std::size_t kMinAccessTokenChars = 16;
constexpr double kMaxSecondsPerItem = 24 * 3600;

// 32 random bytes as hex (OpenSSL RAND_bytes): CSRF tokens, CSP nonces, generated access tokens.
std::string RandomToken();

class LabelServer {
 public:
  // `candidates_dir` is the manifest's folder (image paths are relative to it). Throws UsageError when the
  // options are unsafe (non-loopback without a long enough token) and InputError on duplicate item ids.
  LabelServer(datasets::CandidateManifest manifest, std::filesystem::path candidates_dir, LabelStore& store,
              ServerOptions options);
  ~LabelServer();
  LabelServer(const LabelServer&) = delete;
  LabelServer& operator=(const LabelServer&) = delete;

  // Binds the listening socket; returns the port (the chosen one when options.port is 0). Throws IoError.
  int Bind();
  // Serves until Stop() (from another thread or a signal-handling thread).
  void Run();
  void Stop();
  // True once Run() is accepting connections (Stop() before that point would be lost).
  bool running() const;

  const std::string& page_token() const { return page_token_; }
  std::size_t item_count() const { return manifest_.items.size(); }

 private:
  void Routes();
  // The normalized labeler a request names (`given`: the request carries the field, even empty), else the
  // server's --labeler; nullopt after writing the refusal.
  std::optional<std::string> LabelerOf(bool given, const std::string& requested, httplib::Response& response) const;
  // The one spelling of a normalized name (names compare by LabelerKey, labeler_name.h).
  std::string SpellingOf(const std::string& labeler) const;
  // The same for a POST's JSON body: its "labeler" (refused unless a string), else the server's --labeler.
  std::optional<std::string> LabelerOfBody(const nlohmann::json& body, httplib::Response& response) const;
  void ServePage(const httplib::Request& request, httplib::Response& response);
  void ServeQueue(const httplib::Request& request, httplib::Response& response);
  void ServeExamples(const httplib::Request& request, httplib::Response& response);
  void ServeImage(const httplib::Request& request, httplib::Response& response);
  void ServeExampleImage(const httplib::Request& request, httplib::Response& response);
  void PostLabel(const httplib::Request& request, httplib::Response& response);
  void PostUndo(const httplib::Request& request, httplib::Response& response);
  void ServeAdmin(const httplib::Request& request, httplib::Response& response);
  // The labeler's items in their order (cached: the plan is fixed for the server's life).
  std::vector<std::size_t> AssignedTo(const std::string& labeler);
  const std::vector<std::string>& ExamplesOf(const std::string& wnid);
  // The SHA-256 of the item's image as served (hashing the file when it was not served yet); "" when unreadable.
  std::string ShownSha256(const datasets::Candidate& item);

  datasets::CandidateManifest manifest_;
  std::filesystem::path candidates_root_;  // canonical
  std::filesystem::path examples_root_;    // canonical, or empty
  LabelStore& store_;
  ServerOptions options_;
  std::string page_token_;
  std::map<std::string, std::size_t> item_index_;  // id -> manifest index
  std::set<std::string> image_paths_;              // manifest paths, the only files /images/ serves
  std::mutex examples_mutex_;
  std::map<std::string, std::vector<std::string>> examples_;  // wnid -> relative paths under examples_root_
  std::set<std::string> example_paths_;
  std::mutex assigned_mutex_;
  std::map<std::string, std::vector<std::size_t>> assigned_;
  std::mutex served_mutex_;
  std::map<std::string, std::string> served_sha256_;  // candidate path -> SHA-256 of the bytes last served
  std::unique_ptr<GuardedHttpServer> server_;
  int port_ = -1;
};

}  // namespace evalsuite::labeling
