#include "runlog/protobuf_wire.h"

#include <fmt/format.h>

#include <cstring>

namespace evalsuite::runlog {

double WireField::AsDouble() const {
  double d;
  std::memcpy(&d, &fixed, sizeof d);
  return d;
}

float WireField::AsFloat() const {
  const uint32_t bits = static_cast<uint32_t>(fixed);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

std::optional<uint64_t> WireReader::ReadVarint(std::string_view& data) {
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (data.empty()) return std::nullopt;
    const auto byte = static_cast<unsigned char>(data.front());
    data.remove_prefix(1);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  return std::nullopt;  // more than 10 bytes
}

std::optional<WireField> WireReader::Next() {
  if (data_.empty() || !error_.empty()) return std::nullopt;
  const std::size_t start = consumed_;
  std::string_view cursor = data_;
  auto fail = [&](const std::string& why) -> std::optional<WireField> {
    error_ = fmt::format("byte {} of the message: {}", start, why);
    return std::nullopt;
  };
  const std::optional<uint64_t> key = ReadVarint(cursor);
  if (!key) return fail("a field key is cut short");
  WireField field;
  field.number = static_cast<uint32_t>(*key >> 3);
  field.wire_type = static_cast<int>(*key & 7);
  if (field.number == 0) return fail("field number 0");
  switch (field.wire_type) {
    case 0: {
      const std::optional<uint64_t> v = ReadVarint(cursor);
      if (!v) return fail(fmt::format("field {}'s varint is cut short", field.number));
      field.varint = *v;
      break;
    }
    case 1:
    case 5: {
      const std::size_t n = field.wire_type == 1 ? 8 : 4;
      if (cursor.size() < n) return fail(fmt::format("field {}'s fixed value is cut short", field.number));
      uint64_t v = 0;
      for (std::size_t i = n; i-- > 0;) v = (v << 8) | static_cast<unsigned char>(cursor[i]);
      field.fixed = v;
      cursor.remove_prefix(n);
      break;
    }
    case 2: {
      const std::optional<uint64_t> n = ReadVarint(cursor);
      if (!n || *n > cursor.size()) return fail(fmt::format("field {}'s length runs past the message", field.number));
      field.bytes = cursor.substr(0, static_cast<std::size_t>(*n));
      cursor.remove_prefix(static_cast<std::size_t>(*n));
      break;
    }
    default:
      return fail(fmt::format("field {} has wire type {} (not 0, 1, 2 or 5)", field.number, field.wire_type));
  }
  consumed_ += data_.size() - cursor.size();
  data_ = cursor;
  return field;
}

}  // namespace evalsuite::runlog
