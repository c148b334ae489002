"""The editor server's project: every file's summary in memory, the hot path, findings per function.

The CLI rebuilds the whole project on each run (its cache makes that a read of every file). The server
keeps it: an edit re-indexes the edited file only (stdlib `ast`, ~30 ms for 1,000 lines), rebuilds the
project index from the in-memory summaries, and recomputes the hot path only when the file's *shape*
changed: what the hot path and the other files' analysis read from it, without positions. Typing in a
function body keeps the shape, so the hot map and every other file's findings stay; only the edited
function's unit is analysed again (the rest come from `MemoLinter`, shifted to their new lines).

Nothing here imports pygls: the LSP layer (graphlint.lsp.server) converts what this module returns.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from graphlint.check.context import Unit
from graphlint.index.chains import Chains, Link
from graphlint.pipeline.config import Config
from graphlint.diagnostics import Edit, Finding
from graphlint.pipeline.discovery import discover
from graphlint.pipeline.engine import Linter, build_summary, index_only
from graphlint.pipeline.sources import SourceFile, decode_source, distinct_modules, read_source
from graphlint.index.summary import FunctionInfo, ModuleSummary, module_name_for
from graphlint.index.project import STEP_DRIVER_CALLS, HotInfo, ProjectIndex

# Finding.extra entries that hold file positions: (first, last).
_LINE_PAIRS = {"stmt_lines": (0, 1)}


def shift(f: Finding, delta: int) -> Finding:
    """`f` moved down `delta` lines (its function moved; its text did not change)."""
    if not delta:
        return f
    extra = dict(f.extra)
    for key, slots in _LINE_PAIRS.items():
        value = extra.get(key)
        if value:
            moved = list(value)
            for i in slots:
                moved[i] += delta
            extra[key] = tuple(moved)
    fix = tuple(dataclasses.replace(e, line=e.line + delta, end_line=e.end_line + delta) for e in f.fix)
    return dataclasses.replace(f, line=f.line + delta, end_line=f.end_line + delta, fix=fix, extra=extra)


class MemoLinter(Linter):
    """A Linter that remembers each unit's findings by (file, unit text, hot info, rules).

    Valid while the project's shape stays (`Project` clears it when a shape changes): a unit's
    findings then depend only on its own text and why it is hot.
    """

    def __init__(self, config: Config) -> None:
        super().__init__(config, unrooted_fallback=True)  # the workspace is a tree, as the CLI on a folder
        self.memo: dict[str, dict[tuple, tuple[int, list[Finding]]]] = {}
        self._used: dict[tuple, tuple[int, list[Finding]]] = {}

    def lint_one(self, src: SourceFile, summary: ModuleSummary, index: ProjectIndex,
                 hot: dict[str, HotInfo]) -> list[Finding]:
        self._used = {}
        found = super().lint_one(src, summary, index, hot)
        self.memo[src.path] = self._used  # forget units that are gone or changed
        return found

    def analyze_unit(self, path: str, summary: ModuleSummary, index: ProjectIndex, unit: Unit,
                     rules: list[type]) -> list[Finding]:
        key = (unit.source, unit.hot, unit.function.qualname if unit.function else None,
               tuple(r.code for r in rules))
        hit = self.memo.get(path, {}).get(key)
        if hit is None:
            hit = (unit.line_offset, super().analyze_unit(path, summary, index, unit, rules))
        self._used[key] = hit
        return [shift(f, unit.line_offset - hit[0]) for f in hit[1]]


# FunctionInfo fields that only say where a function is (its unit's text says the rest).
_WHERE = frozenset({"path", "lineno", "end_lineno", "first_line", "nesting"})


def _plain(value: object) -> object:
    """`value` without positions, in a canonical order: a line number inside a tuple (`(descriptor,
    line)`, `(start, end)`) is dropped; lists and sets are sorted."""
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value if isinstance(v, bool) or not isinstance(v, int))
    if isinstance(value, (list, set, frozenset)):
        return sorted((_plain(v) for v in value), key=repr)
    if isinstance(value, dict):
        return sorted(((k, _plain(v)) for k, v in value.items()), key=repr)
    if dataclasses.is_dataclass(value):
        return [(f.name, _plain(getattr(value, f.name))) for f in dataclasses.fields(value)]
    return value


# FunctionInfo fields of one record per call site: (callee, line, ...).
_SITES = ("call_args", "call_filled")


def _unread_sites(fn: FunctionInfo, module: str, index: ProjectIndex) -> set[tuple[str, int]]:
    """The call sites of `fn` that record no argument (`x.item()`, `x.float()`) and reach no project function: no
    other function reads them. Every reader of another function's sites finds them through the call edges of the
    callee (`ProjectIndex._project_calls`: `CallFacts` by name, then `call_edges`) or as a construction of a project
    class (`CallFacts.made_class`: a class with no `__init__` of its own has no edge), and the readers that go through a
    function's own records (`ProjectIndex._hands_model`, `_runs_param`, `walker.returned_host_module`) read only the
    arguments, of which these have none. The index records them since an argument-less call to a project function
    leaves its parameters at their defaults (`summary._record_args`); typing one that reaches no project function
    in a body keeps the shape, as its `calls` entry does."""
    return {(callee, line) for callee, line, positional, keywords in fn.call_args
            if not positional and not keywords and not index.call_edges(fn, module, callee)
            and index.call_facts.made_class(fn, callee) is None}


def _read_records(records: list[tuple], unread: set[tuple[str, int]]) -> list[tuple]:
    """`records` (`call_args` or `call_filled`) without the argument-less ones of the `unread` sites: those whose
    items after the site (positional and keyword kinds, or the filled arguments) are all empty."""
    return [r for r in records if (r[0], r[1]) not in unread or any(r[2:])] if unread else records


def _unplaced_reads(reads: tuple[tuple[str, str, int, str], ...]) -> list[tuple[str, str, str]]:
    """A helper's host reads (`FunctionInfo.host_reads`) without their lines: callers read the parameter and the
    read, not where it is, so lines shifting above a helper keep the shape."""
    return [(param, kind, read) for param, kind, _line, read in reads]


def shape(summary: ModuleSummary, index: ProjectIndex) -> str:
    """What the hot path and the analysis of other functions read from a file, positions left out:
    every summary field, with each function's calls reduced to the project functions they reach (a new
    `.item()` or `torch.cuda.synchronize()` reaches none, so typing one changes nothing outside) and to
    whether it drives a step (`STEP_DRIVER_CALLS`), and its call-site records without the argument-less ones of
    calls that reach none (`_unread_sites`)."""
    def edges(fn: FunctionInfo | None, calls: list[tuple[str, int]], regions: list[tuple[int, int]]) -> list:
        reached = {(t.key, how, any(a <= line <= b for a, b in regions))
                   for callee, line in calls for t, how in index.call_edges(fn, summary.module, callee)}
        drives = any(callee.rpartition(".")[2] in STEP_DRIVER_CALLS for callee, _ in calls)
        return [sorted(reached), drives]

    parts: list = [summary.syntax_error is not None]
    for f in dataclasses.fields(summary):
        value = getattr(summary, f.name)
        if f.name == "functions":
            for fn in sorted(value.values(), key=lambda fn: fn.key):
                unread = _unread_sites(fn, summary.module, index)
                fields = [g.name for g in dataclasses.fields(fn) if g.name not in (*_WHERE, "calls", "regions")]
                parts.append([(g, _plain(_read_records(getattr(fn, g), unread) if g in _SITES
                                         else _unplaced_reads(fn.host_reads) if g == "host_reads" else getattr(fn, g)))
                              for g in fields])
                parts.append((bool(fn.regions), edges(fn, fn.calls, fn.regions)))
        elif f.name == "module_region_calls":
            parts.append(edges(None, value, summary.module_regions))
        elif f.name == "lambda_reads":
            parts.append((f.name, sorted((k, params, _unplaced_reads(reads)) for k, (params, reads) in value.items())))
        elif f.name not in ("path", "nesting", "syntax_error"):
            parts.append((f.name, _plain(value)))
    return repr(parts)


@dataclass(frozen=True)
class Reached:
    """A finding in another file whose `via` chain leaves this file at `line` (a call in a hot function)."""

    finding: Finding
    hops: tuple[Link, ...]
    line: int


class Project:
    """All Python files under the configuration root, with open buffers in place of their files."""

    def __init__(self, config: Config, *, cache_dir: Path | None = None) -> None:
        self.config = config
        self.cache_dir = cache_dir
        self.linter = MemoLinter(config)
        self.sources: dict[str, SourceFile] = {}
        self.summaries: dict[str, ModuleSummary] = {}
        self.shapes: dict[str, str] = {}
        self.index = ProjectIndex([], config.module_bases)
        self.hot: dict[str, HotInfo] = {}
        self._chains: Chains | None = None
        self._findings: dict[str, list[Finding]] = {}
        self._reaching: dict[str, set[str]] = {}  # file -> files with hot functions reached through it

    # -- state ------------------------------------------------------------------------------------
    def load(self) -> None:
        """Read and index every file (summaries through the on-disk cache the CLI shares)."""
        sources = distinct_modules([read_source(p) for p in discover([self.config.root], self.config)])
        for src, summary in zip(sources, index_only(sources, self.cache_dir)):
            self.sources[src.path] = src
            self.summaries[src.path] = summary
        self._index()
        self._new_hot_path()

    def update(self, shown: str, text: str | None) -> bool:
        """A file's new text (an edited buffer, or the disk after a change); None: the file is gone.
        Returns whether the hot path was recomputed (the edit changed the file's shape)."""
        old_src, old_summary = self.sources.get(shown), self.summaries.get(shown)
        if (text is None and old_src is None) or (old_src is not None and old_src.text == text):
            return False
        # A file's shape is computed when it is first edited (before the index changes), not at load.
        old_shape = self.shapes.get(shown)
        if old_shape is None and old_summary is not None:
            old_shape = shape(old_summary, self.index)
        if text is None:
            del self.sources[shown], self.summaries[shown]
            self._index()
        else:
            path = Path(shown)
            # a file keeps the name the project gave it (`distinct_modules`); a new one is named by its path
            module = old_src.module if old_src is not None else module_name_for(path)
            src = decode_source(text, shown, module, path.name == "__init__.py")
            self.sources[shown] = src
            self.summaries[shown] = build_summary(src)
            if old_summary is None or not self.index.replace(old_summary, self.summaries[shown]):
                self._index()
        self._findings.pop(shown, None)
        new_shape = shape(self.summaries[shown], self.index) if text is not None else None
        if new_shape is None:
            self.shapes.pop(shown, None)
        else:
            self.shapes[shown] = new_shape
        if new_shape == old_shape:
            return False
        self._new_hot_path()
        return True

    def _index(self) -> None:
        self.index = ProjectIndex(list(self.summaries.values()), self.config.module_bases)
        if self._chains is not None:
            self._chains.index = self.index

    def _new_hot_path(self) -> None:
        self.hot = self.linter.hot_map(self.index)
        self._chains = None
        self.linter.memo.clear()  # any unit may read what changed (a return kind, a class attribute)
        self._findings.clear()
        self._reaching.clear()

    @property
    def chains(self) -> Chains:
        if self._chains is None:
            self._chains = Chains(self.index, self.hot)
        return self._chains

    # -- results ----------------------------------------------------------------------------------
    def findings(self, shown: str) -> list[Finding]:
        """The file's findings, exactly what `graphlint` reports for it in this project."""
        found = self._findings.get(shown)
        if found is None:
            src, summary = self.sources.get(shown), self.summaries.get(shown)
            found = [] if src is None or summary is None else \
                sorted(self.linter.lint_one(src, summary, self.index, self.hot), key=lambda f: f.sort_key)
            self._findings[shown] = found
        return found

    def reached(self, shown: str) -> list[Reached]:
        """Findings in other files whose chain runs through a hot function of `shown`, each placed at
        the call where the chain leaves `shown` (the hazard a helper edit creates in its caller)."""
        out = []
        for path in sorted(self.reaching(shown)):
            for f in self.findings(path):
                hops = self.chains.hops(f)
                exits = [h.line for h, nxt in zip(hops, hops[1:])
                         if h.function.path == shown and nxt.function.path != shown]
                if exits:
                    out.append(Reached(f, tuple(hops), exits[-1]))
        return out

    def reaching(self, shown: str) -> set[str]:
        """The other files holding hot functions whose chain passes through `shown` (kept until the hot
        path changes: an edit that keeps every shape keeps every chain's functions)."""
        found = self._reaching.get(shown)
        if found is None:
            chains, found = self.chains, set()
            labels = {self.hot[key].hop.label for key in chains.by_path.get(shown, ()) if self.hot[key].hop}
            for path, keys in chains.by_path.items():
                if path == shown:
                    continue
                for fn in chains.functions(keys):
                    if _passes(self.hot[fn.key].hop, labels) and \
                            any(link.function.path == shown for link in chains.function_hops(fn)[:-1]):
                        found.add(path)
                        break
            self._reaching[shown] = found
        return found

    def text(self, shown: str) -> str | None:
        src = self.sources.get(shown)
        return src.text if src is not None else None


def _passes(hop, labels: set[str]) -> bool:
    """Whether a caller up the chain of `hop` carries one of `labels` (cheap: labels are not unique)."""
    hop = hop.parent if hop is not None else None
    while hop is not None:
        if hop.label in labels:
            return True
        hop = hop.parent
    return False


def cold_marker_edit(project: Project, finding: Finding) -> tuple[str, Edit] | None:
    """(qualname, edit) appending `# graphlint: cold` to the `def` line of the hot function that
    reported `finding`; None at module level or when the function is marked already."""
    fn = project.chains.function_of(finding)
    text = project.text(finding.path)
    if fn is None or text is None:
        return None
    lines = text.splitlines()
    if fn.lineno > len(lines) or "cold" in fn.markers:
        return None
    line = lines[fn.lineno - 1]
    end = len(line.rstrip())
    return fn.qualname, Edit(fn.lineno, end + 1, fn.lineno, len(line) + 1, "  # graphlint: cold")
