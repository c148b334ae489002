"""Glue for the `graphlint` CLI (graphlint/cli.py owns the argument parsing).

    graphlint capture module:factory     -> capture_command(...)
    graphlint --runtime-report r.json    -> load_runtime_report(path) + cross_check(static, report)

The factory is called with no arguments and returns the case to check:
    CaptureCase(step, static_inputs, next_inputs)            (graphlint.runtime.CaptureCase)
    (step, static_inputs, next_inputs) or (step, static_inputs)
    {"step": ..., "static_inputs": ..., "next_inputs": ..., "tolerance": ..., "replays": ...}
`module` is a dotted module name importable from the current directory or a path to a .py file;
`factory` may be dotted (`Class.method`).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from typing import Any, Callable, TextIO

from graphlint.diagnostics import Finding
from graphlint.runtime.crosscheck import cross_check
from graphlint.runtime.report import RuntimeReport

EXIT_OK, EXIT_PROBLEMS, EXIT_BAD_TARGET = 0, 1, 2

__all__ = ["capture_command", "load_runtime_report", "cross_check", "resolve_factory", "TargetError"]


class TargetError(Exception):
    """The module:factory target cannot produce a case; the message says why."""


def _import_module(spec: str) -> Any:
    if spec.endswith(".py") or os.sep in spec or "/" in spec:
        path = os.path.abspath(spec)
        if not os.path.isfile(path):
            raise TargetError(f"no such file: {spec}")
        name = "_graphlint_target_" + os.path.splitext(os.path.basename(path))[0]
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise TargetError(f"cannot import {spec}")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module
        loader_spec.loader.exec_module(module)
        return module
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # like `python -m`: the current directory is importable
    return importlib.import_module(spec)


def resolve_factory(target: str) -> Callable[[], Any]:
    """The callable named by "module:factory"; TargetError with a reason otherwise."""
    module_name, sep, attr = target.rpartition(":")
    if not sep or not module_name or not attr:
        raise TargetError(f"target must look like module:factory, got {target!r}")
    try:
        obj = _import_module(module_name)
    except TargetError:
        raise
    except Exception as e:  # noqa: BLE001 - any import failure is a bad target
        raise TargetError(f"cannot import {module_name!r}: {type(e).__name__}: {e}") from e
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise TargetError(f"{module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise TargetError(f"{target} is not callable")
    return obj


def _cuda_problem() -> str | None:
    try:
        import torch
    except Exception as e:  # noqa: BLE001
        return f"needs PyTorch with CUDA; importing torch failed: {e}"
    if not torch.cuda.is_available():
        return f"needs a CUDA GPU; torch {torch.__version__} sees none"
    return None


def _render(findings: list[Finding], fmt: str, stream: TextIO) -> None:
    """graphlint.output's renderer; concise lines when it cannot load (GPU machines may lack the
    static linter's dependencies, which some formats look rule metadata up in)."""
    try:
        from graphlint.output import render

        render(findings, fmt, stream)
    except ImportError as e:
        stream.write(f"note: format {fmt!r} unavailable ({e}); printing concise lines\n")
        for f in findings:
            stream.write(f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}\n")


def capture_command(
    target: str,
    *,
    output_format: str,
    tolerance: float | None,
    replays: int,
    stream: TextIO,
    report_path: str | None = None,
    err: TextIO | None = None,
) -> int:
    """Run the harness on target; 0 = captured clean and every replay matched, 1 = problems,
    2 = bad target (or no CUDA to check with). Writes the JSON report to report_path if given."""
    from graphlint.runtime.capture import CaseError, as_case, run_case

    err = err or sys.stderr
    try:
        factory = resolve_factory(target)
    except TargetError as e:
        err.write(f"graphlint capture: {e}\n")
        return EXIT_BAD_TARGET
    problem = _cuda_problem()
    if problem:
        err.write(f"graphlint capture: {problem}\n")
        return EXIT_BAD_TARGET
    try:
        case = as_case(factory(), name=target)
    except CaseError as e:
        err.write(f"graphlint capture: {target}: {e}\n")
        return EXIT_BAD_TARGET
    except Exception as e:  # noqa: BLE001 - the factory itself failed
        err.write(f"graphlint capture: {target}: the factory raised {type(e).__name__}: {e}\n")
        return EXIT_BAD_TARGET
    report = run_case(case, tolerance=tolerance, replays=replays)
    if report_path:
        report.to_json(report_path)
    _render(report.findings, output_format, stream)
    if output_format in ("concise", "full"):
        stream.write(report.summary() + "\n")
        for note in report.notes:
            stream.write(f"note: {note}\n")
    return EXIT_OK if report.ok else EXIT_PROBLEMS


def load_runtime_report(path: str | os.PathLike) -> RuntimeReport:
    """Read a report written by RuntimeReport.to_json; ValueError when it is not one."""
    return RuntimeReport.from_json(path)
