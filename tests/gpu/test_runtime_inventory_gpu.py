"""Sync inventories on a real GPU: HF DeepseekV4ForCausalLM decode and examples/dsv4_naive_step.py.

docs/runtime.md ("Sync inventories of two decode steps") publishes what these tests print. With GRAPHLINT_GPU_OUT=<dir>
each report is appended to <dir>/reports.jsonl and its inventory table written to <dir>/inventory_<name>.md.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import torch

from graphlint.runtime import RuntimeReport, run_case

pytestmark = pytest.mark.cuda
if not torch.cuda.is_available():
    pytest.skip("needs a CUDA GPU", allow_module_level=True)

import inventory_cases  # noqa: E402  (tests/gpu is on sys.path: pytest's rootdir import mode)
from test_runtime_gpu import _dump  # noqa: E402

NAIVE = Path(inventory_cases.ROOT, "examples", "dsv4_naive_step.py")
CAPTURE_FAILED = {"GLR201", "GLR202", "GLR203", "GLR204"}


def _short(path: str) -> str:
    """site-packages/transformers/x.py -> transformers/x.py; repo files relative to the repo."""
    p = path.replace(os.sep, "/")
    if "site-packages/" in p:
        return p.split("site-packages/", 1)[1]
    root = str(inventory_cases.ROOT).replace(os.sep, "/") + "/"
    return p[len(root):] if p.startswith(root) else p


def inventory_table(report: RuntimeReport) -> str:
    """The report as the markdown table docs/runtime.md shows."""
    rows = ["| code | where | op | times | source |", "|---|---|---|---|---|"]
    for f in sorted(report.findings, key=lambda f: (_short(f.path), f.line, f.code)):
        op = f.extra.get("op", "")
        src = str(f.extra.get("source", "")).replace("|", "\\|")
        rows.append(f"| {f.code} | `{_short(f.path)}:{f.line}` | {op} | {f.extra.get('count', '')} | `{src}` |")
    return "\n".join(rows)


def _publish(name: str, report: RuntimeReport) -> None:
    _dump(name, report)
    table = f"{report.summary()}\n\n{inventory_table(report)}\n"
    print(table)
    out = os.environ.get("GRAPHLINT_GPU_OUT")
    if out:
        Path(out, f"inventory_{name}.md").write_text(table, encoding="utf-8")


def test_hf_deepseek_v4_decode_inventory():
    pytest.importorskip("transformers", minversion="5.8")
    report = run_case(inventory_cases.hf_decode())
    _publish("hf", report)
    assert report.captured is False
    alloc = [f for f in report.findings if f.code == "GLR402" and f.path.endswith("transformers/masking_utils.py")]
    assert len(alloc) == 1 and "torch.tensor(0.0, device=mask.device" in alloc[0].extra["source"], alloc
    refused = [f for f in report.findings if f.code in CAPTURE_FAILED]
    assert len(refused) == 1, refused
    assert (refused[0].code, refused[0].path, refused[0].line) == ("GLR202", alloc[0].path, alloc[0].line)


def _expected_sync_lines() -> dict[int, str]:
    """Lines of the naive step whose `expect:` comment names a host-sync rule (GL1xx)."""
    found = {}
    for n, text in enumerate(NAIVE.read_text(encoding="utf-8").splitlines(), 1):
        m = re.search(r"# expect: (.*)$", text)
        if m and re.search(r"\bGL1\d\d\b", m.group(1)):
            found[n] = m.group(1)
    return found


def test_dsv4_naive_step_inventory():
    report = run_case(inventory_cases.naive_decode())
    _publish("naive", report)
    assert report.captured is False
    here = [f for f in report.findings if Path(f.path).resolve() == NAIVE.resolve()]
    runtime_lines = {f.line for f in here if f.code[:4] in ("GLR1", "GLR4")}
    expected = _expected_sync_lines()
    missed = {n: codes for n, codes in expected.items() if n not in runtime_lines}
    assert not missed, f"static GL1xx lines the runtime inventory did not see: {missed}"
    (refused,) = [f for f in report.findings if f.code in CAPTURE_FAILED]
    assert refused.line in runtime_lines  # capture stops at the first of the inventoried syncs
