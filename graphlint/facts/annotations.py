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
# (a NumPy scalar type, `np.float32` / `np.generic` / `np.str_`, is a host number or string: `.item()` of one reads
# no device)
NUMPY_SCALAR_RE = (r"(np|numpy)\.(generic|number|integer|signedinteger|unsignedinteger|inexact|floating|"
                   r"complexfloating|bool_?|str_|bytes_|u?int(8|16|32|64|c|p|_)?|float(16|32|64|128|_)|half|single|"
                   r"double|longdouble|complex(64|128|256|_)|u?longlong|u?short|u?byte)")
# (a PIL image is host memory: `PIL.Image.Image`, `Image.Image`)
HOST_ANN_RE = re.compile(r"^(Optional\[)?(int|float|bool|str|bytes|complex|torch\.Size|torch\.dtype|"
                         r"torch\.device|Size|dtype|device|None|(PIL\.)?Image\.Image|" + NUMPY_SCALAR_RE +
                         r")\]?(\s*\|\s*None)?$")
# `np.ndarray`, `numpy.typing.NDArray[np.int64]`: a host array (a list indexes one without any copy)
NDARRAY_ANN_RE = re.compile(
    r"^(Optional\[)?\s*((np|numpy)\.)?((typing|npt)\.)?(ndarray|NDArray)(\[.*\])?\s*\]?(\s*\|\s*None)?$")
# (`Iterable[int]`, `AbstractSet[int]`, `frozenset[int]`: whatever the container, iterating it or `list(..)` of it gives
# host values)
HOST_SEQ_ANN_RE = re.compile(
    r"^(Optional\[)?(tuple|Tuple|list|List|Sequence|dict|Dict|set|Set|frozenset|FrozenSet|AbstractSet|Iterable|"
    r"Collection)\[\s*(int|float|str|bool)")


def annotation_text(node: ast.expr) -> str:
    """`ast.unparse(node)`, once per node: the index reads a parameter's annotation in several passes (its host prior
    in `scope_of`, `FunctionInfo.tensor_params`, whether a `-> int | Tensor` return follows it), and unparsing is a
    visitor run. Kept on the node (an `ast` node takes attributes), which lives only while its file is indexed and
    is never changed after the parse (the index's one rewrite runs before)."""
    text = node.__dict__.get("_graphlint_text")
    if text is None:
        text = _plain_text(node)
        text = node._graphlint_text = ast.unparse(node) if text is None else text  # type: ignore[attr-defined]
    return text


def _plain_text(node: ast.expr) -> str | None:
    """`ast.unparse(node)` for the shapes most annotations take, built directly (unparse runs a visitor over a fresh
    writer per call): a dotted name, `None`, a subscript of a dotted name by such shapes (two or more of them as a
    tuple: unparse writes one with a trailing comma) and a `|` union of them, left-nested as it parses. None for
    anything else (a string, a call, a starred item, a right-nested `|`), which unparse writes."""
    cls = node.__class__
    if cls is ast.Name:
        return node.id  # type: ignore[attr-defined]
    if cls is ast.Attribute:
        head = _plain_text(node.value) if node.value.__class__ in (ast.Name, ast.Attribute) else None  # type: ignore[attr-defined]
        return None if head is None else f"{head}.{node.attr}"  # type: ignore[attr-defined]
    if cls is ast.Constant:
        return "None" if node.value is None else None  # type: ignore[attr-defined]
    if cls is ast.Subscript:
        value, index = node.value, node.slice  # type: ignore[attr-defined]
        head = _plain_text(value) if value.__class__ in (ast.Name, ast.Attribute) else None
        items = [_plain_text(e) for e in index.elts] if index.__class__ is ast.Tuple else [_plain_text(index)]
        if head is None or None in items or (index.__class__ is ast.Tuple and len(items) < 2):
            return None
        return f"{head}[{', '.join(items)}]"  # type: ignore[arg-type]
    if cls is ast.BinOp and node.op.__class__ is ast.BitOr and node.right.__class__ is not ast.BinOp:  # type: ignore[attr-defined]
        left, right = _plain_text(node.left), _plain_text(node.right)  # type: ignore[attr-defined]
        return None if left is None or right is None else f"{left} | {right}"
    return None


def is_cpu_name(name: str) -> bool:
    """Names that say the value lives on the host, "cpu" as one of their words (`seq_lens_cpu`, `cpu_offsets`,
    `seq_lens_cpu_upper_bound`): a tensor-annotated one is a host tensor (parameters, class fields); an
    untyped one is host data (a host tensor or a Python value)."""
    return "cpu" in name.rpartition(".")[2].lower().split("_")


@functools.lru_cache(maxsize=4096)
def annotation_kind(text: str) -> str:
    """"bool_tensor", "tensor", "tensor_seq", "host", "host_seq", "ndarray" or "unknown" for annotation source text
    (quotes of a forward reference are ignored)."""
    text = text.strip().strip("'\"")
    for kind, pattern in (("bool_tensor", BOOL_ANN_RE), ("tensor", TENSOR_ANN_RE), ("tensor_seq", SEQ_ANN_RE),
                          ("host", HOST_ANN_RE), ("host_seq", HOST_SEQ_ANN_RE), ("ndarray", NDARRAY_ANN_RE)):
        if pattern.match(text):
            if kind == "tensor_seq" and not _all_tensor_items(text):
                return "unknown"
            if kind == "host_seq" and _union_names_tensor(text):
                return "unknown"  # `list[int] | torch.Tensor`, as `Union[List[int], Tensor]` reads
            return kind
    if text[:1].isalpha() and "[" in text and container_name(text) is not None:
        return "host_seq"  # `tuple[list[int], ...]`: containers of host scalars, however nested
    if ("|" in text or "Union" in text) and _scalar_or_tensor(text):
        return "tensor"
    return "unknown"


def follows_an_argument(returns: str, params: list[str]) -> bool:
    """`def f(n: int | Tensor) -> int | Tensor`: a number-or-tensor return of a function that takes one gives
    back what the caller passed (phi4mm's `compute_lens_change(x.shape[1])` returns an int), so it says nothing
    by itself; `def previous(t: int) -> int | Tensor` does."""
    return _scalar_or_tensor(returns) and any(_scalar_or_tensor(p) for p in params)


def _union_members(node: ast.expr) -> list[ast.expr]:
    """The alternatives of `A | B`, `Union[A, B]` and `Optional[A]`, flattened."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union_members(node.left) + _union_members(node.right)
    if isinstance(node, ast.Subscript) and ast.unparse(node.value).split(".")[-1] in ("Union", "Optional"):
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return [m for item in items for m in _union_members(item)]
    return [node]


def _union_names_tensor(text: str) -> bool:
    """A union at the top with a tensor among its members (`list[int] | torch.Tensor | None`)."""
    try:
        members = _union_members(ast.parse(text, mode="eval").body)
    except SyntaxError:
        return False
    return len(members) > 1 and any(annotation_kind(ast.unparse(m)) in ("tensor", "bool_tensor") for m in members)


TENSOR_KINDS = frozenset({"tensor", "bool_tensor", "tensor_seq"})


@functools.lru_cache(maxsize=4096)
def names_tensor_items(text: str) -> bool:
    """A type argument of the annotation names a tensor (`Dict[str, torch.Tensor]`, `Tuple[int, Tensor]`): the
    pattern that reads a container as a host sequence looks at its first argument only, a dict's key type or one
    item of a tuple, so such a "host sequence" holds tensors wherever they live."""
    text = text.strip().strip("'\"")
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return False
    return any(isinstance(sub, (ast.Name, ast.Attribute, ast.Subscript)) and sub is not node
               and annotation_kind(ast.unparse(sub)) in TENSOR_KINDS for sub in ast.walk(node))


@functools.lru_cache(maxsize=4096)
def without_tensors(text: str) -> str | None:
    """`Union[torch.Tensor, List[int]]` -> `List[int]`: what a top-level union with a tensor member leaves where a
    type test rules the tensor out; None is dropped (it holds no data either way). None where the annotation is no
    such union or leaves nothing."""
    try:
        members = _union_members(ast.parse(text.strip().strip("'\""), mode="eval").body)
    except SyntaxError:
        return None
    tensors = [m for m in members if annotation_kind(ast.unparse(m)) in ("tensor", "bool_tensor")]
    rest = [ast.unparse(m) for m in members if m not in tensors and not (isinstance(m, ast.Constant) and m.value is None)]
    return " | ".join(rest) if tensors and rest else None


@functools.lru_cache(maxsize=4096)
def _scalar_or_tensor(text: str) -> bool:
    """`int | torch.Tensor`, `Union[float, Tensor]`: a Python number or a tensor. The function must handle the
    tensor (an `Optional[Tensor]` is one too): where it reads one, it reads the device."""
    try:
        members = _union_members(ast.parse(text, mode="eval").body)
    except SyntaxError:
        return False
    if len(members) < 2:
        return False  # not a union at the top (`dict[str, int | Tensor]`): each member is smaller than the text
    kinds = {"none" if isinstance(m, ast.Constant) and m.value is None else
             "number" if isinstance(m, ast.Name) and m.id in NUMBERS else annotation_kind(ast.unparse(m))
             for m in members}
    return "tensor" in kinds and "number" in kinds and kinds <= {"tensor", "number", "none"}


NUMBERS = frozenset({"int", "float", "bool", "complex"})
HOST_SCALARS = frozenset({"int", "float", "bool", "str", "bytes", "complex", "None"})
CONTAINERS = {"tuple": "tuple", "Tuple": "tuple", "list": "list", "List": "list", "Sequence": "sequence",
              "MutableSequence": "sequence", "set": "set", "Set": "set", "frozenset": "set", "FrozenSet": "set",
              "dict": "dict", "Dict": "dict", "Mapping": "dict"}


@functools.lru_cache(maxsize=4096)
def container_name(text: str) -> str | None:
    """"list", "tuple", "sequence", "set" or "dict" for an annotation of a container of host scalars (nested
    containers, `Optional`/`| None` allowed: `tuple[list[int], ...]`); None for anything else."""
    try:
        node = ast.parse(text.strip().strip("'\""), mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.right, ast.Constant) and node.right.value is None:
        node = node.left
    if isinstance(node, ast.Subscript) and ast.unparse(node.value).split(".")[-1] == "Optional":
        node = node.slice
    if not isinstance(node, ast.Subscript):
        return None
    name = CONTAINERS.get(ast.unparse(node.value).split(".")[-1])
    return name if name is not None and _host_items(node.slice) else None


def _host_items(node: ast.expr) -> bool:
    if isinstance(node, ast.Tuple):
        return all(_host_items(e) for e in node.elts)
    if isinstance(node, ast.Constant):
        return node.value is Ellipsis or node.value is None
    if isinstance(node, ast.Name):
        return node.id in HOST_SCALARS
    if isinstance(node, ast.Subscript):
        return CONTAINERS.get(ast.unparse(node.value).split(".")[-1]) is not None and _host_items(node.slice)
    return False


def _subscript_items(text: str) -> tuple[str, list[ast.expr]] | None:
    """(last name of the container, its item nodes) of `C[A, B, ...]`, also under `Optional[...]` or
    `... | None`; None when the text is not a multi-item subscript."""
    try:
        node = ast.parse(text.strip().strip("'\""), mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.BinOp):  # `tuple[...] | None`
        node = node.left
    if isinstance(node, ast.Subscript) and ast.unparse(node.value).split(".")[-1] == "Optional":
        node = node.slice
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple)):
        return None
    return ast.unparse(node.value).split(".")[-1], list(node.slice.elts)


def _is_ellipsis(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is Ellipsis


def _all_tensor_items(text: str) -> bool:
    """Whether every item of a `tuple[...]` annotation is a tensor (`tuple[Tensor, ...]`, `tuple[Tensor,
    Tensor]`): `tuple[torch.Tensor, tuple[int, ...]]` unpacks into a tensor and host ints, so it is no
    tensor sequence. Single-item containers (`list[Tensor]`) are."""
    parsed = _subscript_items(text)
    if parsed is None:
        return True
    return all(annotation_kind(ast.unparse(e)) in ("tensor", "bool_tensor") for e in parsed[1] if not _is_ellipsis(e))


@functools.lru_cache(maxsize=4096)
def tuple_item_kinds(text: str) -> tuple[str, ...] | None:
    """Item kinds of a fixed-length `tuple[A, B, ...]` annotation (`tuple[torch.Tensor, tuple[int, ...]]` ->
    ("tensor", "host_seq")), for unpacking a call's result item by item; None for anything else."""
    parsed = _subscript_items(text)
    if parsed is None or parsed[0] not in ("tuple", "Tuple") or any(_is_ellipsis(e) for e in parsed[1]):
        return None
    return tuple(annotation_kind(ast.unparse(e)) for e in parsed[1])
