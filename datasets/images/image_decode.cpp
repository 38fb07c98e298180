#include "datasets/images/image_decode.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <system_error>

#include "datasets/images/byte_fields.h"
#include "datasets/images/exif_orientation.h"
#include "datasets/images/image_kind.h"
#include "datasets/images/jpeg_decode.h"

// OpenCV 4.6 has no public "read the header only" call (cv::ImageCollection came in 4.7 and still decodes),
// so the few bytes that carry width and height are parsed here; everything else is OpenCV's.

namespace evalsuite::datasets {
namespace {

DecodeStatus Fail(DecodeStatus status, std::string text, std::string* reason) {
  if (reason != nullptr) *reason = std::move(text);
  return status;
}

// JPEG: walk the marker segments from SOI to the first SOS, taking the frame size from the SOF segment; the
// data is complete only when an EOI marker follows the start of the scan (an EOI inside an EXIF thumbnail,
// before the scan, does not count).
DecodeStatus ReadJpegHeader(std::string_view b, ImageHeader* header, std::string* reason) {
  header->format = "jpeg";
  size_t pos = 2;
  bool have_frame = false;
  while (true) {
    while (pos < b.size() && static_cast<uint8_t>(b[pos]) != 0xFF) ++pos;  // tolerate stray bytes
    while (pos < b.size() && static_cast<uint8_t>(b[pos]) == 0xFF) ++pos;  // fill bytes
    if (pos >= b.size()) return Fail(DecodeStatus::kTruncated, "truncated (JPEG ends before its scan)", reason);
    const uint8_t marker = static_cast<uint8_t>(b[pos++]);
    if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // no payload
    if (marker == 0xD9) return Fail(DecodeStatus::kCorrupt, "corrupt (JPEG ends before any scan)", reason);
    if (pos + 2 > b.size()) return Fail(DecodeStatus::kTruncated, "truncated (JPEG header)", reason);
    const uint32_t length = Be16(b, pos);
    if (length < 2) return Fail(DecodeStatus::kCorrupt, "corrupt (JPEG segment length)", reason);
    const bool is_frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (is_frame) {
      if (length < 8 || pos + 8 > b.size())
        return Fail(DecodeStatus::kTruncated, "truncated (JPEG frame header)", reason);
      header->height = static_cast<int>(Be16(b, pos + 3));
      header->width = static_cast<int>(Be16(b, pos + 5));
      if (header->width == 0 || header->height == 0) {
        return Fail(DecodeStatus::kCorrupt, "corrupt (JPEG frame declares a zero dimension)", reason);
      }
      have_frame = true;
    }
    if (marker == 0xDA) {  // start of scan: pixels follow
      if (!have_frame) return Fail(DecodeStatus::kCorrupt, "corrupt (JPEG scan without a frame header)", reason);
      const size_t scan_start = pos + length;
      const size_t eoi = b.rfind(std::string_view("\xFF\xD9", 2));
      if (eoi == std::string_view::npos || eoi < scan_start) {
        return Fail(DecodeStatus::kTruncated, "truncated (JPEG has no end-of-image marker)", reason);
      }
      return DecodeStatus::kOk;
    }
    pos += length;
  }
}

DecodeStatus ReadPngHeader(std::string_view b, ImageHeader* header, std::string* reason) {
  header->format = "png";
  if (b.size() < 33) return Fail(DecodeStatus::kTruncated, "truncated (PNG header)", reason);
  if (b.substr(12, 4) != "IHDR") return Fail(DecodeStatus::kCorrupt, "corrupt (PNG without IHDR)", reason);
  const uint32_t width = Be32(b, 16), height = Be32(b, 20);
  if (width == 0 || height == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF) {
    return Fail(DecodeStatus::kCorrupt, "corrupt (PNG dimensions)", reason);
  }
  header->width = static_cast<int>(width);
  header->height = static_cast<int>(height);
  const size_t iend = b.rfind("IEND");
  if (iend == std::string_view::npos || iend < 33) {
    return Fail(DecodeStatus::kTruncated, "truncated (PNG has no IEND chunk)", reason);
  }
  return DecodeStatus::kOk;
}

DecodeStatus ReadWebpHeader(std::string_view b, ImageHeader* header, std::string* reason) {
  header->format = "webp";
  if (b.size() < 30) return Fail(DecodeStatus::kTruncated, "truncated (WebP header)", reason);
  const uint64_t riff_end = 8ull + Le32(b, 4);
  if (riff_end > b.size()) return Fail(DecodeStatus::kTruncated, "truncated (WebP shorter than its RIFF size)", reason);
  const std::string_view chunk = b.substr(12, 4);
  if (chunk == "VP8 ") {
    if (static_cast<uint8_t>(b[23]) != 0x9D || static_cast<uint8_t>(b[24]) != 0x01 ||
        static_cast<uint8_t>(b[25]) != 0x2A) {
      return Fail(DecodeStatus::kCorrupt, "corrupt (WebP VP8 start code)", reason);
    }
    header->width = static_cast<int>(Le16(b, 26) & 0x3FFF);
    header->height = static_cast<int>(Le16(b, 28) & 0x3FFF);
  } else if (chunk == "VP8L") {
    if (static_cast<uint8_t>(b[20]) != 0x2F)
      return Fail(DecodeStatus::kCorrupt, "corrupt (WebP VP8L signature)", reason);
    const uint32_t bits = Le32(b, 21);
    header->width = static_cast<int>((bits & 0x3FFF) + 1);
    header->height = static_cast<int>(((bits >> 14) & 0x3FFF) + 1);
  } else if (chunk == "VP8X") {
    header->width = static_cast<int>(Le24(b, 24) + 1);
    header->height = static_cast<int>(Le24(b, 27) + 1);
  } else {
    return Fail(DecodeStatus::kCorrupt, "corrupt (unknown WebP chunk)", reason);
  }
  if (header->width == 0 || header->height == 0)
    return Fail(DecodeStatus::kCorrupt, "corrupt (WebP dimensions)", reason);
  return DecodeStatus::kOk;
}

// Text that starts like markup, after whitespace and a UTF-8 byte-order mark.
bool LooksLikeHtml(std::string_view b) {
  if (StartsWith(b, "\xEF\xBB\xBF")) b.remove_prefix(3);
  size_t i = 0;
  while (i < b.size() && std::isspace(static_cast<unsigned char>(b[i]))) ++i;
  if (i >= b.size() || b[i] != '<') return false;
  std::string head(b.substr(i, 1024));
  std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
  return head.find("<html") != std::string::npos || head.find("<!doctype html") != std::string::npos ||
         head.find("<head") != std::string::npos || head.find("<body") != std::string::npos ||
         head.find("<title") != std::string::npos;
}

const char* OtherImageFormat(std::string_view b) {
  if (StartsWith(b, "GIF87a") || StartsWith(b, "GIF89a")) return "GIF";
  if (StartsWith(b, "BM")) return "BMP";
  if (StartsWith(b, std::string_view("II*\0", 4)) || StartsWith(b, std::string_view("MM\0*", 4))) return "TIFF";
  if (b.size() >= 12 && b.substr(4, 4) == "ftyp") return "HEIF/AVIF";
  return nullptr;
}

}  // namespace

const char* DecodeStatusName(DecodeStatus status) {
  switch (status) {
    case DecodeStatus::kOk:
      return "ok";
    case DecodeStatus::kMissing:
      return "missing";
    case DecodeStatus::kUnreadable:
      return "unreadable";
    case DecodeStatus::kEmpty:
      return "empty";
    case DecodeStatus::kHtml:
      return "html";
    case DecodeStatus::kNotAnImage:
      return "not-an-image";
    case DecodeStatus::kUnsupported:
      return "unsupported";
    case DecodeStatus::kTruncated:
      return "truncated";
    case DecodeStatus::kTooLarge:
      return "too-large";
    case DecodeStatus::kCorrupt:
      return "corrupt";
  }
  return "unknown";
}

DecodeStatus ReadImageHeader(std::string_view bytes, ImageHeader* header, std::string* reason) {
  *header = ImageHeader{};
  if (bytes.empty()) return Fail(DecodeStatus::kEmpty, "empty file", reason);
  if (StartsWith(bytes, "\xFF\xD8\xFF")) return ReadJpegHeader(bytes, header, reason);
  if (StartsWith(bytes, "\x89PNG\r\n\x1A\n")) return ReadPngHeader(bytes, header, reason);
  if (bytes.size() >= 12 && StartsWith(bytes, "RIFF") && bytes.substr(8, 4) == "WEBP") {
    return ReadWebpHeader(bytes, header, reason);
  }
  if (LooksLikeHtml(bytes)) return Fail(DecodeStatus::kHtml, "HTML error page", reason);
  if (const char* other = OtherImageFormat(bytes)) {
    return Fail(DecodeStatus::kUnsupported,
                std::string("unsupported format: ") + other + " (JPEG, PNG and WebP are decoded)", reason);
  }
  return Fail(DecodeStatus::kNotAnImage, "not an image", reason);
}

DecodedImage DecodeImage(std::string_view bytes, const DecodeOptions& options) {
  DecodedImage result;
  ImageHeader header;
  result.status = ReadImageHeader(bytes, &header, &result.reason);
  result.format = header.format;
  if (result.status != DecodeStatus::kOk) return result;
  result.kind = ImageKind(bytes);
  const int64_t pixels = static_cast<int64_t>(header.width) * header.height;
  if (pixels > options.max_pixels) {
    result.status = DecodeStatus::kTooLarge;
    result.reason = "too large: " + std::to_string(header.width) + "x" + std::to_string(header.height) + " > " +
                    std::to_string(options.max_pixels) + " pixels";
    return result;
  }
  try {
    cv::Mat bgr;
    bool upright = false;  // orientation already applied (OpenCV does it for the files it decodes)
    JpegResult jpeg = JpegResult::kNotHandled;
    if (header.format == "jpeg") {
      std::string message;
      jpeg = DecodeJpegBgr(bytes, &bgr, &message, &result.warning);
      if (jpeg == JpegResult::kError) {
        result.status = DecodeStatus::kCorrupt;
        result.reason = "corrupt (jpeg: " + message + ")";
        return result;
      }
    }
    if (jpeg == JpegResult::kOk) {
      ApplyExifOrientation(JpegExifOrientation(bytes), &bgr);
      upright = true;
    } else {
      // imdecode does not modify its input; the const_cast only satisfies cv::Mat's constructor.
      const cv::Mat raw(1, static_cast<int>(bytes.size()), CV_8UC1, const_cast<char*>(bytes.data()));
      bgr = cv::imdecode(raw, cv::IMREAD_COLOR);  // applies EXIF orientation to JPEG and PNG; gray/CMYK -> BGR
      upright = header.format != "webp";
    }
    if (bgr.empty() || bgr.type() != CV_8UC3) {
      result.status = DecodeStatus::kCorrupt;
      result.reason = "corrupt (" + header.format + " decoder failed)";
      return result;
    }
    // OpenCV 4.6 ignores WebP's EXIF chunk.
    if (!upright) ApplyExifOrientation(ContainerExifOrientation(bytes), &bgr);
    if (options.to_rgb) {
      cv::cvtColor(bgr, result.image, cv::COLOR_BGR2RGB);
    } else {
      result.image = std::move(bgr);
    }
  } catch (const cv::Exception& e) {
    result.status = DecodeStatus::kCorrupt;
    result.reason = "corrupt (" + header.format + ": " + e.err + ")";
    result.image.release();
    return result;
  }
  result.width = result.image.cols;
  result.height = result.image.rows;
  return result;
}

DecodedImage DecodeImageFile(const std::filesystem::path& file, const DecodeOptions& options) {
  DecodedImage result;
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (!std::filesystem::exists(status)) {
    result.status = DecodeStatus::kMissing;
    result.reason = "missing file";
    return result;
  }
  if (!std::filesystem::is_regular_file(status)) {
    result.status = DecodeStatus::kUnreadable;
    result.reason = "not a regular file";
    return result;
  }
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) {
    result.status = DecodeStatus::kUnreadable;
    result.reason = "cannot read: " + ec.message();
    return result;
  }
  if (static_cast<int64_t>(size) > options.max_file_bytes) {
    result.status = DecodeStatus::kUnreadable;
    result.reason = "file too large: " + std::to_string(size) + " bytes > " + std::to_string(options.max_file_bytes);
    return result;
  }
  std::string bytes(size, '\0');
  std::ifstream in(file, std::ios::binary);
  if (!in || !in.read(bytes.data(), static_cast<std::streamsize>(size))) {
    result.status = DecodeStatus::kUnreadable;
    result.reason = "cannot read the file";
    return result;
  }
  return DecodeImage(bytes, options);
}

}  // namespace evalsuite::datasets
