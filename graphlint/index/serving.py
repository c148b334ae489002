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

sounddevice calls the `callback=` a stream is built with once per audio block while the stream runs
(`sd.Stream(callback=self.audio_callback)`: a real-time voice converter's whole per-block inference;
`ModuleSummary.stream_callbacks`). It has no set-up role, unlike a gradio button, so it is a root without the
inference gate: what it does per block is the program's steady state.

Two RPC frameworks call a servicer object's methods per remote call (docs/inference.md, "Reach, session 28"); each
such method is a request root, except warm-up (`_warms_up`), properties and dunders. No inference gate as for gradio:
a servicer hands the work to a policy or model its set-up RPC loaded by name (`policy_class.from_pretrained(...)`,
`self.model = shard(...)`), which the index cannot type, so "enters the model" is not decidable there.

- gRPC: a subclass of a `*Servicer` class of a `*_pb2_grpc` module (what `grpcio-tools` generates, registered with
  `add_<Name>Servicer_to_server(obj, server)`); its RPCs are the methods that generated base defines where the
  project holds it, else the class's public methods.
- rpyc: a subclass of `rpyc.Service` (or one of its stock services); its clients call `conn.root.x(...)`, which runs
  the method `exposed_x`, the prefix rpyc exposes by default.

A web framework's route (`@app.post("/tts")`, Flask's `@app.route("/")`, in a module importing FastAPI, Flask,
Starlette, Quart, Sanic or aiohttp) is called per request as a gradio callback is, and has the same gate: it is a
root only where it runs inference a few calls down (a health check stays cold).

A library's users are no framework but play one's part (docs/notes/census-s40.md, R03): the inference API of a
model-owning class (SAM2's `SAM2ImagePredictor.predict`, a TTS wrapper's `infer`) is a public method of a plain class
that runs a model the class holds in a field, itself or through its own methods, and that no project code calls.
It is a root, `via` `Cls.m (inference API: ...)`. So is one that runs, through a field typed by what it holds, a
method of another plain class that runs the model that class holds (`_runs_held_holder`: one field hop; fairchem's
ASE calculator holds a predict unit, which holds the model). A method that trains (a backward pass a few calls down, in the agent
it holds too), one that runs no held model (`save`, `load`, `export`: the data flow decides, not the name), warm-up,
a method already reached and the methods of a framework's servicer (its protocol names what is called) are not.
A model class is its own holder (docs/notes/misses-s45-merlon.md, R-M): a public method of a project nn.Module other
than `forward` that runs the module's own parts (eole's `EncoderScoringModel.predict_xcomet`, `self.encoder(emb)` two
own calls down) and that no project code calls is a root too, `via` `Cls.m (inference API: Cls is a model and runs
its own parts; ...)`; helpers that run no part (`num_params`, `load_x`, nn.Module's own API) and a LightningModule's
methods (its Trainer's protocol) are not.

A worker thread's queue loop (docs/notes/misses-s35-redoubt.md, R-Q) is no framework's protocol but the same shape:
`while not stop.is_set(): item = self.queue_in.get(timeout=0.1); for out in self.process(item): ...` hands each item
it takes off a queue to a function (each subclass's `process` override), and whatever starts the thread may lie
outside the tree. A callee that runs inference a few calls down is a request root; one that runs no model (a logging
or file-writing worker's handler) stays cold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphlint.facts.kinds import SelfField
from graphlint.index.library_api import trains
from graphlint.index.sole import MODULE_METHOD_NAMES
from graphlint.index.summary import NAME_ARG, PARAM, ClassInfo, FunctionInfo

TRITON_MODEL_CLASS = "TritonPythonModel"  # the class name Triton's Python backend requires
TRITON_BACKEND_MODULE = "triton_python_backend_utils"
RESOURCE_BASES = ("flask_restful.Resource", "flask.views.MethodView")
HTTP_VERBS = ("get", "post", "put", "patch", "delete")
GRPC_MODULE_SUFFIX = "_pb2_grpc"  # the module grpcio-tools generates for a service
RPYC_SERVICES = frozenset({"rpyc.Service", "rpyc.core.service.Service", "rpyc.SlaveService", "rpyc.ClassicService",
                           "rpyc.core.service.SlaveService", "rpyc.core.service.ClassicService"})
MAX_HANDLER_HOPS = 3  # calls down an RPC handler's own helpers to where it runs the model
RPYC_EXPOSED = "exposed_"
DEVICE_MOVES = ("to", "cuda")  # nn.Module's (and a tensor's) moves to a device  # rpyc's default exposure prefix
# Web frameworks whose app/router objects register a request handler with a decorator naming the HTTP method or
# route (`@app.post("/tts")`, `@router.get(..)`, Flask's `@app.route("/")`): the framework calls the handler per request.
WEB_FRAMEWORKS = frozenset({"fastapi", "flask", "starlette", "quart", "sanic", "aiohttp"})
ROUTE_DECORATORS = frozenset({"get", "post", "put", "patch", "delete", "route", "websocket", "api_route"})
# nn.Module's own API that no tensor, optimizer or scheduler has: a field some method calls one of these on
# (`self.codec.eval()`, `self.net.parameters()`) holds a module.
MODULE_ONLY_API = frozenset({"eval", "parameters", "named_parameters", "buffers", "named_buffers", "modules",
                             "named_modules", "children", "named_children", "register_forward_hook",
                             "register_forward_pre_hook", "requires_grad_", "get_submodule"})
# a module's own entry, a root already (`_module_apis` leaves it to the forward pass)
MODULE_OWN_ENTRIES = frozenset({"forward"})
OWN_PARTS = " is a model and runs its own parts"  # ... and of a model class's own (`module_apis`)
MODEL_API = "(inference API: "  # how the `via` of a model-owning class's uncalled public method begins its label

if TYPE_CHECKING:
    from collections.abc import Container, Iterator


class ServingHandlers:
    """Roots in the handlers serving frameworks call per request (mixed into `ProjectIndex`)."""

    def serving_handlers(self, model: frozenset[str], reached: Container[str]
                         ) -> Iterator[tuple[FunctionInfo, str]]:
        """Each framework-called request handler the project defines, with its root label; `model` holds the model
        entries, which tell a gradio callback that runs inference from a set-up one; `reached`, the hot map so far
        (an RPC servicer with a handler in it is `_rpc_step_handlers`' business)."""
        for cls in self.classes.values():  # type: ignore[attr-defined]
            names, why = self._handled(cls)
            for name in names:
                fn = self.functions.get(cls.methods.get(name, ""))  # type: ignore[attr-defined]
                if fn is not None and not fn.abstract:
                    yield fn, f"{fn.display} (request: {why})"
            for fn, why in self._rpc_handlers(cls, reached):
                if not self._warms_up(fn) and self._serves_inference(fn, model):  # type: ignore[attr-defined]
                    yield fn, f"{fn.display} (request: {why}, runs the model)"
        for s in self.modules.values():  # type: ignore[attr-defined]
            for ref, _line in s.event_callbacks:
                fn = self.function_by_dotted(ref)  # type: ignore[attr-defined]
                # (inference a few calls down counts, as for a queue worker's handler: `process -> worker ->
                # helper(model, x)`; a callback only loading weights or formatting text runs none)
                if fn is not None and self._infers_below(fn, model, reached, gradless_deep=False):
                    yield fn, f"{fn.display} (request: gradio calls it on each user event, runs inference)"
                for worker, runner in self._handed_workers(fn) if fn is not None else ():
                    if worker.key not in reached and not trains(worker) and not self._warms_up(worker) \
                            and self._infers_below(worker, model, reached):
                        yield worker, f"{worker.display} (request: {fn.display} hands it to {runner} on each user " \
                                      "event)"
            for ref, _line in s.stream_callbacks:  # (no inference gate: a stream's callback is its steady state)
                fn = self.function_by_dotted(ref)  # type: ignore[attr-defined]
                if fn is not None:
                    yield fn, f"{fn.display} (request: an audio stream calls it once per block)"
        yield from self._queue_workers(model, reached)
        yield from self._routes(model, reached)
        yield from self._model_apis(model, reached)

    def _handed_workers(self, fn: FunctionInfo) -> Iterator[tuple[FunctionInfo, str]]:
        """The project functions an event callback `fn` hands to a project function to run (framepack's `async_run(
        worker, ..)`, which queues it for a thread of its own): each runs once per event, though no edge leads there
        from `fn` (a runner the language knows, `Thread(target=worker)`, is a call of `fn` already). With the runner's
        display."""
        for desc, line, _slot, ref in fn.callable_args:
            if ref.startswith((PARAM, NAME_ARG)):
                continue
            called = {r.key for r, _h in self.call_edges(fn, fn.module, desc)}  # type: ignore[attr-defined]
            runners = [t for t, _how in self._resolved_in(fn, [(line, line)]) if t.key in called]  # type: ignore[attr-defined]
            if not runners:
                continue
            for target, _how in self.call_edges(fn, fn.module, ref):  # type: ignore[attr-defined]
                yield target, runners[0].display

    def _routes(self, model: frozenset[str], reached: Container[str]) -> Iterator[tuple[FunctionInfo, str]]:
        """A web framework's request handler: a function decorated with a route of an app or router (`@app.post(
        "/tts")`, `@app.route("/")`: a called decorator named for an HTTP method or route) in a module that imports
        the framework (`WEB_FRAMEWORKS`). The framework calls it per request; as for a gradio callback, only one that
        runs inference a few calls down (`_infers_below`) is a root: a health check or a model list stays cold."""
        for s in self.modules.values():  # type: ignore[attr-defined]
            if not any(ref.partition(".")[0] in WEB_FRAMEWORKS for ref in s.imports.values()):
                continue
            for fn in s.functions.values():
                if fn.key not in reached and any(d.endswith("()") and d[:-2].rpartition(".")[2] in ROUTE_DECORATORS
                                                 for d in fn.decorators) \
                        and not trains(fn) and self._infers_below(fn, model, reached):
                    yield fn, f"{fn.display} (request: a web framework calls this route per request, runs inference)"

    def _model_apis(self, model: frozenset[str], reached: Container[str]) -> Iterator[tuple[FunctionInfo, str]]:
        """The inference API of a model-owning class: a public method (or `__call__`) of a plain class (no model
        class nor a mixin of one, `_model_side`: its entry is `forward`) that runs a model the class holds in a field (`self.model = build(..)`, `Cls(..).
        to(device)`, `from_pretrained(..)`), itself or through its own methods (`predict -> _predict ->
        self.model.decoder(..)`: `_runs_held_model`), and that nothing in the project calls: its callers are the
        library's users (SAM2's `SAM2ImagePredictor.predict`, a TTS wrapper's `infer`). A method that trains
        (`backward`, `zero_grad` in it or a few calls down: `_trains_below`), one that runs no held model (`save`,
        `load`, `export`), warm-up, a method reached already and a framework's servicer (`_served`) are left out."""
        # one copy of the entries for the whole pass, which `_runs_model` only reads (`in`): copied per `self.` call
        # of every method asked (`_runs_held_model`), the project's model entries were 2% of a transformers lint
        entries = set(model)
        for cls in self.classes.values():  # type: ignore[attr-defined]
            if self._model_side(cls) or self._is_autograd_function(cls) or self._served(cls):  # type: ignore[attr-defined]
                continue  # (a model's own methods, a mixin's, run on a model: model code, not its user)
            placed: frozenset[str] | None = None
            for fn in self._public_methods(cls):  # type: ignore[attr-defined]
                if fn.class_key != cls.key or fn.key in reached or fn.abstract or self._warms_up(fn):  # type: ignore[attr-defined]
                    continue  # (an inherited method is its own class's business)
                placed = self._module_fields(cls) if placed is None else placed
                own = self._own_callees(fn)
                if any(self._runs_held_model(f, entries, placed) for f in own):
                    held = "a model"
                elif helper := next(filter(None, map(self._hands_held_model, own)), None):
                    held = f"a model, hands it to {helper},"
                elif self._call_sites(fn) or (holder := self._runs_held_holder(own, cls, entries)) is None:  # type: ignore[attr-defined]
                    continue
                else:
                    held = f"a {holder}, which holds a model,"
                if self._trains_below(fn) or self._call_sites(fn):  # type: ignore[attr-defined]
                    continue
                yield fn, f"{fn.display} {MODEL_API}{cls.qualname} holds {held} and runs it; no project code calls it)"

    def module_apis(self, reached: Container[str]) -> Iterator[tuple[FunctionInfo, str]]:
        """The inference API of a project nn.Module itself (eole's `EncoderScoringModel.predict_xcomet`): a public
        method its class defines, other than `forward` (a root already), that runs the module's own parts, itself or
        through its own methods (`predict -> _forward_from_ids -> self.encoder(emb)`: `_runs_own_parts`), and that
        nothing in the project calls: its callers are the library's users, as for a class that holds a model
        (`_model_apis`); one the gradless inference roots reach is theirs (`ProjectIndex._inference_roots`: seeded
        first). nn.Module's own API (`state_dict`, `apply`, `to`), a helper that calls no part (`num_params`,
        `load_x`, a classmethod or staticmethod: no `self` to call one on), a property, a dunder, a method that trains,
        warm-up, a method reached already and a LightningModule's methods (its Trainer calls the protocol's hooks,
        `predict_step` a root already; `validation_step`, `log_images` run in training) are left out."""
        for cls in self.classes.values():  # type: ignore[attr-defined]
            if not self.is_nn_module(cls) or self._is_autograd_function(cls) or self._lightning_module(cls):  # type: ignore[attr-defined]
                continue  # (Lightning's Trainer calls its module's hooks by protocol: no other method is an API)
            for name, key in cls.methods.items():
                fn = self.functions.get(key)  # type: ignore[attr-defined]
                if fn is None or name.startswith("_") or name in MODULE_OWN_ENTRIES or fn.key in reached \
                        or fn.abstract or fn.is_property or fn.parent_key is not None or self._warms_up(fn):  # type: ignore[attr-defined]
                    continue
                if any(self._runs_own_parts(f, cls) for f in self._own_callees(fn)) and not self._trains_below(fn) \
                        and not self._call_sites(fn) and not self._script_calls(fn):  # type: ignore[attr-defined]
                    yield fn, f"{fn.display} {MODEL_API}{cls.qualname}{OWN_PARTS}; no project code calls it)"

    def _script_calls(self, fn: FunctionInfo) -> bool:
        """A module's top level (a script) calls `fn` (`pipeline.inference(noise)`): project code calls it, and the
        script's own roots tell whether that call is inference (autograd off) or training."""
        return any(t.key == fn.key  # type: ignore[attr-defined]
                   for script, module, callee in self.call_facts.script_calls_spelt(fn.qualname.rpartition(".")[2])
                   for t, _how in self.call_edges(script, module, callee))  # type: ignore[attr-defined]

    def _runs_own_parts(self, fn: FunctionInfo, cls: ClassInfo) -> bool:
        """`fn` runs its own module's forward (`self(x)`, `self.forward(x)`) or a part's: a field its class stores
        called (`self.encoder(emb)`, `self.head.forward(h)`; a module's `__call__` runs its forward), other than a
        method and nn.Module's own API (`self.apply(init)`, `self.to(device)` run no forward). A method of a part
        called by name (`self.encoder.update_dropout(p)`, `self.decoder.init_state(..)`) configures it: no evidence."""
        for callee, _line in fn.calls:
            parts = callee.split(".")
            if parts[0] != "self" or "(" in callee or "[" in callee or parts[2:] not in ([], ["forward"]):
                continue
            if len(parts) == 1 or parts[1] == "forward" or self._stores_field(cls, parts[1]) \
                    and parts[1] not in MODULE_METHOD_NAMES and self.method(cls, parts[1]) is None:  # type: ignore[attr-defined]
                return True
        return False

    def _stores_field(self, cls: ClassInfo, attr: str) -> bool:
        """`cls` or a project base stores `attr` on the instance (`self.encoder = encoder`, typed or not): a field,
        not a method a library base defines (`self.sharded_copy(..)` of a tensor-parallel mixin outside the tree)."""
        return any(attr in c.attrs or attr in c.factories or attr in c.callables or attr in c.untyped_stores
                   for c in self.mro(cls))  # type: ignore[attr-defined]

    def _runs_held_holder(self, own: list[FunctionInfo], cls: ClassInfo, model: set[str]) -> str | None:
        """The class of an object held in a field of `cls` whose method one of `own` (a public method and the methods
        of its object it calls) calls, where that method runs the model its own class holds (`_runs_held_model`,
        through its own methods): one field hop to the model (fairchem's ASE calculator holds a predict unit,
        `self.predictor.predict(data)`, and the unit holds the model; ASE calls `calculate` every MD step). Only a
        call resolved by the field's type (`self.x.m(..)`, not a method's name alone), of a plain class other than
        `cls`'s own: a held tokenizer or a model's `save` runs no model, and stays out."""
        family = {c.key for c in self.mro(cls)}  # type: ignore[attr-defined]
        for f in own:
            for callee, _line in f.calls:
                parts = callee.split(".")
                if len(parts) != 3 or parts[0] != "self" or "(" in callee or "[" in callee:
                    continue
                for target, how in self.call_edges(f, f.module, callee):  # type: ignore[attr-defined]
                    held = self.classes.get(target.class_key or "")  # type: ignore[attr-defined]
                    if how != f"self.{parts[1]}" or held is None or held.key in family or self._model_side(held) \
                            or self._is_autograd_function(held):  # type: ignore[attr-defined]
                        continue  # (resolved by name alone, a model's own method: `_runs_held_model`'s business)
                    placed = self._module_fields(held)
                    if any(self._runs_held_model(g, model, placed) for g in self._own_callees(target)):
                        return held.qualname
        return None

    def _served(self, cls: ClassInfo) -> bool:
        """A framework calls `cls`'s methods by its protocol (`_handled`, a gRPC servicer, an rpyc service): its
        users are the framework, which calls only the protocol's methods, so no other method is an API."""
        bases = [base for c in self.mro(cls) for base in c.bases]  # type: ignore[attr-defined]
        return bool(self._handled(cls)[0] or _grpc_bases(bases) or RPYC_SERVICES.intersection(bases))

    def _module_fields(self, cls: ClassInfo) -> frozenset[str]:
        """The fields of `cls` that hold a module: some method of it or of a project base calls nn.Module's own API
        on it (`self.codec.eval()`, `self.policy.parameters()`: `MODULE_ONLY_API`)."""
        return frozenset(parts[1] for c in self.mro(cls) for key in c.methods.values()  # type: ignore[attr-defined]
                         for callee, _line in self.functions[key].calls  # type: ignore[attr-defined]
                         if len(parts := callee.split(".")) == 3 and parts[0] == "self" and parts[2] in MODULE_ONLY_API)

    def _trains_below(self, fn: FunctionInfo) -> bool:
        """`fn`, or a project function it calls up to MAX_HANDLER_HOPS calls down (any edge, a method's name alone
        too: leaving a root out is the safe side), runs a backward pass: a training loop whose update lives in the
        agent it holds (`train -> self.agent.update -> _update: loss.backward()`) is no inference API."""
        level, seen = [fn], {fn.key}
        for _hop in range(MAX_HANDLER_HOPS + 1):
            if any(trains(f) for f in level):
                return True
            level = [t for f in level for callee, _line in f.calls for t, _how in self.call_edges(f, f.module, callee)  # type: ignore[attr-defined]
                     if t.key not in seen and not seen.add(t.key)]
        return False

    def _own_callees(self, fn: FunctionInfo, hops: int = MAX_HANDLER_HOPS) -> list[FunctionInfo]:
        """`fn` and the methods of its own object it calls, up to `hops` calls down (`self._predict(..)`), resolved by
        what the receiver is, nearest first."""
        level, seen, out = [fn], {fn.key}, [fn]
        keys = {c.key for c in self.mro(self.classes[fn.class_key])} if fn.class_key else set()  # type: ignore[attr-defined]
        for _hop in range(hops):
            level = [t for f in level for callee, _line in f.calls if callee.startswith("self.")
                     for t, how in self.call_edges(f, f.module, callee)  # type: ignore[attr-defined]
                     if not how and t.class_key in keys and t.key not in seen and not seen.add(t.key)]
            out += level
        return out

    def _runs_held_model(self, fn: FunctionInfo, model: set[str], placed: frozenset[str]) -> bool:
        """`fn` calls a model held in a field of its object (`self.x(..)`, `self.x.forward(..)`, `self.x.part(..)`):
        one whose call resolves to a model entry (`_runs_model`), one `_held_module` / `_model_receivers` shows to
        be a module, or a field that holds a module (`placed`: `_module_fields`) with a call of a method of its own
        (`self.codec.decode_code(codes)`, `self.policy.select_action(obs)`; `self.model.state_dict()` runs nothing).
        An item of a field called (`self.models["decoder"](z)`, `self.models[]`) is such a call where the same tests
        show the item a module: a pipeline keeping its models in a dict runs one per call of an item."""
        receivers = self._model_receivers(fn)  # type: ignore[attr-defined]
        for callee, _line in fn.calls:
            parts = callee.split(".")
            if parts[0] != "self" or len(parts) < 2 or "(" in callee or "[" in callee and not _item_call(parts):
                continue
            if self._runs_model(fn, fn, callee, receivers, model, False) or self._held_module(fn, callee):  # type: ignore[attr-defined]
                return True
            if parts[1] in placed and (len(parts) == 2 or len(parts) == 3 and parts[2] not in MODULE_METHOD_NAMES):
                return True
        return False

    def _hands_held_model(self, fn: FunctionInfo) -> str | None:
        """The project function `fn` hands a field of its object that holds a module to, where that function calls the
        parameter it fills (groundingdino's `predict(model=self.model, image=x)`, whose `model(image[None])` runs the
        held model), as `self.model(x)` in `fn` would: its display; None for none. The field's classes are all project
        modules or a project factory's module of unknown class (`_holds_module`: a tokenizer, a project callable is no
        model); only a callee the call resolves by name (`predict`, not a method named so on an unknown receiver), one
        hop."""
        for desc, _line, pos, kws in fn.call_args:
            handed = {**{str(i): k for i, k in enumerate(pos) if isinstance(k, SelfField)},
                      **{name: k for name, k in kws if isinstance(k, SelfField)}}
            if not handed:
                continue
            for target, how in self.call_edges(fn, fn.module, desc):  # type: ignore[attr-defined]
                if how or target.class_key and target.class_key == fn.class_key:
                    continue  # (found by a method's name alone; its own method: `_own_callees`)
                called = {callee.rpartition(".")[0] if callee.endswith(".forward") else callee
                          for callee, _line in target.calls}
                for param in target.params:
                    kinds = [handed[slot] for slot in self._slots(target, desc, param) if slot in handed]  # type: ignore[attr-defined]
                    if kinds and f"{target.module}.{param}" in called \
                            and any(self._holds_module(fn, kind) for kind in kinds):
                        return target.display
        return None

    def _holds_module(self, fn: FunctionInfo, kind: SelfField) -> bool:
        """The field `kind` names of `fn`'s object holds a module: all its classes are project modules
        (`_module_classes`), or it is one of the model fields a call of which runs the model (`_typed_models`: a
        library model, a project factory's module of unknown class such as groundingdino's `load_model`, whose
        `build_model(args)` registry lies outside the tree, `load_state_dict`-ed and `eval()`-ed)."""
        return bool(self._module_classes(fn, kind)) or f"self.{kind.name}" in self._typed_models(fn)  # type: ignore[attr-defined]

    def _queue_workers(self, model: frozenset[str], reached: Container[str]) -> Iterator[tuple[FunctionInfo, str]]:
        """What a worker's queue loop hands each item to: a loop that takes items off a queue (`FunctionInfo.
        queue_takes`: `item = self.queue_in.get(timeout=0.1)`) and calls, in that loop, a function resolved by what the
        receiver is (`self.process(item)`: each subclass's override) runs one request per item, as a servicer's
        handler does; the thread is started by code the tree may not hold, so nothing in it calls the loop. Only a
        callee that runs inference a few calls down (`_infers_below`) is a root: a logging or file-writing worker's
        handler, a training step, warm-up, and the loop's own bookkeeping stay cold."""
        seen: set[str] = set()
        for fn in self.functions.values():  # type: ignore[attr-defined]
            spans = [s for s in fn.loops if any(s[0] <= line <= s[1] for line in fn.queue_takes)]
            for target, _how in self._resolved_in(fn, spans) if spans else ():  # type: ignore[attr-defined]
                if target.key in seen or target.key in reached or target.key == fn.key:
                    continue
                seen.add(target.key)
                if not trains(target) and not self._warms_up(target) \
                        and self._infers_below(target, model, reached):  # type: ignore[attr-defined]
                    yield target, f"{target.display} (request: {fn.display} takes each item off a queue)"

    def _infers_below(self, fn: FunctionInfo, model: frozenset[str], reached: Container[str],
                      gradless_deep: bool = True) -> bool:
        """`fn`, or a project function it calls up to MAX_HANDLER_HOPS calls down (resolved by what the receiver is:
        `process -> self._generate`, a subclass's override), runs inference (`_infers`) or a generation
        (`_drives_steps`). Without `gradless_deep`, a callee's `no_grad` alone is no inference: only `fn`'s own."""
        level, seen = [fn], {fn.key}
        for hop in range(MAX_HANDLER_HOPS + 1):
            if any(self._infers(f, model, gradless=gradless_deep or hop == 0)
                   or any(self._drives_steps(f, callee, reached)  # type: ignore[attr-defined]
                          for callee, _line in f.calls) for f in level):
                return True
            level = [t for f in level for t, _how in self._resolved_in(f, [(f.lineno, f.end_lineno)])  # type: ignore[attr-defined]
                     if t.key not in seen and not seen.add(t.key)]
        return False

    def _infers(self, fn: FunctionInfo, model: frozenset[str], gradless: bool = True) -> bool:
        """`fn` runs with autograd off somewhere (where `gradless` counts), or enters the model."""
        return gradless and bool(fn.gradless) or self._enters_model(fn, [(fn.lineno, fn.end_lineno)], set(model))  # type: ignore[attr-defined]

    def _serves_inference(self, fn: FunctionInfo, model: frozenset[str]) -> bool:
        """`fn`, or a method of its own object it calls up to MAX_HANDLER_HOPS calls down (`GetActions ->
        _predict_action_chunk -> _get_action_chunk`), runs inference (`_infers`) or calls an object its class holds
        as a model (`self.model(ids)`: `_held_module`, `_model_receivers`). A servicer hands the work to helpers of
        its own; a key-value transfer, metrics or cache service calls none."""
        level, seen = [fn], {fn.key}
        cls = self.classes.get(fn.class_key or "")  # type: ignore[attr-defined]
        placed = self._placed_attrs(cls) if cls is not None else frozenset()
        for _hop in range(MAX_HANDLER_HOPS + 1):
            if any(self._runs_model_here(f, model, placed) for f in level):
                return True
            level = [t for f in level for callee, _line in f.calls if callee.startswith("self.")
                     for t, how in self.call_edges(f, f.module, callee)  # type: ignore[attr-defined]
                     if not how and t.class_key == fn.class_key and t.key not in seen and not seen.add(t.key)]
        return False

    def _runs_model_here(self, fn: FunctionInfo, model: frozenset[str], placed: frozenset[str]) -> bool:
        """`fn` itself runs inference or calls a model its object holds (`_serves_inference`): one the index types
        (`_held_module`, `_model_receivers`), an object it calls (`self.model(ids, cache)`: no method of the class),
        or one its class places on a device (`placed`) and `fn` calls a method of (`self.policy.predict(obs)` after
        `self.policy.to(self.device)`)."""
        if self._infers(fn, model):
            return True
        cls = self.classes.get(fn.class_key or "")  # type: ignore[attr-defined]
        receivers = self._model_receivers(fn)  # type: ignore[attr-defined]
        for callee, _line in fn.calls:
            parts = callee.split(".")
            if self._held_module(fn, callee) or callee.removesuffix(".forward") in receivers:  # type: ignore[attr-defined]
                return True
            if cls is not None and parts[0] == "self" and len(parts) >= 2 and self.method(cls, parts[1]) is None \
                    and (len(parts) == 2 or len(parts) == 3 and parts[1] in placed and parts[2] not in DEVICE_MOVES):  # type: ignore[attr-defined]
                return True
        return False

    def _placed_attrs(self, cls: ClassInfo) -> frozenset[str]:
        """The attributes of `cls` some method of it moves to a device whole (`self.policy.to(self.device)`)."""
        return frozenset(parts[1] for c in self.mro(cls) for key in c.methods.values()  # type: ignore[attr-defined]
                         for callee, _line in self.functions[key].calls  # type: ignore[attr-defined]
                         if len(parts := callee.split(".")) == 3 and parts[0] == "self" and parts[2] in DEVICE_MOVES)

    def _rpc_handlers(self, cls: ClassInfo, reached: Container[str]) -> Iterator[tuple[FunctionInfo, str]]:
        """The methods of `cls` a gRPC server or an rpyc server calls per remote call, and why; nothing for any
        other class, nor for one with a method already reached: where the index sees a servicer's step (TGI's
        `Decode` replaying a graph), `_rpc_step_handlers` tells its other handlers by the step's state, and
        `ClearCache` stays cold. Only methods `cls` itself defines: a project base's are its own class's business."""
        own = [(name, fn) for name, key in cls.methods.items() if (fn := self.functions.get(key)) is not None  # type: ignore[attr-defined]
               and fn.parent_key is None and not fn.abstract and not fn.is_property and not name.startswith("__")]
        if any(fn.key in reached for _name, fn in own):
            return
        bases = [base for c in self.mro(cls) for base in c.bases]  # type: ignore[attr-defined]
        generated = _grpc_bases(bases)
        if generated:
            held = [c for base in generated if (c := self.class_by_dotted(base)) is not None]  # type: ignore[attr-defined]
            rpcs = {name for c in held for name in c.methods} if held else None
            for name, fn in own:
                if (name in rpcs) if rpcs is not None else not name.startswith("_"):
                    yield fn, "gRPC calls a servicer's method per remote call"
        elif RPYC_SERVICES.intersection(bases):
            for name, fn in own:
                if name.startswith(RPYC_EXPOSED):
                    yield fn, f"rpyc runs {name} per remote call of {name[len(RPYC_EXPOSED):]}"

    def _handled(self, cls: ClassInfo) -> tuple[tuple[str, ...], str]:
        """The methods of `cls` its framework calls per request, and why; nothing for any other class."""
        imports = self.class_files[cls.key].imports.values()  # type: ignore[attr-defined]
        if cls.qualname == TRITON_MODEL_CLASS and any(ref.partition(".")[0] == TRITON_BACKEND_MODULE for ref in imports):
            return ("execute",), "Triton's Python backend calls execute per batch of requests"
        bases = {base for c in self.mro(cls) for base in c.bases}  # type: ignore[attr-defined]
        if bases & set(RESOURCE_BASES):
            return HTTP_VERBS, "Flask-RESTful calls a Resource's HTTP verb method per request"
        return (), ""


def _grpc_bases(bases: list[str]) -> list[str]:
    """The bases among `bases` that a gRPC service's generated module defines (`*_pb2_grpc.*Servicer`)."""
    return [base for base in bases if base.rpartition(".")[0].endswith(GRPC_MODULE_SUFFIX)
            and base.rpartition(".")[2].endswith("Servicer")]


def _item_call(parts: list[str]) -> bool:
    """`parts` (a callee split on dots) calls an item of a field of `self` itself (`self.models[]`,
    `self.models[].forward`), not a method of its own (`self.models[].state_dict`) nor a deeper item."""
    return len(parts) in (2, 3) and parts[1].endswith("[]") and parts[1].count("[") == 1 \
        and parts[2:] in ([], ["forward"])
