"""Library factories that return an instance of a class the project hands them: one table, read where a call's
result is typed (`facts.callsite.expr_kind` for a local, `index.assigned.built_by` for a global, a class attribute or
another object's field). The value is then what constructing that class is (`Cls(...)`), so calling a method on it
runs the project class's method.

- tyro's `cli(Cls, args=..)` parses the command line into the class it is handed (a dataclass, or any class whose
  `__init__` it reads) and returns the instance: metavoice's `TTS_MODEL = tyro.cli(TTS, ..)`.
- SwissArmyTransformer's `get_model(args, model_cls)` builds `model_cls(args)`, loads and places it:
  CogVideoX's `model = get_model(args, SATVideoDiffusionEngine)`.
"""

from __future__ import annotations

import ast

# resolved dotted name of the factory -> the position of the class argument
ARGUMENT_INSTANCES: dict[str, int] = {
    "tyro.cli": 0,
    "sat.model.base_model.get_model": 1,
    "sat.model.get_model": 1,
    "sat.get_model": 1,
}


def instance_argument(qual: str | None, call: ast.Call) -> ast.expr | None:
    """The class argument of a call of the library factory `qual` (`ARGUMENT_INSTANCES`), positional or by the
    keyword tyro and sat name it (`f`, `model_cls`); None for any other call."""
    pos = ARGUMENT_INSTANCES.get(qual or "")
    if pos is None:
        return None
    if len(call.args) > pos and not isinstance(call.args[pos], ast.Starred):
        return call.args[pos]
    return next((kw.value for kw in call.keywords if kw.arg in ("f", "model_cls")), None)
