"""Read a source file as graphlint sees it: decoded as Python does (PEP 263, BOM), or the reason why not."""

from __future__ import annotations

import codecs
import errno
import io
import os
import tokenize
from dataclasses import dataclass, replace
from pathlib import Path

from graphlint.diagnostics import Finding
from graphlint.index.summary import distinct_module_names, module_name_for
from graphlint.lines import source_lines
from graphlint.pipeline.discovery import display_path


@dataclass
class SourceFile:
    path: str  # as displayed (relative to cwd when possible)
    text: str | None
    module: str
    is_package: bool
    error: Finding | None = None
    encoding: str = "utf-8"  # of the bytes read (PEP 263; "utf-8-sig": a BOM): fixes are written back in it


def read_source(path: Path, shown: str | None = None) -> SourceFile:
    shown = shown or display_path(path)
    is_pkg = path.name == "__init__.py"
    try:
        data = path.read_bytes()
    except OSError as exc:
        # No module_name_for here: it resolves the path, which raises on a symlink loop.
        return SourceFile(shown, None, path.stem, is_pkg, _unreadable(path, shown, exc))
    return decode_source(data, shown, module_name_for(path), is_pkg)


def distinct_modules(sources: list[SourceFile]) -> list[SourceFile]:
    """`sources` with the module names several files claim made distinct (`summary.distinct_module_names`): a
    project's files as one index sees them."""
    names = distinct_module_names([(src.path, src.module) for src in sources])
    return [src if src.module == name else replace(src, module=name) for src, name in zip(sources, names)]


def _unreadable(path: Path, shown: str, exc: OSError) -> Finding:
    why = exc.strerror or str(exc)
    if os.path.islink(path) and not os.path.exists(path) and exc.errno != errno.ELOOP:
        why = f"broken symbolic link to {os.readlink(path)!r}"
    return Finding(path=shown, line=1, column=1, code="GL000", name="unreadable-file",
                   message=f"Cannot read file: {why}")


def decode_source(data: bytes | str, shown: str, module: str, is_pkg: bool) -> SourceFile:
    """Decode as Python does (PEP 263: a BOM or a coding cookie, else UTF-8); text is taken as is."""
    if isinstance(data, str):
        return SourceFile(shown, data, module, is_pkg)
    problem = None
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError as exc:  # unknown codec, BOM with another cookie, or undecodable first lines
        encoding, problem = "utf-8-sig", exc.msg
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        before = source_lines(_decoded_prefix(data[: exc.start], encoding), keepends=True)
        line, col = _position_after(before)
        name = "UTF-8" if codecs.lookup(encoding).name.startswith("utf-8") else encoding
        err = Finding(path=shown, line=line, column=col, code="GL000", name="syntax-error",
                      message=f"File is not valid {name}: {exc.reason}")
        return SourceFile(shown, None, module, is_pkg, err)
    except (LookupError, UnicodeError):  # a cookie naming a codec that is not for text: rot13, hex, undefined
        problem = problem or f"{encoding!r} is not a text encoding"
    if problem is not None:
        err = Finding(path=shown, line=1, column=1, code="GL000", name="syntax-error",
                      message=f"Invalid encoding declaration: {problem}")
        return SourceFile(shown, None, module, is_pkg, err)
    return SourceFile(shown, text, module, is_pkg, encoding=encoding)


def _decoded_prefix(data: bytes, encoding: str) -> str:
    """The text before an undecodable byte, to place the finding; byte by byte for a codec without
    error handlers (idna)."""
    try:
        return data.decode(encoding, "replace")
    except UnicodeError:
        return data.decode("latin-1")


def _position_after(lines: list[str]) -> tuple[int, int]:
    """1-based (line, column) of the character that follows `lines` (split with keepends)."""
    if not lines:
        return 1, 1
    last = lines[-1]
    if last.endswith(("\n", "\r")):
        return len(lines) + 1, 1
    return len(lines), len(last) + 1
