"""Library facts generated from library sources (`graphlint.index.libfacts`, shipped as
`graphlint/facts/library_facts.json`): the generator's rows on a fixture library, and the shipped file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from graphlint.facts import library_facts
from graphlint.facts.torch_kinds import DEVICE_KEEPING_LIBRARY, HOST_LIBRARY_TENSORS, LIBRARY_READS
from graphlint.index.libfacts import library_rows

FIXTURE = Path(__file__).with_name("libfacts_fixture")


@pytest.fixture(scope="module")
def fixture_rows():
    return library_rows(FIXTURE)


def test_host_tensor_maker_by_its_import_names(fixture_rows):
    """`torch.from_numpy(img)` is a host tensor, under its module's name and its package's re-export; a factory on the
    default device (`zeros_default`, the legacy `torch.Tensor(rows)`, and `via_legacy`, which returns a call of
    such a library function), one given `device=` (`from_image`) and one moved back where its argument lives
    (`moved_back`, whose `.to(device)` the flow-insensitive index reads as the host's) are left out."""
    assert fixture_rows.host_tensors == ["fixlib.to_tensor", "fixlib.conv.to_tensor"]


def test_host_read_of_a_tensor_parameter(fixture_rows):
    """`t.detach().cpu()` on every call is a read of `t`; `int(n)` of a parameter nothing shows is a tensor, a read
    under a flag (`maybe_cpu`) and a private `_helper` are not rows."""
    assert fixture_rows.reads == [
        {"function": "fixlib.to_numpy", "params": ["t"], "reads": [["t", "cpu", ".cpu()"]]},
        {"function": "fixlib.conv.to_numpy", "params": ["t"], "reads": [["t", "cpu", ".cpu()"]]},
    ]


def test_device_keeping_follows_the_first_argument_only(fixture_rows):
    """`torch.cat([x, x * 2])` keeps `x`'s device; `src.to(dst.device)` is the second argument's."""
    assert fixture_rows.device_keeping == ["fixlib.keep", "fixlib.ops.keep"]


def test_shipped_file_loads_and_merges():
    """The shipped rows load without the libraries installed and reach the tables every consumer reads."""
    facts = library_facts.load()
    assert facts.host_tensors and facts.reads and facts.device_keeping
    assert facts.host_tensors <= HOST_LIBRARY_TENSORS
    assert all(DEVICE_KEEPING_LIBRARY[name] is False for name in facts.device_keeping if not name.startswith("einops."))
    assert set(facts.reads) <= set(LIBRARY_READS)
    assert "kornia.image_to_tensor" in HOST_LIBRARY_TENSORS and "lpips.tensor2im" in LIBRARY_READS


def test_missing_file_loads_empty(tmp_path):
    assert library_facts.load(tmp_path / "absent.json") == library_facts.LibraryFacts(frozenset(), frozenset(), {})


SOURCES = os.environ.get("GRAPHLINT_LIBFACTS_SOURCES", "/tmp/lib49/pkgs")


@pytest.mark.skipif(not Path(SOURCES, "lpips-0.1.4-py3-none-any.whl").is_file(), reason="library sources absent")
def test_regenerating_a_library_reproduces_its_rows():
    """The shipped rows are what the generator writes for the recorded source (one small library: no network)."""
    shipped = {lib["name"]: lib for lib in json.loads(library_facts.DATA.read_text())["libraries"]}
    assert library_rows(Path(SOURCES, "lpips-0.1.4-py3-none-any.whl")).__dict__ == shipped["lpips"]
