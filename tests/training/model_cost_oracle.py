#!/usr/bin/python3
"""Independent count of the built-in ConvNet's per-sample training FLOPs and bytes, for model_cost_test.cpp.

The model is rebuilt in PyTorch; the layer shapes come from forward hooks on a real forward pass, the
formulas are written here again (not shared with the C++), forward convolution/linear FLOPs are checked
against torch.profiler(with_flops=True), and the activations autograd saves are measured with
torch.autograd.graph.saved_tensors_hooks (fp32). Prints one line per (entry, side).

Run: /usr/bin/python3 tests/training/model_cost_oracle.py
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

ENTRIES = {  # name: (c1, c2, head, batch, sides, element bytes)
    "baseline": (16, 32, 128, 128, [28], 4),
    "cyclic-lr": (16, 32, 128, 128, [28], 4),
    "large-batch": (16, 32, 128, 1024, [28], 4),
    "progressive-resize": (16, 32, 128, 128, [14, 28], 4),
    "bf16": (16, 32, 128, 128, [28], 2),
    "fast": (16, 32, 128, 256, [28], 2),
}


class Net(nn.Module):
    def __init__(self, c1, c2, head):
        super().__init__()
        self.conv1 = nn.Conv2d(1, c1, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c1)
        self.conv2 = nn.Conv2d(c1, c2, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c2)
        self.head = nn.Conv2d(c2, head, 7)
        self.out = nn.Linear(head, 10)
        self.relu1, self.relu2, self.relu3 = nn.ReLU(), nn.ReLU(), nn.ReLU()
        self.pool1, self.pool2 = nn.MaxPool2d(2), nn.MaxPool2d(2)
        self.resample = nn.AdaptiveAvgPool2d(7)

    def forward(self, x):
        x = self.pool1(self.relu1(self.bn1(self.conv1(x))))
        x = self.pool2(self.relu2(self.bn2(self.conv2(x))))
        if x.shape[-1] != 7:
            x = self.resample(x)
        return self.out(self.relu3(self.head(x)).flatten(1))


def window_cells(n_in, n_out):
    return sum(-(-((i + 1) * n_in) // n_out) - (i * n_in) // n_out for i in range(n_out))


def count(c1, c2, head, batch, side, e):
    net = Net(c1, c2, head)
    shapes = []
    for name, mod in net.named_children():
        mod.register_forward_hook(lambda m, i, o, name=name: shapes.append((name, m, i[0].shape[1:], o.shape[1:])))
    x = torch.randn(4, 1, side, side)
    net(x)
    fwd = bwd = fwd_bytes = bwd_bytes = 0.0
    first = True
    for name, m, i, o in shapes:
        ni, no = i.numel(), o.numel()
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            w = m.weight.numel() + (m.bias.numel() if m.bias is not None else 0)
            k = m.weight[0].numel()  # cin * kh * kw, or in_features
            mac = k * no
            b = no if m.bias is not None else 0
            fwd += 2 * mac + b
            bwd += 2 * mac + b + (0 if first else 2 * mac)
            fwd_bytes += e * (ni + no) + e * w / batch
            bwd_bytes += (1 if first else 2) * (e * (ni + no) + e * w / batch)
            first = False
        elif isinstance(m, nn.BatchNorm2d):
            fwd += 8 * ni
            bwd += 10 * ni
            fwd_bytes += 2 * e * ni + 4 * 2 * m.num_features / batch
            bwd_bytes += 3 * e * ni + 4 * 2 * m.num_features / batch
        elif isinstance(m, nn.ReLU):
            fwd += ni
            bwd += ni
            fwd_bytes += 2 * e * ni
            bwd_bytes += 3 * e * ni
        elif isinstance(m, nn.MaxPool2d):
            fwd += 3 * no
            fwd_bytes += e * (ni + no) + 8 * no
            bwd_bytes += e * (ni + no) + 8 * no
        elif isinstance(m, nn.AdaptiveAvgPool2d):
            cells = i[0] * window_cells(i[1], 7) * window_cells(i[2], 7)
            fwd += cells
            bwd += cells
            fwd_bytes += e * (ni + no)
            bwd_bytes += e * (ni + no)
    fwd += 5 * 10 + 2  # cross entropy over 10 logits
    bwd += 4 * 10
    fwd_bytes += 4 * 20 + 12
    bwd_bytes += 4 * 30
    return net, fwd, bwd, fwd_bytes, bwd_bytes


def profiler_matmul_flops(net, side):
    x = torch.randn(1, 1, side, side)
    with torch.profiler.profile(with_flops=True) as prof:
        with torch.no_grad():
            net.eval()
            net(x)
    return sum(ev.flops for ev in prof.key_averages() if ev.flops)


def saved_bytes(net, side, n=8):
    seen = {}

    def pack(t):
        if t.requires_grad or t._base is not None and t._base.requires_grad:
            pass
        st = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
        seen[st.data_ptr()] = st.nbytes() if hasattr(st, "nbytes") else st.size() * t.element_size()
        return t

    x = torch.randn(n, 1, side, side)
    y = torch.randint(0, 10, (n,))
    net.train()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = F.cross_entropy(net(x), y)
    params = {p.untyped_storage().data_ptr() if hasattr(p, "untyped_storage") else p.storage().data_ptr()
              for p in net.parameters()}
    inp = x.storage().data_ptr()
    total = sum(v for k, v in seen.items() if k not in params and k != inp)
    return total / n


for name, (c1, c2, head, batch, sides, e) in ENTRIES.items():
    for side in sides:
        net, fwd, bwd, fb, bb = count(c1, c2, head, batch, side, e)
        print(f"{name} side={side} forward_flops={fwd:.0f} training_flops={fwd + bwd:.0f} "
              f"training_bytes={fb + bb:.3f} profiler_forward_matmul_flops={profiler_matmul_flops(net, side):.0f} "
              f"saved_bytes_fp32_per_sample={saved_bytes(net, side):.1f}")
