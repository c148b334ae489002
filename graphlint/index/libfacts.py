"""Library facts generated from a library's own source: what graphlint's index says of its public functions.

A call into a library outside the linted tree is opaque to the index; the hand rows of `facts/torch_kinds.py` say what
some of them do. This module derives such rows from the library's source, with the very summaries a project function
gets (`index.summary.index_source`, `index.project.ProjectIndex`), and keeps only the strong ones:

- `host_tensors`: every return is a tensor in host memory (`ProjectIndex.call_facts.settle` of `FunctionInfo.returns`
  is a CPU tensor) and no torch factory in the body builds on the default device (`torch.zeros(n)` without `device=`
  moves with `torch.set_default_device`): `torch.from_numpy(img)`, `t.cpu()` -> `HOST_LIBRARY_TENSORS`;
- `reads`: the first read on the host of a parameter that every call runs (`FunctionInfo.host_reads`: `.cpu()`,
  `.item()`, `.tolist()`, `int()`), with the parameter's position -> a D2H copy of that argument (`LIBRARY_COPIES`
  takes the first parameter's);
- `device_keeping`: every return is a device-family tensor computed from the first parameter alone
  (`FunctionInfo.follows`) -> `DEVICE_KEEPING_LIBRARY`.

Public functions only: module-level defs of a public module (no `_` in the path, no tests), and the names a module
re-exports from inside the library (`from .img_util import img2tensor` in `basicsr/utils/__init__.py`). Methods are
left out. Run: `python -m graphlint.index.libfacts build <wheel|sdist|dir>... --out graphlint/facts/library_facts.json`.
"""

from __future__ import annotations

import argparse
import ast
import email.parser
import json
import re
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from graphlint.facts.kinds import (BOOL_TENSOR, CPU_TENSOR, TENSOR, Field, Fwd, Inst, Keyed, OnParam, Passes,
                                   SelfField, mentions)
from graphlint.facts.names import dotted
from graphlint.facts.torch_kinds import DTYPES, FACTORY_TORCH
from graphlint.index.project import ProjectIndex
from graphlint.index.summary import FunctionInfo, ModuleSummary, index_source, module_name_for

FORMAT = 1
# folders that ship no importable API of the library
_SKIPPED_PARTS = frozenset({"tests", "test", "testing", "examples", "example", "docs", "benchmarks", "scripts"})
# kinds whose answer comes from the library's own callers (a parameter passed on, a field): a public function's
# outside callers pass anything
_CALLER_KINDS = (Fwd, OnParam, Passes, SelfField, Field, Keyed, Inst)
# how many calls deep a library function's own callees are read for a factory on the default device
_CALL_DEPTH = 3
# `.to(..)` keywords of a cast, which moves nothing (`moves`)
_CAST_KEYWORDS = frozenset({"dtype", "copy", "non_blocking", "memory_format"})
# legacy constructors (`torch.Tensor(rows)`, `torch.FloatTensor(n)`): on the default device as factories are
_TYPED_CONSTRUCTORS = re.compile(r"torch\.(cuda\.)?[A-Za-z0-9]*Tensor")


@dataclass
class Library:
    """One library's rows, as the shipped file stores them."""

    name: str
    version: str
    source: str
    host_tensors: list[str] = field(default_factory=list)
    reads: list[dict[str, object]] = field(default_factory=list)
    device_keeping: list[str] = field(default_factory=list)

    def rows(self) -> int:
        return len(self.host_tensors) + len(self.reads) + len(self.device_keeping)


def unpack(source: Path, into: Path) -> Path:
    """The folder holding `source`'s files: itself, or a wheel / sdist extracted under `into`."""
    if source.is_dir():
        return source
    if source.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(source) as archive:
            archive.extractall(into)
    elif source.name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(source) as archive:
            archive.extractall(into, filter="data")
    else:
        raise ValueError(f"not a wheel, sdist or folder: {source}")
    return into


def metadata(root: Path, source: Path) -> tuple[str, str]:
    """(distribution name, version) from the wheel's METADATA or the sdist's PKG-INFO; the file name otherwise."""
    for meta in (*root.glob("*.dist-info/METADATA"), *root.glob("*/PKG-INFO"), *root.glob("PKG-INFO")):
        head = email.parser.Parser().parsestr(meta.read_text(errors="replace"), headersonly=True)
        if head.get("Name") and head.get("Version"):
            return head["Name"], head["Version"]
    stem = source.name.split(".tar")[0].removesuffix(".whl")
    name, _, version = stem.partition("-")
    return name, version.partition("-")[0]


def package_files(root: Path) -> list[Path]:
    """The library's importable `.py` files: under its top-level packages (a folder with `__init__.py` whose parent
    has none, a `src/` layout included) and top-level modules of a wheel, tests and examples aside."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).parts
        if any(part in _SKIPPED_PARTS or part.endswith((".dist-info", ".egg-info")) for part in rel[:-1]) \
                or path.name in ("setup.py", "conftest.py") or path.name.startswith("test_"):
            continue
        if module_name_for(path) != path.stem or path.parent == root or (path.parent / "__init__.py").is_file():
            out.append(path)
    return out


def index_library(files: list[Path]) -> tuple[list[ModuleSummary], ProjectIndex]:
    """The summaries of `files` and the index over them: the library as a project."""
    summaries = [index_source(path.read_text(encoding="utf-8", errors="replace"), str(path), module_name_for(path),
                              path.name == "__init__.py") for path in files]
    return summaries, ProjectIndex(summaries)


def public(module: str) -> bool:
    return not any(part.startswith("_") or part in _SKIPPED_PARTS or "test" in part for part in module.split("."))


def public_functions(summaries: list[ModuleSummary], index: ProjectIndex) -> Iterator[tuple[str, FunctionInfo]]:
    """(import name, function) of each module-level def of a public module and each name a public module re-exports
    from inside the library; each function once per import name."""
    by_module = {s.module: s for s in summaries}
    own = {module.partition(".")[0] for module in by_module}
    for s in summaries:
        if not public(s.module):
            continue
        names = {fn.qualname for fn in s.functions.values() if fn.class_key is None and fn.parent_key is None
                 and "." not in fn.qualname}
        if s.path.endswith("__init__.py"):  # a package's names: what it imports from inside the library
            names |= {name for name, target in s.imports.items() if target.partition(".")[0] in own}
            names |= {fn.qualname for star in s.star_imports if (mod := by_module.get(star)) is not None
                      for fn in mod.functions.values() if fn.class_key is None and fn.parent_key is None
                      and "." not in fn.qualname}
        for name in sorted(names):
            if name.startswith("_"):
                continue
            fn = index.function_by_dotted(f"{s.module}.{name}")
            if fn is not None and fn.class_key is None and fn.parent_key is None:
                yield f"{s.module}.{name}", fn


class _Defs:
    """The parsed `def` nodes of the library's files, by (path, line)."""

    def __init__(self) -> None:
        self._by_path: dict[str, dict[int, ast.FunctionDef | ast.AsyncFunctionDef]] = {}

    def get(self, fn: FunctionInfo) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        if fn.path not in self._by_path:
            tree = ast.parse(Path(fn.path).read_text(encoding="utf-8", errors="replace"))
            self._by_path[fn.path] = {n.lineno: n for n in ast.walk(tree)
                                      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        return self._by_path[fn.path].get(fn.lineno)


def builds_on_default_device(node: ast.AST, imports: dict[str, str]) -> bool:
    """A torch factory in `node` without `device=` (`torch.zeros(n)`, `torch.as_tensor(a)`, `torch.FloatTensor(n)`):
    what it builds lives on the default device, which the caller's program may move off the host."""
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Call):
            continue
        name = dotted(sub.func) or ""
        head, _, rest = name.partition(".")
        qual = f"{imports[head]}.{rest}".rstrip(".") if head in imports else name
        if (qual in FACTORY_TORCH or _TYPED_CONSTRUCTORS.fullmatch(qual)) \
                and not any(kw.arg in ("device", None) for kw in sub.keywords):
            return True
    return False


def moves(node: ast.AST) -> bool:
    """`node` moves or places a tensor somewhere the caller decides (`.to(device)`, `.cuda()`, `device=`): the index
    reads such a device flow-insensitively (`device = x.device` before `x = x.cpu()` reads as the host's). A cast
    (`.to(dtype=torch.float32)`, `.to(torch.long)`) moves nothing."""
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Call):
            continue
        if any(kw.arg == "device" for kw in sub.keywords):
            return True
        func = sub.func
        if isinstance(func, ast.Attribute) and (func.attr == "cuda" or func.attr == "to" and not _cast(sub)):
            return True
    return False


def _cast(call: ast.Call) -> bool:
    """`t.to(dtype=d)`, `t.to(torch.float32)`: a dtype cast, where the tensor stays."""
    return all(kw.arg in _CAST_KEYWORDS for kw in call.keywords) \
        and all((dotted(arg) or "") in DTYPES for arg in call.args)


def _own_answer(fn: FunctionInfo) -> bool:
    """`fn`'s return kind is its own body's, not what the library's callers happen to pass it."""
    return not mentions(fn.returns, lambda k: isinstance(k, _CALLER_KINDS))


def reaches_default_device(fn: FunctionInfo, index: ProjectIndex, defs: _Defs, depth: int = 0,
                           seen: set[str] | None = None) -> bool:
    """`fn`, or a library function it calls (a few calls deep), builds on the default device
    (`builds_on_default_device`): lpips' `tensor2tensorlab` returns `np2tensor(..)`, a `torch.Tensor(..)`."""
    seen = set() if seen is None else seen
    if fn.key in seen:
        return False
    seen.add(fn.key)
    node = defs.get(fn)
    summary = index.modules.get(fn.module)
    if node is None or summary is None or builds_on_default_device(node, summary.imports):
        return True  # (a def the index holds but no file shows is unsure too)
    if depth >= _CALL_DEPTH:
        return False
    return any(reaches_default_device(callee, index, defs, depth + 1, seen) for desc, _line in fn.calls
               for callee in index.resolve_call(fn, fn.module, desc, dispatch=False))


def function_rows(name: str, fn: FunctionInfo, index: ProjectIndex,
                  defs: _Defs) -> tuple[bool, list[dict[str, object]], bool]:
    """(returns a host tensor, the host reads of its parameters, keeps its first argument's device) of `fn`."""
    params = [p for p in fn.params if p not in ("self", "cls")] if fn.binding == "function" else []
    found = [[p, kind, read] for p, kind, _line, read in fn.host_reads if p in params or p in fn.kwonly]
    reads = [{"function": name, "params": params, "reads": found}] if found else []
    node = defs.get(fn)
    if node is None or isinstance(node, ast.AsyncFunctionDef) or not _own_answer(fn):
        return False, reads, False
    try:
        returns = index.call_facts.settle(fn.returns, fn)
        if returns not in (CPU_TENSOR, TENSOR, BOOL_TENSOR) or reaches_default_device(fn, index, defs):
            return False, reads, False
    except RecursionError:  # (a deep chain of the library's own dispatch: unsure, left out)
        return False, reads, False
    host = returns == CPU_TENSOR and not moves(node)
    keeps = returns != CPU_TENSOR and bool(params) and fn.follows == (params[0],)
    return host, reads, keeps


def library_rows(source: Path) -> Library:
    """The rows of the library `source` (a wheel, an sdist or a folder)."""
    with tempfile.TemporaryDirectory(prefix="graphlint-libfacts-") as tmp:
        root = unpack(source, Path(tmp))
        name, version = metadata(root, source)
        lib = Library(name, version, source.name)
        summaries, index = index_library(package_files(root))
        defs = _Defs()
        for qual, fn in public_functions(summaries, index):
            host, reads, keeps = function_rows(qual, fn, index, defs)
            if host:
                lib.host_tensors.append(qual)
            if keeps:
                lib.device_keeping.append(qual)
            lib.reads.extend(reads)
    return lib


def build(sources: list[Path], out: Path) -> list[Library]:
    libraries = sorted(map(library_rows, sources), key=lambda lib: lib.name.lower())
    data = {"format": FORMAT, "generator": "python -m graphlint.index.libfacts build",
            "libraries": [lib.__dict__ for lib in libraries]}
    out.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    return libraries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m graphlint.index.libfacts",
                                     description="Generate library facts from library sources.")
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("build", help="index wheels, sdists or folders and write their rows")
    make.add_argument("sources", nargs="+", type=Path)
    make.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))  # (the index recurses through large libraries)
    for lib in build(args.sources, args.out):
        print(f"{lib.name} {lib.version}: {len(lib.host_tensors)} host tensors, {len(lib.reads)} reads, "
              f"{len(lib.device_keeping)} device keeping", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
