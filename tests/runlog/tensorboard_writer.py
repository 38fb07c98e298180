#!/usr/bin/env python3
"""Writes TensorBoard event files by hand, independently of evalsuite's reader, for tensorboard_events_test.cpp.

Usage: tensorboard_writer.py OUT_DIR. Writes, from the public definitions (TFRecord framing with masked CRC-32C as
tensorflow/core/lib/io/record_writer.cc writes it; tensorflow.Event / Summary / TensorProto on the protobuf wire
format), and prints what each file holds as JSON: {file: {"records": n, "scalars": {tag: [[seconds, step, value]]}}}
where seconds = wall_time - the first event's wall_time. Files:
  pytorch/events.out.tfevents.1.host   SummaryWriter.add_scalar style: Summary.Value.simple_value
  tf2/events.out.tfevents.2.host       tf.summary.scalar style: a rank-0 float tensor (packed float_val) with the
                                       "scalars" plugin named on the first value only; a double in tensor_content; an
                                       int64_val; a histogram tensor and an image that are not scalars
  cut/events.out.tfevents.3.host       the pytorch file cut 7 bytes into its last record's data
  corrupt/events.out.tfevents.4.host   the pytorch file with one byte of record 3's data changed
  keras/run1/train/..., keras/run1/validation/...   TF Keras' callback layout (epoch_accuracy in both)
"""
import json
import os
import struct
import sys

# CRC-32C bit by bit (Castagnoli, reflected polynomial 0x82F63B78), no table: a second, independent form.
def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def masked(data):
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def record(data):
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked(header)) + data + struct.pack("<I", masked(data))


def varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint((field << 3) | wire)


def f_varint(field, n):
    return key(field, 0) + varint(n)


def f_bytes(field, data):
    if isinstance(data, str):
        data = data.encode()
    return key(field, 2) + varint(len(data)) + data


def f_double(field, x):
    return key(field, 1) + struct.pack("<d", x)


def f_float(field, x):
    return key(field, 5) + struct.pack("<f", x)


def event(wall_time, step=None, file_version=None, summary=None):
    out = f_double(1, wall_time)
    if step is not None:
        out += f_varint(2, step)
    if file_version is not None:
        out += f_bytes(3, file_version)
    if summary is not None:
        out += f_bytes(5, summary)
    return out


def simple_value(tag, x):
    return f_bytes(1, f_bytes(1, tag) + f_float(2, x))


def plugin_metadata(name):
    return f_bytes(9, f_bytes(1, f_bytes(1, name)))  # SummaryMetadata.plugin_data.plugin_name


def scalar_shape():
    return f_bytes(2, b"")  # TensorShapeProto with no dims: rank 0


def tensor_value(tag, tensor, plugin=None):
    body = f_bytes(1, tag)
    if plugin:
        body += plugin_metadata(plugin)
    return f_bytes(1, body + f_bytes(8, tensor))


def float_tensor(x):  # DT_FLOAT = 1, packed float_val = 5
    return f_varint(1, 1) + scalar_shape() + f_bytes(5, struct.pack("<f", x))


def double_content_tensor(x):  # DT_DOUBLE = 2, tensor_content = 4
    return f_varint(1, 2) + scalar_shape() + f_bytes(4, struct.pack("<d", x))


def int64_tensor(n):  # DT_INT64 = 9, packed int64_val = 10
    return f_varint(1, 9) + scalar_shape() + f_bytes(10, varint(n))


def histogram_tensor():  # a [3, 3] double tensor, as the histograms plugin writes
    shape = f_bytes(2, f_bytes(2, f_varint(1, 3)) + f_bytes(2, f_varint(1, 3)))
    return f_varint(1, 2) + shape + f_bytes(6, struct.pack("<9d", *range(9)))


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def write(path, records):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = b"".join(record(r) for r in records)
    with open(path, "wb") as f:
        f.write(data)
    return data


def main():
    out = sys.argv[1]
    truth = {}

    # PyTorch's SummaryWriter: file_version first, then add_scalar events.
    start = 1700000000.25
    records = [event(start, file_version="brain.Event:2")]
    scalars = {"Accuracy/val": [], "Loss/train": []}
    accuracies = [0.52, 0.71, 0.83, 0.80, 0.91, 0.94]
    for k, acc in enumerate(accuracies, start=1):
        wall = start + 12.5 * k
        records.append(event(wall, step=100 * k, summary=simple_value("Loss/train", 2.0 / k)))
        scalars["Loss/train"].append([wall - start, 100 * k, f32(2.0 / k)])
        records.append(event(wall + 1.5, step=100 * k, summary=simple_value("Accuracy/val", acc)))
        scalars["Accuracy/val"].append([wall + 1.5 - start, 100 * k, f32(acc)])
    pytorch = write(os.path.join(out, "pytorch", "events.out.tfevents.1.host"), records)
    truth["pytorch/events.out.tfevents.1.host"] = {"records": len(records), "scalars": scalars}

    # The same bytes, cut 7 bytes into the last record's data (12-byte header + 7 bytes left of it).
    last = len(record(records[-1]))
    cut = pytorch[: len(pytorch) - last + 12 + 7]
    os.makedirs(os.path.join(out, "cut"), exist_ok=True)
    with open(os.path.join(out, "cut", "events.out.tfevents.3.host"), "wb") as f:
        f.write(cut)
    cut_scalars = {"Accuracy/val": scalars["Accuracy/val"][:-1], "Loss/train": scalars["Loss/train"]}
    truth["cut/events.out.tfevents.3.host"] = {"records": len(records) - 1, "scalars": cut_scalars}

    # One byte of record 3's data changed: its data checksum no longer matches.
    offset = len(record(records[0])) + len(record(records[1])) + 12 + 3
    corrupt = bytearray(pytorch)
    corrupt[offset] ^= 0x40
    os.makedirs(os.path.join(out, "corrupt"), exist_ok=True)
    with open(os.path.join(out, "corrupt", "events.out.tfevents.4.host"), "wb") as f:
        f.write(bytes(corrupt))
    truth["corrupt/events.out.tfevents.4.host"] = {"corrupt_record": 3,
                                                   "corrupt_byte": len(record(records[0])) + len(record(records[1]))}

    # TF2's tf.summary.scalar: tensors, the plugin named on a tag's first value only.
    start2 = 1700001000.0
    records = [event(start2, file_version="brain.Event:2")]
    scalars = {"epoch_accuracy": [], "val_loss": [], "examples": []}
    for k in range(4):
        wall = start2 + 30.0 * (k + 1)
        acc = 0.6 + 0.1 * k
        summary = tensor_value("epoch_accuracy", float_tensor(acc), "scalars" if k == 0 else None)
        summary += tensor_value("val_loss", double_content_tensor(1.0 / (k + 1)), "scalars" if k == 0 else None)
        summary += tensor_value("examples", int64_tensor(1000 * (k + 1)), "scalars" if k == 0 else None)
        summary += tensor_value("weights", histogram_tensor(), "histograms" if k == 0 else None)
        summary += f_bytes(1, f_bytes(1, "picture") + f_bytes(4, f_varint(1, 2)))  # an Image: no scalar
        records.append(event(wall, step=k, summary=summary))
        scalars["epoch_accuracy"].append([wall - start2, k, f32(acc)])
        scalars["val_loss"].append([wall - start2, k, 1.0 / (k + 1)])
        scalars["examples"].append([wall - start2, k, 1000.0 * (k + 1)])
    write(os.path.join(out, "tf2", "events.out.tfevents.2.host"), records)
    truth["tf2/events.out.tfevents.2.host"] = {"records": len(records), "scalars": scalars}

    # TF Keras' callback: train/ and validation/ of one run, the validation file opened 2 s after the train file.
    for split, first_wall, values in (("train", 1700002000.0, [0.70, 0.80, 0.90]),
                                      ("validation", 1700002002.0, [0.65, 0.75, 0.78])):
        records = [event(first_wall, file_version="brain.Event:2")]
        points = []
        for k, v in enumerate(values):
            wall = 1700002000.0 + 60.0 * (k + 1) + (5.0 if split == "validation" else 0.0)
            records.append(event(wall, step=k, summary=tensor_value("epoch_accuracy", float_tensor(v),
                                                                    "scalars" if k == 0 else None)))
            points.append([wall - first_wall, k, f32(v)])
        name = "keras/run1/%s/events.out.tfevents.%d.host.v2" % (split, 5 if split == "train" else 6)
        write(os.path.join(out, name), records)
        truth[name] = {"records": len(records), "scalars": {"epoch_accuracy": points}}

    json.dump(truth, sys.stdout)


if __name__ == "__main__":
    main()
