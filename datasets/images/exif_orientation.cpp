#include "datasets/images/exif_orientation.h"

#include <webp/demux.h>

#include <cstdint>
#include <opencv2/core.hpp>

#include "datasets/images/byte_fields.h"

namespace evalsuite::datasets {
namespace {

constexpr uint16_t kOrientationTag = 0x0112;

// The payload of a WebP file's EXIF chunk, via libwebp's demuxer (which validates the RIFF structure).
std::string_view WebpExif(std::string_view bytes) {
  WebPData data = {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()};
  WebPDemuxer* demux = WebPDemux(&data);
  if (demux == nullptr) return {};
  std::string_view exif;
  WebPChunkIterator chunk;
  if ((WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & EXIF_FLAG) && WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
    // The chunk points into `bytes`, which outlives the demuxer.
    exif = std::string_view(reinterpret_cast<const char*>(chunk.chunk.bytes), chunk.chunk.size);
    WebPDemuxReleaseChunkIterator(&chunk);
  }
  WebPDemuxDelete(demux);
  return exif;
}

// The payload of a PNG's eXIf chunk, which the PNG specification places before the first IDAT. No Debian
// library reads it without decoding (libpng would, through a full png_read_info set-up), so the chunk list is
// walked here: length, type, data, CRC.
std::string_view PngExif(std::string_view b) {
  size_t pos = 8;
  while (pos + 8 <= b.size()) {
    const uint32_t length = (static_cast<uint32_t>(static_cast<uint8_t>(b[pos])) << 24) |
                            (static_cast<uint8_t>(b[pos + 1]) << 16) | (static_cast<uint8_t>(b[pos + 2]) << 8) |
                            static_cast<uint8_t>(b[pos + 3]);
    const std::string_view type = b.substr(pos + 4, 4);
    if (length > b.size() - pos - 8) return {};
    if (type == "eXIf") return b.substr(pos + 8, length);
    if (type == "IDAT" || type == "IEND") return {};
    pos += 12 + static_cast<size_t>(length);
  }
  return {};
}

}  // namespace

int OrientationFromExif(std::string_view exif) {
  if (StartsWith(exif, std::string_view("Exif\0\0", 6))) exif.remove_prefix(6);
  if (exif.size() < 8) return 1;
  const bool little = StartsWith(exif, "II");
  if (!little && !StartsWith(exif, "MM")) return 1;
  auto u16 = [&](size_t at) -> uint32_t {
    const uint32_t a = static_cast<uint8_t>(exif[at]), b = static_cast<uint8_t>(exif[at + 1]);
    return little ? a | (b << 8) : (a << 8) | b;
  };
  auto u32 = [&](size_t at) -> uint32_t {
    return little ? u16(at) | (u16(at + 2) << 16) : (u16(at) << 16) | u16(at + 2);
  };
  if (u16(2) != 42) return 1;
  const size_t ifd = u32(4);
  if (ifd > exif.size() || exif.size() - ifd < 2) return 1;
  const size_t entries = u16(ifd);
  for (size_t e = 0; e < entries; ++e) {
    const size_t at = ifd + 2 + 12 * e;
    if (at + 12 > exif.size()) return 1;
    if (u16(at) != kOrientationTag) continue;
    const uint32_t type = u16(at + 2);
    const uint32_t value = type == 3 ? u16(at + 8) : type == 4 ? u32(at + 8) : 0;  // SHORT (the standard) or LONG
    return value >= 1 && value <= 8 ? static_cast<int>(value) : 1;
  }
  return 1;
}

int ContainerExifOrientation(std::string_view bytes) {
  if (bytes.size() >= 12 && StartsWith(bytes, "RIFF") && bytes.substr(8, 4) == "WEBP") {
    return OrientationFromExif(WebpExif(bytes));
  }
  if (StartsWith(bytes, "\x89PNG\r\n\x1A\n")) return OrientationFromExif(PngExif(bytes));
  return 1;
}

void ApplyExifOrientation(int orientation, cv::Mat* image) {
  cv::Mat out;
  switch (orientation) {
    case 2:  // mirrored
      cv::flip(*image, out, 1);
      break;
    case 3:  // upside down
      cv::rotate(*image, out, cv::ROTATE_180);
      break;
    case 4:  // mirrored upside down
      cv::flip(*image, out, 0);
      break;
    case 5:  // transpose
      cv::transpose(*image, out);
      break;
    case 6:  // the camera was turned left: turn the picture right
      cv::rotate(*image, out, cv::ROTATE_90_CLOCKWISE);
      break;
    case 7:  // transverse: transpose and turn half round
      cv::transpose(*image, out);
      cv::flip(out, out, -1);
      break;
    case 8:
      cv::rotate(*image, out, cv::ROTATE_90_COUNTERCLOCKWISE);
      break;
    default:
      return;
  }
  *image = std::move(out);
}

}  // namespace evalsuite::datasets
