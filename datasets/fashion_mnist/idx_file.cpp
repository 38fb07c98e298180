#include "datasets/fashion_mnist/idx_file.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <memory>

#include "common/error.h"

namespace evalsuite::datasets {
namespace {

constexpr uint8_t kUnsignedByteType = 0x08;
// Larger than any real IDX byte file (Fashion-MNIST's train images are 47 MB); guards the allocation when a
// corrupt header declares absurd counts.
constexpr uint64_t kMaxDataBytes = uint64_t{1} << 32;

struct GzCloser {
  void operator()(gzFile_s* file) const { gzclose(file); }
};
using GzHandle = std::unique_ptr<gzFile_s, GzCloser>;

// Reads up to `size` bytes; returns how many were read (fewer only at end of file). Throws on a zlib error
// (a corrupt gzip stream).
size_t ReadUpTo(gzFile file, uint8_t* buffer, size_t size, const std::string& name) {
  size_t total = 0;
  while (total < size) {
    const unsigned chunk = static_cast<unsigned>(std::min<size_t>(size - total, 1u << 30));
    const int n = gzread(file, buffer + total, chunk);
    if (n < 0) {
      int code = 0;
      const char* message = gzerror(file, &code);
      throw InputError(name, std::string("corrupt compressed data (zlib: ") + (message ? message : "?") + ")");
    }
    if (n == 0) break;
    total += static_cast<size_t>(n);
  }
  return total;
}

uint32_t BigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

}  // namespace

IdxArray ReadIdxFile(const std::filesystem::path& file, int expected_rank) {
  const std::string name = file.string();
  if (!std::filesystem::is_regular_file(file)) throw IoError(name, "no such file");
  GzHandle handle(gzopen(name.c_str(), "rb"));
  if (!handle) throw IoError(name, "cannot open for reading");
  gzbuffer(handle.get(), 1 << 17);

  uint8_t magic[4];
  const size_t magic_read = ReadUpTo(handle.get(), magic, 4, name);
  if (magic_read < 4) throw InputError(name, "truncated: the file ends inside the 4-byte IDX magic number");
  if (magic[0] != 0 || magic[1] != 0) {
    throw InputError(name, "not an IDX file: bad magic number (the first two bytes must be zero)");
  }
  if (magic[2] != kUnsignedByteType) {
    throw InputError(name,
                     fmt::format("unsupported IDX element type 0x{:02x} (expected 0x08, unsigned byte)", magic[2]));
  }
  const int rank = magic[3];
  if (rank != expected_rank) {
    throw InputError(name, "bad magic number: IDX rank " + std::to_string(rank) + ", expected " +
                               std::to_string(expected_rank) + (expected_rank == 3 ? " (images)" : " (labels)"));
  }

  IdxArray array;
  std::vector<uint8_t> header(4 * static_cast<size_t>(rank));
  if (ReadUpTo(handle.get(), header.data(), header.size(), name) < header.size()) {
    throw InputError(name, "truncated: the file ends inside the IDX header");
  }
  uint64_t total = 1;
  for (int i = 0; i < rank; ++i) {
    const uint32_t dim = BigEndian32(&header[4 * static_cast<size_t>(i)]);
    if (dim == 0) throw InputError(name, "dimension " + std::to_string(i) + " is zero");
    array.dims.push_back(dim);
    total *= dim;
    if (total > kMaxDataBytes) {
      throw InputError(name, "implausible IDX header: the dimensions declare more than 4 GiB of data");
    }
  }

  // What the header declares is checked against what the file holds before anything that size is allocated: a
  // 16-byte file declaring 4 GiB must fail at once, not after holding 4 GiB (or being OOM-killed under a limit).
  const uint64_t header_bytes = 4 + 4 * static_cast<uint64_t>(rank);
  if (gzdirect(handle.get())) {
    std::error_code ec;
    const uint64_t file_bytes = std::filesystem::file_size(file, ec);
    if (!ec && file_bytes < header_bytes + total) {
      const uint64_t have = file_bytes - std::min(file_bytes, header_bytes);
      throw InputError(name, "truncated: the header declares " + std::to_string(array.dims[0]) + " items (" +
                                 std::to_string(total) + " bytes) but the file holds " + std::to_string(have) +
                                 " bytes of data (" + std::to_string(have / (total / array.dims[0])) +
                                 " complete items)");
    }
  }
  // Compressed: the data grows with what decompresses, a chunk at a time, never beyond what is really there.
  array.data.reserve(static_cast<size_t>(std::min<uint64_t>(total, uint64_t{64} << 20)));
  std::vector<uint8_t> chunk(1 << 20);
  while (array.data.size() < total) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(chunk.size(), total - array.data.size()));
    const size_t n = ReadUpTo(handle.get(), chunk.data(), want, name);
    if (n == 0) break;
    array.data.insert(array.data.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(n));
  }
  const size_t got = array.data.size();
  if (got < total) {
    const uint64_t item_bytes = total / array.dims[0];
    throw InputError(name, "truncated: the header declares " + std::to_string(array.dims[0]) + " items (" +
                               std::to_string(total) + " bytes) but the data ends after " + std::to_string(got) +
                               " bytes (" + std::to_string(got / item_bytes) + " complete items)");
  }
  uint8_t extra;
  if (ReadUpTo(handle.get(), &extra, 1, name) != 0) {
    throw InputError(name, "trailing bytes after the " + std::to_string(array.dims[0]) +
                               " items the header declares (corrupt or mismatched header)");
  }
  return array;
}

std::string EncodeIdx(const IdxArray& array) {
  std::string out;
  out.push_back(0);
  out.push_back(0);
  out.push_back(static_cast<char>(kUnsignedByteType));
  out.push_back(static_cast<char>(array.dims.size()));
  for (uint32_t dim : array.dims) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((dim >> shift) & 0xff));
  }
  out.append(reinterpret_cast<const char*>(array.data.data()), array.data.size());
  return out;
}

}  // namespace evalsuite::datasets
