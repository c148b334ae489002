"""Map a Python stack to the first frame in user code.

"User code" is any frame that is not torch, not graphlint.runtime itself and not the standard library
(warnings, contextlib, functools... sit between a sync and the line that caused it). Third-party
packages count as user code: a sync inside transformers is reported at the transformers line.
"""

from __future__ import annotations

import itertools
import os
import sys
import sysconfig
import traceback
from dataclasses import dataclass
from functools import lru_cache
from types import FrameType, TracebackType
from typing import Sequence

_RUNTIME_DIR = os.path.dirname(os.path.abspath(__file__))
VIA_DEPTH = 6  # user frames kept in `via`, enough to see the call chain without noise


@dataclass(frozen=True)
class Location:
    """One stack frame; line and column are 1-based (column 1 when Python does not know it)."""

    path: str
    line: int
    column: int
    end_column: int
    function: str
    source: str = ""

    def short(self) -> str:
        return f"{display_path(self.path)}:{self.line} {self.function}"


@lru_cache(maxsize=1)
def _stdlib_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    dirs = {os.path.realpath(paths[k]) for k in ("stdlib", "platstdlib") if k in paths}
    return tuple(sorted(dirs))


def _torch_dir() -> str | None:
    torch = sys.modules.get("torch")
    file = getattr(torch, "__file__", None)
    return os.path.dirname(os.path.realpath(file)) if file else None


def _under(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def is_user_file(path: str) -> bool:
    """True when a frame in `path` belongs to the user's code (see the module docstring)."""
    if path.startswith("<") and path.endswith(">"):
        return not path.startswith("<frozen")  # "<string>" from exec() is user code
    real = os.path.realpath(path)
    if _under(real, _RUNTIME_DIR):
        return False
    torch_dir = _torch_dir()
    if torch_dir and _under(real, torch_dir):
        return False
    if f"{os.sep}site-packages{os.sep}torch{os.sep}" in real:
        return False
    if "site-packages" in real or "dist-packages" in real:
        return True  # third-party code inside a venv that lives under the stdlib prefix
    return not any(_under(real, d) for d in _stdlib_dirs())


def location_of(frame: traceback.FrameSummary) -> Location:
    colno = getattr(frame, "colno", None)
    end_colno = getattr(frame, "end_colno", None)
    column = colno + 1 if colno is not None else 1
    end_column = end_colno + 1 if end_colno is not None and frame.end_lineno == frame.lineno else 0
    return Location(
        path=frame.filename,
        line=frame.lineno or 0,
        column=column,
        end_column=end_column or column + 1,
        function=frame.name,
        source=(frame.line or "").strip(),
    )


@dataclass(frozen=True)
class MappedStack:
    """Where a problem happened: the innermost user frame plus a short user call chain."""

    where: Location
    via: tuple[str, ...]  # outermost first, "file:line func"
    in_user_code: bool  # False when no frame qualified and `where` is the innermost frame


def map_stack(frames: Sequence[traceback.FrameSummary]) -> MappedStack | None:
    """Map frames (outermost first, as traceback.extract_* return them) to the first user frame."""
    if not frames:
        return None
    user = [f for f in frames if is_user_file(f.filename)]
    if not user:
        return MappedStack(location_of(frames[-1]), (location_of(frames[-1]).short(),), False)
    # Outer frames from installed packages (pytest, pluggy, a serving framework) or graphlint's CLI
    # are noise in the call chain; the innermost user frame is kept wherever it lives.
    chain_frames = [f for f in user[:-1] if not _installed(f.filename)] + [user[-1]]
    chain = tuple(location_of(f).short() for f in chain_frames[-VIA_DEPTH:])
    return MappedStack(location_of(user[-1]), chain, True)


_GRAPHLINT_DIR = os.path.dirname(_RUNTIME_DIR)


def _installed(path: str) -> bool:
    """Frames left out of `via`: installed packages and graphlint's own CLI."""
    if "site-packages" in path or "dist-packages" in path:
        return True
    return not path.startswith("<") and _under(os.path.realpath(path), _GRAPHLINT_DIR)


def _frame_summary(frame: FrameType, lasti: int) -> traceback.FrameSummary:
    """A FrameSummary with the column range of the running instruction (3.11+), so two calls on
    one line stay apart."""
    code = frame.f_code
    line, end_line, col, end_col = frame.f_lineno, None, None, None
    positions = getattr(code, "co_positions", None)
    if positions is not None and lasti >= 0:
        try:
            pos = next(itertools.islice(positions(), lasti // 2, None))
            line = pos[0] or line
            end_line, col, end_col = pos[1], pos[2], pos[3]
        except StopIteration:
            pass
    try:
        return traceback.FrameSummary(
            code.co_filename, line, code.co_name, end_lineno=end_line, colno=col, end_colno=end_col
        )
    except TypeError:  # Python 3.10: no position arguments
        return traceback.FrameSummary(code.co_filename, line, code.co_name)


def current_stack(skip: int = 1) -> list[traceback.FrameSummary]:
    """The caller's stack, outermost first, without the `skip` innermost frames."""
    frames = []
    frame: FrameType | None = sys._getframe(skip)
    while frame is not None:
        frames.append(_frame_summary(frame, frame.f_lasti))
        frame = frame.f_back
    frames.reverse()
    return frames


def traceback_frames(exc: BaseException) -> list[traceback.FrameSummary]:
    """Frames from the handler down to where `exc` was raised (outermost first)."""
    tb: TracebackType | None = exc.__traceback__
    return list(traceback.extract_tb(tb)) if tb else []


def original_exception(exc: BaseException) -> BaseException:
    """The first exception of an implicit/explicit chain: torch.cuda.graph's __exit__ raises a
    second error (capture_end) whose __context__ is the one raised at the user's line."""
    seen: set[int] = set()
    while id(exc) not in seen:
        seen.add(id(exc))
        nxt = exc.__cause__ or exc.__context__
        if nxt is None:
            break
        exc = nxt
    return exc


def display_path(path: str) -> str:
    """Relative to the working directory when under it, else as given."""
    if path.startswith("<"):
        return path
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if rel.startswith("..") else rel


def first_line(exc: BaseException) -> str:
    """An exception's message, first line only (torch's CUDA errors run to a dozen lines)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""


def exc_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {first_line(exc)}"
