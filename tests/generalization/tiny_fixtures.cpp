#include "tests/generalization/tiny_fixtures.h"

#include <torch/script.h>
#include <torch/torch.h>

#include <opencv2/imgcodecs.hpp>

#include "common/sha256.h"

namespace evalsuite::generalization::fixtures {

namespace {
const std::vector<std::string> kNames = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                         "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
}

int GreyOfClass(int k) { return 20 * k + 10; }

datasets::Holdout WriteTinyHoldout(const std::filesystem::path& dir, int per_class, const std::string& name) {
  std::filesystem::create_directories(dir / "images");
  datasets::Holdout holdout;
  holdout.name = name;
  holdout.class_list = "fashion-mnist";
  holdout.class_names = kNames;
  holdout.rule = {{"rule", "test fixture"}};
  for (int i = 0; i < per_class; ++i) {
    for (int k = 0; k < 10; ++k) {
      cv::Mat image(28, 28, CV_8UC1, cv::Scalar(GreyOfClass(k)));
      image.at<uchar>(0, i % 28) = static_cast<uchar>(GreyOfClass(k) + 3);  // tiny, class-preserving change
      const std::string relative = "images/" + std::to_string(k) + "_" + std::to_string(i) + ".png";
      cv::imwrite((dir / relative).string(), image);
      datasets::HoldoutItem item;
      item.id = std::to_string(k) + "_" + std::to_string(i);
      item.class_index = k;
      item.class_name = kNames[k];
      item.path = relative;
      item.sha256 = Sha256FileHex(dir / relative);
      holdout.items.push_back(item);
    }
  }
  datasets::WriteHoldout(holdout, dir);
  return datasets::ReadHoldout(dir);
}

void SaveBrightnessModel(const std::filesystem::path& file, const std::vector<int>& perm) {
  std::vector<float> centres;
  for (int k : perm) centres.push_back(GreyOfClass(k) / 255.0f);
  torch::jit::Module module("BrightnessModel");
  module.register_buffer("centres", torch::tensor(centres));
  module.define(R"(
    def forward(self, x):
        m = x.mean(dim=[1, 2, 3])
        d = m.unsqueeze(1) - self.centres.unsqueeze(0)
        return -(d * d)
  )");
  module.save(file.string());
}

void SaveWrongShapeModel(const std::filesystem::path& file) {
  torch::jit::Module module("WrongShapeModel");
  module.define(R"(
    def forward(self, x):
        return x.reshape([x.size(0), 3 * 224 * 224])[:, 0:10]
  )");
  module.save(file.string());
}

void SaveBatchLimitedModel(const std::filesystem::path& file, int max_batch) {
  std::vector<float> centres;
  for (int k = 0; k < 10; ++k) centres.push_back(GreyOfClass(k) / 255.0f);
  torch::jit::Module module("BatchLimitedModel");
  module.register_buffer("centres", torch::tensor(centres));
  module.define(R"(
    def forward(self, x):
        m = x.reshape([)" +
                std::to_string(max_batch) + R"(, 784]).mean(dim=[1])
        d = m.unsqueeze(1) - self.centres.unsqueeze(0)
        return -(d * d)
  )");
  module.save(file.string());
}

}  // namespace evalsuite::generalization::fixtures
