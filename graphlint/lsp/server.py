"""`graphlint server`: a Language Server over stdio (pygls), with project-wide diagnostics.

What an editor gets:

* `textDocument/publishDiagnostics` for every open file on open, on change (debounced, `debounce`
  milliseconds) and on save, from the unsaved buffer text. Each diagnostic carries the code, the
  severity, the rule's documentation URL (`codeDescription.href`), the `via` chain as
  `relatedInformation` (one location per hop: the call that leads to the next) and, when the finding
  has one, its tier (`data.tier`).
* A finding in another file whose chain runs through an open file is also shown in that file, as an
  Information diagnostic at the call where the chain leaves it: editing a helper shows the `.item()`
  it gained in the `forward` that calls it, and every open file whose findings changed is republished.
* Code actions: the finding's fix (safe ones as preferred quick fixes, unsafe ones labelled), `# noqa:
  CODE` on its line, and "mark this function `# graphlint: cold`"; `source.fixAll.graphlint` and the
  command `graphlint.applyFixes` fix the whole file. Hovering a finding shows `graphlint rule CODE`.
* Configuration: `[tool.graphlint]` of the workspace (reloaded when a pyproject.toml changes) with the
  LSP settings (`initializationOptions`, `workspace/configuration` section `graphlint`,
  `workspace/didChangeConfiguration`) layered on top like command-line flags: docs/editors.md.

All analysis runs in one worker thread, so the event loop keeps answering while a large project loads;
the project state (graphlint.lsp.project) is touched from that thread only.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import PositionCodec

from graphlint import __version__
from graphlint.pipeline.config import Config, ConfigError, SCOPES
from graphlint.pipeline.config import load as load_config
from graphlint.diagnostics import Edit, Finding
from graphlint.pipeline.sources import read_source
from graphlint.lsp.project import Project, Reached, cold_marker_edit

log = logging.getLogger("graphlint.lsp")
T = TypeVar("T")

APPLY_FIXES = "graphlint.applyFixes"
FIX_ALL_KIND = f"{lsp.CodeActionKind.SourceFixAll.value}.graphlint"
SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}


@dataclass(frozen=True)
class Settings:
    """The LSP settings (section `graphlint`), applied on top of `[tool.graphlint]` like CLI flags."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    scope: str | None = None
    hot: tuple[str, ...] = ()
    cold: tuple[str, ...] = ()
    config_file: str | None = None
    debounce_ms: int = 100
    unsafe_fixes: bool = False  # whether applyFixes / fixAll apply unsafe fixes too (quick fixes always show)
    show_reached: bool = True

    @classmethod
    def parse(cls, raw: Any) -> "Settings":
        """From the client's JSON (`{"graphlint": {...}}` or the section itself); bad values: ConfigError."""
        if isinstance(raw, dict) and isinstance(raw.get("graphlint"), dict):
            raw = raw["graphlint"]
        if not isinstance(raw, dict):
            return cls()

        def codes(key: str) -> tuple[str, ...]:
            value = raw.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"setting graphlint.{key} must be a list of strings, got {value!r}")
            return tuple(v.strip().upper() if key != "hot" and key != "cold" else v for v in value)

        scope = raw.get("scope")
        if scope is not None and scope not in SCOPES:
            raise ConfigError(f"setting graphlint.scope must be one of {', '.join(SCOPES)}, got {scope!r}")
        debounce = raw.get("debounce", cls.debounce_ms)
        if not isinstance(debounce, int) or isinstance(debounce, bool) or debounce < 0:
            raise ConfigError(f"setting graphlint.debounce must be milliseconds (an integer >= 0), got {debounce!r}")
        config_file = raw.get("configFile")
        if config_file is not None and not isinstance(config_file, str):
            raise ConfigError(f"setting graphlint.configFile must be a path, got {config_file!r}")
        return cls(select=codes("select") if "select" in raw else None, extend_select=codes("extendSelect"),
                   ignore=codes("ignore"), scope=scope, hot=codes("hot"), cold=codes("cold"),
                   config_file=config_file or None, debounce_ms=debounce,
                   unsafe_fixes=bool(raw.get("unsafeFixes", False)), show_reached=bool(raw.get("showReached", True)))

    def apply(self, config: Config) -> Config:
        from graphlint.pipeline.selection import command_line_layer

        config = config.with_overrides(scope=self.scope, hot=config.hot + self.hot if self.hot else None,
                                       cold=config.cold + self.cold if self.cold else None)
        try:  # the command line's layering, so a setting means what the same flag means
            return command_line_layer(config, self.select, self.extend_select, self.ignore)
        except ConfigError as exc:
            message = str(exc)
            for flag, setting in (("--select", "select"), ("--extend-select", "extendSelect"), ("--ignore", "ignore")):
                message = message.replace(f" in {flag} ", f" in setting graphlint.{setting} ")
            raise ConfigError(message) from None


@dataclass
class Published:
    """What one document shows: its diagnostics and the finding behind each (None: a reached one)."""

    version: int | None
    diagnostics: list[lsp.Diagnostic] = field(default_factory=list)
    findings: list[Finding | None] = field(default_factory=list)


class GraphlintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("graphlint", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.root = Path.cwd()
        self.settings = Settings()
        self.project: Project | None = None
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphlint")
        self.published: dict[str, Published] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.ready = asyncio.Event()
        self._lines: dict[str, list[str]] = {}  # per analysis, in the worker thread

    # -- plumbing -----------------------------------------------------------------------------------
    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn` in the analysis thread (the only thread that touches the project)."""
        return await asyncio.get_running_loop().run_in_executor(self.worker, fn, *args)

    def shown(self, uri: str) -> str | None:
        path = to_fs_path(uri)
        if path is None:
            return None
        try:
            return str(Path(path).resolve().relative_to(self.root))
        except ValueError:
            return str(Path(path).resolve())

    def uri(self, shown: str) -> str:
        return from_fs_path(str(self.root / shown)) or shown

    def error(self, message: str) -> None:
        log.error(message)
        self.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Error, message=f"graphlint: {message}"))

    def lintable(self, uri: str) -> str | None:
        """The displayed path of a Python document the configuration does not exclude, else None
        (a library file opened by go-to-definition gets no diagnostics, as with `--force-exclude`)."""
        from graphlint.pipeline.discovery import is_excluded

        shown = self.shown(uri)
        if shown is None or not shown.endswith((".py", ".pyi")):
            return None
        if self.project is not None and is_excluded(Path(shown), self.project.config):
            return None
        return shown

    def open_documents(self) -> dict[str, str]:
        """shown path -> uri of the open Python documents that are linted."""
        out = {}
        for uri in list(self.workspace.text_documents):
            shown = self.lintable(uri)
            if shown is not None:
                out[shown] = uri
        return out

    # -- configuration --------------------------------------------------------------------------------
    def build_config(self) -> Config:
        explicit = Path(self.settings.config_file) if self.settings.config_file else None
        return self.settings.apply(load_config(self.root, explicit))

    async def reload(self) -> None:
        """(Re)build the project from `[tool.graphlint]` and the settings; a bad config keeps the last
        good one (or the defaults) and says why once."""
        try:
            config = self.build_config()
        except ConfigError as exc:
            self.error(str(exc))
            if self.project is not None:
                return
            config = Config(root=self.root)
        from graphlint.pipeline.cache import cache_dir_for

        # The CLI's cache (GRAPHLINT_CACHE_DIR, then config cache-dir, then .graphlint_cache): a warm start.
        cache_dir = cache_dir_for(config)
        project = Project(config, cache_dir=cache_dir)
        try:
            await self.run(project.load)
        except Exception:  # noqa: BLE001 - without the index, open files are still linted one by one
            log.exception("graphlint could not index %s", config.root)
            self.error(f"could not index the project under {config.root} (see the server log); "
                       "linting open files only")
            project = Project(config, cache_dir=cache_dir)
        self.project = project
        # The index is long-lived: keep the cyclic GC from walking it again on every edit (a full
        # collection over the 2,400-file corpus's summaries stalls a re-lint by ~0.5 s). Unfreeze
        # first, so that a reload's collection can free the previous project.
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.published.clear()
        await self.relint({shown: self.workspace.get_text_document(uri).source
                           for shown, uri in self.open_documents().items()})
        self.ready.set()

    async def pull_settings(self) -> None:
        caps = self.client_capabilities.workspace
        if caps is None or not caps.configuration:
            return
        try:
            result = await self.workspace_configuration_async(
                lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="graphlint")]))
        except Exception as exc:  # noqa: BLE001 - a client that fails the request keeps the current settings
            log.warning("workspace/configuration failed: %s", exc)
            return
        if result and isinstance(result[0], dict):
            self.set_settings(result[0])

    def set_settings(self, raw: Any) -> bool:
        try:
            self.settings = Settings.parse(raw)
        except ConfigError as exc:
            self.error(str(exc))
            return False
        return True

    # -- linting ----------------------------------------------------------------------------------------
    def schedule(self, shown: str, uri: str) -> None:
        """Re-lint after `debounce` ms of quiet on this document."""
        handle = self.pending.pop(shown, None)
        if handle is not None:
            handle.cancel()
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self.pending.pop(shown, None)
            doc = self.workspace.get_text_document(uri)
            loop.create_task(self.relint({shown: doc.source}))

        self.pending[shown] = loop.call_later(self.settings.debounce_ms / 1000, fire)

    async def relint(self, texts: dict[str, str | None]) -> None:
        """Apply new texts (None: back to the file on disk) and publish what changed in open files."""
        if self.project is None:
            return
        open_docs = self.open_documents()
        versions = {shown: self.workspace.get_text_document(uri).version for shown, uri in open_docs.items()}
        try:
            results = await self.run(self._analyse, self.project, texts, open_docs, versions)
        except Exception:  # noqa: BLE001 - one bad edit must not take the editor's diagnostics down
            log.exception("graphlint failed to lint %s", ", ".join(texts))
            self.error(f"internal error while linting {', '.join(texts)} (see the server log)")
            return
        for shown, pub in results.items():
            old = self.published.get(shown)
            self.published[shown] = pub
            if old is None or old.diagnostics != pub.diagnostics:
                self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                    uri=open_docs[shown], diagnostics=pub.diagnostics, version=pub.version))

    def _analyse(self, project: Project, texts: dict[str, str | None], open_docs: dict[str, str],
                 versions: dict[str, int | None]) -> dict[str, Published]:
        for shown, text in texts.items():
            if text is None and (self.root / shown).is_file():  # decoded as Python does (PEP 263)
                text = read_source(self.root / shown, shown).text
            project.update(shown, text)
        self._lines.clear()
        return {shown: self.diagnostics(project, shown, versions.get(shown)) for shown in open_docs}

    def lines(self, project: Project, shown: str) -> list[str]:
        """A file's lines, split once per analysis (chains point into the same files again and again)."""
        found = self._lines.get(shown)
        if found is None:
            found = self._lines[shown] = (project.text(shown) or "").splitlines()
        return found

    def diagnostics(self, project: Project, shown: str, version: int | None) -> Published:
        lines = self.lines(project, shown)
        pub = Published(version)
        for f in project.findings(shown):
            pub.diagnostics.append(self.diagnostic(project, f, lines))
            pub.findings.append(f)
        if self.settings.show_reached:
            for r in project.reached(shown):
                pub.diagnostics.append(self.reached_diagnostic(project, r, lines))
                pub.findings.append(None)
        return pub

    # -- conversion -------------------------------------------------------------------------------------
    @property
    def codec(self) -> PositionCodec:
        return self.workspace.position_codec

    def range(self, lines: list[str], line: int, column: int, end_line: int, end_column: int) -> lsp.Range:
        """1-based, end-exclusive code-point positions -> an LSP range in the client's units."""
        start = lsp.Position(line=max(line - 1, 0), character=max(column - 1, 0))
        end = lsp.Position(line=max(end_line - 1, 0), character=max(end_column - 1, 0))
        return self.codec.range_to_client_units(lines, lsp.Range(start=start, end=end))

    def line_range(self, lines: list[str], line: int) -> lsp.Range:
        """The text of a line, indentation left out."""
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return self.range(lines, line, len(text) - len(text.lstrip()) + 1, line, len(text.rstrip()) + 1)

    def location(self, project: Project, shown: str, line: int) -> lsp.Location:
        return lsp.Location(uri=self.uri(shown), range=self.line_range(self.lines(project, shown), line))

    def related(self, project: Project, finding: Finding) -> list[lsp.DiagnosticRelatedInformation]:
        """One location per hop of the `via` chain: the call that leads on to the next hop."""
        hops = project.chains.hops(finding)
        out = []
        for i, hop in enumerate(hops[:-1]):
            nxt = hops[i + 1].function.qualname
            root = " (hot root)" if i == 0 else ""
            out.append(lsp.DiagnosticRelatedInformation(
                location=self.location(project, hop.function.path, hop.line),
                message=f"via `{hop.function.qualname}`{root}: calls `{nxt}`"))
        if len(hops) == 1:  # the finding is in the root itself: point at why it is hot
            out.append(lsp.DiagnosticRelatedInformation(
                location=self.location(project, hops[0].function.path, hops[0].function.lineno),
                message=f"`{hops[0].function.qualname}` is a hot root"))
        return out

    def diagnostic(self, project: Project, f: Finding, lines: list[str]) -> lsp.Diagnostic:
        from graphlint.report.output import rule_url

        url = rule_url(f.code)
        data: dict[str, Any] = {"fixable": bool(f.fix)}
        if f.fix:
            data["applicability"] = f.fix_applicability
        if f.context:
            data["tier"] = f.context
        return lsp.Diagnostic(
            range=self.range(lines, f.line, f.column, f.end_line, f.end_column),
            # The tiers closer to the captured step than "forward" are worth reading in the message itself.
            message=f.message + (f" [{f.context}]" if f.context in ("captured", "step") else ""),
            severity=SEVERITY.get(f.severity, lsp.DiagnosticSeverity.Information),
            code=f.code, code_description=lsp.CodeDescription(href=url) if url else None, source="graphlint",
            related_information=self.related(project, f) or None, data=data)

    def reached_diagnostic(self, project: Project, r: Reached, lines: list[str]) -> lsp.Diagnostic:
        from graphlint.report.output import rule_url

        f, target = r.finding, r.hops[-1].function
        url = rule_url(f.code)
        related = self.related(project, f) + [lsp.DiagnosticRelatedInformation(
            location=lsp.Location(uri=self.uri(f.path), range=self.range(
                self.lines(project, f.path), f.line, f.column, f.end_line, f.end_column)),
            message=f"{f.code}: {f.message}")]
        return lsp.Diagnostic(
            range=self.line_range(lines, r.line),
            message=f"{f.message} (in `{target.qualname}`, {f.path}:{f.line}, reached through this call)",
            severity=lsp.DiagnosticSeverity.Information, code=f.code,
            code_description=lsp.CodeDescription(href=url) if url else None, source="graphlint",
            related_information=related, data={"reached": f"{f.path}:{f.line}:{f.column}"})

    def text_edit(self, lines: list[str], e: Edit) -> lsp.TextEdit:
        return lsp.TextEdit(range=self.range(lines, e.line, e.column, e.end_line, e.end_column), new_text=e.replacement)

    def workspace_edit(self, uri: str, version: int | None, edits: list[lsp.TextEdit]) -> lsp.WorkspaceEdit:
        doc = lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        return lsp.WorkspaceEdit(document_changes=[lsp.TextDocumentEdit(text_document=doc, edits=edits)])

    # -- code actions -----------------------------------------------------------------------------------
    async def code_actions(self, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        shown, pub = self.shown(uri), None
        if shown is not None:
            pub = self.published.get(shown)
        if pub is None or self.project is None:
            return []
        doc = self.workspace.get_text_document(uri)
        lines = doc.source.splitlines()
        only = params.context.only
        actions: list[lsp.CodeAction] = []

        def wants(kind: str) -> bool:
            return only is None or any(kind.startswith(getattr(k, "value", k)) for k in only)

        if wants(lsp.CodeActionKind.QuickFix):
            for diag, f in zip(pub.diagnostics, pub.findings):
                if f is not None and _overlaps(diag.range, params.range):
                    actions.extend(self.finding_actions(uri, doc.version, lines, diag, f))
        # Fix-all only when asked for by kind (fix on save): it runs the fix rounds.
        if only is not None and wants(FIX_ALL_KIND) and any(f is not None and f.fix for f in pub.findings):
            edit = await self.fix_all_edit(uri)
            if edit is not None:
                actions.append(lsp.CodeAction(title="graphlint: fix all auto-fixable problems", kind=FIX_ALL_KIND,
                                              edit=edit))
        return actions

    def finding_actions(self, uri: str, version: int | None, lines: list[str], diag: lsp.Diagnostic,
                        f: Finding) -> list[lsp.CodeAction]:
        from graphlint.report.suppression import add_noqa

        assert self.project is not None
        out = []
        if f.fix:
            unsafe = f.fix_applicability == "unsafe"
            label = " (unsafe: may change results)" if unsafe else ""
            out.append(lsp.CodeAction(
                title=f"Fix {f.code}: {f.fix_hint or f.message}{label}", kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[diag], is_preferred=not unsafe,
                edit=self.workspace_edit(uri, version, [self.text_edit(lines, e) for e in f.fix])))
        text = "\n".join(lines)
        noqa_text, changed = add_noqa(text, [f])
        if changed:
            edits = [lsp.TextEdit(range=self.range(lines, n, 1, n, len(old) + 1), new_text=new)
                     for n, (old, new) in enumerate(zip(lines, noqa_text.split("\n")), start=1) if old != new]
            out.append(lsp.CodeAction(title=f"Disable {f.code} for this line (# noqa: {f.code})",
                                      kind=lsp.CodeActionKind.QuickFix, diagnostics=[diag],
                                      edit=self.workspace_edit(uri, version, edits)))
        cold = cold_marker_edit(self.project, f)
        if cold is not None:
            qualname, edit = cold
            out.append(lsp.CodeAction(title=f"Mark `{qualname}` cold (# graphlint: cold)",
                                      kind=lsp.CodeActionKind.QuickFix, diagnostics=[diag],
                                      edit=self.workspace_edit(uri, version, [self.text_edit(lines, edit)])))
        return out

    def fixed_text(self, project: Project, shown: str) -> str | None:
        """The file with every applicable fix applied (the CLI's fix rounds, in the project context)."""
        from graphlint.report.fix import Target, fix_rounds

        src = project.sources.get(shown)
        if src is None or src.text is None:
            return None
        original = src.text
        target = Target(None, src, original)
        try:
            fix_rounds(_ProjectLinter(project, shown), [target], unsafe=self.settings.unsafe_fixes)
        finally:
            project.update(shown, original)  # the buffer is the truth until the client applies the edit
        return target.source.text

    async def fix_all_edit(self, uri: str) -> lsp.WorkspaceEdit | None:
        """One edit replacing the document with its fixed text; None when nothing is fixable."""
        shown = self.shown(uri)
        if shown is None or self.project is None:
            return None
        doc = self.workspace.get_text_document(uri)
        before, version = doc.source, doc.version
        after = await self.run(self.fixed_text, self.project, shown)
        if after is None or after == before:
            return None
        lines = before.split("\n")
        end = self.codec.position_to_client_units(lines, lsp.Position(line=len(lines) - 1, character=len(lines[-1])))
        whole = lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0), end=end), new_text=after)
        return self.workspace_edit(uri, version, [whole])

    async def apply_fixes(self, uri: str) -> None:
        edit = await self.fix_all_edit(uri)
        if edit is not None:
            await self.workspace_apply_edit_async(lsp.ApplyWorkspaceEditParams(edit=edit, label="graphlint: fix all"))

    # -- hover ------------------------------------------------------------------------------------------
    def hover(self, params: lsp.HoverParams) -> lsp.Hover | None:
        from graphlint.report.docs import explain

        shown = self.shown(params.text_document.uri)
        pub = self.published.get(shown) if shown else None
        if pub is None:
            return None
        codes = []
        for diag in pub.diagnostics:
            if _contains(diag.range, params.position) and diag.code not in codes:
                codes.append(diag.code)
        if not codes:
            return None
        texts = [text for text in map(explain, map(str, codes)) if text]  # exactly `graphlint rule CODE`
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n---\n".join(texts)))


class _ProjectLinter:
    """`Linter.lint_sources` for the CLI's fix rounds: lints one file's new text inside the project."""

    def __init__(self, project: Project, shown: str) -> None:
        self.project, self.shown = project, shown

    def lint_sources(self, sources):
        from graphlint.pipeline.engine import LintResult

        (src,) = sources
        self.project.update(self.shown, src.text)
        return LintResult(findings=self.project.findings(self.shown), files=1)


def _contains(r: lsp.Range, p: lsp.Position) -> bool:
    return (r.start.line, r.start.character) <= (p.line, p.character) <= (r.end.line, r.end.character)


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def _is_config(uri: str) -> bool:
    return uri.endswith("/pyproject.toml") or uri.endswith(".toml")


def build() -> GraphlintServer:
    """The server with its handlers registered."""
    server = GraphlintServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: GraphlintServer, params: lsp.InitializeParams) -> None:
        root = ls.workspace.root_path or (to_fs_path(params.workspace_folders[0].uri)
                                          if params.workspace_folders else None)
        ls.root = Path(root).resolve() if root else Path.cwd().resolve()
        # Display paths, excludes and the on-disk cache are relative to the current directory, as for
        # the CLI run from the workspace root.
        os.chdir(ls.root)
        if params.initialization_options is not None:
            ls.set_settings(params.initialization_options)

    @server.feature(lsp.INITIALIZED)
    async def initialized(ls: GraphlintServer, params: lsp.InitializedParams) -> None:
        await ls.pull_settings()
        await ls.reload()
        caps = ls.client_capabilities.workspace
        watch = caps.did_change_watched_files if caps else None
        if watch is not None and watch.dynamic_registration:
            watchers = [lsp.FileSystemWatcher(glob_pattern=g) for g in ("**/*.toml", "**/*.py", "**/*.pyi")]
            try:
                await ls.client_register_capability_async(lsp.RegistrationParams(registrations=[lsp.Registration(
                    id="graphlint-watch", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=lsp.DidChangeWatchedFilesRegistrationOptions(watchers=watchers))]))
            except Exception as exc:  # noqa: BLE001 - without watchers, saving a file in the editor still works
                log.warning("could not register file watchers: %s", exc)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: GraphlintServer, params: lsp.DidOpenTextDocumentParams) -> None:
        await ls.ready.wait()
        shown = ls.lintable(params.text_document.uri)
        if shown is not None:
            await ls.relint({shown: params.text_document.text})

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: GraphlintServer, params: lsp.DidChangeTextDocumentParams) -> None:
        shown = ls.lintable(params.text_document.uri)
        if shown is not None:
            ls.schedule(shown, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: GraphlintServer, params: lsp.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if _is_config(uri):
            await ls.reload()
            return
        shown = ls.lintable(uri)
        if shown is not None:
            handle = ls.pending.pop(shown, None)
            if handle is not None:
                handle.cancel()
            document = ls.workspace.text_documents.get(uri)  # a save of a file the client never opened: disk
            await ls.relint({shown: document.source if document is not None else None})

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: GraphlintServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))
        shown = ls.lintable(params.text_document.uri)
        if shown is None:
            return
        handle = ls.pending.pop(shown, None)
        if handle is not None:
            handle.cancel()
        ls.published.pop(shown, None)
        await ls.relint({shown: None})  # the file on disk is the truth again

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched(ls: GraphlintServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        if any(_is_config(c.uri) for c in params.changes):
            await ls.reload()
            return
        open_docs = ls.open_documents()
        texts: dict[str, str | None] = {}
        for change in params.changes:
            shown = ls.lintable(change.uri)
            if shown is not None and shown not in open_docs:
                texts[shown] = None  # re-read from disk (or dropped when deleted)
        if texts:
            await ls.relint(texts)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: GraphlintServer, params: lsp.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and "graphlint" in settings:
            if not ls.set_settings(settings):
                return
        else:
            await ls.pull_settings()
        await ls.reload()

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL_KIND]))
    async def code_action(ls: GraphlintServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        return await ls.code_actions(params)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: GraphlintServer, params: lsp.HoverParams) -> lsp.Hover | None:
        return ls.hover(params)

    @server.command(APPLY_FIXES)
    async def apply_fixes(ls: GraphlintServer, *args: Any) -> None:
        uri = args[0]["uri"] if args and isinstance(args[0], dict) else (args[0] if args else None)
        if isinstance(uri, str):
            await ls.apply_fixes(uri)

    return server


def serve() -> int:
    logging.basicConfig(level=logging.WARNING, format="graphlint server: %(levelname)s: %(message)s")
    build().start_io()
    return 0
