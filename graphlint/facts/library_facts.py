"""The library facts generated from library sources (`library_facts.json`, written by `python -m
graphlint.index.libfacts build`): loaded here, once, and merged by `facts/torch_kinds.py` into its tables, so every
consumer of `HOST_LIBRARY_TENSORS`, `DEVICE_KEEPING_LIBRARY` and `LIBRARY_READS` sees the generated rows.

The file is plain data shipped with the package: loading it needs none of the libraries installed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

DATA = Path(__file__).with_name("library_facts.json")

# (parameter, read kind, the read as written): kinds as `facts.host_reads.HostRead`'s ("item", "tolist", "cpu", ...)
LibraryRead = tuple[str, str, str]


class LibraryFacts(NamedTuple):
    host_tensors: frozenset[str]  # functions every return of which is a tensor in host memory
    device_keeping: frozenset[str]  # functions returning a tensor where their first argument lives
    # function -> (its positional parameters, the first host read of each parameter every call runs)
    reads: dict[str, tuple[tuple[str, ...], tuple[LibraryRead, ...]]]


def load(path: Path = DATA) -> LibraryFacts:
    """The rows of every library in `path` (none where the file is absent)."""
    if not path.is_file():
        return LibraryFacts(frozenset(), frozenset(), {})
    data = json.loads(path.read_text(encoding="utf-8"))
    host: set[str] = set()
    keeping: set[str] = set()
    reads: dict[str, tuple[tuple[str, ...], tuple[LibraryRead, ...]]] = {}
    for lib in data["libraries"]:
        host.update(lib["host_tensors"])
        keeping.update(lib["device_keeping"])
        for row in lib["reads"]:
            reads[row["function"]] = (tuple(row["params"]), tuple(tuple(r) for r in row["reads"]))  # type: ignore
    return LibraryFacts(frozenset(host), frozenset(keeping), reads)


GENERATED = load()
