// JPEG decoding with libjpeg(-turbo) directly, for what OpenCV's imdecode hides: libjpeg's warnings (a damaged
// but decodable file) are returned to the caller, which names the file, instead of being printed to stderr
// anonymously. Same library and settings as OpenCV and PIL (accurate integer DCT, fancy upsampling, BGR out),
// so the pixels are the same; CMYK/YCCK files are left to OpenCV (it converts them).
#pragma once

#include <opencv2/core.hpp>
#include <string>
#include <string_view>

namespace evalsuite::datasets {

enum class JpegResult { kOk, kError, kNotHandled };

// Decodes into 8-bit BGR (grayscale replicated). kNotHandled for CMYK/YCCK; kError with `message` for data
// libjpeg refuses. `warning` receives libjpeg's first warning and how many followed, "" when none.
JpegResult DecodeJpegBgr(std::string_view bytes, cv::Mat* bgr, std::string* message, std::string* warning);

// The EXIF orientation (1-8) in a JPEG's APP1 segment; 1 when absent.
int JpegExifOrientation(std::string_view bytes);

}  // namespace evalsuite::datasets
