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


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker(MARKER) is not None:
        reason = cuda_skip_reason()
        if reason:
            pytest.skip(reason)


def _marker_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    marker = request.node.get_closest_marker(MARKER)
    if marker is None:
        return {}
    allowed = {"tolerance", "replays", "warmup", "confirm_error"}
    unknown = set(marker.kwargs) - allowed
    if unknown:
        raise pytest.UsageError(f"@{MARKER}: unknown option(s) {sorted(unknown)}; allowed {sorted(allowed)}")
    return dict(marker.kwargs)


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
