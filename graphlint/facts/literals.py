"""Facts that literals decide, asked by both readers of the code: the index (stdlib `ast`, graphlint.facts.callsite)
and the walker's inference (libcst, graphlint.facts.inference). Each reader turns its nodes into Python values
(`ast_literal` / `cst_literal`, a call's keywords with `ast_keywords` / `cst_keywords`) and asks the question here, so
the two cannot disagree on what names the host (`"cpu"`), what pins memory (`pin_memory=True`), what a tokenizer builds
on the host, or what a dict literal holds.
"""

from __future__ import annotations

import ast
import re
from enum import Enum
from typing import Callable, Sequence, TypeVar

import libcst as cst

NOT_LITERAL = object()  # the value of an expression that is no literal
CST_NAMES = {"True": True, "False": False, "None": None}
KEY_RE = re.compile(r"^\w+$")  # the dict keys the facts record: identifier-like strings
V = TypeVar("V")


def ast_literal(node: ast.expr | None) -> object:
    """The Python value of a constant (`"cpu"`, `True`, `3`); NOT_LITERAL for anything else."""
    return node.value if isinstance(node, ast.Constant) else NOT_LITERAL


def cst_literal(node: cst.BaseExpression | None) -> object:
    """The Python value of a libcst constant (`"cpu"`, `True`, `None`, `3`); NOT_LITERAL for anything else."""
    if node.__class__ is cst.Name:
        return CST_NAMES.get(node.value, NOT_LITERAL)
    if node.__class__ is cst.SimpleString:
        return node.evaluated_value
    if node.__class__ is cst.Integer:
        return node.evaluated_value
    return NOT_LITERAL


PIN = ("pin_memory",)  # the keywords `pins` / `may_pin` read
BATCH = ("return_tensors", "device")  # the keywords `host_batch` reads


def ast_keywords(call: ast.Call, names: tuple[str, ...]) -> dict[str, object]:
    """A call's keyword arguments among `names`, as literal values (only those: every call of a unit is asked)."""
    return {kw.arg: ast_literal(kw.value) for kw in call.keywords if kw.arg in names}


def cst_keywords(call: cst.Call, names: tuple[str, ...]) -> dict[str, object]:
    """A libcst call's keyword arguments among `names`, as literal values."""
    return {arg.keyword.value: cst_literal(arg.value) for arg in call.args
            if arg.keyword is not None and arg.keyword.value in names}


def device_type(value: object) -> str | None:
    """"cpu" of `"cpu"` / `"cpu:0"`, "cuda" of `"cuda:1"`; None when the value is no string."""
    return value.split(":")[0] if isinstance(value, str) else None


def names_cpu(value: object) -> bool:
    """A device literal naming the host."""
    return device_type(value) == "cpu"


def pins(keywords: dict[str, object]) -> bool:
    """`pin_memory=True`: a factory that pins its result builds it on the host, whatever else it says."""
    return keywords.get("pin_memory", NOT_LITERAL) is True


def may_pin(keywords: dict[str, object]) -> bool:
    """`pin_memory=` with anything but `False` / `None` (`pin_memory=is_pin_memory_available()`): pinned where it
    can be (vLLM's async_tensor_h2d)."""
    return "pin_memory" in keywords and keywords["pin_memory"] not in (False, None)


def host_batch(keywords: dict[str, object]) -> bool:
    """`tokenizer(text, return_tensors="pt")`, `processor(images, return_tensors="pt")`: Hugging Face tokenizers and
    processors build their tensors on the host unless told a `device=` (fast image processors take one)."""
    return keywords.get("return_tensors") == "pt" and "device" not in keywords


def dict_key(value: object) -> str | None:
    """A dict key the facts record (an identifier-like string); None for any other."""
    return value if isinstance(value, str) and KEY_RE.match(value) else None


class DictForm(Enum):
    HOST_TENSORS = "host_tensors"  # every value a host tensor: so is any item (`d[k]`, `d.values()`)
    KEYED = "keyed"  # string keys, some value known: `d["ids"]` is that key's value
    UNKNOWN = "unknown"


def dict_form(keys: Sequence[object], values: Sequence[V], host_tensor: Callable[[V], bool],
              known: Callable[[V], bool]) -> DictForm:
    """What a dict literal (or comprehension) holds, from its keys' literal values (NOT_LITERAL for a `**spread` or a
    comprehension's key) and its values' facts (either reader's)."""
    if not values:
        return DictForm.UNKNOWN
    if len(keys) == len(values) and all(host_tensor(v) for v in values):
        return DictForm.HOST_TENSORS
    if len(keys) == len(values) and all(dict_key(k) is not None for k in keys) and any(known(v) for v in values):
        return DictForm.KEYED
    return DictForm.UNKNOWN
