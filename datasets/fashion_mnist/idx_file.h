// Reader of IDX files (the MNIST / Fashion-MNIST format: big-endian header, then raw unsigned bytes),
// gzip-compressed or plain. Validates the magic number, the dimensions and that the data matches the header;
// a wrong file throws evalsuite::Error naming the file and what is wrong. Plain bytes out: no LibTorch here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace evalsuite::datasets {

// One IDX array of unsigned bytes (type code 0x08): dims[0] items of dims[1] x dims[2] x ... bytes each.
struct IdxArray {
  std::vector<uint32_t> dims;
  std::vector<uint8_t> data;  // row-major, dims[0] * ... * dims[n-1] bytes
};

// Reads an IDX file of unsigned bytes with `expected_rank` dimensions (3 for images, 1 for labels). gzip
// and plain files are both accepted (zlib reads either). Throws IoError when the file can't be opened, and
// InputError (where = the file) for a bad magic number, a wrong rank or type, zero-sized dimensions, an
// implausible size, a truncated body or trailing bytes.
IdxArray ReadIdxFile(const std::filesystem::path& file, int expected_rank);

// The IDX encoding of `array` (header + data), uncompressed; used to write fixtures and subsets.
std::string EncodeIdx(const IdxArray& array);

}  // namespace evalsuite::datasets
