"""Run graphlint over a set of files: `Linter.lint_sources` runs the phases in order.

The caller discovers the files (graphlint/pipeline/discovery.py) and reads them (`read_source`). Then:
index each file (phase 1, per file, cached by content) -> resolve names across the project
(`ProjectIndex`) -> find the hot path (`Linter.hot_map`) -> check each file's hot functions and apply its
suppressions (phase 2, per file, cached by `file_key`) -> sort the findings for the reporters
(graphlint/report/). The per-file phases run in forked workers (graphlint/pipeline/workers.py) that
inherit `_STATE`; an exception in a phase becomes a GL002 finding for the file (the function, in the check
phase), and such results are never cached, so the next run tries again.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field, replace
from pathlib import Path

from typing import Callable, Iterator

from graphlint.check.context import Unit
from graphlint.check.trees import sharing
from graphlint.check.walker import analyze_unit
from graphlint.pipeline.cache import Cache, Dependencies, content_hash, file_key, hot_entries, settings_key
from graphlint.pipeline.config import SCOPE_TIERS, Config
from graphlint.diagnostics import INTERNAL_ERROR, UNROOTED, Finding, internal_error, internal_error_from
from graphlint.facts.kinds import Inst
from graphlint.index.summary import SCRIPT, FunctionInfo, ModuleSummary, index_source
from graphlint.index.library_api import LIBRARY_API
from graphlint.index.serving import MODEL_API
from graphlint.index.project import MAIN_BLOCK, HotInfo, ProjectIndex
from graphlint.lines import source_lines
from graphlint.rules import ALL_RULES
from graphlint.pipeline.selection import enabled_codes, file_codes
from graphlint.pipeline.sources import SourceFile, decode_source, distinct_modules, read_source
from graphlint.pipeline.workers import map_items, pool_size
from graphlint.report.suppression import apply_noqa, parse_noqa, unused_noqa

Progress = Callable[[str, int], Callable[[], None]]  # progress(phase, total) -> a per-item tick


# The deepest expression (in libcst nodes, as graphlint.index.project measures it) a function may hold to be
# checked. The walker (graphlint.check) recurses per level and runs out of Python stack from ~240 levels; libcst's
# native parser overflows the C stack (a segfault, not an exception) from ~5,000. Deeper functions are
# reported as GL002 without being parsed.
MAX_NESTING = 200


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    functions: int = 0  # defined in the linted files
    checked: int = 0  # of those, checked: the hot path (`--scope all`: every function not cold)
    checkable: int = 0  # what `--scope all` checks: every function not cold
    capture_sites: bool | None = None  # did the project capture anything (None: not computed)
    # The project the findings came from (for `via` chain locations: graphlint.index.chains).
    index: ProjectIndex | None = None
    hot: dict[str, HotInfo] = field(default_factory=dict)
    unrooted: bool | None = None  # no hot root: every function was checked, as with `--scope all`
    scope: str = "hot"  # what `checked` counts: the hot path, or the captured / step part of it


def _library_rooted(info: HotInfo) -> bool:
    """`info`'s chain starts at a library's exported API or at the inference API of a model-owning class (what a
    library's users call: `index/serving.py`), or at a program's `__main__` block (its body in a def, as its own
    lines: `_main_entries`), not at a root of the tree's own."""
    via = info.via
    return bool(via) and (LIBRARY_API in via[0] or MODEL_API in via[0] or MAIN_BLOCK in via[0])


def build_summary(src: SourceFile) -> ModuleSummary:
    if src.text is None:
        return ModuleSummary(module=src.module, path=src.path)
    return index_source(src.text, src.path, src.module, src.is_package)


def units_for(summary: ModuleSummary, hot: dict[str, HotInfo], lines: list[str]) -> list[Unit]:
    """The hot functions (and the module's top level: wholly where it is hot, else its capture regions) of a
    file, as libcst sources cut from `lines` (the file's, from `libcst_lines`)."""
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
    top = hot.get(summary.script.key) if summary.script is not None else None
    if top is None and summary.module_regions:
        top = HotInfo(via=("<module> (capture region)",), whole=False, tier="captured")
    if top is not None:  # (a hot top level's capture regions stay `captured`: the walker's capture depth)
        units.append(Unit(None, top, "".join(lines), 0))
    return units


def libcst_lines(text: str) -> tuple[list[str], dict[int, int]]:
    """The file's lines (ends kept) as libcst must see them, and {line: characters cut from its start}.

    A line holding only a backslash becomes an empty one (libcst rejects it as a block's first line). A form
    feed in a line's leading whitespace resets Python's indentation count; libcst's tokenizer
    does not do that: it rejects a deeper block that starts after one, and elsewhere drops the form feed,
    which shifts every column on the line. So the whitespace up to the last form feed goes, and
    `unshift` moves findings on those lines back to the file's columns."""
    lines = source_lines(text, keepends=True)
    cuts = {}
    for i, line in enumerate(lines):
        if "\\" not in line and "\f" not in line:
            continue  # (most lines: neither case can apply)
        body = line.rstrip("\r\n")
        if body.strip(" \t\f") == "\\" and not (i and lines[i - 1].rstrip("\r\n").endswith("\\")):
            # a line that is only a backslash joins nothing to the next one; libcst's parser rejects it before
            # a block's first statement, where Python accepts it: an empty line there reads the same
            lines[i] = line[len(body):]
            continue
        cut = line[: len(line) - len(line.lstrip(" \t\f"))].rfind("\f") + 1
        if cut:
            lines[i] = line[cut:]
            cuts[i + 1] = cut
    return lines, cuts


def unshift(f: Finding, cuts: dict[int, int]) -> Finding:
    """`f` (and its fix) in the file's columns, from those of `libcst_lines`."""
    def col(line: int, column: int) -> int:
        return column + cuts.get(line, 0)

    fix = tuple(replace(e, column=col(e.line, e.column), end_column=col(e.end_line, e.end_column)) for e in f.fix)
    return replace(f, column=col(f.line, f.column), end_column=col(f.end_line, f.end_column), fix=fix)


GC_YOUNG_THRESHOLD = 10_000  # allocations between two scans of the collector's youngest generation (`lint_sources`)


class Linter:
    """Holds the configuration and the enabled rules; lints a set of files or one source text."""

    def __init__(self, config: Config, *, jobs: int | None = 1, cache_dir: Path | None = None,
                 progress=None, unrooted_fallback: bool = False) -> None:
        """`jobs=None` uses every core; `cache_dir` enables the result cache; `progress(phase, total)`
        returns a tick callback (the CLI passes a rich progress bar on terminals); `unrooted_fallback=True`
        checks every function when nothing is a hot root, for callers that lint a tree (the CLI on a
        folder, the editor's workspace); files named one by one, a buffer, or the flake8 plugin's one file
        at a time are a selection whose roots may be elsewhere."""
        self.config = config
        self.jobs = jobs
        self.cache_dir = cache_dir
        self.progress = progress
        known = {r.code: r.default_enabled for r in ALL_RULES}
        self.enabled = enabled_codes(config, known)
        self.capture_sites: bool | None = None  # set by hot_map: did the project capture anything?
        self.unrooted_fallback = unrooted_fallback
        self.unrooted: bool | None = None  # set by hot_map: no hot root, every function checked instead
        self.known = set(known)

    def rules_for(self, codes: frozenset[str]) -> list[type]:
        return [r for r in ALL_RULES if r.code in codes and hasattr(r, "hooks") and r.hooks()]

    def hot_map(self, index: ProjectIndex) -> dict[str, HotInfo]:
        cfg = self.config
        hot = index.hot_functions(cfg.hot, cfg.cold, cfg.capture_regions)
        self.capture_sites = any(info.tier == "captured" for info in hot.values())
        # No root at all (a library whose callers live outside the linted tree: schedulers, samplers, kernel
        # wrappers): the default scope would check nothing, so it checks every function, as `--scope all`.
        # A library's exported API (`index/library_api.py`), or a model-owning class's inference API
        # (`index/serving.py`), is no root of the tree's own: a tree where only it is still falls back, as before (every function checked; what the API reaches keeps its `step` tier).
        self.unrooted = cfg.scope == "hot" and self.unrooted_fallback \
            and not any(i.whole and not _library_rooted(i) for i in hot.values())
        # A program's entry (a script's top level, its `__main__` block) is linted as one unit, in its driver's tier;
        # it is no root that narrows the fallback: it calls nothing into the hot path by itself.
        hot = {**hot, **index.entry_scripts}
        if cfg.scope == "all" or self.unrooted:
            everything = index.all_functions(cfg.cold, tier=UNROOTED if self.unrooted else None)
            if cfg.scope == "all":
                everything.update(index.script_units(cfg.cold))
            # Reached functions keep their chain, tier and capture flag; a function that is hot only in its
            # capture regions is linted whole, its other lines without a tier.
            for key, info in hot.items():
                if key in everything or key in index.entry_scripts:
                    everything[key] = info if info.whole else HotInfo(None, whole=True, capture=info.capture, tier=None)
            return index.with_host_paths(everything)
        if cfg.scope in SCOPE_TIERS:
            tiers = SCOPE_TIERS[cfg.scope]  # (a function with per-step loops has `step` lines whatever its tier)
            return index.with_host_paths(
                {k: v for k, v in hot.items() if v.tier in tiers or (v.steps and "step" in tiers) or not v.whole})
        return index.with_host_paths(hot)

    def lint_sources(self, sources: list[SourceFile]) -> LintResult:
        """The pipeline (`_lint_sources`), with the cyclic collector's youngest generation scanned every
        `GC_YOUNG_THRESHOLD` allocations instead of every 700: a file's `ast` tree and a unit's libcst tree are tens of
        thousands of objects, mostly freed by reference counting, and at 700 the collector scanned the live ones over
        and over (2.4 s of a 20 s cold run of transformers/models/[a-c]*; 1.5 s at 10,000). Restored afterwards."""
        thresholds = gc.get_threshold()
        gc.set_threshold(GC_YOUNG_THRESHOLD, *thresholds[1:])
        try:
            return self._lint_sources(sources)
        finally:
            gc.unfreeze()  # what the phases froze (`_index_phase`): a long-lived caller (the editor server) gets it back
            gc.set_threshold(*thresholds)

    def _lint_sources(self, sources: list[SourceFile]) -> LintResult:
        """The pipeline, phase by phase (README: "How it works")."""
        sources = distinct_modules(sources)  # one module name per file (folders that are no packages name none)
        cache = Cache.open(self.cache_dir)
        jobs = pool_size(self.jobs, len(sources))
        # 1. Index: each file's summary (functions, calls, imports, markers), from the cache when unchanged.
        hashes, summaries, errors = _index_phase(sources, cache, jobs, self.progress)
        # 2. Resolve names across the project: imports, re-exports, classes, attribute types.
        index = ProjectIndex(summaries, self.config.module_bases)
        # 3. Hot path: the functions reached from the roots, with the chain and tier of each.
        hot = self._hot_path(index, sources, summaries, errors)
        # 4 + 5. Check each file's hot functions, then apply its suppressions (`lint_one`), from the cache
        # when nothing the file's findings depend on changed. What exists now (sources, summaries, the index, the
        # hot path's memos) lives to the end of the run: frozen, the collector's full passes stop re-walking it (they
        # were a seventh of a cold run of transformers/models), and forked workers touch fewer shared pages.
        gc.freeze()
        keys = _finding_keys(self, sources, summaries, hashes, index, hot, cache)
        findings = _check_phase(self, sources, summaries, index, hot, keys, errors, cache, jobs)
        cache.save()
        # 6. Report: sorted findings and the counts the summary line shows (graphlint/report/).
        findings.sort(key=lambda f: f.sort_key)
        return LintResult(findings, len(sources), len(index.functions), _checked(index, hot),
                          _checked(index, index.all_functions(self.config.cold)), self.capture_sites, index, hot,
                          self.unrooted, self.config.scope)

    def _hot_path(self, index: ProjectIndex, sources: list[SourceFile], summaries: list[ModuleSummary],
                  errors: dict[int, list[Finding]]) -> dict[str, HotInfo]:
        """`hot_map`, or no hot path (every file with functions unchecked, GL002) when it fails."""
        try:
            return self.hot_map(index)
        except Exception as exc:  # noqa: BLE001 - no hot path: every file with functions goes unchecked
            for i, summary in enumerate(summaries):
                if summary.functions:
                    errors.setdefault(i, []).append(internal_error_from(sources[i].path, "hot path", exc))
            return {}

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
    """GL002 at the `def` of the function that could not be checked (line 1 for the module's top level)."""
    fn = unit.function
    where = fn.qualname if fn else SCRIPT
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


# --- the per-file phases, over the worker pool --------------------------------------------------------

_STATE: dict = {}  # what forked workers inherit: sources, summaries, the index, the hot map, the linter


def _noop() -> None:
    pass


def index_only(sources: list[SourceFile], cache_dir: Path | None, *, jobs: int | None = 1) -> list[ModuleSummary]:
    """Phase 1 alone (the editor server builds its in-memory project from it), through the cache."""
    cache = Cache.open(cache_dir)
    try:
        summaries = _index_phase(sources, cache, pool_size(jobs, len(sources)), None)[1]
    finally:
        gc.unfreeze()  # what `_index_phase` froze: the caller decides what stays frozen
    cache.save()
    return summaries


def _index_phase(sources: list[SourceFile], cache: Cache, jobs: int, progress: Progress | None
                 ) -> tuple[list[str], list[ModuleSummary], dict[int, list[Finding]]]:
    """Content hashes, summaries (from the cache when the content is unchanged) and the internal errors
    of files that could not be indexed (those are not checked)."""
    hashes = [content_hash(s) for s in sources]
    summaries: list[ModuleSummary | None] = [None] * len(sources)
    todo = []
    for i, (src, h) in enumerate(zip(sources, hashes)):
        hit = cache.summary(src, h)
        if hit is not None:
            summaries[i] = hit
        else:
            todo.append(i)
    _STATE.clear()
    _STATE.update(sources=sources)
    tick = progress("index", len(todo)) if progress and todo else _noop
    errors: dict[int, list[Finding]] = {}
    for i, (summary, failed) in map_items(_index_one, todo, jobs, tick, _index_failed):
        summaries[i] = summary
        # Each summary lives to the end of the run (`lint_sources` unfreezes): frozen as it comes, the collector's
        # full passes stop re-walking the growing set of them, and those of the hot path (6 s of a 90 s cold run of
        # transformers/models, most of it in the index and hot path phases, before this).
        gc.freeze()
        if failed:
            errors[i] = failed
            continue
        cache.put_summary(sources[i], hashes[i], summary)
    return hashes, summaries, errors  # type: ignore[return-value]


def _index_one(i: int) -> tuple[ModuleSummary, list[Finding]]:
    src = _STATE["sources"][i]
    # Indexing builds no reference cycle (the `ast` tree and the summary are trees: on all of transformers/models the
    # collector finds nothing unreachable after a file), so the collector's passes over a file's tree while it is
    # indexed were pure cost (1.6 s of a cold run of transformers/models).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return build_summary(src), []
    except Exception as exc:  # noqa: BLE001 - one file's failure must not end the run
        return ModuleSummary(module=src.module, path=src.path), [internal_error_from(src.path, "index", exc)]
    finally:
        if collecting:
            gc.enable()


def _index_failed(i: int, why: str, tb: str) -> tuple[ModuleSummary, list[Finding]]:
    src = _STATE["sources"][i]
    return ModuleSummary(module=src.module, path=src.path), [internal_error(src.path, "index", why, tb=tb)]


def _finding_keys(linter: Linter, sources: list[SourceFile], summaries: list[ModuleSummary], hashes: list[str],
                  index: ProjectIndex, hot: dict[str, HotInfo], cache: Cache) -> list[str]:
    """Each file's findings key (graphlint/pipeline/cache.py: settings, content, own hot entries, reach)."""
    if cache.folder is None:  # caching off (`--no-cache`): no key is read or stored, and building them walks the index
        return [""] * len(sources)
    deps = Dependencies(index, {s.module: cache.interface(src, s) for src, s in zip(sources, summaries)})
    # the host fields and methods of the whole project type receivers of unknown class in any file
    # (CallFacts.field, CallFacts.method); so does a default device some module moves (facts.default_device), and the
    # plain host fields of modules, which stores in any file of the class family decide (CallFacts.module_fields), and
    # the device fields that settle `obj.x` at call sites (CallFacts.device_fields)
    prefix = repr((settings_key(linter.config, linter.enabled), sorted(index.call_facts.fields().items()),
                   sorted(index.call_facts.device_fields().items()),
                   sorted(index.call_facts.methods().items()), index.call_facts.forwarded(),
                   index.default_device_moved, index.default_device_surely_moved, index.names_accelerator,
                   _sorted_or_none(index.default_moved_modules()),
                   index.entry_defaults_key(),
                   sorted(index.call_facts.module_fields().items()),
                   index.call_facts.keyed_digest()))
    own_hot = hot_entries(hot, index)
    return [file_key(prefix, h, own_hot.get(src.path, []), deps.digest(summary) + _instance_reach(
                own_hot.get(src.path, []), index, deps)) for src, summary, h in zip(sources, summaries, hashes)]


def _instance_reach(own_hot: list, index: ProjectIndex, deps: Dependencies) -> str:
    """The digests of the modules defining the classes whose instances the file's callers pass it as their own `self`
    (`Inst` call-site facts): the file reads those classes' methods and fields without importing them."""
    keys = {kind.name for entry in own_hot for _param, kind in entry[-1] if isinstance(kind, Inst)}
    mods = sorted({cls.module for key in keys if (cls := index.classes.get(key)) is not None})
    return "".join(deps.digests.get(m, "") for m in mods)


def _check_phase(linter: Linter, sources: list[SourceFile], summaries: list[ModuleSummary], index: ProjectIndex,
                 hot: dict[str, HotInfo], keys: list[str], errors: dict[int, list[Finding]], cache: Cache,
                 jobs: int) -> list[Finding]:
    """Every file's findings: its earlier internal errors, a cache hit, or `lint_one` in a worker."""
    results: list[list[Finding]] = [[] for _ in sources]
    todo = []
    for i, src in enumerate(sources):
        hit = cache.findings(src, keys[i]) if i not in errors else None
        if i in errors:
            results[i] = errors[i]
        elif hit is not None:
            results[i] = hit
        else:
            todo.append(i)
    _STATE.update(linter=linter, summaries=summaries, index=index, hot=hot)
    tick = linter.progress("lint", len(todo)) if linter.progress and todo else _noop
    with sharing(_unit_texts(sources, summaries, hot, todo)):
        for i, found in map_items(_lint_one, todo, jobs, tick, _lint_failed):
            results[i] = found
            if not any(f.code == INTERNAL_ERROR for f in found):
                cache.put_findings(sources[i], keys[i], found)
    _STATE.clear()
    return [f for found in results for f in found]


def _unit_texts(sources: list[SourceFile], summaries: list[ModuleSummary], hot: dict[str, HotInfo],
                todo: list[int]) -> Iterator[str]:
    """The text of each unit the files `todo` will check, for the phase to parse a text shared by several units once
    (graphlint/check/trees.py). Cut from the plain lines, not `libcst_lines`' (a third of a second more on
    transformers/models): the two differ only on a line with a form feed or a lone backslash, and a unit whose text
    differs is parsed on its own."""
    for i in todo:
        summary = summaries[i]
        if sources[i].error is None and summary.syntax_error is None and not summary.skip_file:
            lines = source_lines(sources[i].text or "", keepends=True)
            yield from (unit.source for unit in units_for(summary, hot, lines))


def _lint_one(i: int) -> list[Finding]:
    linter: Linter = _STATE["linter"]
    src = _STATE["sources"][i]
    try:
        return linter.lint_one(src, _STATE["summaries"][i], _STATE["index"], _STATE["hot"])
    except Exception as exc:  # noqa: BLE001 - lint_one guards each function; this is the rest of it
        return [internal_error_from(src.path, "check", exc)]


def _lint_failed(i: int, why: str, tb: str) -> list[Finding]:
    return [internal_error(_STATE["sources"][i].path, "check", why, tb=tb)]


def _checked(index: ProjectIndex, hot: dict[str, HotInfo]) -> int:
    """Functions in the hot map, and nested defs checked inline with a wholly hot ancestor."""
    count = 0
    for fn in index.functions.values():
        cur: FunctionInfo | None = fn
        while cur is not None and not (cur.key in hot and (cur is fn or hot[cur.key].whole)):
            cur = index.functions.get(cur.parent_key) if cur.parent_key else None
        count += cur is not None
    return count


def _sorted_or_none(names: frozenset[str] | None) -> list[str] | None:
    """A set in a stable order for a cache key (a frozenset's repr follows the process's string hashes)."""
    return None if names is None else sorted(names)
