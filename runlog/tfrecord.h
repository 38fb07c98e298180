// TFRecord framing, as TensorFlow's record_writer.cc writes it and TensorBoard's event files use it: each record is
//   uint64 length (little-endian) | uint32 masked CRC-32C of those 8 bytes | length bytes of data |
//   uint32 masked CRC-32C of the data
// where masked(crc) = ((crc >> 15) | (crc << 17)) + 0xa282ead8 (crc32c.h's Mask). A file cut while a record was being
// written (a killed run) keeps every complete record before the cut; a record whose checksum is wrong is corrupt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace evalsuite::runlog {

// CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), and the mask TFRecord stores.
uint32_t Crc32c(std::string_view data);
uint32_t MaskedCrc32c(std::string_view data);

struct TfRecord {
  std::string_view data;   // a view into the buffer passed to SplitTfRecords
  std::size_t offset = 0;  // the byte where the record's header starts
};

struct TfRecordSplit {
  std::vector<TfRecord> records;  // the complete, checked records in file order
  // Set when the data ends inside a record: "record 12 at byte 3456 is cut short: the file ends after 20 of its 37
  // bytes". Empty when the file ends on a record boundary.
  std::string truncated;
};

// Splits `bytes` into records. Throws InputError(where, ...) naming the record (1-based) and byte offset when a
// length or data checksum is wrong.
TfRecordSplit SplitTfRecords(std::string_view bytes, const std::string& where);

}  // namespace evalsuite::runlog
