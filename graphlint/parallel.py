"""Both engine phases over a process pool, with a per-file result cache.

Workers are forked after the shared state is set, so they inherit the sources, the project index and
the hot map without pickling them; only summaries and findings travel back. The cache keeps, per
file, the phase-1 summary (keyed by content) and the findings (keyed by content, graphlint version,
effective config, the file's hot-path entries and the interface of the modules it imports), so a warm
run re-lints only what changed, and changing a helper's interface re-lints its importers.
"""

from __future__ import annotations

import hashlib
import multiprocessing as mp
import os
import pickle
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from graphlint import __version__
from graphlint.diagnostics import Finding
from graphlint.index import HotInfo, ModuleSummary, ProjectIndex

if TYPE_CHECKING:
    from graphlint.engine import Linter, SourceFile

CACHE_FORMAT = 1
SERIAL_BELOW = 24  # files; a pool costs more than it saves on small runs

_STATE: dict = {}


def content_hash(src: "SourceFile") -> str:
    data = (src.text or "").encode("utf-8", "surrogatepass") + b"\0" + src.module.encode()
    if src.error is not None:
        data += repr((src.error.code, src.error.message)).encode()
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def interface_digest(s: ModuleSummary) -> str:
    """What other modules read from this one: definitions, returns, markers, classes, imports."""
    parts = [s.module, repr(sorted(s.imports.items()))]
    for f in sorted(s.functions.values(), key=lambda f: f.key):
        parts.append(f"{f.key}|{f.returns}|{sorted(f.markers)}|{f.class_key}|{f.parent_key}|{f.attr_sets}")
    for c in sorted(s.classes.values(), key=lambda c: c.key):
        parts.append(f"{c.key}|{c.bases}|{sorted(c.methods.items())}|{sorted(c.attrs.items())}")
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=16).hexdigest()


@dataclass
class Cache:
    path: Path | None
    summaries: dict[str, tuple[str, ModuleSummary]] = field(default_factory=dict)
    results: dict[str, tuple[str, list[Finding]]] = field(default_factory=dict)
    dirty: bool = False

    @classmethod
    def load(cls, cache_dir: Path | None) -> "Cache":
        if cache_dir is None:
            return cls(None)
        path = cache_dir / f"v{__version__}-{CACHE_FORMAT}.pickle"
        try:
            with open(path, "rb") as fh:
                data = pickle.load(fh)
            return cls(path, data["summaries"], data["results"])
        except (OSError, EOFError, pickle.UnpicklingError, KeyError, AttributeError, ImportError, TypeError):
            return cls(path)

    def save(self) -> None:
        if self.path is None or not self.dirty:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            ignore = self.path.parent / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# created by graphlint\n*\n")
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                pickle.dump({"summaries": self.summaries, "results": self.results}, fh, pickle.HIGHEST_PROTOCOL)
            os.chmod(tmp, 0o644)  # mkstemp makes it 0600; the cache is shared like ruff's
            os.replace(tmp, self.path)
        except OSError:
            pass  # a read-only tree still lints; it just stays cold


def _jobs(requested: int | None, n: int) -> int:
    if n < SERIAL_BELOW:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(requested or cores, cores, n))


def _map(fn: Callable[[int], object], items: list[int], jobs: int, tick: Callable[[], None]) -> list:
    if jobs <= 1 or not items or "fork" not in mp.get_all_start_methods():
        out = []
        for i in items:
            out.append(fn(i))
            tick()
        return out
    ctx = mp.get_context("fork")
    results: dict[int, object] = {}
    with ctx.Pool(jobs) as pool:
        chunk = max(1, min(16, len(items) // (jobs * 8) or 1))
        for i, res in pool.imap_unordered(fn, items, chunksize=chunk):
            results[i] = res
            tick()
    return [(i, results[i]) for i in items]


def _index_one(i: int) -> tuple[int, ModuleSummary]:
    from graphlint.engine import build_summary

    return i, build_summary(_STATE["sources"][i])


def _lint_one(i: int) -> tuple[int, list[Finding]]:
    linter: Linter = _STATE["linter"]
    return i, linter.lint_one(_STATE["sources"][i], _STATE["summaries"][i], _STATE["index"], _STATE["hot"])


def _file_key(prefix: str, summary: ModuleSummary, h: str, own_hot: list, digests: dict[str, str],
              index: ProjectIndex) -> str:
    deps = set()
    for target in summary.imports.values():
        split = index.split_dotted(target + ".x")
        if split:
            deps.add(split[0])
    dep_digests = sorted((m, digests[m]) for m in deps if m in digests and m != summary.module)
    payload = repr((prefix, h, own_hot, dep_digests))
    return hashlib.blake2b(payload.encode(), digest_size=16).hexdigest()


def _hot_by_path(hot: dict[str, HotInfo], index: ProjectIndex) -> dict[str, list]:
    out: dict[str, list] = {}
    for key, info in hot.items():
        fn = index.functions.get(key)
        if fn is not None:
            # call-site facts come from callers in other files: a changed caller re-lints the callee
            facts = sorted(index.call_facts.params(fn).items())
            out.setdefault(fn.path, []).append((key, info.via, info.whole, info.capture, facts))
    for entries in out.values():
        entries.sort()
    return out


def run(linter: "Linter", sources: list["SourceFile"], *, jobs: int | None, cache_dir: Path | None,
        progress: Callable[[str, int], Callable[[], None]] | None = None) -> list[Finding]:
    """Lint `sources`; `progress(phase, total)` returns a per-item tick callback."""
    cache = Cache.load(cache_dir)
    n = len(sources)
    workers = _jobs(jobs, n)
    noop: Callable[[], None] = lambda: None  # noqa: E731

    # Phase 1: summaries, from the cache when the content is unchanged.
    hashes = [content_hash(s) for s in sources]
    summaries: list[ModuleSummary | None] = [None] * n
    todo = []
    for i, (src, h) in enumerate(zip(sources, hashes)):
        hit = cache.summaries.get(src.path)
        if hit is not None and hit[0] == h:
            summaries[i] = hit[1]
        else:
            todo.append(i)
    _STATE.clear()
    _STATE.update(sources=sources)
    tick = progress("index", len(todo)) if progress and todo else noop
    for i, summary in _map(_index_one, todo, workers, tick):
        summaries[i] = summary
        cache.summaries[sources[i].path] = (hashes[i], summary)
        cache.dirty = True

    index = ProjectIndex(summaries, linter.config.module_bases)  # type: ignore[arg-type]
    hot = linter.hot_map(index)
    digests = {s.module: interface_digest(s) for s in summaries}  # type: ignore[union-attr]

    # Phase 2: findings, from the cache when nothing they depend on changed.
    results: list[list[Finding] | None] = [None] * n
    keys = []
    todo = []
    prefix = repr((__version__, linter.config.fingerprint(), sorted(linter.enabled)))
    hot_by_path = _hot_by_path(hot, index)
    for i, src in enumerate(sources):
        key = _file_key(prefix, summaries[i], hashes[i], hot_by_path.get(src.path, []), digests,  # type: ignore[arg-type]
                        index)
        keys.append(key)
        hit = cache.results.get(src.path)
        if hit is not None and hit[0] == key:
            results[i] = hit[1]
        else:
            todo.append(i)
    _STATE.update(linter=linter, summaries=summaries, index=index, hot=hot)
    tick = progress("lint", len(todo)) if progress and todo else noop
    for i, found in _map(_lint_one, todo, workers, tick):
        results[i] = found
        cache.results[sources[i].path] = (keys[i], found)
        cache.dirty = True
    _STATE.clear()

    # Forget files that are gone, so the cache does not grow without bound.
    live = {s.path for s in sources}
    if cache.path is not None and (set(cache.results) - live):
        cache.results = {k: v for k, v in cache.results.items() if k in live}
        cache.dirty = True
    cache.save()
    return [f for found in results for f in (found or [])]
