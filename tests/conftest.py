"""Shared pytest configuration: CUDA-only tests skip cleanly on machines without a GPU."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

SCHEMAS = Path(__file__).parent / "fixtures" / "schemas"


def _fuzz_profiles() -> None:
    """Hypothesis budgets (tests/test_fuzz.py scales its examples by max_examples; docs/testing.md).
    `ci`, the default: derandomized, so a CI failure reproduces, and half the nominal budget (max_examples=50),
    which keeps CI's fuzzing to ~40 s of a worker; `nightly`: 40x the ci examples, random.
    The GPU machine runs `pytest -m cuda` without the dev extra: no hypothesis there, no fuzzing."""
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:
        return
    fuzz = dict(deadline=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    settings.register_profile("ci", max_examples=50, derandomize=True, database=None, **fuzz)
    settings.register_profile("nightly", max_examples=2000, **fuzz)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


_fuzz_profiles()


def _cuda_available() -> bool:
    try:
        import torch
    except Exception:
        return False
    return torch.cuda.is_available()


# The files that take longest on CPU (interpreter kernels, the HF stream, pre-commit's virtualenv, fuzzing), longest
# first. `--dist loadfile --no-loadscope-reorder` (pyproject) hands whole files to the xdist workers in collection
# order; these go first, so that none of them starts last and runs alone while the other worker idles (xdist's own
# reorder, by test count, sent the 4-test test_model_hf_kernels.py, ~490 s of one worker, and the pre-commit tests
# to the end of the run). The rest keep their order. A stale name here only costs balance.
LONGEST_FIRST = (
    "dsv4/test_model_hf_kernels.py", "dsv4/test_moe_w4.py", "dsv4/test_model_hf.py", "dsv4/test_prefill_chunked.py",
    "test_precommit.py", "test_fuzz.py", "dsv4/test_compressor.py", "dsv4/test_kv_pages.py",
    "dsv4/test_sparse_attention.py", "dsv4/test_prefill_launches.py",
)


def _longest_first(items) -> None:
    def rank(item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return next((i for i, name in enumerate(LONGEST_FIRST) if path == f"tests/{name}"), len(LONGEST_FIRST))
    items.sort(key=rank)  # stable: the other files and every file's own tests keep their order


def pytest_collection_modifyitems(config, items):
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the order the workers report is the order files are handed out
        _longest_first(items)
    if _cuda_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU (none on this machine)")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)


def _schema_validator(name: str):
    """A jsonschema validator for a vendored schema, with format checking on (the SARIF schema's
    `uri`/`uri-reference` need rfc3986-validator, a dev dependency; without it they pass unchecked)."""
    import jsonschema

    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    # Every known format, not the draft's own list: the SARIF schema says draft-04 but uses draft-06's
    # `uri-reference`, which Draft4Validator.FORMAT_CHECKER would skip.
    checker = jsonschema.FormatChecker()
    assert {"uri", "uri-reference"} <= set(checker.checkers), "install rfc3986-validator (the dev extra)"
    return jsonschema.validators.validator_for(schema)(schema, format_checker=checker)


@pytest.fixture(scope="session")
def sarif_validator():
    """validate(doc) against the OASIS SARIF 2.1.0 schema (tests/fixtures/schemas)."""
    return _schema_validator("sarif-schema-2.1.0.json")


@pytest.fixture(scope="session")
def gitlab_validator():
    """validate(doc) against GitLab's documented Code Quality fields (tests/fixtures/schemas)."""
    return _schema_validator("gitlab-codequality.schema.json")
