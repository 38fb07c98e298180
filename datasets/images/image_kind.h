// A short name for what kind of image file a user has, read from the header bytes only, so that results can be
// broken down by it ("jpeg-progressive", "jpeg-baseline-gray-exif-6", "png-palette", "webp-lossless-exif-3"):
// decoders and preprocessing pipelines differ by kind, and a comparison with another pipeline says where.
#pragma once

#include <string>
#include <string_view>

namespace evalsuite::datasets {

// "" for bytes that are not JPEG, PNG or WebP. Never throws.
std::string ImageKind(std::string_view bytes);

}  // namespace evalsuite::datasets
