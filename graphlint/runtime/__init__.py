"""graphlint's runtime half: prove on a real GPU that a step captures and replays like eager.

Import-light: nothing here imports torch (or libcst) at import time; torch is imported inside the
functions that need it. See docs/runtime.md.
"""

from __future__ import annotations

from graphlint.runtime.buckets import BucketedGraphRunner, pick_bucket
from graphlint.runtime.capture import CaptureCase, CaseError, as_case, check_capture, run_case
from graphlint.runtime.codes import RUNTIME_CODES, RuntimeCode
from graphlint.runtime.compare import Mismatch, compare_outputs, compare_tensors
from graphlint.runtime.crosscheck import cross_check
from graphlint.runtime.probe import Probe
from graphlint.runtime.report import ReplayResult, RuntimeReport

__all__ = [
    "BucketedGraphRunner",
    "CaptureCase",
    "CaseError",
    "Mismatch",
    "Probe",
    "RUNTIME_CODES",
    "ReplayResult",
    "RuntimeCode",
    "RuntimeReport",
    "as_case",
    "check_capture",
    "compare_outputs",
    "compare_tensors",
    "cross_check",
    "pick_bucket",
    "run_case",
]
