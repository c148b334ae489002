"""Files, lines and fixes: one line model, encodings, safe/unsafe fixes, rollback, symlinks, patterns.

Each test names the defect it guards (shared/docs/defects.md: R3-R9, R12, O3, F1-F4). Everything runs
in-process through `graphlint.cli.main`; permission errors are simulated (the suite runs as root on CI),
with one real `chmod` test for non-root runs.
"""

from __future__ import annotations

import errno
import io
import json
import os
import pathlib
import re
import sys
from pathlib import Path

import pytest
import test_cli  # its Run record and `proj` fixture

from graphlint.cli import main
from graphlint.lines import line_starts, source_lines

# GL160 (unsafe fix) at 7:13, GL101 at 8:19. Line 2 is a comment the line-model tests rewrite.
HAZ = """\
import torch
# note


class M(torch.nn.Module):
    def forward(self, x):
        y = max(x)
        return y, x.sum().item()
"""
HAZ_FINDINGS = [("m.py", 7, 13, "GL160"), ("m.py", 8, 19, "GL101")]
# GL401 only: its fix `sum(x)` -> `x.sum(0)` is unsafe (dtype, empty input).
SUM = """\
import torch


class M(torch.nn.Module):
    def forward(self, x):
        return sum(x)
"""
HIDDEN_ONE = "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)."
BOM = b"\xef\xbb\xbf"
# Every character str.splitlines() breaks on that Python's tokenizer does not.
SEPARATORS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


proj = test_cli.proj  # the fixture: a project folder that is the current directory


class Run(test_cli.Run):
    @property
    def findings(self) -> list[tuple[str, int, int, str]]:
        """(path, line, column, code) of each concise finding line."""
        out = []
        for line in self.out.split("\n"):  # not splitlines(): a finding's message never holds U+2028
            m = re.match(r"^(\S+):(\d+):(\d+): (GL\d+) ", line)
            if m:
                out.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
        return out


@pytest.fixture
def cli(capsys, monkeypatch):
    """cli(*args, stdin=b"...") runs main() in-process, without the cache, in concise format."""

    def run(*args: str, stdin: bytes | None = None, fmt: str = "concise") -> Run:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        capsys.readouterr()
        rc = main(["--no-cache", "--output-format", fmt, *args])
        cap = capsys.readouterr()
        return Run(rc, cap.out, cap.err)

    return run


def write(root: Path, files: dict[str, str | bytes]) -> None:
    """test_cli.write without a pyproject.toml; text goes in as UTF-8 bytes, line endings untouched."""
    test_cli.write(root, {name: c if isinstance(c, bytes) else c.encode() for name, c in files.items()}, None)


def paths(run: Run) -> list[str]:
    return sorted({f[0] for f in run.findings})


# --- R3: one line model -----------------------------------------------------------------------------

def test_source_lines_split_like_the_tokenizer():
    text = "a\x0cb\u2028c\r\nd\re\x85f\ng"
    assert source_lines(text) == ["a\x0cb\u2028c", "d", "e\x85f", "g"]
    assert "".join(source_lines(text, keepends=True)) == text
    assert line_starts(text) == [0, 7, 9, 13] and line_starts("x\n") == [0, 2]
    assert source_lines("") == [] and source_lines("x\n") == ["x"]


@pytest.mark.parametrize("sep", SEPARATORS, ids=[f"U+{ord(c):04X}" for c in SEPARATORS])
def test_line_separators_neither_hide_findings_nor_shift_fixes(proj, cli, sep):
    src = HAZ.replace("# note", f"# note{sep}more")
    write(proj, {"m.py": src})
    r = cli("m.py")
    assert r.findings == HAZ_FINDINGS and "internal error" not in r.err, r
    fixed = cli("--fix", "--unsafe-fixes", "m.py")
    assert (proj / "m.py").read_bytes().decode() == src.replace("max(x)", "x.max()")
    assert fixed.findings == [("m.py", 8, 19, "GL101")]


def test_page_break_before_an_indented_def(proj, cli):
    """A form feed starting an indented `def` line is valid Python that libcst's tokenizer rejects."""
    src = HAZ.replace("    def forward", "\f    def forward")
    write(proj, {"m.py": src})
    r = cli("m.py")
    assert r.findings == HAZ_FINDINGS and r.err == "", r
    r = cli("--fix", "--unsafe-fixes", "m.py")
    assert (proj / "m.py").read_bytes().decode() == src.replace("max(x)", "x.max()") and r.err == ""


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_a_lone_backslash_line_opening_a_block(proj, cli, newline):
    """`\\` alone on a body's first line joins an empty line to the next: valid Python that libcst rejects
    (found by the fuzzer: it was a GL002 internal error)."""
    src = HAZ.replace("    def forward(self, x):\n", f"    def forward(self, x):\n        \\{newline}")
    write(proj, {"m.py": src})
    r = cli("m.py")
    assert r.findings == [("m.py", 8, 13, "GL160"), ("m.py", 9, 19, "GL101")] and r.err == "", r


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_crlf_and_cr_files_keep_positions_and_line_endings(proj, cli, newline):
    src = HAZ.replace("\n", newline)
    write(proj, {"m.py": src})
    assert cli("m.py").findings == HAZ_FINDINGS
    cli("--fix", "--unsafe-fixes", "m.py")
    assert (proj / "m.py").read_bytes() == src.replace("max(x)", "x.max()").encode()


def test_noqa_and_markers_use_the_same_lines(proj, cli):
    src = HAZ.replace("# note", "# note\u2028more").replace("y = max(x)", "y = max(x)  # noqa: GL160")
    step = "import torch\n# a\x0cb\u2028c\ndef step(x: torch.Tensor):  # graphlint: hot\n    return x.item()\n"
    write(proj, {"m.py": src, "step.py": step})
    assert cli(".").findings == [("m.py", 8, 19, "GL101"), ("step.py", 4, 12, "GL101")]


def test_full_output_shows_the_flagged_line(proj, cli):
    write(proj, {"m.py": HAZ.replace("# note", "# note\u2029more")})
    out = cli("m.py", fmt="full").out
    block = out[out.index("m.py:8:19: GL101"):]
    assert block.splitlines()[2] == "8 |         return y, x.sum().item()"


# --- R12, R9, encodings -----------------------------------------------------------------------------

def test_latin1_coding_cookie_is_honoured_and_kept(proj, cli):
    body = SUM.encode().replace(b"return sum(x)", b"s = '\xe9'\n        return sum(x), s")
    src = b"# -*- coding: latin-1 -*-\n" + body
    write(proj, {"m.py": src})
    r = cli("m.py")
    assert r.findings == [("m.py", 8, 16, "GL401")], r
    cli("--fix", "--unsafe-fixes", "m.py")
    assert (proj / "m.py").read_bytes() == src.replace(b"sum(x), s", b"x.sum(0), s")


def test_bad_encodings_are_gl000_at_the_right_place(proj, cli):
    write(proj, {"cookie.py": b"# coding: no-such-codec\nx = 1\n",
                 "bytes.py": b"x = 1\ry = '\xff'\n",
                 "cp.py": b"# coding: cp1252\nx = 1\ny = '\x81'\n"})
    r = cli(".")
    assert r.findings == [("bytes.py", 2, 6, "GL000"), ("cookie.py", 1, 1, "GL000"), ("cp.py", 3, 6, "GL000")]
    assert "UTF-8" in r.lines[0] and "no-such-codec" in r.lines[1] and "cp1252" in r.lines[2]


def test_stdin_bom_survives_fix(proj, cli):
    r = cli("--fix", "--unsafe-fixes", "-", "--stdin-filename", "m.py", stdin=BOM + SUM.encode())
    assert r.out == "\ufeff" + SUM.replace("sum(x)", "x.sum(0)")
    assert r.rc == 0 and "1 fixed" in r.err


def test_stdin_latin1_fix_keeps_its_encoding(proj, monkeypatch):
    src = b"# coding: latin-1\n" + SUM.encode().replace(b"return", b"s = '\xe9'\n        return")
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(src), encoding="utf-8"))
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["--no-cache", "--fix", "--unsafe-fixes", "-"]) == 0
    out.flush()
    assert out.buffer.getvalue() == src.replace(b"sum(x)", b"x.sum(0)")


def test_stdin_closed_is_one_line_error(proj, cli, monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)
    r = cli("-")
    assert r.rc == 2 and r.err.startswith("graphlint: error: ") and len(r.err.splitlines()) == 1


# --- fixes: safe/unsafe (O3), rollback, --diff == --fix ---------------------------------------------

def test_unsafe_fix_is_hidden_without_unsafe_fixes(proj, cli):
    write(proj, {"m.py": SUM})
    r = cli("m.py")
    assert r.lines[-2:] == ["Found 1 error.", HIDDEN_ONE]
    r = cli("--fix", "m.py")
    assert (proj / "m.py").read_text() == SUM
    assert (r.rc, r.lines[-2:]) == (1, ["Found 1 error.", HIDDEN_ONE])
    assert cli("--unsafe-fixes", "m.py").lines[-1] == "[*] 1 fixable with the `--fix` option."
    r = cli("--fix", "--unsafe-fixes", "m.py")
    assert (r.rc, r.lines) == (0, ["Found 1 error (1 fixed, 0 remaining)."])
    assert "x.sum(0)" in (proj / "m.py").read_text()


def test_diff_hides_unsafe_fixes_too(proj, cli):
    write(proj, {"m.py": SUM})
    r = cli("--diff", "m.py")
    assert (r.rc, r.out) == (0, "")
    assert r.err == "No errors would be fixed (1 fix available with `--unsafe-fixes`).\n"
    r = cli("--diff", "--unsafe-fixes", "m.py")
    assert r.rc == 1 and "+        return x.sum(0)" in r.lines


def test_json_fix_carries_applicability(proj, cli):
    write(proj, {"m.py": SUM})
    [obj] = json.loads(cli("m.py", fmt="json").out)
    assert obj["fixable"] is True
    assert obj["fix"] == {"applicability": "unsafe", "edits": [
        {"content": "x.sum(0)", "location": {"row": 6, "column": 16}, "end_location": {"row": 6, "column": 22}}]}
    write(proj, {"m.py": HAZ})
    assert [o["fix"] for o in json.loads(cli("m.py", fmt="json").out)][1] is None  # GL101: no fix


def test_rule_fix_examples_declare_their_applicability():
    from graphlint.rules import RULES_BY_CODE

    for code in ("GL401", "GL160"):  # O3: dtype, empty input, NaN and bool-vs-tensor results change
        rule = RULES_BY_CODE[code]
        assert rule.FIXES and all(f.applicability == "unsafe" for f in rule.FIXES)
        assert rule.fix_applicability() == "unsafe"


def _broken_receiver(monkeypatch, marker: str) -> None:
    """Make GL160's fix produce invalid code where its argument reads `marker`."""
    import graphlint.rules.builtin_reads as builtin_reads

    original = builtin_reads.receiver_text
    monkeypatch.setattr(builtin_reads, "receiver_text",
                        lambda expr: "(" if original(expr) == marker else original(expr))


def test_fix_that_breaks_the_file_is_rolled_back(proj, cli, monkeypatch):
    _broken_receiver(monkeypatch, "(x * 2)")
    good = HAZ.replace("y, x.sum().item()", "y")
    bad = good.replace("max(x)", "max(x * 2)")
    write(proj, {"bad.py": bad, "good.py": good})
    r = cli("--fix", "--unsafe-fixes", ".")
    assert (proj / "bad.py").read_text() == bad  # untouched
    assert (proj / "good.py").read_text() == good.replace("max(x)", "x.max()")  # the other file is fixed
    assert r.findings == [("bad.py", 7, 13, "GL160")]
    assert r.lines[-1] == "Found 2 errors (1 fixed, 1 remaining)."
    assert r.rc == 1 and "bad.py" in r.err and "rolled back" in r.err and len(r.err.splitlines()) == 1
    write(proj, {"good.py": good})
    d = cli("--diff", "--unsafe-fixes", ".")
    assert "a/bad.py" not in d.out and "a/good.py" in d.out and "rolled back" in d.err


def _lf_lines(text: str) -> list[str]:
    return re.findall(r"[^\n]*\n|[^\n]+\Z", text)


def _apply_unified_diff(original: bytes, patch: str) -> bytes:
    """Apply a one-file unified diff as `patch` does: LF-separated lines, context matched exactly."""
    old = _lf_lines(original.decode("utf-8"))
    parts = re.split(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@.*\n", patch.split("\n", 2)[2], flags=re.M)
    out, pos = [], 0
    for start, body in zip(parts[1::2], parts[2::2]):
        entries: list[tuple[str, str]] = []
        for raw in _lf_lines(body):
            if raw.startswith("\\"):  # "\ No newline at end of file": the previous line has none
                entries[-1] = (entries[-1][0], entries[-1][1][:-1])
            else:
                entries.append((raw[0], raw[1:]))
        begin = max(int(start) - 1, 0)
        out += old[pos:begin]
        pos = begin
        for tag, text in entries:
            if tag in " -":
                assert old[pos] == text, (old[pos], text)
                pos += 1
            if tag in " +":
                out.append(text)
    out += old[pos:]
    return "".join(out).encode("utf-8")


@pytest.mark.parametrize("variant", ["bom-crlf", "no-final-newline", "separators"])
def test_diff_is_exactly_what_fix_writes(proj, cli, variant):
    src = SUM.replace("return sum(x)", "y = max(x)\n        return sum(x), y")
    if variant == "bom-crlf":
        data = BOM + src.replace("\n", "\r\n").encode()
    elif variant == "no-final-newline":
        data = src.rstrip("\n").encode()
    else:
        data = src.replace("import torch", "import torch  # \x0c\u2028").encode()
    write(proj, {"m.py": data})
    diff = cli("--diff", "--unsafe-fixes", "m.py")
    assert diff.rc == 1 and (proj / "m.py").read_bytes() == data
    cli("--fix", "--unsafe-fixes", "m.py")
    fixed = (proj / "m.py").read_bytes()
    assert fixed != data and _apply_unified_diff(data, diff.out) == fixed


def test_unwritable_file_is_one_line_error(proj, cli, monkeypatch):
    write(proj, {"m.py": SUM})

    def refuse(self, data):
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(pathlib.Path, "write_bytes", refuse)
    r = cli("--fix", "--unsafe-fixes", "m.py")
    assert r.rc == 2 and "graphlint: error: cannot write m.py: Permission denied" in r.err


# --- R4-R8: files -----------------------------------------------------------------------------------

def test_symlink_loop_is_a_finding_not_a_traceback(proj, cli):
    write(proj, {"m.py": SUM})
    os.symlink("b.py", proj / "a.py")
    os.symlink("a.py", proj / "b.py")
    r = cli(".")
    assert r.findings == [("a.py", 1, 1, "GL000"), ("b.py", 1, 1, "GL000"), ("m.py", 6, 16, "GL401")]
    assert r.rc == 1 and r.err == ""
    assert cli("a.py").findings == [("a.py", 1, 1, "GL000")]


def test_symlinks_are_reported_once_under_the_given_name(proj, cli):
    write(proj, {"real.py": SUM})
    os.symlink("real.py", proj / "link.py")
    assert cli(".").findings == [("real.py", 6, 16, "GL401")]
    assert cli("real.py", str(proj / "real.py")).findings == [("real.py", 6, 16, "GL401")]
    assert cli("link.py").findings == [("link.py", 6, 16, "GL401")]
    assert cli("link.py", "real.py").findings == [("real.py", 6, 16, "GL401")]


def test_dangling_link_is_gl000_under_its_own_name(proj, cli):
    os.symlink("missing_target.py", proj / "dangling.py")
    for args in ((".",), ("dangling.py",)):
        r = cli(*args)
        assert r.findings == [("dangling.py", 1, 1, "GL000")], r
        assert "missing_target.py" in r.out


def _deny(monkeypatch, folder: Path) -> None:
    """Simulate `chmod 000 folder` for a root user: listing it or reaching below it is refused."""
    real_stat, real_scandir, real_read = os.stat, os.scandir, pathlib.Path.read_bytes
    inside = str(folder) + os.sep

    def denied(path) -> bool:
        full = os.path.abspath(os.fspath(path))
        return full.startswith(inside)

    def stat(path, *a, **kw):
        if denied(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_stat(path, *a, **kw)

    def scandir(path="."):
        if os.path.abspath(os.fspath(path)) == str(folder) or denied(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_scandir(path)

    def read_bytes(self):
        if denied(self):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read(self)

    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(pathlib.Path, "read_bytes", read_bytes)


def test_unreadable_paths_simulated(proj, cli, monkeypatch):
    write(proj, {"d/a.py": SUM, "m.py": SUM})
    _deny(monkeypatch, proj / "d")
    r = cli("d/a.py")  # R6: an explicit file below an unreadable folder
    assert r.findings == [("d/a.py", 1, 1, "GL000")] and "Permission denied" in r.out and r.rc == 1
    r = cli(".")  # a folder the walk cannot list is named on stderr, not skipped silently
    assert r.findings == [("m.py", 6, 16, "GL401")]
    assert r.err.splitlines() == ["graphlint: warning: cannot read folder d: Permission denied"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads everything")
def test_unreadable_paths_for_real(proj, cli):
    write(proj, {"d/a.py": SUM, "m.py": SUM})
    (proj / "d").chmod(0)
    try:
        assert cli("d/a.py").findings == [("d/a.py", 1, 1, "GL000")]
        r = cli(".")
        assert r.findings == [("m.py", 6, 16, "GL401")] and "cannot read folder d" in r.err
    finally:
        (proj / "d").chmod(0o755)


def test_non_utf8_pyproject_is_one_line_config_error(proj, cli):
    write(proj, {"pyproject.toml": b'[project]\nname="caf\xe9"\n', "sub/m.py": SUM})
    r = cli("sub/")
    assert r.rc == 2 and len(r.err.splitlines()) == 1
    assert r.err.startswith("graphlint: error: ") and "pyproject.toml" in r.err and "UTF-8" in r.err


# --- F1-F4: patterns (pathspec, gitwildmatch) -------------------------------------------------------

def test_folders_named_like_default_excludes_are_linted(proj, cli):
    files = {f"{name}/m.py": SUM for name in ("git", "tox", "eggs", "nox", "hg", "env_x")}
    write(proj, {**files, ".git/m.py": SUM, ".tox/m.py": SUM})
    assert paths(cli(".")) == sorted(files)
    assert paths(cli("git")) == ["git/m.py"]


def test_double_star_matches_zero_folders(proj, cli):
    write(proj, {"src/haz.py": SUM, "src/a/haz.py": SUM, "pyproject.toml":
                 '[tool.graphlint]\nper-file-ignores = { "src/**/*.py" = ["GL4"] }\n'})
    assert cli(".").findings == []
    write(proj, {"pyproject.toml": "[tool.graphlint]\n"})
    assert paths(cli("--per-file-ignores", "src/**/*.py:GL4", ".")) == []
    assert paths(cli("--extend-exclude", "src/**/haz.py", ".")) == []
    assert paths(cli("--extend-exclude", "src/*/haz.py", ".")) == ["src/haz.py"]


def test_gitignore_character_class_negation(proj, cli):
    write(proj, {".gitignore": "gen_[!x].py\n", "gen_a.py": SUM, "gen_x.py": SUM})
    assert paths(cli(".")) == ["gen_x.py"]


def test_parent_gitignore_up_to_the_repo_root(proj, cli, monkeypatch):
    write(proj, {".gitignore": "sub/\n",  # above the repository: not git's business
                 "mono/.git/HEAD": "ref: refs/heads/main\n", "mono/.gitignore": "generated/\n",
                 "mono/sub/pyproject.toml": "[tool.graphlint]\n",
                 "mono/sub/generated/g.py": SUM, "mono/sub/pkg/.gitignore": "local.py\n",
                 "mono/sub/pkg/local.py": SUM, "mono/sub/pkg/generated/g.py": SUM, "mono/sub/pkg/ok.py": SUM,
                 "mono/sub/m.py": SUM})
    monkeypatch.chdir(proj / "mono" / "sub")
    assert paths(cli(".")) == ["m.py", "pkg/ok.py"]
    assert paths(cli("pkg")) == ["pkg/ok.py"]  # a walk that starts below the repo root reads parent files
    assert paths(cli("--force-exclude", "generated/g.py", "pkg/local.py", "m.py")) == ["m.py"]
    assert paths(cli("generated/g.py")) == ["generated/g.py"]  # an explicit file is linted
    assert paths(cli("--no-respect-gitignore", ".")) == [
        "generated/g.py", "m.py", "pkg/generated/g.py", "pkg/local.py", "pkg/ok.py"]


def test_gitignore_negation_cannot_reinclude_below_an_ignored_folder(proj, cli):
    write(proj, {".gitignore": "out/\n!out/keep.py\n!keep2.py\n", "out/keep.py": SUM, "out/keep2.py": SUM,
                 "m.py": SUM})
    assert paths(cli(".")) == ["m.py"]
    assert paths(cli("--force-exclude", "out/keep.py")) == []
