"""Both engine phases over a process pool, with a per-file result cache (graphlint/cache.py).

Workers are forked after the shared state is set, so they inherit the sources, the project index and
the hot map without pickling them; only summaries and findings travel back. The cache keeps, per
file, the phase-1 summary (keyed by content) and the findings (keyed by content, settings, the file's
hot-path entries and the interfaces of every project module it reaches through imports), so a warm run
re-lints only what changed, and changing a helper's interface re-lints everything that can see it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from graphlint import __version__
from graphlint.cache import Cache, Dependencies, content_hash, file_key
from graphlint.diagnostics import Finding
from graphlint.index import HotInfo, ModuleSummary, ProjectIndex

if TYPE_CHECKING:
    from graphlint.engine import Linter, SourceFile

SERIAL_BELOW = 24  # files; a pool costs more than it saves on small runs

_STATE: dict = {}


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


def _hot_by_path(hot: dict[str, HotInfo], index: ProjectIndex) -> dict[str, list]:
    out: dict[str, list] = {}
    for key, info in hot.items():
        fn = index.functions.get(key)
        if fn is not None:
            out.setdefault(fn.path, []).append((key, info.via, info.whole, info.capture))
    for entries in out.values():
        entries.sort()
    return out


def run(linter: "Linter", sources: list["SourceFile"], *, jobs: int | None, cache_dir: Path | None,
        progress: Callable[[str, int], Callable[[], None]] | None = None) -> list[Finding]:
    """Lint `sources`; `progress(phase, total)` returns a per-item tick callback."""
    cache = Cache.open(cache_dir)
    n = len(sources)
    workers = _jobs(jobs, n)
    noop: Callable[[], None] = lambda: None  # noqa: E731

    # Phase 1: summaries, from the cache when the content is unchanged.
    hashes = [content_hash(s) for s in sources]
    summaries: list[ModuleSummary | None] = [None] * n
    todo = []
    for i, (src, h) in enumerate(zip(sources, hashes)):
        hit = cache.summary(src, h)
        if hit is not None:
            summaries[i] = hit
        else:
            todo.append(i)
    _STATE.clear()
    _STATE.update(sources=sources)
    tick = progress("index", len(todo)) if progress and todo else noop
    for i, summary in _map(_index_one, todo, workers, tick):
        summaries[i] = summary
        cache.put_summary(sources[i], hashes[i], summary)

    index = ProjectIndex(summaries, linter.config.module_bases)  # type: ignore[arg-type]
    hot = linter.hot_map(index)
    deps = Dependencies(index, {s.module: cache.interface(src, s)  # type: ignore[union-attr]
                                for src, s in zip(sources, summaries)})

    # Phase 2: findings, from the cache when nothing they depend on changed.
    results: list[list[Finding] | None] = [None] * n
    keys = []
    todo = []
    prefix = repr((__version__, linter.config.fingerprint(), str(linter.config.root), sorted(linter.enabled)))
    hot_by_path = _hot_by_path(hot, index)
    for i, src in enumerate(sources):
        reach = deps.digest(summaries[i])  # type: ignore[arg-type]
        key = file_key(prefix, hashes[i], hot_by_path.get(src.path, []), reach)
        keys.append(key)
        hit = cache.findings(src, key)
        if hit is not None:
            results[i] = hit
        else:
            todo.append(i)
    _STATE.update(linter=linter, summaries=summaries, index=index, hot=hot)
    tick = progress("lint", len(todo)) if progress and todo else noop
    for i, found in _map(_lint_one, todo, workers, tick):
        results[i] = found
        cache.put_findings(sources[i], keys[i], found)
    _STATE.clear()
    cache.save()
    return [f for found in results for f in (found or [])]
