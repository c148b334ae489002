"""Run graphlint: discover, index (phase 1), find the hot path, lint hot units (phase 2), suppress."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from graphlint.analyzer import Unit, analyze_unit
from graphlint.config import Config
from graphlint.diagnostics import Finding
from graphlint.index import HotInfo, ModuleSummary, ProjectIndex, index_source, module_name_for
from graphlint.rules import ALL_RULES
from graphlint.selection import enabled_codes, per_file_ignored
from graphlint.suppression import apply_noqa, parse_noqa, unused_noqa



@dataclass
class SourceFile:
    path: str  # as displayed (relative to cwd when possible)
    text: str | None
    module: str
    is_package: bool
    error: Finding | None = None


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    # The project the findings came from (for `via` chain locations: graphlint.chains).
    index: ProjectIndex | None = None
    hot: dict[str, HotInfo] = field(default_factory=dict)


def display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def read_source(path: Path, shown: str | None = None) -> SourceFile:
    shown = shown or display_path(path)
    module = module_name_for(path)
    is_pkg = path.name == "__init__.py"
    try:
        data = path.read_bytes()
    except OSError as exc:
        err = Finding(path=shown, line=1, column=1, code="GL000", name="unreadable-file",
                      message=f"Cannot read file: {exc.strerror or exc}")
        return SourceFile(shown, None, module, is_pkg, err)
    return decode_source(data, shown, module, is_pkg)


def decode_source(data: bytes, shown: str, module: str, is_pkg: bool) -> SourceFile:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        err = Finding(path=shown, line=line, column=col, code="GL000", name="syntax-error",
                      message=f"File is not valid UTF-8: {exc.reason}")
        return SourceFile(shown, None, module, is_pkg, err)
    return SourceFile(shown, text, module, is_pkg)


def build_summary(src: SourceFile) -> ModuleSummary:
    if src.text is None:
        return ModuleSummary(module=src.module, path=src.path)
    return index_source(src.text, src.path, src.module, src.is_package)


def units_for(src: SourceFile, summary: ModuleSummary, hot: dict[str, HotInfo]) -> list[Unit]:
    lines = src.text.splitlines(keepends=True) if src.text else []
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
        units.append(Unit(None, HotInfo(via=("<module> (capture region)",), whole=False), src.text or "", 0))
    return units


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
        self.known = set(known)

    def rules_for(self, rel_path: str) -> list[type]:
        ignored = per_file_ignored(self.config, rel_path)
        return [r for r in ALL_RULES if r.code in self.enabled and not any(r.code.startswith(s) for s in ignored)
                and hasattr(r, "hooks") and r.hooks()]

    def _rel(self, shown: str) -> str:
        try:
            return Path(shown).resolve().relative_to(self.config.root).as_posix()
        except ValueError:
            return Path(shown).as_posix()

    def hot_map(self, index: ProjectIndex) -> dict[str, HotInfo]:
        cfg = self.config
        if cfg.scope == "all":
            hot = index.all_functions(cfg.cold)
            # Capture-region functions keep their capture flag; regions inside cold code stay out.
            for key, info in index.hot_functions(cfg.hot, cfg.cold, cfg.capture_regions).items():
                if key in hot and info.capture:
                    hot[key] = info
            return hot
        return index.hot_functions(cfg.hot, cfg.cold, cfg.capture_regions)

    def lint_sources(self, sources: list[SourceFile]) -> LintResult:
        from graphlint.parallel import run

        result = LintResult(files=len(sources))
        result.findings, result.index, result.hot = run(self, sources, jobs=self.jobs, cache_dir=self.cache_dir,
                                                        progress=self.progress)
        result.findings.sort(key=lambda f: f.sort_key)
        return result

    def lint_one(self, src: SourceFile, summary: ModuleSummary, index: ProjectIndex,
                 hot: dict[str, HotInfo]) -> list[Finding]:
        rel = self._rel(src.path)
        ignored = per_file_ignored(self.config, rel)

        def allowed(code: str) -> bool:
            return code in self.enabled and not any(code.startswith(s) for s in ignored)

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
        rules = self.rules_for(rel)
        for unit in units_for(src, summary, hot):
            try:
                findings.extend(self.analyze_unit(src.path, summary, index, unit, rules))
            except RecursionError:
                _internal_error(src.path, unit, "expression nesting too deep")
            except Exception as exc:  # a bug in one rule must not cost the user the whole run
                _internal_error(src.path, unit, f"{type(exc).__name__}: {exc}")
        lines = (src.text or "").splitlines()
        noqa = parse_noqa(lines)
        findings = apply_noqa(findings, noqa)
        if allowed("GL001"):
            findings.extend(unused_noqa(src.path, noqa, self.known, self.enabled))
        return _dedupe(findings)

    def analyze_unit(self, path: str, summary: ModuleSummary, index: ProjectIndex, unit: Unit,
                     rules: list[type]) -> list[Finding]:
        """One unit's findings (a method so that the editor server can memoize it per function)."""
        return analyze_unit(path, summary, index, unit, rules)

    def lint_paths(self, files: list[Path]) -> LintResult:
        return self.lint_sources([read_source(p) for p in files])

    def lint_text(self, text: str, shown: str, module: str | None = None) -> LintResult:
        src = decode_source(text.encode("utf-8"), shown, module or Path(shown).stem, shown.endswith("__init__.py"))
        return self.lint_sources([src])


def _internal_error(path: str, unit: Unit, why: str) -> None:
    where = f"{unit.function.qualname} (line {unit.function.lineno})" if unit.function else "module level"
    sys.stderr.write(f"graphlint: warning: internal error while checking {path}: {where}: {why}; "
                     "skipped that function, please report it\n")


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in findings:
        key = (f.path, f.line, f.column, f.code)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
