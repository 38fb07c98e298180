// A reader of the protocol buffers wire format (protobuf.dev/programming-guides/encoding): a message is a sequence of
// fields, each a varint key (field number << 3 | wire type) and a value: 0 varint, 1 fixed 64 bits, 2 length-
// delimited bytes (strings, messages, packed repeated numbers), 5 fixed 32 bits; 3 and 4 (groups) are refused.
// Enough to read TensorBoard's Event and Summary messages without generated code.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace evalsuite::runlog {

struct WireField {
  uint32_t number = 0;
  int wire_type = 0;
  uint64_t varint = 0;      // wire type 0
  uint64_t fixed = 0;       // wire types 1 and 5 (the raw little-endian bits)
  std::string_view bytes;   // wire type 2
  double AsDouble() const;  // fixed 64 bits as an IEEE double
  float AsFloat() const;    // fixed 32 bits as an IEEE float
};

class WireReader {
 public:
  explicit WireReader(std::string_view message) : data_(message) {}
  // The next field, or nullopt at the end. Sets error() (and returns nullopt) on a malformed field.
  std::optional<WireField> Next();
  const std::string& error() const { return error_; }
  bool ok() const { return error_.empty(); }

  // Reads one varint at the cursor of `data` (advancing it); nullopt when malformed or cut short.
  static std::optional<uint64_t> ReadVarint(std::string_view& data);

 private:
  std::string_view data_;
  std::size_t consumed_ = 0;
  std::string error_;
};

}  // namespace evalsuite::runlog
