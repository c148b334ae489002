"""What a type annotation says about a value, from its source text: shared by the libcst inference
(parameters, locals) and the ast project index (fields, return annotations), so both read `Tensor | None`,
`Optional[torch.Tensor]`, `Float[Tensor, "b d"]` or `tuple[Tensor, ...]` the same way."""

from __future__ import annotations

import ast
import functools
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


@functools.lru_cache(maxsize=4096)
def annotation_kind(text: str) -> str:
    """"bool_tensor", "tensor", "tensor_seq", "host", "host_seq" or "unknown" for annotation source text
    (quotes of a forward reference are ignored)."""
    text = text.strip().strip("'\"")
    for kind, pattern in (("bool_tensor", BOOL_ANN_RE), ("tensor", TENSOR_ANN_RE), ("tensor_seq", SEQ_ANN_RE),
                          ("host", HOST_ANN_RE), ("host_seq", HOST_SEQ_ANN_RE)):
        if pattern.match(text):
            if kind == "tensor_seq" and not _all_tensor_items(text):
                return "unknown"
            return kind
    return "unknown"


def _all_tensor_items(text: str) -> bool:
    """Whether every item of a `tuple[...]` annotation is a tensor (`tuple[Tensor, ...]`, `tuple[Tensor,
    Tensor]`): `tuple[torch.Tensor, tuple[int, ...]]` unpacks into a tensor and host ints, so it is no
    tensor sequence. Single-item containers (`list[Tensor]`) are."""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return False
    if isinstance(node, ast.BinOp):  # `tuple[...] | None`
        node = node.left
    if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute)) \
            and ast.unparse(node.value).split(".")[-1] == "Optional":
        node = node.slice
    if not isinstance(node, ast.Subscript) or not isinstance(node.slice, ast.Tuple):
        return True
    items = [e for e in node.slice.elts if not (isinstance(e, ast.Constant) and e.value is Ellipsis)]
    return all(TENSOR_ANN_RE.match(ast.unparse(e)) or BOOL_ANN_RE.match(ast.unparse(e)) for e in items)


def tuple_item_kinds(text: str) -> tuple[str, ...] | None:
    """Item kinds of a fixed-length `tuple[A, B, ...]` annotation (`tuple[torch.Tensor, tuple[int, ...]]` ->
    ("tensor", "host_seq")), for unpacking a call's result item by item; None for anything else."""
    try:
        node = ast.parse(text.strip().strip("'\""), mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(node, ast.Subscript) and ast.unparse(node.value).split(".")[-1] in ("tuple", "Tuple")
            and isinstance(node.slice, ast.Tuple)):
        return None
    items = node.slice.elts
    if any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in items):
        return None
    return tuple(annotation_kind(ast.unparse(e)) for e in items)
