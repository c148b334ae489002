"""The rule catalog: one module per family, collected here in code order."""

from __future__ import annotations

import importlib
import inspect

from graphlint.rules.base import Fix, Rule

FAMILY_MODULES = (
    "meta", "transfers", "control_flow", "shapes", "host_data", "sync", "builtin_reads", "capture", "frozen",
    "growing_state", "perf",
)


def _collect() -> list[type[Rule]]:
    rules: list[type[Rule]] = []
    for name in FAMILY_MODULES:
        try:
            mod = importlib.import_module(f"graphlint.rules.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"graphlint.rules.{name}":
                continue
            raise
        for obj in vars(mod).values():
            if inspect.isclass(obj) and issubclass(obj, Rule) and hasattr(obj, "code") and obj.__module__ == mod.__name__:
                rules.append(obj)
    rules.sort(key=lambda r: r.code)
    codes = [r.code for r in rules]
    dupes = {c for c in codes if codes.count(c) > 1}
    if dupes:
        raise RuntimeError(f"duplicate rule codes: {sorted(dupes)}")
    return rules


ALL_RULES: list[type[Rule]] = _collect()
RULES_BY_CODE: dict[str, type[Rule]] = {r.code: r for r in ALL_RULES}

__all__ = ["ALL_RULES", "RULES_BY_CODE", "Rule", "Fix"]
