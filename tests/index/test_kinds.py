"""The index's typed kinds (graphlint/facts/kinds.py): values, not string codes, and their cached form."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from graphlint.facts import kinds
from graphlint.facts.annotations import _plain_text, annotation_kind, annotation_text, names_tensor_items
from graphlint.facts.callsite import item_of, join_later, key_of, keyed
from graphlint.facts.kinds import (
    CPU_TENSOR, HOST, TENSOR, UNKNOWN, Arith, Batch, Call, DictOf, Elems, Field, Fwd, HostIf, Inst, Items, Join, Keys,
    Mask, Obj, OnParam, Prior, Rows, SelfField,
)

EVERY_FORM = [
    HOST, UNKNOWN, Items((CPU_TENSOR, HOST)), Keys((("ids", CPU_TENSOR), ("n", HOST))), Call("m.f"),
    Call("m.f", 0), Call("m.C.get", "ids", receiver=True), Call("m.f", -1), Join((Call("m.f"), SelfField("x"))),
    SelfField("buf"), Field("lens"), HostIf(SelfField("buf")), Prior(TENSOR, Call("m.g")), Fwd("sizes"), Obj("Meta"),
    OnParam("device"), Items((Keys((("a", Call("m.f")),)), HostIf(Field("x")))), Arith(Call("m.f", 3)),
    Arith(Join((Call("m.f"), SelfField("cap")))), Inst("m.Decoder"), Elems(Call("self.encode")),
    Mask(Join((HOST, SelfField("age")))), Mask(Arith(Field("ii"))), Batch(Fwd("loader")), Batch(Call("m.loader")),
    Rows((TENSOR, HOST)), Rows((Batch(Fwd("t")), UNKNOWN)), DictOf(Call("m.f", "")),
]


@pytest.mark.parametrize("kind", EVERY_FORM, ids=str)
def test_every_kind_survives_the_cache(kind):
    assert kinds.from_plain(kinds.to_plain(kind)) == kind


@pytest.mark.parametrize("data", [
    "items:cpu_tensor,host", "ret:m.f", "keys:ids=cpu_tensor", "tensorr", ["items"], ["call", "m.f", 0.5, False],
    ["keys", [["a"]]], ["self", 1], ["nope", "x"], [], None, 3,
])
def test_string_codes_and_bad_shapes_are_no_kinds(data):
    """Old caches stored string-coded kinds: they must not decode into anything (the cache then misses)."""
    with pytest.raises(ValueError):
        kinds.from_plain(data)


def test_kinds_of_different_forms_never_compare_equal():
    assert len({SelfField("x"), Field("x"), Fwd("x"), OnParam("x"), Obj("x"), Inst("x"), Call("x")}) == 7
    assert Call("m.f", 0) != Call("m.f", "0") and Call("m.f") != Call("m.f", receiver=True)


def test_a_join_has_one_spelling_and_items_of_calls_defer():
    a, b = Call("m.f"), SelfField("x")
    assert join_later({a, b}) == join_later([b, a]) == Join((a, b))
    assert item_of(a, 1) == Call("m.f", 1) and key_of(a, "ids") == Call("m.f", "ids")
    assert item_of(Join((a, Call("m.g"))), 0) == Join((Call("m.f", 0), Call("m.g", 0)))
    assert keyed([("t", Items((HOST, HOST))), ("j", Join((a, b)))]) == UNKNOWN  # dict values stay simple


def test_no_string_coded_kinds_are_left():
    """Issue 19 §1: no "items:..."-style codes in the facts layer; `kinds.py` only prints them."""
    root = Path(__file__).resolve().parents[2] / "graphlint"
    code = re.compile(r"""["'](items|keys|ret|recv|join|self|hostif|prior|field|fwd|object):""")
    found = [f"{p.relative_to(root)}:{n}" for p in sorted(root.rglob("*.py")) if p.name != "kinds.py"
             for n, line in enumerate(p.read_text().splitlines(), 1) if code.search(line)]
    assert found == []


@pytest.mark.parametrize("text, kind", [
    ("np.ndarray", "ndarray"), ("Optional[np.ndarray]", "ndarray"), ("numpy.ndarray | None", "ndarray"),
    ("npt.NDArray[np.int64]", "ndarray"), ("numpy.typing.NDArray[np.float32]", "ndarray"),
    ("np.ndarray_like", "unknown"), ("tuple[np.ndarray, int]", "unknown"), ("torch.Tensor", "tensor"),
])
def test_array_annotations_name_host_arrays(text, kind):
    """An `np.ndarray` parameter is a host array (a list indexes it without a copy); a name that only starts like
    one, or a tuple holding one, is not."""
    assert annotation_kind(text) == kind


@pytest.mark.parametrize("text, kind", [
    ("list[int] | torch.Tensor | None", "unknown"), ("Union[List[int], torch.Tensor]", "unknown"),
    ("tuple[int, int] | Tensor", "unknown"), ("list[int] | None", "host_seq"), ("Optional[List[int]]", "host_seq"),
])
def test_a_union_that_names_a_tensor_is_no_host_sequence(text, kind):
    """`list[int] | torch.Tensor` may be either (DeepSeek-OCR-2's `num_local_patches`, a processor's CUDA tensor after
    `inputs.to(device)`): read as `Union[List[int], Tensor]` is, not as its first member. Decoy: a host sequence or
    None stays one."""
    assert annotation_kind(text) == kind


@pytest.mark.parametrize("text, holds", [
    ("Dict[str, torch.Tensor]", True), ("dict[str, Tensor]", True), ("Optional[Dict[str, torch.Tensor]]", True),
    ("Dict[str, Optional[torch.Tensor]]", True), ("Tuple[int, torch.Tensor]", True), ("'Dict[str, Tensor]'", True),
    ("Dict[str, int]", False), ("dict[int, str]", False), ("dict[str, list[int]]", False), ("Dict[str, Any]", False),
    ("tuple[int, ...]", False),
])
def test_a_host_sequence_annotation_that_names_tensor_items(text, holds):
    """A dict's first type argument is its key: `Dict[str, torch.Tensor]` (mace's `data` batch) reads as a host
    sequence by its `str`, yet holds tensors, so the call-site facts take no host value from its items (`Tuple[int,
    Tensor]` likewise). Decoys: containers of host scalars, however keyed or nested, and `Dict[str, Any]`."""
    assert annotation_kind(text) == "host_seq" and names_tensor_items(text) is holds


@pytest.mark.parametrize("source", [
    "torch.Tensor", "Optional[torch.Tensor]", "Dict[str, torch.Tensor]", "torch.Tensor | None", "int | float | None",
    "Optional[List[Tuple[int, torch.LongTensor]]]", "list[int] | torch.Tensor | None"])
def test_plain_annotation_text_is_unparse(source: str) -> None:
    """The shapes `annotation_text` writes without unparsing read exactly as `ast.unparse` writes them."""
    node = ast.parse(source, mode="eval").body
    assert _plain_text(node) == ast.unparse(node) == source


@pytest.mark.parametrize("source", [
    "Tuple[int,]", "Float[Tensor, 'b d']", "'torch.Tensor'", "int | (float | None)", "Tuple[()]", "Tuple[*Ts]",
    "Callable[[int], int]", "x[0].y"])
def test_plain_annotation_text_leaves_the_rest_to_unparse(source: str) -> None:
    """A shape whose unparsing differs from a plain join (a one-item tuple's comma, a string's quotes, parentheses)
    is left to `ast.unparse`, which `annotation_text` still writes."""
    node = ast.parse(source, mode="eval").body
    assert _plain_text(node) is None
    assert annotation_text(node) == ast.unparse(node)
