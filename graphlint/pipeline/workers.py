"""A fork-based process pool for the engine's per-file phases (graphlint/pipeline/engine.py).

Workers are forked after the engine has set its shared state, so they inherit the sources, the project
index and the hot map without pickling them; only item numbers go out and results come back. A worker
that dies (a crash in native code, an out-of-memory kill) costs only the item it was on: that item is
retried once in a fresh process, then handed to `fail` (the engine reports an internal error, GL002), and
the run goes on. Workers ignore Ctrl-C; the parent stops them and leaves no orphans.
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
from typing import Any, Callable

from graphlint.diagnostics import describe

SERIAL_BELOW = 24  # files; a pool costs more than it saves on small runs


def pool_size(requested: int | None, n: int) -> int:
    """Processes for `n` items when `requested` (None: every core); 1 below SERIAL_BELOW."""
    if n < SERIAL_BELOW:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(requested or cores, cores, n))


# fail(item, why, traceback) -> the item's result when it cannot be computed (a dead worker).
Fail = Callable[[int, str, str], Any]


def map_items(fn: Callable[[int], Any], items: list[int], jobs: int, tick: Callable[[], None],
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
