// Magic prefixes and fixed-width big- and little-endian integers read out of an image file's bytes (the
// sniffers and header walkers of image_kind.cpp, image_decode.cpp, exif_orientation.cpp). Callers check bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace evalsuite::datasets {

inline bool StartsWith(std::string_view bytes, std::string_view prefix) {
  return bytes.size() >= prefix.size() && bytes.substr(0, prefix.size()) == prefix;
}
inline uint32_t Be16(std::string_view b, size_t at) {
  return (static_cast<uint32_t>(static_cast<uint8_t>(b[at])) << 8) | static_cast<uint8_t>(b[at + 1]);
}
inline uint32_t Be32(std::string_view b, size_t at) { return (Be16(b, at) << 16) | Be16(b, at + 2); }
inline uint32_t Le16(std::string_view b, size_t at) {
  return static_cast<uint8_t>(b[at]) | (static_cast<uint32_t>(static_cast<uint8_t>(b[at + 1])) << 8);
}
inline uint32_t Le24(std::string_view b, size_t at) {
  return Le16(b, at) | (static_cast<uint32_t>(static_cast<uint8_t>(b[at + 2])) << 16);
}
inline uint32_t Le32(std::string_view b, size_t at) { return Le16(b, at) | (Le16(b, at + 2) << 16); }

}  // namespace evalsuite::datasets
