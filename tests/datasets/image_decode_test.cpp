// Decoding edge cases, on files made here: EXIF orientation 6 written byte by byte, grayscale and 16-bit PNG,
// a CMYK JPEG (bytes below, made with PIL), truncated files, an HTML error page, huge declared dimensions.
#include "datasets/images/image_decode.h"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace evalsuite::datasets {
namespace {

// PIL: Image.new('RGB', (8, 8), (200, 40, 60)).convert('CMYK').save(f, 'JPEG', quality=95); Adobe APP14.
const unsigned char kCmykJpeg[] = {
    0xff, 0xd8, 0xff, 0xee, 0x00, 0x0e, 0x41, 0x64, 0x6f, 0x62, 0x65, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
    0xdb, 0x00, 0x43, 0x00, 0x02, 0x01, 0x01, 0x01, 0x01, 0x01, 0x02, 0x01, 0x01, 0x01, 0x02, 0x02, 0x02, 0x02, 0x02,
    0x04, 0x03, 0x02, 0x02, 0x02, 0x02, 0x05, 0x04, 0x04, 0x03, 0x04, 0x06, 0x05, 0x06, 0x06, 0x06, 0x05, 0x06, 0x06,
    0x06, 0x07, 0x09, 0x08, 0x06, 0x07, 0x09, 0x07, 0x06, 0x06, 0x08, 0x0b, 0x08, 0x09, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a,
    0x06, 0x08, 0x0b, 0x0c, 0x0b, 0x0a, 0x0c, 0x09, 0x0a, 0x0a, 0x0a, 0xff, 0xc0, 0x00, 0x14, 0x08, 0x00, 0x08, 0x00,
    0x08, 0x04, 0x43, 0x11, 0x00, 0x4d, 0x11, 0x00, 0x59, 0x11, 0x00, 0x4b, 0x11, 0x00, 0xff, 0xc4, 0x00, 0x1f, 0x00,
    0x00, 0x01, 0x05, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02,
    0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0xff, 0xc4, 0x00, 0xb5, 0x10, 0x00, 0x02, 0x01, 0x03, 0x03,
    0x02, 0x04, 0x03, 0x05, 0x05, 0x04, 0x04, 0x00, 0x00, 0x01, 0x7d, 0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12,
    0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1,
    0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26,
    0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a,
    0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75,
    0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
    0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8,
    0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9,
    0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
    0xf9, 0xfa, 0xff, 0xda, 0x00, 0x0e, 0x04, 0x43, 0x00, 0x4d, 0x00, 0x59, 0x00, 0x4b, 0x00, 0x00, 0x3f, 0x00, 0xfd,
    0x20, 0xaf, 0xc9, 0xfa, 0xfc, 0xef, 0xaf, 0xdf, 0xca, 0xff, 0xd9};

std::string Encode(const cv::Mat& image, const std::string& ext, std::vector<int> params = {}) {
  std::vector<uchar> buffer;
  EXPECT_TRUE(cv::imencode(ext, image, buffer, params));
  return std::string(buffer.begin(), buffer.end());
}

// A BGR image: left half red, right half blue.
cv::Mat RedBlue(int width, int height) {
  cv::Mat image(height, width, CV_8UC3, cv::Scalar(0, 0, 255));
  image(cv::Rect(width / 2, 0, width - width / 2, height)).setTo(cv::Scalar(255, 0, 0));
  return image;
}

// APP1 "Exif" segment with a big-endian TIFF header and one IFD entry: Orientation (0x0112), SHORT, 1 value.
std::string ExifOrientationSegment(int orientation) {
  std::string tiff = std::string("MM\0*", 4) + std::string("\0\0\0\x08", 4);               // header, IFD at offset 8
  tiff += std::string("\0\x01", 2);                                                        // 1 entry
  tiff += std::string("\x01\x12\0\x03\0\0\0\x01", 8);                                      // tag, type SHORT, count 1
  tiff += std::string("\0", 1) + static_cast<char>(orientation) + std::string("\0\0", 2);  // value, padded
  tiff += std::string("\0\0\0\0", 4);                                                      // no next IFD
  const std::string payload = std::string("Exif\0\0", 6) + tiff;
  const size_t length = payload.size() + 2;
  return std::string("\xFF\xE1", 2) + static_cast<char>(length >> 8) + static_cast<char>(length & 0xFF) + payload;
}

TEST(ImageDecode, JpegComesOutRgb) {
  const DecodedImage decoded = DecodeImage(Encode(RedBlue(40, 20), ".jpg", {cv::IMWRITE_JPEG_QUALITY, 95}));
  ASSERT_TRUE(decoded.ok()) << decoded.reason;
  EXPECT_EQ(decoded.format, "jpeg");
  EXPECT_EQ(decoded.width, 40);
  EXPECT_EQ(decoded.height, 20);
  ASSERT_EQ(decoded.image.type(), CV_8UC3);
  const cv::Vec3b left = decoded.image.at<cv::Vec3b>(10, 5);
  EXPECT_GT(left[0], 200);  // R first
  EXPECT_LT(left[2], 50);
  const cv::Vec3b right = decoded.image.at<cv::Vec3b>(10, 35);
  EXPECT_GT(right[2], 200);  // B last
}

TEST(ImageDecode, KeepsBgrWhenAsked) {
  DecodeOptions options;
  options.to_rgb = false;
  const DecodedImage decoded = DecodeImage(Encode(RedBlue(40, 20), ".png"), options);
  ASSERT_TRUE(decoded.ok()) << decoded.reason;
  EXPECT_EQ(decoded.image.at<cv::Vec3b>(10, 5), cv::Vec3b(0, 0, 255));
}

TEST(ImageDecode, AppliesExifOrientation6) {
  const std::string jpeg = Encode(RedBlue(40, 20), ".jpg", {cv::IMWRITE_JPEG_QUALITY, 95});
  const std::string with_exif = jpeg.substr(0, 2) + ExifOrientationSegment(6) + jpeg.substr(2);
  const DecodedImage decoded = DecodeImage(with_exif);
  ASSERT_TRUE(decoded.ok()) << decoded.reason;
  // Orientation 6: the stored image is displayed rotated 90 degrees clockwise, so the stored left (red)
  // half becomes the top half and the result is portrait.
  EXPECT_EQ(decoded.width, 20);
  EXPECT_EQ(decoded.height, 40);
  const cv::Vec3b top = decoded.image.at<cv::Vec3b>(5, 10);
  const cv::Vec3b bottom = decoded.image.at<cv::Vec3b>(35, 10);
  EXPECT_GT(top[0], 200) << "top should be red (RGB)";
  EXPECT_GT(bottom[2], 200) << "bottom should be blue (RGB)";
  // Orientation 1 leaves it alone.
  const DecodedImage upright = DecodeImage(jpeg.substr(0, 2) + ExifOrientationSegment(1) + jpeg.substr(2));
  ASSERT_TRUE(upright.ok());
  EXPECT_EQ(upright.width, 40);
}

std::string Le32Bytes(uint32_t v) {
  return {static_cast<char>(v & 0xFF), static_cast<char>((v >> 8) & 0xFF), static_cast<char>((v >> 16) & 0xFF),
          static_cast<char>(v >> 24)};
}

// An extended WebP (VP8X) holding OpenCV's lossless image and an EXIF chunk with this orientation, as cameras
// and PIL write them.
std::string WebpWithOrientation(const cv::Mat& bgr, int orientation) {
  const std::string simple = Encode(bgr, ".webp", {cv::IMWRITE_WEBP_QUALITY, 101});
  const std::string image_chunk = simple.substr(12);  // "VP8L" + size + data
  const std::string tiff = ExifOrientationSegment(orientation).substr(4 + 6);
  std::string vp8x = "VP8X" + Le32Bytes(10) + std::string("\x08\0\0\0", 4);  // flags: EXIF present
  for (int v : {bgr.cols - 1, bgr.rows - 1}) vp8x += Le32Bytes(static_cast<uint32_t>(v)).substr(0, 3);
  std::string exif = "EXIF" + Le32Bytes(static_cast<uint32_t>(tiff.size())) + tiff;
  if (tiff.size() % 2 == 1) exif += '\0';
  const std::string body = "WEBP" + vp8x + image_chunk + exif;
  return "RIFF" + Le32Bytes(static_cast<uint32_t>(body.size())) + body;
}

// Where the stored top-left corner ends up once displayed, for each EXIF orientation (the EXIF definition);
// JPEG, which OpenCV turns upright itself, must agree.
TEST(ImageDecode, WebpAndJpegApplyEveryExifOrientationAlike) {
  cv::Mat bgr(20, 40, CV_8UC3, cv::Scalar(0, 0, 0));
  bgr(cv::Rect(0, 0, 6, 6)).setTo(cv::Scalar(0, 0, 255));  // red block at the stored top-left
  struct Case {
    int orientation, width, height;
    bool right, bottom;
  };
  const Case cases[] = {{1, 40, 20, false, false}, {2, 40, 20, true, false},  {3, 40, 20, true, true},
                        {4, 40, 20, false, true},  {5, 20, 40, false, false}, {6, 20, 40, true, false},
                        {7, 20, 40, true, true},   {8, 20, 40, false, true}};
  const std::string jpeg = Encode(bgr, ".jpg", {cv::IMWRITE_JPEG_QUALITY, 95});
  for (const Case& c : cases) {
    for (const std::string& bytes : {WebpWithOrientation(bgr, c.orientation),
                                     jpeg.substr(0, 2) + ExifOrientationSegment(c.orientation) + jpeg.substr(2)}) {
      const DecodedImage decoded = DecodeImage(bytes);
      ASSERT_TRUE(decoded.ok()) << decoded.reason;
      SCOPED_TRACE(decoded.format + " orientation " + std::to_string(c.orientation));
      EXPECT_EQ(decoded.width, c.width);
      EXPECT_EQ(decoded.height, c.height);
      const int x = c.right ? c.width - 3 : 2, y = c.bottom ? c.height - 3 : 2;
      EXPECT_GT(decoded.image.at<cv::Vec3b>(y, x)[0], 200) << "the red block is not where EXIF puts it";
      EXPECT_EQ(decoded.kind, c.orientation == 1 ? (decoded.format == "webp" ? "webp-lossless" : "jpeg-baseline")
                                                 : (decoded.format == "webp" ? "webp-lossless" : "jpeg-baseline") +
                                                       std::string("-exif-") + std::to_string(c.orientation));
    }
  }
}

// A damaged but decodable JPEG: libjpeg's warning comes back with the image (for the caller to print with the
// file's name) instead of going to stderr without one.
TEST(ImageDecode, LibjpegWarningsAreReturnedNotPrinted) {
  const std::string jpeg = Encode(RedBlue(40, 20), ".jpg", {cv::IMWRITE_JPEG_QUALITY, 95});
  // The scan loses its last 40 bytes but the end-of-image marker stays: libjpeg pads and warns.
  const std::string damaged = jpeg.substr(0, jpeg.size() - 42) + jpeg.substr(jpeg.size() - 2);
  ::testing::internal::CaptureStderr();
  const DecodedImage decoded = DecodeImage(damaged);
  const std::string printed = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(decoded.ok()) << decoded.reason;
  EXPECT_EQ(printed, "");
  EXPECT_EQ(decoded.warning.rfind("libjpeg: Corrupt JPEG data", 0), 0u) << decoded.warning;
  const DecodedImage clean = DecodeImage(jpeg);
  EXPECT_EQ(clean.warning, "");
  // The same pixels as OpenCV's own decoder.
  cv::Mat reference = cv::imdecode(cv::Mat(1, static_cast<int>(jpeg.size()), CV_8UC1, const_cast<char*>(jpeg.data())),
                                   cv::IMREAD_COLOR);
  cv::cvtColor(reference, reference, cv::COLOR_BGR2RGB);
  EXPECT_EQ(cv::norm(clean.image, reference, cv::NORM_INF), 0);
}

TEST(ImageDecode, GrayscalePngBecomesThreeEqualChannels) {
  cv::Mat gray(6, 9, CV_8UC1, cv::Scalar(77));
  gray.at<uchar>(2, 3) = 200;
  const DecodedImage decoded = DecodeImage(Encode(gray, ".png"));
  ASSERT_TRUE(decoded.ok()) << decoded.reason;
  ASSERT_EQ(decoded.image.type(), CV_8UC3);
  EXPECT_EQ(decoded.image.at<cv::Vec3b>(0, 0), cv::Vec3b(77, 77, 77));
  EXPECT_EQ(decoded.image.at<cv::Vec3b>(2, 3), cv::Vec3b(200, 200, 200));
}

TEST(ImageDecode, SixteenBitPngWithAlphaBecomes8BitRgb) {
  cv::Mat image(4, 4, CV_16UC4, cv::Scalar(0, 0, 65535, 1000));  // BGRA: opaque-ish red, 16 bit
  const DecodedImage decoded = DecodeImage(Encode(image, ".png"));
  ASSERT_TRUE(decoded.ok()) << decoded.reason;
  ASSERT_EQ(decoded.image.type(), CV_8UC3);
  EXPECT_EQ(decoded.image.at<cv::Vec3b>(1, 1)[0], 255);
}

TEST(ImageDecode, CmykJpegComesOutRgb) {
  const std::string bytes(reinterpret_cast<const char*>(kCmykJpeg), sizeof(kCmykJpeg));
  const DecodedImage decoded = DecodeImage(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.reason;
  EXPECT_EQ(decoded.width, 8);
  const cv::Vec3b pixel = decoded.image.at<cv::Vec3b>(4, 4);
  EXPECT_NEAR(pixel[0], 200, 8);  // PIL reads it back as (200, 40, 60)
  EXPECT_NEAR(pixel[1], 40, 8);
  EXPECT_NEAR(pixel[2], 60, 8);
}

TEST(ImageDecode, WebpLossyAndLossless) {
  const cv::Mat image = RedBlue(30, 16);
  for (int quality : {80, 101}) {  // 101 = lossless (VP8L)
    const std::string bytes = Encode(image, ".webp", {cv::IMWRITE_WEBP_QUALITY, quality});
    ImageHeader header;
    std::string reason;
    ASSERT_EQ(ReadImageHeader(bytes, &header, &reason), DecodeStatus::kOk) << reason;
    EXPECT_EQ(header.format, "webp");
    EXPECT_EQ(header.width, 30);
    EXPECT_EQ(header.height, 16);
    const DecodedImage decoded = DecodeImage(bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.reason;
    EXPECT_GT(decoded.image.at<cv::Vec3b>(8, 2)[0], 200);
  }
}

TEST(ImageDecode, TruncatedFilesAreTruncated) {
  const cv::Mat image = RedBlue(64, 48);
  for (const std::string ext : {".jpg", ".png", ".webp"}) {
    const std::string bytes = Encode(image, ext);
    const DecodedImage decoded = DecodeImage(bytes.substr(0, bytes.size() * 2 / 3));
    EXPECT_EQ(decoded.status, DecodeStatus::kTruncated) << ext << ": " << decoded.reason;
    EXPECT_NE(decoded.reason.find("truncated"), std::string::npos);
    EXPECT_TRUE(decoded.image.empty());
  }
  // Cut inside the header, too.
  EXPECT_EQ(DecodeImage(Encode(image, ".jpg").substr(0, 30)).status, DecodeStatus::kTruncated);
}

TEST(ImageDecode, ExifThumbnailEndMarkerDoesNotHideTruncation) {
  const std::string jpeg = Encode(RedBlue(64, 48), ".jpg");
  // An APP1 whose payload contains FF D9 (as an embedded thumbnail would), then the image cut short.
  std::string app = std::string("Exif\0\0", 6) + std::string("\xFF\xD8\xFF\xD9", 4);
  const size_t length = app.size() + 2;
  const std::string segment =
      std::string("\xFF\xE1", 2) + static_cast<char>(length >> 8) + static_cast<char>(length & 0xFF) + app;
  const std::string cut = jpeg.substr(0, 2) + segment + jpeg.substr(2, jpeg.size() / 2);
  EXPECT_EQ(DecodeImage(cut).status, DecodeStatus::kTruncated);
}

TEST(ImageDecode, HtmlErrorPageIsNamed) {
  const DecodedImage decoded =
      DecodeImage("\n  <!DOCTYPE html>\n<html><head><title>404 Not Found</title></head></html>");
  EXPECT_EQ(decoded.status, DecodeStatus::kHtml);
  EXPECT_EQ(decoded.reason, "HTML error page");
  EXPECT_EQ(DecodeImage("<HTML><BODY>This photo is no longer available</BODY></HTML>").status, DecodeStatus::kHtml);
}

TEST(ImageDecode, OtherBytesAreNotAnImage) {
  EXPECT_EQ(DecodeImage("").status, DecodeStatus::kEmpty);
  const DecodedImage text = DecodeImage("{\"stat\":\"fail\",\"code\":1}");
  EXPECT_EQ(text.status, DecodeStatus::kNotAnImage);
  EXPECT_EQ(text.reason, "not an image");
  EXPECT_EQ(DecodeImage(std::string("\x00\x01\x02\x03garbage", 11)).status, DecodeStatus::kNotAnImage);
  const DecodedImage gif = DecodeImage("GIF89a\x01\x00\x01\x00");
  EXPECT_EQ(gif.status, DecodeStatus::kUnsupported);
  EXPECT_NE(gif.reason.find("GIF"), std::string::npos);
}

TEST(ImageDecode, HugeDeclaredPngIsRefusedBeforeDecoding) {
  // A 70000 x 70000 PNG header with no pixel data: the limit must trip on the header alone.
  std::string png = std::string("\x89PNG\r\n\x1A\n", 8) + std::string("\0\0\0\x0D", 4) + "IHDR";
  png += std::string("\0\x01\x11\x70", 4) + std::string("\0\x01\x11\x70", 4);  // 70000, 70000
  png += std::string("\x08\x02\0\0\0", 5) + std::string("\0\0\0\0", 4);        // 8-bit RGB, CRC (unchecked)
  png += std::string("\0\0\0\0", 4) + "IEND" + std::string("\xAE\x42\x60\x82", 4);
  const DecodedImage decoded = DecodeImage(png);
  EXPECT_EQ(decoded.status, DecodeStatus::kTooLarge);
  EXPECT_EQ(decoded.reason, "too large: 70000x70000 > 50000000 pixels");
}

TEST(ImageDecode, HugeDeclaredJpegAndCustomLimit) {
  std::string jpeg = Encode(RedBlue(64, 48), ".jpg");
  // Patch the SOF0 frame header to declare 60000 x 50000.
  const size_t sof = jpeg.find(std::string("\xFF\xC0", 2));
  ASSERT_NE(sof, std::string::npos);
  jpeg[sof + 5] = static_cast<char>(50000 >> 8);
  jpeg[sof + 6] = static_cast<char>(50000 & 0xFF);
  jpeg[sof + 7] = static_cast<char>(60000 >> 8);
  jpeg[sof + 8] = static_cast<char>(60000 & 0xFF);
  const DecodedImage decoded = DecodeImage(jpeg);
  EXPECT_EQ(decoded.status, DecodeStatus::kTooLarge);
  EXPECT_EQ(decoded.reason, "too large: 60000x50000 > 50000000 pixels");
  DecodeOptions small;
  small.max_pixels = 64 * 47;
  EXPECT_EQ(DecodeImage(Encode(RedBlue(64, 48), ".png"), small).status, DecodeStatus::kTooLarge);
}

TEST(ImageDecode, CorruptPngPixelsAreCorrupt) {
  std::string png = Encode(RedBlue(64, 48), ".png");
  const size_t idat = png.find("IDAT");
  ASSERT_NE(idat, std::string::npos);
  for (size_t i = idat + 4; i < idat + 24 && i < png.size(); ++i) png[i] = static_cast<char>(0x5A);
  const DecodedImage decoded = DecodeImage(png);
  EXPECT_EQ(decoded.status, DecodeStatus::kCorrupt) << decoded.reason;
}

TEST(ImageDecode, Files) {
  testing::TempDir dir;
  EXPECT_EQ(DecodeImageFile(dir / "absent.jpg").status, DecodeStatus::kMissing);
  EXPECT_EQ(DecodeImageFile(dir.path()).status, DecodeStatus::kUnreadable);
  testing::WriteFile(dir / "photo.jpg", Encode(RedBlue(40, 20), ".jpg"));
  const DecodedImage decoded = DecodeImageFile(dir / "photo.jpg");
  ASSERT_TRUE(decoded.ok()) << decoded.reason;
  EXPECT_EQ(decoded.width, 40);
  DecodeOptions tiny;
  tiny.max_file_bytes = 10;
  EXPECT_EQ(DecodeImageFile(dir / "photo.jpg", tiny).status, DecodeStatus::kUnreadable);
  EXPECT_STREQ(DecodeStatusName(DecodeStatus::kTooLarge), "too-large");
}

}  // namespace
}  // namespace evalsuite::datasets
