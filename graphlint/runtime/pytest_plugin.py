"""pytest plugin (entry point `pytest11: graphlint`): gate commits on the capture test.

    def test_decode_step_captures(capture_check):
        capture_check(model.decode_step, static_inputs, next_inputs)   # fails with the findings

    @pytest.mark.graphlint_capture(replays=5, tolerance=None)
    def test_other(capture_check): ...

The marker skips the test when CUDA is absent and gives the fixture its defaults; the fixture skips on
its own too. Importing this module imports neither torch nor CUDA: pytest loads it in every run.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import pytest

MARKER = "graphlint_capture"


def cuda_skip_reason() -> str | None:
    """Why capture tests cannot run here, or None when a CUDA GPU is usable."""
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - a broken torch install is a reason to skip too
        return f"graphlint capture check needs a CUDA GPU: torch is not importable ({e})"
    if not torch.cuda.is_available():
        built = "built with CUDA" if torch.version.cuda else "built without CUDA"
        return (
            f"graphlint capture check needs a CUDA GPU: torch {torch.__version__} ({built}) "
            "sees no device"
        )
    return None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(tolerance=None, replays=3, warmup=2): a CUDA-graph capture test run with the "
        "capture_check fixture; skipped when no CUDA GPU is present",
    )


@pytest.hookimpl(tryfirst=True)  # before the CUDA skips (ours and conftest's): a typo errors on CPU too
def pytest_runtest_setup(item: pytest.Item) -> None:
    marker = item.get_closest_marker(MARKER)
    if marker is None:
        return
    problem = marker_problem(marker.args, marker.kwargs)
    if problem:
        pytest.fail(f"@pytest.mark.{MARKER}: {problem}", pytrace=False)
    reason = cuda_skip_reason()
    if reason:
        pytest.skip(reason)


def _is_count(v: Any, low: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= low


# option -> (check, what it must be)
OPTIONS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "tolerance": (lambda v: v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0),
                  "None (bitwise) or a number >= 0"),
    "replays": (lambda v: _is_count(v, 1), "an int >= 1"),
    "warmup": (lambda v: _is_count(v, 0), "an int >= 0"),
    "confirm_error": (lambda v: isinstance(v, bool), "True or False"),
}


def marker_problem(args: tuple, kwargs: dict[str, Any]) -> str | None:
    """Why the marker's arguments are wrong, or None: an unknown option is a typo, not a default."""
    if args:
        return f"takes keyword options only ({', '.join(OPTIONS)}), got positional {args!r}"
    unknown = sorted(set(kwargs) - set(OPTIONS))
    if unknown:
        return f"unknown option(s) {', '.join(unknown)}; allowed: {', '.join(OPTIONS)}"
    for name, value in kwargs.items():
        check, expected = OPTIONS[name]
        if not check(value):
            return f"{name} must be {expected}, got {value!r}"
    return None


def _marker_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    marker = request.node.get_closest_marker(MARKER)
    return dict(marker.kwargs) if marker is not None else {}


def format_failure(report: Any) -> str:
    """The report as a test-failure message: one line per finding, then the summary."""
    lines = [report.summary()]
    for f in report.findings:
        lines.append(f"  {f.path}:{f.line}:{f.column}: {f.code} [{f.name}] {f.message}")
        if f.via:
            lines.append("      via " + " -> ".join(f.via))
    lines += [f"  note: {n}" for n in report.notes]
    return "\n".join(lines)


@pytest.fixture
def capture_check(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """A function (step, static_inputs, next_inputs=(), **options) -> RuntimeReport that fails the
    test unless the step captures clean and every replay equals eager. Pass expect_ok=False to get
    the report back without failing (to assert on specific findings)."""
    reason = cuda_skip_reason()
    if reason:
        pytest.skip(reason)
    defaults = _marker_options(request)

    def check(
        step: Callable[..., Any],
        static_inputs: Sequence[Any],
        next_inputs: Sequence[Sequence[Any]] = (),
        *,
        expect_ok: bool = True,
        **options: Any,
    ) -> Any:
        from graphlint.runtime.capture import check_capture

        report = check_capture(step, static_inputs, next_inputs, **{**defaults, **options})
        if expect_ok and not report.ok:
            pytest.fail(format_failure(report), pytrace=False)
        return report

    return check
