#include "runlog/tfrecord.h"

#include <fmt/format.h>

#include <array>

#include "common/error.h"

namespace evalsuite::runlog {

namespace tfrecord_detail {

constexpr uint32_t kCastagnoliReflected = 0x82f63b78u;
constexpr uint32_t kMaskDelta = 0xa282ead8u;

std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int k = 0; k < 8; ++k) crc = (crc & 1) ? (crc >> 1) ^ kCastagnoliReflected : crc >> 1;
    table[i] = crc;
  }
  return table;
}

uint32_t LoadLe32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

uint64_t LoadLe64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

}  // namespace tfrecord_detail

uint32_t Crc32c(std::string_view data) {
  static const std::array<uint32_t, 256> table = tfrecord_detail::MakeTable();
  uint32_t crc = 0xffffffffu;
  for (const char c : data) crc = table[(crc ^ static_cast<unsigned char>(c)) & 0xffu] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

uint32_t MaskedCrc32c(std::string_view data) {
  const uint32_t crc = Crc32c(data);
  return ((crc >> 15) | (crc << 17)) + tfrecord_detail::kMaskDelta;
}

TfRecordSplit SplitTfRecords(std::string_view bytes, const std::string& where) {
  TfRecordSplit split;
  std::size_t pos = 0;
  for (std::size_t index = 1; pos < bytes.size(); ++index) {
    const std::size_t left = bytes.size() - pos;
    if (left < 12) {
      split.truncated = fmt::format(
          "record {} at byte {} is cut short: the file ends within its 12-byte header "
          "({} bytes there)",
          index, pos, left);
      break;
    }
    const uint64_t length = tfrecord_detail::LoadLe64(bytes.data() + pos);
    if (tfrecord_detail::LoadLe32(bytes.data() + pos + 8) != MaskedCrc32c(bytes.substr(pos, 8))) {
      throw InputError(where, fmt::format("record {} at byte {}: the length's checksum is wrong (not a TFRecord "
                                          "event file, or corrupt)",
                                          index, pos));
    }
    if (length > left - 12 || left - 12 - length < 4) {
      split.truncated = fmt::format("record {} at byte {} is cut short: the file ends after {} of its {} bytes", index,
                                    pos, left, length + 16);
      break;
    }
    const std::string_view data = bytes.substr(pos + 12, static_cast<std::size_t>(length));
    if (tfrecord_detail::LoadLe32(bytes.data() + pos + 12 + length) != MaskedCrc32c(data)) {
      throw InputError(where, fmt::format("record {} at byte {}: the data's checksum is wrong (corrupt)", index, pos));
    }
    split.records.push_back({data, pos});
    pos += 16 + static_cast<std::size_t>(length);
  }
  return split;
}

}  // namespace evalsuite::runlog
