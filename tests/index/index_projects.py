"""Small projects given as {module: source}, indexed as graphlint indexes a tree: the helpers the index tests share."""

from __future__ import annotations

import textwrap

from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source


def project_index(files: dict[str, str]) -> ProjectIndex:
    """The index of {module: source}; a module named `....__init__` is its package's."""
    return ProjectIndex([index_source(textwrap.dedent(src), f"{mod.replace('.', '/')}.py", mod, mod.endswith("__init__"))
                         for mod, src in files.items()])


def hot(files: dict[str, str]) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    """{qualname: (tier, via)} of the hot functions of a small project given as {module: source}."""
    index = project_index(files)
    return {index.functions[k].qualname: (v.tier, v.via) for k, v in index.hot_functions().items() if v.whole}
