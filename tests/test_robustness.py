"""The run-level contract of issue 20: whatever the input, findings or a one-line error, and an exit
status that says which.

Internal errors (GL002) in every phase, dead workers, deep expressions, Ctrl-C, a closed stdout, the
memory of `via` chains, and the summary when little was checked. `main()` runs in-process where it can;
subprocesses only where the operating system is the subject (signals, pipes, a segfault).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

import pytest

from graphlint.pipeline import workers
from graphlint.cli import main
from graphlint.index.summary import index_source
from graphlint.facts.kinds import CPU_TENSOR
from graphlint.index.project import ProjectIndex

GOOD = """\
import torch


class Good(torch.nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()
        return x
"""
BAD = """\
import torch


class Bad(torch.nn.Module):
    def forward(self, x):
        return x.sum().item()
"""
GOOD_LINE = "good.py:6:9: GL140 "


@pytest.fixture
def proj(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GRAPHLINT_OUTPUT_FORMAT", raising=False)
    monkeypatch.setenv("GRAPHLINT_CACHE_DIR", str(tmp_path / ".cache"))
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "bad.py").write_text(BAD)
    return tmp_path


@pytest.fixture
def cli(capsys):
    """cli(*args) -> (status, stdout lines, stderr) of an in-process `graphlint --output-format concise`."""
    def run(*args: str) -> tuple[int, list[str], str]:
        capsys.readouterr()
        rc = main(["--output-format", "concise", *args])
        cap = capsys.readouterr()
        return rc, cap.out.splitlines(), cap.err
    return run


def gl002(lines: list[str]) -> list[str]:
    return [line for line in lines if " GL002 " in line]


@contextmanager
def deadline(seconds: int):
    """Fail instead of hanging the suite (the defect under test is a hang)."""
    def expired(*_):
        raise TimeoutError(f"still running after {seconds} s")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def subprocess_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "GRAPHLINT_OUTPUT_FORMAT"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])  # this checkout, not an installed copy
    return env


# --- exit status and internal errors ----------------------------------------------------------------

def test_crashing_rule_is_a_gl002_finding_and_the_run_exits_2(proj, cli, monkeypatch):
    from graphlint.rules.transfers import ItemCall

    original = ItemCall.visit_Call

    def buggy(self, node):
        if self.ctx.unit.function.qualname == "Bad.forward":
            raise ValueError("rule bug")
        return original(self, node)

    monkeypatch.setattr(ItemCall, "visit_Call", buggy)
    monkeypatch.setattr(ItemCall, "_hooks_cache", None, raising=False)
    rc, lines, err = cli("good.py", "bad.py")
    assert rc == 2  # not 1, although there are findings too
    assert gl002(lines) == ["bad.py:5:1: GL002 Internal error in the check phase (`Bad.forward` was not checked): "
                            "ValueError: rule bug"]
    assert any(line.startswith(GOOD_LINE) for line in lines)  # the rest of the run goes on
    assert "Traceback" not in err
    rc, lines, err = cli("--verbose", "bad.py")
    assert "Traceback (most recent call last)" in err and "ValueError: rule bug" in err
    # Neither --exit-zero, nor a selection, nor `# noqa` turns an unchecked function into a pass.
    (proj / "bad.py").write_text(BAD.replace("def forward(self, x):", "def forward(self, x):  # noqa"))
    rc, lines, err = cli("--exit-zero", "--select", "GL101", "bad.py")
    assert rc == 2 and len(gl002(lines)) == 1


def test_internal_error_in_the_index_phase(proj, cli, monkeypatch):
    import graphlint.pipeline.engine as engine

    real = engine.build_summary

    def build_summary(src):
        if src.path == "bad.py":
            raise KeyError("index bug")
        return real(src)

    monkeypatch.setattr(engine, "build_summary", build_summary)
    rc, lines, _ = cli("good.py", "bad.py")
    assert rc == 2
    assert gl002(lines) == ["bad.py:1:1: GL002 Internal error in the index phase (the file was not checked): "
                            "KeyError: 'index bug'"]
    assert any(line.startswith(GOOD_LINE) for line in lines)


def test_internal_error_in_the_hot_path_phase(proj, cli, monkeypatch):
    from graphlint.pipeline.engine import Linter

    def hot_map(self, index):
        raise RuntimeError("hot path bug")

    monkeypatch.setattr(Linter, "hot_map", hot_map)
    (proj / "consts.py").write_text("N = 1\n")  # no functions: nothing it holds went unchecked
    (proj / "broken.py").write_text("def f(:\n")
    rc, lines, _ = cli(".")
    assert rc == 2
    assert sorted(gl002(lines)) == [
        f"{name}.py:1:1: GL002 Internal error in the hot path phase (the file was not checked): "
        "RuntimeError: hot path bug" for name in ("bad", "good")]
    assert any(line.startswith("broken.py:1:") and " GL000 " in line for line in lines)


def test_internal_error_in_the_suppress_phase(proj, cli, monkeypatch):
    import graphlint.pipeline.engine as engine

    def parse_noqa(lines):
        raise IndexError("noqa bug")

    monkeypatch.setattr(engine, "parse_noqa", parse_noqa)
    rc, lines, _ = cli("bad.py")
    # Without suppression the findings could be ones the user silenced: only the error is reported.
    assert (rc, lines[:-1]) == (2, ["bad.py:1:1: GL002 Internal error in the suppress phase "
                                    "(the file was not checked): IndexError: noqa bug"])


def test_an_error_outside_the_phases_is_one_line_and_exit_2(proj, cli, monkeypatch):
    import graphlint.pipeline.engine as engine

    def lint_sources(self, sources):
        raise AttributeError("engine bug")

    monkeypatch.setattr(engine.Linter, "lint_sources", lint_sources)
    rc, lines, err = cli("bad.py")
    assert (rc, lines) == (2, [])
    assert err.splitlines() == ["graphlint: error: internal error: AttributeError: engine bug "
                                "(please report it; --verbose shows the traceback)"]


def test_gl002_is_in_the_catalog(cli):
    rc, lines, _ = cli("--list-rules")
    assert rc == 0 and any(line.split()[:2] == ["GL002", "internal-error"] for line in lines)


# --- dead workers -----------------------------------------------------------------------------------

def test_a_dead_worker_is_retried_once_then_reported(tmp_path):
    once = tmp_path / "died-once"

    def work(i: int) -> int:
        if i == 3:  # dies every time: an out-of-memory kill, say
            os.kill(os.getpid(), signal.SIGKILL)
        if i == 17 and not once.exists():  # dies only the first time: the retry saves it
            once.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return i * 10

    failed, ticks = [], []

    def fail(i: int, why: str, tb: str) -> int:
        failed.append((i, why))
        return -1

    with deadline(60):
        out = workers.map_items(work, list(range(40)), 3, lambda: ticks.append(1), fail)
    assert out == [(i, -1 if i == 3 else i * 10) for i in range(40)]
    assert failed == [(3, "the worker process died twice (killed by SIGKILL)")]
    assert len(ticks) == 40 and once.exists()


def test_a_segfaulting_worker_does_not_hang_the_run(tmp_path):
    """R2: a worker killed by a crash in native code (here a real SIGSEGV in the check phase)."""
    for k in range(30):
        (tmp_path / f"m{k:02d}.py").write_text(GOOD)
    (tmp_path / "bad.py").write_text(BAD)
    script = textwrap.dedent("""
        import ctypes, sys
        import graphlint.pipeline.engine as engine
        real = engine.analyze_unit
        def analyze_unit(path, *args):
            if path == "bad.py":
                ctypes.string_at(0)  # a segfault, as libcst's parser gives on 10,000-term chains
            return real(path, *args)
        engine.analyze_unit = analyze_unit
        from graphlint.cli import main
        sys.exit(main(sys.argv[1:]))
    """)
    p = subprocess.run([sys.executable, "-c", script, "-j", "2", "--no-cache", "--output-format", "concise", "."],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120, env=subprocess_env())
    lines = p.stdout.splitlines()
    assert p.returncode == 2, p.stderr
    assert gl002(lines) == ["bad.py:1:1: GL002 Internal error in the check phase (the file was not checked): "
                            "the worker process died twice (killed by SIGSEGV)"]
    assert sum(" GL140 " in line for line in lines) == 30
    assert p.stderr == ""


# --- deep and long expressions ----------------------------------------------------------------------

def test_long_concatenation_at_module_level_is_linted(proj, cli):
    """R1: 600 terms overflowed the indexer's recursion (RecursionError, exit 1)."""
    (proj / "s.py").write_text("MSG = " + " + ".join(repr(f"p{i}") for i in range(600)) + "\n")
    assert cli("s.py") == (0, [], "")


def test_too_deep_for_python_itself_is_a_gl000(proj, cli):
    """CPython cannot compile these either: its parser raises RecursionError or MemoryError."""
    (proj / "sum.py").write_text("y = " + " + ".join(["x"] * 20_000) + "\n")
    (proj / "neg.py").write_text("y = " + "-" * 20_000 + "x\n")
    rc, lines, err = cli("sum.py", "neg.py")
    assert (rc, lines, err) == (1, [
        "neg.py:1:1: GL000 SyntaxError: too deeply nested for Python's parser (MemoryError)",
        "sum.py:1:1: GL000 SyntaxError: too deeply nested for Python's parser (RecursionError)",
        "Found 2 errors."], "")


def test_deep_expression_in_a_hot_function_is_reported_not_analysed(proj, cli):
    deep = " + ".join(repr(f"p{i}") for i in range(600))
    (proj / "bad.py").write_text(BAD.replace("return x.sum().item()", f"msg = {deep}\n        return x.sum().item()"))
    rc, lines, _ = cli("good.py", "bad.py")
    assert rc == 2
    assert gl002(lines) == ["bad.py:5:1: GL002 Internal error in the check phase (`Bad.forward` was not "
                            "checked): expression nested 600 levels deep (graphlint checks up to 200)"]
    assert any(line.startswith(GOOD_LINE) for line in lines)


def test_chains_that_crash_libcst_are_never_parsed(tmp_path):
    """R2's input: a 50,000-term boolean chain is flat for `ast` but 50,000 nested nodes for libcst,
    whose native parser overflows the C stack. In a serial run there is no worker to die instead: the
    indexer measures it and the function is reported unparsed. A 2,500-deep call chain checks that the
    indexer itself does not recurse per level."""
    chain = " and ".join(["x"] * 50_000)
    calls = "x" + ".a" * 2_500 + "()"
    (tmp_path / "m.py").write_text(
        f"import torch\n\n\nclass M(torch.nn.Module):\n    def forward(self, x):\n        if {chain}:\n"
        f"            return x\n        return x\n\n    def step(self, x):  # graphlint: hot\n"
        f"        return {calls}\n")
    p = subprocess.run([sys.executable, "-m", "graphlint", "-j", "1", "--no-cache", "--output-format", "concise",
                        "m.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=subprocess_env())
    assert (p.returncode, p.stderr) == (2, "")
    assert [line.split(" was not checked): ")[1] for line in gl002(p.stdout.splitlines())] == [
        "expression nested 50000 levels deep (graphlint checks up to 200)",
        "expression nested 2502 levels deep (graphlint checks up to 200)"]


# --- Ctrl-C and closed pipes ------------------------------------------------------------------------

def test_ctrl_c_serial_is_one_line_and_130(proj, cli, monkeypatch):
    import graphlint.pipeline.engine as engine

    def analyze_unit(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "analyze_unit", analyze_unit)
    assert cli("bad.py") == (130, [], "graphlint: interrupted\n")


def test_ctrl_c_in_a_pool_run_leaves_no_workers_and_no_tracebacks(tmp_path):
    """R10: SIGINT to the whole process group (what a terminal sends) while workers are busy."""
    for k in range(30):
        (tmp_path / f"m{k:02d}.py").write_text(GOOD)
    pids = tmp_path / "pids"
    pids.mkdir()
    # A terminal's foreground job takes SIGINT; a background job of a non-interactive shell (a CI runner
    # script) inherits it ignored, and so would the linted process: start it from the terminal's state.
    script = textwrap.dedent(f"""
        import os, signal, sys, time
        signal.signal(signal.SIGINT, signal.default_int_handler)
        import graphlint.pipeline.engine as engine
        def analyze_unit(*args):
            open(os.path.join({str(pids)!r}, str(os.getpid())), "w").close()
            time.sleep(60)
        engine.analyze_unit = analyze_unit
        from graphlint.cli import main
        sys.exit(main(sys.argv[1:]))
    """)
    p = subprocess.Popen([sys.executable, "-c", script, "-j", "2", "--no-cache", "."], cwd=tmp_path,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=subprocess_env(),
                         start_new_session=True)
    try:
        for _ in range(600):
            if len(list(pids.iterdir())) >= 2:
                break
            time.sleep(0.05)
        pool_pids = [int(f.name) for f in pids.iterdir()]
        assert len(pool_pids) == 2, "the workers never started"
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert (p.returncode, out, err) == (130, "", "graphlint: interrupted\n")
    time.sleep(0.2)
    for pid in pool_pids:
        assert not _alive(pid), f"worker {pid} outlived the run"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return not any(line.startswith("State:") and "Z" in line for line in fh)
    except FileNotFoundError:
        return False


def test_a_closed_stdout_keeps_the_run_status(proj, cli, monkeypatch):
    """R11, in-process: the reader leaves (`| head`, `| true`) while graphlint writes or flushes."""
    class Gone:
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

        def isatty(self) -> bool:
            return False

    (proj / "clean.py").write_text(GOOD.replace("        torch.cuda.synchronize()\n", ""))
    for args, status in ((["--output-format", "full", "clean.py"], 0), (["bad.py"], 1), (["--list-rules"], 0),
                         (["rule", "GL101"], 0)):
        monkeypatch.setattr(sys, "stdout", Gone())
        assert main(args) == status, args


def test_a_closed_pipe_at_exit_is_quiet(proj):
    """R11 with a real pipe whose reader is gone: the status stays, and no "Exception ignored" at exit."""
    (proj / "clean.py").write_text(GOOD.replace("        torch.cuda.synchronize()\n", ""))
    script = textwrap.dedent("""
        import os, sys
        from graphlint.cli import main
        codes = []
        for args in (["--output-format", "full", "clean.py"], ["bad.py"], ["--list-rules"]):
            r, w = os.pipe()
            os.close(r)
            os.dup2(w, 1)
            os.close(w)
            codes.append(main(args))
        sys.stderr.write(repr(codes))
    """)
    p = subprocess.run([sys.executable, "-c", script], cwd=proj, capture_output=True, text=True, timeout=120,
                       env=subprocess_env())
    assert (p.returncode, p.stderr) == (0, "[0, 1, 0]")


# --- memory -----------------------------------------------------------------------------------------

def test_via_chains_are_shared_not_copied():
    """R13: every function kept its own tuple of the chain from the root, n^2/2 references in all
    (8,000 chained functions: 876 MB for the whole run; the slow test below runs that)."""
    n = 3000
    lines = ["import torch", "", "def f0(x):  # graphlint: hot", "    return f1(x)"]
    for i in range(1, n):
        lines += [f"def f{i}(x):", f"    return f{i + 1}(x)" if i < n - 1 else "    return x.item()"]
    index = ProjectIndex([index_source("\n".join(lines) + "\n", "chain.py", "chain")])
    tracemalloc.start()
    try:
        hot = index.hot_functions()
        keys = {info.via_key for info in hot.values()}
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(hot) == len(keys) == n
    assert peak < 8 * 2**20, f"{peak / 2**20:.0f} MB"  # linear: ~1 MB; the copied tuples took ~40 MB
    assert hot[f"chain:f{n - 1}"].via == tuple(f"f{i}" for i in range(n))
    assert hot["chain:f0"].via == ("f0",)


def test_a_chain_of_helpers_each_binding_the_next_stays_within_the_stack():
    """`facts.follows.Helpers` read the helpers a body binds (`y = f1(x, d)`, for their device parameters) outside
    its depth count: 3,000 such helpers recursed once each, past Python's limit."""
    n = 3000
    lines = ["import torch", ""]
    for i in range(n - 1):
        lines += [f"def f{i}(x, d):", f"    y = f{i + 1}(x, d)", "    return x + d"]
    lines += [f"def f{n - 1}(x, d):", "    return x + d"]
    index = ProjectIndex([index_source("\n".join(lines) + "\n", "chain.py", "chain")])
    assert index.functions["chain:f0"].follows == ("d", "x")


def test_left_none_climbs_a_long_chain_of_callers_and_a_cycle_within_the_stack():
    """`CallFacts.left_none` asks each caller's own `left_none` for a None it passes on: 3,000 callers deep, and a
    function passing an item of its tuple-of-None default on to itself (`t[0]`), recursed past Python's limit."""
    n = 3000
    lines = ["import torch", "", "def g(x, d=None, t=(None, None)):", "    return g(x, d, t[0])", ""]
    for i in reversed(range(n)):
        lines += [f"def f{i}(x, d=None):", f"    return f{i + 1}(x, d)" if i < n - 1 else "    return x"]
    index = ProjectIndex([index_source("\n".join(lines) + "\n", "chain.py", "chain")])
    assert index.call_facts.left_none(index.functions[f"chain:f{n - 1}"]) == frozenset()  # (too deep: no evidence)
    assert index.call_facts.left_none(index.functions["chain:g"]) == frozenset()


def test_host_paths_climb_a_long_cycle_of_callers_within_the_stack():
    """`CallFacts.host_paths` asks each caller's own host paths for a value passed on: asked first for a function whose
    callers are a 3,000-long cycle (`f0` is called by the last one too), it recursed past Python's limit and the whole
    hot path phase was a GL002. Past MAX_FORWARD_DEPTH callers it reads no path; the short paths stay."""
    n = 3000
    lines = ["import torch", "", "def step(x):  # graphlint: hot", "    f0(x, torch.arange(4))", "    return f0(x, x)", ""]
    for i in range(n):
        lines += [f"def f{i}(x, t):", f"    return f{(i + 1) % n}(x, t)"]
    index = ProjectIndex([index_source("\n".join(lines) + "\n", "chain.py", "chain")])
    hot = index.with_host_paths(index.hot_functions())
    assert [(hop.chain(), params) for hop, _tier, params in hot["chain:f3"].host] == [
        (("step", "f0", "f1", "f2", "f3"), (("t", CPU_TENSOR),))]


@pytest.mark.slow  # ~8 s: 8,000 functions go through libcst; the memory of the whole run is the point
def test_whole_run_over_an_8000_function_chain_stays_under_200_mb(tmp_path):
    n = 8000
    lines = ["import torch", "", "def f0(x: torch.Tensor) -> torch.Tensor:  # graphlint: hot", "    return f1(x)"]
    for i in range(1, n):
        lines += [f"def f{i}(x: torch.Tensor) -> torch.Tensor:",
                  f"    return f{i + 1}(x)" if i < n - 1 else "    return x.sum().item()"]
    (tmp_path / "chain.py").write_text("\n".join(lines) + "\n")
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the forking parent (pytest, with torch).
    script = textwrap.dedent("""
        import sys
        from graphlint.cli import main
        rc = main(["--no-cache", "--output-format", "json", "chain.py"])
        peak = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:"))
        sys.stderr.write(f"{rc} {peak}")
    """)
    p = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env=subprocess_env())
    rc, peak_kb = map(int, p.stderr.split())
    assert rc == 1 and '"GL101"' in p.stdout
    assert peak_kb < 200 * 1024, f"{peak_kb / 1024:.0f} MB"


# --- never "All checks passed!" over nothing --------------------------------------------------------

def test_no_hot_root_is_not_all_checks_passed(proj, capsys):
    """F5: a file whose only function is no hot root was "All checks passed!"."""
    (proj / "step.py").write_text("import torch\n\n\ndef decode_step(x: torch.Tensor):\n    return x.sum().item()\n")
    assert main(["--output-format", "full", "step.py"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "No hot path found: 1 function not checked (`--scope all` checks it; `# graphlint: hot` marks a root)."]
    assert main(["--output-format", "json", "step.py"]) == 0
    assert capsys.readouterr().out.strip() == "[]"  # machine formats are unchanged



@pytest.mark.parametrize("scope", ["captured", "step"])
def test_a_narrowed_scope_with_nothing_in_it_says_so(proj, capsys, scope):
    """`--scope captured` over a forward that nothing captures said "No hot path found": there is one
    (`--scope hot` reports the `.item()`); the narrowed scope is what holds nothing."""
    (proj / "m.py").write_text(BAD)
    assert main(["--output-format", "full", "--scope", scope, "m.py"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"Nothing runs in the `{scope}` scope: 1 function not checked (`--scope hot` checks the code reached "
        "from a forward, `--scope all` every function)."]

def test_summary_counts_what_the_hot_path_left_out(proj, capsys):
    (proj / "clean.py").write_text(GOOD.replace("        torch.cuda.synchronize()\n", "")
                                   + "\n\ndef helper(x):\n    return x\n\n\ndef io(x):  # graphlint: cold\n    return x\n")
    assert main(["--output-format", "full", "clean.py"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "All checks passed!", "Checked 1 of 3 functions (the hot path); `--scope all` checks 1 more."]
    assert main(["--output-format", "full", "--scope", "all", "clean.py"]) == 0
    assert capsys.readouterr().out.splitlines() == ["All checks passed!"]  # the cold one is by choice


def test_via_does_not_depend_on_the_hash_seed(tmp_path: Path) -> None:
    """Twelve entry points each replay a graph and call one helper: the first step root to reach the helper names
    its `via`. Roots collected in a set came out in hash order, so two runs of the same code printed different
    chains (seen on LightLLM); the output must be the same under any PYTHONHASHSEED."""
    lines = ["import torch", "", "g = torch.cuda.CUDAGraph()", "", "def shared(x):", "    return x.sum().item()", ""]
    for k in range(12):
        lines += [f"def replay_{k}():", "    g.replay()", "", f"def step_{k}(x: torch.Tensor):", f"    replay_{k}()",
                  "    return shared(x)", ""]
    (tmp_path / "engine.py").write_text("\n".join(lines))
    outs = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run([sys.executable, "-m", "graphlint", "engine.py", "--output-format", "json", "--no-cache",
                               "--isolated", "--exit-zero", "-q"], cwd=tmp_path, env=env, text=True,
                              capture_output=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outs.add(proc.stdout)
    assert len(outs) == 1, outs
    assert '"step_0 (step: calls a graph replay)"' in outs.pop()


def test_a_long_chain_of_branch_rebindings_below_one_top_level_binding_stays_within_the_stack():
    """`_since_top` read each rebinding since a name's last top-level binding hop by hop, spending no depth: 200 `if c:
    x = x + 1` below `x = torch.randn(4)`, read by `x = x * 2`, recursed once per binding past Python's limit (a GL002
    for the whole file)."""
    lines = ["import torch", "", "def helper(x):", "    return x.sum().item()", "", "def step(x):",
             "    x = torch.randn(4)"]
    for _ in range(3000):
        lines += ["    if x.shape[0]:", "        x = x + 1"]
    lines += ["    x = x * 2", "    return helper(x)"]
    summary = index_source("\n".join(lines) + "\n", "chain.py", "chain")
    assert set(summary.functions) == {"helper", "step"}


def test_a_long_chain_of_module_level_conditional_strings_stays_within_the_stack():
    """`facts.literals.folded_strings` read each arm of a conditional expression one frame deeper: a module-level
    `E = "cuda" if sys.argv else "cuda" if sys.argv else ..` 1,500 deep recursed past Python's limit (a GL002 for the
    whole file). Past `MAX_FOLD_DEPTH` levels it folds to nothing."""
    chain = " if sys.argv else ".join(['"cuda"'] * 1500)
    summary = index_source(f'import sys\nD = "cuda"\nE = {chain} if sys.argv else "cpu"\n', "m.py", "m")
    assert summary.module_strings == {"D": ("=cuda",)}


def test_a_chain_of_host_dicts_each_stored_from_the_next_stays_within_the_stack():
    """`_stored_host_items` reads a dict of host tensors' stores under the hypothesis that it holds them, from depth 0
    again: 150 dicts each stored from the next (`d0[k] = d1[k] * 0.5`, ...) recursed once per dict past Python's limit
    (a GL002 for the whole file). Past MAX_DEPTH nested hypotheses a dict's stores say nothing."""
    n = 150
    lines = ["import torch", "", "def use(d):", "    return d", "", "def step(vals, keys):"]
    lines += [f"    d{i} = {{k: v.cpu() for k, v in vals.items()}}" for i in range(n + 1)]
    lines += ["    for k in keys:", *(f"        d{i}[k] = d{i + 1}[k] * 0.5" for i in range(n)), "    use(d0)"]
    summary = index_source("\n".join(lines) + "\n", "chain.py", "chain")
    assert set(summary.functions) == {"use", "step"}


def test_a_chain_of_local_lambdas_each_calling_the_last_stays_within_the_stack(proj, cli):
    """`Inference.applied` reads a call of a local lambda through its body, and a call in that body through the next
    lambda's: 3,000 lambdas each calling the last (`f1 = lambda t: f0(t)`, ...) recursed once per lambda past Python's
    limit (a GL002 for the unit). Past MAX_APPLIED nested applications the call reads as any unknown call."""
    n = 3000
    lines = ["import torch", "", "def step(x):  # graphlint: hot", "    f0 = lambda t: t * 2"]
    lines += [f"    f{i} = lambda t: f{i - 1}(t)" for i in range(1, n)]
    lines += [f"    y = f{n - 1}(x)", "    return y.item()"]
    (proj / "lam.py").write_text("\n".join(lines) + "\n")
    rc, out, _ = cli("lam.py")
    assert not gl002(out) and rc == 1, out


def test_a_deeply_nested_yield_is_indexed_within_the_stack():
    """`follows.yield_follows` reads a generator's yields one frame or two per level of the expression: a `yield t + t
    + ..` of 900 terms recursed past Python's limit in the index phase (a GL002 for the whole file, where the check
    phase reports the one function too deep for it). Past MAX_FOLLOWED_NESTING the yields follow nothing."""
    chain = " + ".join(["t"] * 900)
    summary = index_source(f"def gen(t):\n    yield {chain}\n\ndef ok(t):\n    yield t * 2\n", "g.py", "g")
    assert summary.functions["gen"].yield_follows == ()
    assert summary.functions["ok"].yield_follows == ("t",)


def test_properties_returning_each_other_stay_within_the_stack(proj, cli):
    """`stored_field` reads a property that returns a field as it is (`CallFacts.getter_field`) as that field: two
    properties returning each other (`a` of `self.b`, `b` of `self.a`) recursed without end, and a chain of 1,000
    past Python's limit (a GL002 for the unit). A property being read, or one past MAX_GETTERS_READ, says nothing."""
    n = 1000
    lines = ["import torch", "", "class M:", "    def __init__(self, t):", "        self.p0 = t.cuda()",
             "    @property", "    def a(self):", "        return self.b", "    @property", "    def b(self):",
             "        return self.a"]
    for i in range(1, n):
        lines += ["    @property", f"    def p{i}(self):", f"        return self.p{i - 1}"]
    lines += ["", "def step(x):  # graphlint: hot", "    m = M(x)", f"    return m.a.item(), m.p{n - 1}.item()"]
    (proj / "props.py").write_text("\n".join(lines) + "\n")
    rc, out, _ = cli("props.py")
    assert not gl002(out) and rc == 1, out
