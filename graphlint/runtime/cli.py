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
import json
import os
import sys
from typing import Any, Callable, TextIO

from graphlint.diagnostics import Finding
from graphlint.runtime.crosscheck import cross_check
from graphlint.runtime.report import RuntimeReport

EXIT_OK, EXIT_PROBLEMS, EXIT_BAD_TARGET = 0, 1, 2

__all__ = [
    "capture_command", "load_runtime_report", "cross_check", "resolve_factory", "TargetError", "write_error",
]


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
    """graphlint.report.output's renderer; concise lines when it cannot load (GPU machines may lack the
    static linter's dependencies, which some formats look rule metadata up in)."""
    try:
        from graphlint.report.output import render

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
    replays: int | None,
    stream: TextIO,
    report_path: str | None = None,
    err: TextIO | None = None,
) -> int:
    """Run the harness on target; 0 = captured clean and every replay matched, 1 = problems,
    2 = bad target, no CUDA to check with, or an internal error. Writes the JSON report to
    report_path if given. An exit 2 prints one `graphlint: error:` line on `err` and, in the
    machine formats, an error document on `stream` (never nothing)."""
    err = err or sys.stderr
    try:
        report = _run_target(target, tolerance, replays)
        if report_path:
            report.to_json(report_path)
    except TargetError as e:
        return write_error(str(e), output_format, stream, err)
    except OSError as e:  # the report file
        message = f"cannot write the runtime report {report_path}: {e.strerror or e}"
        return write_error(message, output_format, stream, err)
    _render(report.findings, output_format, stream)
    if output_format in ("concise", "full"):
        stream.write(report.summary() + "\n")
        for note in report.notes:
            stream.write(f"note: {note}\n")
    return EXIT_OK if report.ok else EXIT_PROBLEMS


def _run_target(target: str, tolerance: float | None, replays: int | None) -> RuntimeReport:
    """Resolve, build and check the case; TargetError says why it could not be checked."""
    from graphlint.runtime.capture import CaseError, as_case, run_case

    factory = resolve_factory(target)
    problem = _cuda_problem()
    if problem:
        raise TargetError(problem)
    try:
        case = as_case(factory(), name=target)
    except CaseError as e:
        raise TargetError(f"{target}: {e}") from e
    except Exception as e:  # noqa: BLE001 - the factory itself failed
        raise TargetError(f"{target}: the factory raised {type(e).__name__}: {e}") from e
    try:
        return run_case(case, tolerance=tolerance, replays=replays)
    except Exception as e:  # noqa: BLE001 - a harness bug is an internal error (exit 2), never exit 1
        raise TargetError(f"internal error in the capture harness on {target}: {type(e).__name__}: {e}") from e


def write_error(message: str, output_format: str, stream: TextIO, err: TextIO | None = None) -> int:
    """Report a `graphlint capture` error: one line on err; in json, sarif and github formats also
    a document on stream, so a consumer parsing stdout always gets one. Returns exit code 2."""
    line = " ".join(message.split())
    (err or sys.stderr).write(f"graphlint: error: {line}\n")
    if output_format == "json":
        json.dump({"error": line, "exit_code": EXIT_BAD_TARGET}, stream)
        stream.write("\n")
    elif output_format == "sarif":
        json.dump(_sarif_error(line), stream, indent=2)
        stream.write("\n")
    elif output_format == "github":  # one line already: only % needs escaping in workflow data
        stream.write(f"::error title=graphlint capture::{line.replace('%', '%25')}\n")
    return EXIT_BAD_TARGET


def _sarif_error(message: str) -> dict:
    """An empty SARIF run whose invocation failed, with the reason as a tool notification."""
    try:
        from graphlint.report.output import build_sarif

        log = build_sarif([])
    except ImportError:  # the static linter's dependencies are missing on this machine
        log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "graphlint"}}, "results": []}]}
    log["runs"][0]["invocations"] = [{
        "executionSuccessful": False,
        "exitCode": EXIT_BAD_TARGET,
        "toolExecutionNotifications": [{"level": "error", "message": {"text": message}}],
    }]
    return log


def load_runtime_report(path: str | os.PathLike) -> RuntimeReport:
    """Read a report written by RuntimeReport.to_json; ValueError when it is not one."""
    return RuntimeReport.from_json(path)
