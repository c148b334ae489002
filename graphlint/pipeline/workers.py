"""Both engine phases over a process pool, with a per-file result cache (graphlint/cache.py).

Workers are forked after the shared state is set, so they inherit the sources, the project index and
the hot map without pickling them; only summaries and findings travel back. A worker that dies (a
crash in native code, an out-of-memory kill) costs only the file it was on: that file is retried once
in a fresh process, then reported as an internal error (GL002), and the run goes on. Workers ignore
Ctrl-C; the parent stops them and leaves no orphans. The cache keeps, per file, the phase-1 summary
(keyed by content) and the findings (keyed by content, settings, the file's hot-path entries and the
interfaces of every project module it reaches through imports), so a warm run re-lints only what
changed, and changing a helper's interface re-lints everything that can see it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle  # only for the pipe to workers: fork-local objects, never a file
import signal
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from graphlint import __version__
from graphlint.pipeline.cache import Cache, Dependencies, content_hash, file_key
from graphlint.diagnostics import INTERNAL_ERROR, Finding, describe, internal_error, internal_error_from
from graphlint.index.project import FunctionInfo, HotInfo, ModuleSummary, ProjectIndex

if TYPE_CHECKING:
    from graphlint.pipeline.engine import Linter, SourceFile

SERIAL_BELOW = 24  # files; a pool costs more than it saves on small runs

_STATE: dict = {}


def _jobs(requested: int | None, n: int) -> int:
    if n < SERIAL_BELOW:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(requested or cores, cores, n))


# fail(item, why, traceback) -> the item's result when it cannot be computed (a dead worker).
Fail = Callable[[int, str, str], Any]


def _map(fn: Callable[[int], Any], items: list[int], jobs: int, tick: Callable[[], None],
         fail: Fail) -> list[tuple[int, Any]]:
    """[(item, fn(item))] in `items` order; `fn` turns its own exceptions into results."""
    if jobs <= 1 or len(items) <= 1 or "fork" not in mp.get_all_start_methods():
        out = []
        for i in items:
            out.append((i, fn(i)))
            tick()
        return out
    results = _Pool(fn, jobs, tick, fail).run(items)
    return [(i, results[i]) for i in items]


def _worker(conn: Connection, fn: Callable[[int], Any]) -> None:
    """A forked worker: answers each batch of items one `(item, ok, result)` message at a time, so
    the parent knows which item it was on if it dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle (no tracebacks)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    while True:
        try:
            batch = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if batch is None:
            return
        for i in batch:
            try:
                conn.send((i, True, fn(i)))
            except Exception as exc:  # noqa: BLE001 - e.g. a result that does not pickle
                conn.send((i, False, (describe(exc), traceback.format_exc())))


@dataclass
class _Worker:
    proc: Any  # multiprocessing's ForkProcess
    conn: Connection
    todo: deque  # items sent and not answered yet, in the order the worker runs them
    solo: bool  # a fresh process for one item that already killed a worker


class _Pool:
    """Fork workers that are watched, not trusted: a dead one is noticed at once (its pipe and its
    sentinel), the item it was on is retried once alone in a fresh process, the rest of its batch goes
    back to the queue, and a second death is reported through `fail`."""

    def __init__(self, fn: Callable[[int], Any], jobs: int, tick: Callable[[], None], fail: Fail) -> None:
        self.fn, self.jobs, self.tick, self.fail = fn, jobs, tick, fail
        self.ctx = mp.get_context("fork")
        self.workers: dict[Connection, _Worker] = {}
        self.queue: deque[list[int]] = deque()
        self.retries: deque[int] = deque()
        self.died_once: set[int] = set()
        self.results: dict[int, Any] = {}

    def run(self, items: list[int]) -> dict[int, Any]:
        chunk = max(1, min(16, len(items) // (self.jobs * 8) or 1))
        self.queue.extend(items[k:k + chunk] for k in range(0, len(items), chunk))
        try:
            while self.queue or self.retries or self.workers:
                while len(self.workers) < self.jobs and (self.retries or self.queue):
                    if self.retries:
                        self._spawn([self.retries.popleft()], solo=True)
                    else:
                        self._spawn(self.queue.popleft(), solo=False)
                sentinels = {w.proc.sentinel: w for w in self.workers.values()}
                for ready in wait([*self.workers, *sentinels]):
                    w = self.workers.get(ready) or sentinels.get(ready)  # type: ignore[arg-type]
                    if w is not None and w.conn in self.workers:
                        self._serve(w)
        finally:
            for w in self.workers.values():  # only on an error or Ctrl-C: stop them all, no orphans
                w.proc.kill()
            for w in self.workers.values():
                w.proc.join()
                w.conn.close()
        return self.results

    def _spawn(self, batch: list[int], *, solo: bool) -> None:
        ours, theirs = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker, args=(theirs, self.fn), daemon=True)
        # SIGINT stays blocked from fork until the child ignores it (a Ctrl-C in between would print
        # a traceback from the child) and until the parent has registered it (to stop it).
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            proc.start()
            theirs.close()  # the child holds the only other end: its death reads as EOF here
            self.workers[ours] = _Worker(proc, ours, deque(batch), solo)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        self._send(ours, batch)

    @staticmethod
    def _send(conn: Connection, message: object) -> None:
        try:
            conn.send(message)
        except OSError:
            pass  # the worker is already dead: its sentinel says so and _retire sorts its items out

    def _serve(self, w: _Worker) -> None:
        """Take every answer waiting from `w`, then hand it more work, stop it, or retire it."""
        dead = False
        try:
            while w.conn.poll():
                i, ok, result = w.conn.recv()
                w.todo.popleft()
                self.results[i] = result if ok else self.fail(i, *result)
                self.tick()
        except (EOFError, OSError, pickle.UnpicklingError):
            dead = True  # exited, or died mid-message: the item it was on is w.todo[0]
        if dead or not w.proc.is_alive():
            self._retire(w)
        elif not w.todo:
            if not w.solo and self.queue:
                batch = self.queue.popleft()
                w.todo.extend(batch)
                self._send(w.conn, batch)
            else:
                self._send(w.conn, None)  # it exits; its EOF brings it back here to be retired

    def _retire(self, w: _Worker) -> None:
        del self.workers[w.conn]
        if w.proc.is_alive():  # alive but talking nonsense
            w.proc.kill()
        w.proc.join()
        w.conn.close()
        if not w.todo:
            return
        culprit, rest = w.todo[0], list(w.todo)[1:]
        if rest:
            self.queue.appendleft(rest)  # innocent: they never started
        if culprit in self.died_once:
            why = f"the worker process died twice ({_how(w.proc.exitcode)})"
            self.results[culprit] = self.fail(culprit, why, "")
            self.tick()
        else:
            self.died_once.add(culprit)
            self.retries.append(culprit)


def _how(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


def _index_one(i: int) -> tuple[ModuleSummary, list[Finding]]:
    from graphlint.pipeline.engine import build_summary

    src = _STATE["sources"][i]
    try:
        return build_summary(src), []
    except Exception as exc:  # noqa: BLE001 - one file's failure must not end the run
        return ModuleSummary(module=src.module, path=src.path), [internal_error_from(src.path, "index", exc)]


def _index_failed(i: int, why: str, tb: str) -> tuple[ModuleSummary, list[Finding]]:
    src = _STATE["sources"][i]
    return ModuleSummary(module=src.module, path=src.path), [internal_error(src.path, "index", why, tb=tb)]


def _lint_one(i: int) -> list[Finding]:
    linter: Linter = _STATE["linter"]
    src = _STATE["sources"][i]
    try:
        return linter.lint_one(src, _STATE["summaries"][i], _STATE["index"], _STATE["hot"])
    except Exception as exc:  # noqa: BLE001 - lint_one guards each function; this is the rest of it
        return [internal_error_from(src.path, "check", exc)]


def _lint_failed(i: int, why: str, tb: str) -> list[Finding]:
    return [internal_error(_STATE["sources"][i].path, "check", why, tb=tb)]


def _hot_by_path(hot: dict[str, HotInfo], index: ProjectIndex) -> dict[str, list]:
    out: dict[str, list] = {}
    for key, info in hot.items():
        fn = index.functions.get(key)
        if fn is not None:
            # call-site facts come from callers in other files: a changed caller re-lints the callee
            facts = sorted(index.call_facts.params(fn).items())
            out.setdefault(fn.path, []).append((key, info.via_key, info.whole, info.capture, info.tier, facts))
    for entries in out.values():
        entries.sort()
    return out


@dataclass
class RunResult:
    findings: list[Finding]
    functions: int  # defined in the linted files
    checked: int  # of those, on the hot path (or every one not cold, with --scope all)
    checkable: int  # what --scope all would check: every function not cold
    index: ProjectIndex  # the project the findings came from (`via` locations: graphlint.chains)
    hot: dict[str, HotInfo]


def _checked(index: ProjectIndex, hot: dict[str, HotInfo]) -> int:
    """Functions in the hot map, and nested defs checked inline with a wholly hot ancestor."""
    count = 0
    for fn in index.functions.values():
        cur: FunctionInfo | None = fn
        while cur is not None and not (cur.key in hot and (cur is fn or hot[cur.key].whole)):
            cur = index.functions.get(cur.parent_key) if cur.parent_key else None
        count += cur is not None
    return count


def index_only(sources: list["SourceFile"], cache_dir: Path | None, *, jobs: int | None = 1) -> list[ModuleSummary]:
    """Phase 1 alone (the editor server builds its in-memory project from it), through the cache."""
    cache = Cache.open(cache_dir)
    summaries = _index_phase(sources, cache, _jobs(jobs, len(sources)), None)[1]
    cache.save()
    return summaries


def _index_phase(sources: list["SourceFile"], cache: Cache, workers: int,
                 progress: Callable[[str, int], Callable[[], None]] | None
                 ) -> tuple[list[str], list[ModuleSummary], dict[int, list[Finding]]]:
    """Phase 1: content hashes, summaries (from the cache when the content is unchanged) and the
    internal errors of files that could not be indexed (those are not linted)."""
    hashes = [content_hash(s) for s in sources]
    summaries: list[ModuleSummary | None] = [None] * len(sources)
    todo = []
    for i, (src, h) in enumerate(zip(sources, hashes)):
        hit = cache.summary(src, h)
        if hit is not None:
            summaries[i] = hit
        else:
            todo.append(i)
    _STATE.clear()
    _STATE.update(sources=sources)
    tick = progress("index", len(todo)) if progress and todo else _noop
    errors: dict[int, list[Finding]] = {}  # internal errors before phase 2: the file is not linted
    for i, (summary, failed) in _map(_index_one, todo, workers, tick, _index_failed):
        summaries[i] = summary
        if failed:
            errors[i] = failed
            continue
        cache.put_summary(sources[i], hashes[i], summary)
    return hashes, summaries, errors  # type: ignore[return-value]


def _noop() -> None:
    pass


def run(linter: "Linter", sources: list["SourceFile"], *, jobs: int | None, cache_dir: Path | None,
        progress: Callable[[str, int], Callable[[], None]] | None = None) -> RunResult:
    """Lint `sources`; `progress(phase, total)` returns a per-item tick callback.

    An exception in a phase becomes a GL002 finding for the file (the function, in the check phase);
    such results are never cached, so the next run tries again."""
    cache = Cache.open(cache_dir)
    n = len(sources)
    workers = _jobs(jobs, n)
    noop: Callable[[], None] = lambda: None  # noqa: E731
    hashes, summaries, errors = _index_phase(sources, cache, workers, progress)

    index = ProjectIndex(summaries, linter.config.module_bases)  # type: ignore[arg-type]
    try:
        hot = linter.hot_map(index)
    except Exception as exc:  # noqa: BLE001 - no hot path: every file with functions goes unchecked
        hot = {}
        for i, summary in enumerate(summaries):
            if summary.functions:  # type: ignore[union-attr]
                errors.setdefault(i, []).append(internal_error_from(sources[i].path, "hot path", exc))
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
        hit = cache.findings(src, key) if i not in errors else None
        if i in errors:
            results[i] = errors[i]
        elif hit is not None:
            results[i] = hit
        else:
            todo.append(i)
    _STATE.update(linter=linter, summaries=summaries, index=index, hot=hot)
    tick = progress("lint", len(todo)) if progress and todo else noop
    for i, found in _map(_lint_one, todo, workers, tick, _lint_failed):
        results[i] = found
        if any(f.code == INTERNAL_ERROR for f in found):
            continue
        cache.put_findings(sources[i], keys[i], found)
    _STATE.clear()
    cache.save()
    findings = [f for found in results for f in (found or [])]
    return RunResult(findings, len(index.functions), _checked(index, hot),
                     _checked(index, index.all_functions(linter.config.cold)), index, hot)
