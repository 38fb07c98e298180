// A small candidate folder written by the tests: three ImageNet classes with three ranked candidates each,
// one hidden control, real JPEG files (OpenCV) with matching SHA-256, and optionally example images per class.
// Also a labeling server running on a free loopback port for the duration of a test.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "datasets/images/candidate_manifest.h"
#include "labeling/label_server.h"
#include "labeling/label_store.h"

namespace evalsuite::labeling::testing {

struct CandidateFolder {
  std::filesystem::path dir;  // holds candidates.json and images/
  datasets::CandidateManifest manifest;
};

// Writes DIR/candidates.json and DIR/images/*.jpg. The control is "n02102040/control" (known incorrect: a
// truck picture in the springer class), placed in that class at rank 4.
CandidateFolder MakeCandidateFolder(const std::filesystem::path& dir);
// DIR/<wnid>/example_<k>.jpg for every class of the folder above.
void MakeExamplesFolder(const std::filesystem::path& dir, int per_class = 4);
// A JPEG of a drawn scene for one class (deterministic for a given seed).
void WriteClassImage(const std::filesystem::path& file, const std::string& wnid, int seed, const std::string& caption);

// The server on 127.0.0.1, port 0, serving from a thread until destruction.
class RunningServer {
 public:
  RunningServer(const CandidateFolder& folder, LabelStore& store, ServerOptions options = DefaultOptions());
  ~RunningServer();
  static ServerOptions DefaultOptions();
  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const LabelServer& server() const { return *server_; }

 private:
  std::unique_ptr<LabelServer> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace evalsuite::labeling::testing
