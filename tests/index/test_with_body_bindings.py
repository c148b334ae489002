"""A `with` body runs to its end before the statements below the `with` (graphlint.facts.callsite `runs_through`,
`straight_line`): its bindings decide the reads after it as the enclosing block's own would, so a caller's local
bound under `torch.no_grad()` / `autocast()` and rebound by the call's own result (`pred = nms(pred)`) passes what
the `with` body bound. Decoys: a `contextlib.suppress` body (a raising statement skips the binding), a binding in an
`if` inside the `with`, and a `with` in one arm of an `if`."""

from __future__ import annotations

import textwrap

from graphlint.facts.kinds import CPU_TENSOR, TENSOR, IKind
from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source


def _params(src: str, name: str = "nms") -> dict[str, IKind]:
    index = ProjectIndex([index_source(textwrap.dedent(src), "pkg/m.py", "pkg.m", False)])
    fn = next(f for f in index.functions.values() if f.qualname == name)
    return index.call_facts.params(fn)


HELPER = """
    import contextlib

    import torch


    def nms(prediction, conf=0.25):
        out = [torch.zeros((0, 6), device=prediction.device)] * prediction.shape[0]
        return out


    def classify(pred):
        return pred

"""


def _loop(body: str) -> str:
    return HELPER + textwrap.indent(textwrap.dedent(body), "    ")


def test_a_with_body_in_a_loop_decides_the_call_below_that_rebinds_the_name():
    src = _loop("""
        def detect(loader, flag):
            for img in loader:
                with torch.no_grad():
                    pred = MADE
                pred = nms(pred, 0.3)
                if flag:
                    pred = classify(pred)
    """)
    assert _params(src.replace("MADE", 'torch.randn(1, 9, 6, device="cuda")'))["prediction"] == TENSOR
    assert _params(src.replace("MADE", "torch.randn(1, 9, 6)"))["prediction"] == CPU_TENSOR


def test_a_with_body_at_the_top_level_decides_the_call_below():
    src = _loop("""
        def detect(img):
            pred = torch.randn(1, 9, 6)
            with torch.autocast("cuda"):
                pred = torch.randn(1, 9, 6, device="cuda")
            pred = nms(pred)
            return pred
    """)
    assert _params(src)["prediction"] == TENSOR


def test_nested_withs_and_a_tuple_target_decide_the_call_below():
    src = _loop("""
        def detect(loader):
            for img in loader:
                with torch.no_grad():
                    with torch.autocast("cuda"):
                        pred, aux = torch.randn(1, 9, 6, device="cuda"), None
                pred = nms(pred)
    """)
    assert _params(src)["prediction"] == TENSOR


def test_decoy_a_suppress_body_may_skip_its_binding():
    src = _loop("""
        def detect(loader):
            for img in loader:
                pred = torch.randn(1, 9, 6)
                with contextlib.suppress(RuntimeError):
                    pred = torch.randn(1, 9, 6, device="cuda")
                pred = nms(pred)
    """)
    assert "prediction" not in _params(src)


def test_decoy_a_binding_in_an_if_inside_the_with_does_not_decide():
    src = _loop("""
        def detect(loader, flag):
            for img in loader:
                pred = torch.randn(1, 9, 6)
                with torch.no_grad():
                    if flag:
                        pred = torch.randn(1, 9, 6, device="cuda")
                pred = nms(pred)
    """)
    assert "prediction" not in _params(src)


def test_decoy_a_with_in_one_arm_of_an_if_does_not_decide():
    src = _loop("""
        def detect(loader, flag):
            for img in loader:
                pred = torch.randn(1, 9, 6)
                if flag:
                    with torch.no_grad():
                        pred = torch.randn(1, 9, 6, device="cuda")
                pred = nms(pred)
    """)
    assert "prediction" not in _params(src)
