// TensorBoard event files (events.out.tfevents.*), decoded from their public definition: TFRecord framing
// (tfrecord.h) around tensorflow.Event messages (tensorflow/core/util/event.proto: wall_time = 1 double, step = 2
// int64, file_version = 3, summary = 5), a Summary holding repeated Value (tag = 1, simple_value = 2 float,
// tensor = 8 TensorProto, metadata = 9 with plugin_data.plugin_name). A scalar is either a simple_value (PyTorch's
// SummaryWriter.add_scalar, TF1's tf.summary.scalar) or a one-element numeric tensor of the "scalars" plugin (TF2's
// tf.summary.scalar and Keras' TensorBoard callback, SummaryWriter with new_style=True: float_val, double_val,
// int_val, int64_val, half_val or tensor_content); a tag's plugin is named once, in its first value. Histograms,
// images, text and other plugins are left out. The basis is seconds: each event's wall_time minus the file's first
// event's (the file_version event the writer stamps when it opens the file); a point's epoch is its step.
#pragma once

#include <filesystem>
#include <string>

#include "runlog/framework_log.h"

namespace evalsuite::runlog {

// Throws IoError (unreadable), or InputError naming the file, record and byte (a wrong checksum, an Event that is
// not a protobuf message). A file cut inside a record keeps its complete records and warns.
FrameworkRun ReadTensorboardEvents(const std::filesystem::path& file);

// True for TensorBoard's file names: "events.out.tfevents." followed by anything.
bool IsTensorboardEventFileName(const std::string& name);

}  // namespace evalsuite::runlog
