"""`graphlint server`, driven over stdio by a real LSP client (pytest-lsp).

One server serves the module's tests (starting one costs ~1.5 s); each test opens its own documents
and puts back what it changed. The project: `model.py` (an nn.Module whose forward calls
`helper.helper`), `helper.py` (clean on disk) and `step.py` (its own findings: GL101, GL160).
"""

from __future__ import annotations

import ast
import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Sequence

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

pytest.importorskip("pygls", reason="graphlint server needs the lsp extra")

CHECKOUT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "graphlint", "server"], server_env=ENV)
TIMEOUT = 30  # seconds; the first lint imports libcst and parses the rules

MODEL = """\
import torch

from helper import helper


class M(torch.nn.Module):
    def forward(self, x):
        y = helper(x)
        return y + 1
"""
HELPER = """\
def helper(x):
    return x.sum()
"""
HELPER_SYNC = HELPER.replace("x.sum()", "x.sum().item()")  # GL101 at 2:12
STEP = """\
import torch


class Step(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        n = x.sum().item()
        return max(x) + n
"""  # GL101 at 6:13-6:27, GL160 (fixable: `x.max()`) at 7:16


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lsp")
    (root / "pyproject.toml").write_text("[tool.graphlint]\n")
    (root / "model.py").write_text(MODEL)
    (root / "helper.py").write_text(HELPER)
    (root / "step.py").write_text(STEP)
    (root / ".venv").mkdir()
    (root / ".venv" / "lib.py").write_text(STEP)  # excluded by default: never linted, even when opened
    return root


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient, project: Path):
    lsp_client.set_configuration({"debounce": 0}, section="graphlint")
    lsp_client.applied_edits = []
    lsp_client.registrations = []

    @lsp_client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def register(params: lsp.RegistrationParams) -> None:
        lsp_client.registrations.extend(params.registrations)

    @lsp_client.feature(lsp.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: lsp.ApplyWorkspaceEditParams) -> lsp.ApplyWorkspaceEditResult:
        lsp_client.applied_edits.append(params.edit)
        return lsp.ApplyWorkspaceEditResult(applied=True)

    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=project.as_uri(),
        workspace_folders=[lsp.WorkspaceFolder(uri=project.as_uri(), name="project")]))
    yield
    # shutdown, then exit: the server process ends by itself, with status 0.
    await lsp_client.shutdown_session()
    assert lsp_client._server.returncode == 0


aio = pytest.mark.asyncio(loop_scope="module")


# --- helpers ----------------------------------------------------------------------------------------

async def diagnostics(client: LanguageClient, uri: str,
                      done: Callable[[Sequence[lsp.Diagnostic]], bool]) -> Sequence[lsp.Diagnostic]:
    """Wait until the diagnostics last published for `uri` satisfy `done`."""
    async def wait() -> Sequence[lsp.Diagnostic]:
        while True:
            found = client.diagnostics.get(uri)
            if found is not None and done(found):
                return found
            await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return await asyncio.wait_for(wait(), TIMEOUT)


def codes(found: Sequence[lsp.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in found)


class Doc:
    """An open document whose text the test edits like an editor (full-text changes)."""

    def __init__(self, client: LanguageClient, path: Path, text: str | None = None) -> None:
        self.client, self.uri, self.version = client, path.as_uri(), 1
        self.text = path.read_text() if text is None else text
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
            uri=self.uri, language_id="python", version=1, text=self.text)))

    def change(self, text: str) -> None:
        self.version += 1
        self.text = text
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))

    def apply(self, edit: lsp.WorkspaceEdit) -> str:
        """Apply a code action's edit to the text, as the editor would, and send the change."""
        (change,) = edit.document_changes
        assert change.text_document.uri == self.uri and change.text_document.version == self.version
        lines = self.text.split("\n")
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line) + 1)
        text = self.text
        for e in sorted(change.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            start = offsets[e.range.start.line] + e.range.start.character
            end = offsets[e.range.end.line] + e.range.end.character
            text = text[:start] + e.new_text + text[end:]
        self.change(text)
        return text

    def close(self) -> None:
        self.client.text_document_did_close(lsp.DidCloseTextDocumentParams(
            text_document=lsp.TextDocumentIdentifier(uri=self.uri)))

    async def actions(self, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
        return await self.client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=self.uri), range=diag.range,
            context=lsp.CodeActionContext(diagnostics=[diag])))


# --- tests ------------------------------------------------------------------------------------------

@aio
async def test_open_publishes_code_severity_url_and_chain(client: LanguageClient, project: Path):
    doc = Doc(client, project / "step.py")
    found = await diagnostics(client, doc.uri, lambda d: len(d) == 2)
    item = next(d for d in found if d.code == "GL101")
    assert item.range == lsp.Range(start=lsp.Position(line=5, character=12), end=lsp.Position(line=5, character=26))
    assert item.severity == lsp.DiagnosticSeverity.Error and item.source == "graphlint"
    assert item.code_description.href.endswith("docs/rules.md#gl101-item-call")
    # The chain of a finding in the root itself: the root, at its `def`.
    (root,) = item.related_information
    assert root.location.uri == doc.uri and root.location.range.start.line == 4
    assert "`Step.forward` is a hot root" in root.message
    doc.close()
    await diagnostics(client, doc.uri, lambda d: not d)


@aio
async def test_change_lints_the_unsaved_buffer(client: LanguageClient, project: Path):
    doc = Doc(client, project / "step.py")
    await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL101", "GL160"])
    doc.change(STEP.replace("x.sum().item()", "x.sum()"))  # the file on disk keeps its .item()
    await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL160"])
    doc.close()


@aio
async def test_helper_edit_republishes_the_caller(client: LanguageClient, project: Path):
    model, helper = Doc(client, project / "model.py"), Doc(client, project / "helper.py")
    await diagnostics(client, model.uri, lambda d: not d)
    await diagnostics(client, helper.uri, lambda d: not d)

    helper.change(HELPER_SYNC)  # hot only through model.py's forward
    (found,) = await diagnostics(client, helper.uri, lambda d: len(d) == 1)
    assert found.code == "GL101" and found.range.start == lsp.Position(line=1, character=11)
    (hop,) = found.related_information  # each hop a location: forward's call of helper
    assert hop.location.uri == model.uri and hop.location.range.start.line == 7
    assert hop.message == "via `M.forward` (hot root): calls `helper`"
    # The caller shows the hazard at its call, without being edited.
    (reached,) = await diagnostics(client, model.uri, lambda d: len(d) == 1)
    assert reached.code == "GL101" and reached.severity == lsp.DiagnosticSeverity.Information
    assert reached.range.start.line == 7 and "helper.py:2" in reached.message
    assert reached.related_information[-1].location.uri == helper.uri

    helper.change(HELPER)
    await diagnostics(client, helper.uri, lambda d: not d)
    await diagnostics(client, model.uri, lambda d: not d)
    helper.close()
    model.close()


@aio
async def test_code_actions_apply_and_reparse(client: LanguageClient, project: Path):
    doc = Doc(client, project / "step.py")
    found = await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL101", "GL160"])

    reduction = next(d for d in found if d.code == "GL160")
    (fix,) = [a for a in await doc.actions(reduction) if a.title.startswith("Fix GL160")]
    # GL160's rewrite can change results (graphlint rule GL160): offered, labelled, never preferred.
    assert fix.kind == lsp.CodeActionKind.QuickFix and not fix.is_preferred
    assert fix.title.endswith("(unsafe: may change results)")
    ast.parse(doc.apply(fix.edit))
    assert "return x.max() + n" in doc.text
    found = await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL101"])

    actions = await doc.actions(found[0])
    titles = [a.title for a in actions]
    assert titles == ["Disable GL101 for this line (# noqa: GL101)", "Mark `Step.forward` cold (# graphlint: cold)"]
    ast.parse(doc.apply(actions[0].edit))
    assert "n = x.sum().item()  # noqa: GL101" in doc.text
    await diagnostics(client, doc.uri, lambda d: not d)

    doc.change(STEP)
    found = await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL101", "GL160"])
    cold = next(a for a in await doc.actions(found[0]) if "cold" in a.title)
    ast.parse(doc.apply(cold.edit))
    assert "    def forward(self, x: torch.Tensor):  # graphlint: cold" in doc.text
    await diagnostics(client, doc.uri, lambda d: not d)
    doc.close()


@aio
async def test_apply_fixes_command_and_hover(client: LanguageClient, project: Path):
    doc = Doc(client, project / "step.py")
    found = await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL101", "GL160"])
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=doc.uri), position=found[0].range.start))
    assert hover.contents.value.startswith("# GL101 `item-call`")

    fix_all = lsp.CodeActionParams(text_document=lsp.TextDocumentIdentifier(uri=doc.uri), range=found[0].range,
                                   context=lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.SourceFixAll]))
    assert not await client.text_document_code_action_async(fix_all)  # only unsafe fixes: none to apply
    await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="graphlint.applyFixes", arguments=[doc.uri]))
    assert client.applied_edits == []  # GL160's fix is unsafe: fix-all leaves it without unsafeFixes
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(
        settings={"graphlint": {"debounce": 0, "unsafeFixes": True}}))
    # A configuration change reloads the project, which publishes the open documents again.
    await asyncio.wait_for(client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), TIMEOUT)
    await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="graphlint.applyFixes", arguments=[doc.uri]))
    (on_save,) = await client.text_document_code_action_async(fix_all)  # fix on save, as an edit
    assert on_save.kind == "source.fixAll.graphlint"
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings={"graphlint": {"debounce": 0}}))
    (edit,) = client.applied_edits
    assert on_save.edit == edit
    ast.parse(doc.apply(edit))
    assert "max(x)" not in doc.text and "x.max()" in doc.text
    await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL101"])
    doc.close()


@aio
async def test_settings_and_pyproject_reload(client: LanguageClient, project: Path):
    doc = Doc(client, project / "step.py")
    await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL101", "GL160"])
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(
        settings={"graphlint": {"debounce": 0, "ignore": ["GL160"]}}))
    await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL101"])
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings={"graphlint": {"debounce": 0}}))
    await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL101", "GL160"])

    assert any(r.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in client.registrations)
    pyproject = project / "pyproject.toml"
    pyproject.write_text('[tool.graphlint]\nignore = ["GL101"]\n')
    try:
        client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[
            lsp.FileEvent(uri=pyproject.as_uri(), type=lsp.FileChangeType.Changed)]))
        await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL160"])
    finally:
        pyproject.write_text("[tool.graphlint]\n")
        client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[
            lsp.FileEvent(uri=pyproject.as_uri(), type=lsp.FileChangeType.Changed)]))
    await diagnostics(client, doc.uri, lambda d: codes(d) == ["GL101", "GL160"])
    doc.close()


@aio
async def test_excluded_file_gets_no_diagnostics(client: LanguageClient, project: Path):
    lib, step = Doc(client, project / ".venv" / "lib.py"), Doc(client, project / "step.py")
    await diagnostics(client, step.uri, lambda d: codes(d) == ["GL101", "GL160"])
    assert lib.uri not in client.diagnostics  # step.py was opened after it and is already published
    lib.close()
    step.close()



@aio
async def test_saving_a_file_the_client_never_opened(client: LanguageClient, project: Path):
    """A didSave without a didOpen (a client that watches saves, a deleted file) read the document through
    the workspace, which opens it from disk: "Error in server: FileNotFoundError" in the editor."""
    gone = (project / "gone.py").as_uri()
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=gone)))
    step = Doc(client, project / "step.py")  # answered after the save: the save has been handled
    await diagnostics(client, step.uri, lambda d: codes(d) == ["GL101", "GL160"])
    assert not [m.message for m in client.messages if "gone.py" in m.message]
    step.close()

def test_lint_only_never_imports_pygls(tmp_path):
    """The CLI lints without the lsp extra: nothing outside `graphlint server` imports pygls."""
    (tmp_path / "step.py").write_text(STEP)
    script = ("import sys; from graphlint.cli import main; rc = main(['--no-cache', '-q', 'step.py']); "
              "print(rc, sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')))")
    p = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=ENV, capture_output=True, text=True,
                       timeout=120)
    assert p.stdout.splitlines()[-1] == "1 []", p.stdout + p.stderr


def test_server_without_pygls_names_the_extra(monkeypatch, capsys):
    from graphlint.cli import main

    monkeypatch.setitem(sys.modules, "pygls", None)  # as if the lsp extra were not installed
    monkeypatch.delitem(sys.modules, "graphlint.lsp.server", raising=False)
    assert main(["server"]) == 2
    err = capsys.readouterr().err
    assert err == 'graphlint: error: graphlint server needs pygls (pygls is not installed): pip install "torch-graphlint[lsp]"\n'


# --- the incremental project, in-process: every edit must give what a fresh run gives -------------------

HELPER_READS = HELPER.replace("    return", "    n = x.item()\n    return")  # GL101 at 2:9; returns as before
EDITS = [  # (file, new text or None to delete); each is applied to the state left by the previous ones
    ("helper.py", HELPER_READS),  # a body edit: the shape stays, the unit is re-analysed
    ("helper.py", "# moved down\n\n" + HELPER_READS),  # lines shift: memoized units move with them
    ("step.py", STEP.replace("        n = x.sum().item()\n", "        n = x.sum().item()\n        m = 1\n")),
    ("helper.py", HELPER_SYNC.replace("def helper(x):", "def helper(x) -> int:")),  # a return kind changes
    ("model.py", MODEL.replace("return y + 1", "return extra(y)") + "\n\ndef extra(y):\n    return y.tolist()\n"),
    ("helper.py", "def helper(x:\n"),  # a syntax error, then the file is gone
    ("helper.py", None),
    ("helper.py", HELPER_SYNC),
]


def test_incremental_project_matches_a_fresh_run(tmp_path, monkeypatch):
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter
    from graphlint.pipeline.sources import read_source
    from graphlint.lsp.project import Project

    for name, text in (("model.py", MODEL), ("helper.py", HELPER), ("step.py", STEP)):
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    config = Config(root=tmp_path)
    project = Project(config)
    project.load()
    reshaped = []
    for name, text in EDITS:
        reshaped.append(project.update(name, text))
        if text is None:
            (tmp_path / name).unlink()
        else:
            (tmp_path / name).write_text(text)
        fresh = Linter(config).lint_sources([read_source(p) for p in sorted(tmp_path.glob("*.py"))])
        for path in sorted(p.name for p in tmp_path.glob("*.py")):
            expected = [(f, f.extra) for f in fresh.findings if f.path == path]  # extra: compare=False
            assert [(f, f.extra) for f in project.findings(path)] == expected, (name, path)
    # The first edit adds a host read of the helper's parameter, which its callers read (a call passing a device
    # tensor waits there: `Context.helper_read`), so the shape changes; the next two keep every shape (lines shift, a
    # body edit: no hot-path recomputation, memoized units), the rest do not.
    assert reshaped == [True, False, False, True, True, True, True, True]


def test_safe_fix_is_the_preferred_quick_fix(tmp_path):
    """Every shipped fix is unsafe today, so the safe path is checked on a finding built here."""
    from pygls.workspace import Workspace

    from graphlint.pipeline.config import Config
    from graphlint.diagnostics import Edit, Finding
    from graphlint.lsp.project import Project
    from graphlint.lsp.server import GraphlintServer

    server = GraphlintServer()
    server.protocol._workspace = Workspace(None)
    server.project = Project(Config(root=tmp_path))
    lines = ["y = max(x)"]
    edit = Edit(1, 5, 1, 11, "x.max()")
    for applicability, preferred, suffix in (("safe", True, "x.max()"), ("unsafe", False, "(unsafe: may change results)")):
        f = Finding("m.py", 1, 5, "GL160", "msg", fix_hint="x.max()", fix=(edit,), fix_applicability=applicability)
        diag = lsp.Diagnostic(range=lsp.Range(start=lsp.Position(line=0, character=4),
                                              end=lsp.Position(line=0, character=10)), message="msg")
        fix = server.finding_actions("file:///m.py", 1, lines, diag, f)[0]
        assert fix.is_preferred is preferred and fix.title.endswith(suffix)
        (change,) = fix.edit.document_changes
        assert change.edits[0].new_text == "x.max()" and change.edits[0].range.start.character == 4


def test_settings_selection_errors_name_the_setting(tmp_path):
    """An unknown selector in the editor's settings is reported as the setting, not as a CLI flag."""
    from graphlint.lsp.server import Settings
    from graphlint.pipeline.config import Config, ConfigError

    with pytest.raises(ConfigError) as err:
        Settings.parse({"extendSelect": ["GL9"]}).apply(Config(root=tmp_path))
    assert "in setting graphlint.extendSelect (see `graphlint --list-rules`)" in str(err.value)
    assert Settings.parse({"select": ["GL101"]}).apply(Config(root=tmp_path)).select == ("GL101",)


PARTS = """\
from dataclasses import dataclass


@dataclass
class Cfg:
    scale: float = 1.0


class Streamer:
    def end(self, ids=None):
        return ids


def helper(x, s: Streamer):
    s.end(x)
    Cfg(2.0)
    return x.float()
"""


def test_an_argument_less_call_reshapes_only_where_project_code_reads_it(tmp_path, monkeypatch):
    """An argument-less call records an empty argument list (the callee's parameters stay at their defaults), which
    the callee's parameter facts read: typing one more `s.end()` or `Cfg()` where the body already calls them (same
    call edges) changes the shape. Decoy: typing `y.item()` or `y.cpu()` of a local, which reach no project function
    or class and read no parameter, keeps it (no hot-path recomputation on a body edit)."""
    from graphlint.pipeline.config import Config
    from graphlint.lsp.project import Project

    (tmp_path / "parts.py").write_text(PARTS)
    monkeypatch.chdir(tmp_path)
    project = Project(Config(root=tmp_path))
    project.load()
    body = "    return x.float()\n"
    edits = [PARTS.replace(body, "    y = x + 1\n    y.item()\n    y.cpu()\n" + body),  # decoy: no project callee,
             # and no read of a parameter its callers could pass a device tensor for (`Context.helper_read`)
             PARTS.replace(body, "    s.end()\n" + body),
             PARTS.replace(body, "    Cfg()\n" + body)]
    reshaped = []
    for text in edits:
        reshaped.append(project.update("parts.py", text))
        reshaped.append(project.update("parts.py", PARTS))
    assert reshaped == [False, False, True, True, True, True]
