#include "common/openmp_wait_policy.h"

#include <cstdlib>

namespace evalsuite {
namespace {

// Set beside OMP_WAIT_POLICY, so that the record tells evalsuite's setting from the user's.
constexpr const char* kMarker = "EVALSUITE_OMP_WAIT_POLICY_SET";

}  // namespace

std::string OpenMpWaitPolicy() {
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  const char* spin = std::getenv("GOMP_SPINCOUNT");
  if (policy == nullptr && spin == nullptr) return "libgomp default (spin, then sleep)";
  std::string text = policy != nullptr ? std::string(policy) : "GOMP_SPINCOUNT=" + std::string(spin);
  const char* marker = std::getenv(kMarker);
  return text + (marker != nullptr && policy != nullptr && text == marker ? " (set by evalsuite)" : " (user)");
}

std::string PreferPassiveOpenMpWait() {
  if (std::getenv("OMP_WAIT_POLICY") == nullptr && std::getenv("GOMP_SPINCOUNT") == nullptr) {
    setenv("OMP_WAIT_POLICY", "passive", 1);
    setenv(kMarker, "passive", 1);
  }
  return OpenMpWaitPolicy();
}

}  // namespace evalsuite
