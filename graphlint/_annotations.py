"""What a type annotation says about a value, from its source text: shared by the libcst inference
(parameters, locals) and the ast project index (fields, return annotations), so both read `Tensor | None`,
`Optional[torch.Tensor]`, `Float[Tensor, "b d"]` or `tuple[Tensor, ...]` the same way."""

from __future__ import annotations

import re

TENSOR_ANN_RE = re.compile(
    r"^(typing\.)?(Optional\[)?\s*(torch\.)?(Tensor|FloatTensor|LongTensor|IntTensor|HalfTensor|"
    r"BFloat16Tensor|DoubleTensor|ByteTensor|cuda\.\w+Tensor|nn\.Parameter|Parameter|"
    r"(Float|Int|Bool|Shaped|Num|Real|Inexact|Integer|Key|Complex)\[.*)\s*\]?\s*(\|\s*None)?$"
)
BOOL_ANN_RE = re.compile(r"^(Optional\[)?(torch\.)?(BoolTensor|Bool\[.*)\]?(\s*\|\s*None)?$")
SEQ_ANN_RE = re.compile(r"^(typing\.)?(Optional\[)?(tuple|Tuple|list|List|Sequence|Iterable)\[\s*(torch\.)?Tensor")
HOST_ANN_RE = re.compile(r"^(Optional\[)?(int|float|bool|str|bytes|complex|torch\.Size|torch\.dtype|"
                         r"torch\.device|Size|dtype|device|None)\]?(\s*\|\s*None)?$")
HOST_SEQ_ANN_RE = re.compile(
    r"^(Optional\[)?(tuple|Tuple|list|List|Sequence|dict|Dict|set|Set)\[\s*(int|float|str|bool)")


def annotation_kind(text: str) -> str:
    """"bool_tensor", "tensor", "tensor_seq", "host", "host_seq" or "unknown" for annotation source text
    (quotes of a forward reference are ignored)."""
    text = text.strip().strip("'\"")
    for kind, pattern in (("bool_tensor", BOOL_ANN_RE), ("tensor", TENSOR_ANN_RE), ("tensor_seq", SEQ_ANN_RE),
                          ("host", HOST_ANN_RE), ("host_seq", HOST_SEQ_ANN_RE)):
        if pattern.match(text):
            return kind
    return "unknown"
