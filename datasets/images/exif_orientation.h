// EXIF orientation for the containers OpenCV 4.6 decodes without applying it: WebP (its EXIF chunk, read
// with libwebp's demux API) and PNG (its eXIf chunk). OpenCV applies it to JPEG itself. The result matches
// PIL's ImageOps.exif_transpose, what a torchvision user applies.
#pragma once

#include <opencv2/core.hpp>
#include <string_view>

namespace evalsuite::datasets {

// The orientation tag (1-8) of a TIFF-structured EXIF block ("II*\0" or "MM\0*", optionally after "Exif\0\0"),
// or 1 when absent, out of range or unreadable (a damaged tag never fails a decode).
int OrientationFromExif(std::string_view exif);

// The orientation a WebP or PNG file declares in its EXIF chunk; 1 for other formats or without one.
int ContainerExifOrientation(std::string_view bytes);

// Turns a decoded image upright: orientation 2-8 flips and/or rotates it as EXIF defines, 1 leaves it.
void ApplyExifOrientation(int orientation, cv::Mat* image);

}  // namespace evalsuite::datasets
