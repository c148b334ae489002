"""`# noqa` handling (flake8/ruff compatible), unused-suppression reporting and `--add-noqa`.

Directives are read from real comments only (tokenize), so a `"# noqa"` in a string suppresses nothing.
"""

from __future__ import annotations

import re
import tokenize
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from graphlint.diagnostics import Finding, redirected

NOQA_RE = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)
CODE_RE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)
# Codes --add-noqa never writes: GL000 (the file does not parse), GL001 (a noqa about noqa).
NO_AUTO_NOQA = frozenset({"GL000", "GL001"})


@dataclass
class Noqa:
    line: int
    column: int
    codes: tuple[str, ...] | None  # None: blanket `# noqa`
    used: set[str] = field(default_factory=set)
    used_blanket: bool = False
    end_column: int = 0  # exclusive, 1-based: where the directive (`# noqa: A1, B2`) ends


def parse_noqa(lines: list[str]) -> dict[int, Noqa]:
    """`# noqa` directives by line, from the comments of the source whose lines are `lines`."""
    # Tokenize only when a line looks like it has a directive, and only up to the last such line.
    last = next((i for i in range(len(lines), 0, -1) if "noqa" in lines[i - 1].lower()
                 and NOQA_RE.search(lines[i - 1])), 0)
    out: dict[int, Noqa] = {}
    for line, column, comment in _comments(lines[:last]):
        m = NOQA_RE.search(comment)
        if m is not None:
            codes = tuple(c.upper() for c in CODE_RE.findall(m.group("codes"))) if m.group("codes") else None
            out[line] = Noqa(line=line, column=column + m.start() + 1, codes=codes,
                             end_column=column + m.end() + 1)
    return out


def _tokens(lines: list[str]) -> Iterator[tokenize.TokenInfo]:
    """The tokens of `lines`, each line fed as one physical line so token rows match list indexes."""
    feed = iter([line + "\n" for line in lines])
    return tokenize.generate_tokens(lambda: next(feed, ""))


def _comments(lines: list[str]) -> Iterator[tuple[int, int, str]]:
    """(line, 0-based column, text) of each comment. Where this Python's tokenizer gives up on source
    that libcst accepted (newer syntax), the lines after the last token are read as plain text."""
    done = 0
    try:
        for tok in _tokens(lines):
            if tok.type == tokenize.COMMENT:
                yield tok.start[0], tok.start[1], tok.string
            done = tok.start[0] - 1 if tok.end[0] > tok.start[0] else tok.end[0]
    except (tokenize.TokenError, SyntaxError):
        for i in range(done, len(lines)):
            hash_at = lines[i].find("#")
            if hash_at >= 0:
                yield i + 1, hash_at, lines[i][hash_at:]


def _suppresses(noqa: Noqa, code: str) -> bool:
    if noqa.codes is None:
        noqa.used_blanket = True
        return True
    for c in noqa.codes:
        current = redirected(c)  # `# noqa: GL134` suppresses GL206, the code GL134 moved to
        if code == current or (code.startswith(current) and len(current) < len(code)):
            noqa.used.add(c)
            return True
    return False


def apply_noqa(findings: list[Finding], noqa: dict[int, Noqa]) -> list[Finding]:
    """Drop findings suppressed on their own line or on the first/last line of their statement."""
    kept = []
    for f in findings:
        lines = {f.line}
        stmt = f.extra.get("stmt_lines")
        if stmt:
            lines.update(stmt)
        if not any(line in noqa and _suppresses(noqa[line], f.code) for line in sorted(lines)):
            kept.append(f)
    return kept


def unused_noqa(path: str, noqa: dict[int, Noqa], known_codes: set[str], enabled: set[str]) -> list[Finding]:
    """GL001 for `# noqa: GL...` codes that suppressed nothing, are unknown, or are not enabled.

    Codes of other tools (E501, F401) are left alone: flake8 or ruff owns them.
    """
    out = []
    for n in noqa.values():
        if n.codes is None:
            continue
        ours = [c for c in n.codes if c.startswith("GL")]
        unknown = [c for c in ours if not any(k.startswith(redirected(c)) for k in known_codes)]
        disabled = [c for c in ours if c not in unknown and not any(e.startswith(redirected(c)) for e in enabled)]
        unused = [c for c in ours if c not in n.used and c not in unknown and c not in disabled]
        parts = []
        if unused:
            parts.append("unused: " + ", ".join(unused))
        if unknown:
            parts.append("unknown: " + ", ".join(unknown))
        if disabled:
            parts.append("non-enabled: " + ", ".join(disabled))
        if parts:
            out.append(Finding(path=path, line=n.line, column=n.column, code="GL001", name="unused-noqa",
                               message=f"Unused `noqa` directive ({'; '.join(parts)})", severity="warning",
                               fix_hint="Remove the directive or the codes it no longer needs"))
    return out


# --- --add-noqa -------------------------------------------------------------------------------------

def add_noqa(text: str, findings: Iterable[Finding]) -> tuple[str, int]:
    """Append `# noqa: CODE[, CODE]` for `findings` to the source `text`, as ruff's --add-noqa.

    A finding's directive goes on its first line, or on its statement's last line when the first ends
    inside a string or on a backslash continuation (no comment can follow there); codes join an existing
    `# noqa: ...` on that line. Line endings are kept. Returns the new text and how many lines gained or
    changed a directive.
    """
    parts = re.split(r"(\r\n|\r|\n)", text)
    lines, ends = parts[0::2], parts[1::2] + [""]
    closed = _commentable(lines)
    wanted: dict[int, set[str]] = {}
    for f in findings:
        if f.code in NO_AUTO_NOQA:
            continue
        stmt = f.extra.get("stmt_lines") or (f.line, f.line)
        target = next((n for n in (f.line, stmt[1]) if closed.get(n)), None)
        if target is not None:
            wanted.setdefault(target, set()).add(f.code)
    existing = parse_noqa(lines)
    changed = 0
    for n, codes in wanted.items():
        new_line = _with_codes(lines[n - 1], codes, existing.get(n))
        if new_line != lines[n - 1]:
            lines[n - 1] = new_line
            changed += 1
    return "".join(line + end for line, end in zip(lines, ends)), changed


def _with_codes(text: str, codes: set[str], noqa: Noqa | None) -> str:
    if noqa is None:
        return text.rstrip(" \t") + f"  # noqa: {', '.join(sorted(codes))}"
    if noqa.codes is None:
        return text  # a blanket `# noqa` covers them already
    missing = sorted(c for c in codes if not any(c.startswith(have) for have in noqa.codes))
    if not missing:
        return text
    directive = f"# noqa: {', '.join((*noqa.codes, *missing))}"
    return text[: noqa.column - 1] + directive + text[noqa.end_column - 1:]


def _commentable(lines: list[str]) -> dict[int, bool]:
    """Line -> whether a comment may be appended to it: False where the line ends inside a string
    (triple-quoted or f-string) or on a backslash continuation. Empty when the source does not tokenize."""
    ok = {n: not lines[n - 1].rstrip().endswith("\\") for n in range(1, len(lines) + 1)}
    strings: list[tuple[int, int]] = []  # (first line, last line) of each string
    open_fstrings: list[int] = []  # Python 3.12+ tokenizes f-strings in pieces
    try:
        for tok in _tokens(lines):
            kind = tokenize.tok_name.get(tok.type, "")
            if tok.type == tokenize.COMMENT:
                ok[tok.start[0]] = True  # a backslash ending a comment continues nothing
            elif tok.type == tokenize.STRING:
                strings.append((tok.start[0], tok.end[0]))
            elif kind.endswith("STRING_START"):
                open_fstrings.append(tok.start[0])
            elif kind.endswith("STRING_END") and open_fstrings:
                strings.append((open_fstrings.pop(), tok.end[0]))
    except (tokenize.TokenError, SyntaxError):
        return {}
    for first, last in strings:
        for n in range(first, last):
            ok[n] = False
    return ok
