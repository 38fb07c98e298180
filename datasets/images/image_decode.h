// Decoding untrusted image bytes (JPEG, PNG, WebP) into an 8-bit RGB cv::Mat, or a clear reason why not.
// Never throws for bad input: a crawl or an evaluation records the reason per image and carries on.
//
// Contract:
// - The format is sniffed from the magic bytes, not the file name. HTML (a server's error page saved as
//   "photo.jpg") and other text are told apart from binary garbage.
// - The declared width x height is read from the header BEFORE the pixels are decoded and checked against
//   DecodeOptions::max_pixels, so a small file declaring a huge image costs no memory.
// - A JPEG without an end-of-image marker after its scan, a PNG without IEND and a WebP shorter than its RIFF
//   size are "truncated" (libjpeg would otherwise return a half-grey image with only a warning).
// - JPEG is decoded by libjpeg directly (jpeg_decode.h), so its warnings come back in `warning` for the caller
//   to print with the file's name; the rest by OpenCV.
// - EXIF orientation is applied, as PIL's ImageOps.exif_transpose does: for PNG by OpenCV's imdecode, for
//   JPEG (decoded here) and WebP (which OpenCV 4.6 leaves sideways) by exif_orientation.h; tests pin each,
//   grayscale and CMYK inputs come out as 3-channel RGB, alpha is dropped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <opencv2/core.hpp>
#include <string>
#include <string_view>

namespace evalsuite::datasets {

// 50 megapixels: a 8660x5773 photo, 150 MB as RGB. Above any camera image Flickr serves at "original" size
// today, below what would let two decoding threads exhaust a small machine's memory.
constexpr int64_t kDefaultMaxImagePixels = 50'000'000;
// Files larger than this are not even read into memory.
constexpr int64_t kDefaultMaxImageFileBytes = 100 * 1024 * 1024;

struct DecodeOptions {
  int64_t max_pixels = kDefaultMaxImagePixels;         // declared width * height above this: kTooLarge
  int64_t max_file_bytes = kDefaultMaxImageFileBytes;  // for DecodeImageFile only
  // false keeps OpenCV's BGR order, for callers that reorder channels later anyway (saves one pass).
  bool to_rgb = true;
};

enum class DecodeStatus {
  kOk,
  kMissing,      // the file does not exist
  kUnreadable,   // the file exists but cannot be read (permissions, I/O error, too many bytes)
  kEmpty,        // zero bytes
  kHtml,         // an HTML page (typically an error page saved in place of an image)
  kNotAnImage,   // neither a supported image format nor HTML
  kUnsupported,  // a recognised image format evalsuite does not decode (GIF, BMP, TIFF, ...)
  kTruncated,    // the data ends before the image does
  kTooLarge,     // declared dimensions above the pixel limit
  kCorrupt,      // the header parses but the decoder fails
};

// A short, stable name for counting reasons in reports: "ok", "missing", "html", "truncated", ...
const char* DecodeStatusName(DecodeStatus status);

// What the header declares, without decoding pixels.
struct ImageHeader {
  std::string format;  // "jpeg", "png", "webp"
  int width = 0;
  int height = 0;
};

struct DecodedImage {
  DecodeStatus status = DecodeStatus::kOk;
  std::string reason;   // human-readable: "truncated", "too large: 70000x70000 > 50000000 pixels", ...
  std::string warning;  // decoded, but the decoder worked around damage ("libjpeg: Corrupt JPEG data: ...")
  std::string format;   // "jpeg", "png", "webp" when sniffed
  std::string kind;     // finer, for reports: "jpeg-progressive", "png-palette", ... (image_kind.h)
  cv::Mat image;        // CV_8UC3, RGB (or BGR when !to_rgb), orientation applied; empty unless ok()
  int width = 0;        // of `image`, i.e. after EXIF orientation
  int height = 0;
  bool ok() const { return status == DecodeStatus::kOk; }
};

// Reads the header of JPEG, PNG or WebP data. Fills `header` and returns kOk, or returns the status and a
// reason (kHtml, kNotAnImage, kUnsupported, kTruncated, kCorrupt) without touching pixels.
DecodeStatus ReadImageHeader(std::string_view bytes, ImageHeader* header, std::string* reason);

DecodedImage DecodeImage(std::string_view bytes, const DecodeOptions& options = {});
DecodedImage DecodeImageFile(const std::filesystem::path& file, const DecodeOptions& options = {});

}  // namespace evalsuite::datasets
