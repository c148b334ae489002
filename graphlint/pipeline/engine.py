"""Run graphlint: discover, index (phase 1), find the hot path, lint hot units (phase 2), suppress."""

from __future__ import annotations

import codecs
import errno
import io
import os
import tokenize
from dataclasses import dataclass, field, replace
from pathlib import Path

from graphlint.check.walker import Unit, analyze_unit
from graphlint.pipeline.config import SCOPE_TIERS, Config
from graphlint.diagnostics import Finding, internal_error, internal_error_from
from graphlint.pipeline.discovery import display_path  # noqa: F401 - re-exported: the CLI shows paths with it
from graphlint.index.project import HotInfo, ModuleSummary, ProjectIndex, index_source, module_name_for
from graphlint.lines import source_lines
from graphlint.rules import ALL_RULES
from graphlint.pipeline.selection import enabled_codes, file_codes
from graphlint.report.suppression import apply_noqa, parse_noqa, unused_noqa


# The deepest expression (in libcst nodes, as graphlint.index measures it) a function may hold to be
# checked. The analyzer recurses per level and runs out of Python stack from ~240 levels; libcst's
# native parser overflows the C stack (a segfault, not an exception) from ~5,000. Deeper functions are
# reported as GL002 without being parsed.
MAX_NESTING = 200


@dataclass
class SourceFile:
    path: str  # as displayed (relative to cwd when possible)
    text: str | None
    module: str
    is_package: bool
    error: Finding | None = None
    encoding: str = "utf-8"  # of the bytes read (PEP 263; "utf-8-sig": a BOM): fixes are written back in it


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    functions: int = 0  # defined in the linted files
    checked: int = 0  # of those, checked: the hot path (`--scope all`: every function not cold)
    checkable: int = 0  # what `--scope all` checks: every function not cold
    capture_sites: bool | None = None  # did the project capture anything (None: not computed)
    # The project the findings came from (for `via` chain locations: graphlint.chains).
    index: ProjectIndex | None = None
    hot: dict[str, HotInfo] = field(default_factory=dict)


def read_source(path: Path, shown: str | None = None) -> SourceFile:
    shown = shown or display_path(path)
    is_pkg = path.name == "__init__.py"
    try:
        data = path.read_bytes()
    except OSError as exc:
        # No module_name_for here: it resolves the path, which raises on a symlink loop.
        return SourceFile(shown, None, path.stem, is_pkg, _unreadable(path, shown, exc))
    return decode_source(data, shown, module_name_for(path), is_pkg)


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


def build_summary(src: SourceFile) -> ModuleSummary:
    if src.text is None:
        return ModuleSummary(module=src.module, path=src.path)
    return index_source(src.text, src.path, src.module, src.is_package)


def units_for(summary: ModuleSummary, hot: dict[str, HotInfo], lines: list[str]) -> list[Unit]:
    """The hot functions (and module-level capture regions) of a file, as libcst sources cut from
    `lines` (the file's, from `libcst_lines`)."""
    units = []
    for fn in summary.functions.values():
        info = hot.get(fn.key)
        if info is None:
            continue
        chunk = "".join(lines[fn.lineno - 1: fn.end_lineno])
        if chunk[:1] in (" ", "\t"):
            units.append(Unit(fn, info, "if 1:\n" + chunk, fn.lineno - 2))
        else:
            units.append(Unit(fn, info, chunk, fn.lineno - 1))
    if summary.module_regions:
        region = HotInfo(via=("<module> (capture region)",), whole=False, tier="captured")
        units.append(Unit(None, region, "".join(lines), 0))
    return units


def libcst_lines(text: str) -> tuple[list[str], dict[int, int]]:
    """The file's lines (ends kept) as libcst must see them, and {line: characters cut from its start}.

    A form feed in a line's leading whitespace resets Python's indentation count; libcst's tokenizer
    does not do that: it rejects a deeper block that starts after one, and elsewhere drops the form feed,
    which shifts every column on the line. So the whitespace up to the last form feed goes, and
    `unshift` moves findings on those lines back to the file's columns."""
    lines = source_lines(text, keepends=True)
    cuts = {}
    for i, line in enumerate(lines):
        cut = line[: len(line) - len(line.lstrip(" \t\f"))].rfind("\f") + 1
        if cut:
            lines[i] = line[cut:]
            cuts[i + 1] = cut
    return lines, cuts


def unshift(f: Finding, cuts: dict[int, int]) -> Finding:
    """`f` (and its fix and focus) in the file's columns, from those of `libcst_lines`."""
    def col(line: int, column: int) -> int:
        return column + cuts.get(line, 0)

    fix = tuple(replace(e, column=col(e.line, e.column), end_column=col(e.end_line, e.end_column)) for e in f.fix)
    extra = f.extra
    if "focus" in extra:
        line, column, end_line, end_column = extra["focus"]
        extra = {**extra, "focus": (line, col(line, column), end_line, col(end_line, end_column))}
    return replace(f, column=col(f.line, f.column), end_column=col(f.end_line, f.end_column), fix=fix, extra=extra)


class Linter:
    """Holds the configuration and the enabled rules; lints a set of files or one source text."""

    def __init__(self, config: Config, *, jobs: int | None = 1, cache_dir: Path | None = None,
                 progress=None) -> None:
        """`jobs=None` uses every core; `cache_dir` enables the result cache; `progress(phase, total)`
        returns a tick callback (the CLI passes a rich progress bar on terminals)."""
        self.config = config
        self.jobs = jobs
        self.cache_dir = cache_dir
        self.progress = progress
        known = {r.code: r.default_enabled for r in ALL_RULES}
        self.enabled = enabled_codes(config, known)
        self.capture_sites: bool | None = None  # set by hot_map: did the project capture anything?
        self.known = set(known)

    def rules_for(self, codes: frozenset[str]) -> list[type]:
        return [r for r in ALL_RULES if r.code in codes and hasattr(r, "hooks") and r.hooks()]

    def hot_map(self, index: ProjectIndex) -> dict[str, HotInfo]:
        cfg = self.config
        hot = index.hot_functions(cfg.hot, cfg.cold, cfg.capture_regions)
        self.capture_sites = any(info.tier == "captured" for info in hot.values())
        if cfg.scope == "all":
            everything = index.all_functions(cfg.cold)
            # Reached functions keep their chain, tier and capture flag; a function that is hot only in its
            # capture regions is linted whole, its other lines without a tier.
            for key, info in hot.items():
                if key in everything:
                    everything[key] = info if info.whole else HotInfo(None, whole=True, capture=info.capture, tier=None)
            return everything
        if cfg.scope in SCOPE_TIERS:
            return {k: v for k, v in hot.items() if v.tier in SCOPE_TIERS[cfg.scope] or not v.whole}
        return hot

    def lint_sources(self, sources: list[SourceFile]) -> LintResult:
        from graphlint.pipeline.workers import run

        out = run(self, sources, jobs=self.jobs, cache_dir=self.cache_dir, progress=self.progress)
        out.findings.sort(key=lambda f: f.sort_key)
        return LintResult(out.findings, len(sources), out.functions, out.checked, out.checkable,
                          self.capture_sites, out.index, out.hot)

    def lint_one(self, src: SourceFile, summary: ModuleSummary, index: ProjectIndex,
                 hot: dict[str, HotInfo]) -> list[Finding]:
        codes = file_codes(self.config, self.enabled, src.path)

        def allowed(code: str) -> bool:
            return code in codes

        if src.error is not None:
            return [src.error] if allowed("GL000") else []
        if summary.syntax_error is not None:
            line, col, msg = summary.syntax_error
            finding = Finding(path=src.path, line=line, column=col, code="GL000", name="syntax-error",
                              message=f"SyntaxError: {msg}")
            return [finding] if allowed("GL000") else []
        if summary.skip_file:
            return []
        findings: list[Finding] = []
        tiers = SCOPE_TIERS.get(self.config.scope)
        errors: list[Finding] = []  # GL002: never selected away nor suppressed
        rules = self.rules_for(codes)
        lines, cuts = libcst_lines(src.text or "")
        for unit in units_for(summary, hot, lines):
            nesting = unit.function.nesting if unit.function else summary.nesting
            if nesting > MAX_NESTING:
                errors.append(_unit_error(src.path, unit, f"expression nested {nesting} levels deep "
                                                          f"(graphlint checks up to {MAX_NESTING})"))
                continue
            try:
                found = self.analyze_unit(src.path, summary, index, unit, rules)
                findings.extend(unshift(f, cuts) for f in found)
            except Exception as exc:  # noqa: BLE001 - a bug in one rule must not cost the user the whole run
                errors.append(_unit_error(src.path, unit, exc))
        if tiers is not None:  # a function's capture region is captured even when the function is not
            findings = [f for f in findings if f.context in tiers]
        try:
            lines = source_lines(src.text or "")
            noqa = parse_noqa(lines)
            findings = apply_noqa(findings, noqa)
            if allowed("GL001"):
                findings.extend(unused_noqa(src.path, noqa, self.known, self.enabled))
        except Exception as exc:  # noqa: BLE001 - unsuppressed findings would be wrong: report none
            findings = [internal_error_from(src.path, "suppress", exc)]
        return _dedupe(findings) + errors

    def analyze_unit(self, path: str, summary: ModuleSummary, index: ProjectIndex, unit: Unit,
                     rules: list[type]) -> list[Finding]:
        """One unit's findings (a method so that the editor server can memoize it per function)."""
        return analyze_unit(path, summary, index, unit, rules, self.config.eager_guards)

    def lint_paths(self, files: list[Path]) -> LintResult:
        return self.lint_sources([read_source(p) for p in files])

    def lint_text(self, text: str, shown: str, module: str | None = None) -> LintResult:
        src = decode_source(text, shown, module or Path(shown).stem, shown.endswith("__init__.py"))
        return self.lint_sources([src])


def _unit_error(path: str, unit: Unit, why: Exception | str) -> Finding:
    """GL002 at the `def` of the function that could not be checked (line 1 for module-level regions)."""
    fn = unit.function
    where = fn.qualname if fn else "module-level capture regions"
    at = {"line": fn.lineno, "column": 1} if fn else {}
    if isinstance(why, Exception):
        return internal_error_from(path, "check", why, where=where, **at)
    return internal_error(path, "check", why, where=where, **at)


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in findings:
        key = (f.path, f.line, f.column, f.code)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
