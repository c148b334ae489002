"""The result cache (graphlint/pipeline/cache.py): data only, never stale, never a traceback, never evicting.

Each defect of docs/defects.md's "Cache" section has its reproducer here (C1-C5), all in-process on
tiny projects. What entries hold is checked by re-running with `--no-cache`: a warm run must print
exactly what a cold one does, and counting `Linter.lint_one` calls tells hits from misses.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import random
import shutil
import sys
from pathlib import Path

import pytest

import graphlint.pipeline.cache as gcache
from graphlint import __version__
from graphlint.cli import main
from graphlint.pipeline.config import Config, load_file
from graphlint.diagnostics import Finding
from graphlint.pipeline.engine import Linter, build_summary
from graphlint.pipeline.sources import read_source
from graphlint.index.summary import ModuleSummary

# C2: `a.py` reads `helper` through the package's re-export and `flag` from its grandparent class.
PROJECT = {
    "pkg/__init__.py": "from .b import helper\n",
    "pkg/b.py": "def helper(x) -> int:\n    return 1\n",
    "g.py": "import torch\n\n\nclass G(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.flag = 0\n",
    "p.py": "from g import G\n\n\nclass P(G):\n    pass\n",
    "a.py": """\
import torch
from pkg import helper
from p import P


class M(torch.nn.Module):
    def forward(self, x):
        if helper(x):
            return x
        return x.sum().item()


class N(P):
    def forward(self, x):
        if self.flag:
            return x
        return x + 1
""",
}
TENSOR_HELPER = "import torch\n\n\ndef helper(x) -> torch.Tensor:\n    return x\n"


def write(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n\n[tool.graphlint]\n")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def lint(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["--output-format", "concise", *args])
    return rc, out.getvalue(), err.getvalue()


def folder(root: Path) -> Path:
    major, minor = sys.version_info[:2]
    return root / ".graphlint_cache" / f"v{__version__}-{gcache.CACHE_FORMAT}-py{major}.{minor}"


def entry_file(root: Path, name: str) -> Path:
    return folder(root) / gcache._entry_name(os.path.realpath(root / name))


@pytest.fixture
def proj(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GRAPHLINT_OUTPUT_FORMAT", raising=False)
    monkeypatch.delenv("GRAPHLINT_CACHE_DIR", raising=False)
    write(tmp_path, PROJECT)
    return tmp_path


@pytest.fixture
def linted(monkeypatch) -> list[str]:
    """The display paths `Linter.lint_one` ran on (phase-2 misses), in order."""
    seen: list[str] = []
    original = Linter.lint_one

    def counting(self, src, *args):
        seen.append(src.path)
        return original(self, src, *args)

    monkeypatch.setattr(Linter, "lint_one", counting)
    return seen


@pytest.fixture
def no_unpickling(monkeypatch):
    """Fail the test if anything unpickles while it runs."""
    def refuse(*_args, **_kw):
        raise AssertionError("the cache must never unpickle")

    for name in ("load", "loads", "Unpickler"):
        monkeypatch.setattr(pickle, name, refuse)


class _Payload:
    """Unpickling this creates `path`: the code a crafted cache would run."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return (os.mkdir, (self.path,))


def decode_entry(path: Path) -> gcache.Entry:
    return gcache.from_plain(gcache.Entry, gcache.loads(path.read_bytes()))


def encode_entry(path: Path, entry: gcache.Entry) -> None:
    path.write_bytes(gcache.dumps(gcache.to_plain(gcache.Entry, entry)))


# --- C1: data only ----------------------------------------------------------------------------------

def test_planted_pickles_are_never_loaded(proj, no_unpickling):
    """C1: the old cache file, and pickles in every entry slot (raw and behind a valid checksum)."""
    expected = lint("--no-cache", ".")
    marker = proj / "pwned"
    crafted = pickle.dumps(_Payload(marker))
    cache_dir = proj / ".graphlint_cache"
    cache_dir.mkdir()
    (cache_dir / f"v{__version__}-1.pickle").write_bytes(crafted)  # what 0.1.22 unpickled on every run
    (cache_dir / "notes.pickle").write_bytes(crafted)
    folder(proj).mkdir()
    for i, name in enumerate(n for n in PROJECT if n.endswith(".py")):
        entry_file(proj, name).write_bytes(crafted if i % 2 else gcache.dumps(crafted))
    assert lint(".") == expected
    assert not marker.exists()
    assert not (cache_dir / f"v{__version__}-1.pickle").exists()  # an old version's cache: pruned
    assert (cache_dir / "notes.pickle").exists()  # not a name graphlint writes: left alone
    assert lint(".") == expected


def test_entries_are_msgpack_behind_a_checksum(proj):
    lint(".")
    data = entry_file(proj, "a.py").read_bytes()
    msgpack = pytest.importorskip("msgpack")
    plain = msgpack.unpackb(data[16:], raw=False)
    assert plain[1] == os.path.realpath(proj / "a.py")  # Entry.path: plain strings, no objects
    assert (proj / ".graphlint_cache" / ".gitignore").read_text() == gcache.GITIGNORE


# --- C2: never stale through dependencies -----------------------------------------------------------

@pytest.mark.parametrize("edit, finding", [
    pytest.param({"pkg/b.py": TENSOR_HELPER}, "a.py:8:12: GL110", id="callee-return-through-init-reexport"),
    pytest.param({"g.py": PROJECT["g.py"].replace("self.flag = 0", "self.flag = torch.zeros(1, device=\"cuda\")")},
                 "a.py:15:12: GL110", id="tensor-attribute-in-grandparent-class"),
])
def test_an_edit_in_a_dependency_is_never_served_stale(proj, edit, finding):
    """C2: `a.py` does not import `b.py` or `g.py` itself; the warm run must still see their change."""
    assert "GL110" not in lint(".")[1]
    write(proj, edit)
    warm = lint(".")
    assert warm == lint("--no-cache", ".")
    assert finding in warm[1]


def test_a_file_shadowed_by_a_same_named_module_keeps_its_own_dependencies(proj):
    """`x/m.py` and `y/m.py` are both module `m`; the index keeps one, but `x/m.py`'s key still covers
    what `x/m.py` imports."""
    write(proj, {"x/m.py": PROJECT["a.py"], "y/m.py": "z = 1\n"})
    lint(".")
    write(proj, {"pkg/b.py": TENSOR_HELPER})
    warm = lint(".")
    assert warm == lint("--no-cache", ".") and "x/m.py:8:12: GL110" in warm[1]


def test_an_unrelated_edit_relints_only_the_edited_file(proj, linted):
    lint(".")
    linted.clear()
    assert lint(".")[0] == 1 and linted == []  # warm: every file is a hit
    (proj / "z.py").write_text("x = 1\n")
    lint(".")
    assert linted == ["z.py"]  # nothing imports z.py
    linted.clear()
    write(proj, {"g.py": PROJECT["g.py"] + "\n\nY = 2\n"})  # a module-level name: no fact changed
    lint(".")
    assert linted == ["g.py"]


def test_a_new_submodule_of_an_imported_package_is_seen(proj):
    """`import pkg` then `pkg.c.f()`: the dependency appears when pkg/c.py does."""
    write(proj, {"q.py": "import torch\nimport pkg\n\n\nclass Q(torch.nn.Module):\n    def forward(self, x):\n"
                         "        if pkg.c.f(x):\n            return x\n        return x\n"})
    lint(".")
    write(proj, {"pkg/c.py": TENSOR_HELPER.replace("helper", "f")})
    warm = lint(".")
    assert warm == lint("--no-cache", ".") and "q.py:7:12: GL110" in warm[1]


def test_an_edit_in_a_module_imported_by_its_short_name_is_seen(proj):
    """`repo/scripts/s.py` does `import lib.b as b` (the script puts `repo/` on `sys.path`), which is module
    `repo.lib.b`: it is a dependency of the script, so the warm run sees its change."""
    script = PROJECT["a.py"].replace("from pkg import helper", "import lib.b as b").replace("if helper(", "if b.helper(")
    write(proj, {"repo/__init__.py": "", "repo/lib/__init__.py": "", "repo/lib/b.py": PROJECT["pkg/b.py"],
                 "repo/scripts/s.py": script})
    assert "repo/scripts/s.py:8:12: GL110" not in lint(".")[1]
    write(proj, {"repo/lib/b.py": TENSOR_HELPER})
    warm = lint(".")
    assert warm == lint("--no-cache", ".") and "repo/scripts/s.py:8:12: GL110" in warm[1]


# --- C3: never across environments ------------------------------------------------------------------

@pytest.mark.parametrize("change", ["python", "libcst", "graphlint-code"])
def test_entries_of_another_environment_are_never_served(proj, monkeypatch, change):
    """C3: an entry written under another Python (or libcst, or graphlint code) is a miss. The poisoned
    entry is served when its environment matches, so the test can fail."""
    write(proj, {"m.py": "x = 1\n"})
    expected = lint("--no-cache", "m.py")
    lint("m.py")
    path = entry_file(proj, "m.py")
    entry = decode_entry(path)
    entry.summary.syntax_error = (1, 1, "invalid syntax (replayed from another Python)")
    entry.findings = [Finding(path="m.py", line=1, column=1, code="GL000", message="SyntaxError: stale")]

    gcache.environment.cache_clear()
    with monkeypatch.context() as m:
        if change == "python":
            m.setattr(gcache, "sys", type("Sys", (), {"version_info": (3, 99, 0)}))
        elif change == "libcst":
            m.setattr("libcst._version.__version__", "0.0.1")
        else:
            m.setattr(gcache, "__file__", str(proj / "elsewhere" / "pipeline" / "cache.py"))
        entry.env = gcache.environment()
    gcache.environment.cache_clear()

    encode_entry(path, entry)
    assert lint("m.py") == expected
    entry.env = gcache.environment()
    encode_entry(path, entry)
    assert "GL000" in lint("m.py")[1]  # same environment: the cache is trusted


def test_each_python_version_has_its_own_folder(proj):
    lint(".")
    assert folder(proj).is_dir()
    assert [p.name for p in (proj / ".graphlint_cache").iterdir() if p.name.startswith("v")] == [folder(proj).name]


# --- C4: a bad entry is a miss -----------------------------------------------------------------------

def _shape_break(plain, rng: random.Random):
    """Replace one node of a decoded entry by a value of another type (never None, never a plain value
    the same type could validate): the entry must then fail validation, or stay harmless."""
    slots = []

    def walk(node):
        if isinstance(node, list):
            for i, child in enumerate(node):
                slots.append((node, i))
                walk(child)
        elif isinstance(node, dict):
            for k, child in node.items():
                slots.append((node, k))
                walk(child)

    walk(plain)
    parent, key = rng.choice(slots)
    old = parent[key]
    choices = [v for v in (7, "x", [1, 2], {"k": 1}, True, 1.5, b"\x00") if type(v) is not type(old)]
    parent[key] = rng.choice(choices)
    return plain


def _mutate(rng: random.Random, root: Path, targets: list[Path], marker: Path) -> str:
    """One random corruption of the cache; returns its name (for the failure message)."""
    path = rng.choice(targets)
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    data = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
    kind = rng.choice(["flip", "truncate", "delete", "garbage", "empty", "shape", "top-shape", "pickle",
                       "framed-pickle", "foreign", "other-env", "symlink", "directory", "fifo", "plant"])
    if kind in ("symlink", "directory", "fifo", "delete") or path.is_symlink():
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    if kind == "flip" and data:
        buf = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            buf[rng.randrange(len(buf))] ^= rng.randint(1, 255)
        path.write_bytes(bytes(buf))
    elif kind == "truncate":
        path.write_bytes(data[: rng.randrange(len(data) + 1)])
    elif kind == "garbage":
        path.write_bytes(rng.randbytes(rng.randint(1, 300)))
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "shape" and data:
        try:
            plain = gcache.loads(data)
        except Exception:  # already corrupt: corrupt it differently
            plain = [1]
        path.write_bytes(gcache.dumps(_shape_break(plain, rng)))
    elif kind == "top-shape":
        path.write_bytes(gcache.dumps(rng.choice([None, 3, "entry", [], {}, [[[]]], {"env": 1}, [1] * 6])))
    elif kind in ("pickle", "framed-pickle"):
        crafted = pickle.dumps(_Payload(marker))
        path.write_bytes(crafted if kind == "pickle" else gcache.dumps(crafted))
    elif kind == "foreign":
        other = rng.choice(targets)
        if other.is_file() and not other.is_symlink():
            path.write_bytes(other.read_bytes())
    elif kind == "other-env" and data:
        with contextlib.suppress(Exception):
            entry = gcache.from_plain(gcache.Entry, gcache.loads(data))
            entry.env = "0" * 32
            encode_entry(path, entry)
    elif kind == "symlink":
        path.symlink_to(rng.choice([*targets, Path("/dev/zero")]))
    elif kind == "directory":
        path.mkdir()
    elif kind == "fifo" and hasattr(os, "mkfifo"):
        os.mkfifo(path)
    elif kind == "plant":
        (path.parent / f"{rng.getrandbits(128):032x}.msgpack").write_bytes(rng.randbytes(40))
        (root / ".graphlint_cache" / "v0.0.1-1.pickle").write_bytes(pickle.dumps(_Payload(marker)))
    return kind


def test_500_random_cache_mutations_give_no_traceback_and_the_cold_result(proj, no_unpickling):
    """C4: 500 random corruptions (byte flips, truncation, deletion, garbage, wrong-shape msgpack behind a
    valid checksum, pickles, entries of other files and environments, symlinks, folders, FIFOs), each
    followed by an in-process run that must find exactly what `--no-cache` finds, with nothing on
    stderr. Most runs go through the Linter API on sources read once (a CLI run costs twice as much in
    discovery); every tenth is a full `main()` run, which must also give the same exit status and output.
    Entries forged on purpose to be valid are out of scope: the cache is data, not a signature."""
    expected = lint("--no-cache", ".")
    assert expected[0] == 1 and expected[2] == ""
    assert lint(".") == expected
    sources = [read_source(p) for p in sorted(proj.rglob("*.py"))]
    linter = Linter(load_file(proj / "pyproject.toml"), cache_dir=proj / ".graphlint_cache")
    cold = Linter(load_file(proj / "pyproject.toml")).lint_sources(sources).findings
    marker = proj / "pwned"
    targets = sorted(folder(proj).iterdir())
    assert len(targets) == 5
    rng = random.Random(20)
    for i in range(500):
        kind = _mutate(rng, proj, targets, marker)
        if i % 10 == 0:
            assert lint(".") == expected, f"iteration {i}: {kind}"
        else:
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                found = linter.lint_sources(sources).findings
            assert (found, err.getvalue()) == (cold, ""), f"iteration {i}: {kind}"
        assert not marker.exists(), f"iteration {i}: {kind} ran code"


def test_a_flipped_byte_that_keeps_the_shape_is_a_miss(proj):
    """The checksum: one changed letter in a stored message is still valid msgpack of the right shape."""
    expected = lint(".")
    path = entry_file(proj, "a.py")
    data = path.read_bytes()
    i = data.index(decode_entry(path).findings[0].message.encode())
    path.write_bytes(data[:i] + b"X" + data[i + 1:])
    assert lint(".") == expected


def test_an_entry_with_string_coded_kinds_is_a_miss(proj, linted):
    """Cache format 2 stored the index's kinds as strings ("items:cpu_tensor,host"): such an entry, valid in
    every other way (checksum, environment), must be re-linted, not decoded into a wrong summary."""
    write(proj, {"h.py": "import torch\n\n\ndef pair(x):\n    return x.cpu(), 1\n"})
    expected = lint(".")
    path = entry_file(proj, "h.py")

    def old_form(v):
        if v == ["items", ["cpu_tensor", "host"]]:
            return "items:cpu_tensor,host"
        if isinstance(v, dict):
            return {k: old_form(x) for k, x in v.items()}
        return [old_form(x) for x in v] if isinstance(v, (list, tuple)) else v

    plain = gcache.to_plain(gcache.Entry, decode_entry(path))
    stale = old_form(plain)
    assert stale != plain  # the entry holds the tuple kind the test rewrites
    path.write_bytes(gcache.dumps(stale))
    linted.clear()
    assert lint(".") == expected
    assert "h.py" in linted


def test_codec_rejects_wrong_shapes():
    bad = [None, 1, "x", [], {}, [1] * 6, ["e", "p", "h", [], None, None]]
    for data in bad:
        with pytest.raises(gcache.Invalid):
            gcache.from_plain(gcache.Entry, data)
    with pytest.raises(gcache.Invalid):
        gcache.from_plain(list[Finding], [["a.py", True, 1, "GL1", "m", "", 0, 0, "error", "", [], [], None, {}]])
    with pytest.raises(gcache.Invalid):
        gcache.loads(b"\0" * 16 + b"\x90")  # valid msgpack, wrong checksum


def test_codec_round_trips_real_summaries_and_findings():
    """Every summary and finding of the examples (fix edits, `via` chains, markers) comes back equal."""
    root = Path(__file__).resolve().parents[2] / "examples"
    sources = [read_source(p) for p in sorted(root.glob("*.py"))]
    findings = Linter(Config(), cache_dir=None).lint_sources(sources).findings
    assert any(f.fix for f in findings) and any(f.via for f in findings)
    for src in sources:
        summary = build_summary(src)
        assert gcache.from_plain(ModuleSummary, gcache.loads(gcache.dumps(gcache.to_plain(ModuleSummary, summary)))) \
            == summary
    back = gcache.from_plain(list[Finding], gcache.loads(gcache.dumps(gcache.to_plain(list[Finding], findings))))
    assert back == findings and [f.extra for f in back] == [f.extra for f in findings]


# --- C5: no eviction, pruning ------------------------------------------------------------------------

def test_linting_a_subset_keeps_the_other_entries(proj, linted):
    """C5: a run over one file leaves every other file's entry untouched, so the next full run is warm."""
    lint(".")
    before = {p.name: p.read_bytes() for p in folder(proj).iterdir()}
    write(proj, {"a.py": PROJECT["a.py"] + "\n# edited\n"})
    lint("a.py")
    after = {p.name: p.read_bytes() for p in folder(proj).iterdir()}
    changed = {n for n in before if after.get(n) != before[n]}
    assert changed == {entry_file(proj, "a.py").name}
    linted.clear()
    full = lint(".")
    assert linted == ["a.py"]  # a subset run's key differs from a full one's: the edited file relints
    assert full == lint("--no-cache", ".")


def test_a_run_from_another_directory_is_warm_and_shows_its_own_paths(proj, monkeypatch, linted):
    """C5: entries are keyed by real path; display paths are re-attached to the run's directory."""
    (proj / "sub").mkdir()
    lint(".")
    monkeypatch.chdir(proj / "sub")
    linted.clear()
    got = lint("..", "--cache-dir", "../.graphlint_cache")
    assert linted == []
    assert got == lint("..", "--no-cache") and "../a.py:8:12: GL110" not in got[1] and "../a.py:" in got[1]


def test_old_versions_are_pruned_and_user_files_kept(proj):
    cache_dir = proj / ".graphlint_cache"
    old = [cache_dir / "v0.1.20-1.pickle", cache_dir / "v0.1.21-2-py3.11", cache_dir / "v0.1.22-1-py3.10"]
    kept = [cache_dir / "venv", cache_dir / "version.txt", cache_dir / f"v{__version__}-{gcache.CACHE_FORMAT}-py3.99"]
    for path in old + kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.mkdir() if "." not in path.name[-4:] or path.name.endswith(("py3.11", "py3.10", "py3.99")) \
            else path.write_text("x")
    lint(".")
    assert [p for p in old if p.exists()] == []
    assert all(p.exists() for p in kept)  # other Pythons of this version, and what graphlint never writes


def test_stale_entries_and_leftover_temp_files_are_swept(proj):
    lint(".")
    gone = folder(proj) / ("0" * 32 + ".msgpack")  # the entry of a file deleted long ago
    temp = folder(proj) / ".crashed.tmp"
    for path in (gone, temp):
        path.write_bytes(b"x")
        os.utime(path, (1, 1))
    write(proj, {"z.py": "x = 1\n"})  # a run that writes sweeps
    lint(".")
    assert not gone.exists() and not temp.exists()
    assert entry_file(proj, "a.py").exists()


# --- writing ------------------------------------------------------------------------------------------

def test_a_failed_write_leaves_no_partial_entry(proj, monkeypatch):
    expected = lint("--no-cache", ".")

    def fail(*_args):
        raise OSError("disk full")

    with monkeypatch.context() as m:
        m.setattr(gcache.os, "replace", fail)
        assert lint(".") == expected
    assert list(folder(proj).iterdir()) == []  # temp files removed, nothing half-written
    assert lint(".") == expected and len(list(folder(proj).iterdir())) == 5


def test_concurrent_runs_leave_a_valid_cache(proj, linted):
    """Four forked runs write the same cold cache at once; every entry decodes and the next run is warm."""
    if not hasattr(os, "fork"):
        pytest.skip("needs fork")
    pids = []
    for _ in range(4):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            code = 1
            try:
                code = 0 if lint(".")[0] == 1 else 1
            finally:
                os._exit(code)
        pids.append(pid)
    assert all(os.waitpid(pid, 0)[1] == 0 for pid in pids)
    for path in folder(proj).iterdir():
        assert decode_entry(path).findings is not None
    linted.clear()
    warm = lint(".")
    assert linted == []
    assert warm == lint("--no-cache", ".")


def test_json_when_msgpack_is_missing(proj, monkeypatch, linted):
    monkeypatch.setattr(gcache, "msgpack", None)
    gcache.environment.cache_clear()
    try:
        expected = lint("--no-cache", ".")
        assert lint(".") == expected
        assert {p.suffix for p in folder(proj).iterdir()} == {".json"}
        linted.clear()
        assert lint(".") == expected and linted == []
    finally:
        gcache.environment.cache_clear()


def test_a_field_read_from_constructions_in_another_file_is_never_served_stale(tmp_path, monkeypatch):
    """`KVCache.current_length` is what every construction passes (`CallFacts.forwarded`): `kv.py` imports neither
    `build.py` (the one construction, which no hot function reaches) nor `model.py`, yet a construction that now
    passes a device tensor must re-lint it. (`Other` keeps a field of that name on the device, so no fact for a
    receiver of any class, `CallFacts.fields`, holds it.)"""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GRAPHLINT_OUTPUT_FORMAT", raising=False)
    monkeypatch.delenv("GRAPHLINT_CACHE_DIR", raising=False)
    kv = ("import torch\n\n\nclass KVCache:\n    def __init__(self, data, current_length):\n"
          "        self.data = data\n        self.current_length = current_length\n\n"
          "    def length(self):\n        return self.current_length.item()\n\n\n"
          "class Other:\n    def __init__(self, n: int):\n        self.current_length = torch.zeros(n, device=\"cuda\")\n")
    build = ("import torch\nfrom kv import KVCache\n\n\ndef build(n: int, x: torch.Tensor):\n"
             "    lens = torch.zeros(n, dtype=torch.long, device=\"cpu\")\n    cache = KVCache(x, {})\n    return cache\n")
    model = ("import torch\nfrom kv import KVCache\n\n\nclass M(torch.nn.Module):\n"
             "    def __init__(self, cache: KVCache):\n        super().__init__()\n        self.cache = cache\n\n"
             "    def forward(self, x: torch.Tensor):\n        return x[: self.cache.length()]\n")
    write(tmp_path, {"kv.py": kv, "build.py": build.format("lens[0]"), "model.py": model})
    assert "GL101" not in lint(".")[1]
    write(tmp_path, {"build.py": build.format("x.sum()")})
    warm = lint(".")
    assert warm == lint("--no-cache", ".")
    assert "kv.py:10" in warm[1] and "GL101" in warm[1]


def test_a_helper_handed_its_callers_self_is_never_served_stale(tmp_path, monkeypatch):
    """`search.py`'s `rescore(model, x)` is only ever handed `Decoder`'s own `self` (`Inst`), so `model.scores(x)`
    reads `Decoder.scores`; `search.py` does not import `model.py` (the reverse), yet a `scores` that no longer returns a
    device tensor must re-lint it (`_instance_reach`)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GRAPHLINT_OUTPUT_FORMAT", raising=False)
    monkeypatch.delenv("GRAPHLINT_CACHE_DIR", raising=False)
    search = ("import math\n\n\ndef rescore(model, x):\n    out = model.scores(x)\n    s = out[0][1]\n"
              "    return math.exp(s)\n")
    model = ("import torch\nfrom search import rescore\n\n\nclass Decoder(torch.nn.Module):\n"
             "    def forward(self, x: torch.Tensor):\n        return rescore(self, x)\n\n"
             "    def scores(self, x: torch.Tensor):\n        return {}\n")
    write(tmp_path, {"search.py": search, "model.py": model.format("torch.log_softmax(x, dim=-1)")})
    assert "search.py:7" in lint(".")[1]
    write(tmp_path, {"model.py": model.format("self.table(x)")})  # unknown now: no host method either (`methods`)
    warm = lint(".")
    assert warm == lint("--no-cache", ".")
    assert "search.py:7" not in warm[1]
