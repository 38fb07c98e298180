#include "tests/labeling/labeling_fixture.h"

#include <chrono>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "common/sha256.h"

namespace evalsuite::labeling::testing {
namespace fs = std::filesystem;

namespace {

struct ClassSpec {
  int index;
  const char* wnid;
  std::vector<std::string> synonyms;
  const char* gloss;
  const char* query;
};

const std::vector<ClassSpec>& Classes() {
  static const std::vector<ClassSpec> classes = {
      {0,
       "n01440764",
       {"tench", "Tinca tinca"},
       "freshwater dace-like game fish of Europe and western Asia noted for ability to survive outside water",
       "tench fish"},
      {217,
       "n02102040",
       {"English springer", "English springer spaniel"},
       "a breed of springer spaniel",
       "english springer spaniel"},
      {569, "n03417042", {"garbage truck", "dustcart"}, "a truck for collecting domestic refuse", "garbage truck"},
  };
  return classes;
}

cv::Scalar Bgr(int r, int g, int b) { return cv::Scalar(b, g, r); }

}  // namespace

void WriteClassImage(const fs::path& file, const std::string& wnid, int seed, const std::string& caption) {
  const int width = 640;
  const int height = 480;
  cv::Mat image(height, width, CV_8UC3);
  cv::RNG rng(static_cast<uint64_t>(seed) * 7919 + 17);
  // A sky/ground or water gradient per class, then a simple drawn subject: enough to look like a photo slot.
  cv::Scalar top, bottom;
  if (wnid == "n01440764") {
    top = Bgr(40, 110, 140);
    bottom = Bgr(10, 45, 70);
  } else if (wnid == "n02102040") {
    top = Bgr(150, 190, 225);
    bottom = Bgr(70, 120, 50);
  } else {
    top = Bgr(190, 200, 210);
    bottom = Bgr(90, 90, 95);
  }
  for (int y = 0; y < height; ++y) {
    const double t = static_cast<double>(y) / (height - 1);
    cv::line(image, {0, y}, {width - 1, y}, top * (1 - t) + bottom * t);
  }
  const int cx = 200 + rng.uniform(0, 240);
  const int cy = 200 + rng.uniform(0, 80);
  if (wnid == "n01440764") {
    const cv::Scalar body = Bgr(120 + rng.uniform(0, 40), 130 + rng.uniform(0, 30), 60);
    cv::ellipse(image, {cx, cy}, {130, 55}, rng.uniform(-15, 15), 0, 360, body, cv::FILLED, cv::LINE_AA);
    std::vector<cv::Point> tail = {{cx + 120, cy}, {cx + 190, cy - 50}, {cx + 190, cy + 50}};
    cv::fillConvexPoly(image, tail, body, cv::LINE_AA);
    cv::circle(image, {cx - 85, cy - 12}, 9, Bgr(240, 240, 230), cv::FILLED, cv::LINE_AA);
    cv::circle(image, {cx - 85, cy - 12}, 4, Bgr(20, 20, 20), cv::FILLED, cv::LINE_AA);
  } else if (wnid == "n02102040") {
    const cv::Scalar coat = Bgr(110 + rng.uniform(0, 30), 60, 30);
    cv::ellipse(image, {cx, cy + 40}, {120, 60}, 0, 0, 360, Bgr(235, 230, 220), cv::FILLED, cv::LINE_AA);
    cv::ellipse(image, {cx + 20, cy + 30}, {70, 40}, 0, 0, 360, coat, cv::FILLED, cv::LINE_AA);
    cv::circle(image, {cx - 120, cy - 10}, 48, Bgr(235, 230, 220), cv::FILLED, cv::LINE_AA);
    cv::ellipse(image, {cx - 150, cy + 10}, {22, 50}, 15, 0, 360, coat, cv::FILLED, cv::LINE_AA);
    cv::circle(image, {cx - 132, cy - 22}, 6, Bgr(20, 20, 20), cv::FILLED, cv::LINE_AA);
    for (int leg : {-80, -40, 60, 100}) {
      cv::rectangle(image, {cx + leg, cy + 80}, {cx + leg + 18, cy + 150}, Bgr(225, 220, 210), cv::FILLED);
    }
  } else {
    const cv::Scalar paint = Bgr(40 + rng.uniform(0, 40), 120 + rng.uniform(0, 60), 60);
    cv::rectangle(image, {cx - 170, cy - 70}, {cx + 60, cy + 70}, paint, cv::FILLED);
    cv::rectangle(image, {cx + 60, cy - 20}, {cx + 150, cy + 70}, Bgr(230, 230, 235), cv::FILLED);
    cv::rectangle(image, {cx + 85, cy - 5}, {cx + 140, cy + 25}, Bgr(120, 170, 210), cv::FILLED);
    for (int wheel : {-120, 0, 110}) {
      cv::circle(image, {cx + wheel, cy + 75}, 30, Bgr(30, 30, 30), cv::FILLED, cv::LINE_AA);
      cv::circle(image, {cx + wheel, cy + 75}, 12, Bgr(160, 160, 160), cv::FILLED, cv::LINE_AA);
    }
  }
  cv::putText(image, caption, {16, height - 18}, cv::FONT_HERSHEY_SIMPLEX, 0.7, Bgr(255, 255, 255), 2, cv::LINE_AA);
  fs::create_directories(file.parent_path());
  if (!cv::imwrite(file.string(), image, {cv::IMWRITE_JPEG_QUALITY, 85})) {
    throw std::runtime_error("cannot write " + file.string());
  }
}

CandidateFolder MakeCandidateFolder(const fs::path& dir) {
  CandidateFolder folder;
  folder.dir = dir;
  datasets::CandidateManifest& manifest = folder.manifest;
  manifest.source = {{"made_by", "tests/labeling/labeling_fixture.cpp"}};
  int seed = 0;
  // Written in reverse class order and with shuffled ranks: the server must put them in labeling order.
  for (auto spec = Classes().rbegin(); spec != Classes().rend(); ++spec) {
    manifest.classes[spec->wnid] = datasets::CandidateClass{spec->index, spec->wnid, spec->synonyms, spec->gloss};
    for (int rank : {3, 1, 2}) {
      datasets::Candidate item;
      item.id = std::string(spec->wnid) + "/photo" + std::to_string(rank);
      item.class_index = spec->index;
      item.wnid = spec->wnid;
      item.query = spec->query;
      item.rank = rank;
      item.flickr_id = std::to_string(1000 + seed);
      item.license = "4";
      item.path = "images/" + std::string(spec->wnid) + "_" + std::to_string(rank) + ".jpg";
      WriteClassImage(dir / item.path, spec->wnid, ++seed, spec->synonyms.front() + "  #" + std::to_string(rank));
      item.sha256 = Sha256FileHex(dir / item.path);
      item.width = 640;
      item.height = 480;
      manifest.items.push_back(item);
    }
  }
  datasets::Candidate control;
  control.id = "n02102040/control";
  control.class_index = 217;
  control.wnid = "n02102040";
  control.query = "english springer spaniel";
  control.rank = 4;
  control.path = "images/control.jpg";
  WriteClassImage(dir / control.path, "n03417042", 99, "control");
  control.sha256 = Sha256FileHex(dir / control.path);
  control.control = "incorrect";
  manifest.items.push_back(control);
  datasets::WriteCandidateManifest(manifest, dir / datasets::kCandidateManifestFile);
  return folder;
}

void MakeExamplesFolder(const fs::path& dir, int per_class) {
  int seed = 500;
  for (const ClassSpec& spec : Classes()) {
    for (int k = 1; k <= per_class; ++k) {
      WriteClassImage(dir / spec.wnid / ("example_" + std::to_string(k) + ".jpg"), spec.wnid, ++seed, "");
    }
  }
}

ServerOptions RunningServer::DefaultOptions() {
  ServerOptions options;
  options.port = 0;
  options.default_labeler = "alice";
  return options;
}

RunningServer::RunningServer(const CandidateFolder& folder, LabelStore& store, ServerOptions options) {
  options.port = 0;
  options.bind = options.bind.empty() ? "127.0.0.1" : options.bind;
  server_ = std::make_unique<LabelServer>(folder.manifest, folder.dir, store, options);
  port_ = server_->Bind();
  thread_ = std::thread([this] { server_->Run(); });
  while (!server_->running()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

RunningServer::~RunningServer() {
  server_->Stop();
  thread_.join();
}

}  // namespace evalsuite::labeling::testing
