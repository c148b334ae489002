"""Output formats and ruff's conventions: SARIF against the OASIS schema (percent-encoded URIs, helpUri,
fixes), GitLab Code Quality, JUnit XML, `# noqa` on real comments only, multi-line spans in the full
view, --color / FORCE_COLOR / NO_COLOR, --add-noqa and --watch.

Every test calls `graphlint.cli.main` in-process; SARIF and GitLab output is validated against the
vendored schemas (tests/fixtures/schemas), JUnit XML is read back with junitparser.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

import graphlint.pipeline.watch as watch_module
import graphlint.report.fix as fix_module
from graphlint.cli import main
from graphlint.report.output import FORMATS, rule_url
from graphlint.rules import ALL_RULES, RULES_BY_CODE

ROOT = Path(__file__).resolve().parents[2]

# GL140 at 6:9 and GL101 at 7:16 (the same model as tests/test_cli.py).
MODEL = """\
import torch


class M(torch.nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()
        return x.sum().item()
"""
CLEAN = MODEL.replace("        torch.cuda.synchronize()\n", "").replace("x.sum().item()", "x.sum()")


def module(body: str) -> str:
    """`body` (8-space indented lines) as the body of a hot `forward`."""
    return "import torch\n\n\nclass M(torch.nn.Module):\n    def forward(self, x):\n" + body


@pytest.fixture
def proj(tmp_path, monkeypatch):
    """An isolated project folder that is the current directory; no colour variables set."""
    monkeypatch.chdir(tmp_path)
    for var in ("GRAPHLINT_OUTPUT_FORMAT", "FORCE_COLOR", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "pyproject.toml").write_text("[tool.graphlint]\n")
    return tmp_path


@pytest.fixture
def run(capsys):
    """run(*args) -> (exit code, stdout, stderr) of graphlint in-process, without the result cache."""

    def _run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        rc = main(list(args) if args[:1] == ("rule",) else ["--no-cache", *args])
        out, err = capsys.readouterr()
        return rc, out, err

    return _run


def concise_codes(run, *args: str) -> list[str]:
    """`line:col: CODE` of each finding."""
    rc, out, _ = run("--output-format", "concise", "-q", *args)
    return [re.sub(r"^[^:]+:(\d+):(\d+): (\w+) .*$", r"\1:\2: \3", line) for line in out.splitlines()]


# --- SARIF ------------------------------------------------------------------------------------------

def test_sarif_uri_is_percent_encoded_and_validates(proj, run, sarif_validator):
    path = proj / "my dir" / "héllo wörld.py"
    path.parent.mkdir()
    path.write_text(MODEL, encoding="utf-8")
    rc, out, _ = run("--output-format", "sarif", "my dir")
    assert rc == 1
    sarif = json.loads(out)
    sarif_validator.validate(sarif)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert uris == {"my%20dir/h%C3%A9llo%20w%C3%B6rld.py"}
    assert unquote(uris.pop()) == "my dir/héllo wörld.py"
    # The validator has teeth: the raw path is not a `uri-reference` (the O1 defect).
    sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "my dir/h.py"
    assert any("uri-reference" in e.message for e in sarif_validator.iter_errors(sarif))


def test_sarif_path_outside_the_current_directory_is_a_file_uri(proj, run, monkeypatch, sarif_validator):
    (proj / "a b").mkdir()
    (proj / "a b" / "m.py").write_text(MODEL)
    (proj / "elsewhere").mkdir()
    monkeypatch.chdir(proj / "elsewhere")
    rc, out, _ = run("--output-format", "sarif", str(proj / "a b" / "m.py"))
    sarif = json.loads(out)
    sarif_validator.validate(sarif)
    uri = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == (proj / "a b" / "m.py").as_uri() and "%20" in uri


def _github_slugs(markdown: str) -> set[str]:
    """The anchors GitHub gives the headings of a markdown file."""
    slugs = set()
    for heading in re.findall(r"^#+ (.+)$", markdown, flags=re.M):
        slugs.add(re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-"))
    return slugs


def test_rule_urls_point_at_existing_doc_sections(proj, run):
    rules = _github_slugs((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
    for rule in ALL_RULES:
        doc, _, anchor = rule_url(rule.code).partition("#")
        assert doc.endswith("/docs/rules.md") and anchor in rules, rule.code
    doc, _, anchor = rule_url("GLR101").partition("#")
    assert doc.endswith("/docs/runtime.md")
    assert anchor in _github_slugs((ROOT / "docs" / "runtime.md").read_text(encoding="utf-8"))
    assert rule_url("GL999") is None
    # `graphlint rule` prints the same URL.
    rc, out, _ = run("rule", "GL101")
    assert rc == 0 and out.rstrip().splitlines()[-1] == f"Docs: {rule_url('GL101')}"


def test_sarif_help_uri_per_rule_and_json_url(proj, run, sarif_validator):
    (proj / "m.py").write_text(MODEL)
    sarif = json.loads(run("--output-format", "sarif", "m.py")[1])
    sarif_validator.validate(sarif)
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert sarif["runs"][0]["columnKind"] == "unicodeCodePoints"  # our columns, not UTF-16 units
    assert [r["id"] for r in rules] == ["GL101", "GL140"]
    assert all(r["helpUri"] == rule_url(r["id"]) for r in rules)
    findings = json.loads(run("--output-format", "json", "m.py")[1])
    assert [f["url"] for f in findings] == [rule_url("GL140"), rule_url("GL101")]


def _apply_sarif_fix(text: str, fix: dict) -> str:
    """Apply a SARIF fix per §3.57 (1-based lines and columns, end column exclusive), last region first."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    (change,) = fix["artifactChanges"]
    edits = []
    for rep in change["replacements"]:
        region = rep["deletedRegion"]
        a = starts[region["startLine"] - 1] + region["startColumn"] - 1
        b = starts[region["endLine"] - 1] + region["endColumn"] - 1
        edits.append((a, b, rep.get("insertedContent", {}).get("text", "")))
    for a, b, new in sorted(edits, reverse=True):
        text = text[:a] + new + text[b:]
    return text


@pytest.mark.parametrize("rule", [r for r in ALL_RULES if r.FIXES], ids=lambda r: r.code)
def test_sarif_fixes_apply_to_the_documented_result(proj, run, rule, sarif_validator):
    fix = rule.FIXES[0]
    (proj / "f.py").write_text(fix.before)
    sarif = json.loads(run("--output-format", "sarif", "--scope", "all", "--select", rule.code, "f.py")[1])
    sarif_validator.validate(sarif)
    fixable = [f["fixable"] for f in json.loads(run("--output-format", "json", "--scope", "all",
                                                    "--select", rule.code, "f.py")[1])]
    results = sarif["runs"][0]["results"]
    assert [("fixes" in r) for r in results] == fixable
    for result in results:
        if "fixes" in result:
            (sarif_fix,) = result["fixes"]
            change = sarif_fix["artifactChanges"][0]
            assert change["artifactLocation"]["uri"] == "f.py"
            assert _apply_sarif_fix(fix.before, sarif_fix) == fix.after


def test_sarif_without_fix_has_no_fixes_and_warning_level(proj, run, sarif_validator):
    (proj / "m.py").write_text(CLEAN.replace("return x.sum()", "return x.sum()  # noqa: GL101"))
    sarif = json.loads(run("--output-format", "sarif", "--warn-unused-noqa", "m.py")[1])
    sarif_validator.validate(sarif)
    (result,) = sarif["runs"][0]["results"]
    assert (result["ruleId"], result["level"], "fixes" in result) == ("GL001", "warning", False)


def test_machine_formats_of_an_empty_run(proj, run, sarif_validator, gitlab_validator):
    """Zero files: stdout holds a valid empty report and nothing else; the note goes to stderr."""
    import junitparser

    (proj / "empty").mkdir()
    outputs = {}
    for fmt in ("sarif", "gitlab", "junit"):
        rc, outputs[fmt], err = run("--output-format", fmt, "empty")
        assert rc == 0 and "No Python files found" in err
    sarif_validator.validate(json.loads(outputs["sarif"]))
    assert json.loads(outputs["gitlab"]) == []
    gitlab_validator.validate([])
    xml = junitparser.JUnitXml.fromstring(outputs["junit"].encode())
    cases = [case for suite in xml for case in suite]
    assert [(c.name, c.is_passed) for c in cases] == [("No errors found", True)]


# --- GitLab Code Quality ----------------------------------------------------------------------------

def test_gitlab_code_quality(proj, run, gitlab_validator):
    # Two identical findings (same code, message and chain) on different lines, and a warning.
    (proj / "m.py").write_text(module("        a = x.item()\n        b = x.item()\n"
                                      "        return a + b  # noqa: GL140\n"))
    rc, out, _ = run("--output-format", "gitlab", "--warn-unused-noqa", "m.py")
    assert rc == 1 and not out.startswith("\ufeff")  # GitLab refuses a byte order mark
    report = json.loads(out)
    gitlab_validator.validate(report)
    assert [(i["check_name"], i["severity"], i["location"]) for i in report] == [
        ("GL101", "major", {"path": "m.py", "lines": {"begin": 6, "end": 6}}),
        ("GL101", "major", {"path": "m.py", "lines": {"begin": 7, "end": 7}}),
        ("GL001", "minor", {"path": "m.py", "lines": {"begin": 8, "end": 8}}),
    ]
    assert report[0]["description"] == f"GL101 {RULES_BY_CODE['GL101'].message}"
    fingerprints = [i["fingerprint"] for i in report]
    assert len(set(fingerprints)) == 3  # GitLab shows equal fingerprints as one entry
    # Lines moving above the findings keep their fingerprints: the MR widget sees nothing new.
    (proj / "m.py").write_text("# a new first line\n" + (proj / "m.py").read_text())
    moved = json.loads(run("--output-format", "gitlab", "--warn-unused-noqa", "m.py")[1])
    assert [i["location"]["lines"]["begin"] for i in moved] == [7, 8, 9]
    assert [i["fingerprint"] for i in moved] == fingerprints


# --- JUnit XML --------------------------------------------------------------------------------------

def test_junit_read_back_by_junitparser(proj, run):
    import junitparser

    (proj / "pkg").mkdir()
    (proj / "pkg" / "m.py").write_text(MODEL)
    (proj / "broken.py").write_text("def f(:\n")
    rc, out, _ = run("--output-format", "junit", ".")
    assert rc == 1
    xml = junitparser.JUnitXml.fromstring(out.encode())
    suites = {suite.name: suite for suite in xml}
    assert set(suites) == {"broken.py", "pkg/m.py"}
    assert (suites["pkg/m.py"].tests, suites["pkg/m.py"].failures, suites["pkg/m.py"].errors) == (2, 2, 0)
    assert (suites["broken.py"].tests, suites["broken.py"].failures, suites["broken.py"].errors) == (1, 0, 1)
    cases = {case.name: case for case in suites["pkg/m.py"]}
    assert set(cases) == {"GL140 cuda-synchronize (6:9)", "GL101 item-call (7:16)"}
    case = cases["GL101 item-call (7:16)"]
    assert case.classname == "pkg.m"
    (failure,) = case.result
    assert isinstance(failure, junitparser.Failure)
    assert (failure.type, failure.message) == ("GL101", RULES_BY_CODE["GL101"].message)
    assert "via: M.forward" in failure.text and f"docs: {rule_url('GL101')}" in failure.text
    (error,) = next(iter(suites["broken.py"])).result
    assert isinstance(error, junitparser.Error) and error.type == "GL000"


def test_formats_are_registered_everywhere(proj, run, monkeypatch):
    assert {"gitlab", "junit"} <= set(FORMATS)
    (proj / "m.py").write_text(MODEL)
    rc, out, _ = run("--help")
    assert "gitlab" in out and "junit" in out
    (proj / "pyproject.toml").write_text('[tool.graphlint]\noutput-format = "gitlab"\n')
    assert json.loads(run("m.py")[1])[0]["check_name"] == "GL140"
    monkeypatch.setenv("GRAPHLINT_OUTPUT_FORMAT", "junit")
    assert run("m.py")[1].startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')
    usage = "".join((ROOT / doc).read_text(encoding="utf-8") for doc in ("README.md", "docs/output.md"))
    assert "### gitlab" in usage and "### junit" in usage and "sarif | github | gitlab | junit" in usage


# --- `# noqa` on real comments only (O5) ------------------------------------------------------------

def test_noqa_inside_a_string_does_not_suppress(proj, run):
    (proj / "m.py").write_text(module(
        '        s = "# noqa"; k = x.sum().item()\n'  # 6: reported (the O5 reproducer)
        '        t = """# noqa: GL101\n'  # 7: a statement whose first line holds "# noqa" in a string
        '        """ + str(x.item())\n'  # 8: reported
        '        u = "# noqa"; v = x.item()  # noqa: GL101\n'  # 9: decoy, a real comment: silent
        "        w = x.item()  # see '# noqa' # noqa\n"  # 10: decoy, noqa later in the comment: silent
        "        return k\n"))
    assert concise_codes(run, "m.py") == ["6:27: GL101", "8:19: GL101"]
    # A string is no directive, so it is never an unused one either.
    assert concise_codes(run, "--extend-select", "GL001", "m.py") == ["6:27: GL101", "8:19: GL101"]


def test_noqa_after_a_tokenizer_error_falls_back_to_text():
    from graphlint.report.suppression import parse_noqa

    # An unterminated triple quote stops the tokenizer; the directive before it is still read.
    noqa = parse_noqa(["a = 1  # noqa: GL101", 's = """never closed', "b = 2  # noqa"])
    assert {n: v.codes for n, v in noqa.items()} == {1: ("GL101",), 3: None}


# --- multi-line spans in the full view (O4) ---------------------------------------------------------

def full_frame(run, path: str, code: str) -> list[str]:
    """The lines of the full view's block for the first `code` finding, up to the `= via` line."""
    rc, out, _ = run("--output-format", "full", "--select", code, path)
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if f": {code} " in line)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("  = "))
    return lines[start + 1:end]


def test_full_view_shows_every_line_and_underlines_the_trigger(proj, run):
    (proj / "m.py").write_text(module("        y = (x.sum()\n             .item())\n        return y\n"))
    assert concise_codes(run, "m.py") == ["7:14: GL101"]  # reported at the method, the receiver's line above it
    assert full_frame(run, "m.py", "GL101") == [
        "  |",
        "6 |         y = (x.sum()",
        "7 |              .item())",
        "  |              ^^^^^^^ item-call",
        "  |",
    ]


def test_full_view_underlines_each_line_of_a_span_without_trigger(proj, run):
    (proj / "m.py").write_text(module("        if (x.sum()\n                > 0):\n            pass\n"))
    assert full_frame(run, "m.py", "GL110") == [
        "  |",
        "6 |         if (x.sum()",
        "  |             ^^^^^^^",
        "7 |                 > 0):",
        "  |                 ^^^ tensor-condition",
        "  |",
    ]


def test_full_view_single_line_chain_keeps_the_whole_call(proj, run):
    """Decoy: on one line the span is the whole call, as before; only broken chains get a trigger."""
    (proj / "m.py").write_text(MODEL)
    assert full_frame(run, "m.py", "GL101")[2] == "  |                ^^^^^^^^^^^^^^ item-call"


def test_full_view_carets_follow_wide_characters_and_tabs(proj, run):
    (proj / "m.py").write_text(module('        s = "日本"; k = x.item()\n'
                                      '        s = 1;\tk = x.item()\n'
                                      '        return k\n'))
    rc, out, _ = run("--output-format", "full", "m.py")
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.endswith("k = x.item()") and " | " in line:
            carets = lines[i + 1]
            # The carets start under the `x` as a terminal shows it (CJK: 2 cells, tab: 4 spaces).
            shown = line.split(" | ", 1)[1]
            col = sum(2 if ch in "日本" else 1 for ch in shown[: shown.index("x.item()")])
            assert carets.split(" | ", 1)[1] == " " * col + "^" * len("x.item()") + " item-call"
    assert sum("^^^^^^^^ item-call" in line for line in lines) == 2


# --- colour (O10) -----------------------------------------------------------------------------------

class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("args, env, tty, colored", [
    ([], {}, False, False),
    ([], {"FORCE_COLOR": "1"}, False, True),  # piped, forced: the O10 defect
    ([], {"FORCE_COLOR": ""}, False, False),  # empty means unset
    ([], {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, True),  # FORCE_COLOR wins, as in ruff
    ([], {}, True, True),
    ([], {"NO_COLOR": "1"}, True, False),
    (["--color", "always"], {"NO_COLOR": "1", "TERM": "dumb"}, False, True),
    (["--color", "never"], {"FORCE_COLOR": "1"}, True, False),
])
def test_color_flag_and_environment(proj, monkeypatch, capsys, args, env, tty, colored):
    (proj / "m.py").write_text(MODEL)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    stream = Tty() if tty else io.StringIO()
    monkeypatch.setattr(sys, "stdout", stream)
    assert main(["--no-cache", *args, "m.py"]) == 1
    text = stream.getvalue()
    assert ("\x1b[" in text) == colored
    assert "x.sum().item()" in text and "item-call" in text


def test_color_rejects_an_unknown_mode(proj, run):
    rc, _, err = run("--color", "sometimes", ".")
    assert rc == 2 and err.startswith("graphlint: error: argument --color: invalid choice")


# --- --add-noqa -------------------------------------------------------------------------------------

ADD_NOQA_BEFORE = module(
    "        a = x.item()\n"  # 6
    "        b = x.item()  # noqa: E501\n"  # 7: merged with another tool's code
    "        c = x.item()  # keep this comment\n"  # 8
    '        d = x.item() + len("""\n'  # 9: ends inside a string: the directive goes on line 10
    '        text""")\n'  # 10
    "        e = x.item() + \\\n"  # 11: a backslash continuation: the directive goes on line 12
    "            1\n"  # 12
    "        torch.cuda.synchronize(); f = x.item()\n"  # 13: two codes, one directive
    "        return a\n")
ADD_NOQA_AFTER = module(
    "        a = x.item()  # noqa: GL101\n"
    "        b = x.item()  # noqa: E501, GL101\n"
    "        c = x.item()  # keep this comment  # noqa: GL101\n"
    '        d = x.item() + len("""\n'
    '        text""")  # noqa: GL101\n'
    "        e = x.item() + \\\n"
    "            1  # noqa: GL101\n"
    "        torch.cuda.synchronize(); f = x.item()  # noqa: GL101, GL140\n"
    "        return a\n")


def test_add_noqa(proj, run):
    path = proj / "m.py"
    # CRLF line endings and a byte order mark survive.
    path.write_bytes(b"\xef\xbb\xbf" + ADD_NOQA_BEFORE.replace("\n", "\r\n").encode())
    assert len(concise_codes(run, "m.py")) == 7
    rc, out, err = run("--add-noqa", "m.py")
    assert (rc, out, err) == (0, "", "Added 6 noqa directives.\n")
    assert path.read_bytes() == b"\xef\xbb\xbf" + ADD_NOQA_AFTER.replace("\n", "\r\n").encode()
    assert concise_codes(run, "m.py") == []
    # Idempotent: nothing left to add.
    assert run("--add-noqa", "m.py")[2] == "Added 0 noqa directives.\n"
    assert path.read_bytes() == b"\xef\xbb\xbf" + ADD_NOQA_AFTER.replace("\n", "\r\n").encode()


def test_add_noqa_skips_syntax_errors_and_respects_selection(proj, run):
    (proj / "broken.py").write_text("def f(:\n")
    (proj / "m.py").write_text(MODEL)
    assert run("--add-noqa", "--select", "GL140", ".")[2] == "Added 1 noqa directive.\n"
    assert (proj / "broken.py").read_text() == "def f(:\n"
    assert "torch.cuda.synchronize()  # noqa: GL140\n" in (proj / "m.py").read_text()
    assert "return x.sum().item()\n" in (proj / "m.py").read_text()


def test_add_noqa_puts_back_a_file_it_would_break(proj, run, monkeypatch):
    import graphlint.report.suppression as suppression

    (proj / "m.py").write_text(MODEL)
    monkeypatch.setattr(suppression, "add_noqa", lambda text, findings: (text + "def (:\n", 1))
    rc, _, err = run("--add-noqa", "m.py")
    assert rc == 0 and (proj / "m.py").read_text() == MODEL
    assert "m.py: adding noqa directives broke the file" in err and "Added 0 noqa directives." in err


def test_add_noqa_unwritable_file_is_one_error_line(proj, run, monkeypatch):
    (proj / "a.py").write_text(MODEL)
    (proj / "b.py").write_text(MODEL)
    real_write = fix_module.write_fixes

    def write(targets, stdin):
        if targets[0].path.name == "a.py":
            raise PermissionError(13, "Permission denied")
        return real_write(targets, stdin)  # False when it could not write (it says so itself)

    monkeypatch.setattr(fix_module, "write_fixes", write)
    rc, _, err = run("--add-noqa", ".")
    assert rc == 2
    assert err == "graphlint: error: cannot write a.py: Permission denied\nAdded 2 noqa directives.\n"
    assert (proj / "a.py").read_text() == MODEL and "# noqa: GL140" in (proj / "b.py").read_text()


@pytest.mark.parametrize("args, message", [
    (["--add-noqa", "--fix", "m.py"], "--add-noqa cannot be used with --fix"),
    (["--add-noqa", "--diff", "m.py"], "--add-noqa cannot be used with --diff"),
    (["--add-noqa", "-"], "--add-noqa rewrites files; it cannot read stdin"),
    (["--watch", "-"], "--watch needs files to lint; it cannot read stdin"),
    (["--watch", "--add-noqa", "m.py"], "--watch cannot be used with --add-noqa"),
])
def test_add_noqa_and_watch_usage_errors(proj, run, args, message):
    (proj / "m.py").write_text(MODEL)
    rc, _, err = run(*args)
    assert (rc, err) == (2, f"graphlint: error: {message}\n")


# --- --watch ----------------------------------------------------------------------------------------

def test_watch_reruns_on_changes_and_ctrl_c_exits_0(proj, run, monkeypatch):
    """A fake clock: each `sleep` is one polling step, and the script changes files between steps."""
    path, config = proj / "m.py", proj / "pyproject.toml"
    path.write_text(MODEL)
    steps = iter([
        (None, ""),  # nothing changed: no run
        (proj / ".m.py.swp", "editor swap file"),  # the folder changed, the files to lint did not: no run
        (path, MODEL.replace("        torch.cuda.synchronize()\n", "")),  # run 2: GL101
        (proj / "n.py", module("        return x.item()\n")),  # a new file, run 3: GL101 twice
        (config, "[tool.graphlint]\nbogus-key = 1\n"),  # run 4: a half-edited config, an error
        (config, "[tool.graphlint]\nignore = ['GL101']\n"),  # run 5: clean
    ])
    sleeps = []

    def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        target, text = next(steps, (None, None))
        if text is None:
            raise KeyboardInterrupt
        if target is not None:
            target.write_text(text)
            # Filesystems with coarse timestamps: make the change visible to the poll.
            for changed in (target, target.parent):
                os.utime(changed, ns=(changed.stat().st_mtime_ns + 10**9,) * 2)

    monkeypatch.setattr(watch_module, "sleep", fake_sleep)
    rc, out, err = run("--watch", "--output-format", "concise", ".")
    assert rc == 0
    assert sleeps == [watch_module.WATCH_INTERVAL] * 7
    assert [line.split(": ")[1].split()[0] for line in out.splitlines() if ": GL" in line] == \
        ["GL140", "GL101", "GL101", "GL101", "GL101"]
    # "Found 2 errors.", "Found 1 error.", "Found 2 errors."; a clean concise run prints nothing.
    assert out.count("Found ") == 3
    assert err.count("Watching for file changes") == 5
    assert err.count("graphlint: error:") == 1 and "bogus-key" in err
