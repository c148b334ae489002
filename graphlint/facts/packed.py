"""`torch.nn.utils.rnn.PackedSequence`: where each of its fields lives.

A PackedSequence is a named tuple `(data, batch_sizes, sorted_indices, unsorted_indices)`. torch documents
`batch_sizes` as "always a CPU tensor" (the RNN kernels read it on the host), whatever device `data` is on, while
`data` and the two index tensors live where the packed input lived. So `packed.batch_sizes.tolist()` reads host memory
(no sync) and `packed.unsorted_indices.tolist()` of a CUDA sequence is a sync. The inference types a PackedSequence as
an unknown value (it is no tensor: no rule may read it as one) whose `items` are its four fields, and answers its fields
from them (`field`).
"""

from __future__ import annotations

import re

from graphlint.facts.values import CPU, DEVICE_TENSORS, TENSOR, TSEQ, UNKNOWN, Kind, Val

PACKED_SEQUENCE = "torch.nn.utils.rnn.PackedSequence"
# The calls that build one, and the parameter that holds what its `data` is built from (a tensor, or for
# `pack_sequence` a list of tensors, which it concatenates)
PACKING_TORCH = {
    "torch.nn.utils.rnn.pack_padded_sequence": "input",
    "torch.nn.utils.rnn.pack_sequence": "sequences",
    PACKED_SEQUENCE: "data",
}
# `pad_packed_sequence(packed)` returns `(padded, lengths)`: `padded` where `data` is, `lengths` built from
# `batch_sizes` on the host
PAD_PACKED = "torch.nn.utils.rnn.pad_packed_sequence"
FIELDS = ("data", "batch_sizes", "sorted_indices", "unsorted_indices")
# `PackedSequence`, `rnn.PackedSequence`, `Optional[torch.nn.utils.rnn.PackedSequence]` (not a union with a tensor)
PACKED_ANN_RE = re.compile(r"^(Optional\[)?\s*((torch\.)?nn\.utils\.rnn\.|rnn\.)?PackedSequence\s*\]?(\s*\|\s*None)?$")
# The recurrent layers that take a PackedSequence and return one as the first item of their output
RECURRENT_LAYERS = frozenset({"LSTM", "GRU", "RNN"})
# PackedSequence methods that return one whose data keeps its device (dtype casts, pinning, moving to shared memory)
KEEPING_METHODS = frozenset({"float", "double", "half", "bfloat16", "long", "int", "short", "char", "byte", "bool",
                             "pin_memory", "share_memory_", "detach", "clone"})
_HOST_INDEX = Val(Kind.CPU_TENSOR, rank=1)
_BATCH_SIZES = Val(Kind.CPU_TENSOR, rank=1)


def packed(data: Val) -> Val:
    """A PackedSequence whose `data` is `data` (its indices on the same device, `batch_sizes` on the host)."""
    if data.kind is Kind.CPU_TENSOR:
        index = _HOST_INDEX
    elif data.kind in DEVICE_TENSORS and not data.weak:
        index = Val(Kind.TENSOR, rank=1)
    else:
        index = UNKNOWN
    return Val(Kind.UNKNOWN, ref=PACKED_SEQUENCE, items=(data, _BATCH_SIZES, index, index))


def is_packed(val: Val) -> bool:
    return val.ref == PACKED_SEQUENCE and val.items is not None


def field(val: Val, attr: str) -> Val | None:
    """`packed.<attr>` of a PackedSequence: the field's value; None for a method or anything else."""
    if attr not in FIELDS or val.items is None:
        return None
    return val.items[FIELDS.index(attr)]


def data_of(parts: tuple[Val, ...]) -> Val:
    """What `data` is when packed from these tensors (one, or the sequences `pack_sequence` concatenates): on the
    host when one is and none is known on the device, on the device when one is and none is on the host."""
    host = any(p.kind is Kind.CPU_TENSOR and not p.weak for p in parts)
    device = any(p.kind in DEVICE_TENSORS and not p.weak for p in parts)
    if host and not device:
        return CPU
    return TENSOR if device and not host else UNKNOWN


def recurrent_output(layer: str, seq: Val, default: Val) -> Val:
    """What `rnn(seq, ..)` returns for a PackedSequence `seq` (`layer` the class's last name): a tuple of a
    PackedSequence computed where `seq.data` is (`default` where nothing shows it) and the hidden state (LSTM's a
    tuple `(h, c)`) on that device too."""
    data = field(seq, "data") or UNKNOWN
    out = data if data.kind is Kind.CPU_TENSOR or data.kind in DEVICE_TENSORS and not data.weak else default
    out = Val(out.kind) if out.kind in (Kind.CPU_TENSOR, Kind.TENSOR) else UNKNOWN
    if out.kind is Kind.CPU_TENSOR:
        hidden = Val(Kind.TENSOR_SEQ, elem=CPU) if layer == "LSTM" else CPU
    else:
        hidden = TSEQ if layer == "LSTM" else TENSOR
    return Val(Kind.TENSOR_SEQ, items=(packed(out), hidden))


def padded(seq: Val) -> Val:
    """`pad_packed_sequence(seq)`: `(padded, lengths)`, the padded tensor where `seq.data` is, `lengths` on the host."""
    data = field(seq, "data") or UNKNOWN
    return Val(Kind.TENSOR_SEQ, items=(data, _HOST_INDEX))
