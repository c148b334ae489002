"""The `graphlint` command line: formats, exit codes, config keys, suppression, error paths.

Most tests call `main()` in-process (fast, capsys); the error-path and entry-point tests run
`python -m graphlint` in a subprocess so that "one line on stderr, no traceback" is checked for real.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from graphlint import __version__
from graphlint.cli import main
from graphlint.diagnostics import Edit, Finding
from graphlint.report.output import rule_url
from graphlint.rules import ALL_RULES, RULES_BY_CODE

# GL140 at 6:9-6:33 and GL101 at 7:16-7:30; `forward` of an nn.Module is a hot root by itself.
MODEL = """\
import torch


class M(torch.nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()
        return x.sum().item()
"""
CLEAN = """\
import torch


class M(torch.nn.Module):
    def forward(self, x):
        return x.sum()
"""
# Not a hot root: linted only with --scope all or a `hot` pattern. GL101 at 5:12.
STEP = """\
import torch


def step(x: torch.Tensor):
    return x.item()
"""


def msg(code: str) -> str:
    return RULES_BY_CODE[code].message.replace("{call}", "torch.cuda.synchronize()")


GL140_LINE = f"m.py:6:9: GL140 {msg('GL140')}"
GL101_LINE = f"m.py:7:16: GL101 {msg('GL101')}"


@dataclass
class Run:
    rc: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()


def write(root: Path, files: dict[str, str | bytes], config: str | None = "") -> None:
    """Write `files` under root; `config` is the body of [tool.graphlint] (None: no pyproject.toml)."""
    if config is not None:
        (root / "pyproject.toml").write_text(f"[project]\nname = 'demo'\n\n[tool.graphlint]\n{config}\n")
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


@pytest.fixture
def proj(tmp_path, monkeypatch):
    """A project folder that is also the current directory (display paths are relative to it)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GRAPHLINT_OUTPUT_FORMAT", raising=False)
    return tmp_path


@pytest.fixture
def cli(capsys, monkeypatch):
    """Run main() in-process: cli("--output-format", "concise", stdin=b"...") -> Run."""
    monkeypatch.delenv("GRAPHLINT_OUTPUT_FORMAT", raising=False)

    def run(*args: str, stdin: bytes | None = None) -> Run:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        capsys.readouterr()
        rc = main(list(args))
        cap = capsys.readouterr()
        return Run(rc, cap.out, cap.err)

    return run


def sub(*args: str, cwd: Path, stdin: bytes | None = None, env: dict | None = None) -> Run:
    import os

    full_env = {k: v for k, v in os.environ.items() if k != "GRAPHLINT_OUTPUT_FORMAT"}
    full_env.update(env or {})
    p = subprocess.run([sys.executable, "-m", "graphlint", *args], cwd=cwd, input=stdin,
                       capture_output=True, env=full_env, timeout=120)
    return Run(p.returncode, p.stdout.decode(), p.stderr.decode())


def concise(cli, *args: str, stdin: bytes | None = None) -> Run:
    return cli("--output-format", "concise", *args, stdin=stdin)


# --- output formats ---------------------------------------------------------------------------------

def test_concise_is_exactly_flake8_format(proj, cli):
    write(proj, {"m.py": MODEL})
    r = concise(cli, "m.py")
    assert r.rc == 1
    assert r.lines == [GL140_LINE, GL101_LINE, "Found 2 errors."]
    assert r.err == ""


def test_full_plain_when_not_a_tty(proj, cli):
    write(proj, {"m.py": MODEL})
    r = cli("m.py")  # default format: full
    assert r.rc == 1
    assert "\x1b[" not in r.out
    lines = r.lines
    i = lines.index(GL101_LINE)
    assert lines[i + 2] == "7 |         return x.sum().item()"
    # The caret underline starts under column 16 and spans the 14 characters of `x.sum().item()`.
    assert lines[i + 3] == "  | " + " " * 15 + "^" * 14 + " item-call"
    assert "  = via: M.forward" in lines
    assert "  = runs: forward (reached from a forward or a configured hot root)" in lines
    assert f"  = help: {RULES_BY_CODE['GL101'].fix_hint}" in lines
    assert lines[-3:-1] == ["Found 2 errors.", "Where they run: 2 forward."]
    assert lines[-1].startswith("No capture site found")


def test_full_uses_rich_on_a_tty(proj, cli, monkeypatch):
    write(proj, {"m.py": MODEL})

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    monkeypatch.setattr(sys, "stdout", tty)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert main(["m.py"]) == 1
    text = tty.getvalue()
    assert "\x1b[" in text  # styled
    assert "x.sum().item()" in text and "item-call" in text


REQUIRED_JSON = {
    "path": str, "line": int, "column": int, "end_line": int, "end_column": int, "code": str, "name": str,
    "message": str, "severity": str, "fix_hint": str, "via": list, "fixable": bool, "url": str,
}


def test_json_schema(proj, cli):
    write(proj, {"m.py": MODEL})
    r = cli("--output-format", "json", "m.py")
    assert r.rc == 1
    data = json.loads(r.out)  # stdout holds the JSON only: no summary line
    assert isinstance(data, list) and len(data) == 2
    for obj in data:
        for key, typ in REQUIRED_JSON.items():
            assert isinstance(obj[key], typ), (key, obj)
        assert obj["severity"] in ("error", "warning")
        assert obj["line"] >= 1 and obj["column"] >= 1
        assert (obj["end_line"], obj["end_column"]) >= (obj["line"], obj["column"])
        assert all(isinstance(v, str) for v in obj["via"])
    gl140, gl101 = data
    assert gl101 == {
        "path": "m.py", "line": 7, "column": 16, "end_line": 7, "end_column": 30, "code": "GL101",
        "name": "item-call", "message": msg("GL101"), "severity": "error",
        "fix_hint": RULES_BY_CODE["GL101"].fix_hint, "via": ["M.forward"], "context": "forward",
        "fixable": False, "fix": None, "url": rule_url("GL101"),
    }
    assert (gl140["code"], gl140["line"], gl140["column"], gl140["end_column"]) == ("GL140", 6, 9, 33)


def test_json_clean_is_empty_array(proj, cli):
    write(proj, {"m.py": CLEAN})
    r = cli("--output-format", "json", ".")
    assert (r.rc, json.loads(r.out)) == (0, [])


def test_sarif_structure(proj, cli, sarif_validator):
    write(proj, {"m.py": MODEL})
    r = cli("--output-format", "sarif", "m.py")
    assert r.rc == 1
    sarif = json.loads(r.out)
    sarif_validator.validate(sarif)
    assert sarif["version"] == "2.1.0"
    assert "sarif" in sarif["$schema"]
    run = sarif["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "graphlint" and driver["version"] == __version__
    rules = driver["rules"]
    assert [rule["id"] for rule in rules] == ["GL101", "GL140"]
    for rule in rules:
        assert rule["name"] == RULES_BY_CODE[rule["id"]].name
        assert rule["shortDescription"]["text"]
        assert rule["help"]["text"]
        assert rule["helpUri"] == rule_url(rule["id"])
    assert len(run["results"]) == 2
    for res in run["results"]:
        assert res["ruleId"] in ("GL101", "GL140")
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] == "error"
        assert res["message"]["text"].startswith(msg(res["ruleId"]))
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == "m.py"
    by_code = {res["ruleId"]: res["locations"][0]["physicalLocation"]["region"] for res in run["results"]}
    assert by_code["GL101"] == {"startLine": 7, "startColumn": 16, "endLine": 7, "endColumn": 30}


def test_github_workflow_commands(proj, cli):
    write(proj, {"m.py": MODEL})
    r = cli("--output-format", "github", "m.py")
    assert r.rc == 1
    assert r.lines == [
        f"::error file=m.py,line=6,col=9,endLine=6,endColumn=33,title=GL140::GL140 {msg('GL140')}",
        f"::error file=m.py,line=7,col=16,endLine=7,endColumn=30,title=GL101::GL101 {msg('GL101')}",
    ]


def test_warning_severity_in_github_and_sarif(proj, cli, sarif_validator):
    write(proj, {"m.py": CLEAN.replace("return x.sum()", "return x.sum()  # noqa: GL101")})
    r = cli("--output-format", "github", "--warn-unused-noqa", "m.py")
    assert r.lines == ["::warning file=m.py,line=6,col=25,endLine=6,endColumn=26,title=GL001::GL001 "
                       "Unused `noqa` directive (unused: GL101)"]
    sarif = json.loads(cli("--output-format", "sarif", "--warn-unused-noqa", "m.py").out)
    sarif_validator.validate(sarif)
    assert [res["level"] for res in sarif["runs"][0]["results"]] == ["warning"]


def test_statistics_text_and_json(proj, cli):
    write(proj, {"m.py": MODEL, "n.py": MODEL})
    r = concise(cli, "--statistics", ".")
    assert r.rc == 1
    assert r.lines == ["2\tGL101\titem-call", "2\tGL140\tcuda-synchronize", "Found 4 errors."]
    r = cli("--output-format", "json", "--statistics", ".")
    assert json.loads(r.out) == [
        {"count": 2, "code": "GL101", "name": "item-call", "fixable": False},
        {"count": 2, "code": "GL140", "name": "cuda-synchronize", "fixable": False},
    ]


def test_output_file(proj, cli):
    write(proj, {"m.py": MODEL})
    r = concise(cli, "-o", "report.txt", "m.py")
    assert r.rc == 1 and r.out == ""
    assert (proj / "report.txt").read_text().splitlines() == [GL140_LINE, GL101_LINE, "Found 2 errors."]


def test_output_format_from_env_config_and_flag(proj, cli, monkeypatch):
    write(proj, {"m.py": MODEL}, 'output-format = "github"')
    assert cli("m.py").lines[0].startswith("::error file=m.py")
    monkeypatch.setenv("GRAPHLINT_OUTPUT_FORMAT", "json")
    assert json.loads(cli("m.py").out)[0]["code"] == "GL140"  # env beats config
    assert cli("--output-format", "concise", "m.py").lines[0] == GL140_LINE  # flag beats env
    monkeypatch.setenv("GRAPHLINT_OUTPUT_FORMAT", "xml")
    r = cli("m.py")
    assert r.rc == 2 and "GRAPHLINT_OUTPUT_FORMAT" in r.err


# --- exit codes and summary -------------------------------------------------------------------------

def test_exit_codes_and_summary(proj, cli):
    write(proj, {"m.py": MODEL, "clean.py": CLEAN})
    clean = concise(cli, "clean.py")
    assert (clean.rc, clean.lines) == (0, [])  # a clean concise run prints nothing, like flake8
    full = cli("--output-format", "full", "clean.py")
    assert (full.rc, full.out.strip()) == (0, "All checks passed!")
    assert concise(cli, "m.py").rc == 1
    one = concise(cli, "--select", "GL101", "m.py")
    assert one.lines[-1] == "Found 1 error."
    zero = concise(cli, "--exit-zero", "m.py")
    assert zero.rc == 0 and zero.lines == [GL140_LINE, GL101_LINE, "Found 2 errors."]
    assert concise(cli, "--select", "GL999", "m.py").rc == 2


def test_quiet_prints_findings_only(proj, cli):
    write(proj, {"m.py": MODEL, "clean.py": CLEAN})
    assert concise(cli, "-q", "m.py").lines == [GL140_LINE, GL101_LINE]
    assert concise(cli, "--quiet", "clean.py").out == ""


def test_check_subcommand_and_default_path(proj, cli):
    write(proj, {"pkg/m.py": MODEL})
    assert cli("check", "--output-format", "concise", "pkg").lines[0] == "pkg/" + GL140_LINE
    assert concise(cli).lines[0] == "pkg/" + GL140_LINE  # default: .
    assert cli("check", "--output-format", "concise").rc == 1


def test_zero_files_is_a_clean_exit(proj, cli):
    write(proj, {"notes.txt": "no python here"})
    r = concise(cli, ".")
    assert r.rc == 0
    assert r.lines == []
    assert "No Python files found" in r.err
    j = cli("--output-format", "json", ".")
    assert (j.rc, json.loads(j.out)) == (0, [])


def test_syntax_error_file_is_a_finding_and_run_continues(proj, cli):
    write(proj, {"a_broken.py": "import torch\n\ndef f(:\n    pass\n", "m.py": MODEL})
    r = cli("--output-format", "json", ".")
    assert r.rc == 1
    data = json.loads(r.out)
    assert [(d["path"], d["code"]) for d in data] == [("a_broken.py", "GL000"), ("m.py", "GL140"), ("m.py", "GL101")]
    assert data[0]["line"] == 3 and "SyntaxError" in data[0]["message"]


def test_undecodable_bytes_is_a_finding(proj, cli):
    write(proj, {"bad.py": b"import torch\nx = 1\ny = '\xff\xfe'\n", "m.py": MODEL})
    r = concise(cli, ".")
    assert r.rc == 1
    assert r.lines[0].startswith("bad.py:3:6: GL000 ") and "UTF-8" in r.lines[0]
    assert GL101_LINE in r.lines


# --- configuration ----------------------------------------------------------------------------------

def codes(run: Run) -> list[str]:
    return [line.split()[1] for line in run.lines if re.match(r"^\S+:\d+:\d+: ", line)]


@pytest.mark.parametrize("config, expected", [
    ('select = ["GL14"]', ["GL140"]),
    ('select = ["GL1"]', ["GL140", "GL101"]),
    ('ignore = ["GL1"]', []),
    ('ignore = ["GL101"]', ["GL140"]),
    ('extend-ignore = ["GL140"]', ["GL101"]),
    ('select = ["GL14"]\nextend-select = ["GL101"]', ["GL140", "GL101"]),
    ('ignore = ["GL1"]\nextend-select = ["GL101"]', ["GL101"]),  # the more specific selector wins
    ('per-file-ignores = { "m.py" = ["GL101"] }', ["GL140"]),
    ('per-file-ignores = { "*.py" = ["GL14"] }', ["GL101"]),
    ('per-file-ignores = { "other.py" = ["GL1"] }', ["GL140", "GL101"]),
])
def test_selection_config_keys(proj, cli, config, expected):
    write(proj, {"m.py": MODEL}, config)
    assert codes(concise(cli, "m.py")) == expected


def test_per_file_ignores_folder_glob(proj, cli):
    write(proj, {"tests/m.py": MODEL, "src/m.py": MODEL}, 'per-file-ignores = { "tests/*" = ["GL1"] }')
    r = concise(cli, ".")
    assert [line.split(":")[0] for line in r.lines[:-1]] == ["src/m.py", "src/m.py"]


def test_extend_select_enables_opt_in_unused_noqa(proj, cli):
    src = MODEL.replace("return x.sum().item()", "return x.sum()  # noqa: GL101")
    write(proj, {"m.py": src}, 'extend-select = ["GL001"]')
    r = concise(cli, "m.py")
    assert codes(r) == ["GL140", "GL001"]
    assert r.lines[1].startswith("m.py:7:25: GL001 ") and "unused: GL101" in r.lines[1]


def test_exclude_and_extend_exclude(proj, cli):
    files = {"m.py": MODEL, "gen/g.py": MODEL, "build/b.py": MODEL, "vendor/v.py": MODEL}
    write(proj, files, 'extend-exclude = ["gen", "vendor/*.py"]')
    assert sorted({line.split(":")[0] for line in concise(cli, ".").lines[:-1]}) == ["m.py"]
    # `exclude` replaces the defaults: build/ is linted again.
    write(proj, {}, 'exclude = ["gen"]')
    linted = sorted({line.split(":")[0] for line in concise(cli, ".").lines[:-1]})
    assert linted == ["build/b.py", "m.py", "vendor/v.py"]


def test_gitignore_respected_unless_disabled(proj, cli):
    write(proj, {"m.py": MODEL, "out/gen.py": MODEL, ".gitignore": "out/\n"})
    assert {line.split(":")[0] for line in concise(cli, ".").lines[:-1]} == {"m.py"}
    linted = {line.split(":")[0] for line in concise(cli, "--no-respect-gitignore", ".").lines[:-1]}
    assert linted == {"m.py", "out/gen.py"}
    write(proj, {}, "respect-gitignore = false")
    assert {line.split(":")[0] for line in concise(cli, ".").lines[:-1]} == {"m.py", "out/gen.py"}


def test_scope_hot_and_cold_keys(proj, cli):
    write(proj, {"step.py": STEP, "m.py": MODEL})
    assert codes(concise(cli, "step.py")) == []  # not on the hot path
    write(proj, {}, 'scope = "all"')
    assert codes(concise(cli, "step.py")) == ["GL101"]
    write(proj, {}, 'hot = ["step:step"]')
    assert codes(concise(cli, "step.py")) == ["GL101"]
    write(proj, {}, 'capture-regions = ["step"]')
    assert codes(concise(cli, "step.py")) == ["GL101"]
    write(proj, {}, 'cold = ["m:M.forward"]')
    assert codes(concise(cli, "m.py")) == []


def test_module_bases_key(proj, cli):
    # a project base nothing marks as a module: its subclass's forward is cold until the config names the base
    # (a base imported from another library already makes `forward` a root: tests/index/test_foreign_bases.py)
    src = MODEL.replace("torch.nn.Module", "MyBase").replace("import torch\n", "import torch\n\n\nclass MyBase:\n    pass\n")
    write(proj, {"m.py": src})
    assert codes(concise(cli, "m.py")) == []
    write(proj, {}, 'module-bases = ["MyBase"]')
    assert codes(concise(cli, "m.py")) == ["GL140", "GL101"]


def test_cache_dir_key_is_accepted(proj, cli):
    write(proj, {"m.py": MODEL}, 'cache-dir = ".cache/graphlint"')
    assert concise(cli, "m.py").rc == 1


def test_config_found_upward_from_first_path(proj, cli):
    write(proj, {"pkg/sub/m.py": MODEL}, 'select = ["GL101"]')
    (proj / "pkg" / "sub").mkdir(exist_ok=True)
    r = concise(cli, "pkg/sub")
    assert codes(r) == ["GL101"]


def test_explicit_config_and_isolated(proj, cli):
    write(proj, {"m.py": MODEL, "other.toml": '[tool.graphlint]\nselect = ["GL140"]\n'}, 'select = ["GL101"]')
    assert codes(concise(cli, "m.py")) == ["GL101"]
    assert codes(concise(cli, "--config", "other.toml", "m.py")) == ["GL140"]
    assert codes(concise(cli, "--isolated", "m.py")) == ["GL140", "GL101"]


# --- command-line overrides -------------------------------------------------------------------------

@pytest.mark.parametrize("args, expected", [
    (["--select", "GL1"], ["GL140", "GL101"]),
    (["--select", "gl14"], ["GL140"]),  # case-insensitive
    (["--select", "GL101,GL140"], ["GL140", "GL101"]),
    (["--select", "GL101", "--select", "GL140"], ["GL140", "GL101"]),
    (["--ignore", "GL101"], ["GL140"]),
    (["--extend-ignore", "GL1"], []),
    (["--select", "GL101", "--ignore", "GL1"], ["GL101"]),  # more specific wins
    (["--select", "GL1", "--ignore", "GL1"], []),  # a tie goes to ignore
    (["--ignore", "GL1", "--extend-select", "GL140"], ["GL140"]),
    (["--select", "ALL"], ["GL140", "GL101"]),
    (["--per-file-ignores", "m.py:GL140"], ["GL101"]),
])
def test_selection_flags(proj, cli, args, expected):
    write(proj, {"m.py": MODEL})
    assert codes(concise(cli, *args, "m.py")) == expected


def test_cli_select_replaces_config_selection(proj, cli):
    write(proj, {"m.py": MODEL}, 'ignore = ["GL1"]')
    assert codes(concise(cli, "m.py")) == []
    assert codes(concise(cli, "--select", "GL140", "m.py")) == ["GL140"]
    assert codes(concise(cli, "--extend-select", "GL101", "m.py")) == ["GL101"]


def test_per_file_ignores_flags(proj, cli):
    write(proj, {"m.py": MODEL}, 'per-file-ignores = { "m.py" = ["GL101"] }')
    assert codes(concise(cli, "m.py")) == ["GL140"]
    assert codes(concise(cli, "--per-file-ignores", "m.py:GL140", "m.py")) == ["GL101"]  # replaces
    assert codes(concise(cli, "--extend-per-file-ignores", "m.py:GL140", "m.py")) == []  # adds


def test_exclude_flags(proj, cli):
    write(proj, {"m.py": MODEL, "gen/g.py": MODEL, "build/b.py": MODEL})
    files = lambda r: sorted({line.split(":")[0] for line in r.lines[:-1]})  # noqa: E731
    assert files(concise(cli, ".")) == ["gen/g.py", "m.py"]
    assert files(concise(cli, "--extend-exclude", "gen", ".")) == ["m.py"]
    assert files(concise(cli, "--exclude", "gen", ".")) == ["build/b.py", "m.py"]


def test_scope_hot_cold_flags(proj, cli):
    write(proj, {"step.py": STEP, "m.py": MODEL})
    assert codes(concise(cli, "--scope", "all", "step.py")) == ["GL101"]
    assert codes(concise(cli, "--hot", "step:step", "step.py")) == ["GL101"]
    assert codes(concise(cli, "--cold", "m:M.forward", "m.py")) == []
    write(proj, {}, 'hot = ["nothing:here"]')
    assert codes(concise(cli, "--hot", "step:step", "step.py")) == ["GL101"]  # added to the config's


def test_force_exclude_applies_to_explicit_files(proj, cli):
    write(proj, {"gen/g.py": MODEL}, 'extend-exclude = ["gen"]')
    assert codes(concise(cli, "gen/g.py")) == ["GL140", "GL101"]  # an explicit file bypasses excludes
    r = concise(cli, "--force-exclude", "gen/g.py")
    assert (r.rc, codes(r)) == (0, [])


# --- suppression ------------------------------------------------------------------------------------

NOQA = """\
import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.item()  # noqa
        b = x.item()  # noqa: GL101
        c = x.item()  # noqa: GL140,GL101
        d = x.item()  # NOQA:gl101
        e = x.item()  # noqa: GL1
        f = x.item()  # noqa: GL140
        g = x.item()  # noqa: E501
        y = torch.stack(  # noqa: GL101
            [x, x.sum().item()],
        )
        z = torch.stack(
            [x, x.sum().item()],
        )  # noqa: GL101
        w = torch.stack(
            [x, x.sum().item()],
        )
        return a, b, c, d, e, f, g, y, z, w
"""


def test_noqa_forms(proj, cli):
    write(proj, {"m.py": NOQA})
    r = concise(cli, "m.py")
    # Only the wrong-code noqa lines and the unsuppressed multi-line statement remain.
    assert [tuple(line.split(":")[1:3]) for line in r.lines[:-1]] == [("11", "13"), ("12", "13"), ("20", "17")]
    assert codes(r) == ["GL101"] * 3


NOQA_SPLIT = """\
import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = (x.sum()  # noqa: GL101
             .item())
        b = (x.sum()
             .item())  # noqa: GL101
        c = (x.sum()
             .mean()
             .item()  # noqa: GL101
             )
        d = (x.sum()
             .mean()  # noqa: GL101
             .item()
             )
        e = (x.sum()
             .item())
        return a, b, c, d, e
"""


def test_noqa_of_a_method_reported_below_its_receiver(proj, cli):
    """A method broken across lines is reported on its `.method` line: a noqa there, or on the statement's first
    or last line, suppresses it (as graphlint reads noqa for any finding); one on a receiver line in between is a
    line that reports nothing, as flake8 would read it."""
    write(proj, {"m.py": NOQA_SPLIT})
    r = concise(cli, "--warn-unused-noqa", "m.py")
    found = [(line.split(":")[1], line.split(":")[2], line.split(": ")[1].split()[0]) for line in r.lines[:-1]]
    assert found == [("15", "23", "GL001"), ("16", "14", "GL101"), ("19", "14", "GL101")]


def test_unused_noqa_with_warn_unused_noqa(proj, cli):
    write(proj, {"m.py": NOQA})
    assert "GL001" not in codes(concise(cli, "m.py"))
    r = concise(cli, "--warn-unused-noqa", "m.py")
    gl001 = [line for line in r.lines if " GL001 " in line]
    # Line 8 used GL101 but not GL140; line 11 names only GL140; E501 belongs to another tool.
    assert [line.split(":")[1] for line in gl001] == ["8", "11"]
    assert "unused: GL140" in gl001[0]


def test_unused_noqa_unknown_code(proj, cli):
    src = MODEL.replace("torch.cuda.synchronize()", "torch.cuda.synchronize()  # noqa: GL140,GL999")
    write(proj, {"m.py": src})
    r = concise(cli, "--warn-unused-noqa", "m.py")
    assert codes(r) == ["GL001", "GL101"]
    assert "unknown: GL999" in r.lines[0]


def test_skip_file(proj, cli):
    write(proj, {"m.py": "# graphlint: skip-file\n" + MODEL})
    r = concise(cli, "m.py")
    assert (r.rc, r.lines) == (0, [])


# --- stdin ------------------------------------------------------------------------------------------

def test_stdin_with_filename(proj, cli):
    write(proj, {}, 'per-file-ignores = { "ignored_*.py" = ["GL140"] }')
    r = concise(cli, "-", "--stdin-filename", "m.py", stdin=MODEL.encode())
    assert (r.rc, r.lines) == (1, [GL140_LINE, GL101_LINE, "Found 2 errors."])
    r = concise(cli, "-", "--stdin-filename", "ignored_m.py", stdin=MODEL.encode())
    assert codes(r) == ["GL101"]  # per-file-ignores see the stdin filename
    r = concise(cli, "--stdin-filename", "m.py", stdin=MODEL.encode())  # no path: stdin as well
    assert codes(r) == ["GL140", "GL101"]


def test_stdin_without_filename_and_full_format(proj, cli):
    write(proj, {"m.py": CLEAN})  # a different file on disk must not be shown as the source
    r = cli("-", stdin=MODEL.encode())
    assert r.rc == 1
    assert r.lines[0] == f"-:6:9: GL140 {msg('GL140')}"
    r = cli("-", "--stdin-filename", "m.py", stdin=MODEL.encode())
    assert "7 |         return x.sum().item()" in r.lines


def test_stdin_config_from_filename_folder(proj, cli):
    write(proj, {"sub/pyproject.toml": '[tool.graphlint]\nselect = ["GL140"]\n'})
    r = concise(cli, "-", "--stdin-filename", "sub/m.py", stdin=MODEL.encode())
    assert codes(r) == ["GL140"]


def test_stdin_force_exclude(proj, cli):
    write(proj, {}, 'extend-exclude = ["gen"]')
    r = concise(cli, "-", "--stdin-filename", "gen/m.py", stdin=MODEL.encode())
    assert codes(r) == ["GL140", "GL101"]  # excludes apply to stdin only with --force-exclude
    r = concise(cli, "-", "--force-exclude", "--stdin-filename", "gen/m.py", stdin=MODEL.encode())
    assert (r.rc, codes(r)) == (0, [])


def test_stdin_syntax_error_and_bad_bytes(proj, cli):
    r = concise(cli, "-", "--stdin-filename", "x.py", stdin=b"def f(:\n")
    assert r.rc == 1 and r.lines[0].startswith("x.py:1:") and " GL000 " in r.lines[0]
    r = concise(cli, "-", "--stdin-filename", "x.py", stdin=b"x = 1\n\xff\n")
    assert r.rc == 1 and r.lines[0].startswith("x.py:2:1: GL000 ")


def test_stdin_cannot_mix_with_paths(proj, cli):
    write(proj, {"m.py": MODEL})
    r = cli("-", "m.py", stdin=b"")
    assert r.rc == 2 and "stdin" in r.err


# --- rule documentation and catalog -----------------------------------------------------------------

@pytest.mark.parametrize("args", [["rule", "GL101"], ["rule", "gl101"], ["--explain", "GL101"],
                                  ["check", "--explain", "GL101"]])
def test_rule_documentation(cli, args):
    r = cli(*args)
    rule = RULES_BY_CODE["GL101"]
    assert r.rc == 0
    assert r.lines[0] == f"# GL101 `{rule.name}`"
    assert f"Family: {rule.family.value}" in r.out
    titles = [line[3:] for line in r.lines if line.startswith("## ")]
    assert titles == ["What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "References"]
    assert rule.doc().split("\n\n")[1].splitlines()[0] in r.out  # the body, not only the summary
    assert rule.why in r.out and "202-211 ms" in r.out  # the measured H200 wait
    assert rule.INVALID[0].splitlines()[1] in r.out and rule.use_instead.splitlines()[1] in r.out
    assert r.lines[-1] == f"Docs: {rule_url('GL101')}"


def test_explain_prints_the_page_of_docs_rules_md(cli):
    """One renderer: `--explain` is the rule's section of docs/rules.md, two heading levels up."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    start = page.index("### GL205 `pinned-alloc-in-capture`")
    end = re.compile(r"^#{2,3} ", re.M).search(page, start + 1).start()  # the next rule or family
    section = page[start:end].rstrip("\n") + "\n"
    out = cli("--explain", "GL205").out
    explained = out[: out.rindex("\nDocs: ")]
    assert re.sub(r"^#", "###", explained, flags=re.M) == section


def test_rule_documentation_opt_in_rule(cli):
    r = cli("rule", "GL001")
    assert r.rc == 0 and "default: off (opt-in)" in r.out


def test_rule_documentation_runtime_code(cli):
    from graphlint.runtime.codes import RUNTIME_CODES

    info = RUNTIME_CODES["GLR101"]
    r = cli("rule", "GLR101")
    assert r.rc == 0
    assert r.lines[0] == f"# GLR101 `{info.name}`"
    assert info.summary in r.out and info.fix_hint in r.out


def test_list_rules_plain_table(cli):
    r = cli("--list-rules")
    assert r.rc == 0
    assert r.lines[0].split() == ["CODE", "NAME", "FAMILY", "DEFAULT", "FIXABLE"]
    rows = {line.split()[0]: line.split() for line in r.lines[1:]}
    for rule in ALL_RULES:
        assert rows[rule.code] == [rule.code, rule.name, rule.family.value,
                                   "on" if rule.default_enabled else "off", "yes" if rule.FIXES else "no"]
    assert rows["GL001"][3] == "off"
    assert "GLR101" in rows


def test_list_rules_json(cli):
    r = cli("--list-rules", "--output-format", "json")
    data = json.loads(r.out)
    rules = [d["code"] for d in data if not d["code"].startswith("GLR") and not d["default"].startswith("moved")]
    assert rules == [rule.code for rule in ALL_RULES]  # moved codes: tests/test_cli_redirects.py
    assert set(data[0]) == {"code", "name", "family", "default", "fixable"}


def test_version_and_help(cli):
    r = cli("--version")
    assert (r.rc, r.out.strip()) == (0, f"graphlint {__version__}")
    r = cli("--help")
    assert r.rc == 0 and "--output-format" in r.out and "Exit codes" in r.out


def test_list_rules_rich_table_on_a_tty(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    monkeypatch.setattr(sys, "stdout", tty)
    monkeypatch.delenv("GRAPHLINT_OUTPUT_FORMAT", raising=False)
    assert main(["--list-rules"]) == 0
    text = tty.getvalue()
    assert "graphlint rules" in text and "━" in text  # rich's table rules, not the plain layout
    assert all(rule.code in text for rule in ALL_RULES)


# --- error paths: one line, exit 2, no traceback (real subprocesses) --------------------------------

BAD_INPUTS = [
    (["missing.py"], {}, "path does not exist: missing.py"),
    (["--select", "GLX9", "m.py"], {}, "unknown rule selector 'GLX9'"),
    (["--ignore", "XY1", "m.py"], {}, "unknown rule selector 'XY1'"),
    (["--output-format", "xml", "m.py"], {}, "invalid choice: 'xml'"),
    (["--config", "nope.toml", "m.py"], {}, "config file not found"),
    (["--config", "broken.toml", "m.py"], {}, "invalid TOML"),
    (["rule", "GL999"], {}, "unknown rule code 'GL999'"),
    (["--explain", "nonsense"], {}, "unknown rule code 'NONSENSE'"),
    (["--per-file-ignores", "nocolon", "m.py"], {}, "GLOB:CODES"),
    (["--fix", "--diff", "m.py"], {}, "cannot be used together"),
    (["--runtime-report", "nope.json", "m.py"], {}, "cannot read runtime report"),
    (["--runtime-report", "broken.toml", "m.py"], {}, "not a graphlint runtime report"),
    (["--bogus-flag"], {}, "unrecognized arguments: --bogus-flag"),
    (["m.py"], {"GRAPHLINT_OUTPUT_FORMAT": "xml"}, "GRAPHLINT_OUTPUT_FORMAT"),
    (["capture", "no_colon"], {}, "module:factory"),
    (["capture", "x:y", "--replays", "0"], {}, "--replays must be at least 1"),
]


@pytest.mark.parametrize("args, env, expected", BAD_INPUTS, ids=[" ".join(a) for a, _, _ in BAD_INPUTS])
def test_bad_input_is_one_line_exit_2(tmp_path, args, env, expected):
    write(tmp_path, {"m.py": MODEL, "broken.toml": "[tool.graphlint\n"})
    r = sub(*args, cwd=tmp_path, env=env)
    assert r.rc == 2, r
    assert "Traceback" not in r.err
    assert len(r.err.splitlines()) == 1, r.err
    assert expected in r.err
    assert r.err.startswith("graphlint")
    assert r.out == ""


BAD_CONFIGS = [
    ("colour = true", "unknown key 'colour'"),
    ('select = "GL1"', "select must be a list of strings"),
    ('select = ["GLX"]', "unknown rule selector 'GLX'"),
    ('select = [""]', "empty rule selector in select"),  # was every default rule, silently
    ('per-file-ignores = { "a.py" = [" "] }', "empty rule selector in per-file-ignores"),
    ('ignore = ["nope"]', "unknown rule selector 'nope'"),
    ('per-file-ignores = { "a.py" = ["GLQ"] }', "unknown rule selector 'GLQ'"),
    ('per-file-ignores = ["a.py"]', "per-file-ignores must be a table"),
    ('scope = "warm"', "scope must be one of captured, step, hot, all"),
    ('output-format = "xml"', "output-format must be one of"),
    ("respect-gitignore = 1", "respect-gitignore must be true or false"),
    ("exclude = [1, 2]", "exclude must be a list of strings"),
    ("select = [", "invalid TOML"),
    ('extend-exclude = ["!"]', "invalid path pattern: Invalid git pattern: '!'"),  # not the 26 default excludes too
    ('per-file-ignores = { "!" = ["GL1"] }', "invalid path pattern: Invalid git pattern: '!'"),
]


@pytest.mark.parametrize("config, expected", BAD_CONFIGS, ids=[c for c, _ in BAD_CONFIGS])
def test_bad_config_is_one_line_exit_2(tmp_path, config, expected):
    write(tmp_path, {"m.py": MODEL}, config)
    r = sub("m.py", cwd=tmp_path)
    assert r.rc == 2, r
    assert "Traceback" not in r.err
    assert r.err.splitlines() == [r.err.strip()] and r.err.startswith("graphlint: error: ")
    assert expected in r.err



@pytest.mark.parametrize("tool, shown", [("5", "5"), ('"graphlint"', "'graphlint'"), ('["graphlint"]', "['graphlint']")])
def test_a_tool_key_that_is_no_table(proj, cli, tool, shown):
    """`tool = 5` in a pyproject.toml: the search for our table raised TypeError and loading it
    AttributeError, both "internal error ... please report it". Someone else's file is skipped on the way
    up; named with --config it is a config error."""
    write(proj, {"m.py": MODEL}, None)
    (proj / "pyproject.toml").write_text(f"tool = {tool}\n")
    assert concise(cli, "m.py").rc == 1
    r = concise(cli, "--config", "pyproject.toml", "m.py")
    assert (r.rc, r.out) == (2, "")
    assert r.err == f"graphlint: error: [tool] in pyproject.toml must be a table, got {shown}\n"

def test_python_dash_m_and_console_script(tmp_path):
    write(tmp_path, {"m.py": MODEL})
    r = sub("--output-format", "concise", "m.py", cwd=tmp_path)
    assert (r.rc, r.lines) == (1, [GL140_LINE, GL101_LINE, "Found 2 errors."])
    script = Path(sys.executable).with_name("graphlint")
    if not script.exists():
        pytest.skip(f"console script not installed next to {sys.executable} (pip install -e .)")
    p = subprocess.run([str(script), "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert (p.returncode, p.stdout.strip()) == (0, f"graphlint {__version__}")


def test_stdin_through_subprocess(tmp_path):
    write(tmp_path, {})
    r = sub("--output-format", "concise", "-", "--stdin-filename", "m.py", cwd=tmp_path, stdin=MODEL.encode())
    assert (r.rc, r.lines) == (1, [GL140_LINE, GL101_LINE, "Found 2 errors."])


def test_machine_formats_keep_stdout_clean(tmp_path, sarif_validator):
    """Notes and summaries never reach stdout in json/sarif/github, even with zero files (gitlab and
    junit: tests/report/test_output_formats.py)."""
    write(tmp_path, {"empty/readme.txt": "x"})
    for fmt, check in (("json", json.loads), ("sarif", lambda s: sarif_validator.validate(json.loads(s))),
                       ("github", lambda s: s == "")):
        r = sub("--output-format", fmt, "empty", cwd=tmp_path)
        assert r.rc == 0
        assert check(r.out) is not False
        assert "No Python files found" in r.err


# --- fixes ------------------------------------------------------------------------------------------

@pytest.fixture
def item_fix(monkeypatch):
    """GL101 findings carry a fix that drops `.item()`."""
    import graphlint.pipeline.engine as engine

    original = engine.Linter.lint_sources

    def lint_sources(self, sources):
        result = original(self, sources)
        fixed = []
        for f in result.findings:
            if f.code == "GL101":
                # `x.sum().item()` -> `x.sum()`: replace the call with its receiver.
                text = next(s.text for s in sources if s.path == f.path).splitlines()[f.line - 1]
                call = text[f.column - 1:f.end_column - 1]
                f = f.with_(fix=(Edit(f.line, f.column, f.end_line, f.end_column, call[: -len(".item()")]),))
            fixed.append(f)
        result.findings = fixed
        return result

    monkeypatch.setattr(engine.Linter, "lint_sources", lint_sources)


def test_fixable_findings_are_marked(proj, cli, item_fix):
    write(proj, {"m.py": MODEL})
    r = concise(cli, "m.py")
    assert r.lines[-2:] == ["Found 2 errors.", "[*] 1 fixable with the `--fix` option."]
    data = json.loads(cli("--output-format", "json", "m.py").out)
    assert [d["fixable"] for d in data] == [False, True]


def test_diff_prints_and_changes_nothing(proj, cli, item_fix):
    write(proj, {"m.py": MODEL})
    r = cli("--diff", "m.py")
    assert r.rc == 1
    assert (proj / "m.py").read_text() == MODEL
    assert r.lines[:2] == ["--- a/m.py", "+++ b/m.py"]
    assert "-        return x.sum().item()" in r.lines and "+        return x.sum()" in r.lines
    assert "Would fix 1 error." in r.err
    write(proj, {"clean.py": CLEAN})
    clean = cli("--diff", "clean.py")
    assert (clean.rc, clean.out) == (0, "")


def test_fix_rewrites_and_reports_what_is_left(proj, cli, item_fix):
    write(proj, {"m.py": b"\xef\xbb\xbf" + MODEL.replace("\n", "\r\n").encode()})
    r = concise(cli, "--fix", "m.py")
    assert r.rc == 1  # GL140 has no fix
    assert r.lines == [GL140_LINE, "Found 2 errors (1 fixed, 1 remaining)."]
    after = (proj / "m.py").read_bytes()
    assert b"return x.sum()\r\n" in after and b".item()" not in after  # line endings kept
    assert after.startswith(b"\xef\xbb\xbfimport torch\r\n")  # and the BOM
    again = concise(cli, "--fix", "m.py")
    assert again.lines == [GL140_LINE, "Found 1 error."]


def test_fix_stdin_writes_source_to_stdout(proj, cli, item_fix):
    r = cli("--output-format", "concise", "--fix", "-", "--stdin-filename", "m.py", stdin=MODEL.encode())
    assert r.out == MODEL.replace("x.sum().item()", "x.sum()")
    assert GL140_LINE in r.err.splitlines()


def test_fix_stdin_undecodable_is_echoed_back(tmp_path):
    data = b"x = 1\n\xff\n"
    r = subprocess.run([sys.executable, "-m", "graphlint", "--fix", "-", "--stdin-filename", "x.py"],
                       cwd=tmp_path, input=data, capture_output=True, timeout=120)
    assert r.stdout == data
    assert r.returncode == 1 and b"GL000" in r.stderr


# --- runtime cross-check and capture ----------------------------------------------------------------

def test_runtime_report_cross_check(proj, cli):
    from graphlint.runtime.report import RuntimeReport

    write(proj, {"m.py": MODEL, "clean.py": CLEAN})
    path = str(proj / "m.py")
    report = RuntimeReport(target="m:case", captured=False, cwd=str(proj), findings=[
        Finding(path=path, line=7, column=16, code="GLR101", name="sync-observed", message="sync"),
        Finding(path=str(proj / "clean.py"), line=6, column=9, code="GLR101", name="sync-observed",
                message="sync"),
    ])
    report.to_json(proj / "report.json")
    r = cli("--output-format", "json", "--runtime-report", "report.json", "m.py")
    assert r.rc == 1
    data = {(d["path"], d["code"]): d for d in json.loads(r.out)}
    assert data[("m.py", "GL101")]["confirmed_at_runtime"] is True
    assert data[("m.py", "GL140")]["confirmed_at_runtime"] is False
    assert data[(str(proj / "clean.py"), "GLR901")]["line"] == 6
    text = concise(cli, "--runtime-report", "report.json", "m.py")
    assert text.lines[-1] == "Runtime cross-check: 1 confirmed, 1 not seen at runtime, 1 seen only at runtime."


def test_runtime_module_missing_is_one_line(proj, cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "graphlint.runtime.cli", None)
    write(proj, {"m.py": MODEL, "r.json": "{}"})
    r = cli("--runtime-report", "r.json", "m.py")
    assert r.rc == 2 and r.err.startswith("graphlint: error: the runtime harness") and len(r.err.splitlines()) == 1
    r = cli("capture", "mod:factory")
    assert r.rc == 2 and "runtime harness" in r.err


def test_capture_delegates(proj, cli, monkeypatch):
    import graphlint.runtime.cli as runtime_cli

    seen = {}

    def fake_capture(target, **kw):
        seen.update(kw, target=target)
        kw["stream"].write("captured\n")
        return 1

    monkeypatch.setattr(runtime_cli, "capture_command", fake_capture)
    r = cli("capture", "pkg.mod:make", "--tolerance", "0.01", "--replays", "3", "--output-format", "json",
            "--report", "out.json")
    assert r.rc == 1 and r.out == "captured\n"
    assert seen["target"] == "pkg.mod:make"
    passed = (seen["tolerance"], seen["replays"], seen["output_format"], seen["report_path"])
    assert passed == (0.01, 3, "json", "out.json")


# --- settings and files -----------------------------------------------------------------------------

def test_show_settings_merges_config_and_flags(proj, cli):
    write(proj, {"m.py": MODEL}, 'select = ["GL1"]\nhot = ["a:b"]\nextend-exclude = ["gen"]')
    r = cli("--show-settings", "--ignore", "GL101", "--scope", "all", "--hot", "c:d")
    assert r.rc == 0
    settings = {line.split(" = ", 1)[0]: json.loads(line.split(" = ", 1)[1]) for line in r.lines}
    assert settings["config-file"] == str(proj / "pyproject.toml")
    assert "GL140" in settings["enabled"] and "GL101" not in settings["enabled"]
    assert all(code.startswith("GL1") for code in settings["enabled"])
    assert (settings["scope"], settings["hot"], settings["extend-exclude"]) == ("all", ["a:b", "c:d"], ["gen"])
    assert settings["output-format"] == "full"


def test_show_files_applies_excludes(proj, cli):
    write(proj, {"m.py": MODEL, "pkg/a.py": CLEAN, "pkg/b.pyi": "x: int\n", "gen/g.py": MODEL, "notes.txt": "x"},
          'extend-exclude = ["gen"]')
    r = cli("--show-files")
    assert (r.rc, r.lines) == (0, ["m.py", "pkg/a.py", "pkg/b.pyi"])
    assert cli("--show-files", "--force-exclude", "gen/g.py").lines == []
    assert cli("--show-files", "gen/g.py").lines == ["gen/g.py"]


FIXABLE_RULES = [rule for rule in ALL_RULES if rule.FIXES]


@pytest.mark.parametrize("rule", FIXABLE_RULES or [None], ids=[r.code for r in FIXABLE_RULES] or ["none"])
def test_real_fixes_through_the_cli(tmp_path, rule):
    """Each rule's own FIXES example, end to end: --diff shows it, --fix writes it, a re-run is clean."""
    from graphlint.testing import example_source

    if rule is None:
        pytest.skip("no rule has an autofix yet")
    example = rule.FIXES[0]
    before, after = example_source(example.before), example_source(example.after)
    write(tmp_path, {"f.py": before})
    args = ("--scope", "all", "--select", rule.code, "--output-format", "concise")
    if example.applicability == "unsafe":  # shown and applied only on request
        hidden = sub(*args, "--fix", "f.py", cwd=tmp_path)
        assert (hidden.rc, (tmp_path / "f.py").read_text()) == (1, before), hidden
        args += ("--unsafe-fixes",)
    diff = sub(*args, "--diff", "f.py", cwd=tmp_path)
    assert diff.rc == 1, diff
    assert diff.lines[:2] == ["--- a/f.py", "+++ b/f.py"]
    assert (tmp_path / "f.py").read_text() == before
    fixed = sub(*args, "--fix", "f.py", cwd=tmp_path)
    assert (tmp_path / "f.py").read_text() == after
    assert (fixed.rc, fixed.lines[-1]) == (0, "Found 1 error (1 fixed, 0 remaining)."), fixed
    assert sub(*args, "f.py", cwd=tmp_path).lines == []


# --- performance flags: cache, jobs, progress -------------------------------------------------------

def test_cache_location_flags_env_and_config(proj, cli, monkeypatch):
    write(proj, {"m.py": MODEL})
    first = concise(cli, "m.py")
    assert (proj / ".graphlint_cache").is_dir()  # default: next to the config
    assert concise(cli, "m.py").lines == first.lines  # a warm run reports the same
    (proj / "m.py").write_text(CLEAN)
    assert concise(cli, "m.py").lines == []  # an edit is never served stale
    write(proj, {"m.py": MODEL}, 'select = ["GL101"]')
    assert codes(concise(cli, "m.py")) == ["GL101"]  # nor is a config change

    shutil.rmtree(proj / ".graphlint_cache")
    concise(cli, "--no-cache", "m.py")
    assert not (proj / ".graphlint_cache").exists()
    concise(cli, "--cache-dir", "flagdir", "m.py")
    assert (proj / "flagdir").is_dir()
    monkeypatch.setenv("GRAPHLINT_CACHE_DIR", str(proj / "envdir"))
    concise(cli, "m.py")
    assert (proj / "envdir").is_dir()
    monkeypatch.delenv("GRAPHLINT_CACHE_DIR")
    write(proj, {"sub/m.py": MODEL}, 'cache-dir = "build/gl"')
    monkeypatch.chdir(proj / "sub")
    concise(cli, "m.py")
    assert (proj / "build" / "gl").is_dir()  # config paths are relative to the config's folder
    assert not (proj / ".graphlint_cache").exists()


def test_stdin_is_not_cached(proj, cli):
    write(proj, {})
    concise(cli, "-", "--stdin-filename", "m.py", stdin=MODEL.encode())
    assert not (proj / ".graphlint_cache").exists()


def test_jobs_give_the_same_findings(tmp_path):
    files = {f"pkg/m{i:02d}.py": MODEL for i in range(30)}  # above the engine's serial threshold
    write(tmp_path, files)
    serial = sub("--output-format", "concise", "--no-cache", "-j", "1", "pkg", cwd=tmp_path)
    parallel = sub("--output-format", "concise", "--no-cache", "-j", "4", "pkg", cwd=tmp_path)
    assert serial.rc == parallel.rc == 1
    assert parallel.lines == serial.lines and serial.lines[-1] == "Found 60 errors."
    bad = sub("-j", "0", "pkg", cwd=tmp_path)
    assert bad.rc == 2 and "--jobs must be at least 1" in bad.err


def test_progress_bar_only_on_a_terminal(proj, cli, monkeypatch):
    write(proj, {"m.py": MODEL, "n.py": MODEL})
    assert concise(cli, "--no-cache", ".").err == ""  # capsys' stderr is no terminal: no bar

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    r = concise(cli, "--no-cache", ".")
    assert r.rc == 1 and r.lines[-1] == "Found 4 errors."  # stdout untouched by the bar
    assert "lint" in tty.getvalue() and "2/2" in tty.getvalue()
    quiet = Tty()
    monkeypatch.setattr(sys, "stderr", quiet)
    concise(cli, "--no-cache", "-q", ".")
    assert quiet.getvalue() == ""
