"""Autofixes: apply edits to source text (positions are 1-based, end column exclusive) and the fix loop
that `--fix` and the editor's "fix all" run (apply, re-lint, until nothing applicable is left)."""

from __future__ import annotations

import difflib
import io
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from graphlint.diagnostics import Edit, Finding
from graphlint.lines import line_starts
from graphlint.report.output import PROG, error, plural

if TYPE_CHECKING:
    from graphlint.pipeline.engine import Linter
    from graphlint.pipeline.sources import SourceFile

# `--fix` re-lints after each round of edits (a fix can expose or overlap another); cap the rounds.
MAX_FIX_PASSES = 10


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits; an edit overlapping an earlier-applied one is skipped.

    Edits are applied from the end of the file backwards so earlier offsets stay valid. Overlaps are
    resolved in favour of the edit that starts first (a later run of `--fix` picks up the rest).
    Lines are Python's (libcst's positions): a form feed or U+2028 inside a line does not end it.
    """
    starts = line_starts(text)
    spans = []
    for e in edits:
        if e.line > len(starts) or e.end_line > len(starts):
            continue
        spans.append((starts[e.line - 1] + e.column - 1, starts[e.end_line - 1] + e.end_column - 1, e.replacement))
    spans.sort()
    chosen: list[tuple[int, int, str]] = []
    for span in spans:
        if chosen and span[0] < chosen[-1][1]:
            continue
        chosen.append(span)
    for a, b, rep in reversed(chosen):
        text = text[:a] + rep + text[b:]
    return text


def fixed_text_problem(text: str, original: str, encoding: str) -> str | None:
    """Why fixed `text` must not be written (it does not parse, or not in the file's encoding), else None.

    CPython's parser judges, and libcst's (which the fixes' positions come from) unless it already
    rejected the original: its tokenizer refuses a few valid files (a form feed inside indentation).
    """
    try:
        text.encode(encoding)
    except UnicodeError as exc:  # UnicodeEncodeError, or a codec's own refusal (idna: "label too long")
        return f"cannot be encoded in {encoding} ({getattr(exc, 'reason', exc)})"
    problem = _parse_problem(text, cpython=True)
    if problem is None:
        problem = _parse_problem(text, cpython=False)
        if problem is not None and _parse_problem(original, cpython=False) is not None:
            problem = None  # libcst rejected the original too: CPython's verdict stands
    return None if problem is None else f"does not parse ({problem})"


def _parse_problem(text: str, *, cpython: bool) -> str | None:
    import ast
    import warnings

    import libcst

    try:
        with warnings.catch_warnings():  # SyntaxWarning for `"\d"` and the like: not ours to print
            warnings.simplefilter("ignore")
            ast.parse(text) if cpython else libcst.parse_module(text)
    except Exception as exc:  # SyntaxError, ParserSyntaxError, ValueError, RecursionError: all mean "no"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return f"{type(exc).__name__}: {first}"
    return None


@dataclass
class Target:
    """One linted input: a file on disk, or stdin (path None)."""

    path: Path | None
    source: SourceFile
    original: str | None
    raw: bytes = b""  # stdin only: echoed back unchanged by --fix when it cannot be decoded


def _span(edit: Edit) -> tuple[tuple[int, int], tuple[int, int]]:
    return (edit.line, edit.column), (edit.end_line, edit.end_column)


def non_overlapping(findings: list[Finding]) -> list[Finding]:
    """Findings whose edits touch disjoint spans; the rest wait for the next round (after a re-lint)."""
    taken: list[tuple[tuple[int, int], tuple[int, int]]] = []
    chosen = []
    for f in sorted(findings, key=lambda f: min(_span(e)[0] for e in f.fix)):
        spans = [_span(e) for e in f.fix]
        clash = any(a0 < b1 and b0 < a1 or a0 == b0 for a0, a1 in spans for b0, b1 in taken)
        if not clash:
            taken.extend(spans)
            chosen.append(f)
    return chosen


def applicable(f: Finding, unsafe: bool) -> bool:
    """Whether `--fix` applies this finding's fix: safe ones always, unsafe ones with --unsafe-fixes."""
    return bool(f.fix) and (unsafe or f.fix_applicability == "safe")


def hidden_fixes(findings: list[Finding], unsafe: bool) -> int:
    return sum(1 for f in findings if f.fix and not applicable(f, unsafe))


def fix_rounds(linter: "Linter", targets: list[Target], *, unsafe: bool) -> tuple[list[Finding], int]:
    """Apply fixes in memory until none is left (or MAX_FIX_PASSES); returns (remaining, fixed count).

    Each round's result must parse (and encode back): a file whose fixes break it gets all of them
    rolled back, is named on stderr and is not fixed further, as ruff does.
    """
    if not targets:
        return [], 0
    fixed: dict[int, int] = {}
    broken: set[int] = set()
    result = linter.lint_sources([t.source for t in targets])
    for _ in range(MAX_FIX_PASSES):
        fixable: dict[str, list[Finding]] = {}
        for f in result.findings:
            if applicable(f, unsafe):
                fixable.setdefault(f.path, []).append(f)
        changed = False
        for i, t in enumerate(targets):
            todo = fixable.get(t.source.path)
            if i in broken or not todo or t.source.text is None:
                continue
            chosen = non_overlapping(todo)
            new_text = apply_edits(t.source.text, [e for f in chosen for e in f.fix])
            if new_text == t.source.text:
                continue
            changed = True
            problem = fixed_text_problem(new_text, t.original, t.source.encoding)
            if problem is not None:
                sys.stderr.write(f"graphlint: warning: fixes to {t.source.path} rolled back: the fixed code "
                                 f"{problem}; please report it\n")
                t.source = replace(t.source, text=t.original)
                fixed.pop(i, None)
                broken.add(i)
                continue
            t.source = replace(t.source, text=new_text)
            fixed[i] = fixed.get(i, 0) + len(chosen)
        if not changed:
            break
        result = linter.lint_sources([t.source for t in targets])
    return result.findings, sum(fixed.values())


# --- writing the fixes: --fix, --diff, --add-noqa ----------------------------------------------------

def _encoded(src: SourceFile) -> bytes:
    """The text in the file's own encoding; "utf-8-sig" puts the BOM back."""
    return src.text.encode(src.encoding)  # type: ignore[union-attr]


def write_fixes(targets: list[Target], stdin: bool) -> bool:
    """Write the fixed files (stdin: the source to stdout); False after a one-line error per failure."""
    ok = True
    for t in targets:
        if t.path is None:
            if stdin:  # the whole buffer, fixed or not: never hand an editor an emptied one
                # Unfixed: the bytes as they came (some codecs cannot encode what they decoded: idna).
                unfixed = t.source.text is None or t.source.text == t.original
                data = t.raw if unfixed else _encoded(t.source)
                sys.stdout.flush()
                buffer = getattr(sys.stdout, "buffer", None)
                if buffer is None:  # an in-memory stream: text (None: it did not decode, as UTF-8)
                    sys.stdout.write(data.decode("utf-8", "replace") if t.source.text is None else t.source.text)
                else:
                    buffer.write(data)
                    buffer.flush()
            continue
        if t.source.text is None or t.source.text == t.original:
            continue
        try:
            # Bytes, not text mode: keep the file's own line endings (the text still holds them).
            t.path.write_bytes(_encoded(t.source))
        except OSError as exc:
            error(f"cannot write {t.source.path}: {exc.strerror or exc}")
            ok = False
    return ok


def _diff_lines(src: SourceFile, text: str) -> list[str]:
    """`text` as `--fix` would write it, in diff lines: split at LF only (what patch and git apply
    read), with the BOM a utf-8-sig file starts with."""
    bom = "\ufeff" if src.encoding == "utf-8-sig" else ""
    return io.StringIO(bom + text, newline="\n").readlines()


def write_diff(targets: list[Target], out: TextIO) -> bool:
    """`--diff`: the fixes as one unified diff per changed file; whether any file changed."""
    changed = False
    for t in targets:
        before, after = t.original, t.source.text
        if before is None or after is None or before == after:
            continue
        changed = True
        name = t.source.path
        for line in difflib.unified_diff(_diff_lines(t.source, before), _diff_lines(t.source, after),
                                         fromfile=f"a/{name}", tofile=f"b/{name}"):
            out.write(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return changed


def add_noqa(targets: list[Target], findings: list[Finding]) -> bool:
    """ruff's --add-noqa: a `# noqa: CODE` for each remaining finding. Each new text is checked as a
    fix is (fixed_text_problem) before it is written; one that would no longer parse (which would be a
    bug) is not written. False when a file could not be written (named on stderr)."""
    from graphlint.report import suppression

    by_path: dict[str, list[Finding]] = {}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    added, unwritable = 0, 0
    for t in targets:
        todo = by_path.get(t.source.path)
        if not todo or t.path is None or t.source.text is None:
            continue
        new_text, count = suppression.add_noqa(t.source.text, todo)
        if not count:
            continue
        problem = fixed_text_problem(new_text, t.source.text, t.source.encoding)
        if problem is not None:
            sys.stderr.write(f"{PROG}: warning: {t.source.path}: adding noqa directives broke the file (the "
                             f"new code {problem}); left it unchanged, please report it\n")
            continue
        try:
            t.source = replace(t.source, text=new_text)
            if not write_fixes([t], stdin=False):  # it has named the file it cannot write
                unwritable += 1
                continue
        except OSError as exc:  # the other files still get theirs; the run ends with exit 2
            error(f"cannot write {t.source.path}: {exc.strerror or exc}")
            unwritable += 1
            continue
        added += count
    sys.stderr.write(f"Added {plural(added, 'noqa directive')}.\n")
    return not unwritable
