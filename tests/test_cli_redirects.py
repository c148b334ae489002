"""Moved codes (graphlint.diagnostics.REDIRECTS, ruff's rule redirects): GL134 is GL206, GL132 is GL308.

Selectors in the config, on the command line and in the editor's settings that name GL134 act on GL206
with one warning per run; `# noqa: GL134` suppresses GL206 (and is not an unused noqa for it);
`--explain`/`rule GL134` and `--list-rules` say where it went. In-process `main()` calls, as test_cli.py.
"""

from __future__ import annotations

import json

import pytest

from graphlint.pipeline.config import Config
from graphlint.pipeline.selection import command_line_layer
from graphlint.report.output import rule_url
from test_cli import cli, codes, concise, proj, write  # noqa: F401 - fixtures and helpers

# GL206 at 8:16 (a pageable non_blocking copy in model code), GL101 at 9:16.
SRC = """\
import numpy as np
import torch


class M(torch.nn.Module):
    def forward(self, x, arr: np.ndarray):
        y = x + 1
        a = torch.from_numpy(arr).to(x.device, non_blocking=True)
        return a, y.sum().item()
"""
WARNING = ("graphlint: warning: GL134 is now GL206 (`pageable-non-blocking-copy`, family capture-illegal): "
           "selectors and `# noqa` comments naming GL134 act on GL206. Name GL206 instead.")


def test_the_moved_rule_reports_its_new_code_without_a_warning(proj, cli):
    write(proj, {"m.py": SRC})
    r = concise(cli, "m.py")
    assert codes(r) == ["GL206", "GL101"] and r.err == ""


@pytest.mark.parametrize("args, config, expected", [
    (["--select", "GL134"], "", ["GL206"]),
    (["--select", "gl101,gl134"], "", ["GL206", "GL101"]),
    (["--ignore", "GL134"], "", ["GL101"]),
    (["--extend-ignore", "GL134"], "", ["GL101"]),
    (["--extend-select", "GL134"], 'select = ["GL1"]', ["GL206", "GL101"]),
    (["--per-file-ignores", "m.py:GL134"], "", ["GL101"]),
    (["--extend-per-file-ignores", "m.py:GL134"], "", ["GL101"]),
    ([], 'select = ["GL134"]', ["GL206"]),
    ([], 'select = ["GL1"]\nextend-select = ["GL134"]', ["GL206", "GL101"]),
    ([], 'ignore = ["GL134"]', ["GL101"]),
    ([], 'extend-ignore = ["gl134"]', ["GL101"]),
    ([], 'per-file-ignores = { "m.py" = ["GL134"] }', ["GL101"]),
    # Named in the config and on the command line: still one warning.
    (["--extend-select", "GL134"], 'ignore = ["GL134"]', ["GL206", "GL101"]),
])
def test_selectors_naming_the_old_code_act_on_the_new_one(proj, cli, args, config, expected):
    write(proj, {"m.py": SRC}, config)
    r = concise(cli, *args, "m.py")
    assert codes(r) == expected
    assert r.err.splitlines() == [WARNING]


def test_every_run_warns_once(proj, cli):
    """The warning is per run, not per process: a second in-process run (an editor, --watch) warns again."""
    write(proj, {"m.py": SRC}, 'ignore = ["GL134"]')
    assert [concise(cli, "--ignore", "GL134", "m.py").err.splitlines() for _ in range(2)] == [[WARNING]] * 2


def test_a_prefix_of_the_old_code_is_not_redirected(proj, cli):
    """Only the exact old code moves (as in ruff): `GL13` names the GL13x rules, which GL206 left."""
    write(proj, {"m.py": SRC})
    r = concise(cli, "--ignore", "GL13", "m.py")
    assert codes(r) == ["GL206", "GL101"] and r.err == ""


def test_the_editor_settings_layer_redirects_too():
    """The language server layers its select/extendSelect/ignore settings through command_line_layer."""
    base = Config()
    assert command_line_layer(base, ["GL134"], [], []).select == ("GL206",)
    assert "GL206" not in command_line_layer(base, None, [], ["GL134"]).select


def test_noqa_with_the_old_code_suppresses_the_new_one(proj, cli):
    src = SRC.replace("non_blocking=True)", "non_blocking=True)  # noqa: GL134")
    write(proj, {"m.py": src})
    r = concise(cli, "--warn-unused-noqa", "m.py")
    assert codes(r) == ["GL101"]  # suppressed, and no GL001: the directive was used
    # On a line without the finding it is unused (a known code, not an unknown one).
    src = SRC.replace("y = x + 1", "y = x + 1  # noqa: GL134")
    write(proj, {"m.py": src})
    r = concise(cli, "--warn-unused-noqa", "m.py")
    assert codes(r) == ["GL001", "GL206", "GL101"]
    assert r.lines[0].endswith("Unused `noqa` directive (unused: GL134)")


def test_noqa_with_the_old_code_when_the_new_one_is_not_enabled(proj, cli):
    src = SRC.replace("non_blocking=True)", "non_blocking=True)  # noqa: GL134")
    write(proj, {"m.py": src})
    r = concise(cli, "--warn-unused-noqa", "--ignore", "GL206", "m.py")
    assert codes(r) == ["GL001", "GL101"] and "(non-enabled: GL134)" in r.lines[0]


@pytest.mark.parametrize("args", [["rule", "GL134"], ["--explain", "gl134"]])
def test_explain_says_where_the_code_went(cli, args):
    r = cli(*args)
    assert r.rc == 0
    assert r.lines[0] == WARNING.removeprefix("graphlint: warning: ").removesuffix(" Name GL206 instead.")
    assert r.lines[2] == "# GL206 `pageable-non-blocking-copy`"
    assert r.lines[4].endswith(" · formerly: GL134") and r.lines[-1] == f"Docs: {rule_url('GL206')}"


def test_list_rules_has_a_row_for_the_moved_code(cli):
    rows = {line.split()[0]: line.split() for line in cli("--list-rules").lines[1:]}
    assert rows["GL134"] == ["GL134", "pageable-non-blocking-copy", "capture-illegal", "moved", "to", "GL206", "no"]
    assert rows["GL206"][3] == "on"
    data = {row["code"]: row for row in json.loads(cli("--list-rules", "--output-format", "json").out)}
    assert data["GL134"] == {**data["GL206"], "code": "GL134", "default": "moved to GL206"}


# GL132 moved to GL308 (silent-frozen): NumPy on host data is host work the host never waits on.
# GL308 at 8:13 (per-step NumPy in model code), GL101 at 9:16.
SRC_NUMPY = SRC.replace("torch.from_numpy(arr).to(x.device, non_blocking=True)", "np.cumsum(lens)").replace(
    "arr: np.ndarray", "lens: list")
WARNING_NUMPY = ("graphlint: warning: GL132 is now GL308 (`numpy-in-hot-path`, family silent-frozen): "
                 "selectors and `# noqa` comments naming GL132 act on GL308. Name GL308 instead.")


@pytest.mark.parametrize("args, config, expected", [
    ([], "", ["GL308", "GL101"]),
    (["--select", "GL132"], "", ["GL308"]),
    (["--ignore", "gl132"], "", ["GL101"]),
    (["--per-file-ignores", "m.py:GL132"], "", ["GL101"]),
    ([], 'select = ["GL1"]\nextend-select = ["GL132"]', ["GL308", "GL101"]),
    ([], 'ignore = ["GL132", "GL134"]', ["GL101"]),
    (["--ignore", "GL13"], "", ["GL308", "GL101"]),  # a prefix of the old code is not redirected
])
def test_gl132_selectors_act_on_gl308(proj, cli, args, config, expected):
    write(proj, {"m.py": SRC_NUMPY}, config)
    r = concise(cli, *args, "m.py")
    assert codes(r) == expected
    named = " ".join(args) + config
    assert sorted(r.err.splitlines()) == [WARNING_NUMPY] * ("132" in named) + [WARNING] * ("GL134" in named)


def test_noqa_gl132_suppresses_gl308(proj, cli):
    write(proj, {"m.py": SRC_NUMPY.replace("np.cumsum(lens)", "np.cumsum(lens)  # noqa: GL132")})
    assert codes(concise(cli, "--warn-unused-noqa", "m.py")) == ["GL101"]


def test_explain_and_list_rules_say_where_gl132_went(cli):
    r = cli("rule", "GL132")
    assert r.rc == 0 and r.lines[2] == "# GL308 `numpy-in-hot-path`" and r.lines[4].endswith(" · formerly: GL132")
    rows = {line.split()[0]: line.split() for line in cli("--list-rules").lines[1:]}
    assert rows["GL132"] == ["GL132", "numpy-in-hot-path", "silent-frozen", "moved", "to", "GL308", "no"]
