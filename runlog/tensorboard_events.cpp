#include "runlog/tensorboard_events.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "common/error.h"
#include "common/json_guard.h"
#include "runlog/protobuf_wire.h"
#include "runlog/tfrecord.h"

namespace evalsuite::runlog {
namespace fs = std::filesystem;

namespace tensorboard_detail {

// tensorflow/core/framework/types.proto
enum DataType {
  kFloat = 1,
  kDouble = 2,
  kInt32 = 3,
  kUint8 = 4,
  kInt16 = 5,
  kInt8 = 6,
  kInt64 = 9,
  kBool = 10,
  kBfloat16 = 14,
  kHalf = 19
};

float HalfToFloat(uint16_t h) {
  const int sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float v;
  if (exponent == 0) {
    v = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    v = mantissa == 0 ? INFINITY : NAN;
  } else {
    v = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  return sign ? -v : v;
}

float Bfloat16ToFloat(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint64_t LittleEndian(std::string_view bytes, std::size_t n) {
  uint64_t v = 0;
  for (std::size_t i = n; i-- > 0;) v = (v << 8) | static_cast<unsigned char>(bytes[i]);
  return v;
}

// The first number of a packed field, or of a single unpacked one.
std::optional<double> FirstNumber(const WireField& f, bool is_double, bool is_float) {
  if (f.wire_type == 2) {
    std::string_view data = f.bytes;
    if (is_double) {
      if (data.size() < 8) return std::nullopt;
      WireField one;
      one.fixed = LittleEndian(data, 8);
      return one.AsDouble();
    }
    if (is_float) {
      if (data.size() < 4) return std::nullopt;
      WireField one;
      one.fixed = LittleEndian(data, 4);
      return one.AsFloat();
    }
    const std::optional<uint64_t> v = WireReader::ReadVarint(data);
    if (!v) return std::nullopt;
    return static_cast<double>(static_cast<int64_t>(*v));
  }
  if (f.wire_type == 1) return f.AsDouble();
  if (f.wire_type == 5) return f.AsFloat();
  if (f.wire_type == 0) return static_cast<double>(static_cast<int64_t>(f.varint));
  return std::nullopt;
}

std::optional<double> FromContent(int dtype, std::string_view content) {
  auto need = [&](std::size_t n) { return content.size() >= n; };
  switch (dtype) {
    case kFloat:
      if (!need(4)) return std::nullopt;
      {
        WireField f;
        f.fixed = LittleEndian(content, 4);
        return f.AsFloat();
      }
    case kDouble:
      if (!need(8)) return std::nullopt;
      {
        WireField f;
        f.fixed = LittleEndian(content, 8);
        return f.AsDouble();
      }
    case kInt32:
      if (!need(4)) return std::nullopt;
      return static_cast<double>(static_cast<int32_t>(LittleEndian(content, 4)));
    case kInt64:
      if (!need(8)) return std::nullopt;
      return static_cast<double>(static_cast<int64_t>(LittleEndian(content, 8)));
    case kInt16:
      if (!need(2)) return std::nullopt;
      return static_cast<double>(static_cast<int16_t>(LittleEndian(content, 2)));
    case kInt8:
      if (!need(1)) return std::nullopt;
      return static_cast<double>(static_cast<int8_t>(content[0]));
    case kUint8:
    case kBool:
      if (!need(1)) return std::nullopt;
      return static_cast<double>(static_cast<unsigned char>(content[0]));
    case kHalf:
      if (!need(2)) return std::nullopt;
      return HalfToFloat(static_cast<uint16_t>(LittleEndian(content, 2)));
    case kBfloat16:
      if (!need(2)) return std::nullopt;
      return Bfloat16ToFloat(static_cast<uint16_t>(LittleEndian(content, 2)));
    default:
      return std::nullopt;
  }
}

// A TensorProto's value when it holds exactly one number; nullopt otherwise (a histogram, a string, an image).
std::optional<double> ScalarOfTensor(std::string_view message, std::string& error) {
  WireReader reader(message);
  int dtype = 0;
  bool one_element = true;  // every dim of size 1 (a rank-0 shape has none)
  std::optional<double> value;
  std::string_view content;
  bool has_content = false;
  while (std::optional<WireField> f = reader.Next()) {
    switch (f->number) {
      case 1:
        dtype = static_cast<int>(f->varint);
        break;
      case 2: {  // TensorShapeProto: dim = 2 (Dim: size = 1), unknown_rank = 3
        WireReader shape(f->bytes);
        while (std::optional<WireField> d = shape.Next()) {
          if (d->number != 2 || d->wire_type != 2) continue;
          WireReader dim(d->bytes);
          int64_t size = 0;  // proto3: a dim without a size field has size 0
          while (std::optional<WireField> s = dim.Next()) {
            if (s->number == 1 && s->wire_type == 0) size = static_cast<int64_t>(s->varint);
          }
          one_element = one_element && size == 1;
        }
        break;
      }
      case 4:
        content = f->bytes;
        has_content = true;
        break;
      case 5:
        if (!value) value = FirstNumber(*f, false, true);
        break;
      case 6:
        if (!value) value = FirstNumber(*f, true, false);
        break;
      case 7:
      case 10:
        if (!value) value = FirstNumber(*f, false, false);
        break;
      case 13:  // half_val: the 16 bits of each half (or bfloat16) in an int32
        if (!value) {
          if (const std::optional<double> bits = FirstNumber(*f, false, false)) {
            const auto raw = static_cast<uint16_t>(static_cast<int64_t>(*bits));
            value = dtype == kBfloat16 ? Bfloat16ToFloat(raw) : HalfToFloat(raw);
          }
        }
        break;
      default:
        break;
    }
  }
  if (!reader.ok()) {
    error = "tensor: " + reader.error();
    return std::nullopt;
  }
  if (!one_element) return std::nullopt;
  if (!value && has_content) value = FromContent(dtype, content);
  return value;
}

struct ScalarValue {
  std::string tag;
  double value = 0;
};

// The scalars of a Summary; `plugins` carries each tag's plugin from its first value on.
std::vector<ScalarValue> ScalarsOfSummary(std::string_view summary, std::map<std::string, std::string>& plugins,
                                          std::string& error) {
  std::vector<ScalarValue> out;
  WireReader reader(summary);
  while (std::optional<WireField> v = reader.Next()) {
    if (v->number != 1 || v->wire_type != 2) continue;
    WireReader value(v->bytes);
    std::string tag;
    std::optional<double> simple;
    std::optional<std::string_view> tensor;
    std::optional<std::string> plugin;
    while (std::optional<WireField> f = value.Next()) {
      if (f->number == 1 && f->wire_type == 2) {
        tag = ToValidUtf8(f->bytes);  // tags end up in JSON: a stray byte must not stop the import
      } else if (f->number == 2 && f->wire_type == 5) {
        simple = f->AsFloat();
      } else if (f->number == 8 && f->wire_type == 2) {
        tensor = f->bytes;
      } else if (f->number == 9 && f->wire_type == 2) {  // SummaryMetadata.plugin_data (1).plugin_name (1)
        WireReader metadata(f->bytes);
        while (std::optional<WireField> m = metadata.Next()) {
          if (m->number != 1 || m->wire_type != 2) continue;
          WireReader plugin_data(m->bytes);
          while (std::optional<WireField> p = plugin_data.Next()) {
            if (p->number == 1 && p->wire_type == 2) plugin = ToValidUtf8(p->bytes);
          }
        }
      }
    }
    if (!value.ok()) {
      error = "summary value: " + value.error();
      return out;
    }
    if (plugin && !plugins.count(tag)) plugins[tag] = *plugin;
    if (simple) {
      out.push_back({tag, *simple});
    } else if (tensor) {
      const auto known = plugins.find(tag);
      if (known != plugins.end() && known->second != "scalars") continue;
      if (const std::optional<double> x = ScalarOfTensor(*tensor, error)) out.push_back({tag, *x});
      if (!error.empty()) return out;
    }
  }
  if (!reader.ok()) error = "summary: " + reader.error();
  return out;
}

}  // namespace tensorboard_detail

bool IsTensorboardEventFileName(const std::string& name) { return name.find("tfevents") != std::string::npos; }

FrameworkRun ReadTensorboardEvents(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot open the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  const TfRecordSplit split = SplitTfRecords(bytes, file.string());

  FrameworkRun run;
  run.format = "tensorboard";
  run.source = file;
  run.label = file.string();
  run.basis = TimeBasis::kSeconds;
  run.basis_rule = "seconds from the file's first event's wall_time to each event's wall_time";
  if (!split.truncated.empty()) {
    run.warnings.push_back(fmt::format("{}: {}; the {} complete record(s) before it are kept", file.string(),
                                       split.truncated, split.records.size()));
  }
  std::map<std::string, std::string> plugins;
  std::optional<double> start;
  double last = 0;
  for (std::size_t i = 0; i < split.records.size(); ++i) {
    const TfRecord& record = split.records[i];
    const std::string where = fmt::format("{}: record {} at byte {}", file.string(), i + 1, record.offset);
    WireReader event(record.data);
    double wall_time = 0;
    int64_t step = 0;
    std::optional<std::string_view> summary;
    while (std::optional<WireField> f = event.Next()) {
      if (f->number == 1 && f->wire_type == 1) {
        wall_time = f->AsDouble();
      } else if (f->number == 2 && f->wire_type == 0) {
        step = static_cast<int64_t>(f->varint);
      } else if (f->number == 3 && f->wire_type == 2) {
        run.facts["file_version"] = ToValidUtf8(f->bytes);
      } else if (f->number == 5 && f->wire_type == 2) {
        summary = f->bytes;
      }
    }
    if (!event.ok()) throw InputError(where, "not a TensorBoard Event message: " + event.error());
    if (!start) start = wall_time;
    last = std::max(last, wall_time - *start);
    if (!summary) continue;
    std::string error;
    const std::vector<tensorboard_detail::ScalarValue> scalars =
        tensorboard_detail::ScalarsOfSummary(*summary, plugins, error);
    if (!error.empty()) throw InputError(where, "not a TensorBoard Summary message: " + error);
    for (const auto& s : scalars) {
      run.series[s.tag].push_back({wall_time - *start, static_cast<double>(step), s.value, static_cast<long>(i + 1)});
    }
  }
  run.progress_spent = last;
  if (start) run.facts["start_wall_time"] = *start;  // lets the importer put a run folder's files on one clock
  if (!split.records.empty() && !run.facts.contains("file_version")) {
    run.warnings.push_back(file.string() + ": no file_version event; times count from the first event instead");
  }
  return run;
}

}  // namespace evalsuite::runlog
