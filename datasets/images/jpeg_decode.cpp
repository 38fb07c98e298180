#include "datasets/images/jpeg_decode.h"

// clang-format off
#include <cstdio>  // jpeglib.h needs FILE and size_t first
#include <csetjmp>
#include <jpeglib.h>
// clang-format on

#include "datasets/images/exif_orientation.h"

namespace evalsuite::datasets {
namespace {

// libjpeg reports fatal errors through error_exit, which must not return: it jumps back to the setjmp of the
// phase running. Only plain C data lives in the frames it jumps over.
struct ErrorManager {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  char first_warning[JMSG_LENGTH_MAX];
  int warnings;
};

void OnError(j_common_ptr cinfo) {
  auto* e = reinterpret_cast<ErrorManager*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, e->message);
  std::longjmp(e->jump, 1);
}

// Level -1 is a warning (corrupt data libjpeg works around); higher levels are trace messages.
void OnMessage(j_common_ptr cinfo, int level) {
  if (level >= 0) return;
  auto* e = reinterpret_cast<ErrorManager*>(cinfo->err);
  if (e->warnings++ == 0) (*cinfo->err->format_message)(cinfo, e->first_warning);
}

// Phase 1: header. Returns false on a fatal error.
bool ReadHeader(jpeg_decompress_struct* cinfo, ErrorManager* err, const unsigned char* data, unsigned long size) {
  if (setjmp(err->jump)) return false;
  jpeg_mem_src(cinfo, data, size);
  jpeg_read_header(cinfo, TRUE);
  return true;
}

bool Start(jpeg_decompress_struct* cinfo, ErrorManager* err) {
  if (setjmp(err->jump)) return false;
  cinfo->out_color_space = JCS_EXT_BGR;  // as OpenCV asks libjpeg-turbo; grayscale is replicated
  jpeg_start_decompress(cinfo);
  return true;
}

// Phase 2: pixels, row by row into `out` (output_height rows of `stride` bytes).
bool ReadPixels(jpeg_decompress_struct* cinfo, ErrorManager* err, unsigned char* out, size_t stride) {
  if (setjmp(err->jump)) return false;
  while (cinfo->output_scanline < cinfo->output_height) {
    JSAMPROW row = out + static_cast<size_t>(cinfo->output_scanline) * stride;
    jpeg_read_scanlines(cinfo, &row, 1);
  }
  jpeg_finish_decompress(cinfo);
  return true;
}

}  // namespace

JpegResult DecodeJpegBgr(std::string_view bytes, cv::Mat* bgr, std::string* message, std::string* warning) {
  jpeg_decompress_struct cinfo;
  ErrorManager err;
  cinfo.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = OnError;
  err.pub.emit_message = OnMessage;
  err.message[0] = err.first_warning[0] = '\0';
  err.warnings = 0;
  jpeg_create_decompress(&cinfo);
  JpegResult result = JpegResult::kOk;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (!ReadHeader(&cinfo, &err, data, static_cast<unsigned long>(bytes.size()))) {
    result = JpegResult::kError;
  } else if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
    result = JpegResult::kNotHandled;
  } else if (!Start(&cinfo, &err)) {
    result = JpegResult::kError;
  } else {
    bgr->create(static_cast<int>(cinfo.output_height), static_cast<int>(cinfo.output_width), CV_8UC3);
    if (!ReadPixels(&cinfo, &err, bgr->data, bgr->step[0])) result = JpegResult::kError;
  }
  jpeg_destroy_decompress(&cinfo);
  if (result == JpegResult::kError) {
    *message = err.message;
    bgr->release();
  }
  warning->clear();
  if (err.warnings > 0) {
    *warning = std::string("libjpeg: ") + err.first_warning;
    if (err.warnings > 1) *warning += " (and " + std::to_string(err.warnings - 1) + " more warnings)";
  }
  return result;
}

int JpegExifOrientation(std::string_view b) {
  size_t pos = 2;
  while (pos + 4 <= b.size() && static_cast<uint8_t>(b[pos]) == 0xFF) {
    const uint8_t marker = static_cast<uint8_t>(b[pos + 1]);
    if (marker == 0xFF) {  // fill byte
      ++pos;
      continue;
    }
    if (marker == 0xDA || marker == 0xD9) break;  // the scan: no APP segment after it counts
    const size_t length =
        (static_cast<size_t>(static_cast<uint8_t>(b[pos + 2])) << 8) | static_cast<uint8_t>(b[pos + 3]);
    if (length < 2 || pos + 2 + length > b.size()) break;
    const std::string_view payload = b.substr(pos + 4, length - 2);
    if (marker == 0xE1 && payload.substr(0, 6) == std::string_view("Exif\0\0", 6)) return OrientationFromExif(payload);
    pos += 2 + length;
  }
  return 1;
}

}  // namespace evalsuite::datasets
