// The labeling page (labeling/page/index.html), embedded in the binary at build time by
// cmake/EmbedFiles.cmake, so `label serve` needs no files beside the executable and nothing from the network.
#pragma once

#include <string_view>

namespace evalsuite::labeling {

// The page's HTML with its CSS and JavaScript inline; __PAGE_TOKEN__ and __NONCE__ are filled in per response.
std::string_view LabelPageHtml();

}  // namespace evalsuite::labeling
