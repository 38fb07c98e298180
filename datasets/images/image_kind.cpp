#include "datasets/images/image_kind.h"

#include <cstdint>

#include "datasets/images/byte_fields.h"
#include "datasets/images/exif_orientation.h"
#include "datasets/images/jpeg_decode.h"

namespace evalsuite::datasets {
namespace {

// Walks the JPEG segments up to the first scan for the frame type and components; the EXIF orientation.
std::string JpegKind(std::string_view b) {
  std::string kind = "jpeg";
  size_t pos = 2;
  while (pos + 4 <= b.size()) {
    if (static_cast<uint8_t>(b[pos]) != 0xFF) break;
    const uint8_t marker = static_cast<uint8_t>(b[pos + 1]);
    if (marker == 0xFF) {  // fill byte
      ++pos;
      continue;
    }
    const uint32_t length = Be16(b, pos + 2);
    if (length < 2 || pos + 2 + length > b.size()) break;
    const std::string_view payload = b.substr(pos + 4, length - 2);
    const bool frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (frame && payload.size() >= 6) {
      const bool progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE;
      kind += progressive ? "-progressive" : "-baseline";
      const int components = static_cast<uint8_t>(payload[5]);
      if (components == 1) kind += "-gray";
      if (components == 4) kind += "-cmyk";
    }
    if (marker == 0xDA) break;
    pos += 2 + length;
  }
  const int orientation = JpegExifOrientation(b);
  if (orientation != 1) kind += "-exif-" + std::to_string(orientation);
  return kind;
}

std::string PngKind(std::string_view b) {
  if (b.size() < 29) return "png";
  const int depth = static_cast<uint8_t>(b[24]);
  const int colour = static_cast<uint8_t>(b[25]);
  std::string kind = colour == 0   ? "png-grayscale"
                     : colour == 2 ? "png-rgb"
                     : colour == 3 ? "png-palette"
                     : colour == 4 ? "png-grayscale-alpha"
                     : colour == 6 ? "png-alpha"
                                   : "png";
  if (depth == 16) kind += "-16bit";
  const int orientation = ContainerExifOrientation(b);
  if (orientation != 1) kind += "-exif-" + std::to_string(orientation);
  return kind;
}

std::string WebpKind(std::string_view b) {
  std::string kind = "webp";
  if (b.find("VP8L") != std::string_view::npos) {
    kind += "-lossless";
  } else {
    kind += "-lossy";
  }
  if (b.find("ALPH") != std::string_view::npos) kind += "-alpha";
  const int orientation = ContainerExifOrientation(b);
  if (orientation != 1) kind += "-exif-" + std::to_string(orientation);
  return kind;
}

}  // namespace

std::string ImageKind(std::string_view bytes) {
  if (StartsWith(bytes, "\xFF\xD8\xFF")) return JpegKind(bytes);
  if (StartsWith(bytes, "\x89PNG\r\n\x1A\n")) return PngKind(bytes);
  if (bytes.size() >= 12 && StartsWith(bytes, "RIFF") && bytes.substr(8, 4) == "WEBP") return WebpKind(bytes);
  return "";
}

}  // namespace evalsuite::datasets
