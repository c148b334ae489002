"""Hugging Face tokenizers: which expressions hold one, by where the value was made (`Context.tokenizers`).

A tokenizer is what `transformers`' `*Tokenizer*.from_pretrained(...)` / `*Processor*.from_pretrained(...)` returns
(`AutoTokenizer`, `LlamaTokenizerFast`, `AutoProcessor`), or a processor's `.tokenizer`, or open_clip's
`get_tokenizer(name)` (its call returns a host `LongTensor`). The value reaches the call
through the data flow the index records, never through a name: a local bound in the unit, a module global
(`ModuleSummary.global_sets`), or an attribute a method of the class, a base or a subclass stores
(`ClassInfo.factories`: ShadowKV's base class decodes with `self.tokenizer`, which each model subclass loads).
Across calls it is a kind of the index (`Base.TOKENIZER`): a parameter every call site fills with one, a field a
constructor stores from such a parameter, a project function's return reach the unit as a `TOKENIZER_REF` value.
"""

from __future__ import annotations

import re
from typing import Callable

import libcst as cst

from graphlint.facts.names import BoundNames
from graphlint.facts.values import Kind

# `transformers.AutoTokenizer.from_pretrained`, `transformers.LlamaTokenizerFast.from_pretrained`,
# `transformers.AutoProcessor.from_pretrained`, `transformers.WhisperFeatureExtractor.from_pretrained`: the library's
# loaders of a tokenizer (or a processor holding one) and of the other input preprocessors a processor holds
# open_clip's `get_tokenizer(model_name)` returns its `SimpleTokenizer` / `HFTokenizer` / `SigLipTokenizer`, whose
# call returns a `torch.LongTensor` of token ids built on the host (never lists, never on a device); a construction of
# one of those classes (`SimpleTokenizer()`) is the same object
_PRODUCER_RE = re.compile(r"^(?:transformers\.(?:\w+\.)*\w*(?:Tokenizer|Processor|FeatureExtractor)\w*\.from_pretrained"
                          r"|open_clip\.(?:factory\.)?get_tokenizer"
                          r"|open_clip\.(?:tokenizer\.)?(?:SimpleTokenizer|HFTokenizer|SigLipTokenizer))$")
# the loaders of a text tokenizer alone (`AutoTokenizer`, `LlamaTokenizerFast`): `PreTrainedTokenizerBase.__call__`
# returns Python lists of ids unless `return_tensors=` names a tensor type
_TEXT_RE = re.compile(r"^transformers\.(?:\w+\.)*\w*Tokenizer\w*\.from_pretrained$")
# what converts token ids to text: each converts a tensor argument with `.tolist()` (transformers' `to_py_obj`)
DECODERS = frozenset({"decode", "batch_decode", "convert_ids_to_tokens"})
# the `Val.ref` of a tokenizer that reached the unit through the call-site facts (`Base.TOKENIZER`: a parameter
# every call site fills with one, a field every construction does, a project function that returns one)
TOKENIZER_REF = "transformers.PreTrainedTokenizerBase"


# what a `transformers` processor (`ProcessorMixin`) holds besides its tokenizer: each turns raw input into a
# `BatchFeature` built on the host (NumPy, or CPU tensors for `return_tensors="pt"`) unless told a `device=`
PROCESSOR_PARTS = frozenset({"feature_extractor", "image_processor", "video_processor"})


def is_processor(class_names: list[str]) -> bool:
    """One of a class's own and base names (`DiaProcessor(ProcessorMixin)`, any import path) is `ProcessorMixin`:
    the class is a Hugging Face processor, whose `__init__` stores its parts by name."""
    return any(name.rpartition(".")[2] == "ProcessorMixin" for name in class_names)


def processor_batch(call: cst.Call, in_processor: bool) -> bool:
    """`self.feature_extractor(audio, ...)` in a processor's method without `device=`: a host batch."""
    func = call.func
    return in_processor and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
        and func.value.value == "self" and func.attr.value in PROCESSOR_PARTS \
        and not any(arg.keyword is not None and arg.keyword.value == "device" for arg in call.args)


def makes_tokenizer(callee: str | None) -> bool:
    """`callee` (a resolved descriptor) loads a tokenizer or a processor."""
    return callee is not None and _PRODUCER_RE.match(callee) is not None


def makes_text_tokenizer(callee: str | None) -> bool:
    """`callee` loads a text tokenizer (not a processor or feature extractor, whose defaults vary by model)."""
    return callee is not None and _TEXT_RE.match(callee) is not None and makes_tokenizer(callee)


class Tokenizers(BoundNames):
    """Which expressions hold a tokenizer; the local names a unit binds to one (`BoundNames`), and those bound to a
    text tokenizer (`text_names`)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.text_names: set[str] = set()

    def binds(self, value: cst.BaseExpression) -> bool:
        return self.is_tokenizer(value)

    def on_Assign(self, node: cst.Assign) -> None:
        text = self.is_text_tokenizer(node.value)
        super().on_Assign(node)
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                (self.text_names.add if text else self.text_names.discard)(target.target.value)

    def is_text_tokenizer(self, expr: cst.BaseExpression) -> bool:
        """A tokenizer the data flow shows is a text tokenizer (made by a `*Tokenizer*.from_pretrained`, or a
        processor's `.tokenizer`): called without `return_tensors=` it returns Python lists of ids. A processor, or
        a tokenizer only the call sites' facts type, may build tensors by default (remote code): not one."""
        if expr.__class__ is cst.Attribute and expr.attr.value == "tokenizer" and self.is_tokenizer(expr.value) \
                and not self.is_text_tokenizer(expr.value):
            return True  # a processor's tokenizer
        return self._made_by(expr, makes_text_tokenizer, self.text_names)

    def is_tokenizer(self, expr: cst.BaseExpression) -> bool:
        val = self.ctx.val(expr)
        if val.ref == TOKENIZER_REF and val.kind is Kind.OBJECT:
            return True  # what the callers pass, a constructor stores, a project function returns
        if expr.__class__ is cst.Attribute and (expr.attr.value == "tokenizer" or expr.attr.value in PROCESSOR_PARTS) \
                and self.is_tokenizer(expr.value):
            return True  # a processor's tokenizer, feature extractor, image or video processor
        return self._made_by(expr, makes_tokenizer, self.names)

    def _made_by(self, expr: cst.BaseExpression, makes: Callable[[str | None], bool], bound: set[str]) -> bool:
        """`expr` was made by loaders `makes` accepts: the call itself, a local in `bound` (a local bound to another
        tokenizer is not), a module global, or a field every tokenizer store of its classes fills so."""
        ctx = self.ctx
        if expr.__class__ is cst.Call:
            return makes(ctx.call_name(expr))
        if expr.__class__ is cst.Name:
            if expr.value in bound:
                return True
            fn = ctx.unit.function
            if expr.value in self.names or fn is not None and (expr.value in fn.params or expr.value in fn.kwonly):
                return False
            return any(makes(d) for d in ctx.module.global_sets.get(expr.value, ()))
        if expr.__class__ is cst.Attribute:
            made = [d for c in self._holders(expr.value) for d in c.factories.get(expr.attr.value, ())
                    if makes_tokenizer(d)]
            return bool(made) and all(makes(d) for d in made)
        return False

    def _holders(self, expr: cst.BaseExpression) -> list:
        """The project classes whose instances `expr` may be: `self`'s class, its bases and its subclasses (a base
        class's method reads what a subclass stores); an object whose class the flow knows, likewise."""
        ctx, index = self.ctx, self.ctx.index
        cls = None
        if isinstance(expr, cst.Name) and expr.value == "self":
            fn = ctx.unit.function
            cls = index.classes.get(fn.class_key) if fn is not None and fn.class_key else None
        else:
            ref = ctx.val(expr).ref
            cls = index.class_by_dotted(ref) if ref and "," not in ref else None
        if cls is None:
            return []
        return [*index.mro(cls), *index.subclasses(cls)]
