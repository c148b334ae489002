"""Helpers of the decoy files (tests/rules/test_decoys_<family>.py): lint a snippet as `m.py` and compare.
Each decoy there was a false positive of an earlier version on public code (transformers, vLLM, SGLang
models); each hit is a real sync.

Two conventions, kept from the files the cases came from:
- `findings(src)`: every (line, code), lines counted from the snippet's first non-empty line;
- `check(src)`: the `# <- CODE` marks on the lines are exactly the findings of the codes in MINE (the
  host-data, sync-primitive, capture and silent-frozen rules); other codes are not this check's question.
"""

from __future__ import annotations

import textwrap

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter


def findings(src: str, scope: str = "hot") -> set[tuple[int, str]]:
    text = textwrap.dedent(src).lstrip("\n")
    return {(f.line, f.code) for f in Linter(Config(scope=scope)).lint_text(text, "m.py").findings}


MINE = frozenset({
    "GL130", "GL131", "GL133", "GL141", "GL143", "GL144", "GL150", "GL151", "GL152", "GL153",
    "GL201", "GL202", "GL203", "GL204", "GL205", "GL206", "GL307", "GL308", "GL301", "GL302", "GL303", "GL304", "GL305",
})


def lint(src: str, scope: str = "hot"):
    text = textwrap.dedent(src)
    return [f for f in Linter(Config(scope=scope)).lint_text(text, "m.py").findings if f.code in MINE]


def hits(src: str, scope: str = "hot") -> set[tuple[int, str]]:
    return {(f.line, f.code) for f in lint(src, scope)}


def marked(src: str) -> set[tuple[int, str]]:
    out = set()
    for i, line in enumerate(textwrap.dedent(src).splitlines(), start=1):
        if "# <- " in line:
            for code in line.split("# <- ", 1)[1].replace(",", " ").split():
                out.add((i, code))
    return out


def check(src: str, scope: str = "hot") -> None:
    assert hits(src, scope) == marked(src)


def check_hits_and_decoys(src: str, code: str, scope: str = "hot") -> None:
    """Lines marked `# hit` carry a `code` finding; lines marked `# decoy` carry none (of any code); lines counted as
    `findings` counts them."""
    found = findings(src, scope)
    for i, line in enumerate(src.strip("\n").splitlines(), start=1):
        if "# hit" in line:
            assert (i, code) in found, line
        elif "# decoy" in line:
            assert not [c for at, c in found if at == i], line
