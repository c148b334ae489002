"""The progress bar a person at a terminal sees while a long run lints (never in CI logs or pipes)."""

from __future__ import annotations

import sys
import time
from typing import Callable


class ProgressBar:
    """The engine's `progress(phase, total) -> tick` hook, drawn with rich on stderr.

    No refresh thread (auto_refresh=False): the engine forks worker processes, and forking while a
    thread holds the terminal's lock can hang a child. Ticks redraw at most ten times a second.
    """

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 console=Console(file=sys.stderr), transient=True, auto_refresh=False)
        self.last = 0.0

    def __enter__(self) -> "ProgressBar":
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def __call__(self, phase: str, total: int) -> Callable[[], None]:
        task = self.progress.add_task(phase, total=total)

        def tick() -> None:
            self.progress.advance(task)
            now = time.monotonic()
            if now - self.last > 0.1 or self.progress.tasks[-1].finished:
                self.last = now
                self.progress.refresh()

        return tick
