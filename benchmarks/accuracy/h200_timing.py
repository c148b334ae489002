"""The timing shared by the cistern H200 label checks (h200_checks_cistern_*.py). Plain torch only.

Each check asks one question: does calling ``fn`` make the host wait for the GPU? ``timed`` queues
about 200 ms of GPU work (``torch.cuda._sleep``), times ``fn`` on the host, then calls it once more
under ``torch.cuda.set_sync_debug_mode("error")``. It prints one line:

    <name>  host_ms_behind_sleep=   201.4 debug=RAISES

``host_ms_behind_sleep``: host milliseconds ``fn`` took with the sleep still queued; near 200, the
call waited for the GPU; a few ms, it did not. ``debug``: ``ok`` when the second call ran without a
raise, ``RAISES`` when PyTorch flagged it as synchronizing, ``ERR <message>`` for any other
exception. An optional ``note`` follows. When the timed call itself raises, the line is
``<name> ERROR <type>: <message>`` instead. The terse style (``Timer(terse=True)``) prints the same
facts as ``W=   201.4 ms D=RAISE -> WAITS`` (``no-raise`` / ``RAISE`` / ``ERR``; ``WAITS`` above
100 ms, else ``no wait``).

``alone`` times ``fn`` with nothing queued, the host cost of the call itself:
``<name>  host_ms_idle_gpu=    12.3`` (terse: ``<name>     12.3 ms``).

The scripts differ in small ways, kept as ``Timer`` fields so that each keeps its measurements and
its lines: the name column's ``width``, how much of an exception's message is printed
(``err_chars``), whether ``fn`` runs once untimed first (``warmup``) and whether an exception
while preparing (``setup`` or the warm-up) prints an ERROR line instead of stopping the script
(``catch_prep``). ``Timer()``'s own ``timed`` and ``alone`` are this module's ``timed`` and ``alone``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Optional

import torch

SLEEP_CYCLES = 200_000_000  # ~200 ms of torch.cuda._sleep on an H200 (see calibrate())
WAIT_MS = 100.0  # the terse style calls a check WAITS above this

Thunk = Callable[[], object]


def calibrate(show_cycles: bool = False) -> float:
    """Time SLEEP_CYCLES of ``_sleep`` on an idle GPU; print ``calibration: _sleep = X ms``
    (``_sleep(200000000)`` with ``show_cycles``) and return X."""
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    torch.cuda._sleep(SLEEP_CYCLES)
    torch.cuda.synchronize()
    ms = (time.perf_counter() - t0) * 1e3
    label = f"_sleep({SLEEP_CYCLES})" if show_cycles else "_sleep"
    print(f"calibration: {label} = {ms:.1f} ms")
    return ms


@dataclass(frozen=True)
class Timer:
    """One script's way of timing and printing its checks (see the module docstring)."""

    width: int = 72
    err_chars: int = 100
    warmup: bool = True
    catch_prep: bool = False
    terse: bool = False

    def timed(self, name: str, fn: Thunk, *, setup: Optional[Thunk] = None,
              sleep_stream: Optional[torch.cuda.Stream] = None, note: str = "") -> None:
        """Print whether ``fn`` waits behind ~200 ms of GPU work and whether debug mode flags it.

        ``setup`` runs untimed before every call of ``fn`` (warm-up, timed, debug), with the
        device synchronized after it. ``sleep_stream`` queues the sleep on that stream instead of
        the current one. The device is synchronized again before the line is printed."""
        sync = torch.cuda.synchronize
        if not self.catch_prep:
            self._prepare(fn, setup, sleep_stream)
        try:
            if self.catch_prep:
                self._prepare(fn, setup, sleep_stream)
            t0 = time.perf_counter()
            fn()
            ms = (time.perf_counter() - t0) * 1e3
        except Exception as e:
            print(f"{name:{self.width}s} ERROR {type(e).__name__}: {str(e)[:self.err_chars]}")
            sync()
            return
        sync()
        if setup is not None:
            setup()
            sync()
        torch.cuda.set_sync_debug_mode("error")
        try:
            fn()
            dbg = "no-raise" if self.terse else "ok"
        except Exception as e:
            if "synchroniz" in str(e):
                dbg = "RAISE" if self.terse else "RAISES"
            else:
                dbg = "ERR " + str(e)[:50 if self.terse else 60]
        torch.cuda.set_sync_debug_mode(0)
        sync()
        if self.terse:
            line = f"W={ms:8.1f} ms D={dbg} -> {'WAITS' if ms > WAIT_MS else 'no wait'}"
        else:
            line = f"host_ms_behind_sleep={ms:8.1f} debug={dbg}"
        print(f"{name:{self.width}s} {line}" + (f" {note}" if note else ""))

    def alone(self, name: str, fn: Thunk) -> None:
        """Print the host ms of ``fn`` on an idle GPU (after one untimed warm-up call)."""
        fn()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        ms = (time.perf_counter() - t0) * 1e3
        torch.cuda.synchronize()
        value = f"{ms:8.1f} ms" if self.terse else f"host_ms_idle_gpu={ms:8.1f}"
        print(f"{name:{self.width}s} {value}")

    def _prepare(self, fn: Thunk, setup: Optional[Thunk],
                 sleep_stream: Optional[torch.cuda.Stream]) -> None:
        """Untimed: the warm-up call (after ``setup``) if asked, ``setup``, synchronize; then queue
        the sleep."""
        if self.warmup:
            if setup is not None:
                setup()
            fn()
            torch.cuda.synchronize()
        if setup is not None:
            setup()
        torch.cuda.synchronize()
        if sleep_stream is None:
            torch.cuda._sleep(SLEEP_CYCLES)
        else:
            with torch.cuda.stream(sleep_stream):
                torch.cuda._sleep(SLEEP_CYCLES)


_DEFAULT = Timer()
timed = _DEFAULT.timed
alone = _DEFAULT.alone
