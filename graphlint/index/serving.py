"""Request handlers a serving framework calls by its protocol (docs/inference.md, "Reach, session 20").

A model server's entry is called by the framework, not by the project: nothing in the linted tree calls it, so no
caller chain reaches what it runs per request. Two protocols are facts of the frameworks' APIs, not names a
project picks:

- Triton Inference Server's Python backend loads a model's `model.py`, instantiates the class it requires to be
  named `TritonPythonModel` and calls its `execute(requests)` with each batch of requests (`initialize` and
  `finalize` run once). The module reads its requests through the backend's `triton_python_backend_utils`: a
  class of that name in a module that does not import it is no Triton model.
- Flask-RESTful (and Flask's `MethodView`) dispatches each HTTP request to the method of a `Resource` subclass
  named for its verb (`get`, `post`, `put`, `patch`, `delete`).

Each such method is a `forward`-tier root, `via` `TritonPythonModel.execute (request: Triton's Python backend
calls execute per batch of requests)`: the request around one inference, as `_request_roots` reads it.

gradio calls the function an event listener (`btn.click(generate, inputs, outputs)`, `.submit`, `.then`, ...) or
an app (`gr.Interface(fn=generate)`) is handed on each user event (`ModuleSummary.event_callbacks`), set-up as well
as inference, so such a callback is a root only where it runs inference (docs/inference.md, "Reach, session 21"):
with autograd off (`@torch.inference_mode()`, a `with torch.no_grad():` block) or entering the model
(`ProjectIndex._enters_model`). A "load model" button's callback stays cold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphlint.index.summary import ClassInfo, FunctionInfo

TRITON_MODEL_CLASS = "TritonPythonModel"  # the class name Triton's Python backend requires
TRITON_BACKEND_MODULE = "triton_python_backend_utils"
RESOURCE_BASES = ("flask_restful.Resource", "flask.views.MethodView")
HTTP_VERBS = ("get", "post", "put", "patch", "delete")

if TYPE_CHECKING:
    from collections.abc import Iterator


class ServingHandlers:
    """Roots in the handlers serving frameworks call per request (mixed into `ProjectIndex`)."""

    def serving_handlers(self, model: frozenset[str]) -> Iterator[tuple[FunctionInfo, str]]:
        """Each framework-called request handler the project defines, with its root label; `model` holds the model
        entries, which tell a gradio callback that runs inference from a set-up one."""
        for cls in self.classes.values():  # type: ignore[attr-defined]
            names, why = self._handled(cls)
            for name in names:
                fn = self.functions.get(cls.methods.get(name, ""))  # type: ignore[attr-defined]
                if fn is not None and not fn.abstract:
                    yield fn, f"{fn.display} (request: {why})"
        for s in self.modules.values():  # type: ignore[attr-defined]
            for ref, _line in s.event_callbacks:
                fn = self.function_by_dotted(ref)  # type: ignore[attr-defined]
                if fn is not None and self._infers(fn, model):
                    yield fn, f"{fn.display} (request: gradio calls it on each user event, runs inference)"

    def _infers(self, fn: FunctionInfo, model: frozenset[str]) -> bool:
        """`fn` runs with autograd off somewhere, or enters the model."""
        return bool(fn.gradless) or self._enters_model(fn, [(fn.lineno, fn.end_lineno)], set(model))  # type: ignore[attr-defined]

    def _handled(self, cls: ClassInfo) -> tuple[tuple[str, ...], str]:
        """The methods of `cls` its framework calls per request, and why; nothing for any other class."""
        imports = self.class_files[cls.key].imports.values()  # type: ignore[attr-defined]
        if cls.qualname == TRITON_MODEL_CLASS and any(ref.partition(".")[0] == TRITON_BACKEND_MODULE for ref in imports):
            return ("execute",), "Triton's Python backend calls execute per batch of requests"
        bases = {base for c in self.mro(cls) for base in c.bases}  # type: ignore[attr-defined]
        if bases & set(RESOURCE_BASES):
            return HTTP_VERBS, "Flask-RESTful calls a Resource's HTTP verb method per request"
        return (), ""
